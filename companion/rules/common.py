"""What the five games share: reading a record's header, seats, exact numbers.

Every game module reads its record with :func:`read_header`, walks the seats
with :func:`left_of` / :func:`right_of`, and turns exact numbers into JSON with
:func:`to_json_number`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .errors import Phrase, RuleError, counts_text

Number = int | Fraction


@dataclass(frozen=True)
class Header:
    """The common fields of a game record, checked."""

    game: str
    players: tuple[str, ...]
    first_dealer: str
    options: dict[str, Any]
    rounds: tuple[Mapping[str, Any], ...]


@dataclass(frozen=True)
class Checklist:
    """A deck-preparation or dealing checklist: a title and the steps, in order.

    A game's title and steps may be phrases (:class:`Phrase`: a code and its facts, which a
    screen says in its own language) or English text; ``str()`` of either is the English.
    """

    title: str | Phrase
    steps: tuple[str | Phrase, ...]

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form (the English)."""
        return {"title": str(self.title), "steps": [str(step) for step in self.steps]}


def read_header(
    record: object,
    game: str,
    player_counts: range | Sequence[int],
    defaults: Mapping[str, Any],
) -> Header:
    """Check the common fields of ``record`` and fill in the default options.

    ``player_counts`` is how many players the game allows. Unknown option
    names are refused (a typo would otherwise be silently ignored).

    >>> h = read_header({"game": "clumond", "players": ["Ann", "Bo", "Cy"],
    ...                  "first_dealer": "Bo", "rounds": []}, "clumond", [3], {"ante": 5})
    >>> h.players, h.first_dealer, h.options
    (('Ann', 'Bo', 'Cy'), 'Bo', {'ante': 5})
    """
    if not isinstance(record, Mapping):
        raise RuleError("record.not_an_object")
    if record.get("game") != game:
        raise RuleError("record.wrong_game", game=game, given=record.get('game'))
    players = record.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise RuleError("record.players_not_a_list")
    names = tuple(p.strip() for p in players)
    if any(not n for n in names):
        raise RuleError("record.name_empty")
    if names != tuple(players):
        raise RuleError("record.name_spaces")
    for i, name in enumerate(names):
        if name in names[:i]:
            raise RuleError("record.seated_twice", name=name)
    if len(names) not in player_counts:
        raise RuleError("record.player_count", game=game, allowed=tuple(player_counts),
                        count=len(names))
    first_dealer = record.get("first_dealer", names[0])
    if first_dealer not in names:
        raise RuleError("record.first_dealer_unknown", first_dealer=first_dealer)
    given = record.get("options")
    options = merge_options({} if given is None else given, defaults, game)
    rounds = record.get("rounds", [])
    if not isinstance(rounds, list):
        raise RuleError("record.rounds_not_a_list")
    for i, entry in enumerate(rounds):
        if not isinstance(entry, Mapping):
            raise RuleError("record.round_not_an_object", round=the_round(i), entry=entry)
    return Header(game, names, first_dealer, options, tuple(rounds))


def merge_options(given: object, defaults: Mapping[str, Any], game: str) -> dict[str, Any]:
    """A game's options with the defaults filled in.

    Unknown names are refused: a typo (``"joiningfee"``) would otherwise be
    silently ignored, and with it the money it was meant to set.

    >>> merge_options({"ante": 2}, {"ante": 5, "stack": 100}, "clumond")
    {'ante': 2, 'stack': 100}
    """
    if not isinstance(given, Mapping):
        raise RuleError("record.options_not_an_object")
    unknown = sorted(set(given) - set(defaults))
    if unknown:
        raise RuleError("record.unknown_option", game=game, unknown=unknown[0])
    return dict(defaults) | dict(given)


def true_or_false(value: object, what: str | Phrase) -> bool:
    """A yes/no field: ``true``, ``false``, or left out (false).

    >>> true_or_false(None, "void"), true_or_false(True, "void")
    (False, True)
    """
    if value is None:
        return False
    if not isinstance(value, bool):
        raise RuleError("value.not_true_or_false", what=what, value=value)
    return value


def describe_counts(counts: range | Sequence[int]) -> str:
    """How many players, as a sentence says it: ``4``, ``3 to 5``, ``2, 4``.

    >>> describe_counts([4]), describe_counts(range(3, 6)), describe_counts([2, 4])
    ('4', '3 to 5', '2, 4')
    """
    return counts_text(counts)


def left_of(players: Sequence[str], player: str, steps: int = 1) -> str:
    """The player ``steps`` seats clockwise after ``player``.

    >>> left_of(["Rob", "Sam", "Nick", "Emily"], "Emily")
    'Rob'
    """
    return players[(players.index(player) + steps) % len(players)]


def right_of(players: Sequence[str], player: str, steps: int = 1) -> str:
    """The player ``steps`` seats counter-clockwise before ``player``.

    >>> right_of(["Rob", "Sam", "Nick", "Emily"], "Rob")
    'Emily'
    """
    return left_of(players, player, -steps)


def clockwise_from(players: Sequence[str], first: str) -> list[str]:
    """All players in clockwise order, starting with ``first``.

    >>> clockwise_from(["Rob", "Sam", "Nick", "Emily"], "Nick")
    ['Nick', 'Emily', 'Rob', 'Sam']
    """
    i = players.index(first)
    return list(players[i:]) + list(players[:i])


