"""Clumond: three players, chips, and the three cards you keep (``texts/en.md``).

Every round each player antes into the pot, 13 tricks are played from 16-card
hands, and the three cards each player keeps at the end make their
*declaration* (3 per ♣, 2 per ♥, 1 per ♠, 0 per ♦). A player succeeds when
their *tricks that count* (tricks won, less 10 from 10 up) equal it.

A round of the record::

    {"declarer": null, "trump": null, "tricks": {"Ann": 5, "Bo": 4, "Cy": 4},
     "kept": {"Ann": ["3♥", "7♠", "4♦"], "Bo": ["A♣", "2♣", "K♥"], "Cy": ["5♦", "6♦", "Q♠"]}}

``declared`` (``{"Ann": 3, ...}``) may stand in for ``kept``, player by player.
``declarer`` names who went for Clumond; ``trump`` is then a suit or ``"none"``.

>>> result = replay({"game": "clumond", "players": ["Ann", "Bo", "Cy"],
...     "first_dealer": "Cy", "options": {"rounds": 1},
...     "rounds": [{"declarer": None, "trump": None,
...                 "tricks": {"Ann": 3, "Bo": 4, "Cy": 6},
...                 "kept": {"Ann": ["3♥", "7♠", "4♦"], "Bo": ["A♣", "2♣", "K♥"],
...                          "Cy": ["5♦", "6♦", "Q♠"]}}]})
>>> b = result["rounds"][0]["breakdown"]
>>> [(p, v["declaration"], v["payment"], v["payout"]) for p, v in b["players"].items()]
[('Ann', 3, 0, 8), ('Bo', 8, 4, 0), ('Cy', 1, 5, 0)]
>>> b["pot_after_payments"], b["left_in_pot"]
(24, 16)
>>> result["totals"], result["pot"], result["winners"]
({'Ann': 109, 'Bo': 96, 'Cy': 95}, 0, ['Ann'])

The game was one round long, so the 16 chips left were shared out: 6 to Ann
(left of the dealer, Cy), 5 each to Bo and Cy.

Result
------
The common result, where ``totals`` are the stacks, ``money`` is each stack
less the starting stack, plus ``pot`` (the pot now). Each round carries
``dealer``, ``scores`` (each stack's change this round: ante, payment,
payout and, in the last round, the pot's share-out), ``totals`` (the stacks),
``pot`` (the pot after the round) and ``breakdown``::

    {"declarer": "Ann" | null, "trump": "♥" | "none" | null,
     "ante": 5,                       # each player's ante this round
     "pot_carried": 3,                # the pot before the antes
     "pot_after_antes": 18,
     "pot_after_payments": 22,        # the pot the payouts are worked out on
     "players": {"Ann": {"kept": ["3♥", "7♠", "4♦"] | null, "declaration": 3 | null,
                         "tricks": 5, "tricks_that_count": 5,
                         "success": true | false | null,   # null: did not matter
                         "ante": 5, "payment": 0, "payout": 7, "share_out": 0,
                         "change": 2}, ...},
     "left_in_pot": 15,               # after payouts, before any share-out
     "pot": 15,                       # after the round
     "game_over": null | "after 10 rounds" | "Ann reached the target of 150"}

Readings
--------
Where the rules leave a question open, the companion reads it this way
(``texts/en.md`` gives these too, marked as house decisions):

- ``declared`` may stand in for ``kept`` player by player; when both are
  given for a player they must agree.
- In a declarer round only the declarer's declaration matters, so the
  opponents' kept cards or numbers may be left out (if given, they are
  checked and shown, but change nothing).
- In a declarer round nobody pays for a missed declaration: the pot is
  either the declarer's or split between the opponents.
- The target is checked on the stacks at the end of the round's settling,
  before the pot is shared out (the share-out only happens because the game
  ends).
- A target must be more than the starting stack (else the game would be
  over before it began); a starting stack and an ante of 0 are allowed.
- A declarer's trump may be written as a suit in any spelling (``♥``, ``H``,
  ``hearts``) or ``"none"`` / ``"no trumps"``.
- Fields of a round that the rules do not know are refused, as in the other games:
  a typo (``"trick"``) must not silently drop a fact.
- ``chip_value`` is checked (null, or a positive whole number of the
  table's smallest unit of money per chip) but plays no part in the game:
  ``money`` stays in chips, and the evening's ledger multiplies
  (:func:`companion.rules.evening`).
- Going for Clumond asks each player once, in turn from the dealer's left;
  the first yes ends the asking (:class:`Offers`). The last answer, or the
  trump named, may be taken back (a tap on the wrong button).
- The first trick is led left of the declarer, or left of the dealer when
  nobody went for Clumond (:func:`leader`).
- A round is confirmed only when the tricks add up to 13, every set of kept
  cards given holds exactly 3 cards of the 48-card deck, and no card is in two
  players' kept cards (:func:`round_checks`).
- Net chips (``money``) are each stack less the starting stack; with a chip
  value, net money is that times the chip value, and who pays whom is
  :func:`companion.rules.settle_up` of it (the evening's ledger does both).
- Only a game that reaches its agreed end shares out its pot: a game closed
  before then leaves the stacks as they are, and the chips in the pot are
  nobody's.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from companion.rules import errors
from companion.rules.cards import (
    SUITS,
    Card,
    Rank,
    Suit,
    SuitCard,
    parse_card,
    parse_suit,
    standard_deck,
)
from companion.rules.common import (
    Checklist,
    clockwise_from,
    distribute_odd_units,
    left_of,
    merge_options,
    read_chip_value,
    read_header,
    require_player,
    the_round,
    whole_number,
)
from companion.rules.contract import RecordFacts, RecordKind, round_scores
from companion.rules.errors import Phrase, RuleError
from companion.rules.ledger import MoneyLine, What, lines_of

errors.add_messages({  # the English of its rule codes (companion.rules.errors)
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
}, tested=True)

PLAYERS: tuple[int, ...] = (3,)
"""Clumond is for exactly three players."""

DEFAULTS: dict[str, Any] = {"stack": 100, "ante": 5, "rounds": 10, "target": None,
                            "chip_value": None}
"""Option defaults (``docs/records.md``); ``chip_value`` None: the chips are not money."""

RECORD_FLAGS: tuple[str, ...] = ()
"""No fields of its own beyond every game's."""

CHIP_GAME = True
"""``replay``'s money is in chips (``chip_value`` says what one is worth)."""

TRICKS = 13
"""Tricks played in a round."""

