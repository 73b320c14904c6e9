"""The one error the rules layer raises, and the English it is said in.

A :class:`RuleError` is a fact, not a sentence: a stable dotted ``code``
(``"bid.out_of_turn"``) and its ``params`` (player names, round numbers, cards
in their printed form such as ``"10♦"``, counts). Its English text, the one the
API and the tests read, is ``MESSAGES[code]`` formatted with the params; a web
layer can say the same code in another language from the same params.

A param may itself be a :class:`Phrase` (a fragment such as "round 3", with a
code and params of its own) or another :class:`RuleError` (the error a wider
one wraps: "game 2: round 3: ..."), so that no English is baked into a param.

The templates are :meth:`str.format` strings with a few extra format specs,
so that a sequence or a count stays a fact in the params and its English is
the template's: ``{names:list}`` joins with ", "; ``{names:and}`` says it as a
sentence does ("Sam, Nick and Bo"); ``{names:possessive}`` says whose ("both
Sam's and Nick's"); ``{holders:holders}`` lists (name, cards-or-count) pairs
("Rob: J♦; Sam: 2", or "none"); ``jack{n:s}`` is "jack" for 1 and "jacks"
otherwise; ``{suits:or}`` is "♠ or ♣"; ``{cards:cards}`` is "A♠ K♥ 5♦";
``{points:scores}`` lists (name, number) pairs ("Ann 20, Bo 13");
``{counts:counts}`` says a set of player counts ("4", "3 to 5", "2, 4").
"""

from __future__ import annotations

import string
import sys
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, Final, NamedTuple

Param = Any
"""A param's value: an int, a name or card text, a raw value (shown with ``!r``),
a sequence of those, a :class:`Phrase` or a :class:`RuleError`."""

_PLAIN = (str, int, float, type(None), list, tuple, dict)


def _and(items: Sequence[object]) -> str:
    words = [str(item) for item in items]
    if len(words) < 2:
        return "".join(words)
    return f"{', '.join(words[:-1])} and {words[-1]}"


def counts_text(counts: Sequence[int]) -> str:
    """How many players, as a sentence says it: ``4``, ``3 to 5``, ``2, 4``."""
    counts = list(counts)
    if len(counts) == 1:
        return str(counts[0])
    if counts == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]} to {counts[-1]}"
    return ", ".join(map(str, counts))


class MessageFormatter(string.Formatter):
    """:meth:`str.format` plus the format specs of the module, in English (a web layer
    saying a message in another language overrides the specs that language says its own
    way: lists, counts, plurals)."""

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec == "list":
            return ", ".join(str(item) for item in value)
        if format_spec == "and":
            return _and(value)
        if format_spec == "or":
            return " or ".join(str(item) for item in value)
        if format_spec == "cards":
            return " ".join(str(item) for item in value)
        if format_spec == "scores":
            return ", ".join(f"{name} {number}" for name, number in value)
        if format_spec == "counts":
            return counts_text(value)
        if format_spec == "s":
            return "" if value == 1 else "s"
        if format_spec == "possessive":
            owned = [f"{name}'s" for name in value]
            return f"both {owned[0]} and {owned[1]}" if len(owned) == 2 else _and(owned)
        if format_spec == "holders":
            return "; ".join(f"{name}: {held}" for name, held in value) or "none"
        return super().format_field(value, format_spec)


_FORMATTER: Final = MessageFormatter()


def _fact(value: Param) -> Param:
    """A param as kept: cards, suits and other printed things as their printed form; a
    Phrase's params likewise (KeyError for a Phrase whose code has no English)."""
    if isinstance(value, Phrase):
        if value.code not in MESSAGES:
            raise KeyError(f"no English for the phrase code {value.code!r}")
        return Phrase(value.code, {k: _fact(v) for k, v in value.params.items()})
    if isinstance(value, (*_PLAIN, RuleError)):
        return value
    return str(value)


def say(code: str, params: Mapping[str, Param]) -> str:
    """The English for ``code`` with ``params`` (KeyError for a code not in MESSAGES)."""
    return _FORMATTER.format(MESSAGES[code], **params)


class Phrase(NamedTuple):
    """A fragment of a message (``round 3``, ``Sam's tricks``), said like a :class:`RuleError`:
    ``Phrase("phrase.round", {"number": 3})``; ``str()`` is its English.

    A plain named tuple, so that making one runs no code: the rules make one for each
    field they check (``whole_number(value, Phrase("field.ante"))``) and say it only
    when the check fails. Its code and params are checked, and its params made facts,
    when a RuleError takes it.
    """

    code: str
    params: Mapping[str, Param] = MappingProxyType({})

    def __str__(self) -> str:
        return say(self.code, self.params)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __hash__(self) -> int:
        return hash((self.code, str(self)))


