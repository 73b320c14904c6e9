"""The game registry: every game the companion knows, by its record name, and ``replay``.

The one place the games are listed (:func:`add_game`, below the function). A game is one
folder, a package (``companion/games/<game>/``): its pure rules (``rules``), its web
package (``web``) and its rules texts (``texts/<lang>.md``). The rules find each game's
rules module here, and the web layer each game's web package
(``companion.web.games.load_flows``). A module of its own so that the package's other
modules (the evening's ledger) can replay any game without importing the package itself.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .contract import GameRules
from .errors import RuleError

GAMES_PACKAGE = "companion.games"
"""Where the games the app ships are: ``companion.games.<game>``, one folder each."""


@dataclass(frozen=True)
class Registered:
    """One game in the registry: where its package, rules, web package and rules texts are.

    What else generic code asks of a game, the game's own modules say: its rules module
    (``companion.rules.contract``: the contract, and what the record book reads of its
    games) and its web package's flow (``companion.web.flow.GameFlow``: its screens, its
    round word, its stylesheet, how its records are said)."""

    name: str
    """Its record name (``tromplemond``)."""
    package: str
    """Its folder, as a package (``companion.games.tromplemond``)."""
    rules: str
    """Its pure rules module (``companion.games.tromplemond.rules``)."""
    web: str
    """Its web package (``companion.games.tromplemond.web``); a game whose package does not
    exist gets the web layer's default flow."""
    texts: str
    """Where its rules texts for players are, one per language: a path with ``{lang}`` in
    it (``en`` the English), relative to the game's folder unless absolute (default
    ``texts/{lang}.md``)."""
    translations: str = "translations"
    """The folder of its own message catalogues (``<lang>/LC_MESSAGES/messages.po``: the
    words of its templates, its flow and its rules' codes), relative to the game's folder
    unless absolute; a game without that folder has its words in the app's catalogues."""

    def catalogues(self) -> Path | None:
        """The folder of its own message catalogues (None: it has none)."""
        path = self._in_folder(self.translations)
        return path if path is not None and path.is_dir() else None

    def folder(self) -> Path | None:
        """The game's folder (None: its package cannot be found)."""
        try:
            spec = importlib.util.find_spec(self.package)
        except ModuleNotFoundError:  # its parent package does not exist either
            return None
        places = list(spec.submodule_search_locations or []) if spec else []
        return Path(places[0]) if places else None

    def translated(self, language: str) -> Path | None:
        """Its rules text in ``language`` (None: it has none of its own)."""
        path = self._in_folder(self.texts.format(lang=language))
        return path if path is not None and path.is_file() else None

    def _in_folder(self, place: str) -> Path | None:
        """``place`` as a path: as it is if absolute, else in the game's folder (None: the
        folder cannot be found)."""
        path = Path(place)
        if path.is_absolute():
            return path
        folder = self.folder()
        return folder / path if folder is not None else None

    def rules_text(self, language: str) -> Path | None:
        """Its rules text in ``language``, else in English (None: it has none)."""
        return self.translated(language) or self.translated("en")


_REGISTRY: dict[str, Registered] = {}

GAMES: list[str] = []
"""The games the companion knows, by their record name, in the order they were added
(the new-table form's order). Changed only by :func:`add_game` and :func:`forget_game`."""


def add_game(name: str, *, package: str | None = None, rules: str | None = None,
             web: str | None = None, texts: str | Path | None = None,
             translations: str | Path | None = None) -> None:
    """Add a game to the registry: its folder is the package ``package`` (default
    ``companion.games.<name>``), holding its rules (``<package>.rules``), its web package
    (``<package>.web``), its rules texts (``texts/{lang}.md``) and, if it has them, its own
    message catalogues (``translations/``). ``rules``, ``web``, ``texts`` (a path with
    ``{lang}``) and ``translations`` put one of them elsewhere. Adding a game again
    changes where it is found."""
    package = package or f"{GAMES_PACKAGE}.{name}"
    entry = Registered(name, package, rules or f"{package}.rules", web or f"{package}.web",
                       str(texts) if texts is not None else "texts/{lang}.md",
                       str(translations) if translations is not None else "translations")
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