KEPT = 3
"""Cards each player keeps after the 13 tricks."""

HAND = 16
"""Cards dealt to each player."""

DECK: frozenset[SuitCard] = frozenset(c for c in standard_deck() if c.rank is not Rank.TEN)
"""The 48-card Clumond deck: a standard deck without its four 10s."""

SUIT_VALUE: dict[Suit, int] = {Suit.CLUBS: 3, Suit.HEARTS: 2, Suit.SPADES: 1, Suit.DIAMONDS: 0}
"""What each kept card adds to the declaration."""

NO_TRUMPS = "none"
"""How the record writes a declarer's choice of no trumps."""

errors.add_messages({
    # the checklists
    "clumond.deck.title": "Clumond: preparing the deck",
    "clumond.deck.take": "Take a standard 52-card deck without jokers.",
    "clumond.deck.remove_tens": "Remove the four 10s (10♠ 10♥ 10♦ 10♣): {cards} cards remain, "
        "{hand} for each player.",
    "clumond.deck.chips": "Give {names:and} {stack} chips each; the ante is {ante} chips a round.",
    "clumond.deck.ends_rounds": "The game ends after {rounds} round{rounds:s}.",
    "clumond.deck.ends_target": "The game ends at the end of the first round in which a stack "
        "reaches {target}.",
    "clumond.deck.ends_both": "The game ends after {rounds} round{rounds:s}, or at the end of "
        "the first round in which a stack reaches {target}.",
    "clumond.deck.share_out": "Chips left in the pot at the end are shared out evenly.",
    "clumond.deal.title": "Clumond: {dealer} deals",
    "clumond.deal.ante": "Everyone antes {ante} chips into the pot.",
    "clumond.deal.deal": "{dealer} shuffles the {cards} cards and deals {hand} to each player, "
        "starting with {first}.",
    "clumond.deal.asking": "Going for Clumond: {first} is asked first, then {second}, then "
        "{dealer}.",
    "clumond.deal.declarer": "The first to accept is the declarer and names a trump suit or no "
        "trumps; the player left of the declarer leads.",
    "clumond.deal.nobody": "If nobody accepts, the round is played with no trumps and {first} "
        "leads.",
    "clumond.deal.play": "Play {tricks} tricks; each player keeps the last {kept} cards.",
    "clumond.deal.declaration": "Declaration: 3 per ♣, 2 per ♥, 1 per ♠, 0 per ♦ among the kept "
        "cards. Tricks that count: tricks won, less 10 from 10 up.",
    # the round on the screens
    "clumond.round.label": "Round {number}",
    "clumond.round.label_of": "Round {number} of {rounds}",
    "clumond.round.label_target": "Round {number} · first to {target}",
    "clumond.round.label_of_target": "Round {number} of {rounds} · or first to {target}",
    "clumond.counting": "{tricks} trick{tricks:s}: {counted} count",
    "clumond.counting_one": "{tricks} trick{tricks:s}: {counted} counts",
    "clumond.working": "{cards:cards}: {sums}",
    "clumond.working_so_far": "{cards:cards}: {sums} so far",
    "clumond.end.rounds": "after {played} round{played:s}",
    "clumond.end.reached": "{names:and} reached the target of {target}",
    "clumond.end.all_reached": "{first} and {second} and {third} reached the target of {target}",
    # what stops a round from being confirmed
    "clumond.check.tricks_total": "The tricks add up to {total}, not {tricks}",
    "clumond.check.tricks_too_many": "The tricks entered so far add up to {total}: more than "
        "{tricks}",
    "clumond.check.of_player": "{player}: {error}",
    "clumond.check.kept_by_two": "{card} is in both {holder}'s and {player}'s kept cards",
    "clumond.missing.tricks": "{player}'s tricks",
    "clumond.missing.kept": "{player}'s kept cards",
    "clumond.missing.both": "{player}'s tricks and kept cards",
    # one player's round in words
    "clumond.explain.declared": "{counting}, declared {declaration}",
    "clumond.explain.made": "{said}: made it, takes ⅓ of the pot: {payout}",
    "clumond.explain.off": "{said}: {payment} off, pays {payment}",
    "clumond.explain.declarer_made": "went for Clumond, {said}: made it, takes the whole pot: "
        "{payout}",
    "clumond.explain.declarer_missed": "went for Clumond, {said}: missed, the pot goes to the "
        "other two",
    "clumond.explain.against_made": "{said}; {declarer} made Clumond: nothing from the pot",
    "clumond.explain.against_missed": "{said}; {declarer} missed Clumond: takes half the pot: "
        "{payout}",
})


# ---------------------------------------------------------------------------
# Small pure helpers


def declaration(cards: Iterable[Card | str]) -> int:
    """The declaration made by three kept cards: 3 per ♣, 2 per ♥, 1 per ♠, 0 per ♦.

    >>> declaration(["3♥", "7♠", "4♦"])
    3
    >>> declaration(["A♣", "2♣", "K♣"])
    9
    """
    parsed = [parse_card(c) for c in cards]
    if len(parsed) != KEPT:
        raise RuleError("clumond.declaration_kept_count", kept=KEPT, count=len(parsed))
    for card in parsed:
        if not isinstance(card, SuitCard):
            raise RuleError("clumond.not_in_deck", card=card)
    return sum(SUIT_VALUE[card.suit] for card in parsed)


def tricks_that_count(tricks: int) -> int:
    """Tricks won, less 10 when 10 or more (10→0, 11→1, 12→2, 13→3).

    >>> tricks_that_count(9), tricks_that_count(10), tricks_that_count(13)
    (9, 0, 3)
    """
    tricks = whole_number(tricks, Phrase("field.tricks_won"), minimum=0, maximum=TRICKS)
    return tricks - 10 if tricks >= 10 else tricks


def payment(tricks: int, declared: int) -> int:
    """Chips a player pays into the pot in a standard round: the tricks of difference.

    9 tricks with a declaration of 5 pays 4 (the rules' example); 12 tricks
    count as 2, so with a declaration of 2 that is a success and pays nothing.

    >>> payment(9, 5), payment(12, 2), payment(0, 9)
    (4, 0, 9)
    """
    declared = whole_number(declared, Phrase("field.declaration"), minimum=0, maximum=9)
    return abs(tricks_that_count(tricks) - declared)


# ---------------------------------------------------------------------------
# Options


