"""Random valid evening records, made from the games' own generators.

An evening is a few games of any kind, each made by that game's generator
(played out with real deals) and seated from one pool of names, so the same
people meet again across games; some games are still running, some
Tromplemonds void or abandoned, some chip games have a chip value and some
not; then a few payments between the evening's players.

The kinds are the registry's games (``companion.rules.GAMES``), each made by its own
generator, found by its name (``tests/rules/gen_<game>.py``: its ``evening_game(rng)`` and
its ``EVENING_WEIGHT``); a game with no generator is in no evening.
"""

from __future__ import annotations

import random
from types import ModuleType
from typing import Any

from companion.rules import GAMES
from companion.rules.games import game_module
from tests.found import module_if_any

NAMES = ("Ana", "Ben", "Cleo", "Dev", "Eve", "Finn", "Gus", "Hal")

UNITS = ("GBP", "EUR", "USD", "NOK", "SEK", "JPY", "KWD", "chips")
"""The units an evening is kept in: currencies with 2, 0 and 3 decimals, and chips."""


def generators() -> dict[str, ModuleType]:
    """Each registered game's generator (``gen_<game>``), the most often picked first (in
    the registry's order among equals)."""
    found = {game: module_if_any(f"{__package__}.gen_{game}") for game in GAMES}
    found = {game: module for game, module in found.items() if module is not None}
    return dict(sorted(found.items(), key=lambda item: -item[1].EVENING_WEIGHT))


_GENERATORS = generators()
_KINDS = tuple(_GENERATORS)
_WEIGHTS = tuple(module.EVENING_WEIGHT for module in _GENERATORS.values())


def renamed(value: Any, names: dict[str, str]) -> Any:
    """``value`` (JSON) with every string that is a player's name, and every key, renamed."""
    if isinstance(value, dict):
        return {names.get(k, k): renamed(v, names) for k, v in value.items()}
    if isinstance(value, list):
        return [renamed(v, names) for v in value]
    if isinstance(value, str):
        return names.get(value, value)
    return value


def _game(rng: random.Random, kind: str) -> dict[str, Any]:
    """One game of ``kind``: finished or running, as its generator makes it."""
    return _GENERATORS[kind].evening_game(rng)


def random_evening(rng: random.Random, games: int | None = None,
                   payments: int | None = None) -> dict[str, Any]:
    """A valid evening record of ``games`` games and ``payments`` payments (random counts).

    A chip game gets a ``chip_value`` two times in three.
    """
    count = rng.randint(0, 4) if games is None else games
    records = []
    for _ in range(count):
        record = _game(rng, rng.choices(_KINDS, _WEIGHTS)[0])
        seats = rng.sample(NAMES, len(record["players"]))
        record = renamed(record, dict(zip(record["players"], seats, strict=True)))
        if game_module(record["game"]).CHIP_GAME and rng.random() < 2 / 3:
            record["options"]["chip_value"] = rng.choice([1, 2, 5, 10, 25])
        records.append(record)
    players = list(dict.fromkeys(p for record in records for p in record["players"]))
    paid = []
    if len(players) >= 2:
        for _ in range(rng.randint(0, 3) if payments is None else payments):
            payer, payee = rng.sample(players, 2)
            paid.append([payer, payee, rng.randint(1, 500)])
    evening: dict[str, Any] = {"unit": rng.choice(UNITS), "games": records, "paid": paid}
    if rng.random() < 0.5:
        evening["evening"] = rng.choice(["Friday", "Anna's birthday", ""])
    return evening


def random_table(rng: random.Random, evenings: int | None = None) -> list[dict[str, Any]]:
    """A table's evenings (``evenings`` of them, random count), some of whose players were renamed.

    A player's id is their name in :data:`NAMES`. At each evening some players
    go by another name (``Ana`` as ``Ana 2``), and then the evening's
    ``player_ids`` gives their id; sometimes an evening gives every player's
    id, renamed or not.
    """
    count = rng.randint(1, 4) if evenings is None else evenings
    table = []
    for _ in range(count):
        record = random_evening(rng)
        players = list(dict.fromkeys(p for game in record["games"] for p in game["players"]))
        names = {p: f"{p} {rng.randint(2, 9)}" for p in players if rng.random() < 0.3}
        if names:
            record = renamed(record, names)
        if names or rng.random() < 0.3:
            ids = {names.get(p, p): p for p in players}
            record["player_ids"] = {name: p for name, p in ids.items()
                                    if name != p or rng.random() < 0.5}
        table.append(record)
    return table
