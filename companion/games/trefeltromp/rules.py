"""Trefeltromp: the tarot betting game (``texts/en.md``).

Every hand each seated player antes, gets 3 tarot cards, and four betting
rounds (*calls*) alternate with three reveals: at **banen** the best card
takes ⅓ of the pot, at **detuiler** ½, at **debekranse** all of it. A tie
takes nothing and the pot stays. Chips are the table's smallest unit.

A hand of the record (``calls``: the four betting rounds fyrsturkalla,
banenkalla, detuilerkalla, debekransekalla; ``shows``: the reveals banen,
detuiler, debekranse)::

    {"buys": [["Cy", 200]], "leave": [],
     "calls": [[["Bo", "check"], ["Cy", "bet", 20], ["Ann", "call"], ["Bo", "fold"]],
               [["Cy", "check"], ["Ann", "check"]],
               [["Cy", "bet", 10], ["Ann", "call"]],
               [["Cy", "check"], ["Ann", "check"]]],
     "shows": [{"Ann": "XXI", "Cy": "K♥"}, {"Ann": "Fool", "Cy": "7♣"},
               {"Ann": "A♠", "Cy": "A♦"}]}

>>> result = replay({"game": "trefeltromp", "players": ["Ann", "Bo", "Cy"],
...     "first_dealer": "Ann", "rounds": [{"buys": [["Cy", 200]], "leave": [],
...     "calls": [[["Bo", "check"], ["Cy", "bet", 20], ["Ann", "call"], ["Bo", "fold"]],
...               [["Cy", "check"], ["Ann", "check"]],
...               [["Cy", "bet", 10], ["Ann", "call"]],
...               [["Cy", "check"], ["Ann", "check"]]],
...     "shows": [{"Ann": "XXI", "Cy": "K♥"}, {"Ann": "Fool", "Cy": "7♣"},
...               {"Ann": "A♠", "Cy": "A♦"}]}]})
>>> reveals = result["rounds"][0]["breakdown"]["reveals"]
>>> [(r["name"], r["winner"], r["share"], r["pot"]) for r in reveals]
[('banen', 'Ann', 23, 47), ('detuiler', 'Ann', 33, 34), ('debekranse', None, 0, 34)]
>>> result["totals"], result["pot"], result["money"]
({'Ann': 516, 'Bo': 490, 'Cy': 660}, 34, {'Ann': 16, 'Bo': -10, 'Cy': -40})

The 34 chips of the tied debekranse stay in the pot for the next hand.

The hand as a state machine
---------------------------
:func:`start_hand` takes the antes and gives a frozen :class:`Hand`; its
:meth:`Hand.act` and :meth:`Hand.show` check an action or a reveal before
applying it and return the next :class:`Hand`. :func:`next_to_act`,
:func:`to_call`, :func:`legal_actions` and :func:`max_amount` answer "whose
turn is it, what may they do, how much". :func:`current_hand` gives the hand
in progress of a record (or None); :func:`table_now` also who is still
seated and who deals next.

>>> hand = start_hand(["Ann", "Bo", "Cy"], "Ann", {"Ann": 500, "Bo": 500, "Cy": 500})
>>> hand.pot, next_to_act(hand), [v.value for v in legal_actions(hand)]
(30, 'Bo', ['check', 'bet', 'fold'])
>>> hand = hand.act(Action("Bo", Verb.BET, 20))
>>> next_to_act(hand), to_call(hand), max_amount(hand)
('Cy', 20, 470)

For the screens
---------------
:func:`read_options` reads the options; :func:`replay_now` gives the result
and the table from one replay; :func:`bought` adds up a hand's buys;
:func:`amount_choices` gives the chip buttons of a bet or raise;
:func:`shortfall` and :func:`buy_choices` what a player who cannot cover the
call may buy; :func:`card_to_show` checks a card laid down at a reveal and
:func:`shown_twice` finds a card laid twice once all are in; :func:`who_leaves`
who leaves with whom; :func:`hand_story` tells a hand step by step with the pot
before and after each step; :func:`figures` gives the final figures and who pays whom.

The hand in progress
--------------------
While a hand is played the app keeps it as a round's draft: the hand's fields
in the record's form plus a few working facts (:func:`log_of`). Each thing done
in it is a function of the record, those facts and the action, as a poker
engine applies an operation to a state: :func:`deal`, :func:`act`,
:func:`draw`, :func:`buy`, :func:`lay` (a reveal's cards) and :func:`undo`
check it first (``RuleError``, the facts unchanged) and return a
:class:`Change`: the new facts, and what follows from them (the hand joins the
record once it is over; the cards of the reveal due are laid, and by whom).
:func:`follows` says what the facts call for with nothing done.

Result
------
The common result, where ``totals`` are the stacks and ``money`` is each
stack less the chips the player bought (the starting stack counts as
bought), plus ``pot`` (the pot now). Each round carries ``dealer``,
``scores`` (every player's stack change from play in that hand: ante, bets,
winnings and the last share-out, not chips bought; 0 for a player not
seated), ``totals`` (the stacks), ``pot`` (the pot after the hand, or as it
stands) and ``breakdown``::

    {"seated": ["Ann", "Bo", "Cy"],       # who sat in this hand, clockwise
     "buys": {"Cy": 200},                 # chips bought before the hand
     "ante": 10,                          # each seated player's ante
     "pot_carried": 0,                    # the pot left by earlier hands
     "pot_after_antes": 30,
     "calls": [{"name": "fyrsturkalla",
                "actions": [{"player": "Bo", "action": "check", "chips": 0},
                            {"player": "Cy", "action": "bet", "by": 20, "chips": 20},
                            {"player": "Ann", "action": "call", "chips": 20}, ...],
                "over": true,             # false while the betting round runs
                "pot": 70}, ...],         # the pot after it (or as it stands)
     "reveals": [{"name": "banen", "cards": {"Ann": "XXI", "Cy": "K♥"},
                  "winner": "Ann" | null, "tied": [],   # tied: who shared the best card
                  "share": 23, "pot": 47}, ...],        # share taken, pot after
     "folded": ["Bo"],
     "won_by_fold": null | {"player": "Ann", "share": 70},
     "fool_privilege": [{"player": "Ann", "betting_round": "debekransekalla",
                         "stayed": false}],
     "stage": "over" | "banenkalla" | "banen" | ...,   # where the hand stands
     "to_act": null | "Cy",               # whose turn, while a betting round runs
     "left": [],                          # who left the table after the hand
     "share_out": {}}                     # the pot shared out when the last players left

``chips`` is what the action put into the pot; ``by`` is the N of a bet or
raise (a raise puts in the amount to call plus N).

Readings
--------
Where the rules leave a question open, the companion reads it this way
(``texts/en.md`` gives these too, marked as house decisions):

- ``players`` is the seating, clockwise. The dealer of round 1 is
  ``first_dealer``; the deal then passes to the right, skipping players who
  have left. Dealing goes counter-clockwise; every betting round starts with
  the first player still in the hand to the dealer's left and goes clockwise.
- 2 to 19 players: with 19, the 57 cards dealt leave 21, so everyone still
  has a card to draw.
- Each hand, the hand's ``buys`` are added first, then every seated player
  antes. A player who cannot cover the ante, or a bet, raise or call, is
  refused (no all-ins, no side pots). A player who buys during a hand to
  cover a call is recorded in that hand's ``buys``: it changes nothing else.
- ``bet N`` (N at least 1) only when nobody has bet this betting round;
  ``raise N`` puts in the amount to call plus N, only after a bet; the
  table's ``limit`` caps N. Folding is allowed on one's turn even with
  nothing to call. Verbs are read regardless of case.
- The Fool's privilege: the player who showed the Fool at banen or detuiler
  and did not win may ``stay`` on their turn in the very next betting round,
  whether or not there is anything to call. Any other action in that
  betting round (a check too) gives the privilege up for the rest of it.
  A player who stayed is not asked again in that betting round and shows at
  the next reveal. Showing the Fool and winning gives no privilege.
- When all but one fold, the last player (even one who stayed) takes the
  whole pot at once; later betting rounds and reveals of that hand must be
  absent or empty (``[]``, ``{}``).
- Cards must be tarot cards: a joker or a jack is refused. No card may be
  shown twice in a hand, by anyone.
- ``leave`` is only possible after a hand that is over. Who leaves takes
  their stack and plays no further part. When the last players leave, the
  pot is shared out among the players who sat in that hand (odd chips one
  each from the dealer's left); that ends the game. A player left alone at
  the table must be recorded as leaving too (a hand needs 2 players).
- ``winners``: once the game is over, the player(s) with the largest net
  gain (``money``); a tie is a shared win.
- Every round's ``scores`` names every player, in seat order: 0 for a
  player not seated in that hand. ``scores`` leave chips bought out, so a
  player's stack is the chips they bought plus their scores.
- Messages name the round and, where it matters, the betting round or
  reveal: ``round 4, banenkalla: Cy cannot cover the call of 30 with 12
  chips; buy more or fold``.
- A hand's fields are ``buys``, ``leave``, ``calls`` and ``shows``; any
  other field is refused, so a typo cannot silently drop a fact.
- An ante or a starting stack of 0 is allowed (players then buy chips).
- ``chip_value`` is checked (null, or a positive whole number of the
  table's smallest unit of money per chip) but plays no part in the game:
  ``money`` stays in chips, and the evening's ledger multiplies
  (:func:`companion.rules.evening`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass, replace
from enum import Enum
from functools import lru_cache
from typing import Any

from companion.rules import errors
from companion.rules.cards import Card, Rank, SuitCard, TarotTrump, parse_card
from companion.rules.common import (
    Checklist,
    clockwise_from,
    distribute_odd_units,
    merge_options,
    read_chip_value,
    read_header,
    require_player,
    right_of,
    the_round,
    whole_number,
)
from companion.rules.contract import RecordFacts, no_next_dealer, round_scores
from companion.rules.errors import Phrase, RuleError
from companion.rules.ledger import MoneyLine, What, lines_of
from companion.rules.settle import settle_up

errors.add_messages({  # the English of its rule codes (companion.rules.errors)
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
}, tested=True)

PLAYERS = range(2, 20)
"""2 to 19 players (with 19 everyone can still draw a card)."""

DEFAULTS: dict[str, Any] = {"ante": 10, "stack": 500, "limit": None, "chip_value": None}
"""Option defaults (``docs/records.md``): ante, starting stack, largest bet or raise (None: no
limit), and what a chip is worth in the table's smallest unit of money (None: not money)."""

RECORD_FLAGS: tuple[str, ...] = ()
"""No fields of its own beyond every game's."""

