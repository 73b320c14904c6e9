"""Trefeltromp's flow: the betting ledger on the phones, the sealed reveals, buys and leaving.

A hand goes through its phases (:class:`Phase`): ``ready`` (between hands:
buys, leaving, the next dealer), then the four betting rounds and the three
reveals the rules name (with the discard-and-draw step, ``draw``, after
fyrsturkalla), until the hand is over; it then joins the record at once and
the next hand is ``ready``. ``end`` is the end of the game.

The hand in progress lives in the round's draft, in the record's own form
(``buys``, ``calls``, ``shows``) with working facts the record does not keep
(``companion.games.trefeltromp.rules``'s "hand in progress"). Whose turn it is, what
is legal and every number come from the rules (``replay_now`` of the record
with the hand in progress, ``legal_actions``, ``to_call``, ``max_amount``,
``hand_story``, ``figures`` …); so does every change of the hand (``act``,
``lay``, ``undo`` … return the new facts and what follows from them). This
module reads the store and picks what to show; :func:`play_on` hands a change
to the store.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from flask import Blueprint, abort
from flask_babel import LazyString
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from werkzeug.datastructures import MultiDict

from companion.rules import RuleError
from companion.store import PLAYING, Game, Table, sealed
from companion.store import rounds as round_store
from companion.web.charts import score_chart
from companion.web.currencies import unit_choices
from companion.web.flow import GameFlow, SealedStep, View, checklist, corrected_from
from companion.web.forms import example_amount
from companion.web.vote import Slip, slip_for
from companion.web.words import and_list

from .. import rules
from . import forms

bp = Blueprint("trefeltromp", __name__, template_folder="templates")

NAME = "trefeltromp"


class Phase(Enum):
    """The moments of a Trefeltromp hand, and of the game."""

    READY = "ready"
    """Between hands: buys, players leaving; the scorekeeper deals the next hand."""
    FYRSTURKALLA = "fyrsturkalla"
    DRAW = "draw"
    """Each player still in may discard one card and draw one; the tablet taps done."""
    BANENKALLA = "banenkalla"
    BANEN = "banen"
    DETUILERKALLA = "detuilerkalla"
    DETUILER = "detuiler"
    DEBEKRANSEKALLA = "debekransekalla"
    DEBEKRANSE = "debekranse"
    HAND_OVER = "hand-over"
    """The hand in the draft is over but not in the record (it was taken back from it)."""
    CHECK = "check"
    """The hand in progress no longer fits the record (a past hand was corrected)."""
    END = "end"
    """The game is over (everyone left), or the scorekeeper closed it."""


BETTING_PHASES = (Phase.FYRSTURKALLA, Phase.BANENKALLA, Phase.DETUILERKALLA,
                  Phase.DEBEKRANSEKALLA)
REVEAL_PHASES = (Phase.BANEN, Phase.DETUILER, Phase.DEBEKRANSE)
HAND_PHASES = (*BETTING_PHASES, Phase.DRAW, *REVEAL_PHASES)
"""The phases of a hand being played."""

STAGE_TITLES: dict[rules.Stage, str | LazyString] = {
    rules.Stage.FYRSTURKALLA: _l("Fyrsturkalla (first call)"),
    rules.Stage.BANENKALLA: _l("Banenkalla (orb call)"),
    rules.Stage.BANEN: "Banen",
    rules.Stage.DETUILERKALLA: _l("Detuilerkalla (sceptre call)"),
    rules.Stage.DETUILER: "Detuiler",
    rules.Stage.DEBEKRANSEKALLA: _l("Debekransekalla (crown call)"),
    rules.Stage.DEBEKRANSE: "Debekranse",
    rules.Stage.OVER: _l("The hand is over"),
}
"""How the screens name each stage of a hand (said in each screen's language as it is drawn:
a moment is shared by every screen of the table)."""

DRAW_TITLE = _l("Discard and draw")
"""The stage's name while the table discards and draws (before Banenkalla's betting)."""


# --------------------------------------------------------------------------- what the screens show


class SeatState(Enum):
    """Where a player stands in the hand."""

    TO_ACT = "to act"
    IN = "in"
    FOLDED = "folded"
    STAYED = "stayed"
    OUT = "not in this hand"


@dataclass(frozen=True)
class SeatLine:
    """One player's line on the screens: stack, chips put in this betting round, state."""

    player: str
    position: int
    phone: bool
    """A phone holds the seat."""
    stack: int
    put: int
    state: SeatState
    may_stay: bool
    """Holds the Fool's privilege in this betting round."""
    dealer: bool


