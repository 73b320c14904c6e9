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

from dataclasses import asdict

from flask import Response, abort, request

from ....rules import RuleError
from ....rules import trumplestiltskin as rules
from ....rules.cards import Joker, parse_card
from ....store import rounds as round_store
from ...actions import Act, Who, game_action
from ...forms import FormError
from ...live import is_htmx
from ...regions import phone_region, tablet_region
from . import forms
from .flow import HandView, Phase, bp

SEAT = "/seats/<int:position>"
OVER = "The bidding is over."
NO_POINTS = "Points are entered once the Gnome is turned over and trump is known."


def refuse(act: Act, status: int, message: str) -> Response:
    """Refuse with ``message`` on top of the screen's round region (htmx), or an error page."""
    message = message[:1].upper() + message[1:]
    if not message.endswith((".", "?", "!")):
        message += "."
    if is_htmx() and not request.headers.get("HX-Boosted"):
        region = (tablet_region(act.table, error=message) if act.keeper
                  else phone_region(act.table, error=message))
        return Response(region, status=status)
    abort(status, message)


def _view(act: Act) -> HandView:
    assert isinstance(act.view, HandView)
    return act.view


def _player(act: Act, position: int) -> str:
    """The player in seat ``position`` (a phone's own seat was checked by ``game_action``)."""
    seat = act.table.seat_at(position)
    if seat is None or seat.name not in act.game.players:
        abort(404, f"There is no player in seat {position}.")
    return seat.name


def _stale(act: Act, view: HandView) -> Response | None:
    """Refuse a bidding tap made before the last bid or pass this screen had not seen."""
    try:
        seen = forms.read_speech_count(act.form)
    except FormError as error:
        return refuse(act, 400, str(error))
    if seen == view.speech_count:
        return None
    last = view.last_speech
    moved = f" ({last})" if last is not None and seen < view.speech_count else ""
    return refuse(act, 409, f"The bidding changed a moment ago{moved}. Look again and tap "
                            "once more")


def _speak(act: Act, view: HandView, speech: rules.Speech) -> Response | None:
    """Add a bid or a pass to the bidding once the rules allow it, and the screen was current.

    Out of turn (or passed already) is a tap at the wrong moment (409); so is a tap
    from a screen that missed the last speech; a bid not higher than the top one is
    bad input (400).
    """
    assert view.auction is not None
    try:
        view.auction.check(speech)
        low = None
    except RuleError as error:
        if speech.player != view.to_speak:
            return refuse(act, 409, str(error))
        low = str(error)
    stale = _stale(act, view)
    if stale is not None:
        return stale
    if low is not None:
        return refuse(act, 400, low)
    said = "pass" if speech.bid is None else speech.bid
    bids = [*(act.draft.facts.get("bids") or []), [speech.player, said]]
    round_store.update_facts(act.draft, {"bids": bids, "proposal": None})
    return None


def _taker_or_keeper(act: Act, view: HandView) -> Response | None:
    """Only the taker's phone (or the tablet) turns the Gnome over."""
    if act.keeper or act.player == view.taker:
        return None
    return refuse(act, 403, f"{view.taker} took the bid: {view.taker}'s phone or the "
                            "scorekeeper enters the Gnome card")


# --------------------------------------------------------------------------- the bidding


@bp.post(SEAT + "/bid")
@game_action(Who.PLAYER, Phase.AUCTION, refuse=OVER)
def bid(act: Act, position: int):
    """Bid (the number typed or stepped to), or step the bid control by −1, +1 or +5."""
    view, player = _view(act), _player(act, position)
    if act.form.get("adjust"):
        try:
            step = forms.read_step(act.form)
        except FormError as error:
            return refuse(act, 400, str(error))
        if player != view.to_speak:
            return refuse(act, 409, f"It is {view.to_speak}'s turn to bid, not {player}'s")
        stale = _stale(act, view)
        if stale is not None:
            return stale
        assert view.auction is not None
        value = view.auction.stepped(forms.typed_bid(act.form), step)
        round_store.update_facts(act.draft, {"proposal": {
            "speech": view.speech_count, "bid": value, "taps": view.proposal_taps + 1}})
        return None
    try:
        amount = forms.read_bid(act.form)
    except FormError as error:
        return refuse(act, 400, str(error))
    return _speak(act, view, rules.Speech(player, amount))


@bp.post(SEAT + "/pass")
@game_action(Who.PLAYER, Phase.AUCTION, refuse=OVER)
def pass_(act: Act, position: int):
    """Pass: out of the bidding for this hand."""
    view, player = _view(act), _player(act, position)
    return _speak(act, view, rules.Speech(player, None))


@bp.post(SEAT + "/looked")
@game_action(Who.PLAYER, Phase.AUCTION,
             refuse="The bidding is over: a look at the Gnome is recorded before bidding "
                    "or passing.")
def looked(act: Act, position: int):
    """Record that a player looked at the Gnome (``looked=yes``), or take it back (``no``)."""
    view, player = _view(act), _player(act, position)
    said = act.form.get("looked")
    if said not in ("yes", "no"):
        return refuse(act, 400, f"Say whether {player} looked at the Gnome")
    if said == "yes" and view.passed(player):
        return refuse(act, 409, f"{player} passed and is out of the bidding: a look at the "
                                "Gnome is recorded before bidding or passing")
    names = set(view.looked) | {player} if said == "yes" else set(view.looked) - {player}
    round_store.update_facts(act.draft,
                             {"looked": [p for p in view.players if p in names] or None})
    return None