CHIP_GAME = True
"""``replay``'s money is in chips (``chip_value`` says what one is worth)."""

next_dealer = no_next_dealer
"""The rules do not say who deals next: the flow does."""

HAND_FIELDS = ("buys", "leave", "calls", "shows")
"""The fields of a hand in the record."""


class Stage(Enum):
    """Where a hand stands: a betting round, a reveal, or over."""

    FYRSTURKALLA = "fyrsturkalla"
    BANENKALLA = "banenkalla"
    BANEN = "banen"
    DETUILERKALLA = "detuilerkalla"
    DETUILER = "detuiler"
    DEBEKRANSEKALLA = "debekransekalla"
    DEBEKRANSE = "debekranse"
    OVER = "over"

    @property
    def is_betting(self) -> bool:
        """A betting round (a *call*)."""
        return self in BETTING_ROUNDS

    @property
    def is_reveal(self) -> bool:
        """A reveal (banen, detuiler, debekranse)."""
        return self in REVEALS

    def __str__(self) -> str:
        return self.value


BETTING_ROUNDS: tuple[Stage, ...] = (
    Stage.FYRSTURKALLA, Stage.BANENKALLA, Stage.DETUILERKALLA, Stage.DEBEKRANSEKALLA,
)
"""The four betting rounds, in order (the record's ``calls``)."""

REVEALS: tuple[Stage, ...] = (Stage.BANEN, Stage.DETUILER, Stage.DEBEKRANSE)
"""The three reveals, in order (the record's ``shows``)."""

REVEAL_DIVISOR = {Stage.BANEN: 3, Stage.DETUILER: 2, Stage.DEBEKRANSE: 1}
"""The winner of a reveal takes the pot divided by this, rounded down."""

_AFTER = {
    Stage.FYRSTURKALLA: Stage.BANENKALLA,
    Stage.BANENKALLA: Stage.BANEN,
    Stage.BANEN: Stage.DETUILERKALLA,
    Stage.DETUILERKALLA: Stage.DETUILER,
    Stage.DETUILER: Stage.DEBEKRANSEKALLA,
    Stage.DEBEKRANSEKALLA: Stage.DEBEKRANSE,
    Stage.DEBEKRANSE: Stage.OVER,
}
# The same, by the stage's name: a str hashes much faster than an Enum member.
_NEXT = {stage.value: following for stage, following in _AFTER.items()}
_DIVISOR = {stage.value: d for stage, d in REVEAL_DIVISOR.items()}
# The record's entries in the order they happen: (is a betting round, index).
_ENTRY_ORDER = ((True, 0), (True, 1), (False, 0), (True, 2), (False, 1), (True, 3), (False, 2))


class Verb(Enum):
    """What a player may do in a betting round."""

    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    STAY = "stay"
    FOLD = "fold"

    def __str__(self) -> str:
        return self.value


_VERBS = {v.value: v for v in Verb}
# The verbs as module names for the replay's inner loop: EnumType defines
# __getattr__, which makes every ``Verb.CHECK`` a slow attribute lookup.
_CHECK, _CALL, _BET, _RAISE, _STAY, _FOLD = (
    Verb.CHECK, Verb.CALL, Verb.BET, Verb.RAISE, Verb.STAY, Verb.FOLD)


@dataclass(frozen=True, slots=True)
class Action:
    """One entry of a betting round: ``Action("Cy", Verb.BET, 20)``.

    ``amount`` is the N of a bet or raise (at least 1) and None otherwise.

    >>> Action.from_entry(["Cy", "raise", 10])
    Action(player='Cy', verb=<Verb.RAISE: 'raise'>, amount=10)
    >>> Action.from_entry(["Cy", "call"]).as_entry()
    ['Cy', 'call']
    """

    player: str
    verb: Verb
    amount: int | None = None

    def __post_init__(self) -> None:
        if type(self.player) is not str or not self.player:
            raise RuleError("trefeltromp.not_a_player", name=self.player)
        verb, amount = self.verb, self.amount
        if verb.__class__ is not Verb:
            raise RuleError("trefeltromp.unknown_action", player=self.player, verb=verb)
        if verb is _BET or verb is _RAISE:
            if type(amount) is not int or amount < 1:
                amount = whole_number(
                    amount, Phrase("field.whose", {"owner": self.player, "thing": verb}), minimum=1)
                object.__setattr__(self, "amount", amount)  # 20.0 from JSON is 20
        elif amount is not None:
            raise RuleError("trefeltromp.amount_not_taken", player=self.player, verb=verb)

    @classmethod
    def from_entry(cls, entry: object) -> Action:
        """Read a record entry: ``[name, "check"]`` or ``[name, "bet", N]``."""
        return cls(*_read_entry(entry))

    def as_entry(self) -> list[Any]:
        """The record form of the action."""
        if self.amount is None:
            return [self.player, self.verb.value]
        return [self.player, self.verb.value, self.amount]


def _read_entry(entry: object) -> tuple[str, Verb, int | None]:
    """The player, verb and amount of a record entry, checked as :class:`Action` does.

    The replay reads entries with this rather than :meth:`Action.from_entry`:
    the same checks, without making an ``Action`` for every entry.
    """
    if not (type(entry) is list or isinstance(entry, tuple)) or not 2 <= len(entry) <= 3:
        raise RuleError("trefeltromp.action_malformed", entry=entry)
    name, verb = entry[0], entry[1]
    if not isinstance(name, str):
        raise RuleError("trefeltromp.not_a_player", name=name)
    found = _VERBS.get(verb) if isinstance(verb, str) else None
    if found is None and isinstance(verb, str):
        found = _VERBS.get(verb.strip().lower())
    if found is None:
        raise RuleError("trefeltromp.unknown_action_listed", name=name, verb=verb)
    amount = None
    if found is _BET or found is _RAISE:
        if len(entry) != 3:
            raise RuleError("trefeltromp.amount_missing", player=name, verb=found)
        amount = entry[2]
        if type(amount) is not int or amount < 1:
            amount = whole_number(amount, Phrase("field.whose", {"owner": name, "thing": found}),
                                  minimum=1)
    elif len(entry) != 2:
        raise RuleError("trefeltromp.amount_not_taken", player=name, verb=found)
    if type(name) is not str or not name:  # as Action.__post_init__ would say
        raise RuleError("trefeltromp.not_a_player", name=name)
    return name, found, amount


def tarot_card(value: object) -> Card:
    """Read a tarot card: a trump ``I``–``XXI``, the ``Fool``, or a suit card.

    Jokers and jacks are not tarot cards.

    >>> tarot_card("xxi"), tarot_card("pH")
    (TarotTrump('XXI'), SuitCard('P♥'))
    >>> tarot_card("J♠")  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    ...
    RuleError: J♠ is not a tarot card (the court cards are P, N, Q, K)
    """
    card = parse_card(value)
    if isinstance(card, TarotTrump):
        return card
    if isinstance(card, SuitCard):
        if card.rank is Rank.JACK:
            raise RuleError("trefeltromp.not_tarot_court", card=card)
        return card
    raise RuleError("trefeltromp.not_tarot", card=card)


def reveal_strength(card: Card) -> tuple[int, int]:
    """How strong a card is at a reveal: the larger the better, equal = tie.

    Trumps by number (the Fool, 0, below I but above every suit card), then
    the Ace, then the four courts all equal, then 10 down to 2.

    >>> [reveal_strength(tarot_card(c)) for c in ("XXI", "Fool", "A♠", "K♥", "P♦", "7♣")]
    [(2, 21), (2, 0), (1, 14), (1, 11), (1, 11), (1, 7)]
    """
    if isinstance(card, TarotTrump):
        return (2, card.number)
    if isinstance(card, SuitCard):
        if card.rank is Rank.ACE:
            return (1, 14)
        pip = card.rank.pip
        return (1, 11 if pip is None else pip)
    raise RuleError("trefeltromp.not_tarot", card=card)


def reveal_winner(cards: Mapping[str, Card]) -> str | None:
    """Who wins a reveal, or None when the best card is shared (a tie).

    The Fool wins only if it is the only trump shown; suits never matter.

    >>> reveal_winner({"Ann": tarot_card("XXI"), "Cy": tarot_card("K♥")})
    'Ann'
    >>> reveal_winner({"Ann": tarot_card("Fool"), "Cy": tarot_card("A♣")})
    'Ann'
    >>> print(reveal_winner({"Ann": tarot_card("Q♠"), "Cy": tarot_card("N♦")}))
    None
    """
    return _best(list(cards), [reveal_strength(card) for card in cards.values()])[0]


def _best(names: Sequence[str], strengths: list[tuple[int, int]],
          ) -> tuple[str | None, tuple[str, ...]]:
    """The winner (or None) and, on a tie, who shared the best card.

    ``strengths[k]`` is the strength of the card ``names[k]`` showed.
    """
    best = strengths[0]
    for strength in strengths:
        if strength > best:
            best = strength
    if strengths.count(best) == 1:
        return names[strengths.index(best)], ()
    return None, tuple(name for name, strength in zip(names, strengths, strict=True)
                       if strength == best)


_FOOL_STRENGTH = (2, 0)


@lru_cache(maxsize=512)
def _read_shown(text: str) -> tuple[Card, str, tuple[int, int]]:
    """A shown card read once: the card, its spelling in the app, its strength."""
    card = tarot_card(text)
    return card, str(card), reveal_strength(card)


@dataclass(frozen=True, slots=True)
class Reveal:
    """A reveal that happened: the cards in seat order, who won, what they took.

    ``spelled`` are the cards as the app writes them (``XXI``, ``K♥``), in
    the same order; ``tied`` who shared the best card when nobody won.
    Made by :meth:`Hand.show` only, from cards it has checked.
    """

    stage: Stage
    cards: tuple[tuple[str, Card], ...]
    spelled: tuple[str, ...]
    winner: str | None
    tied: tuple[str, ...]
    share: int
    pot: int


