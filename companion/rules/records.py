"""The table's record book: each player's figures across every evening, and the table's records.

:func:`record_book` reads a table's evening records (``docs/records.md``, "The
evening"), oldest first, replays every game in them, and gives

- per player (matched by their player id, so a renamed player keeps their
  record) and per game: games played, won and runner-up, the average and best
  round, the money won or lost, and the largest pot won;
- the table's records: the highest Tromplemond round, the biggest TROMP!
  payout, the most Gnome points in a game, the longest Tremp game and the
  biggest Clumond pot.

Nothing is stored or added up elsewhere: every figure is worked out again from
the games' facts, so a corrected round corrects the book. And every figure
says where it came from: its :class:`Source` list names each evening, game and
round (a :class:`Place`) it was made of, with that place's part, so a page can
link there.

>>> def tromplemond(*seats):
...     hand = {"points": 20, "public_jacks": 0, "secret_jacks": 0}
...     return {"game": "tromplemond", "players": list(seats), "options": {"rounds": 1},
...             "rounds": [{"hands": {seats[0]: hand | {"points": 30}, seats[1]: hand,
...                                   seats[2]: hand}, "voted_off": seats[3]}]}
>>> book = record_book([
...     {"unit": "GBP", "games": [tromplemond("Ana", "Ben", "Cleo", "Dev")]},
...     {"unit": "GBP", "games": [tromplemond("Anna", "Ben", "Cleo", "Dev")],
...      "player_ids": {"Anna": "Ana"}}])
>>> ana = book.player("Ana")
>>> ana.name, ana.names
('Anna', ('Ana', 'Anna'))
>>> figures = ana.games["tromplemond"]
>>> figures.played.value, figures.won.value, figures.best_round.value
(2, 2, 50)
>>> figures.best_round.sources
(Source(place=Place(evening=1, game=1, round=1), part=50),)
>>> book.records.highest_tromplemond_round
Record(value=50, place=Place(evening=1, game=1, round=1), players=('Ana',))

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
  (a Trefeltromp or Tremp hand is a round) from 1, or is None for the game as
  a whole. A figure or a record that ties keeps its earliest place (a later
  equal does not take a record away).
- **Played**: every game the player sat in, finished or not (a running game,
  one ended early, a void Tromplemond, a Trefeltromp they left early).
- **Won**: a finished game whose replay names them among its ``winners``
  (both partners in Tremp; a shared win counts for each). A void
  Tromplemond has no winner; an abandoned (banned) one's standings stand.
- **Runner-up**: in a finished game with winners, the best of the others
  (several when they share it): by total in Tromplemond (the game's own
  runner-up, after a card cut too), Clumond (stacks) and Trumplestiltskin (the
  Gnome is not a player); by net chips in Trefeltromp, as its winners are
  chosen. When everybody won there is no runner-up. Tremp has two sides,
  so no runner-up: the figure is None.
- **Round**: a player's score in one round, as the replay gives it (exact:
  halves stay halves): Tromplemond the round score (0 for the player who went
  off or forfeited the deal); Clumond the stack's change (the last round's
  share-out included); Trumplestiltskin the hand's score, leaving out hands
  thrown in (nobody played them); Trefeltromp the stack's change in a hand the
  player sat in and that is over (chips bought left out); Tremp their team's
  game points in the hand (a match total moved in included). A void
  Tromplemond's rounds count for nothing (the game is null and void). The
  **average round** is the exact mean of those rounds and the **best round**
  the highest; both None when there is no round.
- **Money**: the finished games' money in the table's unit, as the evening's
  ledger counts it in ``net`` (a chip game's chips times its chip value),
  added up per unit (a table may change its unit between evenings). A game
  without money (played for points, a chip game without a chip value, a game
  still running or ended early) is no part of it; when no game is, the figure
  is absent (``{}``), not zero. A void Tromplemond played for money is a part:
  0, all money back.
- **Largest pot won**: the largest single amount the player took from a pot
  at one time (a *take*). A share is a take of its own: two shares are never
  added up, not even two of one round or one hand. Tromplemond: a call's share
  of a round pot, the kitty an Extreme call took in its round, a share of the
  joining-fee pot, or one share of the kitty at the end (a Super's quarter, an
  Ultimate's part, the best round's part: three takes when one player gets all
  three), in the table's unit; Clumond: a round's payout, in chips;
  Trefeltromp: one reveal won (banen, detuiler or debekranse: a player who wins
  two reveals of a hand made two takes) or the pot of a hand won by folding,
  in chips. The end-of-game share-out of leftover chips is not a pot won. Pots
  taken in running games count (they were taken at the table); a void or
  abandoned Tromplemond's do not (all money went back). Keyed by unit like
  money; absent (``{}``) when no pot was won, and always for Trumplestiltskin
  and Tremp, which have no pots. A tie keeps its earliest take.
- **The table's records**, each held by its earliest place:
  the highest Tromplemond round (any player's round score, void games left
  out; held by whoever scored it in that round); the biggest TROMP! payout (one
  take of TROMP! money, as for the largest pot won: a call's share of a round
  pot, the kitty an Extreme call took, or one share of the kitty at the end,
  never two shares added; per unit; held by who took it); the most Gnome
  points in a game (the Gnome's total in one Trumplestiltskin, with at least
  one hand played; held by nobody, it is the Gnome's); the longest Tremp game
  (the most hands in one game; held by its four players); the biggest Clumond
  pot (the pot the payouts of a round were worked out on, in chips; held by
  who took a payout from it, maybe nobody).
  Running games count: a record stands at what has been played. None (or
  ``{}``) when no game gives one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .common import Number
from .errors import RuleError
from .evening import CHIPS, Game, read_evening
from .games import GAMES
from .tremp import team_names, team_of

RUNNERS_UP: frozenset[str] = frozenset(GAMES) - {"tremp"}
"""The games that have a runner-up (Tremp has two sides)."""

POTS: frozenset[str] = frozenset({"tromplemond", "clumond", "trefeltromp"})
"""The games where a player can win a pot."""

_KITTY_STEPS = ("super", "ultimate", "best_round")
"""The shares of Tromplemond's kitty at the end of a game, each a take of its own."""


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
    """The table's records (the module's readings say what each is)."""

    highest_tromplemond_round: Record | None
    biggest_tromp_payout: dict[str, Record]
    """Per money unit."""
    most_gnome_points: Record | None
    longest_tremp_game: Record | None
    biggest_clumond_pot: Record | None
    """In chips."""


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