@dataclass(frozen=True)
class Options:
    """A game's options, checked: starting stack, ante, length, target and chip value.

    ``chip_value`` is what one chip is worth in the table's smallest unit of
    money (None: the chips are not money); the game's play does not use it.
    """

    stack: int
    ante: int
    rounds: int | None
    target: int | None
    chip_value: int | None = None

    def __post_init__(self) -> None:
        if self.rounds is None and self.target is None:
            raise RuleError("clumond.no_end")
        if self.target is not None and self.target <= self.stack:
            raise RuleError("clumond.target_below_stack", target=self.target, stack=self.stack)

    @classmethod
    def read(cls, options: Mapping[str, Any]) -> Options:
        """Check the options (defaults already merged in)."""
        rounds = options["rounds"]
        target = options["target"]
        return cls(
            stack=whole_number(options["stack"], Phrase("field.stack"), minimum=0),
            ante=whole_number(options["ante"], Phrase("field.ante"), minimum=0),
            rounds=None if rounds is None else whole_number(rounds, Phrase("field.rounds"),
                                                            minimum=1),
            target=None if target is None else whole_number(target, Phrase("field.target_stack")),
            chip_value=read_chip_value(options),
        )


def read_options(options: Mapping[str, Any]) -> Options:
    """Check a game's options (defaults filled in), e.g. for a checklist or the set-up form.

    >>> read_options({"ante": 2})
    Options(stack=100, ante=2, rounds=10, target=None, chip_value=None)
    """
    return Options.read(merge_options(options, DEFAULTS, "clumond"))


# ---------------------------------------------------------------------------
# One round's facts


@dataclass(frozen=True)
class RoundFacts:
    """What happened in one round, checked; tuples are in seat order.

    ``trump`` is only meaningful with a declarer: a :class:`Suit`, or None for
    no trumps. ``declarations`` holds None only for a declarer's opponents who
    gave nothing.
    """

    declarer: str | None
    trump: Suit | None
    tricks: tuple[int, ...]
    declarations: tuple[int | None, ...]
    kept: tuple[tuple[SuitCard, ...] | None, ...]

    def __post_init__(self) -> None:
        if sum(self.tricks) != TRICKS:
            raise RuleError("clumond.tricks_total", total=sum(self.tricks), tricks=TRICKS)


@lru_cache(maxsize=256)
def _card(text: str) -> Card:
    return parse_card(text)


def _read_kept(value: object, player: str, label: Phrase) -> tuple[SuitCard, ...]:
    if not isinstance(value, list | tuple):
        raise RuleError("clumond.kept_not_a_list", label=label, player=player, kept=KEPT)
    if len(value) != KEPT:
        raise RuleError("clumond.kept_count", label=label, player=player, count=len(value),
                        kept=KEPT)
    cards: list[SuitCard] = []
    for text in value:
        if not isinstance(text, str):
            raise RuleError("clumond.kept_not_a_card", label=label, text=text, player=player)
        try:
            card = _card(text)
        except RuleError:
            raise RuleError("clumond.kept_not_a_card", label=label, text=text.strip(),
                            player=player) from None
        if card not in DECK:
            raise RuleError("clumond.kept_not_in_deck", label=label, card=card, player=player)
        if card in cards:
            raise RuleError("clumond.kept_twice", label=label, card=card, player=player)
        cards.append(card)
    return tuple(cards)


def _mapping_field(raw: Mapping[str, Any], key: str, players: Sequence[str], label: Phrase,
                   what: str | Phrase) -> Mapping[str, Any]:
    value = raw.get(key)
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise RuleError("clumond.field_not_an_object", label=label, key=key, what=what)
    for name in value:
        require_player(name, players, label)
    return value


_ROUND_FIELDS = frozenset({"declarer", "trump", "tricks", "kept", "declared"})


def read_round(raw: object, players: Sequence[str], label: Phrase) -> RoundFacts:
    """Check one round of the record; ``label`` is ``"round N"`` for the messages."""
    if not isinstance(raw, Mapping):
        raise RuleError("clumond.round_not_an_object", label=label)
    unknown = sorted(set(raw) - _ROUND_FIELDS, key=str)
    if unknown:
        raise RuleError("clumond.round_unknown_field", label=label, unknown=unknown[0],
                        fields=tuple(sorted(_ROUND_FIELDS)))
    declarer = raw.get("declarer")
    if declarer is not None:
        require_player(declarer, players, Phrase("field.declarer", {"label": label}))
    trump = _read_trump(raw.get("trump"), declarer, label)

    if raw.get("tricks") is None:
        raise RuleError("clumond.tricks_missing", label=label)
    tricks_given = _mapping_field(raw, "tricks", players, label,
                                  Phrase("field.each_players_tricks"))
    tricks = []
    for p in players:
        if p not in tricks_given:
            raise RuleError("clumond.player_tricks_missing", label=label, p=p)
        tricks.append(whole_number(tricks_given[p],
                                   Phrase("field.tricks_of", {"label": label, "p": p}),
                                   minimum=0, maximum=TRICKS))
    if sum(tricks) != TRICKS:
        raise RuleError("clumond.round_tricks_total", label=label, total=sum(tricks), tricks=TRICKS)

    kept_given = _mapping_field(raw, "kept", players, label, Phrase("field.each_players_kept"))
    declared_given = _mapping_field(raw, "declared", players, label,
                                    Phrase("field.each_players_declaration"))
    kept: list[tuple[SuitCard, ...] | None] = []
    declarations: list[int | None] = []
    holder: dict[SuitCard, str] = {}
    for p in players:
        cards = _read_kept(kept_given[p], p, label) if kept_given.get(p) is not None else None
        number = None
        if declared_given.get(p) is not None:
            number = whole_number(declared_given[p],
                                  Phrase("field.declaration_of", {"label": label, "p": p}),
                                  minimum=0, maximum=9)
        if cards is not None:
            for card in cards:
                if card in holder:
                    raise RuleError("clumond.kept_by_two", label=label, card=card,
                                    holder=holder[card], p=p)
                holder[card] = p
            from_cards = sum(SUIT_VALUE[c.suit] for c in cards)
            if number is not None and number != from_cards:
                raise RuleError("clumond.declaration_mismatch", label=label, p=p, number=number,
                                cards=tuple(map(str, cards)), from_cards=from_cards)
            number = from_cards
        if number is None and (declarer is None or declarer == p):
            raise RuleError("clumond.declaration_missing", label=label, p=p)
        kept.append(cards)
        declarations.append(number)
    return RoundFacts(declarer, trump, tuple(tricks), tuple(declarations), tuple(kept))


