"""The table's record book: each player's figures across every evening, and the table's records.

:func:`record_book` reads a table's evening records (``docs/records.md``, "The
evening"), oldest first, replays every game in them, and gives

- per player (matched by their player id, so a renamed player keeps their
  record) and per game: games played, won and runner-up, the average and best
  round, the money won or lost, and the largest pot won;
- the table's records: each game's own kinds (its rules module's ``RECORDS``).

Nothing is stored or added up elsewhere: every figure is worked out again from
the games' facts, so a corrected round corrects the book. And every figure
says where it came from: its :class:`Source` list names each evening, game and
round (a :class:`Place`) it was made of, with that place's part, so a page can
link there.

What the book reads of one game is the game's to say: its rules module's
``record_facts(record, game, unit)`` (a :class:`~companion.rules.contract.RecordFacts`:
the rounds that count, the standing that makes a runner-up, the pots taken, its
candidates for the table's records), ``RUNNER_UP`` and ``RECORDS``
(``companion.rules.contract``). A game that says nothing is counted by its games
played and won, and its money; no round, no runner-up, no pot, no record. Each
game's module says how it reads its own games (its ``record_facts``).

Readings
--------
Where the rules text says nothing about a record book, it is read so:

- **Who is who.** A player is their player id: the evening record's optional
  ``player_ids`` (``{"Anna": "p7"}``), else their name. The same id at two
  evenings is the same player, whatever the name; without ids, the same name
  is the same player (as the ledger reads it). A player's ``name`` is the one
  of the latest evening they sat at; ``names`` every name they had, in order.
- **Places.** ``evening`` is the evening's number as the caller gives it
  (1, 2, … in the order given, by default); ``game`` counts the evening's
  games from 1, as the ledger's lines do; ``round`` counts the game's rounds
  (a hand, in a game of hands) from 1, or is None for the game as a whole.
  A figure or a record that ties keeps its earliest place (a later equal does
  not take a record away).
- **Played**: every game the player sat in, finished or not (a running game,
  one ended early or void, one they left early).
- **Won**: a finished game whose replay names them among its ``winners``
  (each partner of a side; a shared win counts for each).
- **Runner-up**: in a finished game with winners, the best of the others by the
  game's standing (several when they share it). When everybody won there is no
  runner-up. A game without a runner-up (``RUNNER_UP = False``) has the figure None.
- **Round**: a player's score in one round, as the game's reader gives it (exact:
  halves stay halves). The **average round** is the exact mean of those rounds
  and the **best round** the highest; both None when there is no round.
- **Money**: the finished games' money in the table's unit, as the evening's
  ledger counts it in ``net`` (a chip game's chips times its chip value),
  added up per unit (a table may change its unit between evenings). A game
  without money (played for points, a chip game without a chip value, a game
  still running or ended early) is no part of it; when no game is, the figure
  is absent (``{}``), not zero.
- **Largest pot won**: the largest single amount the player took from a pot
  at one time (a *take*, as the game's reader lists them). A share is a take of
  its own: two shares are never added up, not even two of one round. Pots taken
  in running games count (they were taken at the table). Keyed by unit like
  money; absent (``{}``) when no pot was won. A tie keeps its earliest take.
- **The table's records**, each held by its earliest place (with everyone who
  reached it there), from the candidates each game's reader gives. Running games
  count: a record stands at what has been played. None (or ``{}`` for a kind per
  money unit) when no game gives one.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .common import Number
from .contract import (
    RecordKind,
    exact,
    record_facts_of,
    record_kinds_of,
    runner_up_of,
)
from .errors import RuleError
from .evening import read_evening
from .games import GAMES, game_module


class _RunnersUp:
    """The registered games that have a runner-up (each rules module's ``RUNNER_UP``),
    asked of the registry each time (a game added later is in it)."""

    def __contains__(self, game: object) -> bool:
        return game in GAMES and runner_up_of(game_module(game))

    def __iter__(self) -> Iterator[str]:
        return iter([game for game in GAMES if game in self])


RUNNERS_UP = _RunnersUp()
"""The games that have a runner-up (Tremp, with two sides, has none)."""


def record_kinds() -> list[tuple[str, RecordKind]]:
    """Every registered game's kinds of table records, as (game, kind), in the order the
    book lists them (each kind's ``rank``, then the registry's order)."""
    found = [(game, kind) for game in GAMES for kind in record_kinds_of(game_module(game))]
    return sorted(found, key=lambda pair: pair[1].rank)


@dataclass(frozen=True)
class Place:
    """Where a figure came from: an evening, a game in it, and a round (None: the whole game)."""

    evening: int
    game: int
    round: int | None = None


@dataclass(frozen=True)
class Source:
    """One place a figure is made of, and its part there (1 for a count)."""

    place: Place
    part: Number


@dataclass(frozen=True)
class Figure:
    """A figure and what it is made of: a count, total, average or best of its sources' parts."""

    value: Number
    sources: tuple[Source, ...]


@dataclass(frozen=True)
class GameFigures:
    """One player's figures at one game, across the evenings (the module's readings)."""

    game: str
    played: Figure
    won: Figure
    runner_up: Figure | None
    """None for a game without a runner-up (Tremp)."""
    average_round: Figure | None
    """None when no round counted."""
    best_round: Figure | None
    """None when no round counted; its one source is the earliest best round."""
    money: dict[str, Figure]
    """Per money unit; ``{}`` when no finished game of theirs had money."""
    largest_pot: dict[str, Figure]
    """Per unit (``chips`` for Clumond and Trefeltromp); ``{}`` when no pot was won."""


@dataclass(frozen=True)
class Player:
    """A player of the table: their id, names, figures per game, and money over all games."""

    id: str
    name: str
    """The name at the latest evening they sat at."""
    names: tuple[str, ...]
    """Every name they had, in the order first used."""
    games: dict[str, GameFigures]
    """The games they played, in the order of :data:`~companion.rules.GAMES`."""
    money: dict[str, Figure]
    """Per money unit, over every game; ``{}`` when none had money."""


@dataclass(frozen=True)
class Record:
    """A record of the table: its value, where it was set, and who holds it (player ids)."""

    value: Number
    place: Place
    players: tuple[str, ...]


@dataclass(frozen=True)
class TableRecords:
    """The table's records, by kind (each game's ``RECORDS``; the module's readings say what
    each of the five games' is), in the order of :func:`record_kinds`.

    A kind is also an attribute: ``records.highest_tromplemond_round`` is the record or
    None, ``records.biggest_tromp_payout`` (a kind per money unit) a dict by unit, maybe
    empty; a kind no registered game gives is an ``AttributeError``.
    """

    kinds: dict[str, Record | None | dict[str, Record]]
    games: dict[str, str] = field(default_factory=dict, compare=False)
    """The game each kind is of."""

    def __getattr__(self, name: str) -> Record | None | dict[str, Record]:
        kinds = self.__dict__.get("kinds")
        if kinds is None or name not in kinds:
            raise AttributeError(name)
        return kinds[name]


@dataclass(frozen=True)
class RecordBook:
    """The record book of a table's evenings."""

    evenings: tuple[int, ...]
    """The evenings' numbers, in the order read."""
    players: tuple[Player, ...]
    """In the order first seen."""
    records: TableRecords

    def player(self, player_id: str) -> Player:
        """The player with this id (KeyError when there is none)."""
        for player in self.players:
            if player.id == player_id:
                return player
        raise KeyError(player_id)


# --------------------------------------------------------------------------- one game's facts


def runners_up(result: Mapping[str, Any], standing: Mapping[str, Number] | None) -> list[str]:
    """The runner(s)-up of a game: the best ``standing`` among those who did not win.

    None of them when the game is not finished, has no winner, everybody won,
    or the game has no runner-up (``standing`` None).

    >>> runners_up({"finished": True, "winners": ["Ann"]}, {"Ann": 9, "Bo": 4, "Cy": 4})
    ['Bo', 'Cy']
    >>> runners_up({"finished": False, "winners": []}, {"Ann": 9, "Bo": 4})
    []
    """
    if standing is None or not result["finished"] or not result["winners"]:
        return []
    others = {p: v for p, v in standing.items() if p not in result["winners"]}
    if not others:
        return []
    best = max(others.values())
    return [p for p, v in others.items() if v == best]


# --------------------------------------------------------------------------- gathering


@dataclass
class _Tally:
    """One player's sources at one game, gathered evening by evening."""

    played: list[Source] = field(default_factory=list)
    won: list[Source] = field(default_factory=list)
    runner_up: list[Source] = field(default_factory=list)
    rounds: list[Source] = field(default_factory=list)
    money: dict[str, list[Source]] = field(default_factory=dict)
    pots: dict[str, list[Source]] = field(default_factory=dict)


def _count(sources: Sequence[Source]) -> Figure:
    return Figure(len(sources), tuple(sources))


def _total(sources: Sequence[Source]) -> Figure:
    return Figure(sum(source.part for source in sources), tuple(sources))


def _average(sources: Sequence[Source]) -> Figure | None:
    if not sources:
        return None
    return Figure(exact(Fraction(sum(s.part for s in sources)) / len(sources)), tuple(sources))


def _best(sources: Iterable[Source]) -> Figure | None:
    """The highest part, at its earliest source (``max`` keeps the first of equals)."""
    best = max(sources, key=lambda source: source.part, default=None)
    return None if best is None else Figure(best.part, (best,))


def _figures(game: str, tally: _Tally) -> GameFigures:
    return GameFigures(
        game=game,
        played=_count(tally.played),
        won=_count(tally.won),
        runner_up=_count(tally.runner_up) if game in RUNNERS_UP else None,
        average_round=_average(tally.rounds),
        best_round=_best(tally.rounds),
        money={unit: _total(sources) for unit, sources in tally.money.items()},
        largest_pot={unit: best for unit, sources in tally.pots.items()
                     if (best := _best(sources)) is not None},
    )


def _record(candidates: Sequence[tuple[Number, Place, tuple[str, ...]]]) -> Record | None:
    """The highest candidate at its earliest place, with everyone who reached it there."""
    if not candidates:
        return None
    top = max(value for value, _place, _ids in candidates)
    place = next(place for value, place, _ids in candidates if value == top)
    holders = [i for value, at, ids in candidates if value == top and at == place for i in ids]
    return Record(top, place, tuple(dict.fromkeys(holders)))


def _numbers(count: int, numbers: Sequence[int] | None) -> tuple[int, ...]:
    if numbers is None:
        return tuple(range(1, count + 1))
    numbers = tuple(numbers)
    if len(numbers) != count or len(set(numbers)) != count:
        raise ValueError(f"{count} evenings need {count} different numbers, not {numbers!r}")
    return numbers


def record_book(evenings: Sequence[Mapping[str, Any]],
                numbers: Sequence[int] | None = None) -> RecordBook:
    """The record book of a table's ``evenings`` (evening records, oldest first).

    ``numbers`` are the evenings' numbers for the places (default 1, 2, …).
    Raises :class:`RuleError` for an evening the ledger refuses, its number
    first (``evening 3: game 2: round 1: …``); the module's readings say what
    each figure is.
    """
    numbers = _numbers(len(evenings), numbers)
    tallies: dict[str, dict[str, _Tally]] = {}
    money: dict[str, dict[str, list[Source]]] = {}
    names: dict[str, list[str]] = {}
    candidates: dict[tuple[str, str | None], list[tuple[Number, Place, tuple[str, ...]]]] = {}
    per_unit = {kind.name for _game, kind in record_kinds() if kind.per_unit}
    for number, record in zip(numbers, evenings, strict=True):
        try:
            reading = read_evening(record)
        except RuleError as err:
            raise RuleError("records.in_evening", number=number, error=err) from None
        ids = reading.player_ids
        for player in reading.players:
            names.setdefault(ids[player], []).append(player)
        raw_games = record.get("games") or []
        for g, (game, raw) in enumerate(zip(reading.games, raw_games, strict=True), 1):
            whole = Place(number, g)
            facts = record_facts_of(game_module(game.name))(raw, game, reading.unit)
            winners = set(game.result["winners"]) if game.result["finished"] else set()
            second = set(runners_up(game.result, facts.standing))
            for player in game.players:
                tally = tallies.setdefault(ids[player], {}).setdefault(game.name, _Tally())
                tally.played.append(Source(whole, 1))
                if player in winners:
                    tally.won.append(Source(whole, 1))
                if player in second:
                    tally.runner_up.append(Source(whole, 1))
                if game.finished and player in game.money:
                    part = Source(whole, game.money[player])
                    tally.money.setdefault(reading.unit, []).append(part)
                    money.setdefault(ids[player], {}).setdefault(reading.unit, []).append(part)
            for round_number, scores in facts.rounds:
                for player, score in scores.items():
                    tallies[ids[player]][game.name].rounds.append(
                        Source(Place(number, g, round_number), score))
            for round_number, player, amount in facts.takes:
                tallies[ids[player]][game.name].pots.setdefault(facts.pot_unit, []).append(
                    Source(Place(number, g, round_number), amount))
            for kind, value, round_number, holders in facts.records:
                key = (kind, reading.unit if kind in per_unit else None)
                candidates.setdefault(key, []).append(
                    (value, Place(number, g, round_number), tuple(ids[p] for p in holders)))
    players = tuple(
        Player(id=player_id, name=used[-1], names=tuple(dict.fromkeys(used)),
               games={game: _figures(game, tallies[player_id][game])
                      for game in GAMES if game in tallies.get(player_id, {})},
               money={unit: _total(sources)
                      for unit, sources in money.get(player_id, {}).items()})
        for player_id, used in names.items())
    return RecordBook(numbers, players, _table_records(candidates))


def _table_records(candidates: Mapping[tuple[str, str | None],
                                       Sequence[tuple[Number, Place, tuple[str, ...]]]],
                   ) -> TableRecords:
    """Each kind's record of every registered game (a kind per unit: a dict by unit)."""
    kinds: dict[str, Record | None | dict[str, Record]] = {}
    games: dict[str, str] = {}
    for game, kind in record_kinds():
        games[kind.name] = game
        if kind.per_unit:
            kinds[kind.name] = {unit: record for (name, unit), found in candidates.items()
                                if name == kind.name and unit is not None
                                and (record := _record(found)) is not None}
        else:
            kinds[kind.name] = _record(candidates.get((kind.name, None), []))
    return TableRecords(kinds, games)


__all__ = ["RUNNERS_UP", "Figure", "GameFigures", "Place", "Player", "Record", "RecordBook",
           "Source", "TableRecords", "exact", "record_book", "record_kinds", "runners_up"]