@dataclass(frozen=True)
class Hand:
    """One hand in play, frozen: every change returns a new ``Hand``.

    ``seats`` are the players seated in this hand, clockwise; ``stacks`` and
    ``put`` (chips put in during the current betting round) follow them.
    ``acted`` are who acted (other than stay) in the current betting round;
    ``privileged`` is who may use the Fool's privilege in it; ``to_act``
    whose turn it is (None outside betting rounds). Make one with
    :func:`start_hand` (which checks what it is given); the methods check
    every change before making it.
    """

    seats: tuple[str, ...]
    dealer: str
    stacks: tuple[int, ...]
    pot: int
    stage: Stage
    limit: int | None
    put: tuple[int, ...]
    acted: frozenset[str]
    folded: frozenset[str]
    stayed: frozenset[str]
    privileged: str | None
    to_act: str | None
    reveals: tuple[Reveal, ...]
    won_by_fold: str | None = None

    @property
    def over(self) -> bool:
        """The hand is finished (after debekranse, or when all but one folded)."""
        return self.stage is Stage.OVER

    @property
    def in_hand(self) -> tuple[str, ...]:
        """The players still in the hand (not folded), clockwise."""
        return tuple(p for p in self.seats if p not in self.folded)

    def stack(self, player: str) -> int:
        """``player``'s stack now."""
        return self.stacks[self.seats.index(player)]

    def stacks_by_player(self) -> dict[str, int]:
        """Every seated player's stack, clockwise."""
        return dict(zip(self.seats, self.stacks, strict=True))

    def buy(self, player: str, amount: int) -> Hand:
        """``player`` buys ``amount`` chips (to cover a call, say).

        In the record the chips go into this hand's ``buys``.
        """
        if player not in self.seats:
            raise RuleError("trefeltromp.buyer_not_seated", player=player)
        amount = whole_number(amount, Phrase("field.buy_of", {"player": player}), minimum=1)
        stacks = list(self.stacks)
        stacks[self.seats.index(player)] += amount
        return replace(self, stacks=tuple(stacks))

    def act(self, action: Action) -> Hand:
        """Check ``action`` against the rules, then apply it.

        Raises :class:`RuleError` (naming the betting round and the player)
        when it is not their turn, the verb is not allowed now, the bet is
        over the limit or their stack cannot cover it.
        """
        play = _Play.of(self)
        play.act(action.player, action.verb, action.amount)
        return play.hand()

    def show(self, cards: Mapping[str, Card | str]) -> Hand:
        """Check a reveal (one card from each player still in), then settle it.

        Raises :class:`RuleError` naming who is missing or should not show,
        and any card that is not a tarot card or was already shown this hand.
        """
        play = _Play.of(self)
        play.show(cards)
        return play.hand()


class _Play:
    """A hand's working state, mutable: the rules behind :class:`Hand`.

    :meth:`Hand.act` and :meth:`Hand.show` run one step on a copy of a
    hand; :func:`replay` runs a whole hand on one, rather than freezing a new
    :class:`Hand` after every action. The fields are those of :class:`Hand`,
    as lists and sets, plus ``top`` (the most anyone has put in this betting
    round) and ``seen`` (the cards shown this hand: their spelling -> who
    showed them and at which reveal). A step checks everything before it
    changes anything, so a refused step leaves the state as it was.
    """

    __slots__ = ("seats", "dealer", "stacks", "pot", "stage", "limit", "put", "acted",
                 "folded", "stayed", "privileged", "to_act", "reveals", "won_by_fold",
                 "top", "seen")

    def __init__(self, seats: tuple[str, ...], dealer: str, stacks: list[int], pot: int,
                 limit: int | None) -> None:
        """A hand whose antes are in (``stacks`` and ``pot`` after them): fyrsturkalla opens."""
        self.seats = seats
        self.dealer = dealer
        self.stacks = stacks
        self.pot = pot
        self.stage = Stage.FYRSTURKALLA
        self.limit = limit
        self.put = [0] * len(seats)
        self.acted: set[str] = set()
        self.folded: set[str] = set()
        self.stayed: set[str] = set()
        self.privileged: str | None = None
        self.reveals: list[Reveal] = []
        self.won_by_fold: str | None = None
        self.top = 0
        self.seen: dict[str, tuple[str, Stage]] = {}
        self.to_act = self._first_to_act()

    @classmethod
    def of(cls, hand: Hand) -> _Play:
        """The working state of ``hand``, copied."""
        play = cls.__new__(cls)
        play.seats = hand.seats
        play.dealer = hand.dealer
        play.stacks = list(hand.stacks)
        play.pot = hand.pot
        play.stage = hand.stage
        play.limit = hand.limit
        play.put = list(hand.put)
        play.acted = set(hand.acted)
        play.folded = set(hand.folded)
        play.stayed = set(hand.stayed)
        play.privileged = hand.privileged
        play.to_act = hand.to_act
        play.reveals = list(hand.reveals)
        play.won_by_fold = hand.won_by_fold
        play.top = max(play.put, default=0)
        play.seen = {text: (who, r.stage) for r in hand.reveals
                     for (who, _), text in zip(r.cards, r.spelled)}  # noqa: B905 - same length
        return play

    @property
    def over(self) -> bool:
        """As :attr:`Hand.over`."""
        return self.stage is Stage.OVER

    def hand(self) -> Hand:
        """The state as a frozen :class:`Hand`."""
        return Hand(self.seats, self.dealer, tuple(self.stacks), self.pot, self.stage,
                    self.limit, tuple(self.put), frozenset(self.acted), frozenset(self.folded),
                    frozenset(self.stayed), self.privileged, self.to_act, tuple(self.reveals),
                    self.won_by_fold)

    def act(self, p: str, verb: Verb, amount: int | None) -> int:
        """Check ``p``'s action (``amount``: the N of a bet or raise), then apply it.

        Returns the chips the action put into the pot.
        """
        stage = self.stage
        if stage not in BETTING_ROUNDS:
            raise RuleError("trefeltromp.nobody_to_act", stage=stage, p=p, verb=verb)
        if p != self.to_act:
            if p not in self.seats:
                raise RuleError("trefeltromp.not_seated", where=stage, p=p)
            why = (Phrase("phrase.why_folded", {"p": p}) if p in self.folded
                   else Phrase("phrase.why_stayed", {"p": p}) if p in self.stayed else "")
            raise RuleError("trefeltromp.out_of_turn", stage=stage, to_act=self.to_act, p=p,
                            why=why)
        seats, stacks, put, top = self.seats, self.stacks, self.put, self.top
        i = seats.index(p)
        owe = top - put[i]
        stack = stacks[i]
        pay = 0
        if verb is _CHECK:
            if owe:
                raise RuleError("trefeltromp.cannot_check", stage=stage, p=p, owe=owe)
        elif verb is _CALL:
            if not owe:
                raise RuleError("trefeltromp.cannot_call", stage=stage, p=p)
            if owe > stack:
                raise RuleError("trefeltromp.call_short", stage=stage, p=p, owe=owe, stack=stack)
            pay = owe
        elif verb is _BET:
            if top:
                raise RuleError("trefeltromp.cannot_bet", stage=stage, p=p, owe=owe)
            self._check_limit(p, verb, amount)
            pay = amount  # type: ignore[assignment]
            if pay > stack:
                raise RuleError("trefeltromp.bet_short", stage=stage, p=p, pay=pay, stack=stack)
        elif verb is _RAISE:
            if not top:
                raise RuleError("trefeltromp.cannot_raise", stage=stage, p=p)
            self._check_limit(p, verb, amount)
            pay = owe + amount  # type: ignore[operator]
            if pay > stack:
                raise RuleError("trefeltromp.raise_short", stage=stage, p=p, amount=amount, pay=pay,
                                stack=stack)
        elif verb is _STAY:
            if p != self.privileged:
                raise RuleError("trefeltromp.cannot_stay", stage=stage, p=p)
            if p in self.acted:
                raise RuleError("trefeltromp.fool_privilege_lost", stage=stage, p=p)
        if pay:
            stacks[i] = stack - pay
            put[i] += pay
            self.pot += pay
            if put[i] > top:
                self.top = top = put[i]
        if verb is _STAY:
            self.stayed.add(p)
        elif verb is _FOLD:
            self.folded.add(p)
            if len(self.folded) == len(seats) - 1:
                self._won_by_fold()
                return pay
        else:
            self.acted.add(p)
        self.to_act = _next_to_act(seats, i, self.folded, self.stayed, self.acted, put, top)
        if self.to_act is None:
            self._next_stage()
        return pay

    def _check_limit(self, p: str, verb: Verb, amount: int) -> None:
        if self.limit is not None and amount > self.limit:
            raise RuleError("trefeltromp.over_limit", stage=self.stage, p=p, verb=verb,
                            amount=amount, limit=self.limit)

    def _clear_betting_round(self) -> None:
        """Forget the chips put in, who acted and stayed, and the Fool's privilege."""
        self.put = [0] * len(self.seats)
        self.top = 0
        self.acted = set()
        self.stayed = set()
        self.privileged = None

    def _won_by_fold(self) -> None:
        """All but one folded: the last player takes the whole pot now."""
        winner = next(q for q in self.seats if q not in self.folded)
        self.stacks[self.seats.index(winner)] += self.pot
        self.pot = 0
        self.stage = Stage.OVER
        self.to_act = None
        self.won_by_fold = winner
        self._clear_betting_round()

    def _next_stage(self) -> None:
        """The betting round is over: on to the next betting round or reveal."""
        self._clear_betting_round()
        self.stage = following = _NEXT[self.stage._value_]
        if following in BETTING_ROUNDS:
            self.to_act = self._first_to_act()

    def _first_to_act(self) -> str | None:
        """Who opens a betting round: the first player still in left of the dealer."""
        return _next_to_act(self.seats, self.seats.index(self.dealer), self.folded,
                            _NOBODY, _NOBODY, self.put, 0)

    def show(self, cards: Mapping[str, Card | str]) -> Reveal:
        """Check a reveal (one card from each player still in), then settle it."""
        stage = self.stage
        if stage not in REVEALS:
            raise RuleError("trefeltromp.no_reveal_now", stage=stage)
        if not isinstance(cards, dict | Mapping):
            raise RuleError("trefeltromp.reveal_not_an_object", stage=stage)
        folded = self.folded
        in_hand = [p for p in self.seats if p not in folded] if folded else self.seats
        for name in cards:
            if name not in in_hand:
                why = (Phrase("phrase.folded_shows_no_card") if name in folded
                       else Phrase("phrase.not_in_hand"))
                raise RuleError("trefeltromp.cannot_show", stage=stage, name=name, why=why)
        if len(cards) < len(in_hand):
            missing = [p for p in in_hand if p not in cards]
            raise RuleError("trefeltromp.reveal_missing", stage=stage, missing=tuple(missing))
        seen = self.seen
        shown: list[tuple[str, Card]] = []
        spelled: list[str] = []
        strengths: list[tuple[int, int]] = []
        for name in in_hand:
            value = cards[name]
            try:
                if type(value) is str:
                    card, text, strength = _read_shown(value)
                else:
                    card = tarot_card(value)
                    text, strength = str(card), reveal_strength(card)
            except RuleError as err:
                raise RuleError("trefeltromp.in_card", stage=stage, player=name,
                                error=err) from None
            if text in seen or text in spelled:
                who, where = seen[text] if text in seen else (in_hand[spelled.index(text)], stage)
                by = "" if who == name else Phrase("phrase.by_player", {"who": who})
                at = "" if where is stage else Phrase("phrase.at_stage", {"where": where})
                raise RuleError("trefeltromp.shown_twice", stage=stage, name=name, text=text, by=by,
                                at=at)
            shown.append((name, card))
            spelled.append(text)
            strengths.append(strength)
        winner, tied = _best(in_hand, strengths)
        fool = in_hand[strengths.index(_FOOL_STRENGTH)] if _FOOL_STRENGTH in strengths else None
        for name, text in zip(in_hand, spelled, strict=True):
            seen[text] = (name, stage)
        share = 0
        if winner is not None:
            share = self.pot // _DIVISOR[stage._value_]
            self.stacks[self.seats.index(winner)] += share
            self.pot -= share
        reveal = Reveal(stage, tuple(shown), tuple(spelled), winner, tied, share, self.pot)
        self.reveals.append(reveal)
        self.stage = following = _NEXT[stage._value_]
        if following in BETTING_ROUNDS:
            # The Fool's privilege: only for the betting round right after.
            self.privileged = fool if fool != winner else None
            self.to_act = self._first_to_act()
        else:
            self.privileged = self.to_act = None
        return reveal


