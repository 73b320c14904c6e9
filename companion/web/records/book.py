"""What the record book and the night's recap show: the rules' figures, written for players.

:func:`table_book` reads every evening of a table (the open one too, once it has a game),
hands their records to :func:`companion.rules.records.record_book`, and writes each figure
with the places it came from as links (an evening's ledger, a game's page, a round of it).
:func:`night` is the recap of one evening: its games and winners, each player's money, who
pays whom, and one or two of the night's records, as lines of text that the page, the
picture (:mod:`.picture`) and the shared text all write out alike.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

from babel.numbers import format_decimal
from flask import url_for
from flask_babel import gettext as _

from ...extensions import db
from ...rules import RuleError
from ...rules import evening as ledger_of
from ...rules.evening import Game, read_evening
from ...rules.records import Figure, GameFigures, Place, Record, RecordBook, record_book
from ...store import Table, evenings
from ...store.evenings import Evening
from ..device import locale_name
from ..filters import number
from ..flow import flow_for
from ..forms import MINUS, money_text
from ..ledger import date_text
from ..words import say


@dataclass(frozen=True)
class Link:
    """A place a figure came from: what it is, and its page."""

    label: str
    url: str


@dataclass(frozen=True)
class Shown:
    """One figure as the page shows it: its name, its value, and where it came from."""

    label: str
    value: str
    sources: tuple[Link, ...]
    testid: str


@dataclass(frozen=True)
class GameShown:
    """A player's figures at one game."""

    game: str
    title: str
    figures: tuple[Shown, ...]


@dataclass(frozen=True)
class PlayerShown:
    """A player of the table as the book shows them."""

    id: str
    name: str
    """Their name, with a mark when another player of the table has it too."""
    names: tuple[str, ...]
    money: tuple[Shown, ...]
    games: tuple[GameShown, ...]


@dataclass(frozen=True)
class RecordShown:
    """One of the table's records."""

    label: str
    value: str
    holders: str
    where: Link
    testid: str


@dataclass(frozen=True)
class Book:
    """The table's record book as the page shows it."""

    evenings: int
    players: tuple[PlayerShown, ...]
    records: tuple[RecordShown, ...]
    problem: str | None = None
    """Why the rules refused an evening (the book is then empty), in the device's language."""


def table_evenings(table: Table) -> list[Evening]:
    """Every evening of the table, first first: the saved ones and the open one with games."""
    shown = list(db.session.scalars(evenings.evenings_of(table.id)))
    current = evenings.current_evening(table)
    if current.id is None and current.games:
        shown.append(current)
    return shown


class Places:
    """Turns a rules :class:`Place` into a link to its evening, game or round."""

    def __init__(self, table: Table, shown: Sequence[Evening]) -> None:
        self.table = table
        self.by_number = {e.number: e for e in shown}
        self.titles: dict[int, str] = {}

    def game_number(self, place: Place) -> int:
        """The table's number of the place's game (an evening's games are consecutive)."""
        return self.by_number[place.evening].first_game + place.game - 1

    def link(self, place: Place, game: str | None = None) -> Link:
        """The place as a link, its label in the device's language: "Evening 2 · game 1
        (its game's title) · hand 4" (the game's own word for a round)."""
        if game is None:
            label = _("Evening %(evening)s · game %(game)s", evening=place.evening,
                      game=place.game)
        else:
            label = _("Evening %(evening)s · game %(game)s (%(title)s)", evening=place.evening,
                      game=place.game, title=flow_for(game).title)
        url = url_for("games.game", code=self.table.code, number=self.game_number(place))
        if place.round is not None:
            label += " · " + (flow_for(game).round_label(place.round) if game is not None
                              else _("round %(number)s", number=place.round))
            url += f"#round-{place.round}"
        return Link(label, url)