def exact(value: int | float | Fraction) -> Number:
    """A score as an exact number: JSON's 3.5 is 7/2, and a whole number is an int.

    >>> exact(3.5), exact(4.0), exact(Fraction(6, 3)), exact(-2)
    (Fraction(7, 2), 4, 2, -2)
    """
    number = Fraction(value)
    return int(number) if number.denominator == 1 else number


@dataclass(frozen=True)
class _Facts:
    """What the book reads of one game, by player name."""

    rounds: tuple[tuple[int, dict[str, Number]], ...]
    """The rounds that count: (round number, each player's score in it)."""
    standing: dict[str, Number] | None
    """What ranks the players for the runner-up (None: the game has none)."""
    pot_unit: str = CHIPS
    """The unit of the game's pots."""
    takes: tuple[tuple[int | None, str, int], ...] = ()
    """Every single amount a player took from a pot: (round, player, amount), one per take
    (a share is a take of its own, never added to another share of the same round)."""
    records: tuple[tuple[str, Number, int | None, tuple[str, ...]], ...] = ()
    """The game's candidates for the table's records: (record, value, round, players)."""


_READERS: dict[str, Callable[[Mapping[str, Any], Game, str], _Facts]] = {}
"""Each game's reader, by its record name (each reader names its game: :func:`_reads`)."""


def _reads(name: str) -> Callable[[Callable[[Mapping[str, Any], Game, str], _Facts]],
                                  Callable[[Mapping[str, Any], Game, str], _Facts]]:
    """Make a function the reader of game ``name``'s facts."""

    def register(reader: Callable[[Mapping[str, Any], Game, str], _Facts],
                 ) -> Callable[[Mapping[str, Any], Game, str], _Facts]:
        _READERS[name] = reader
        return reader

    return register


def _scores(result: Mapping[str, Any]) -> list[tuple[int, dict[str, Number]]]:
    """Every round's number (from 1) and scores, exact."""
    return [(number, {p: exact(s) for p, s in hand["scores"].items()})
            for number, hand in enumerate(result["rounds"], 1)]


@_reads("tromplemond")
def _tromplemond(record: Mapping[str, Any], game: Game, unit: str) -> _Facts:
    """Round scores (none in a void game), standing by total, and each take, in ``unit``."""
    void = record.get("void") is True
    rounds = [] if void else _scores(game.result)
    found = [("highest_tromplemond_round", top, number,
              tuple(p for p, s in scores.items() if s == top))
             for number, scores in rounds for top in [max(scores.values())]]
    takes = _tromplemond_takes(game.result)
    found += [("biggest_tromp_payout", amount, number, (player,))
              for number, player, amount, tromp in takes if tromp]
    return _Facts(tuple(rounds), dict(game.result["totals"]), unit, records=tuple(found),
                  takes=tuple((number, player, amount) for number, player, amount, _t in takes))