_NOBODY: frozenset[str] = frozenset()


def _next_to_act(seats: tuple[str, ...], after: int, folded: Set[str], stayed: Set[str],
                 acted: Set[str], put: Sequence[int], top: int) -> str | None:
    """The first player clockwise after seat ``after`` who still has to act.

    ``top`` is the most anyone has put in this betting round.
    """
    n = len(seats)
    for step in range(1, n + 1):
        i = (after + step) % n
        p = seats[i]
        if p in folded or p in stayed:
            continue
        if p not in acted or put[i] < top:
            return p
    return None


def start_hand(seats: Sequence[str], dealer: str, stacks: Mapping[str, int], *,
               pot: int = 0, ante: int = DEFAULTS["ante"], limit: int | None = None,
               ) -> Hand:
    """Take every seated player's ante and open fyrsturkalla.

    ``seats`` are the players seated in this hand, clockwise; ``stacks``
    their stacks (after any chips bought); ``pot`` what earlier hands left.

    >>> hand = start_hand(["Ann", "Bo"], "Bo", {"Ann": 15, "Bo": 8}, pot=4, ante=5)
    >>> hand.pot, hand.stacks, hand.to_act
    (14, (10, 3), 'Ann')
    """
    return _start(seats, dealer, stacks, pot, ante, limit).hand()


def _start(seats: Sequence[str], dealer: str, stacks: Mapping[str, int], pot: int, ante: int,
           limit: int | None) -> _Play:
    """:func:`start_hand` as working state (for the replay)."""
    seats = tuple(seats)
    if len(seats) < 2:
        raise RuleError("trefeltromp.too_few_seated")
    if dealer not in seats:
        raise RuleError("trefeltromp.dealer_not_seated", dealer=dealer)
    chips = []
    for p in seats:
        stack = stacks.get(p)
        if stack is None:
            raise RuleError("trefeltromp.ante_no_stack", p=p)
        if stack < ante:
            raise RuleError("trefeltromp.ante_short", p=p, ante=ante, stack=stack)
        chips.append(stack - ante)
    return _Play(seats, dealer, chips, pot + ante * len(seats), limit)


def next_to_act(hand: Hand) -> str | None:
    """Whose turn it is, or None (a reveal is due, or the hand is over)."""
    return hand.to_act


def to_call(hand: Hand, player: str | None = None) -> int:
    """How much ``player`` (default: whoever is to act) must put in to match.

    >>> hand = start_hand(["Ann", "Bo", "Cy"], "Cy", {"Ann": 50, "Bo": 50, "Cy": 50})
    >>> to_call(hand.act(Action("Ann", Verb.BET, 7)))
    7
    """
    player = hand.to_act if player is None else player
    if player is None or not hand.stage.is_betting or player not in hand.seats:
        return 0
    return max(hand.put) - hand.put[hand.seats.index(player)]


def legal_actions(hand: Hand) -> tuple[Verb, ...]:
    """What the player to act may do now with the chips they have.

    A call, bet or raise they cannot cover is left out (they may buy more
    chips, then it is open); ``stay`` only with the Fool's privilege.
    """
    p = hand.to_act
    if p is None:
        return ()
    i = hand.seats.index(p)
    top = max(hand.put)
    owe = top - hand.put[i]
    stack = hand.stacks[i]
    verbs: list[Verb] = []
    if not owe:
        verbs.append(Verb.CHECK)
    elif owe <= stack:
        verbs.append(Verb.CALL)
    if not top and stack >= 1:
        verbs.append(Verb.BET)
    if top and stack > owe:
        verbs.append(Verb.RAISE)
    if p == hand.privileged and p not in hand.acted:
        verbs.append(Verb.STAY)
    verbs.append(Verb.FOLD)
    return tuple(verbs)


def max_amount(hand: Hand) -> int:
    """The largest N the player to act may bet or raise now (0: neither is open)."""
    p = hand.to_act
    if p is None:
        return 0
    i = hand.seats.index(p)
    top = max(hand.put)
    room = hand.stacks[i] - (top - hand.put[i])
    if hand.limit is not None:
        room = min(room, hand.limit)
    return max(room, 0)


# ---------------------------------------------------------------------------
# Replaying a record


def _read_options(options: Mapping[str, Any]) -> tuple[int, int, int | None]:
    """The ante, starting stack and limit; ``chip_value`` is checked but plays no part."""
    read_chip_value(options)
    ante = whole_number(options["ante"], Phrase("field.ante"), minimum=0)
    stack = whole_number(options["stack"], Phrase("field.stack"), minimum=0)
    limit = options["limit"]
    if limit is not None:
        limit = whole_number(limit, Phrase("field.limit"), minimum=1)
    return ante, stack, limit


def _as_list(value: object, what: str | Phrase) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise RuleError("trefeltromp.not_a_list", what=what)
    return value


def _read_buys(raw: object, label: Phrase, players: Sequence[str], seated: Sequence[str],
               ) -> dict[str, int]:
    buys: dict[str, int] = {}
    for entry in _as_list(raw, Phrase("field.buys", {"label": label})):
        if not isinstance(entry, list) or len(entry) != 2:
            raise RuleError("trefeltromp.buy_malformed", label=label, entry=entry)
        name = require_player(entry[0], players, Phrase("field.buys", {"label": label}))
        if name not in seated:
            raise RuleError("trefeltromp.buy_after_leaving", label=label, name=name)
        chips = whole_number(entry[1], Phrase("field.buy_in_round", {"label": label, "name": name}),
                             minimum=1)
        buys[name] = buys.get(name, 0) + chips
    return buys


def _read_leave(raw: object, label: Phrase, players: Sequence[str], seated: Sequence[str],
                ) -> list[str]:
    leave: list[str] = []
    for name in _as_list(raw, Phrase("field.leave", {"label": label})):
        require_player(name, players, Phrase("field.leave", {"label": label}))
        if name not in seated:
            raise RuleError("trefeltromp.left_twice", label=label, name=name)
        if name in leave:
            raise RuleError("trefeltromp.leave_twice", label=label, name=name)
        leave.append(name)
    return [p for p in seated if p in leave]


def _refuse(where: str | Phrase, players: Sequence[str], play: _Play, p: str, verb: Verb,
            stage: Stage) -> None:
    """Say why ``p``'s ``verb`` cannot come in ``stage`` (it is over, or who is that?)."""
    require_player(p, players, where)
    if play.stage is stage:  # a player who has left the table
        raise RuleError("trefeltromp.not_seated", where=where, p=p)
    if play.won_by_fold is not None:
        raise RuleError("trefeltromp.action_after_fold_win", where=where,
                        won_by_fold=play.won_by_fold, p=p, verb=verb)
    raise RuleError("trefeltromp.action_after_round", where=where, p=p, verb=verb)


def _entry_name(betting: bool, k: int) -> str | Phrase:
    if betting:
        return str(BETTING_ROUNDS[k])
    return Phrase("phrase.reveal_named", {"stage": REVEALS[k]})


def _status(play: _Play) -> Phrase:
    if play.to_act is not None:
        return Phrase("phrase.turn_in_stage", {"to_act": play.to_act, "stage": play.stage})
    return Phrase("phrase.stage_due", {"stage": play.stage})


def _play_hand(label: Phrase, raw: Mapping[str, Any], players: tuple[str, ...],
               play: _Play, breakdown: dict[str, Any]) -> None:
    """Apply a hand's calls and shows to ``play``, filling ``breakdown``."""
    calls = _as_list(raw.get("calls"), Phrase("field.calls", {"label": label}))
    shows = _as_list(raw.get("shows"), Phrase("field.shows", {"label": label}))
    if len(calls) > len(BETTING_ROUNDS):
        raise RuleError("trefeltromp.betting_round_count", label=label, count=len(calls))
    if len(shows) > len(REVEALS):
        raise RuleError("trefeltromp.reveal_count", label=label, count=len(shows))
    given = [k < (len(calls) if betting else len(shows)) for betting, k in _ENTRY_ORDER]
    last = max((n for n, g in enumerate(given) if g), default=-1)
    calls_out: list[dict[str, Any]] = breakdown["calls"]
    reveals_out: list[dict[str, Any]] = breakdown["reveals"]
    privileges: list[dict[str, Any]] = breakdown["fool_privilege"]
    for n, (betting, k) in enumerate(_ENTRY_ORDER[:last + 1]):
        over = play.over
        if not given[n]:
            if over:  # later entries of a hand won by folding must be empty
                continue
            later = _ENTRY_ORDER[given.index(True, n)]
            raise RuleError("trefeltromp.entry_gap", label=label, entry_name=_entry_name(*later),
                            entry_name2=_entry_name(betting, k))
        if betting:
            stage = BETTING_ROUNDS[k]
            where = Phrase("phrase.round_stage", {"label": label, "stage": stage})
            entries = calls[k]
            if not isinstance(entries, list):
                raise RuleError("trefeltromp.betting_round_not_a_list", where=where)
            if over and not entries:
                continue
            actions: list[dict[str, Any]] = []
            for entry in entries:
                try:
                    p, verb, amount = _read_entry(entry)
                except RuleError as err:
                    raise RuleError("rule.within", where=where, error=err) from None
                pot = play.pot
                if play.stage is not stage or p not in play.seats:
                    _refuse(where, players, play, p, verb, stage)
                try:
                    chips = play.act(p, verb, amount)
                except RuleError as err:
                    raise RuleError("rule.within_comma", label=label, error=err) from None
                if amount is None:
                    actions.append({"player": p, "action": verb._value_, "chips": chips})
                else:
                    actions.append({"player": p, "action": verb._value_, "by": amount,
                                    "chips": chips})
                if verb is _STAY:
                    privileges[-1]["stayed"] = True
                elif play.won_by_fold is not None:
                    breakdown["won_by_fold"] = {"player": play.won_by_fold, "share": pot}
            open_ = play.stage is stage
            if open_ and n < last:
                raise RuleError("trefeltromp.betting_round_unfinished", where=where,
                                status=_status(play))
            calls_out.append({"name": stage._value_, "actions": actions, "over": not open_,
                              "pot": play.pot})
        else:
            stage = REVEALS[k]
            cards = shows[k]
            if over and isinstance(cards, Mapping) and not cards:
                continue
            if play.won_by_fold is not None:
                raise RuleError("trefeltromp.reveal_after_fold_win", label=label, stage=stage,
                                won_by_fold=play.won_by_fold)
            try:
                reveal = play.show(cards)
            except RuleError as err:
                raise RuleError("rule.within_comma", label=label, error=err) from None
            reveals_out.append({"name": stage._value_,
                                "cards": {who: text for (who, _), text
                                          in zip(reveal.cards, reveal.spelled, strict=True)},
                                "winner": reveal.winner, "tied": list(reveal.tied),
                                "share": reveal.share, "pot": reveal.pot})
            if play.privileged is not None:
                privileges.append({"player": play.privileged,
                                   "betting_round": play.stage.value, "stayed": False})