def average_text(value: Fraction | int | float) -> str:
    """An average as a person writes it: to one decimal place, a half rounded away from
    zero (−0.25 is −0.3, 0.25 is 0.3, never half to even), in the device's language's
    number format (Babel's, so ``2,5`` in French), with the pages' minus sign; no grouping
    of thousands, as the book's other figures (:func:`~companion.web.filters.number`).

    A whole average is written whole (``3``)."""
    exact = Fraction(value)
    if exact.denominator == 1:
        return number(int(exact))
    magnitude = Decimal(abs(exact.numerator)) / Decimal(exact.denominator)
    tenths = magnitude.quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)
    shown = format_decimal(tenths, format="0.0", locale=locale_name())
    return f"{MINUS}{shown}" if exact < 0 and tenths else shown


def _money(amount: object, unit: str, sign: bool = True) -> str:
    text = money_text(amount, unit, sign)
    return _("%(amount)s chips", amount=text) if unit == "chips" and sign else text


def _figure(label: str, figure: Figure | None, value: str, places: Places, game: str,
            testid: str) -> Shown | None:
    if figure is None:
        return None
    links = tuple(places.link(source.place, game) for source in figure.sources)
    return Shown(label, value, links, testid)


def _game_figures(figures: GameFigures, places: Places) -> GameShown:
    game = figures.game
    shown: list[Shown | None] = [
        _figure(_("Played"), figures.played, str(figures.played.value), places, game,
                "played"),
        _figure(_("Won"), figures.won, str(figures.won.value), places, game, "won"),
    ]
    if figures.runner_up is not None:
        shown.append(_figure(_("Runner-up"), figures.runner_up, str(figures.runner_up.value),
                             places, game, "runner-up"))
    if figures.average_round is not None:
        shown.append(_figure(_("Average round"), figures.average_round,
                             average_text(figures.average_round.value), places, game, "average"))
    if figures.best_round is not None:
        shown.append(_figure(_("Best round"), figures.best_round,
                             number(figures.best_round.value), places, game, "best"))
    for unit, money in figures.money.items():
        shown.append(_figure(_("Money"), money, _money(money.value, unit), places, game,
                             f"money-{unit}"))
    for unit, pot in figures.largest_pot.items():
        best = max(pot.sources, key=lambda s: s.part)
        shown.append(Shown(_("Largest pot won"), money_text(pot.value, unit),
                           (places.link(best.place, game),), f"pot-{unit}"))
    return GameShown(game, flow_for(game).title, tuple(s for s in shown if s is not None))


def marked_names(book: RecordBook) -> dict[str, str]:
    """Each player's name to show, by id: two players with one name get a visible mark
    (``Sam #1``, ``Sam #2``, in the order first seen)."""
    counts = Counter(player.name for player in book.players)
    seen: Counter[str] = Counter()
    names: dict[str, str] = {}
    for player in book.players:
        if counts[player.name] > 1:
            seen[player.name] += 1
            names[player.id] = f"{player.name} #{seen[player.name]}"
        else:
            names[player.id] = player.name
    return names


def each_record(book: RecordBook) -> list[tuple[str, str, Record, str | None]]:
    """The table's records as (game, kind, record, unit: None but for a kind per money
    unit), in the book's order (the rules' ``record_kinds``), those set only."""
    found: list[tuple[str, str, Record, str | None]] = []
    for kind, held in book.records.kinds.items():
        game = book.records.games[kind]
        if isinstance(held, dict):
            found += [(game, kind, record, unit) for unit, record in held.items()]
        elif held is not None:
            found.append((game, kind, held, None))
    return found


def _records(book: RecordBook, places: Places, names: Mapping[str, str]) -> list[RecordShown]:
    """Each of the table's records, as its game says it (``GameFlow.say_record``)."""
    shown: list[RecordShown] = []
    for game, kind, record, unit in each_record(book):
        holders = ", ".join(names.get(i, i) for i in record.players)
        said = flow_for(game).say_record(kind, record, unit, holders)
        testid = kind.replace("_", "-") + (f"-{unit}" if unit is not None else "")
        shown.append(RecordShown(said.label, said.value, said.holders,
                                 places.link(record.place, game), testid))
    return shown