def _read_trump(value: object, declarer: str | None, label: Phrase) -> Suit | None:
    if declarer is None:
        if value is not None:
            raise RuleError("clumond.trump_without_declarer", label=label, value=value)
        return None
    if value is None:
        raise RuleError("clumond.went_clumond_no_trump", label=label, declarer=declarer)
    if isinstance(value, str) and value.strip().lower() in (NO_TRUMPS, "no trumps", "no trump"):
        return None
    try:
        return parse_suit(value)
    except RuleError:
        raise RuleError("clumond.trump_not_a_suit", label=label, declarer=declarer,
                        value=value) from None


# ---------------------------------------------------------------------------
# Settling a round


@dataclass(frozen=True)
class Settlement:
    """How one round moved chips; tuples are in seat order."""

    ante: int
    pot_carried: int
    payments: tuple[int, ...]
    success: tuple[bool | None, ...]
    payouts: tuple[int, ...]
    share_out: tuple[int, ...]

    @property
    def pot_after_antes(self) -> int:
        """The pot once everyone has anted."""
        return self.pot_carried + self.ante * len(self.payments)

    @property
    def pot_after_payments(self) -> int:
        """The pot the payouts are worked out on."""
        return self.pot_after_antes + sum(self.payments)

    @property
    def left_in_pot(self) -> int:
        """The pot after the payouts, before any share-out."""
        return self.pot_after_payments - sum(self.payouts)

    @property
    def pot(self) -> int:
        """The pot at the end of the round."""
        return self.left_in_pot - sum(self.share_out)

    @property
    def changes(self) -> tuple[int, ...]:
        """Each stack's change this round."""
        return tuple(-self.ante - pay + got + share for pay, got, share
                     in zip(self.payments, self.payouts, self.share_out, strict=True))


def settle(facts: RoundFacts, players: Sequence[str], ante: int, pot: int) -> Settlement:
    """Antes, payments and payouts of one round (no share-out), on the carried ``pot``.

    >>> s = settle(RoundFacts(None, None, (9, 2, 2), (5, 2, 0), (None,) * 3),
    ...            ["Ann", "Bo", "Cy"], ante=5, pot=0)
    >>> s.payments, s.pot_after_payments, s.payouts, s.left_in_pot
    ((4, 0, 2), 21, (0, 7, 0), 14)
    """
    n = len(players)
    counted = [tricks_that_count(t) for t in facts.tricks]
    after_antes = pot + ante * n
    if facts.declarer is None:
        success = tuple(c == d for c, d in zip(counted, facts.declarations, strict=True))
        payments = tuple(0 if ok else abs(c - d)
                         for ok, c, d in zip(success, counted, facts.declarations, strict=True))
        third = (after_antes + sum(payments)) // 3
        payouts = tuple(third if ok else 0 for ok in success)
        return Settlement(ante, pot, payments, success, payouts, (0,) * n)
    seat = players.index(facts.declarer)
    made = counted[seat] == facts.declarations[seat]
    if made:
        payouts = tuple(after_antes if i == seat else 0 for i in range(n))
    else:
        half = after_antes // 2
        payouts = tuple(0 if i == seat else half for i in range(n))
    success = tuple(made if i == seat else None for i in range(n))
    return Settlement(ante, pot, (0,) * n, success, payouts, (0,) * n)


# ---------------------------------------------------------------------------
# The game, round by round


@dataclass(frozen=True)
class Table:
    """The game between rounds: stacks, pot, whose deal, whether it is over."""

    players: tuple[str, ...]
    options: Options
    stacks: tuple[int, ...]
    pot: int
    played: int
    dealer: str
    game_over: str | None = None

    @classmethod
    def start(cls, players: Sequence[str], first_dealer: str, options: Options) -> Table:
        """A new game: everyone on the starting stack, an empty pot."""
        return cls(tuple(players), options, (options.stack,) * len(players), 0, 0, first_dealer)

    @property
    def finished(self) -> bool:
        """True once the game has reached its agreed end."""
        return self.game_over is not None

    def play(self, facts: RoundFacts) -> tuple[Settlement, Table]:
        """Settle the next round; refuses a round after the game has ended."""
        label = the_round(self.played)
        if self.finished:
            raise RuleError("round.game_over", label=label, played=self.played)
        s = settle(facts, self.players, self.options.ante, self.pot)
        stacks = tuple(st + ch for st, ch in zip(self.stacks, s.changes, strict=True))
        played = self.played + 1
        over = self._end_reason(stacks, played)
        if over is not None and s.left_in_pot:
            shares = distribute_odd_units(s.left_in_pot, from_dealers_left(self.players,
                                                                            self.dealer))
            s = Settlement(s.ante, s.pot_carried, s.payments, s.success, s.payouts,
                           tuple(shares[p] for p in self.players))
            stacks = tuple(st + sh for st, sh in zip(stacks, s.share_out, strict=True))
        nxt = Table(self.players, self.options, stacks, s.pot, played,
                    left_of(self.players, self.dealer), over)
        return s, nxt

    def _end_reason(self, stacks: tuple[int, ...], played: int) -> str | None:
        reason = end_reason(self.options, dict(zip(self.players, stacks, strict=True)), played)
        return None if reason is None else str(reason)

    @property
    def winners(self) -> list[str]:
        """Most chips wins (ties share); nobody until the game is over."""
        if not self.finished:
            return []
        best = max(self.stacks)
        return [p for p, st in zip(self.players, self.stacks, strict=True) if st == best]


# ---------------------------------------------------------------------------
# Replay


def from_dealers_left(players: Sequence[str], dealer: str) -> list[str]:
    """The players clockwise from the dealer's left: the order of asking, and of odd chips.

    >>> from_dealers_left(["Ann", "Bo", "Cy"], "Bo")
    ['Cy', 'Ann', 'Bo']
    """
    return clockwise_from(players, left_of(players, dealer))


def _walk(record: object) -> tuple[Table, list[tuple[str, RoundFacts, Settlement, Table]]]:
    if isinstance(record, Mapping) and isinstance(record.get("rounds"), list):
        for i, raw in enumerate(record["rounds"]):
            if not isinstance(raw, Mapping):
                raise RuleError("clumond.round_not_an_object_raw", round=the_round(i), raw=raw)
    header = read_header(record, "clumond", PLAYERS, DEFAULTS)
    table = Table.start(header.players, header.first_dealer, Options.read(header.options))
    history = []
    for i, raw in enumerate(header.rounds):
        label = the_round(i)
        if table.finished:
            raise RuleError("round.game_over", label=label, played=table.played)
        facts = read_round(raw, header.players, label)
        dealer = table.dealer
        settlement, table = table.play(facts)
        history.append((dealer, facts, settlement, table))
    return table, history