def to_json_number(value: Number) -> int | float:
    """An exact number as JSON: an int when whole, else a float that is exact.

    Only halves, quarters and other powers of two arise in the games, and
    those are exact in binary floating point; anything else is a bug.

    >>> to_json_number(Fraction(7, 2)), to_json_number(Fraction(8, 2)), to_json_number(3)
    (3.5, 4, 3)
    """
    if isinstance(value, int):
        return value
    if value.denominator == 1:
        return int(value.numerator)
    as_float = value.numerator / value.denominator
    if Fraction(as_float) != value:  # pragma: no cover - guards against a rules bug
        raise ArithmeticError(f"{value} cannot be written exactly in JSON")
    return as_float


def json_scores(scores: Mapping[str, Number]) -> dict[str, int | float]:
    """A mapping of exact numbers as JSON numbers, order kept."""
    return {name: to_json_number(v) for name, v in scores.items()}


def split_evenly(amount: int, shares: int) -> tuple[int, int]:
    """The rounding rule: each share rounded down, and what is left over.

    >>> split_evenly(11, 3)
    (3, 2)
    """
    if shares <= 0:
        raise ValueError("cannot split among nobody")
    return amount // shares, amount % shares


def distribute_odd_units(amount: int, recipients: Sequence[str]) -> dict[str, int]:
    """Share ``amount`` evenly; odd units go one each to the first recipients.

    >>> distribute_odd_units(11, ["Ann", "Bo", "Cy"])
    {'Ann': 4, 'Bo': 4, 'Cy': 3}
    """
    each, left = split_evenly(amount, len(recipients))
    return {name: each + (1 if i < left else 0) for i, name in enumerate(recipients)}


def whole_number(value: object, what: str | Phrase, *, minimum: int | None = None,
                 maximum: int | None = None) -> int:
    """Check that ``value`` is a whole number (not a bool) within bounds.

    ``what`` names the field for the message, e.g. ``"round 2: Ann's tricks"``.
    """
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        else:
            raise RuleError("number.not_whole", what=what, value=value)
    if minimum is not None and value < minimum:
        raise RuleError("number.too_small", what=what, minimum=minimum, value=value)
    if maximum is not None and value > maximum:
        raise RuleError("number.too_large", what=what, maximum=maximum, value=value)
    return value


def positive_whole(value: object, what: str | Phrase) -> int:
    """Check that ``value`` is a positive whole number (not a bool; ``5.0`` from JSON is 5).

    ``what`` names the field for the message, as a player would write it.

    >>> positive_whole(350, "the amount"), positive_whole(5.0, "chip_value")
    (350, 5)
    >>> positive_whole(0, "chip_value")  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    ...
    RuleError: chip_value must be a positive whole number, not 0
    """
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise RuleError("number.not_positive_whole", what=what, value=value)
    return value


def read_chip_value(options: Mapping[str, Any]) -> int | None:
    """A chip game's ``chip_value`` option: whole smallest units of money per chip.

    None (or left out) means the chips are not money.

    >>> read_chip_value({"chip_value": 5}), read_chip_value({"chip_value": None})
    (5, None)
    """
    value = options.get("chip_value")
    return None if value is None else positive_whole(value, Phrase("field.chip_value"))


def require_player(name: object, players: Sequence[str], where: str | Phrase) -> str:
    """Check that ``name`` is one of the players; ``where`` prefixes the message."""
    if not isinstance(name, str) or name not in players:
        raise RuleError("record.not_a_player", where=where, name=name)
    return name


def and_list(names: Iterable[str]) -> str:
    """Names as a sentence says them.

    >>> and_list(["Sam"]), and_list(["Sam", "Nick"]), and_list(["Rob", "Sam", "Nick"])
    ('Sam', 'Sam and Nick', 'Rob, Sam and Nick')
    """
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def the_round(index: int) -> Phrase:
    """The round of the 0-based ``index`` as a message's fact (English: ``round N``)."""
    return Phrase("phrase.round", {"number": index + 1})


def round_label(index: int) -> str:
    """``round N`` for the 0-based ``index``, as messages say it."""
    return str(the_round(index))


@dataclass(frozen=True)
class Standing:
    """One line of the standings: the place (shared places alike), the player, the total."""

    place: int
    player: str
    total: int
    shared: bool
    """True when another player has the same place."""


def standings(totals: Mapping[str, int]) -> list[Standing]:
    """The players from the highest total down (seat order within a shared place).

    >>> [(s.place, s.player, s.shared) for s in standings({"Rob": 30, "Sam": 42, "Nick": 42,
    ...                                                     "Emily": 0})]
    [(1, 'Sam', True), (1, 'Nick', True), (3, 'Rob', False), (4, 'Emily', False)]
    """
    ordered = sorted(totals, key=lambda p: -totals[p])
    lines = []
    for player in ordered:
        place = 1 + sum(1 for q in totals if totals[q] > totals[player])
        shared = sum(1 for q in totals if totals[q] == totals[player]) > 1
        lines.append(Standing(place, player, totals[player], shared))
    return lines