@dataclass(frozen=True)
class Turn:
    """The decision of the player to act: what they may do, and with how much."""

    player: str
    position: int
    phone: bool
    verbs: tuple[rules.Verb, ...]
    to_call: int
    stack: int
    put: int
    most: int
    """The largest bet or raise (0: neither is open)."""
    amounts: tuple[int, ...]
    """The chip buttons of a bet or raise."""
    short: int
    """The chips they must buy to cover the call (0: they can cover it)."""
    buys: tuple[int, ...]
    """What they are offered to buy when short."""

    def may(self, verb: str) -> bool:
        """True when ``verb`` is legal now."""
        return rules.Verb(verb) in self.verbs


@dataclass(frozen=True)
class Ready:
    """Between hands: who deals next, who sits, what was bought, who leaves."""

    dealer: str
    seated: tuple[str, ...]
    bought: dict[str, int]
    """Chips bought so far for the next hand, by player."""
    problem: str | None
    """Why the next hand cannot be dealt yet (someone cannot cover the ante)."""
    leaving: tuple[str, ...]
    """Who leaves after the last hand (they may still stay after all)."""
    hands_played: int

    @property
    def can_leave(self) -> bool:
        """Players leave after a hand, so not before the first."""
        return self.hands_played > 0


@dataclass(frozen=True, kw_only=True)
class HandView(View):
    """The moment of a Trefeltromp game (see :class:`Phase`)."""

    options: rules.Options | None = None
    hand: rules.Hand | None = None
    stage_title: str | LazyString = ""
    seats: tuple[SeatLine, ...] = ()
    turn: Turn | None = None
    pot: int = 0
    at: int = 0
    """How many things were done in the hand: a tap meant for an earlier moment is refused."""

    @property
    def drawn_for(self) -> int:
        """The moment of the hand: how many things were done in it (:attr:`at`)."""
        return self.at
    undo: str | None = None
    """What the tablet's undo takes back (None: nothing in this hand)."""
    story: tuple[rules.Event, ...] = ()
    """This hand so far (between hands: the last hand)."""
    story_hand: int = 0
    """The hand the story tells, as players count."""
    reveal: rules.Event | None = None
    """The latest reveal (or fold win) to show."""
    sealing: sealed.SealedStatus | None = None
    slip: Slip | None = None
    clash: Mapping[str, Any] | None = None
    taken: frozenset[str] = frozenset()
    """Cards already shown this hand (and laid by others at a reveal being laid again)."""
    ready: Ready | None = None
    figures: rules.Figures | None = None
    chart: str | LazyString = ""
    trouble: str | None = None
    """Why the hand in progress does not fit the record (phase ``check``)."""
    picker: forms.TarotPicker = forms.PICKER
    buys_in: tuple[str, ...] = ()
    """Who bought chips in this hand so far, one name per buy (a double tap buys once)."""

    def buys_made(self, player: str) -> int:
        """How many times ``player`` bought chips in this hand so far."""
        return self.buys_in.count(player)

    @property
    def hand_number(self) -> int:
        """The hand in progress (or next), as players count it."""
        return self.round_number

    @property
    def mine(self) -> SeatLine | None:
        """This phone's line."""
        return next((s for s in self.seats if s.player == self.me), None)

    @property
    def my_turn(self) -> bool:
        """True when this phone's player is to act."""
        return self.turn is not None and self.me is not None and self.turn.player == self.me

    @property
    def mid_choice(self) -> bool:
        """True while this phone is choosing a card or an amount."""
        return self.my_turn or (self.me is not None and self.slip is not None
                                and self.slip.state == "choose")


    @property
    def in_hand_phase(self) -> bool:
        """True while a hand is being played."""
        return self.phase in HAND_PHASES


# --------------------------------------------------------------------------- the reveals