def table_book(table: Table) -> Book:
    """The table's record book, every figure from ``record_book`` of its evenings."""
    shown = table_evenings(table)
    places = Places(table, shown)
    try:
        book = record_book([evenings.evening_record(e) for e in shown],
                           [e.number for e in shown])
    except RuleError as error:
        return Book(len(shown), (), (), say(error))
    names = marked_names(book)
    players = tuple(
        PlayerShown(
            id=player.id, name=names[player.id], names=player.names,
            money=tuple(Shown(_("Money, all games"), _money(f.value, unit), (), f"total-{unit}")
                        for unit, f in player.money.items()),
            games=tuple(_game_figures(figures, places) for figures in player.games.values()))
        for player in book.players)
    return Book(len(shown), players, tuple(_records(book, places, names)))


# --------------------------------------------------------------------------- the night's recap


@dataclass(frozen=True)
class Standing:
    """A game played for points (no money) as the recap shows it: its totals at its end, or
    as they stand when it did not finish."""

    game: str
    """Its number in the evening and its title, as the games' lines begin."""
    rows: tuple[tuple[str, str, bool], ...]
    """Each name in the totals (a player, or a side), the total as text, and whether they
    won: the winners first, then the highest totals."""

    def line(self) -> str:
        """The standing on one line of text: the game, then each name and total ("Ana 45 ·
        Ben 40"; a side's name for a game of sides)."""
        return _("%(game)s: %(totals)s", game=self.game,
                 totals=" · ".join(f"{name} {total}" for name, total, _won in self.rows))


@dataclass(frozen=True)
class Recap:
    """One evening's result, as lines: the page, the picture and the shared text say it alike."""

    title: str
    subtitle: str
    games: tuple[str, ...]
    money: tuple[tuple[str, str, int], ...]
    """Each player's name, money for the night as text, and the amount (best first)."""
    transfers: tuple[str, ...]
    records: tuple[str, ...]
    unit: str
    winner: str | None
    """Who won the most money tonight (None: nobody is up)."""
    problem: str | None = None
    """Why the rules refused the evening, in the device's language."""
    standings: tuple[Standing, ...] = ()
    """The totals of each game played for points (none: every game was for money)."""
    money_played: bool = True
    """False when no game of the evening moved money and nothing was paid: then the recap
    has no money and no "who pays whom" to say (the standings say the night)."""

    def text(self, url: str = "") -> str:
        """The recap as plain text, to share or copy (in the device's language); ``url``
        (the recap's address that works away from the table, if there is one) last."""
        lines = [self.title, self.subtitle, ""]
        if self.problem:
            lines += [self.problem, ""]
        lines += [_("Games:"), *(f"  {g}" for g in self.games)]
        if self.standings:
            lines += ["", _("Scores:"), *(f"  {s.line()}" for s in self.standings)]
        if self.money_played:
            if self.money:
                lines += ["", _("Money tonight:"), *(f"  {n} {m}" for n, m, _a in self.money)]
            lines += ["", _("Who pays whom:"),
                      *(f"  {t}" for t in self.transfers or (_("Everyone is square."),))]
        if self.records:
            lines += ["", _("Tonight's records:"), *(f"  {r}" for r in self.records)]
        if url:
            lines += ["", url]
        return "\n".join(lines) + "\n"


def _winners(result: Mapping[str, Any], record: Mapping[str, Any]) -> str:
    if record.get("void"):
        return _("void: all money back")
    if not result.get("finished"):
        return _("not finished")
    winners = result.get("winners") or []
    return _("won by %(names)s", names=" & ".join(winners)) if winners else _("no winner")


