"""The evening's ledger: every game's money in one place, and who pays whom.

An evening record (``docs/records.md``, "The evening") holds the games played at a
table, in order, and the payments marked so far::

    {"evening": "Friday", "unit": "GBP",
     "games": [{"game": "tromplemond", ...}, {"game": "clumond", ...}],
     "paid": [["Cleo", "Ana", 350]]}

:func:`evening` replays every game and returns each game's money in the
table's unit, the evening's ``net`` (finished games), ``in_play`` (running
games), ``paid``, ``owing`` (the fewest transfers still to make), whether
the evening is ``settled``, and the money ``lines`` behind it all.

>>> clumond = {"game": "clumond", "players": ["Ana", "Ben", "Cleo"], "first_dealer": "Cleo",
...            "options": {"rounds": 1, "chip_value": 5},
...            "rounds": [{"tricks": {"Ana": 3, "Ben": 4, "Cleo": 6},
...                        "declared": {"Ana": 3, "Ben": 8, "Cleo": 1}}]}
>>> ledger = evening({"unit": "GBP", "games": [clumond], "paid": [["Ben", "Ana", 20]]})
>>> ledger["games"][0]["chips"], ledger["net"]
({'Ana': 9, 'Ben': -4, 'Cleo': -5}, {'Ana': 45, 'Ben': -20, 'Cleo': -25})
>>> ledger["owing"], ledger["settled"]
([['Cleo', 'Ana', 25]], False)
>>> ledger["lines"][0]
{'game': 1, 'round': 1, 'player': 'Ana', 'amount': -25, 'what': 'ante'}

:func:`evening`'s docstring gives the result and the readings the ledger
makes where the rules text is silent (``help(companion.rules.evening)``
shows it: the package's ``evening`` is the function).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import contract
from .common import positive_whole, read_chip_value
from .errors import Phrase, RuleError
from .games import game_module, replay
from .ledger import MoneyLine
from .money import check_unit
from .settle import settle_up

FIELDS: tuple[str, ...] = ("evening", "unit", "games", "paid", "player_ids")
"""The fields of an evening record."""

CHIPS = contract.CHIPS
"""The ``unit`` of a chip game's lines when its chips have no value."""


@dataclass(frozen=True)
class Payment:
    """A transfer marked paid: ``payer`` gave ``payee`` ``amount`` (smallest unit)."""

    payer: str
    payee: str
    amount: int

    def __post_init__(self) -> None:
        if self.payer == self.payee:
            raise RuleError("payment.to_self", payer=self.payer, payee=self.payee)
        # 350.0 from JSON is 350.
        object.__setattr__(self, "amount", positive_whole(self.amount, Phrase("field.amount")))

    @classmethod
    def read(cls, entry: object, players: Sequence[str]) -> Payment:
        """Check a ``[payer, payee, amount]`` entry against the evening's ``players``."""
        if not isinstance(entry, list | tuple) or len(entry) != 3:
            raise RuleError("payment.malformed", entry=entry)
        payer, payee, amount = entry
        for name in (payer, payee):
            if not isinstance(name, str) or name not in players:
                raise RuleError("payment.not_a_player", name=name)
        return cls(payer, payee, amount)