def _tromplemond_takes(result: Mapping[str, Any]) -> list[tuple[int | None, str, int, bool]]:
    """Each Tromplemond take: (round, player, amount, whether it is TROMP! money).

    Round by round a call's share of the round pot and the kitty an Extreme call
    took; at the end the fee payout and each share of the kitty (a Super's quarter,
    an Ultimate's part, the best round's part: one take each, even for one player).
    A void or abandoned game has none: all money went back.
    """
    rounds = result["rounds"]
    end = rounds[-1]["breakdown"].get("end") if rounds else None
    if end is not None and end.get("returned"):
        return []
    takes: list[tuple[int | None, str, int, bool]] = []
    for number, rnd in enumerate(rounds, 1):
        takes += [(number, p, amount, True) for p, amount in rnd["tromp"].items() if amount]
        pot = rnd["breakdown"]["pot"]
        if pot["extreme_took_kitty"]:
            takes.append((number, pot["extreme"], pot["extreme_took_kitty"], True))
    if end is not None:
        takes += [(None, p, amount, False)
                  for p, amount in end["joining_fee"]["paid"].items() if amount]
        takes += [(None, p, amount, True)
                  for step in _KITTY_STEPS for p, amount in end["kitty"][step].items() if amount]
    return takes


@_reads("clumond")
def _clumond(record: Mapping[str, Any], game: Game, unit: str) -> _Facts:
    """Stack changes, standing by stack, and each round's pot as worked out, in chips."""
    found = []
    for number, hand in enumerate(game.result["rounds"], 1):
        b = hand["breakdown"]
        found.append(("biggest_clumond_pot", b["pot_after_payments"], number,
                      tuple(p for p, row in b["players"].items() if row["payout"])))
    takes = tuple((number, p, row["payout"])
                  for number, hand in enumerate(game.result["rounds"], 1)
                  for p, row in hand["breakdown"]["players"].items() if row["payout"])
    return _Facts(tuple(_scores(game.result)), dict(game.result["totals"]),
                  records=tuple(found), takes=takes)


@_reads("trumplestiltskin")
def _trumplestiltskin(record: Mapping[str, Any], game: Game, unit: str) -> _Facts:
    """Hand scores (not hands thrown in), standing by total, and the Gnome's total."""
    hands = game.result["rounds"]
    rounds = [(number, scores) for (number, scores), hand in zip(_scores(game.result), hands,
                                                                  strict=True)
              if not hand["breakdown"]["thrown_in"]]
    found = [("most_gnome_points", exact(game.result["gnome"]), None, ())] if hands else []
    return _Facts(tuple(rounds), {p: exact(t) for p, t in game.result["totals"].items()},
                  records=tuple(found))


@_reads("trefeltromp")
def _trefeltromp(record: Mapping[str, Any], game: Game, unit: str) -> _Facts:
    """Stack changes of the seated in hands that are over, standing by net chips, and each
    take: a reveal won, or the pot of a hand won by folding (each reveal a take of its own)."""
    rounds = []
    takes: list[tuple[int | None, str, int]] = []
    for (number, scores), hand in zip(_scores(game.result), game.result["rounds"], strict=True):
        b = hand["breakdown"]
        if b["stage"] == "over":
            rounds.append((number, {p: scores[p] for p in b["seated"]}))
        takes += [(number, reveal["winner"], reveal["share"]) for reveal in b["reveals"]
                  if reveal["winner"] is not None and reveal["share"]]
        if b["won_by_fold"] is not None and b["won_by_fold"]["share"]:
            takes.append((number, b["won_by_fold"]["player"], b["won_by_fold"]["share"]))
    return _Facts(tuple(rounds), dict(game.result["money"]), takes=tuple(takes))


@_reads("tremp")
def _tremp(record: Mapping[str, Any], game: Game, unit: str) -> _Facts:
    """Each player's team's game points per hand, no standing, and the game's length."""
    players = game.players
    teams = team_names(players)
    rounds = [(number, {p: scores[teams[team_of(players, p)]] for p in players})
              for number, scores in _scores(game.result)]
    found = [("longest_tremp_game", len(rounds), None, players)] if rounds else []
    return _Facts(tuple(rounds), None, records=tuple(found))




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
            facts = _READERS[game.name](raw, game, reading.unit)
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
                key = (kind, reading.unit if kind == "biggest_tromp_payout" else None)
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
    payouts = {unit: record for (kind, unit), found in candidates.items()
               if kind == "biggest_tromp_payout" and unit is not None
               and (record := _record(found)) is not None}
    return TableRecords(
        highest_tromplemond_round=_record(candidates.get(("highest_tromplemond_round", None), [])),
        biggest_tromp_payout=payouts,
        most_gnome_points=_record(candidates.get(("most_gnome_points", None), [])),
        longest_tremp_game=_record(candidates.get(("longest_tremp_game", None), [])),
        biggest_clumond_pot=_record(candidates.get(("biggest_clumond_pot", None), [])),
    )