@dataclass(frozen=True)
class Table:
    """Where the table stands after a record: for the web layer.

    ``seated``: who is still at the table, clockwise; ``hand``: the hand in
    progress (None between hands); ``next_dealer``: who deals the next hand
    to be started (after ``hand``, if one is in progress; None when fewer
    than 2 players are left).
    """

    seated: tuple[str, ...]
    hand: Hand | None
    next_dealer: str | None


def _replay(record: Mapping[str, Any]) -> tuple[dict[str, Any], Table]:
    if isinstance(record, Mapping) and isinstance(record.get("rounds"), list):
        for i, raw in enumerate(record["rounds"]):
            if not isinstance(raw, Mapping):
                raise RuleError("hand.not_an_object", label=the_round(i))
    header = read_header(record, "trefeltromp", PLAYERS, DEFAULTS)
    ante, start, limit = _read_options(header.options)
    players = header.players
    stacks = dict.fromkeys(players, start)
    bought = dict.fromkeys(players, start)
    pot = 0
    gone: set[str] = set()
    dealer: str | None = None
    play: _Play | None = None
    rounds: list[dict[str, Any]] = []
    for i, raw in enumerate(header.rounds):
        label = the_round(i)
        if len(gone) == len(players):
            raise RuleError("round.game_over", label=label, played=i)
        if play is not None and not play.over:
            raise RuleError("trefeltromp.hand_unfinished", i=i, status=_status(play), label=label)
        unknown = [k for k in raw if k not in HAND_FIELDS]
        if unknown:
            raise RuleError("trefeltromp.hand_unknown_field", label=label, unknown=unknown[0])
        seated = tuple(p for p in players if p not in gone)
        if len(seated) < 2:
            raise RuleError("trefeltromp.one_player_left", label=label, seated=seated[0], i=i)
        dealer = header.first_dealer if dealer is None else _next_dealer(players, dealer, gone)
        before = dict(stacks)
        buys = _read_buys(raw.get("buys"), label, players, seated)
        for p, chips in buys.items():
            stacks[p] += chips
            bought[p] += chips
        try:
            play = _start(seated, dealer, stacks, pot, ante, limit)
        except RuleError as err:
            raise RuleError("rule.within_comma", label=label, error=err) from None
        breakdown: dict[str, Any] = {
            "seated": list(seated), "buys": buys, "ante": ante, "pot_carried": pot,
            "pot_after_antes": play.pot, "calls": [], "reveals": [], "folded": [],
            "won_by_fold": None, "fool_privilege": [], "stage": "", "to_act": None,
            "left": [], "share_out": {},
        }
        _play_hand(label, raw, players, play, breakdown)
        breakdown["folded"] = [p for p in seated if p in play.folded]
        breakdown["stage"] = play.stage.value
        breakdown["to_act"] = play.to_act
        stacks.update(zip(play.seats, play.stacks, strict=True))
        pot = play.pot
        leave = _read_leave(raw.get("leave"), label, players, seated)
        if leave and not play.over:
            raise RuleError("trefeltromp.leave_mid_hand", label=label, leave=leave[0],
                            status=_status(play))
        gone.update(leave)
        breakdown["left"] = leave
        if len(gone) == len(players) and pot:
            share_out = distribute_odd_units(pot, clockwise_from(seated, _left(seated, dealer)))
            for p, chips in share_out.items():
                stacks[p] += chips
            breakdown["share_out"] = share_out
            pot = 0
        scores = {p: stacks[p] - before[p] - buys.get(p, 0) for p in players}
        rounds.append({"dealer": dealer, "scores": scores, "totals": dict(stacks),
                       "pot": pot, "breakdown": breakdown})
    finished = len(gone) == len(players)
    money = {p: stacks[p] - bought[p] for p in players}
    winners: list[str] = []
    if finished:
        best = max(money.values())
        winners = [p for p in players if money[p] == best]
    result = {"rounds": rounds, "totals": dict(stacks), "finished": finished,
              "winners": winners, "money": money, "pot": pot}
    seated = tuple(p for p in players if p not in gone)
    following = None
    if len(seated) >= 2:
        following = header.first_dealer if dealer is None else \
            _next_dealer(players, dealer, gone)
    return result, Table(seated, None if play is None or play.over else play.hand(), following)


def _left(seated: Sequence[str], dealer: str) -> str:
    return seated[(seated.index(dealer) + 1) % len(seated)]


def _next_dealer(players: Sequence[str], dealer: str, gone: set[str]) -> str:
    """The next seated player to the right of ``dealer`` (who may have left)."""
    p = right_of(players, dealer)
    while p in gone:
        p = right_of(players, p)
    return p


def replay(record: Mapping[str, Any]) -> dict[str, Any]:
    """Turn a Trefeltromp record into its result (see the module docstring).

    Raises :class:`RuleError` naming the round, player and card or number
    when the record breaks the rules.
    """
    return _replay(record)[0]


def current_hand(record: Mapping[str, Any]) -> Hand | None:
    """The hand in progress at the end of ``record``, or None if there is none.

    Ask it whose turn it is (:func:`next_to_act`), what they may do
    (:func:`legal_actions`) and how much (:func:`to_call`, :func:`max_amount`).
    """
    return _replay(record)[1].hand


def table_now(record: Mapping[str, Any]) -> Table:
    """Who is still seated, the hand in progress, and who deals next.

    >>> table = table_now({"game": "trefeltromp", "players": ["Ann", "Bo", "Cy"],
    ...     "first_dealer": "Ann", "rounds": [{"calls": [[["Bo", "fold"], ["Cy", "fold"]]],
    ...                                        "leave": ["Cy"]}]})
    >>> table.seated, table.hand, table.next_dealer
    (('Ann', 'Bo'), None, 'Bo')
    """
    return _replay(record)[1]


def money_lines(record: Mapping[str, Any]) -> list[MoneyLine]:
    """Every movement of chips in play: antes, bets, payouts and the share-out.

    Hand by hand (players in seat order), from the replay's breakdowns; a
    bet, call or raise is a ``bets`` line, a reveal won or a hand won by
    folding a ``payout``. Chips bought are not lines: a buy swaps money for
    as many chips, so it moves nothing between players. The lines add up,
    player by player, to ``replay(record)["money"]`` (stack less chips bought).

    >>> lines = money_lines({"game": "trefeltromp", "players": ["Ann", "Bo"],
    ...     "first_dealer": "Ann", "rounds": [{"calls": [[["Bo", "bet", 5], ["Ann", "fold"]]]}]})
    >>> [(line.round, line.player, line.amount, line.what.value) for line in lines]
    [(1, 'Ann', -10, 'ante'), (1, 'Bo', -10, 'ante'), (1, 'Bo', -5, 'bets'), (1, 'Bo', 25, 'payout')]
    """  # noqa: E501
    lines: list[MoneyLine] = []
    for number, hand in enumerate(replay(record)["rounds"], 1):
        b = hand["breakdown"]
        seated = b["seated"]
        bets = dict.fromkeys(seated, 0)
        for call in b["calls"]:
            for action in call["actions"]:
                bets[action["player"]] += action["chips"]
        won = dict.fromkeys(seated, 0)
        for reveal in b["reveals"]:
            if reveal["winner"] is not None:
                won[reveal["winner"]] += reveal["share"]
        if b["won_by_fold"] is not None:
            won[b["won_by_fold"]["player"]] += b["won_by_fold"]["share"]
        lines += lines_of(number, What.ANTE, dict.fromkeys(seated, b["ante"]))
        lines += lines_of(number, What.BETS, bets)
        lines += lines_of(number, What.PAYOUT, won)
        lines += lines_of(number, What.SHARE_OUT,
                          {p: b["share_out"].get(p, 0) for p in seated})
    return lines


# ---------------------------------------------------------------------------
# For the screens: the options, the amounts offered, the cards laid down,
# the story of a hand, leaving, and the final figures


@dataclass(frozen=True)
class Options:
    """A game's options, checked, with the defaults filled in."""

    ante: int
    stack: int
    """The starting stack (the first buy-in)."""
    limit: int | None
    """The largest bet or raise (None: no limit)."""
    chip_value: int | None
    """What one chip is worth in the table's smallest unit of money (None: not money)."""


def read_options(options: Mapping[str, Any] | None) -> Options:
    """A record's ``options``, checked, with the defaults filled in.

    >>> read_options({"ante": 5, "chip_value": 10})
    Options(ante=5, stack=500, limit=None, chip_value=10)
    """
    merged = merge_options({} if options is None else options, DEFAULTS, "trefeltromp")
    ante, stack, limit = _read_options(merged)
    return Options(ante, stack, limit, read_chip_value(merged))


def replay_now(record: Mapping[str, Any]) -> tuple[dict[str, Any], Table]:
    """:func:`replay` and :func:`table_now` of ``record`` from one replay."""
    return _replay(record)