@dataclass(frozen=True)
class Game:
    """One game of the evening as the ledger counts it.

    ``money`` is in the table's unit (``{}`` when the game is not played for
    money, or is a chip game without a chip value); ``chips`` is a chip
    game's money in chips (None for other games); ``lines`` are in chips
    when ``in_chips``, else in the table's unit. ``result`` is the game's
    replay and ``own_lines`` its lines as the game counts them (in chips for a
    chip game), for the record book (:mod:`companion.rules.records`).
    """

    name: str
    players: tuple[str, ...]
    finished: bool
    money: dict[str, int]
    chips: dict[str, int] | None
    lines: tuple[MoneyLine, ...]
    in_chips: bool
    result: dict[str, Any] = field(repr=False, compare=False)
    own_lines: tuple[MoneyLine, ...] = field(repr=False, compare=False)

    @classmethod
    def read(cls, record: object) -> Game:
        """Replay one game record (RuleError when it does not replay)."""
        result = replay(record)  # type: ignore[arg-type]  # replay refuses a non-object
        assert isinstance(record, Mapping)
        module = game_module(record["game"])
        own: list[MoneyLine] = module.money_lines(record)  # none for a game of points
        lines = own
        money: dict[str, int] = result["money"]
        chips = value = None
        if module.CHIP_GAME:  # replay's money is in chips
            chips, value = money, read_chip_value(record.get("options") or {})
            money = {} if value is None else {p: n * value for p, n in chips.items()}
        if value is not None:
            lines = [MoneyLine(line.round, line.player, line.amount * value, line.what)
                     for line in own]
        return cls(record["game"], tuple(record["players"]), result["finished"], money, chips,
                   tuple(lines), in_chips=chips is not None and value is None,
                   result=result, own_lines=tuple(own))

    def as_dict(self) -> dict[str, Any]:
        """The game as the evening's ``games`` list shows it."""
        shown: dict[str, Any] = {"game": self.name, "finished": self.finished,
                                 "money": dict(self.money)}
        if self.chips is not None:
            shown["chips"] = dict(self.chips)
        return shown

    def line_dicts(self, number: int) -> list[dict[str, Any]]:
        """The game's lines as the evening shows them; ``number`` counts games from 1."""
        shown = []
        for line in self.lines:
            item: dict[str, Any] = {"game": number, "round": line.round, "player": line.player,
                                    "amount": line.amount, "what": line.what.value}
            if self.in_chips:
                item["unit"] = CHIPS
            shown.append(item)
        return shown


def _fields(record: object) -> tuple[str, list[Any], list[Any], Mapping[str, Any]]:
    """Check the evening's own fields; return its unit, games, payments and player ids, unread."""
    if not isinstance(record, Mapping):
        raise RuleError("evening.not_an_object")
    unknown = sorted(str(k) for k in record if k not in FIELDS)
    if unknown:
        raise RuleError("evening.unknown_field", unknown=unknown[0], fields=tuple(FIELDS))
    name = record.get("evening")
    if name is not None and not isinstance(name, str):
        raise RuleError("evening.name_not_text", name=name)
    unit = check_unit(record.get("unit"))
    lists = []
    for key, what in (("games", Phrase("field.game_records")), ("paid", Phrase("field.payments"))):
        value = record.get(key)
        if value is None:
            value = []
        if not isinstance(value, list):
            raise RuleError("evening.not_a_list", key=key, what=what)
        lists.append(value)
    ids = record.get("player_ids")
    if ids is None:
        ids = {}
    if not isinstance(ids, Mapping):
        raise RuleError("evening.player_ids_not_an_object")
    return unit, lists[0], lists[1], ids


def _player_ids(given: Mapping[str, Any], players: Sequence[str]) -> dict[str, str]:
    """Every player's id: the one ``player_ids`` gives, else their name; one player per id."""
    for name, player_id in given.items():
        if name not in players:
            raise RuleError("evening.player_id_unknown_player", name=name)
        if not isinstance(player_id, str) or not player_id:
            raise RuleError("evening.player_id_not_text", name=name, player_id=player_id)
    ids = {p: given.get(p, p) for p in players}
    owner: dict[str, str] = {}
    for player, player_id in ids.items():
        first = owner.setdefault(player_id, player)
        if first != player:
            raise RuleError("evening.player_id_shared", first=first, player=player,
                            player_id=player_id)
    return ids