def replay(record: Mapping[str, Any]) -> dict[str, Any]:
    """The result of a Clumond record (see the module docstring for its shape)."""
    return _result(*_walk(record))


def _result(table: Table, history: list[tuple[str, RoundFacts, Settlement, Table]],
            ) -> dict[str, Any]:
    players = table.players
    rounds = []
    for dealer, facts, s, after in history:
        rounds.append({
            "dealer": dealer,
            "scores": dict(zip(players, s.changes, strict=True)),
            "totals": dict(zip(players, after.stacks, strict=True)),
            "pot": after.pot,
            "breakdown": _breakdown(players, facts, s, after),
        })
    start = table.options.stack
    return {
        "rounds": rounds,
        "totals": dict(zip(players, table.stacks, strict=True)),
        "finished": table.finished,
        "winners": table.winners,
        "money": {p: st - start for p, st in zip(players, table.stacks, strict=True)},
        "pot": table.pot,
    }


def _breakdown(players: Sequence[str], facts: RoundFacts, s: Settlement,
               after: Table) -> dict[str, Any]:
    trump = None
    if facts.declarer is not None:
        trump = NO_TRUMPS if facts.trump is None else str(facts.trump)
    per_player = {}
    for i, p in enumerate(players):
        cards = facts.kept[i]
        per_player[p] = {
            "kept": None if cards is None else [str(c) for c in cards],
            "declaration": facts.declarations[i],
            "tricks": facts.tricks[i],
            "tricks_that_count": tricks_that_count(facts.tricks[i]),
            "success": s.success[i],
            "ante": s.ante,
            "payment": s.payments[i],
            "payout": s.payouts[i],
            "share_out": s.share_out[i],
            "change": s.changes[i],
        }
    return {
        "declarer": facts.declarer,
        "trump": trump,
        "ante": s.ante,
        "pot_carried": s.pot_carried,
        "pot_after_antes": s.pot_after_antes,
        "pot_after_payments": s.pot_after_payments,
        "players": per_player,
        "left_in_pot": s.left_in_pot,
        "pot": s.pot,
        "game_over": after.game_over,
    }


def money_lines(record: Mapping[str, Any]) -> list[MoneyLine]:
    """Every movement of chips in the game: antes, missed declarations, payouts, share-out.

    Round by round (players in seat order); they add up, player by player,
    to ``replay(record)["money"]``.

    >>> lines = money_lines({"game": "clumond", "players": ["Ann", "Bo", "Cy"],
    ...     "first_dealer": "Cy", "options": {"rounds": 1},
    ...     "rounds": [{"tricks": {"Ann": 3, "Bo": 4, "Cy": 6},
    ...                 "declared": {"Ann": 3, "Bo": 8, "Cy": 1}}]})
    >>> [(line.player, line.amount, line.what.value) for line in lines if line.player == "Ann"]
    [('Ann', -5, 'ante'), ('Ann', 8, 'payout'), ('Ann', 6, 'share-out')]
    """
    table, history = _walk(record)
    players = table.players
    lines: list[MoneyLine] = []
    for number, (_, _, s, _) in enumerate(history, 1):
        lines += lines_of(number, What.ANTE, dict.fromkeys(players, s.ante))
        for what, sizes in ((What.MISSED_DECLARATION, s.payments), (What.PAYOUT, s.payouts),
                            (What.SHARE_OUT, s.share_out)):
            lines += lines_of(number, what, dict(zip(players, sizes, strict=True)))
    return lines


def next_dealer(record: Mapping[str, Any]) -> str | None:
    """Who deals the next round of ``record``; None once the game is over.

    >>> next_dealer({"game": "clumond", "players": ["Ann", "Bo", "Cy"],
    ...              "first_dealer": "Cy", "rounds": []})
    'Cy'
    """
    table, _ = _walk(record)
    return None if table.finished else table.dealer


def end_reason(options: Options, stacks: Mapping[str, int], played: int) -> Phrase | None:
    """Why the game ends after ``played`` rounds with these ``stacks`` (None: it goes on),
    as the screens say it; its English is a round's ``game_over``.

    >>> str(end_reason(read_options({"target": 120}), {"Ann": 120, "Bo": 90, "Cy": 90}, 2))
    'Ann reached the target of 120'
    """
    target = options.target
    if target is not None:
        reached = [p for p, st in stacks.items() if st >= target]
        if len(reached) == 3:
            return Phrase("clumond.end.all_reached", {"first": reached[0], "second": reached[1],
                                                      "third": reached[2], "target": target})
        if reached:
            return Phrase("clumond.end.reached", {"names": tuple(reached), "target": target})
    if options.rounds is not None and played >= options.rounds:
        return Phrase("clumond.end.rounds", {"played": played})
    return None


def in_english(checklist: Checklist) -> Checklist:
    """A checklist of Phrases with its title and steps in English (the rules' own text)."""
    return Checklist(str(checklist.title), tuple(str(step) for step in checklist.steps))


# ---------------------------------------------------------------------------
# Checklists


def _seats(players: Sequence[str]) -> tuple[str, ...]:
    names = tuple(players)
    if len(names) not in PLAYERS:
        raise RuleError("clumond.player_count", count=len(names))
    return names


def deck_prep(players: Sequence[str], options: Mapping[str, Any]) -> Checklist:
    """The once-per-game checklist: the 48-card deck, stacks, ante and the agreed end.

    Its English; :func:`deck_prep_phrases` gives the same steps as Phrases, for a screen
    that says them in its own language.

    >>> for step in deck_prep(["Ann", "Bo", "Cy"], {}).steps: print(step)
    Take a standard 52-card deck without jokers.
    Remove the four 10s (10♠ 10♥ 10♦ 10♣): 48 cards remain, 16 for each player.
    Give Ann, Bo and Cy 100 chips each; the ante is 5 chips a round.
    The game ends after 10 rounds.
    Chips left in the pot at the end are shared out evenly.
    """
    return in_english(deck_prep_phrases(players, options))