def _standing(place: int, game: Game, record: Mapping[str, Any]) -> Standing | None:
    """The totals of a game played for points (its ``money`` is ``{}``: no stakes, or a chip
    game whose chips are not money) as its replay gives them; None for a game of money, a
    void one (nothing of it counts) or one without a round yet."""
    result = game.result
    if game.money or record.get("void") or not result.get("rounds"):
        return None
    winners = set(result.get("winners") or ()) if result.get("finished") else set()
    totals = list(result["totals"].items())
    ordered = sorted(totals, key=lambda item: (item[0] not in winners, -Fraction(item[1])))
    return Standing(_("%(number)s. %(game)s", number=place, game=flow_for(game.name).title),
                    tuple((name, number(total), name in winners)
                          for name, total in ordered))


def _night_records(book: RecordBook, names: Mapping[str, str]) -> list[str]:
    """One or two of the night's records: the table's records as they stand for this night
    alone, else the biggest pot won."""
    lines = [flow_for(game).say_record(kind, record, unit,
                                       ", ".join(names[p] for p in record.players)).night
             for game, kind, record, unit in each_record(book)]
    if not lines:
        pots = [(pot.value, unit, names[player.id])
                for player in book.players for figures in player.games.values()
                for unit, pot in figures.largest_pot.items()]
        if pots:
            value, unit, who = max(pots, key=lambda p: p[0])
            lines.append(_("Biggest pot won: %(amount)s, %(name)s",
                           amount=money_text(value, unit), name=who))
    return lines[:2]


def night(table: Table, evening: Evening) -> Recap:
    """The recap of ``evening``: what the rules make of its record, in the device's
    language (its dates too)."""
    record = evenings.evening_record(evening)
    unit = evening.money_unit
    title = f"{evening.name or table.name}"
    subtitle = _("%(table)s · evening %(number)s", table=table.name, number=evening.number) \
        if evening.name else _("Evening %(number)s", number=evening.number)
    if evening.id is not None:
        subtitle += f" · {date_text(evening.opened_at)}"
    try:
        result = ledger_of(record)
        reading = read_evening(record)
        book = record_book([record], [evening.number])
    except RuleError as error:
        return Recap(title, subtitle, (), (), (), (), unit, None, say(error))
    games = tuple(
        _("%(number)s. %(game)s: %(result)s", number=i, game=flow_for(game.name).title,
          result=_winners(game.result, raw))
        for i, (game, raw) in enumerate(zip(reading.games, record["games"], strict=True), 1))
    standings = tuple(found for found in (
        _standing(i, game, raw)
        for i, (game, raw) in enumerate(zip(reading.games, record["games"], strict=True), 1))
        if found is not None)
    money_played = any(game.money for game in reading.games) or bool(reading.payments)
    # Money lines for those who played for money (or paid): a player of points games alone
    # has no "€0.00" to show.
    in_money = {p for game in reading.games if game.money for p in game.players}
    in_money |= {name for pay in reading.payments for name in (pay.payer, pay.payee)}
    net = {name: amount for name, amount in result["net"].items() if name in in_money}
    ordered = sorted(net.items(), key=lambda item: -item[1])
    money = tuple((name, _money(amount, unit), amount) for name, amount in ordered)
    transfers = tuple(_("%(payer)s pays %(payee)s %(amount)s", payer=payer, payee=payee,
                        amount=money_text(amount, unit))
                      for payer, payee, amount in result["owing"])
    winner = ordered[0][0] if ordered and ordered[0][1] > 0 else None
    if winner is None:  # no money tonight: the first game's winner
        finished = [g for g in reading.games if g.result.get("finished")
                    and g.result.get("winners")]
        winner = " & ".join(finished[0].result["winners"]) if finished else None
    return Recap(title, subtitle, games, money, transfers,
                 tuple(_night_records(book, marked_names(book))), unit, winner,
                 standings=standings, money_played=money_played)


__all__ = ["Book", "GameShown", "Link", "Places", "PlayerShown", "Recap", "RecordShown", "Shown",
           "Standing", "each_record", "marked_names", "night", "table_book", "table_evenings"]
