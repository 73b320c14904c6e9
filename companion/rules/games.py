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
from typing import Any

from .contract import GameRules
from .errors import RuleError


@dataclass(frozen=True)
class Registered:
    """One game in the registry: where its rules and its web package are."""

    name: str
    """Its record name (``tromplemond``)."""
    rules: str
    """Its pure rules module (``companion.rules.tromplemond``)."""
    web: str
    """Its web package (``companion.web.games.tromplemond``); a game whose package does not
    exist gets the web layer's default flow."""


_REGISTRY: dict[str, Registered] = {}

GAMES: list[str] = []
"""The games the companion knows, by their record name, in the order they were added
(the new-table form's order). Changed only by :func:`add_game` and :func:`forget_game`."""


def add_game(name: str, *, rules: str | None = None, web: str | None = None) -> None:
    """Add a game to the registry: its rules in ``rules`` (default
    ``companion.rules.<name>``), its web package in ``web`` (default
    ``companion.web.games.<name>``). Adding a game again changes where it is found."""
    entry = Registered(name, rules or f"{__package__}.{name}",
                       web or f"companion.web.games.{name}")
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
