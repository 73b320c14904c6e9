"""The record book counted again, independently of ``companion.rules.records``.

Written from RULES.md and the record book's readings (``docs/records.md``), not from the
module under test or the money lines: each game's takes from a pot are worked out here
from the game record itself (Tromplemond's calls from the jacks in each hand, the round
pots, the kitty and its end shares; Trefeltromp's reveals from the cards shown, with the
pot followed chip by chip), the Gnome's points by the Trumplestiltskin generator's own
tally, and Tremp's length by counting hands. Where a figure is the game's own result (who
won, a Clumond payout, a finished game's money) it is read from the game's replay or the
evening's ledger, the games' contract, never through the book's helpers. Each game's
part is its own module, found by its name (``tests/rules/reference_<game>.py``: its
``count`` and its ``STANDING``); a registered game without one gets the book's defaults.

:func:`count` gives, for a table's evening records, the figures the book must show:
per player id and game, and the table's records, each with its value, its earliest place
(evening, game, round) and its holders.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from types import ModuleType

from companion.rules import GAMES, evening, replay
from tests.found import module_if_any

Where = tuple[int, int, int | None]
"""A place: evening number, game (from 1), round (None: the whole game)."""


@dataclass
class Counted:
    """One player's figures at one game, counted here."""

    played: int = 0
    won: int = 0
    runner_up: int = 0
    rounds: list[tuple[Where, Fraction]] = field(default_factory=list)
    money: dict[str, int] = field(default_factory=dict)
    takes: dict[str, list[tuple[Where, int]]] = field(default_factory=dict)
    """Each single take from a pot, by unit, in the order taken."""

    def largest(self, unit: str) -> tuple[int, Where]:
        """The largest take and where it was first made."""
        top = max(amount for _where, amount in self.takes[unit])
        return top, next(where for where, amount in self.takes[unit] if amount == top)


@dataclass
class Table:
    """Everything counted for a table."""

    players: dict[str, dict[str, Counted]] = field(default_factory=dict)
    candidates: dict[tuple[str, str | None], list[tuple[int | Fraction, Where, tuple[str, ...]]]] \
        = field(default_factory=dict)

    def record(self, kind: str, unit: str | None = None
               ) -> tuple[int | Fraction, Where, tuple[str, ...]] | None:
        """The record: its top value, the first place it was reached, and who reached it
        there (each once, in order)."""
        found = self.candidates.get((kind, unit), [])
        if not found:
            return None
        top = max(value for value, _w, _h in found)
        where = next(w for value, w, _h in found if value == top)
        holders: list[str] = []
        for value, w, who in found:
            if value == top and w == where:
                holders += [h for h in who if h not in holders]
        return top, where, tuple(holders)


# --------------------------------------------------------------------------- the games


@dataclass(frozen=True)
class Counting:
    """One game being counted, as a game's own part of the count sees it
    (``reference_<game>.count(raw, result, at)``)."""

    e: int
    """The evening's number (from 1)."""
    g: int
    """The game's number in its evening (from 1)."""
    unit: str
    """The evening's unit."""
    void: bool
    """True for a game the record says is void."""
    players: list[str]
    figures: dict[str, Counted]
    """Each player's figures at this game."""
    candidate: Callable[..., None]
    """``candidate(kind, value, where, who, key=None)``: a candidate for a table record."""
    took: Callable[[str, Where, int, str], None]
    """``took(player, where, amount, unit)``: a take from a pot."""


@cache
def _reference(game: str) -> ModuleType | None:
    """``game``'s own part of the count (``reference_<game>``, by its name; None: it has
    none, and the book counts its games played and won, and its money)."""
    return module_if_any(f"{__package__}.reference_{game}")


def _references() -> dict[str, ModuleType]:
    """Each registered game's own part of the count, by game."""
    return {game: module for game in GAMES if (module := _reference(game)) is not None}


# --------------------------------------------------------------------------- the table


def count(evenings: list[dict]) -> Table:
    """Every figure of the record book of ``evenings``, counted here."""
    table = Table()
    for e, record in enumerate(evenings, 1):
        ids = record.get("player_ids") or {}
        ledger = evening(record)
        unit = record["unit"]
        for g, raw in enumerate(record.get("games") or [], 1):
            _game(table, e, g, raw, unit, ids, ledger["games"][g - 1])
    return table


def _game(table: Table, e: int, g: int, raw: dict, unit: str, ids: dict[str, str],
          ledger: dict) -> None:
    name, players = raw["game"], raw["players"]
    result = replay(raw)
    idof = {p: ids.get(p, p) for p in players}
    figures = {p: table.players.setdefault(idof[p], {}).setdefault(name, Counted())
               for p in players}
    void = raw.get("void") is True
    for p in players:
        figures[p].played += 1
        if result["finished"] and p in result["winners"]:
            figures[p].won += 1
        if result["finished"] and p in ledger["money"]:
            figures[p].money[unit] = figures[p].money.get(unit, 0) + ledger["money"][p]
    standing = getattr(_references().get(name), "STANDING", None)
    if standing and result["finished"] and result["winners"]:
        others = {p: Fraction(v) for p, v in result[standing].items()
                  if p not in result["winners"]}
        for p, v in others.items():
            if v == max(others.values()):
                figures[p].runner_up += 1

    def candidate(kind: str, value: int | Fraction, where: Where, who: list[str],
                  key: str | None = None) -> None:
        table.candidates.setdefault((kind, key), []).append(
            (value, where, tuple(idof[p] for p in who)))

    def took(p: str, where: Where, amount: int, in_unit: str) -> None:
        figures[p].takes.setdefault(in_unit, []).append((where, amount))

    reference = _references().get(name)
    if reference is not None:
        reference.count(raw, result, Counting(e, g, unit, void, players, figures, candidate,
                                              took))
