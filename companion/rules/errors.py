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
    "evening.unknown_unit": "unit must be one of {units:list}, not {unit!r}",
    # payment
    "payment.malformed": "{entry!r} is not a payment: write [payer, payee, amount]",
    "payment.not_a_player": "{name!r} is not a player this evening",
    "payment.to_self": "{payer} pays {payee}: a payment is to someone else",
    # records
    "records.in_evening": "evening {number}: {error}",
    # settle
    "settle.not_zero_sum": "the balances add up to {total}, not 0: someone's money is missing",
    # clumond
    "clumond.answer_out_of_turn": "It is {turn}'s turn to answer, not {player}'s",
    "clumond.asked_out_of_order": "going for Clumond is asked in turn ({order:list}), not "
        "{passed:list}",
    "clumond.declaration_kept_count": "a declaration is made from {kept} kept cards, not {count}",
    "clumond.declaration_mismatch": "{label}: {p}'s declared {number} does not match {p}'s kept "
        "cards ({cards:cards} declare {from_cards})",
    "clumond.declaration_missing": "{label}: {p}'s declaration is missing (give {p}'s kept cards "
        "or declared number)",
    "clumond.field_not_an_object": "{label}: {key} must be an object giving {what}",
    "clumond.kept_by_two": "{label}: {card} is in both {holder}'s and {p}'s kept cards",
    "clumond.kept_count": "{label}: {player} kept {count} cards, not {kept}",
    "clumond.kept_count_each": "{count} kept cards: each player keeps {kept}",
    "clumond.kept_not_a_card": "{label}: {text!r} in {player}'s kept cards is not a card",
    "clumond.kept_not_a_list": "{label}: {player}'s kept cards must be a list of {kept} cards",
    "clumond.kept_not_in_deck": "{label}: {card} in {player}'s kept cards is not in the Clumond "
        "deck",
    "clumond.kept_twice": "{label}: {card} is twice in {player}'s kept cards",
    "clumond.name_a_trump": "name a trump suit (♠ ♥ ♦ ♣) or no trumps",
    "clumond.no_end": "a Clumond game needs an end: set the number of rounds, a target stack, or "
        "both",
    "clumond.nobody_answered": "Nobody has answered yet",
    "clumond.not_asked_next": "{declarer} was not the one asked after {passed:list}",
    "clumond.not_asked_first": "{declarer} was not the one asked after nobody",
    "clumond.asking_over": "Going for Clumond is over for this round",
    "clumond.asking_over_taken": "Going for Clumond is over for this round: {declarer} went for it",
    "clumond.not_in_deck": "{card} is not in the Clumond deck",
    "clumond.picked_count": "{count} cards are picked: each player keeps {kept}",
    "clumond.ten_not_in_deck": "{card} is not in the Clumond deck: the four 10s are taken out",
    "clumond.picked_twice": "{card} is picked twice",
    "clumond.player_count": "clumond is for 3 players, not {count}",
    "clumond.player_tricks_missing": "{label}: {p}'s tricks are missing",
    "clumond.round_not_an_object": "{label}: a round must be a JSON object",
    "clumond.round_not_an_object_raw": "{round}: a round must be a JSON object, not {raw!r}",
    "clumond.round_tricks_total": "{label}: the tricks add up to {total}, not {tricks}",
    "clumond.round_unknown_field": "{label}: a round has no field {unknown!r} (only {fields:list})",
    "clumond.target_below_stack": "the target stack ({target}) must be more than the starting "
        "stack ({stack})",
    "clumond.tricks_missing": "{label}: the tricks are missing",
    "clumond.tricks_total": "the tricks add up to {total}, not {tricks}",
    "clumond.trump_not_a_suit": "{label}: {declarer}'s trump {value!r} is not a suit (or \"none\")",
    "clumond.trump_without_declarer": "{label}: a trump ({value}) is named but nobody went for "
        "Clumond",
    "clumond.went_clumond_no_trump": "{label}: {declarer} went for Clumond but no trump (or "
        "\"none\") is given",
    # tremp
    "tremp.against_itself": "{played} cannot be played against itself",
    "tremp.bid_after_end": "{label}: the bidding ended with {ended_by}'s pass; {name}'s entry "
        "after it is one too many",
    "tremp.bid_malformed": "{label}: bid {number} must be [player, card] or [player, \"pass\"], "
        "not {entry!r}",
    "tremp.bidding_not_started": "{label}: the bidding has not ended: nobody has bid yet",
    "tremp.bidding_unfinished": "{label}: the bidding has not ended: after {player}'s bid of "
        "{bid} ({card}) three players in a row must pass",
    "tremp.bids_missing": "{label}: the bids are missing",
    "tremp.bids_not_a_list": "{label}: the bids must be a list of [player, card] or [player, "
        "\"pass\"]",
    "tremp.dealer_must_bid": "{label}: {name} is the dealer and must bid after three passes "
        "(house rule)",
    "tremp.displayed_not_a_card": "{label}: {name} displayed {what!r}, which is not a card (or "
        "\"pass\")",
    "tremp.displayed_not_standard": "{label}: {name} displayed {card}, which is not in a "
        "standard deck",
    "tremp.displayed_too_many": "{label}: {name} has displayed {count} cards but holds only "
        "{tricks}",
    "tremp.displayed_twice": "{label}: {card} was already displayed by {shown_by}; {name} cannot "
        "display it again",
    "tremp.hand_not_an_object_raw": "{round}: a hand must be a JSON object, not {raw!r}",
    "tremp.hand_trick_count": "a hand has {tricks} tricks, not {count}",
    "tremp.hand_unknown_field": "{label}: a hand has no field {unknown!r} (only bids, tricks)",
    "tremp.later_card_index": "a later card of a trick is card 2 to {trick_cards}, not card "
        "{index}",
    "tremp.missing": "{what} are missing",
    "tremp.nobody_bid": "somebody must bid: the dealer bids if the other three pass",
    "tremp.not_standard": "{what}: {card} is not a card of a standard 52-card deck",
    "tremp.played_twice": "{card} is played twice in the trick (cards {first} and {second})",
    "tremp.player_count": "tremp is for 4 players, not {count}",
    "tremp.points_too_large": "{label}: the points have grown too large to be written exactly "
        "({value})",
    "tremp.team_tricks": "a team takes 0 to {most} tricks, not {tricks}",
    "tremp.trick_not_a_list": "a trick is a list of {trick_cards} cards in the order played, not "
        "{cards!r}",
    "tremp.trick_not_standard": "a trick is {trick_cards} cards of a standard 52-card deck, not "
        "{cards!r}",
    "tremp.trick_size": "a trick is {trick_cards} cards, one from each player, not {count}",
    "tremp.trick_trump_not_a_suit": "the trump must be a suit, not {trump!r}",
    "tremp.trump_not_a_suit": "the trump must be a suit (♠ ♥ ♦ ♣), not {value!r}",
    "tremp.value_not_a_card": "{what}: {value!r} is not a card",
    # tromplemond
    "tromplemond.bad_payout": "payout must be two whole percentages (winner, runner-up) adding "
        "up to 100, not {shown!r}",
    "tromplemond.call_without_jack": "{where}: {name} is listed as calling TROMP!, but {name}'s "
        "hand holds no jack",
    "tromplemond.called_not_a_list": "{where}: called must be a list of players",
    "tromplemond.called_twice": "{where}: {name} is listed twice in called",
    "tromplemond.card_twice": "{card} is twice in {owner}'s hand",
    "tromplemond.cut_not_needed": "{where}: no card cut is needed: {top} has the top total alone "
        "after the extra round",
    "tromplemond.cut_winner_not_tied": "{where}: the cut winner {cut_winner} is not one of those "
        "sharing the top total ({top:list})",
    "tromplemond.cut_winner_too_early": "{where}: cut_winner is only for the extra round, when "
        "the top total is still shared after it",
    "tromplemond.game_over_cut": "{where}: the game already ended after the extra {round}; a "
        "card cut settles the tie (record its cut_winner on {round})",
    "tromplemond.hand_incomplete": "{owner}'s hand must give either its public and secret cards, "
        "or its points, public_jacks and secret_jacks",
    "tromplemond.hand_missing": "{where}: {p}'s hand is missing",
    "tromplemond.hand_not_a_card": "{text!r} in {owner}'s hand is not a card",
    "tromplemond.hand_not_an_object": "{owner}'s hand must be a JSON object",
    "tromplemond.hand_not_in_deck": "{card} in {owner}'s hand is not in the Tromplemond deck",
    "tromplemond.hand_too_many_jacks": "{owner}'s hand cannot hold {jacks} jacks: the deck has 4",
    "tromplemond.hands_not_an_object": "{where}: hands must be a JSON object, one entry per player",
    "tromplemond.names_not_distinct": "the four players need four different names",
    "tromplemond.no_tie": "there is no tie to break",
    "tromplemond.nobody_off": "{where}: nobody went off; name the voted-off player (voted_off) "
        "or the player who showed cards early (shown_early)",
    "tromplemond.not_in_deck": "{card} is not in the Tromplemond deck",
    "tromplemond.off_cannot_call": "{where}: {name} went off and cannot win a TROMP! call",
    "tromplemond.player_count": "Tromplemond is for 4 players, not {count}",
    "tromplemond.points_odd": "{owner}'s points must be even (every card is worth an even "
        "number), not {points}",
    "tromplemond.points_unreachable": "{owner}'s hand cannot be worth {points} points with "
        "{jacks} jack{jacks:s} and {others} other cards",
    "tromplemond.card_in_hands": "{card} is in {owners:possessive} hands",
    "tromplemond.hand_count": "there are 4 hands in Tromplemond, not {count}",
    "tromplemond.jacks_too_many": "{jacks} jacks are entered but the deck has only 4 "
        "({holders:holders})",
    "tromplemond.jacks_too_few": "only {jacks} jack{jacks:s} in the four hands "
        "({holders:holders}); all 4 are dealt every round",
    "tromplemond.aces_too_few": "only {aces} ace{aces:s} in the four hands ({holders:holders}); "
        "all 4 are dealt every round",
    "tromplemond.round_not_an_object": "{where} must be a JSON object",
    "tromplemond.round_unknown_field": "{where}: unknown field {unknown!r}",
    "tromplemond.row_not_a_list": "{owner}'s {key} cards must be a list of cards",
    "tromplemond.row_size": "{owner}'s hand must have {size} {what} cards, not {count}",
    "tromplemond.seat_count": "{game} is for 4 players, not {count}",
    "tromplemond.shown_early_goes_off": "{where}: {shown} showed cards early, so {shown} goes "
        "off, not {voted_off}",
    "tromplemond.tie_break_pair": "a tie-break is between two tied players",
    "tromplemond.tie_break_slip_count": "there are 2 tie-break slips, not {count}",
    "tromplemond.tie_break_slip_name": "a tie-break slip must name {pair} or {pair2}, not {name!r}",
    "tromplemond.too_many_jacks": "a hand cannot hold {secret} jacks: the deck has 4",
    "tromplemond.vote_not_counts": "the {what} must be counts per player",
    "tromplemond.vote_total": "the {what} add up to {total}, but there are {slips} slips",
    # trumplestiltskin
    "trumplestiltskin.bid_after_pass": "{player} cannot {said}: {player} passed earlier and is "
        "out of the bidding for this hand",
    "trumplestiltskin.bid_after_taken": "{player} cannot {said}: the bidding was over ({taker} "
        "had taken the bid at {top_bid})",
    "trumplestiltskin.bid_after_throw_in": "{player} cannot {said}: everyone had passed and the "
        "hand was thrown in",
    "trumplestiltskin.bid_malformed": "a bid is written [name, number] or [name, \"pass\"], not "
        "{entry!r}",
    "trumplestiltskin.bid_not_a_number": "{player}'s bid must be a whole number or \"pass\", not "
        "{said!r}",
    "trumplestiltskin.bid_not_higher": "{player}'s bid of {bid} is not higher than "
        "{top_bidder}'s bid of {top_bid}",
    "trumplestiltskin.bid_out_of_turn": "{player} cannot {said} out of turn: it is {to_speak}'s "
        "turn",
    "trumplestiltskin.bid_too_small": "{player}'s bid must be a whole number of at least 1, not "
        "{bid!r}",
    "trumplestiltskin.bidding_unfinished": "the bidding is not finished: it is {to_speak}'s turn "
        "to bid or pass",
    "trumplestiltskin.bids_not_a_list": "bids must be a list of [name, bid] pairs, not {bids!r}",
    "trumplestiltskin.gnome_missing": "which card was the Gnome? (\"gnome\" is missing)",
    "trumplestiltskin.gnome_not_blanket": "the Gnome is a Blanket card (a 9 or a joker), not "
        "{card}",
    "trumplestiltskin.hand_unknown_field": "a hand has no {unknown!r} (it has {fields:list})",
    "trumplestiltskin.in_gnome": "the Gnome: {error}",
    "trumplestiltskin.looked_not_a_list": "looked must be a list of the names who looked at the "
        "Gnome, not {looked!r}",
    "trumplestiltskin.looked_twice": "{name} is listed twice among those who looked at the Gnome",
    "trumplestiltskin.player_count": "{game} is for 3 to 5 players, not {count}",
    "trumplestiltskin.points_missing": "{name}'s points are missing",
    "trumplestiltskin.points_not_an_object": "points must give every player's points, not "
        "{points!r}",
    "trumplestiltskin.points_too_many": "the points add up to {total} ({points:scores}), but a "
        "hand with {gnome} as the Gnome and {trump} trumps holds at most {most}",
    "trumplestiltskin.taker_picks_trump": "the Gnome is the {gnome}, so the taker picks trump: "
        "either {suits:or}",
    "trumplestiltskin.thrown_in_scored": "everyone passed, so the hand was thrown in, yet "
        "{scored} took {points} points",
    "trumplestiltskin.trump_follows_gnome": "the Gnome is {gnome}, so trump is {suit}, not {given}",
    "trumplestiltskin.trump_is_fixed": "the Gnome is the {gnome}, so trump is either {suits:or}, "
        "not {suit}",
    "trumplestiltskin.unknown_count": "count aces and kings, trump cards or jokers, not {what!r}",
    # trefeltromp
    "trefeltromp.action_after_fold_win": "{where}: the hand ended when everyone but "
        "{won_by_fold} folded; {p}'s {verb} comes after it",
    "trefeltromp.action_after_round": "{where}: the betting round is over; {p}'s {verb} is one "
        "action too many",
    "trefeltromp.action_malformed": "{entry!r} is not an action: write [name, verb] or [name, "
        "\"bet\" or \"raise\", N]",
    "trefeltromp.amount_missing": "{player}'s {verb} needs an amount",
    "trefeltromp.amount_not_taken": "{player}'s {verb} takes no amount",
    "trefeltromp.ante_no_stack": "ante: {p} has no stack",
    "trefeltromp.ante_short": "ante: {p} cannot cover the ante of {ante} with {stack} chips; buy "
        "more or leave the table",
    "trefeltromp.bet_short": "{stage}: {p} cannot cover a bet of {pay} with {stack} chips; buy "
        "more or bet less",
    "trefeltromp.betting_round_count": "{label}: a hand has 4 betting rounds, not {count}",
    "trefeltromp.betting_round_not_a_list": "{where}: a betting round must be a list of actions",
    "trefeltromp.betting_round_unfinished": "{where}: the betting round is not over ({status}) "
        "but later entries follow",
    "trefeltromp.buy_after_leaving": "{label}: {name} has left the table and cannot buy chips",
    "trefeltromp.buy_malformed": "{label}: {entry!r} is not a buy: write [name, chips]",
    "trefeltromp.buyer_not_seated": "{player} is not seated in this hand",
    "trefeltromp.call_short": "{stage}: {p} cannot cover the call of {owe} with {stack} chips; "
        "buy more or fold",
    "trefeltromp.cannot_bet": "{stage}: {p} cannot bet: there is already a bet (call {owe}, "
        "raise or fold)",
    "trefeltromp.cannot_call": "{stage}: {p} cannot call: there is nothing to call (check instead)",
    "trefeltromp.cannot_check": "{stage}: {p} cannot check: there are {owe} chips to call",
    "trefeltromp.cannot_raise": "{stage}: {p} cannot raise: nobody has bet yet (bet instead)",
    "trefeltromp.cannot_show": "{stage}: {name} {why}",
    "trefeltromp.cannot_stay": "{stage}: {p} cannot stay: only a player who showed the Fool at "
        "the reveal just before and did not win may stay",
    "trefeltromp.dealer_not_seated": "the dealer {dealer!r} is not seated in this hand",
    "trefeltromp.dealer_unknown": "the dealer {dealer!r} is not one of the players",
    "trefeltromp.entry_gap": "{label}: {entry_name} is given but {entry_name2} is missing",
    "trefeltromp.fool_privilege_lost": "{stage}: {p} gave up the Fool's privilege by acting "
        "earlier in this betting round; match or fold",
    "trefeltromp.hand_unfinished": "round {i}: the hand is not over ({status}) but {label} follows",
    "trefeltromp.hand_unknown_field": "{label}: a hand has no field {unknown!r} (only buys, "
        "leave, calls, shows)",
    "trefeltromp.in_card": "{stage}: {player}'s card: {error}",
    "trefeltromp.lays_no_card": "{stage}: {player} {why} and lays no card",
    "trefeltromp.leave_mid_hand": "{label}: {leave} cannot leave before the hand is over "
        "({status})",
    "trefeltromp.leave_twice": "{label}: {name} is named twice in leave",
    "trefeltromp.left_twice": "{label}: {name} has already left the table",
    "trefeltromp.no_reveal_now": "{stage}: no cards are shown now",
    "trefeltromp.nobody_to_act": "{stage}: nobody is to act now; {p}'s {verb} is out of place",
    "trefeltromp.not_a_list": "{what} must be a list",
    "trefeltromp.not_a_player": "{name!r} is not a player's name",
    "trefeltromp.not_seated": "{where}: {p} is not seated in this hand",
    "trefeltromp.not_tarot": "the {card} is not a tarot card",
    "trefeltromp.not_tarot_court": "{card} is not a tarot card (the court cards are P, N, Q, K)",
    "trefeltromp.one_player_left": "{label}: only {seated} is still at the table and a hand "
        "needs at least 2 players; record {seated} as leaving after round {i}",
    "trefeltromp.out_of_turn": "{stage}: it is {to_act}'s turn, not {p}'s{why}",
    "trefeltromp.over_limit": "{stage}: {p}'s {verb} of {amount} is over the table limit of "
        "{limit}",
    "trefeltromp.player_count": "trefeltromp is for {start} to {stop} players",
    "trefeltromp.raise_short": "{stage}: {p} cannot cover a raise of {amount} ({pay} in all) "
        "with {stack} chips; buy more, raise less or fold",
    "trefeltromp.reveal_after_fold_win": "{label}, {stage}: the hand ended when everyone but "
        "{won_by_fold} folded; no cards are shown",
    "trefeltromp.reveal_count": "{label}: a hand has 3 reveals, not {count}",
    "trefeltromp.reveal_missing": "{stage}: no card shown by {missing:list}",
    "trefeltromp.reveal_not_an_object": "{stage}: the cards shown must be a JSON object of "
        "player: card",
    "trefeltromp.shown_earlier": "{stage}: {text} was shown{by} at {stage2} this hand",
    "trefeltromp.shown_twice": "{stage}: {name} shows {text}, already shown{by}{at} this hand",
    "trefeltromp.too_few_seated": "a hand needs at least 2 players",
    "trefeltromp.unknown_action": "{player}: {verb!r} is not an action",
    "trefeltromp.unknown_action_listed": "{name}: {verb!r} is not an action (check, bet, raise, "
        "call, fold or stay)",
}

ADDED: Final[set[str]] = set()
"""The codes :func:`add_messages` registered (a game's own, from outside this package)."""


def add_messages(messages: Mapping[str, str]) -> None:
    """Register the English of a game's own codes (a game added from outside, or a layer
    above that raises RuleError). A code already registered with other English is refused:
    a code means one thing."""
    for code, template in messages.items():
        if MESSAGES.get(code, template) != template:
            raise ValueError(f"the code {code!r} already has other English")
    MESSAGES.update(messages)
    ADDED.update(messages)