def deck_prep_phrases(players: Sequence[str], options: Mapping[str, Any]) -> Checklist:
    """:func:`deck_prep` with its title and steps as Phrases (``str()`` of each is the same)."""
    names = _seats(players)
    opts = read_options(options)
    if opts.rounds is not None and opts.target is not None:
        ends = Phrase("clumond.deck.ends_both", {"rounds": opts.rounds, "target": opts.target})
    elif opts.rounds is not None:
        ends = Phrase("clumond.deck.ends_rounds", {"rounds": opts.rounds})
    else:
        ends = Phrase("clumond.deck.ends_target", {"target": opts.target})
    return Checklist(Phrase("clumond.deck.title"), (  # type: ignore[arg-type]
        Phrase("clumond.deck.take"),
        Phrase("clumond.deck.remove_tens", {"cards": len(DECK), "hand": HAND}),
        Phrase("clumond.deck.chips", {"names": names, "stack": opts.stack, "ante": opts.ante}),
        ends,
        Phrase("clumond.deck.share_out"),
    ))


def deal_steps(players: Sequence[str], dealer: str, options: Mapping[str, Any]) -> Checklist:
    """One round's steps for the actual dealer: ante, deal, going for Clumond, keeping 3.

    >>> steps = deal_steps(["Ann", "Bo", "Cy"], "Bo", {}).steps
    >>> steps[1]
    'Bo shuffles the 48 cards and deals 16 to each player, starting with Cy.'
    >>> steps[2]
    'Going for Clumond: Cy is asked first, then Ann, then Bo.'

    Its English; :func:`deal_steps_phrases` gives the same steps as Phrases.
    """
    return in_english(deal_steps_phrases(players, dealer, options))


def deal_steps_phrases(players: Sequence[str], dealer: str,
                       options: Mapping[str, Any]) -> Checklist:
    """:func:`deal_steps` with its title and steps as Phrases (``str()`` of each is the same)."""
    names = _seats(players)
    opts = read_options(options)
    require_player(dealer, names, Phrase("field.deal"))
    first, second = left_of(names, dealer), left_of(names, dealer, 2)
    return Checklist(Phrase("clumond.deal.title", {"dealer": dealer}), (  # type: ignore[arg-type]
        Phrase("clumond.deal.ante", {"ante": opts.ante}),
        Phrase("clumond.deal.deal", {"dealer": dealer, "cards": len(DECK), "hand": HAND,
                                     "first": first}),
        Phrase("clumond.deal.asking", {"first": first, "second": second, "dealer": dealer}),
        Phrase("clumond.deal.declarer"),
        Phrase("clumond.deal.nobody", {"first": first}),
        Phrase("clumond.deal.play", {"tricks": TRICKS, "kept": KEPT}),
        Phrase("clumond.deal.declaration"),
    ))


# ---------------------------------------------------------------------------
# The round at the table: what the screens show before a round is confirmed


TRUMP_CHOICES: tuple[str, ...] = (*(str(suit) for suit in SUITS), NO_TRUMPS)
"""What a declarer may name, as the record writes it: a suit, or ``"none"``."""


def read_trump(value: object) -> str:
    """A declarer's choice as the record writes it (``♥``, or ``"none"`` for no trumps).

    >>> read_trump("hearts"), read_trump("No trumps")
    ('♥', 'none')
    """
    if isinstance(value, str) and value.strip().lower() in (NO_TRUMPS, "no trumps", "no trump"):
        return NO_TRUMPS
    try:
        return str(parse_suit(value))
    except RuleError:
        raise RuleError("clumond.name_a_trump") from None


def leader(players: Sequence[str], dealer: str, declarer: str | None) -> str:
    """Who leads the first trick: left of the declarer, or left of the dealer.

    >>> leader(["Ann", "Bo", "Cy"], "Cy", None), leader(["Ann", "Bo", "Cy"], "Cy", "Bo")
    ('Ann', 'Cy')
    """
    return left_of(players, declarer if declarer is not None else dealer)


def counting(tricks: int) -> str:
    """Tricks won and the tricks that count, as the screens say it (in English; a Phrase:
    :func:`counting_phrase`).

    >>> counting(12), counting(9), counting(1), counting(11)
    ('12 tricks: 2 count', '9 tricks: 9 count', '1 trick: 1 counts', '11 tricks: 1 counts')
    """
    return str(counting_phrase(tricks))


def counting_phrase(tricks: int) -> Phrase:
    """:func:`counting` as a Phrase."""
    counted = tricks_that_count(tricks)
    return Phrase("clumond.counting_one" if counted == 1 else "clumond.counting",
                  {"tricks": tricks, "counted": counted})


def pick(cards: Iterable[Card | str]) -> tuple[SuitCard, ...]:
    """Kept cards as picked so far: cards of the 48-card deck, none twice, at most 3.

    >>> pick(["3h", "7S"])
    (SuitCard('3♥'), SuitCard('7♠'))
    >>> pick(["10♥"])  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    RuleError: 10♥ is not in the Clumond deck: the four 10s are taken out
    """
    picked: list[SuitCard] = []
    for text in cards:
        try:
            card = parse_card(text)
        except RuleError:
            raise RuleError("card.not_a_card", text=str(text).strip()[:12]) from None
        if not isinstance(card, SuitCard) or card not in DECK:
            code = "clumond.ten_not_in_deck" if card in _TENS else "clumond.not_in_deck"
            raise RuleError(code, card=card)
        if card in picked:
            raise RuleError("clumond.picked_twice", card=card)
        picked.append(card)
    if len(picked) > KEPT:
        raise RuleError("clumond.picked_count", count=len(picked), kept=KEPT)
    return tuple(picked)


_TENS = frozenset(c for c in standard_deck() if c.rank is Rank.TEN)


def working(cards: Iterable[Card | str]) -> str:
    """How kept cards make a declaration, as the screens show it (so far, for fewer than 3).

    >>> working(["3♥", "7♠", "4♦"])
    '3♥ 7♠ 4♦: 2 + 1 + 0 = 3'
    >>> working(["A♣", "K♥"]), working(["A♣"]), working([])
    ('A♣ K♥: 3 + 2 = 5 so far', 'A♣: 3 so far', '')
    """
    said = working_phrase(cards)
    return "" if said is None else str(said)


def working_phrase(cards: Iterable[Card | str]) -> Phrase | None:
    """:func:`working` as a Phrase (None without cards)."""
    picked = pick(cards)
    if not picked:
        return None
    values = [SUIT_VALUE[card.suit] for card in picked]
    sums = str(values[0]) if len(values) == 1 else f"{' + '.join(map(str, values))} = {sum(values)}"
    return Phrase("clumond.working" if len(picked) == KEPT else "clumond.working_so_far",
                  {"cards": tuple(str(card) for card in picked), "sums": sums})