def bought(entries: Sequence[Sequence[Any]]) -> dict[str, int]:
    """The chips each player buys in a hand's ``buys`` (``[name, chips]`` entries), added
    up in the order first named.

    >>> bought([["Cy", 200], ["Ann", 50], ["Cy", 100]])
    {'Cy': 300, 'Ann': 50}
    """
    chips: dict[str, int] = {}
    for name, amount in entries:
        chips[name] = chips.get(name, 0) + whole_number(
            amount, Phrase("field.buy_of", {"player": name}), minimum=1)
    return chips


CHIP_STEPS: tuple[int, ...] = (5, 10, 25)
"""The chip buttons offered for a bet or raise, each only below the most allowed."""


def amount_choices(hand: Hand) -> tuple[int, ...]:
    """The amounts (the N of a bet or raise) offered to the player to act: the chip
    steps below the most they may put, then that most. Empty when they can neither
    bet nor raise.

    >>> hand = start_hand(["Ann", "Bo"], "Ann", {"Ann": 40, "Bo": 40})
    >>> amount_choices(hand)
    (5, 10, 25, 30)
    >>> amount_choices(start_hand(["Ann", "Bo"], "Ann", {"Ann": 40, "Bo": 40}, limit=10))
    (5, 10)
    """
    most = max_amount(hand)
    if not most:
        return ()
    return (*(n for n in CHIP_STEPS if n < most), most)


def shortfall(hand: Hand, player: str | None = None) -> int:
    """The chips ``player`` (default: whoever is to act) must buy to cover the call.

    >>> hand = start_hand(["Ann", "Bo"], "Bo", {"Ann": 50, "Bo": 20}, ante=5)
    >>> shortfall(hand.act(Action("Ann", Verb.BET, 30)))
    15
    """
    player = hand.to_act if player is None else player
    if player is None or player not in hand.seats:
        return 0
    return max(to_call(hand, player) - hand.stack(player), 0)


def buy_choices(hand: Hand, stack: int) -> tuple[int, ...]:
    """What the player to act, who cannot cover the call, is offered to buy: just
    enough to call, and a starting ``stack`` when that is more.

    >>> hand = start_hand(["Ann", "Bo"], "Bo", {"Ann": 50, "Bo": 20}, ante=5)
    >>> buy_choices(hand.act(Action("Ann", Verb.BET, 30)), 500)
    (15, 500)
    """
    short = shortfall(hand)
    if not short:
        return ()
    return (short, stack) if stack > short else (short,)


def card_to_show(hand: Hand, player: str, value: object) -> str:
    """Check the card ``player`` lays down at the reveal due now; return it as the app
    writes it.

    Refused: a reveal that is not due, a player who has folded or is not in the
    hand, a card that is not a tarot card, and a card already shown this hand
    (by the same player or another). Two players laying the same card at this
    reveal is found only once every card is in (:func:`shown_twice`).

    >>> hand = start_hand(["Ann", "Bo"], "Ann", {"Ann": 40, "Bo": 40})
    >>> for p in ("Bo", "Ann", "Bo", "Ann"):
    ...     hand = hand.act(Action(p, Verb.CHECK))
    >>> card_to_show(hand, "Bo", "kh")
    'K♥'
    >>> hand = hand.show({"Ann": "XXI", "Bo": "K♥"})
    >>> for p in ("Bo", "Ann"):
    ...     hand = hand.act(Action(p, Verb.CHECK))
    >>> card_to_show(hand, "Ann", "K♥")  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    ...
    RuleError: detuiler: K♥ was shown by Bo at banen this hand
    """
    stage = hand.stage
    if not stage.is_reveal:
        raise RuleError("trefeltromp.no_reveal_now", stage=stage)
    if player not in hand.in_hand:
        why = Phrase("phrase.has_folded") if player in hand.folded else Phrase("phrase.not_in_hand")
        raise RuleError("trefeltromp.lays_no_card", stage=stage, player=player, why=why)
    try:
        text = str(tarot_card(value))
    except RuleError as err:
        raise RuleError("trefeltromp.in_card", stage=stage, player=player, error=err) from None
    for reveal in hand.reveals:
        for (who, _), spelled in zip(reveal.cards, reveal.spelled, strict=True):
            if spelled == text:
                by = "" if who == player else Phrase("phrase.by_player", {"who": who})
                raise RuleError("trefeltromp.shown_earlier", stage=stage, text=text, by=by,
                                stage2=reveal.stage)
    return text


def shown_twice(cards: Mapping[str, Card | str]) -> dict[str, tuple[str, ...]]:
    """The cards laid down by more than one player at one reveal, with who laid them.

    >>> shown_twice({"Ann": "XXI", "Bo": "kh", "Cy": "K♥"})
    {'K♥': ('Bo', 'Cy')}
    >>> shown_twice({"Ann": "XXI", "Bo": "K♥"})
    {}
    """
    by_card: dict[str, list[str]] = {}
    for player, value in cards.items():
        by_card.setdefault(str(tarot_card(value)), []).append(player)
    return {card: tuple(who) for card, who in by_card.items() if len(who) > 1}


def who_leaves(seated: Sequence[str], leaving: Set[str] | Sequence[str]) -> tuple[str, ...]:
    """Who leaves the table after a hand when ``leaving`` do, clockwise: a player who
    would be left alone leaves too, and the game ends.

    >>> who_leaves(["Ann", "Bo", "Cy"], {"Cy"})
    ('Cy',)
    >>> who_leaves(["Ann", "Bo", "Cy"], {"Bo", "Cy"})
    ('Ann', 'Bo', 'Cy')
    """
    gone = tuple(p for p in seated if p in leaving)
    return tuple(seated) if len(seated) - len(gone) == 1 else gone


# --------------------------------------------------------------------------- the hand in progress
#
# While a hand is played, the app keeps it in the round's draft: the record's own fields
# (``buys``, ``leave``, ``calls``, ``shows``) and working facts the record does not keep:
# ``started`` (the antes are in), ``drawn`` (the discard and draw is done), ``log`` (what
# was done, in order, for the tablet's undo) and, when two players laid the same card at a
# reveal, ``clash`` (the cards, who laid one twice, and the cards ``kept``). Each thing done
# in the hand is a function here: given the record, the draft's facts and the action, it
# checks the action and returns a :class:`Change` (the new facts, and what follows from
# them), or raises :class:`RuleError` with the facts unchanged.

errors.add_messages({
    "trefeltromp.not_dealt": "the hand has not been dealt yet: the scorekeeper deals it first",
    "trefeltromp.draw_first": "the discard and draw comes first: the scorekeeper taps done "
                              "when everyone has drawn",
    "trefeltromp.hand_over": "the hand is over",
    "trefeltromp.nothing_to_undo": "nothing has happened in this hand yet: there is nothing "
                                   "to undo",
})


class Done(Enum):
    """What the tablet's undo takes back, as the draft's ``log`` keeps it."""

    BUY = "buy"
    START = "start"
    ACT = "act"
    DRAW = "draw"
    SHOW = "show"


_DONE = frozenset(done.value for done in Done)


def started(facts: Mapping[str, Any]) -> bool:
    """True once the hand is dealt (its antes are in)."""
    return bool(facts.get("started") or facts.get("calls") or facts.get("shows"))


def drawn(facts: Mapping[str, Any]) -> bool:
    """True once the discard and draw after fyrsturkalla is done."""
    return bool(facts.get("drawn") or len(facts.get("calls") or ()) > 1
                or facts.get("shows"))


def hand_facts(facts: Mapping[str, Any]) -> dict[str, Any]:
    """The hand in the record's form (buys, leave, calls, shows), working facts left out."""
    return {"buys": [list(b) for b in facts.get("buys") or ()],
            "leave": list(facts.get("leave") or ()),
            "calls": [list(c) for c in facts.get("calls") or ()],
            "shows": [dict(s) for s in facts.get("shows") or ()]}


def finished_hand(facts: Mapping[str, Any]) -> dict[str, Any]:
    """The hand as it joins the record once it is over: each player's buys added up."""
    hand = hand_facts(facts)
    hand["buys"] = [[p, n] for p, n in bought(hand["buys"]).items()]
    return hand


def log_of(facts: Mapping[str, Any]) -> list[Done]:
    """What was done in the hand so far, in order (the tablet's undo takes the last).

    A hand put back from the record has no log: it is read from the facts
    (the buys first, then the deal, the actions and reveals in order), as is
    a log that does not add up to the facts.
    """
    log = [Done.BUY] * len(facts.get("buys") or ())
    if started(facts):
        log.append(Done.START)
        calls, shows = facts.get("calls") or [], facts.get("shows") or []
        for k, call in enumerate(calls):
            if k == 1:
                log.append(Done.DRAW)
            log += [Done.ACT] * len(call)
            if 1 <= k <= len(shows):  # reveal k − 1 follows betting round k
                log.append(Done.SHOW)
        if len(calls) == 1 and facts.get("drawn"):
            log.append(Done.DRAW)
    kept = facts.get("log")
    if isinstance(kept, list) and all(done in _DONE for done in kept):
        kept_log = [Done(done) for done in kept]
        if Counter(kept_log) == Counter(log):
            return kept_log
    return log


@dataclass(frozen=True)
class Change:
    """The hand in progress after one thing done in it, and what follows from its facts."""

    facts: dict[str, Any]
    """The draft's facts, working facts and all."""
    finished: dict[str, Any] | None = None
    """The hand in the record's form, once it is over: it joins the record."""
    reveal: Stage | None = None
    """The reveal due, whose cards are to be laid (None: no card is laid now)."""
    layers: tuple[str, ...] = ()
    """Who lays a card at it: everyone still in, or the players who laid one card twice."""
    forgotten: Stage | None = None
    """A reveal taken back: every card laid at it is forgotten, unread."""


def _with(facts: Mapping[str, Any], changes: Mapping[str, Any]) -> dict[str, Any]:
    """``facts`` with ``changes`` (a value of None takes that fact out); with a new ``log``,
    ``started`` and ``drawn`` follow it."""
    new = {**facts, **changes}
    if "log" in changes:
        log = [Done(done) for done in changes["log"]]
        new["started"] = True if Done.START in log else None
        new["drawn"] = True if Done.DRAW in log else None
    return {k: v for k, v in new.items() if v is not None}


def _logged(facts: Mapping[str, Any], changes: Mapping[str, Any], done: Done) -> dict[str, Any]:
    """``facts`` with ``changes``, and ``done`` the last thing done."""
    return _with(facts, {**changes, "log": [d.value for d in [*log_of(facts), done]]})


