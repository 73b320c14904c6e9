"""Trumplestiltskin's own actions, under ``/t/<code>/games/<n>/trumplestiltskin/``: bids and
passes, looks at the Gnome, the Gnome card and trump, points typed or counted.

A phone acts for its own seat; the scorekeeper's tablet for any seat (a
player without a phone, a phone gone flat). Checklist ticks, confirm, undo
and corrections are every game's (``companion.web.rounds``).

A refusal the player can act on (a bid not higher than the top bid, a tap
out of turn, points beyond what the hand holds) comes back as the screen's
own round region with the message on top, where the player looks; nothing
is changed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict
from functools import wraps
from typing import Any

from flask import Response, request
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from companion.rules import RuleError
from companion.rules.cards import Joker, parse_card
from companion.store import rounds as round_store
from companion.web.actions import Act, Who, game_action, refusal
from companion.web.forms import FormError
from companion.web.words import say

from .. import rules
from . import forms
from .flow import HandView, Phase, bp

SEAT = "/seats/<int:position>"
OVER = _l("The bidding is over.")
NO_POINTS = _l("Points are entered once the Gnome is turned over and trump is known.")


class Refusal(Exception):
    """A tap the hand cannot take: its status (400 bad input, 403, 409 wrong moment), why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def refusing(view: Callable[..., None]) -> Callable[..., Response | None]:
    """Turn a :class:`Refusal` into a refusal where the player looks; a form that does not
    read, or what the rules refuse, is bad input (400)."""

    @wraps(view)
    def act_or_refuse(act: Act, **values: Any) -> Response | None:
        try:
            view(act, **values)
        except Refusal as refused:
            return refusal(act, str(refused), refused.status)
        except (FormError, RuleError) as error:
            return refusal(act, say(error), 400)
        return None

    return act_or_refuse


def _bidding_changed(view: HandView, seen: str) -> str:
    """Why a bidding tap made before a bid or pass this screen had not seen is refused: out
    of turn, when it is (what the player must hear first), else the bidding moved on."""
    out_of_turn = _out_of_turn(view)
    if out_of_turn is not None:
        return out_of_turn
    last = view.last_speech
    behind = seen.isascii() and seen.isdigit() and int(seen) < view.speech_count
    if last is not None and behind:
        return _("The bidding changed a moment ago (%(speech)s). Look again and tap once more",
                 speech=say(last.phrase))
    return _("The bidding changed a moment ago. Look again and tap once more")


def _out_of_turn(view: HandView) -> str | None:
    """The rules' refusal of this bid or pass from a seat whose turn it is not (None: it is
    theirs, the tap is no seat's, or its bid does not read)."""
    position = (request.view_args or {}).get("position")
    seat = view.table.seat_at(position) if isinstance(position, int) else None
    if seat is None or seat.name == view.auction.to_speak:
        return None
    if request.form.get("adjust"):
        return _("It is %(turn)s's turn to bid, not %(name)s's", turn=view.auction.to_speak,
                 name=seat.name)
    try:
        bid = None if request.path.endswith("/pass") else forms.read_bid(request.form)
        view.auction.check(rules.Speech(seat.name, bid))
    except FormError:
        return None
    except RuleError as error:
        return say(error)
    return None


def _speak(act: Act, view: HandView, speech: rules.Speech) -> None:
    """Add a bid or a pass to the bidding once the rules allow it (the screen was current).

    Out of turn (or passed already) is a tap at the wrong moment (409); a bid not
    higher than the top one is bad input (400).
    """
    if speech.player != view.auction.to_speak:
        try:
            view.auction.check(speech)
        except RuleError as error:
            raise Refusal(409, say(error)) from None
    view.auction.check(speech)  # not higher than the top bid: bad input
    said = "pass" if speech.bid is None else speech.bid
    bids = [*(act.draft.facts.get("bids") or []), [speech.player, said]]
    round_store.update_facts(act.draft, {"bids": bids, "proposal": None})


def _taker_or_keeper(act: Act) -> HandView:
    """The moment, when the taker's phone (or the tablet) acts: they turn the Gnome over."""
    view = act.view_as(HandView)
    taker = view.auction.taker
    if not act.keeper and act.player != taker:
        raise Refusal(403, _("%(taker)s took the bid: %(taker)s's phone or the scorekeeper "
                             "enters the Gnome card", taker=taker))
    return view


# --------------------------------------------------------------------------- the bidding


@bp.post(SEAT + "/bid")
@game_action(Who.PLAYER, Phase.AUCTION, refuse=OVER, moment=_bidding_changed)
@refusing
def bid(act: Act, position: int) -> None:
    """Bid (the number typed, or the stepper's), or step the stepper by −1, +1 or +5."""
    view, player = act.view_as(HandView), act.player_at(position)
    if not act.form.get("adjust"):
        _speak(act, view, rules.Speech(player, forms.read_bid(act.form)))
        return
    step = forms.read_step(act.form)
    if player != view.auction.to_speak:
        raise Refusal(409, _("It is %(turn)s's turn to bid, not %(name)s's",
                             turn=view.auction.to_speak, name=player))
    value = view.auction.stepped(forms.typed_bid(act.form), step)
    round_store.update_facts(act.draft, {"proposal": {
        "speech": view.speech_count, "bid": value, "taps": view.proposal_taps + 1}})


@bp.post(SEAT + "/pass")
@game_action(Who.PLAYER, Phase.AUCTION, refuse=OVER, moment=_bidding_changed)
@refusing
def pass_(act: Act, position: int) -> None:
    """Pass: out of the bidding for this hand."""
    _speak(act, act.view_as(HandView), rules.Speech(act.player_at(position), None))