@dataclass(frozen=True)
class Reading:
    """An evening record, checked and its games replayed: what the ledger and the book read."""

    unit: str
    games: tuple[Game, ...]
    players: tuple[str, ...]
    """In the order first seen."""
    payments: tuple[Payment, ...]
    player_ids: dict[str, str]
    """Every player's id: the record's ``player_ids``, else the name."""


def read_evening(record: object) -> Reading:
    """Check an evening record and replay its games (RuleError as :func:`evening` says)."""
    unit, raw_games, raw_paid, raw_ids = _fields(record)
    games = []
    for number, raw in enumerate(raw_games, 1):
        try:
            games.append(Game.read(raw))
        except RuleError as err:
            raise RuleError("evening.in_game", number=number, error=err) from None
    players = tuple(dict.fromkeys(p for game in games for p in game.players))
    payments = []
    for number, entry in enumerate(raw_paid, 1):
        try:
            payments.append(Payment.read(entry, players))
        except RuleError as err:
            raise RuleError("evening.in_payment", number=number, error=err) from None
    return Reading(unit, tuple(games), players, tuple(payments), _player_ids(raw_ids, players))


def _by_player(players: Sequence[str], amounts: Iterable[Mapping[str, int]]) -> dict[str, int]:
    """The amounts added up per player named in them, in the evening's order of players."""
    sums: dict[str, int] = {}
    for mapping in amounts:
        for player, amount in mapping.items():
            sums[player] = sums.get(player, 0) + amount
    return {p: sums[p] for p in players if p in sums}


