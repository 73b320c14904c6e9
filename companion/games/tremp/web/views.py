"""Tremp's own actions, under ``/t/<code>/games/<n>/tremp/``: bids from the phones and the
tablet, undoing the last bid, the tricks, the tablet's trick counter, and the trick judge.

Checklist ticks, confirm, undo and corrections are every game's
(``companion.web.rounds``). A refusal (out of turn, a card already displayed,
a tap for a moment that has passed) comes back as the actor's round region
with the message on top, so it shows where the player looks; nothing changes.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import abort, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from companion.rules import RuleError
from companion.rules.cards import SUITS, Suit, SuitCard
from companion.rules.common import clockwise_from
from companion.store import rounds as round_store
from companion.web.actions import Act, Who, game_action, load_game, refusal
from companion.web.filters import number
from companion.web.forms import FormError
from companion.web.limits import wrong_codes
from companion.web.roles import is_keeper, phone
from companion.web.words import sentence

from .. import rules
from . import forms
from .flow import FLOW, HandView, Phase, bp, hand_label

AFTER_BIDDING = (Phase.PLAY, Phase.SCORE)

PLACES = (_l("first"), _l("second"), _l("third"), _l("fourth"))
"""A card's place in a trick, in words."""



def _not_now(view: HandView) -> str:
    """Why a tap for another moment of the hand is refused."""
    if not isinstance(view, HandView):
        return _("There is no hand being played now.")
    if view.phase is Phase.END:
        return _("The game is over: its record stays as it is.")
    if view.phase is Phase.BIDDING:
        return _("The bidding is not over yet: it is %(name)s's turn.", name=view.turn)
    return _("The bidding is over: %(name)s won it at %(bid)s, trump %(suit)s.",
             name=view.bidder, bid=number(view.bidding.bid), suit=view.bidding.trump)


# --------------------------------------------------------------------------- the bidding


@bp.post("/seats/<int:position>/bid")
@game_action(Who.PLAYER, Phase.BIDDING, refuse=_not_now,
             moment=_l("The bidding moved on a moment ago: look again, then tap."))
def bid(act: Act, position: int):
    """Display a card (it raises the bid by one and names trump) or pass, in turn.

    A phone bids for its own seat; the tablet for any seat (a player without
    a phone).
    """
    view = act.view_as(HandView)
    seat = act.table.seat_at(position)
    if seat is None or seat.name not in view.players:
        return refusal(act, _("There is no player in seat %(position)s.", position=position), 404)
    player = seat.name
    if view.turn != player:
        if act.player == player:
            return refusal(act, _("It is %(name)s's turn to bid, not yours.", name=view.turn))
        return refusal(act, _("It is %(turn)s's turn to bid, not %(name)s's.", turn=view.turn,
                              name=player))
    what = act.form.get("bid")
    if what == "pass":
        if view.must_bid:
            return refusal(act, _("%(names)s passed: %(name)s, the dealer, must bid (house "
                                  "rule). Display a card.", names=view.passed_three,
                                  name=player))
        entry = [player, "pass"]
    elif what == "display":
        try:
            card = forms.read_card(act.form)
        except FormError as error:
            return refusal(act, sentence(error), 400)
        shown = next((d for d in view.bidding.displayed if d.card == card), None)
        if shown is not None:
            return refusal(act, _("%(card)s is already displayed by %(name)s: pick another "
                                  "card.", card=card, name=shown.player))
        entry = [player, str(card)]
    else:
        return refusal(act, _("Display a card or pass."), 400)
    bids = [[p, w] for p, w in view.bids] + [entry]
    try:
        rules.bidding_status(bids, view.players, view.dealer, hand_label(view.round_number))
    except RuleError as error:
        return refusal(act, sentence(error))
    round_store.update_facts(act.draft, {"bids": bids})
    return None


@bp.post("/bids/undo")
@game_action(Who.KEEPER, Phase.BIDDING, *AFTER_BIDDING, refuse=_not_now,
             moment=_l("The bidding changed a moment ago: look again, then undo."))
def undo_bid(act: Act):
    """Take back the last bid of the hand (and any tricks entered after the bidding)."""
    view = act.view_as(HandView)
    if not view.bids:
        return refusal(act, _("No one has bid in this hand yet."))
    round_store.update_facts(act.draft, {"bids": [list(b) for b in view.bids[:-1]] or None,
                                         "tricks": None, "trick_taps": None})
    return None


# --------------------------------------------------------------------------- the tricks


@bp.post("/tricks")
@game_action(Who.PLAYER)
def tricks(act: Act):
    """The tricks the bidding team took: the tablet, or either partner's phone."""
    view = act.view_as(HandView)
    if view.phase not in AFTER_BIDDING:
        return refusal(act, _not_now(view))
    if not view.can_enter_tricks:
        return refusal(act, _("Only %(names)s (who won the bid) or the scorekeeper enter the "
                              "tricks.", names=view.either_bidder), 403)
    try:
        taken = forms.read_tricks(act.form, view.bidding_team or "")
    except FormError as error:
        return refusal(act, sentence(error), 400)
    round_store.update_facts(act.draft, {"tricks": taken})
    return None


def _counter(act: Act):
    """The hand and its trick count for a tap of the counter (the bidding is over)."""
    view = act.view_as(HandView)
    if view.count is None:
        abort(409, _not_now(view))
    return view, view.count


@bp.post("/counter")
@game_action(Who.KEEPER, *AFTER_BIDDING, refuse=_not_now,
             moment=_l("That trick was counted a moment ago: look again, then tap."))