class RevealStep(SealedStep):
    """One reveal (banen, detuiler, debekranse): each player still in lays a card face down;
    nothing of any card shows anywhere until the last is in, then all turn together."""

    slip_template = "trefeltromp/_slip.html"
    drop_text = _l("Rap twice: lay this card")
    in_text = _l("Your card is in, face down. It turns when everyone's is in.")
    remind_text = _l("You laid {}.")
    restart_text = _l("The server restarted: please lay your card again.")

    def __init__(self, phase: Phase) -> None:
        self.name = phase.value
        self.phases = (phase,)

    def waiting_text(self, status: sealed.SealedStatus) -> str:
        """Who is still laying a card."""
        return _("Waiting for %(names)s to lay a card\u2026",
                 names=and_list(status.waiting_for))

    def status(self, view: View) -> sealed.SealedStatus | None:
        """The sealing of this reveal, while it is the one due."""
        if view.phase not in self.phases:
            return None
        return getattr(view, "sealing", None)

    def choices(self, view: View, chooser: str) -> list[str]:
        """The cards ``chooser`` may lay: every tarot card not shown this hand."""
        taken = getattr(view, "taken", frozenset())
        return [card for card in forms.PICKER.cards if card not in taken]

    def drop(self, act: Any, chooser: str, choice: str, stage: int | None,
             blob: bytes | None = None) -> bool:
        """Check the card and seal it; the last card turns them all over (in this commit)."""
        view = act.view
        status = view.sealing
        if status is None or not status.open:
            raise sealed.SealError(_("There is no card to lay now: look at your screen again."),
                                   409)
        if stage is not None and stage != status.stage:
            raise sealed.SealError(_("That card was for an earlier moment of this reveal: look "
                                     "at your screen again."), 409)
        if chooser in status.chosen:
            raise sealed.SealError(_("%(name)s has laid a card already: one card each.",
                                     name=chooser), 409)
        if chooser not in status.choosers:
            raise sealed.SealError(_("%(name)s lays no card now.", name=chooser), 403)
        if not choice.strip():
            raise sealed.SealError(_("Pick the card you lay down first."))
        try:
            card = rules.card_to_show(view.hand, chooser, choice)
        except RuleError as error:
            raise sealed.SealError(forms.sentence(error)) from None
        kept = (view.clash or {}).get("kept") or {}
        if card in kept.values():
            owner = next(p for p, c in kept.items() if c == card)
            raise sealed.SealError(_("%(card)s is the card %(name)s laid at this reveal: pick "
                                     "yours.", card=card, name=owner))
        sealing = sealed.latest(act.game, act.draft.round_index, lock=True)
        revealed = sealed.seal(act.game, sealing, chooser, card, blob)
        if revealed:
            play_on(act, rules.lay(act.game.record(), act.draft.facts,
                                   dict(sealing.shown or {})))
        return revealed


REVEAL_STEPS = {phase.value: RevealStep(phase) for phase in REVEAL_PHASES}


def play_on(act: Any, change: rules.Change) -> None:
    """Hand a change of the hand to the store, in one write: its facts; the hand, once
    over, joins the record; the sealing of the reveal due is opened (and any other that is
    open, or of a reveal taken back, goes, unread)."""
    reveal = change.reveal.value if change.reveal is not None else None
    forgotten = change.forgotten.value if change.forgotten is not None else None
    round_store.play_on(act.draft, change.facts, finished=change.finished,
                        sealing=(reveal, change.layers), forgotten=forgotten)


# --------------------------------------------------------------------------- the flow