def evening(record: Mapping[str, Any]) -> dict[str, Any]:
    """The ledger of an evening record: a JSON-ready dict (``docs/records.md``, "The evening").

    Its keys: ``players`` (in the order first seen); ``games`` (each game's
    ``game``, ``finished`` and ``money`` in the table's unit, plus ``chips``
    for a chip game); ``net`` (finished games); ``in_play`` (running games'
    money so far); ``paid`` (payments made +, received −); ``owing``
    (``[payer, payee, amount]``: ``settle_up(net + paid)``); ``settled``;
    and ``lines`` (``{"game", "round", "player", "amount", "what"}``, plus
    ``"unit": "chips"`` for a chip game without a chip value).

    Raises :class:`RuleError`, with a message a player can act on, for an
    unknown field or unit, a game that does not replay (``game 2: ...``) or
    a payment that cannot be (``payment 1: ...``).

    Readings
    --------
    Where the rules text leaves a question open, the ledger reads it so:

    - The record's fields are ``evening``, ``unit``, ``games``, ``paid`` and
      ``player_ids``; any other field is refused (a typo must not drop a payment). ``evening``,
      the evening's name, may be left out or null; when given it is a string.
      It is not repeated in the result. ``unit`` is required: a currency's
      ISO 4217 code as Babel knows it, written exactly (``GBP``, ``NOK``,
      ``JPY``; :mod:`companion.rules.money`), or ``chips``; it names the unit
      and changes no sum (every amount is a whole number of its minor unit:
      pence, øre, whole yen).
      ``games`` and ``paid`` may be left out (nothing played, nothing paid).
    - ``player_ids`` (optional) gives players' ids, ``{"Anna": "p7"}``: the
      same id is the same person at other evenings of the table, whatever
      their name there (the record book, :mod:`companion.rules.records`, counts
      a renamed player as one). A player it leaves out has their name as id.
      Each name must be a player of the evening and each id non-empty text;
      two players of one evening may not have the same id (within an evening
      the ledger goes by name). It changes no sum and is not in the result.
    - A game that does not replay is refused with its number first
      (``game 2: round 3: ...``); a payment likewise (``payment 1: ...``).
    - Players are the same person when they have the same name. ``players``
      lists them in the order first seen: the first game's seating, then each
      later game's newcomers in its seating order.
    - ``net`` names every player of the evening (0 for a player whose finished
      games won or lost nothing, or who only sits in a running game).
      ``in_play`` names only the players of running games with money, adding
      up all running games, and is ``{}`` when none runs. ``paid`` names only
      the players in a payment (even when their payments come to 0).
    - A chip game (Clumond, Trefeltromp) without ``chip_value`` has ``"money":
      {}`` and counts in neither ``net`` nor ``in_play``, even when the
      evening's unit is ``chips`` (set ``chip_value`` 1 to count its chips).
      Its ``chips`` are replay's ``money``, always given for a chip game.
    - A payment is ``[payer, payee, amount]``: both must be players of the
      evening, not the same one, and the amount a positive whole number (a
      bool is not a number; ``350.0`` reads as 350, as everywhere in the
      rules). A payment may be more than was owed (an overpayment): ``owing``
      then sends the difference back. Payments may be marked while a game runs.
    - ``owing`` is ``settle_up(net + paid)`` as ``docs/records.md`` says, so it counts the
      finished games only; it is the proven fewest transfers up to
      :data:`~companion.rules.settle.EXACT_LIMIT` players with something to
      settle, else the greedy pairing. ``settled`` is true when ``owing`` is
      empty and no game runs; an evening with no games is settled.
    - ``lines`` list running games too (what they have moved so far); every
      game's lines add up, player by player, to its ``money`` (for a finished
      game this is the bank check: they also add up to 0). A line is one
      player's total of one kind in one round (a Trefeltromp player's bets in
      a hand are one line); there are no lines of 0. ``round`` is the game's
      own count (a Trefeltromp hand is a round). Lines come game by game,
      and in each game as its rules module gives them: whole-game payments in
      first, then round by round, then the end of the game.
    - A chip game with ``chip_value`` has lines in the table's unit (chips ×
      value); without it, its lines are in chips and carry ``"unit": "chips"``.
    - The kinds of line, and their signs, are :class:`~companion.rules.ledger.What`:
      Tromplemond ``joining fee`` (−), ``TROMP! stake`` (−), ``round pot won``
      (+), ``kitty`` (+; the kitty an Extreme call took, in its round, or the
      shares of the kitty at the end, for the whole game), ``fee payout`` (+;
      the winner's and runner-up's shares, or the whole pot to an Extreme winner),
      ``money returned`` (+); Clumond ``ante`` (−), ``missed declaration`` (−),
      ``payout`` (+), ``share-out`` (+); Trefeltromp ``ante`` (−), ``bets`` (−;
      bets, calls and raises), ``payout`` (+; a reveal won, or the pot of a
      hand won by folding), ``share-out`` (+).
    - Trefeltromp buys are not lines: a buy swaps money for as many chips and
      moves nothing between players (``money`` is stack less chips bought, and
      the chips' own movements explain it). A player who leaves with their
      stack needs no line either.
    - A void or abandoned (banned) Tromplemond gives all money back: its lines
      are the joining fees and stakes paid in and one ``money returned`` line
      per player for all of it; round pots and kitty taken before are not
      lines, since nothing is paid in a void game.
    - A Tromplemond without fee or stake, Trumplestiltskin and Tremp are played
      for points: ``"money": {}`` and no lines.
    """
    reading = read_evening(record)
    games, players, payments = reading.games, list(reading.players), reading.payments
    net = dict.fromkeys(players, 0) | _by_player(
        players, (game.money for game in games if game.finished))
    in_play = _by_player(players, (game.money for game in games if not game.finished))
    paid = _by_player(players, ({pay.payer: pay.amount, pay.payee: -pay.amount}
                                for pay in payments))
    owing = settle_up({p: net[p] + paid.get(p, 0) for p in players})
    return {
        "players": players,
        "games": [game.as_dict() for game in games],
        "net": net,
        "in_play": in_play,
        "paid": paid,
        "owing": [list(transfer) for transfer in owing],
        "settled": not owing and all(game.finished for game in games),
        "lines": [line for number, game in enumerate(games, 1)
                  for line in game.line_dicts(number)],
    }
