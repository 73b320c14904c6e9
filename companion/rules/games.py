"""The game registry: every game the companion knows, by its record name, and ``replay``.

The one place the games are listed (:func:`add_game`, below the function): the rules
find each game's rules module here, and the web layer each game's web package
(``companion.web.games.load_flows``). A module of its own so that the package's other
modules (the evening's ledger) can replay any game without importing the package itself.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .contract import GameRules
from .errors import RuleError

ROOT = Path(__file__).resolve().parents[2]
"""The folder a rules text's place is relative to (the repository's, above ``companion``)."""


@dataclass(frozen=True)
class Registered:
    """One game in the registry: where its rules, its web package and its rules texts are.

    What else generic code asks of a game, the game's own modules say: its rules module
    (``companion.rules.contract``: the contract, and what the record book reads of its
    games) and its web package's flow (``companion.web.flow.GameFlow``: its screens, its
    round word, its stylesheet, how its records are said)."""

    name: str
    """Its record name (``tromplemond``)."""
    rules: str
    """Its pure rules module (``companion.rules.tromplemond``)."""
    web: str
    """Its web package (``companion.web.games.tromplemond``); a game whose package does not
    exist gets the web layer's default flow."""
    texts: str
    """Where its rules texts for players are, one per language: a path with ``{lang}`` in
    it (and maybe ``{catalogues}``, the app's catalogues folder), relative to :data:`ROOT`
    unless absolute."""
    english: str
    """Where its English rules text is, which a language without a text of its own reads."""
    translations: str | None = None
    """The folder of its own message catalogues (``<lang>/LC_MESSAGES/messages.po``: the
    words of its templates, its flow and its rules' codes), relative to :data:`ROOT` unless
    absolute; None: its words are in the app's catalogues."""

    def catalogues(self) -> Path | None:
        """The folder of its own message catalogues (None: it has none)."""
        return ROOT / self.translations if self.translations is not None else None

    def translated(self, language: str, catalogues: Path) -> Path | None:
        """Its rules text in ``language`` (None: it has none of its own)."""
        path = self._path(self.english if language == "en" else self.texts, language,
                          catalogues)
        return path if path.is_file() else None

    def rules_text(self, language: str, catalogues: Path) -> Path | None:
        """Its rules text in ``language``, else in English (None: it has none)."""
        return self.translated(language, catalogues) or self.translated("en", catalogues)

    @staticmethod
    def _path(place: str, language: str, catalogues: Path) -> Path:
        return ROOT / place.format(lang=language, catalogues=catalogues)


_REGISTRY: dict[str, Registered] = {}

GAMES: list[str] = []
"""The games the companion knows, by their record name, in the order they were added
(the new-table form's order). Changed only by :func:`add_game` and :func:`forget_game`."""


def add_game(name: str, *, rules: str | None = None, web: str | None = None,
             texts: str | Path | None = None, translations: str | Path | None = None) -> None:
    """Add a game to the registry: its rules in ``rules`` (default
    ``companion.rules.<name>``), its web package in ``web`` (default
    ``companion.web.games.<name>``), its rules texts at ``texts``, a path with ``{lang}``
    (``…/texts/{lang}.md``: ``en`` the English; default: ``docs/rules/<name>.md`` in
    English and ``<lang>/rules/<name>.md`` beside the app's catalogues), its own message
    catalogues in the folder ``translations`` (default: none, its words are in the app's
    catalogues). Adding a game again changes where it is found."""
    if texts is None:
        place, english = f"{{catalogues}}/{{lang}}/rules/{name}.md", f"docs/rules/{name}.md"
    else:
        place = str(texts)
        english = place.replace("{lang}", "en")
    entry = Registered(name, rules or f"{__package__}.{name}",
                       web or f"companion.web.games.{name}", place, english,
                       None if translations is None else str(translations))
    if name not in _REGISTRY:
        GAMES.append(name)
    _REGISTRY[name] = entry


def forget_game(name: str) -> None:
    """Take a game out of the registry (a test's made-up game, once the test is done)."""
    _REGISTRY.pop(name, None)
    if name in GAMES:
        GAMES.remove(name)


def registered(name: str) -> Registered:
    """Where ``name``'s rules and web package are (one of :data:`GAMES`; ``RuleError``)."""
    entry = _REGISTRY.get(name) if isinstance(name, str) else None
    if entry is None:
        raise RuleError("game.unknown", name=name, games=tuple(GAMES))
    return entry


for _game in ("tromplemond", "clumond", "trumplestiltskin", "trefeltromp", "tremp"):
    add_game(_game)


def game_module(game: object) -> GameRules:
    """The rules module of ``game`` (one of :data:`GAMES`): it meets :class:`GameRules`."""
    return importlib.import_module(registered(game).rules)  # type: ignore[arg-type,return-value]


def replay(record: Mapping[str, Any]) -> dict[str, Any]:
    """Turn a game record into its result (a JSON-ready dict).

    Raises :class:`RuleError`, with a message a player can act on, when the
    record breaks the rules.
    """
    if not isinstance(record, Mapping):
        raise RuleError("record.not_an_object")
    return game_module(record.get("game")).replay(record)