@dataclass(frozen=True)
class Offers:
    """Going for Clumond so far: the order of asking, who said no, and who said yes."""

    order: tuple[str, ...]
    """Clockwise from the dealer's left."""
    passed: tuple[str, ...] = ()
    """Who said no, in the order asked."""
    declarer: str | None = None
    """The first to say yes."""

    def __post_init__(self) -> None:
        if self.passed != self.order[:len(self.passed)]:
            raise RuleError("clumond.asked_out_of_order", order=tuple(self.order),
                            passed=tuple(self.passed))
        if self.declarer is not None and self.declarer not in self.order[len(self.passed):][:1]:
            if self.passed:
                raise RuleError("clumond.not_asked_next", declarer=self.declarer,
                                passed=tuple(self.passed))
            raise RuleError("clumond.not_asked_first", declarer=self.declarer)

    @property
    def turn(self) -> str | None:
        """Who is asked now (None once someone said yes or everyone said no)."""
        if self.declarer is not None or self.nobody:
            return None
        return self.order[len(self.passed)]

    @property
    def nobody(self) -> bool:
        """True when everyone said no: the round is played with no trumps."""
        return len(self.passed) == len(self.order)

    @property
    def answers(self) -> tuple[tuple[str, bool | None], ...]:
        """Each player in the order of asking, with yes (True), no (False) or not asked (None)."""
        return tuple((p, False if p in self.passed else True if p == self.declarer else None)
                     for p in self.order)

    def answer(self, player: str, accept: bool) -> Offers:
        """``player`` says yes (``accept``) or no; refused when it is not their turn."""
        if self.turn is None:
            if self.declarer:
                raise RuleError("clumond.asking_over_taken", declarer=self.declarer)
            raise RuleError("clumond.asking_over")
        if player != self.turn:
            raise RuleError("clumond.answer_out_of_turn", turn=self.turn, player=player)
        if accept:
            return Offers(self.order, self.passed, player)
        return Offers(self.order, (*self.passed, player))

    def take_back(self) -> Offers:
        """The offers with the last answer taken back (refused before any answer)."""
        if self.declarer is not None:
            return Offers(self.order, self.passed)
        if not self.passed:
            raise RuleError("clumond.nobody_answered")
        return Offers(self.order, self.passed[:-1])


def going_for_clumond(players: Sequence[str], dealer: str, passed: Sequence[str] = (),
                      declarer: str | None = None) -> Offers:
    """The offers of a round dealt by ``dealer``, as far as they went.

    >>> offers = going_for_clumond(["Ann", "Bo", "Cy"], "Cy", passed=["Ann"])
    >>> offers.turn, offers.answer("Bo", True).declarer
    ('Bo', 'Bo')
    """
    return Offers(tuple(from_dealers_left(players, dealer)), tuple(passed), declarer)


@dataclass(frozen=True)
class Progress:
    """The game between rounds, for the screens: the round to play, its dealer and its pot."""

    result: dict[str, Any]
    """``replay`` of the record."""
    options: Options
    round_number: int
    """The round in progress as players count it (the last one played, once over)."""
    dealer: str | None
    """Who deals the round in progress (None once over)."""
    pot: int
    """The pot carried into the round in progress."""
    pot_after_antes: int

    @property
    def finished(self) -> bool:
        """True once the game has reached its agreed end."""
        return bool(self.result["finished"])

    @property
    def label(self) -> str:
        """``Round 3 of 10``, ``Round 3 · first to 150``, ``Round 3 of 10 · or first to 150``."""
        return str(self.heading)

    @property
    def heading(self) -> Phrase:
        """:attr:`label` as a Phrase."""
        rounds, target = self.options.rounds, self.options.target
        facts = {"number": self.round_number, "rounds": rounds, "target": target}
        if rounds is not None and target is not None:
            return Phrase("clumond.round.label_of_target", facts)
        if rounds is not None:
            return Phrase("clumond.round.label_of", facts)
        if target is not None:
            return Phrase("clumond.round.label_target", facts)
        return Phrase("clumond.round.label", facts)


def progress(record: Mapping[str, Any]) -> Progress:
    """The game now: the result, and the round in progress with its dealer and pot.

    >>> now = progress({"game": "clumond", "players": ["Ann", "Bo", "Cy"],
    ...                 "first_dealer": "Cy", "options": {"target": 150}, "rounds": []})
    >>> now.label, now.dealer, now.pot, now.pot_after_antes
    ('Round 1 of 10 · or first to 150', 'Cy', 0, 15)
    """
    table, history = _walk(record)
    return Progress(
        result=_result(table, history), options=table.options,
        round_number=table.played + (0 if table.finished else 1),
        dealer=None if table.finished else table.dealer, pot=table.pot,
        pot_after_antes=table.pot + table.options.ante * len(table.players))


@dataclass(frozen=True)
class Problem:
    """Something wrong with a round as entered, and the players it concerns."""

    said: Phrase
    players: tuple[str, ...]

    @property
    def message(self) -> str:
        """The problem in English."""
        return str(self.said)


@dataclass(frozen=True)
class Checks:
    """What stops a round as entered from being confirmed: problems, and what is missing."""

    problems: tuple[Problem, ...]
    lacking: tuple[Phrase, ...]
    """``Bo's tricks``, ``Cy's tricks and kept cards`` … as Phrases."""

    @property
    def missing(self) -> tuple[str, ...]:
        """What is missing in English: ``Bo's tricks``, ``Cy's tricks and kept cards`` …"""
        return tuple(str(lack) for lack in self.lacking)

    @property
    def ready(self) -> bool:
        """True when nothing is wrong and nothing is missing."""
        return not self.problems and not self.missing

    def concerning(self, player: str) -> tuple[str, ...]:
        """The messages of the problems that concern ``player``."""
        return tuple(p.message for p in self.problems if player in p.players)

    def concerning_said(self, player: str) -> tuple[Phrase, ...]:
        """:meth:`concerning` as Phrases."""
        return tuple(p.said for p in self.problems if player in p.players)