def _hand_of(record: Mapping[str, Any], facts: Mapping[str, Any]) -> Hand | None:
    """Where the draft's facts leave the hand after ``record`` (None: not dealt, or over);
    RuleError when they do not fit it."""
    if not started(facts):
        return None
    return _replay({**record, "rounds": [*record["rounds"], hand_facts(facts)]})[1].hand


def _change(facts: dict[str, Any], hand: Hand | None, forgotten: Stage | None = None,
            ) -> Change:
    """What follows from ``facts``, which leave the hand at ``hand`` (None: not dealt, or
    over)."""
    if hand is None or hand.over:
        finished = finished_hand(facts) if started(facts) else None
        return Change(facts, finished=finished, forgotten=forgotten)
    if not hand.stage.is_reveal:
        return Change(facts, forgotten=forgotten)
    twice = (facts.get("clash") or {}).get("twice")
    layers = tuple(p for p in hand.in_hand
                   if not twice or any(p in who for who in twice.values()))
    return Change(facts, reveal=hand.stage, layers=layers, forgotten=forgotten)


def _hand_to_play(record: Mapping[str, Any], facts: Mapping[str, Any]) -> Hand:
    """The hand being played (RuleError when it is not dealt, or over)."""
    hand = _hand_of(record, facts)
    if hand is None and not started(facts):
        raise RuleError("trefeltromp.not_dealt")
    if hand is None:
        raise RuleError("trefeltromp.hand_over")
    return hand


def follows(record: Mapping[str, Any], facts: Mapping[str, Any],
            forgotten: Stage | None = None) -> Change:
    """What the draft's facts call for, nothing done: the hand joins the record once it is
    over, and the cards of the reveal due are laid. Facts that do not fit the record call
    for nothing (the screens say why)."""
    try:
        hand = _hand_of(record, facts)
    except RuleError:
        return Change(dict(facts), forgotten=forgotten)
    return _change(dict(facts), hand, forgotten)


def deal(record: Mapping[str, Any], facts: Mapping[str, Any]) -> Change:
    """Deal the hand: every seated player antes. RuleError when someone cannot cover the
    ante (they buy chips first)."""
    new = _logged(facts, {}, Done.START)
    return _change(new, _hand_of(record, new))


def act(record: Mapping[str, Any], facts: Mapping[str, Any], action: Action) -> Change:
    """A betting action, checked against the rules (its turn, its verb, the limit, the
    stack: RuleError), then written into its betting round's ``calls``."""
    hand = _hand_to_play(record, facts)
    if hand.stage is Stage.BANENKALLA and not drawn(facts):
        raise RuleError("trefeltromp.draw_first")
    after = hand.act(action)
    k = BETTING_ROUNDS.index(hand.stage)
    calls = [list(c) for c in facts.get("calls") or []]
    calls += [[] for _ in range(k + 1 - len(calls))]
    calls[k].append(action.as_entry())
    return _change(_logged(facts, {"calls": calls}, Done.ACT), after)


def draw(record: Mapping[str, Any], facts: Mapping[str, Any]) -> Change:
    """The discard and draw after fyrsturkalla is done: banenkalla's betting opens."""
    new = _logged(facts, {}, Done.DRAW)
    return _change(new, _hand_of(record, new))


def buy(record: Mapping[str, Any], facts: Mapping[str, Any], player: str, amount: int,
        ) -> Change:
    """``player`` buys ``amount`` chips: between hands for the next one, or during the hand
    (RuleError when they are not in it, or the amount is no whole number of chips)."""
    hand = _hand_of(record, facts)
    if hand is not None:
        hand = hand.buy(player, amount)
    else:
        whole_number(amount, Phrase("field.buy_of", {"player": player}), minimum=1)
    buys = [*(facts.get("buys") or []), [player, amount]]
    return _change(_logged(facts, {"buys": buys}, Done.BUY), hand)


def lay(record: Mapping[str, Any], facts: Mapping[str, Any], cards: Mapping[str, str],
        ) -> Change:
    """Every card of the reveal due is in (``cards``, with those kept after a clash): the
    reveal is shown; or, a card laid twice, the clash is kept and those players lay again."""
    clash = facts.get("clash") or {}
    laid = {**(clash.get("kept") or {}), **cards}
    hand = _hand_to_play(record, facts)
    if not hand.stage.is_reveal:
        raise RuleError("trefeltromp.no_reveal_now", stage=hand.stage)
    cards = {p: laid[p] for p in hand.in_hand if p in laid}
    twice = shown_twice(cards)
    if twice:
        again = {p for who in twice.values() for p in who}
        new = _with(facts, {"clash": {
            "cards": cards, "twice": {card: list(who) for card, who in twice.items()},
            "kept": {p: c for p, c in cards.items() if p not in again}}})
        return _change(new, hand)
    after = hand.show(cards)
    new = _logged(facts, {"shows": [*(facts.get("shows") or []), cards], "clash": None},
                  Done.SHOW)
    return _change(new, after)


def undo(record: Mapping[str, Any], facts: Mapping[str, Any]) -> Change:
    """Take back the last thing done in the hand: an action, a reveal (its cards are
    forgotten), the draw, a buy, the deal; after a clash, the cards laid at the reveal (all
    lay again). RuleError when nothing was done yet."""
    shows = list(facts.get("shows") or [])
    if facts.get("clash"):
        return follows(record, _with(facts, {"clash": None}), REVEALS[len(shows)])
    log = log_of(facts)
    if not log:
        raise RuleError("trefeltromp.nothing_to_undo")
    last = log.pop()
    changes: dict[str, Any] = {"leave": None, "log": [done.value for done in log]}
    forgotten = None
    if last is Done.BUY:
        changes["buys"] = list(facts.get("buys") or [])[:-1] or None
    elif last is Done.SHOW:
        forgotten = REVEALS[len(shows) - 1]
        changes["shows"] = shows[:-1] or None
    elif last is Done.ACT:
        calls = [list(c) for c in facts.get("calls") or []]
        while not calls[-1]:
            calls.pop()
        calls[-1].pop()
        while calls and not calls[-1]:
            calls.pop()
        changes["calls"] = calls or None
    return follows(record, _with(facts, changes), forgotten)


SHARE_NAMES: dict[Stage, str] = {Stage.BANEN: "⅓", Stage.DETUILER: "½",
                                 Stage.DEBEKRANSE: "the rest"}
"""What the winner of each reveal takes, as the screens say it (:data:`REVEAL_DIVISOR`)."""


class Happening(Enum):
    """What an :class:`Event` of a hand's story is."""

    BUYS = "buys"
    ANTES = "antes"
    BETTING = "betting"
    """A betting round begins (``name``; ``over`` once it has ended)."""
    ACTION = "action"
    DRAW = "draw"
    """Each player still in may discard one card and draw one."""
    REVEAL = "reveal"
    WON_BY_FOLD = "won by fold"
    SHARE_OUT = "share-out"
    LEFT = "left"


@dataclass(frozen=True)
class Event:
    """One step of a hand's story, with the pot before and after it.

    ``name`` is the betting round or reveal; ``player``, ``action``, ``by`` and
    ``chips`` an action (as the breakdown has them); ``cards``, ``winner``,
    ``tied``, ``share`` and ``share_name`` a reveal; ``amounts`` the chips
    bought or shared out, by player; ``players`` who anted or left.
    """

    kind: Happening
    pot_before: int
    pot_after: int
    name: str = ""
    player: str | None = None
    action: str | None = None
    by: int | None = None
    chips: int = 0
    over: bool = True
    cards: tuple[tuple[str, str], ...] = ()
    winner: str | None = None
    tied: tuple[str, ...] = ()
    share: int = 0
    share_name: str = ""
    amounts: tuple[tuple[str, int], ...] = ()
    players: tuple[str, ...] = ()


def hand_story(hand: Mapping[str, Any]) -> tuple[Event, ...]:
    """The story of one hand of a :func:`replay` result (``result["rounds"][i]``):
    buys, antes, every action, the discard and draw, every reveal, a hand won by
    folding, the share-out and who left, in order, each with the pot before and
    after it.

    >>> result = replay({"game": "trefeltromp", "players": ["Ann", "Bo"],
    ...     "first_dealer": "Ann", "rounds": [{"calls": [[["Bo", "bet", 5], ["Ann", "fold"]]]}]})
    >>> for e in hand_story(result["rounds"][0]):
    ...     print(e.kind.value, e.player, e.chips or e.share, e.pot_before, e.pot_after)
    antes None 10 0 20
    betting None 0 20 20
    action Bo 5 20 25
    action Ann 0 25 25
    won by fold Bo 25 25 0
    """
    b = hand["breakdown"]
    events: list[Event] = []
    pot = b["pot_carried"]
    if b["buys"]:
        events.append(Event(Happening.BUYS, pot, pot, amounts=tuple(b["buys"].items())))
    events.append(Event(Happening.ANTES, pot, b["pot_after_antes"], chips=b["ante"],
                        players=tuple(b["seated"])))
    pot = b["pot_after_antes"]
    calls, reveals = b["calls"], b["reveals"]
    for betting, k in _ENTRY_ORDER:
        if betting:
            if k >= len(calls):
                break
            if k == 1:
                events.append(Event(Happening.DRAW, pot, pot))
            call = calls[k]
            events.append(Event(Happening.BETTING, pot, pot, name=call["name"],
                                over=call["over"]))
            for a in call["actions"]:
                events.append(Event(Happening.ACTION, pot, pot + a["chips"], name=call["name"],
                                    player=a["player"], action=a["action"], by=a.get("by"),
                                    chips=a["chips"]))
                pot += a["chips"]
        else:
            if k >= len(reveals):
                break
            r = reveals[k]
            events.append(Event(Happening.REVEAL, pot, r["pot"], name=r["name"],
                                cards=tuple(r["cards"].items()), winner=r["winner"],
                                tied=tuple(r["tied"]), share=r["share"],
                                share_name=SHARE_NAMES[Stage(r["name"])]))
            pot = r["pot"]
    if b["won_by_fold"] is not None:
        won = b["won_by_fold"]
        events.append(Event(Happening.WON_BY_FOLD, pot, 0, player=won["player"],
                            share=won["share"]))
        pot = 0
    if b["share_out"]:
        events.append(Event(Happening.SHARE_OUT, pot, 0, amounts=tuple(b["share_out"].items())))
    if b["left"]:
        events.append(Event(Happening.LEFT, hand["pot"], hand["pot"], players=tuple(b["left"])))
    return tuple(events)


@dataclass(frozen=True)
class Figure:
    """One player's figures: stack, chips bought (the starting stack too), net chips,
    and net money (None when the chips are not money)."""

    player: str
    stack: int
    bought: int
    net: int
    money: int | None