class TrefeltrompFlow(GameFlow, folder="trefeltromp", stylesheet=True):
    """Trefeltromp at a real table: the betting ledger on the phones, sealed reveals."""

    name = NAME
    blueprint = bp
    round_word = "hand"
    sealed_steps = REVEAL_STEPS

    # -- starting

    def options_values(self, table: Table, form: Mapping[str, str] | None) -> dict[str, Any]:
        """The options form's values, with the money units to pick from."""
        values = forms.option_values(table.unit, form)
        return {"values": values, "units": unit_choices(values.get("unit"), chips=True),
                "example_chip_value": example_amount(5, values.get("unit", table.unit))}

    def read_options(self, table: Table, form: MultiDict[str, str],
                     ) -> tuple[dict[str, Any], str | None]:
        """The options and the table's money unit from the start form."""
        unit, options = forms.read_options(form, table.unit)
        return options, unit

    # -- the moment

    def table_moment(self, table: Table, game: Game) -> HandView:
        """The game now, as every screen sees it."""
        record = game.record()
        draft = round_store.current_draft(game)
        try:
            result, now = rules.replay_now(record)
            options = rules.read_options(record.get("options"))
            figures = rules.figures(record)
        except RuleError as error:
            return HandView(table=table, game=game, me=None, phase=Phase.END, result=None,
                            problem=error)
        facts = draft.facts
        log = rules.log_of(facts)
        fields: dict[str, Any] = {
            "table": table, "game": game, "me": None, "result": result, "options": options,
            "figures": figures, "round_index": draft.round_index, "at": len(log),
            "buys_in": tuple(b[0] for b in facts.get("buys") or ()),
            "chart": LazyString(score_chart, result, start=figures.start,
                                title=_l("Stacks after each hand")),
            "corrected_from": corrected_from(draft),
        }
        last = result["rounds"][-1] if result["rounds"] else None
        if last is not None:
            fields |= {"story": rules.hand_story(last), "story_hand": len(result["rounds"])}
        if game.status != PLAYING or result["finished"]:
            return _with_reveal(HandView(phase=Phase.END, **fields))
        if now.hand is not None:
            return HandView(phase=Phase.CHECK, **fields, seats=self._seat_lines(
                table, game.players, None, result["totals"], None), trouble=_last_hand_unfinished(
                len(result["rounds"])))
        if not rules.started(facts):
            return _with_reveal(self._ready(table, game, record, result, now, facts, draft,
                                            fields, log))
        return self._playing(table, game, record, facts, draft, fields, log)

    def _ready(self, table: Table, game: Game, record: dict[str, Any], result: dict[str, Any],
               now: rules.Table, facts: Mapping[str, Any], draft: round_store.RoundDraft,
               fields: dict[str, Any], log: list[rules.Done]) -> HandView:
        """Between hands: the next dealer, buys, who leaves, and whether it can be dealt."""
        assert now.next_dealer is not None
        buys = facts.get("buys") or []
        problem = None
        try:
            rules.replay({**record, "rounds": [*record["rounds"], {"buys": buys}]})
        except RuleError as error:
            problem = forms.sentence(error)
        last = result["rounds"][-1] if result["rounds"] else None
        ready = Ready(dealer=now.next_dealer, seated=now.seated, bought=rules.bought(buys),
                      problem=problem,
                      leaving=tuple(last["breakdown"]["left"]) if last else (),
                      hands_played=len(result["rounds"]))
        lists = []
        if not game.rounds:
            deck = rules.deck_prep_phrases(game.players, game.options)
            lists.append(checklist("deck", deck.title, deck.steps, draft))
        if last is not None:
            # The last hand joined the record as it ended: its last dealing steps (the last
            # reveal, who deals next) stay here until the next hand is dealt.
            deal = rules.deal_steps_phrases(last["breakdown"]["seated"], last["dealer"],
                                            game.options)
            lists.append(checklist("end", _l("Hand %(number)s: the last steps",
                                             number=len(result["rounds"])),
                                   deal.steps[-2:], draft))
        seats = self._seat_lines(table, game.players, None, result["totals"], None)
        return HandView(phase=Phase.READY, **fields, seats=seats, ready=ready,
                        dealer=now.next_dealer, checklists=tuple(lists),
                        undo=_undo_text(facts, log, None), pot=result["pot"])

    def _playing(self, table: Table, game: Game, record: dict[str, Any],
                 facts: Mapping[str, Any], draft: round_store.RoundDraft,
                 fields: dict[str, Any], log: list[rules.Done]) -> HandView:
        """A hand being played: whose turn, what is legal, the reveal being laid."""
        try:
            played, then = rules.replay_now(
                {**record, "rounds": [*record["rounds"], rules.hand_facts(facts)]})
        except RuleError as error:
            return HandView(phase=Phase.CHECK, **fields,
                            trouble=forms.sentence(error),
                            undo=_undo_text(facts, log, None), seats=self._seat_lines(
                                table, game.players, None, fields["result"]["totals"], None))
        hand_round = played["rounds"][-1]
        story = rules.hand_story(hand_round)
        hand = then.hand
        dealer = hand_round["dealer"]
        fields |= {"story": story, "story_hand": len(played["rounds"]), "dealer": dealer,
                   "pot": hand_round["pot"]}
        if hand is None:
            # The hand's dealing steps stay until the next hand is dealt: its last ones (the
            # last call, the last reveal) are ticked once it is over.
            seated = hand_round["breakdown"]["seated"]
            deal = rules.deal_steps_phrases(seated, dealer, game.options)
            return _with_reveal(HandView(
                phase=Phase.HAND_OVER, **fields, stage_title=STAGE_TITLES[rules.Stage.OVER],
                undo=_undo_text(facts, log, None),
                seats=self._seat_lines(table, game.players, None, played["totals"], dealer),
                checklists=(checklist("deal", deal.title, deal.steps, draft),)))
        phase = Phase(hand.stage.value)
        if phase is Phase.BANENKALLA and not rules.drawn(facts):
            phase = Phase.DRAW
        clash = facts.get("clash") if phase in REVEAL_PHASES else None
        taken = {text for r in hand.reveals for text in r.spelled}
        taken |= set(((clash or {}).get("kept") or {}).values())
        deal = rules.deal_steps_phrases(hand.seats, dealer, game.options)
        view = HandView(
            phase=phase, **fields, hand=hand,
            stage_title=DRAW_TITLE if phase is Phase.DRAW else STAGE_TITLES[hand.stage],
            seats=self._seat_lines(table, game.players, hand, played["totals"], dealer,
                                   betting=phase in BETTING_PHASES),
            turn=(self._turn(table, hand, fields["options"].stack) if phase in BETTING_PHASES
                  else None),
            undo=_undo_text(facts, log, clash), clash=clash, taken=frozenset(taken),
            checklists=(checklist("deal", deal.title, deal.steps, draft),))
        if phase in REVEAL_PHASES:
            view = replace(view, sealing=sealed.latest_of(game, draft.round_index, phase.value))
        return _with_reveal(view)

    def personal(self, view: View, table: Table, game: Game, me: str | None) -> View:
        """The hand for one screen, with its slip while a reveal is being laid."""
        view = super().personal(view, table, game, me)
        step = REVEAL_STEPS.get(view.phase.value) if view.phase in REVEAL_PHASES else None
        if step is not None:
            view = replace(view, slip=slip_for(view, step, me))
        return view

    @staticmethod
    def _seat_lines(table: Table, players: Sequence[str], hand: rules.Hand | None,
                    stacks: Mapping[str, int], dealer: str | None, *, betting: bool = True,
                    ) -> tuple[SeatLine, ...]:
        """Every player's line: in the hand, or (between hands) seated or gone; nobody is
        "to act" unless a betting round is under way (``betting``: not while the table
        discards and draws)."""
        seats = {s.name: s for s in table.seats}
        lines = []
        for player in players:
            seat = seats.get(player)
            stack, put, state, may_stay = stacks[player], 0, SeatState.IN, False
            if hand is not None:
                if player in hand.seats:
                    i = hand.seats.index(player)
                    stack, put = hand.stacks[i], hand.put[i]
                    state = (SeatState.FOLDED if player in hand.folded
                             else SeatState.STAYED if player in hand.stayed
                             else SeatState.TO_ACT if player == hand.to_act and betting
                             else SeatState.IN)
                    may_stay = (player == hand.privileged and player not in hand.acted
                                and hand.stage.is_betting)
                else:
                    state = SeatState.OUT
            lines.append(SeatLine(player=player,
                                  position=seat.position if seat is not None else 0,
                                  phone=bool(seat is not None and seat.held), stack=stack,
                                  put=put, state=state, may_stay=may_stay,
                                  dealer=player == dealer))
        return tuple(lines)

    @staticmethod
    def _turn(table: Table, hand: rules.Hand, stack: int) -> Turn | None:
        """The decision of the player to act, from the rules (``stack``: a starting stack)."""
        player = rules.next_to_act(hand)
        if player is None:
            return None
        seat = next((s for s in table.seats if s.name == player), None)
        return Turn(player=player, position=seat.position if seat is not None else 0,
                    phone=bool(seat is not None and seat.held),
                    verbs=rules.legal_actions(hand), to_call=rules.to_call(hand),
                    stack=hand.stack(player), put=hand.put[hand.seats.index(player)],
                    most=rules.max_amount(hand), amounts=rules.amount_choices(hand),
                    short=rules.shortfall(hand), buys=rules.buy_choices(hand, stack))

    # -- rounds

    def round_to_confirm(self, view: View, draft: round_store.RoundDraft) -> dict[str, Any]:
        """The hand in the record's form, once it is over (working facts left out)."""
        if view.phase is not Phase.HAND_OVER:
            abort(409, _("The hand is not over yet: it joins the record by itself when it is."))
        return rules.finished_hand(draft.facts)

    def correction_values(self, view: View, facts: Mapping[str, Any]) -> dict[str, Any]:
        """The correction form filled in from a hand's facts."""
        return {"fields": forms.hand_fields(view.players, facts), "tell": rules.hand_story}

    def correction_values_from_form(self, view: View, form: MultiDict[str, str],
                                    ) -> dict[str, Any]:
        """The correction form as it was sent."""
        return {"fields": forms.hand_fields_from_form(view.players, form),
                "tell": rules.hand_story}

    def read_correction(self, view: View, form: MultiDict[str, str],
                        old: Mapping[str, Any]) -> dict[str, Any]:
        """A corrected hand from the form (FormError); the rules check it after."""
        return forms.read_hand(form, view.players)