class RuleError(ValueError):
    """A record (or an action) breaks the rules.

    ``code`` names the rule broken and ``params`` its facts; ``str(error)`` is
    the English written for a player, naming the round, the player(s) and the
    card or number at fault, e.g. ``round 3: 10♦ is in both Sam's and Nick's
    hands``.

    >>> error = RuleError("card.not_a_card", text="1S")
    >>> str(error), error.code, error.params
    ("'1S' is not a card", 'card.not_a_card', {'text': '1S'})
    """

    code: str
    params: Mapping[str, Param]

    def __init__(self, code: str, /, **params: Param) -> None:
        if code not in MESSAGES:
            raise KeyError(f"no English for the rule error code {code!r}")
        self.code = code
        self.params = {k: _fact(v) for k, v in params.items()}
        super().__init__(say(code, self.params))

    def __reduce__(self) -> tuple[Any, ...]:
        state = {k: v for k, v in self.__dict__.items() if k not in ("code", "params")}
        return (_rule_error, (type(self), self.code, dict(self.params)), state or None)


def _rule_error(cls: type[RuleError], code: str, params: dict[str, Param]) -> RuleError:
    error = cls.__new__(cls)
    RuleError.__init__(error, code, **params)
    return error


MESSAGES: Final[dict[str, str]] = {
    # phrases: fragments that other messages' params are made of
    "phrase.round": "round {number}",
    "phrase.this_hand": "this hand",
    "phrase.reveal_named": "the {stage} reveal",
    "phrase.at_stage": " at {where}",
    "phrase.bid_n": "bid {bid}",
    "phrase.bid_word": "bid",
    "phrase.by_player": " by {who}",
    "phrase.folded_shows_no_card": "folded and shows no card",
    "phrase.has_folded": "has folded",
    "phrase.not_in_hand": "is not in this hand",
    "phrase.pass_word": "pass",
    "phrase.passed_word": "passed",
    "phrase.round_stage": "{label}, {stage}",
    "phrase.stage_due": "{stage} is due",
    "phrase.turn_in_stage": "it is {to_act}'s turn in {stage}",
    "phrase.why_folded": " ({p} has folded)",
    "phrase.why_stayed": " ({p} stayed and is not asked again)",
    # fields: what a number or a name that breaks a rule is
    "field.aces_and_kings_taken": "aces and kings taken",
    "field.among_lookers": "among those who looked at the Gnome",
    "field.amount": "the amount",
    "field.ante": "the ante",
    "field.balance_of": "{name}'s balance",
    "field.banned": "banned",
    "field.beginners_option": "the beginners option",
    "field.bidders_tricks": "{label}: the tricks taken by {team} (who won the bid)",
    "field.buy_in_round": "{label}: {name}'s buy",
    "field.buy_of": "{player}'s buy",
    "field.buys": "{label}: buys",
    "field.called": "{where}: called",
    "field.calls": "{label}: calls",
    "field.card_of_trick": "card {k} of the trick",
    "field.card_played": "the card played",
    "field.chip_value": "chip_value",
    "field.deal": "deal",
    "field.dealer": "the dealer",
    "field.dealer_forfeit": "{where}: dealer_forfeit",
    "field.declaration": "the declaration",
    "field.declaration_of": "{label}: {p}'s declaration",
    "field.declarer": "{label}: the declarer",
    "field.each_players_declaration": "each player's declaration",
    "field.each_players_kept": "each player's 3 kept cards",
    "field.each_players_tricks": "each player's tricks",
    "field.game_records": "game records",
    "field.payments": "payments",
    "field.gnome_target": "the Gnome's target",
    "field.hands": "{where}: hands",
    "field.in_bids": "in the bids",
    "field.in_points": "in the points",
    "field.in_round": "{where}: {key}",
    "field.joining_fee": "the joining fee",
    "field.jokers_taken": "jokers taken",
    "field.leave": "{label}: leave",
    "field.limit": "the limit",
    "field.points_of": "{owner}'s points",
    "field.public_jacks": "jacks on show",
    "field.public_jacks_of": "{owner}'s jacks on show (public_jacks)",
    "field.public_row": "public",
    "field.rounds": "the number of rounds",
    "field.secret_jacks": "jacks in the back row",
    "field.secret_jacks_of": "{owner}'s jacks in the back row (secret_jacks)",
    "field.secret_row": "secret",
    "field.shows": "{label}: shows",
    "field.stack": "the starting stack",
    "field.target": "the target",
    "field.target_stack": "the target stack",
    "field.the": "the {what}",
    "field.tie_break_slips": "tie-break slips",
    "field.trick_count": "the trick count",
    "field.tricks_of": "{label}: {p}'s tricks",
    "field.tricks_won": "tricks won",
    "field.tromp_stake": "the TROMP! stake",
    "field.trump_cards_taken": "trump cards taken",
    "field.void": "void",
    "field.votes": "votes",
    "field.whose": "{owner}'s {thing}",
    "field.winning_card": "the winning card",
    # rule
    "rule.within": "{where}: {error}",
    "rule.within_comma": "{label}, {error}",
    # record
    "record.first_dealer_unknown": "the first dealer {first_dealer!r} is not one of the players",
    "record.name_empty": "a player's name is empty",
    "record.name_spaces": "a player's name starts or ends with spaces",
    "record.not_a_player": "{where}: {name!r} is not a player at this table",
    "record.not_an_object": "a game record must be a JSON object",
    "record.options_not_an_object": "options must be a JSON object",
    "record.player_count": "{game} is for {allowed:counts} players, not {count}",
    "record.players_not_a_list": "players must be a list of names",
    "record.round_not_an_object": "{round} is not a JSON object (rounds must be a list of JSON "
        "objects): {entry!r}",
    "record.rounds_not_a_list": "rounds must be a list of JSON objects",
    "record.seated_twice": "{name} is seated twice",
    "record.unknown_option": "{game} has no option {unknown!r}",
    "record.wrong_game": "this is not a {game} record (game is {given!r})",
    # value
    "value.not_true_or_false": "{what} must be true or false, not {value!r}",
    # number
    "number.not_positive_whole": "{what} must be a positive whole number, not {value!r}",
    "number.not_whole": "{what} must be a whole number, not {value!r}",
    "number.too_large": "{what} must be at most {maximum}, not {value}",
    "number.too_small": "{what} must be at least {minimum}, not {value}",
    # card
    "card.not_a_card": "{text!r} is not a card",
    "card.not_a_card_bare": "not a card",
    "card.not_a_suit": "{text!r} is not a suit",
    # round
    "round.game_over": "{label}: the game already ended after round {played}",
    # hand
    "hand.not_an_object": "{label}: a hand must be a JSON object",
    # bid
    "bid.out_of_turn": "{label}: {name} {did} out of turn; it was {turn}'s turn",
    # game
    "game.unknown": "unknown game {name!r}; the companion knows {games:list}",
    # evening
    "evening.in_game": "game {number}: {error}",
    "evening.in_payment": "payment {number}: {error}",
    "evening.name_not_text": "the evening's name must be text, not {name!r}",
    "evening.not_a_list": "{key} must be a list of {what}",
    "evening.not_an_object": "an evening record must be a JSON object",
    "evening.player_id_not_text": "player_ids: {name}'s id must be text, not {player_id!r}",
    "evening.player_id_shared": "player_ids: {first} and {player} have the same id "
        "{player_id!r}; an evening names each player once",
    "evening.player_id_unknown_player": "player_ids: {name!r} is not a player this evening",
    "evening.player_ids_not_an_object": "player_ids must be a JSON object of players' names and "
        "their ids",
    "evening.unknown_field": "an evening has no field {unknown!r} (only {fields:list})",
    "evening.unknown_unit": "unit must be a currency's ISO 4217 code (such as GBP, EUR, NOK "
        "or JPY) or chips, not {unit!r}",
    # payment
    "payment.malformed": "{entry!r} is not a payment: write [payer, payee, amount]",
    "payment.not_a_player": "{name!r} is not a player this evening",
    "payment.to_self": "{payer} pays {payee}: a payment is to someone else",
    # records
    "records.in_evening": "evening {number}: {error}",
    # settle
    "settle.not_zero_sum": "the balances add up to {total}, not 0: someone's money is missing",
}

ADDED: Final[set[str]] = set()
"""The codes :func:`add_messages` registered that the rules tests need not say (a made-up
game's, a layer above's)."""


OWNERS: Final[dict[str, str]] = {}
"""The module that registered each code added by :func:`add_messages` (``__name__``): the
app's catalogues take the codes of the app's own modules, not a test's made-up game's."""


def add_messages(messages: Mapping[str, str], *, tested: bool = False) -> None:
    """Register the English of a game's own codes (each game registers its own, in its
    rules module), or of a layer above that raises RuleError. A code already registered
    with other English is refused: a code means one thing.

    ``tested``: the rules tests say every one of these codes (``tests/rules/conftest.py``
    checks a whole green run of them); otherwise they are in :data:`ADDED`, which the
    check leaves out (a made-up game's, a layer above's)."""
    for code, template in messages.items():
        if MESSAGES.get(code, template) != template:
            raise ValueError(f"the code {code!r} already has other English")
    MESSAGES.update(messages)
    owner = sys._getframe(1).f_globals.get("__name__", "")  # (the module calling)
    OWNERS.update(dict.fromkeys(messages, owner))
    if not tested:
        ADDED.update(messages)