@dataclass(frozen=True)
class Figures:
    """The game's figures for the end screen and the ledger (:func:`figures`)."""

    lines: tuple[Figure, ...]
    start: dict[str, int]
    """Each player's stack before the first hand (the first point of a stack chart)."""
    transfers: tuple[tuple[str, str, int], ...]
    """Who pays whom how much money, once the game is over (with a chip value)."""
    chip_value: int | None
    pot: int
    finished: bool


def figures(record: Mapping[str, Any]) -> Figures:
    """Each player's stack, chips bought, net chips and (with a chip value) net money,
    and who pays whom once the game is over.

    >>> f = figures({"game": "trefeltromp", "players": ["Ann", "Bo"], "first_dealer": "Ann",
    ...     "options": {"chip_value": 5}, "rounds": [{"buys": [["Bo", 100]],
    ...     "calls": [[["Bo", "bet", 5], ["Ann", "fold"]]], "leave": ["Ann", "Bo"]}]})
    >>> [(x.player, x.stack, x.bought, x.net, x.money) for x in f.lines]
    [('Ann', 490, 500, -10, -50), ('Bo', 610, 600, 10, 50)]
    >>> f.transfers
    (('Ann', 'Bo', 50),)
    """
    result = replay(record)
    options = read_options(record.get("options"))
    players = list(result["totals"])
    bought = dict.fromkeys(players, options.stack)
    for hand in result["rounds"]:
        for p, chips in hand["breakdown"]["buys"].items():
            bought[p] += chips
    value = options.chip_value
    money = {p: net * value for p, net in result["money"].items()} if value else {}
    lines = tuple(Figure(p, result["totals"][p], bought[p], result["money"][p],
                         money.get(p)) for p in players)
    transfers = tuple(settle_up(money)) if money and result["finished"] else ()
    return Figures(lines, dict.fromkeys(players, options.stack), transfers, value,
                   result["pot"], result["finished"])


# ---------------------------------------------------------------------------
# Checklists


def _check_table(players: Sequence[str], options: Mapping[str, Any],
                 ) -> tuple[tuple[str, ...], int, int, int | None]:
    players = tuple(players)
    if len(players) not in PLAYERS or not all(isinstance(p, str) and p for p in players):
        raise RuleError("trefeltromp.player_count", start=PLAYERS.start, stop=PLAYERS.stop - 1)
    return (players, *_read_options(merge_options(options, DEFAULTS, "trefeltromp")))


@dataclass(frozen=True)
class ChecklistPhrases:
    """A checklist as facts: its title and steps as Phrases, so that a screen can say
    them in its own language; ``str()`` of each is the English of :class:`Checklist`."""

    title: Phrase
    steps: tuple[Phrase, ...]

    def english(self) -> Checklist:
        """The checklist in English, as the API and the contract give it."""
        return Checklist(str(self.title), tuple(str(step) for step in self.steps))


errors.add_messages({
    "trefeltromp.deck.title": "Trefeltromp: the deck and the chips",
    "trefeltromp.deck.tarot": "Take a 78-card tarot deck: 22 trumps (the Fool and I to XXI) and "
        "four suits of 14 (Ace, 2–10, Page, Knight, Queen, King).",
    "trefeltromp.deck.nothing_out": "Take nothing out: all 78 cards are played.",
    "trefeltromp.deck.written": "In the app the courts are written P♠ N♠ Q♠ K♠ (Page, Knight, "
        "Queen, King), the trumps I … XXI and Fool.",
    "trefeltromp.deck.chips": "Give each of the {n} players {stack} chips. The ante is {ante} a "
        "hand; {cap}.",
    "trefeltromp.deck.no_limit": "no limit on a bet or raise",
    "trefeltromp.deck.limit": "no bet or raise over {limit}",
    "trefeltromp.deck.pile": "Each hand deals {dealt} cards (3 each); the other {left} are the "
        "draw pile.",
    "trefeltromp.deal.title": "Trefeltromp: {dealer} deals",
    "trefeltromp.deal.antes": "Everyone antes {ante}: {players:list}. Chips already in the pot "
        "stay there.",
    "trefeltromp.deal.deal": "{dealer} shuffles and deals 3 cards face down to each player, "
        "counter-clockwise: {order}.",
    "trefeltromp.deal.first_then": "{first} first, then {next}",
    "trefeltromp.deal.then": "{before}, then {next}",
    "trefeltromp.deal.first_call": "Fyrsturkalla (first call): a betting round, {left} first, "
        "then clockwise.",
    "trefeltromp.deal.draw": "Each player still in may discard one card face down and draw one.",
    "trefeltromp.deal.orb_call": "Banenkalla (orb call): a betting round, from the first player "
        "still in left of {dealer}.",
    "trefeltromp.deal.banen": "Banen: everyone still in lays one card face down and raps twice; "
        "turn them together. The best card takes ⅓ of the pot (rounded down); a tie takes "
        "nothing.",
    "trefeltromp.deal.sceptre_call": "Detuilerkalla (sceptre call): a betting round. Whoever "
        "showed the Fool at banen and did not win may stay in without matching (the Fool's "
        "privilege).",
    "trefeltromp.deal.detuiler": "Detuiler: as banen, with one of the two cards left. The best "
        "card takes ½ of the pot.",
    "trefeltromp.deal.crown_call": "Debekransekalla (crown call): a betting round (the Fool's "
        "privilege again, if the Fool was shown at detuiler and did not win).",
    "trefeltromp.deal.debekranse": "Debekranse: the last card. The best card takes the whole "
        "pot; on a tie it stays.",
    "trefeltromp.deal.next": "Next hand {next} deals (the deal passes to the right).",
})


def deck_prep(players: Sequence[str], options: Mapping[str, Any]) -> Checklist:
    """The once-per-game checklist: a full tarot deck, chips for everyone.

    >>> for step in deck_prep(["Ann", "Bo", "Cy"], {}).steps[:3]: print(step)
    Take a 78-card tarot deck: 22 trumps (the Fool and I to XXI) and four suits of 14 (Ace, 2–10, Page, Knight, Queen, King).
    Take nothing out: all 78 cards are played.
    In the app the courts are written P♠ N♠ Q♠ K♠ (Page, Knight, Queen, King), the trumps I … XXI and Fool.
    """  # noqa: E501
    return deck_prep_phrases(players, options).english()


def deck_prep_phrases(players: Sequence[str], options: Mapping[str, Any]) -> ChecklistPhrases:
    """:func:`deck_prep` as phrases, for a screen that says them in its own language."""
    players, ante, stack, limit = _check_table(players, options)
    n = len(players)
    cap = Phrase("trefeltromp.deck.no_limit") if limit is None else \
        Phrase("trefeltromp.deck.limit", {"limit": limit})
    return ChecklistPhrases(Phrase("trefeltromp.deck.title"), (
        Phrase("trefeltromp.deck.tarot"),
        Phrase("trefeltromp.deck.nothing_out"),
        Phrase("trefeltromp.deck.written"),
        Phrase("trefeltromp.deck.chips", {"n": n, "stack": stack, "ante": ante, "cap": cap}),
        Phrase("trefeltromp.deck.pile", {"dealt": 3 * n, "left": 78 - 3 * n}),
    ))


def deal_steps(players: Sequence[str], dealer: str, options: Mapping[str, Any]) -> Checklist:
    """One hand's steps for this dealer, with the players seated in it.

    >>> steps = deal_steps(["Ann", "Bo", "Cy"], "Ann", {}).steps
    >>> print(steps[1])
    Ann shuffles and deals 3 cards face down to each player, counter-clockwise: Cy first, then Bo, then Ann.
    >>> print(steps[2])
    Fyrsturkalla (first call): a betting round, Bo first, then clockwise.
    """  # noqa: E501
    return deal_steps_phrases(players, dealer, options).english()


def deal_steps_phrases(players: Sequence[str], dealer: str, options: Mapping[str, Any],
                       ) -> ChecklistPhrases:
    """:func:`deal_steps` as phrases, for a screen that says them in its own language."""
    players, ante, _, _ = _check_table(players, options)
    if dealer not in players:
        raise RuleError("trefeltromp.dealer_unknown", dealer=dealer)
    order = [right_of(players, dealer, k) for k in range(1, len(players))] + [dealer]
    dealt = Phrase("trefeltromp.deal.first_then", {"first": order[0], "next": order[1]})
    for name in order[2:]:
        dealt = Phrase("trefeltromp.deal.then", {"before": dealt, "next": name})
    return ChecklistPhrases(Phrase("trefeltromp.deal.title", {"dealer": dealer}), (
        Phrase("trefeltromp.deal.antes", {"ante": ante, "players": players}),
        Phrase("trefeltromp.deal.deal", {"dealer": dealer, "order": dealt}),
        Phrase("trefeltromp.deal.first_call", {"left": _left(players, dealer)}),
        Phrase("trefeltromp.deal.draw"),
        Phrase("trefeltromp.deal.orb_call", {"dealer": dealer}),
        Phrase("trefeltromp.deal.banen"),
        Phrase("trefeltromp.deal.sceptre_call"),
        Phrase("trefeltromp.deal.detuiler"),
        Phrase("trefeltromp.deal.crown_call"),
        Phrase("trefeltromp.deal.debekranse"),
        Phrase("trefeltromp.deal.next", {"next": right_of(players, dealer)}),
    ))


# --------------------------------------------------------------------------- the record book


def record_facts(record: Mapping[str, Any], game: Any, unit: str) -> RecordFacts:
    """What the record book reads of a game (``companion.rules.records``): its rounds (a
    hand is a round), the stack's change in a hand the player sat in and that is over
    (chips bought left out); its runner-up by net chips, as its winners are chosen; its
    takes, in chips: one reveal won (banen, detuiler or debekranse: a player who wins two
    reveals of a hand made two takes) or the pot of a hand won by folding (the
    end-of-game share-out of leftover chips is not a pot won). A player who left early
    played the game."""
    rounds = []
    takes: list[tuple[int | None, str, int]] = []
    for (number, scores), hand in zip(round_scores(game.result), game.result["rounds"],
                                      strict=True):
        b = hand["breakdown"]
        if b["stage"] == "over":
            rounds.append((number, {p: scores[p] for p in b["seated"]}))
        takes += [(number, reveal["winner"], reveal["share"]) for reveal in b["reveals"]
                  if reveal["winner"] is not None and reveal["share"]]
        if b["won_by_fold"] is not None and b["won_by_fold"]["share"]:
            takes.append((number, b["won_by_fold"]["player"], b["won_by_fold"]["share"]))
    return RecordFacts(tuple(rounds), dict(game.result["money"]), takes=tuple(takes))