@bp.post("/take-back")
@game_action(Who.PLAYER, Phase.AUCTION, Phase.GNOME, Phase.THROWN,
             refuse="The Gnome is turned over: correct the hand after it is confirmed.")
def take_back(act: Act):
    """Take back the last bid or pass (a slip of the finger): its player's phone or the tablet."""
    view = _view(act)
    stale = _stale(act, view)
    if stale is not None:
        return stale
    last = view.last_speech
    if last is None:
        return refuse(act, 409, "Nobody has bid or passed yet this hand")
    if not act.keeper and act.player != last.player:
        return refuse(act, 403, f"Only {last.player}'s phone or the scorekeeper can take back "
                                f"“{last}”")
    bids = list(act.draft.facts.get("bids") or [])[:-1]
    round_store.update_facts(act.draft, {"bids": bids or None, "gnome": None, "trump": None,
                                         "proposal": None})
    return None


# --------------------------------------------------------------------------- the Gnome


@bp.post("/gnome")
@game_action(Who.PLAYER, Phase.GNOME, refuse="The Gnome card is entered once the bidding "
                                             "is over, before the points.")
def gnome(act: Act):
    """The taker turns the Gnome over: its card (a 9 gives trump; for a joker, pick it next)."""
    view = _view(act)
    not_yours = _taker_or_keeper(act, view)
    if not_yours is not None:
        return not_yours
    try:
        card = forms.read_gnome(act.form.get("card", ""))
    except FormError as error:
        return refuse(act, 400, str(error))
    trump = None if isinstance(card, Joker) else str(rules.trump_for(card))
    round_store.update_facts(act.draft, {"gnome": str(card), "trump": trump})
    return None


@bp.post("/trump")
@game_action(Who.PLAYER, Phase.GNOME, refuse="Trump is already known.")
def trump(act: Act):
    """The Gnome is a joker: the taker picks trump from its two suits."""
    view = _view(act)
    not_yours = _taker_or_keeper(act, view)
    if not_yours is not None:
        return not_yours
    if view.gnome is None:
        return refuse(act, 409, "Turn the Gnome over first: which card is it?")
    try:
        suit = rules.trump_for(parse_card(view.gnome), act.form.get("suit") or None)
    except RuleError as error:
        return refuse(act, 400, str(error))
    round_store.update_facts(act.draft, {"trump": str(suit)})
    return None


@bp.post("/gnome/clear")
@game_action(Who.PLAYER, Phase.GNOME, Phase.POINTS, Phase.TALLY,
             refuse="There is no Gnome card to take back now.")
def clear_gnome(act: Act):
    """The Gnome card was entered wrong: take it (and trump) back; points entered stay."""
    view = _view(act)
    not_yours = _taker_or_keeper(act, view)
    if not_yours is not None:
        return not_yours
    round_store.update_facts(act.draft, {"gnome": None, "trump": None})
    return None


# --------------------------------------------------------------------------- points


@bp.post(SEAT + "/points")
@game_action(Who.PLAYER, Phase.POINTS, Phase.TALLY, refuse=NO_POINTS)
def points(act: Act, position: int):
    """Enter a player's points: typed (``how=number``), counted (``count``), or ``clear``."""
    view, player = _view(act), _player(act, position)
    how = act.form.get("how", "number")
    entered = dict(view.points)
    entered.pop(player, None)
    if how == "clear":
        round_store.update_facts(act.draft, {"points": entered or None})
        return None
    if how == "count":
        value = view.count_of(player).points
    elif how == "number":
        try:
            value = forms.read_points(act.form)
        except FormError as error:
            return refuse(act, 400, str(error))
    else:
        return refuse(act, 400, "Type the points, or enter the counted ones")
    entered[player] = value
    assert view.gnome is not None and view.trump is not None
    card = parse_card(view.gnome)
    try:
        rules.check_points(entered, len(view.players), card, rules.trump_for(card, view.trump))
    except RuleError as error:
        return refuse(act, 400, f"{player}'s {value} points: {error}")
    round_store.update_facts(act.draft, {"points": {p: entered[p] for p in view.players
                                                    if p in entered}})
    return None


@bp.post(SEAT + "/count")
@game_action(Who.PLAYER, Phase.POINTS, Phase.TALLY, refuse=NO_POINTS)
def count(act: Act, position: int):
    """Count a player's cards: one more or one fewer ace or king, trump card or joker; or reset."""
    view, player = _view(act), _player(act, position)
    by = act.form.get("by", "")
    try:
        if by == "reset":
            counted = rules.Count()
        elif by in ("1", "-1"):
            counted = view.count_of(player).add(act.form.get("what", ""), int(by))
        else:
            return refuse(act, 400, "Count one more or one fewer, or start again")
    except RuleError as error:
        return refuse(act, 400, str(error))
    counts = dict(act.draft.facts.get("counts") or {})
    counts[player] = asdict(counted)
    round_store.update_facts(act.draft, {"counts": counts})
    return None