def count_trick(act: Act):
    """The trick counter: one tap on the seat that won the trick just played.

    The 13th tap sets the bidding team's tricks.
    """
    view, count = _counter(act)
    assert view.bidder is not None
    if count.complete:
        return refusal(act, _("All %(tricks)s tricks are counted. Undo a tap to change one.",
                              tricks=rules.TRICKS))
    try:
        position = forms.read_position(act.form, len(view.players))
    except FormError as error:
        return refusal(act, sentence(error), 400)
    winners = [*count.winners, view.players[position - 1]]
    after = rules.count_tricks(view.players, winners, view.bidder)
    changes: dict[str, object] = {"trick_taps": winners}
    if after.complete:
        changes["tricks"] = after.of_team(view.bidder)
    round_store.update_facts(act.draft, changes)
    return None


@bp.post("/counter/undo")
@game_action(Who.KEEPER, *AFTER_BIDDING, refuse=_not_now,
             moment=_l("The trick counter changed a moment ago: look again, then undo."))
def uncount_trick(act: Act):
    """Take back the trick counter's last tap (and the tricks it set, if it set them)."""
    view, count = _counter(act)
    if not count.played:
        return refusal(act, _("No trick has been counted yet."))
    changes: dict[str, object] = {"trick_taps": list(count.winners[:-1]) or None}
    if view.counted is not None and view.tricks == view.counted:
        changes["tricks"] = None
    round_store.update_facts(act.draft, changes)
    return None


# --------------------------------------------------------------------------- the trick judge


@dataclass(frozen=True)
class Judge:
    """The "who won this trick?" screen: the cards tapped so far, trump, and who led."""

    view: HandView
    cards: tuple[SuitCard, ...]
    trump: Suit | None
    lead: str | None
    hand_trump: Suit | None
    keeper: bool
    result: rules.TrickResult | None

    @property
    def order(self) -> tuple[str, ...]:
        """Who played the first, second … card (known once the leader is)."""
        return tuple(clockwise_from(self.view.players, self.lead)) if self.lead else ()

    @property
    def winner(self) -> str | None:
        """Who won the trick, once four cards are in and the leader is known."""
        if self.result is None or not self.order:
            return None
        return self.order[self.result.index]

    @property
    def winner_position(self) -> int | None:
        """The winner's seat, for the trick counter."""
        return next((p.position for p in self.view.board if p.player == self.winner), None)

    @property
    def winning_place(self) -> str | None:
        """Which card won, in words (``fourth``), once four cards are in."""
        return PLACES[self.result.index] if self.result is not None else None

    @property
    def can_count(self) -> bool:
        """True on the tablet when this trick's winner can go straight to the trick counter."""
        count = self.view.count
        return (self.keeper and self.winner is not None and count is not None
                and not count.complete and self.view.phase in AFTER_BIDDING)

    @property
    def back(self) -> str:
        """The screen this one was opened from."""
        table = self.view.table
        if self.keeper:
            return url_for("tables.keeper", code=table.code) + "#round"
        if self.view.me is not None:
            return url_for("seats.seat", code=table.code) + "#round"
        return url_for("games.game", code=table.code, number=self.view.game.number)

    @property
    def full(self) -> bool:
        """True once the four cards are in."""
        return len(self.cards) == rules.TRICK_CARDS

    @property
    def suits(self) -> tuple[Suit, ...]:
        """The suits to pick trump from."""
        return SUITS

    @property
    def place(self) -> dict[str, int]:
        """Each tapped card's place in the trick (1 to 4), by picker code."""
        return {card.ascii: k for k, card in enumerate(self.cards, 1)}

    def url(self, *, cards: tuple[SuitCard, ...] | None = None, trump: Suit | None = None,
            lead: str | None = None) -> str:
        """This screen with some of its choices changed."""
        query = forms.trick_query(self.cards if cards is None else cards,
                                  trump or self.trump, lead or self.lead)
        table = self.view.table
        return url_for("tremp.judge", code=table.code, number=self.view.game.number, **query)

    def with_card(self, card: SuitCard) -> str:
        """This screen with one more card played."""
        return self.url(cards=(*self.cards, card))

    def without_last(self) -> str:
        """This screen with the last card taken back."""
        return self.url(cards=self.cards[:-1])

    def restart(self) -> str:
        """This screen with no card played (trump and the leader kept)."""
        return self.url(cards=())


@bp.get("/judge")
@wrong_codes
def judge(code: str, number: int):
    """Who won this trick? Tap the four cards in the order played; it names the winner and
    the rule that decided. Trump is the hand's, once the bidding is over."""
    table, game = load_game(code, number)
    keeper = is_keeper(table)
    seat = None if keeper else phone(table).seat
    view = FLOW.moment(table, game, seat.name if seat is not None else None)
    bidding = view.bidding
    hand_trump = bidding.trump if bidding is not None and bidding.ended else None
    try:
        cards, trump, lead = forms.read_trick(request.args, view.players, hand_trump)
    except FormError as error:
        abort(400, sentence(error))
    if lead is None and view.count is not None:
        lead = view.count.leader
    result = None
    if len(cards) == rules.TRICK_CARDS and trump is not None:
        result = rules.trick_winner(cards, trump)
    page = Judge(view=view, cards=tuple(cards), trump=trump, lead=lead, hand_trump=hand_trump,
                 keeper=keeper, result=result)
    return render_template("tremp/judge.html", judge=page, view=view, table=table, game=game,
                           keeper=keeper)