@bp.post(SEAT + "/looked")
@game_action(Who.PLAYER, Phase.AUCTION,
             refuse=_l("The bidding is over: a look at the Gnome is recorded before bidding "
                       "or passing."))
@refusing
def looked(act: Act, position: int) -> None:
    """Record that a player looked at the Gnome (``looked=yes``), or take it back (``no``)."""
    view, player = act.view_as(HandView), act.player_at(position)
    said = act.form.get("looked")
    if said not in ("yes", "no"):
        raise Refusal(400, _("Say whether %(name)s looked at the Gnome", name=player))
    if said == "yes" and view.passed(player):
        raise Refusal(409, _("%(name)s passed and is out of the bidding: a look at the Gnome "
                             "is recorded before bidding or passing", name=player))
    names = set(view.looked) | {player} if said == "yes" else set(view.looked) - {player}
    round_store.update_facts(act.draft,
                             {"looked": [p for p in view.players if p in names] or None})


@bp.post("/take-back")
@game_action(Who.PLAYER, Phase.AUCTION, Phase.GNOME, Phase.THROWN,
             refuse=_l("The Gnome is turned over: correct the hand after it is confirmed."),
             moment=_bidding_changed)
@refusing
def take_back(act: Act) -> None:
    """Take back the last bid or pass (a slip of the finger): its player's phone or the tablet."""
    view = act.view_as(HandView)
    last = view.last_speech
    if last is None:
        raise Refusal(409, _("Nobody has bid or passed yet this hand"))
    if not act.keeper and act.player != last.player:
        raise Refusal(403, _("Only %(name)s's phone or the scorekeeper can take back "
                             "“%(speech)s”", name=last.player, speech=say(last.phrase)))
    bids = list(act.draft.facts.get("bids") or [])[:-1]
    round_store.update_facts(act.draft, {"bids": bids or None, "gnome": None, "trump": None,
                                         "proposal": None})


# --------------------------------------------------------------------------- the Gnome


@bp.post("/gnome")
@game_action(Who.PLAYER, Phase.GNOME, refuse=_l("The Gnome card is entered once the bidding "
                                                "is over, before the points."))
@refusing
def gnome(act: Act) -> None:
    """The taker turns the Gnome over: its card (a 9 gives trump; for a joker, pick it next)."""
    _taker_or_keeper(act)
    card = forms.read_gnome(act.form.get("card", ""))
    trump = None if isinstance(card, Joker) else str(rules.trump_for(card))
    round_store.update_facts(act.draft, {"gnome": str(card), "trump": trump})


@bp.post("/trump")
@game_action(Who.PLAYER, Phase.GNOME, refuse=_l("Trump is already known."))
@refusing
def trump(act: Act) -> None:
    """The Gnome is a joker: the taker picks trump from its two suits."""
    view = _taker_or_keeper(act)
    if view.gnome is None:
        raise Refusal(409, _("Turn the Gnome over first: which card is it?"))
    suit = rules.trump_for(parse_card(view.gnome), act.form.get("suit") or None)
    round_store.update_facts(act.draft, {"trump": str(suit)})


@bp.post("/gnome/clear")
@game_action(Who.PLAYER, Phase.GNOME, Phase.POINTS, Phase.TALLY,
             refuse=_l("There is no Gnome card to take back now."))
@refusing
def clear_gnome(act: Act) -> None:
    """The Gnome card was entered wrong: take it (and trump) back; points entered stay."""
    _taker_or_keeper(act)
    round_store.update_facts(act.draft, {"gnome": None, "trump": None})


# --------------------------------------------------------------------------- points


@bp.post(SEAT + "/points")
@game_action(Who.PLAYER, Phase.POINTS, Phase.TALLY, refuse=NO_POINTS)
@refusing
def points(act: Act, position: int) -> None:
    """Enter a player's points: typed (``how=number``), counted (``count``), or ``clear``."""
    view, player = act.view_as(HandView), act.player_at(position)
    how = act.form.get("how", "number")
    entered = {p: n for p, n in view.points.items() if p != player}
    if how == "clear":
        round_store.update_facts(act.draft, {"points": entered or None})
        return
    if how == "count":
        entered[player] = view.count_of(player).points
    elif how == "number":
        entered[player] = forms.read_points(act.form)
    else:
        raise Refusal(400, _("Type the points, or enter the counted ones"))
    assert view.gnome is not None and view.trump is not None
    card = parse_card(view.gnome)
    try:
        rules.check_points(entered, len(view.players), card, rules.trump_for(card, view.trump))
    except RuleError as error:
        raise Refusal(400, _("%(name)s's %(points)s points: %(error)s", name=player,
                             points=entered[player], error=say(error))) from None
    round_store.update_facts(act.draft, {"points": {p: entered[p] for p in view.players
                                                    if p in entered}})


@bp.post(SEAT + "/count")
@game_action(Who.PLAYER, Phase.POINTS, Phase.TALLY, refuse=NO_POINTS)
@refusing
def count(act: Act, position: int) -> None:
    """Count a player's cards: one more or one fewer ace or king, trump card or joker; or reset."""
    view, player = act.view_as(HandView), act.player_at(position)
    by = act.form.get("by", "")
    if by not in ("1", "-1", "reset"):
        raise Refusal(400, _("Count one more or one fewer, or start again"))
    counted = (rules.Count() if by == "reset"
               else view.count_of(player).add(act.form.get("what", ""), int(by)))
    counts = dict(act.draft.facts.get("counts") or {})
    counts[player] = asdict(counted)
    round_store.update_facts(act.draft, {"counts": counts})