def _last_hand_unfinished(number: int) -> str:
    """Why a hand in the record that is not over stops the game (phase ``check``)."""
    return _("The record's last hand (hand %(number)s) is not over: undo it to play it on.",
             number=number)


def _with_reveal(view: HandView) -> HandView:
    """The view with the latest reveal (or fold win) of its story to show."""
    shown = [e for e in view.story
             if e.kind in (rules.Happening.REVEAL, rules.Happening.WON_BY_FOLD)]
    return replace(view, reveal=shown[-1] if shown else None)


def _undo_text(facts: Mapping[str, Any], log: list[rules.Done],
               clash: Mapping[str, Any] | None) -> str | None:
    """What the tablet's undo would take back, as it says on the button."""
    if clash:
        return _("the cards laid at this reveal (everyone lays again)")
    if not log:
        return None
    last = log[-1]
    if last is rules.Done.BUY:
        name, chips = (facts.get("buys") or [["?", 0]])[-1]
        return _("%(name)s's buy of %(chips)s", name=name, chips=chips)
    if last is rules.Done.START:
        return _("the deal (the antes go back)")
    if last is rules.Done.DRAW:
        return _("the discard and draw")
    if last is rules.Done.SHOW:
        reveal = rules.REVEALS[len(facts.get("shows") or []) - 1].value
        return _("the %(reveal)s reveal", reveal=reveal)
    call = next(c for c in reversed(facts.get("calls") or []) if c)
    return _action_text(rules.Action.from_entry(call[-1]))


def _action_text(action: rules.Action) -> str:
    """A betting action as the undo button names it: "Bo's raise of 10"."""
    player, verb, amount = action.player, action.verb, action.amount
    if amount:
        if verb is rules.Verb.BET:
            return _("%(player)s's bet of %(amount)s", player=player, amount=amount)
        if verb is rules.Verb.RAISE:
            return _("%(player)s's raise of %(amount)s", player=player, amount=amount)
    if verb is rules.Verb.CHECK:
        return _("%(player)s's check", player=player)
    if verb is rules.Verb.CALL:
        return _("%(player)s's call", player=player)
    if verb is rules.Verb.FOLD:
        return _("%(player)s's fold", player=player)
    return _("%(player)s's stay", player=player)


FLOW = TrefeltrompFlow()


__all__ = ["BETTING_PHASES", "FLOW", "HAND_PHASES", "REVEAL_PHASES", "HandView", "Phase",
           "Ready", "RevealStep", "SeatLine", "SeatState", "Turn", "bp", "play_on"]