def round_checks(players: Sequence[str], declarer: str | None, tricks: Mapping[str, int],
                 kept: Mapping[str, Sequence[str]], declared: Mapping[str, int]) -> Checks:
    """Check a round as far as it is entered: the tricks, the kept cards, what is missing.

    In a declarer round only the declarer's declaration is needed; kept
    cards given by anyone are checked all the same.

    >>> checks = round_checks(["Ann", "Bo", "Cy"], None, {"Ann": 9, "Bo": 5},
    ...                       {"Ann": ["A♣", "2♥", "3♠"], "Bo": ["A♣", "K♦", "Q♦"]}, {})
    >>> for problem in checks.problems: print(problem.message)
    The tricks entered so far add up to 14: more than 13
    A♣ is in both Ann's and Bo's kept cards
    >>> checks.missing
    ("Cy's tricks and kept cards",)
    """
    problems: list[Problem] = []
    given = [p for p in players if tricks.get(p) is not None]
    total = sum(tricks[p] for p in given)
    if len(given) == len(players) and total != TRICKS:
        problems.append(Problem(Phrase("clumond.check.tricks_total",
                                       {"total": total, "tricks": TRICKS}), tuple(players)))
    elif total > TRICKS:
        problems.append(Problem(Phrase("clumond.check.tricks_too_many",
                                       {"total": total, "tricks": TRICKS}), tuple(given)))
    holder: dict[SuitCard, str] = {}
    for player in players:
        if kept.get(player) is None:
            continue
        try:
            cards = pick(kept[player])
            if len(cards) != KEPT:
                raise RuleError("clumond.kept_count_each", count=len(cards), kept=KEPT)
        except RuleError as error:
            problems.append(Problem(Phrase("clumond.check.of_player",
                                           {"player": player, "error": error}), (player,)))
            continue
        for card in cards:
            if card in holder:
                problems.append(Problem(Phrase("clumond.check.kept_by_two",
                                               {"card": str(card), "holder": holder[card],
                                                "player": player}), (holder[card], player)))
            else:
                holder[card] = player
    missing = []
    for player in players:
        no_tricks = tricks.get(player) is None
        no_kept = ((declarer is None or declarer == player) and kept.get(player) is None
                   and declared.get(player) is None)
        if no_tricks or no_kept:
            code = "both" if no_tricks and no_kept else "tricks" if no_tricks else "kept"
            missing.append(Phrase(f"clumond.missing.{code}", {"player": player}))
    return Checks(tuple(problems), tuple(missing))


def round_record(players: Sequence[str], declarer: str | None, trump: str | None,
                 tricks: Mapping[str, int], kept: Mapping[str, Sequence[str]],
                 declared: Mapping[str, int]) -> dict[str, Any]:
    """A round of the record from what was entered, players in seat order.

    A player's kept cards stand in for a declared number; ``kept`` and
    ``declared`` are left out when nobody gave one.

    >>> round_record(["Ann", "Bo", "Cy"], "Bo", "♥", {"Ann": 3, "Bo": 6, "Cy": 4},
    ...              {}, {"Bo": 6})
    {'declarer': 'Bo', 'trump': '♥', 'tricks': {'Ann': 3, 'Bo': 6, 'Cy': 4}, 'declared': {'Bo': 6}}
    """
    facts: dict[str, Any] = {
        "declarer": declarer, "trump": trump if declarer is not None else None,
        "tricks": {p: tricks[p] for p in players if tricks.get(p) is not None}}
    cards = {p: list(kept[p]) for p in players if kept.get(p) is not None}
    numbers = {p: declared[p] for p in players
               if declared.get(p) is not None and p not in cards}
    if cards:
        facts["kept"] = cards
    if numbers:
        facts["declared"] = numbers
    return facts


def explain(breakdown: Mapping[str, Any], player: str) -> str:
    """One player's round in words, from a round's ``breakdown`` (every number is in it);
    in English (a Phrase: :func:`explain_phrase`).

    >>> result = replay({"game": "clumond", "players": ["Ann", "Bo", "Cy"],
    ...     "first_dealer": "Cy", "rounds": [{"tricks": {"Ann": 3, "Bo": 4, "Cy": 6},
    ...                                       "declared": {"Ann": 3, "Bo": 8, "Cy": 1}}]})
    >>> explain(result["rounds"][0]["breakdown"], "Ann")
    '3 tricks: 3 count, declared 3: made it, takes ⅓ of the pot: 8'
    >>> explain(result["rounds"][0]["breakdown"], "Bo")
    '4 tricks: 4 count, declared 8: 4 off, pays 4'
    """
    return str(explain_phrase(breakdown, player))


def explain_phrase(breakdown: Mapping[str, Any], player: str) -> Phrase:
    """:func:`explain` as a Phrase."""
    line = breakdown["players"][player]
    declarer = breakdown["declarer"]
    said = counting_phrase(line["tricks"])
    if line["declaration"] is not None:
        said = Phrase("clumond.explain.declared",
                      {"counting": said, "declaration": line["declaration"]})
    facts = {"said": said, "payout": line["payout"], "payment": line["payment"],
             "declarer": declarer}
    if declarer is None:
        return Phrase("clumond.explain.made" if line["success"] else "clumond.explain.off", facts)
    if player == declarer:
        return Phrase("clumond.explain.declarer_made" if line["success"]
                      else "clumond.explain.declarer_missed", facts)
    if breakdown["players"][declarer]["success"]:
        return Phrase("clumond.explain.against_made", facts)
    return Phrase("clumond.explain.against_missed", facts)


# --------------------------------------------------------------------------- the record book

RECORDS = (RecordKind("biggest_clumond_pot", rank=5),)
"""Its table record: the biggest pot the payouts of a round were worked out on, in chips."""


def record_facts(record: Mapping[str, Any], game: Any, unit: str) -> RecordFacts:
    """What the record book reads of a game (``companion.rules.records``): its rounds, the
    stack's change (the last round's share-out included); its runner-up by stack; its
    takes, a round's payout, in chips; its record, the biggest pot (the pot the payouts
    of a round were worked out on, in chips; held by who took a payout from it, maybe
    nobody)."""
    found = []
    for number, hand in enumerate(game.result["rounds"], 1):
        b = hand["breakdown"]
        found.append(("biggest_clumond_pot", b["pot_after_payments"], number,
                      tuple(p for p, row in b["players"].items() if row["payout"])))
    takes = tuple((number, p, row["payout"])
                  for number, hand in enumerate(game.result["rounds"], 1)
                  for p, row in hand["breakdown"]["players"].items() if row["payout"])
    return RecordFacts(tuple(round_scores(game.result)), dict(game.result["totals"]),
                       records=tuple(found), takes=takes)
