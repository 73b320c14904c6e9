"""Tromplemond's own actions, under ``/t/<code>/games/<n>/tromplemond/``: the timer, the vote,
hands from the phones and the tablet, TROMP! calls, penalties, and the end's card cut.

Checklist ticks, confirm, undo and corrections are every game's
(``companion.web.rounds``); the slips are every sealed choice's
(``companion.web.vote``).
"""

from __future__ import annotations

from typing import Any

from flask import abort, redirect, render_template, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from companion.rules import RuleError
from companion.store import rounds as round_store
from companion.store import sealed
from companion.web.actions import Act, Who, game_action, keeper_game, load_game, require_playing
from companion.web.forms import FormError
from companion.web.limits import wrong_codes
from companion.web.roles import require_seat_at
from companion.web.words import and_list, say

from .. import store
from . import forms
from .flow import FLOW, Phase, RoundView, bp

PLAYING_ROUND = (Phase.DEAL, Phase.VOTE, Phase.HANDS)


@bp.post("/timer")
@game_action(Who.KEEPER, Phase.DEAL,
             refuse=_l("The interrogation is over: the round has moved on to the vote."))
def timer(act: Act):
    """Start, pause or end the 5-minute interrogation."""
    action = act.form.get("action")
    if action == "start":
        store.start_timer(act.draft)
    elif action == "pause":
        store.pause_timer(act.draft)
    elif action == "end":
        store.end_timer(act.draft)
    else:
        abort(400, _("Start, pause or end the timer."))


@bp.post("/vote")
@game_action(Who.KEEPER, Phase.DEAL, refuse=_l("The vote of this round is already open."))
def open_vote(act: Act):
    """End the interrogation and open the secret vote: every phone gets its slip."""
    store.end_timer(act.draft)
    store.open_vote(act.game, act.draft.round_index)


@bp.post("/cut")
@game_action(Who.KEEPER, Phase.VOTE, refuse=_l("There is no tie to settle now."))
def card_cut(act: Act):
    """Settle a tie of the vote by a card cut: the scorekeeper records who goes off.

    The answer is the same redirect whoever goes off, so nothing of the name
    shows in the size of the answer or the access log.
    """
    try:
        store.record_cut(act.game, act.draft.round_index, act.form.get("name", ""))
    except sealed.SealError as error:
        abort(error.status, say(error.phrase))
    act.after_commit.append(sealed.scrub)
    return redirect(url_for("tables.keeper", code=act.table.code) + "#round", code=303)


@bp.post("/shown-early")
@game_action(Who.KEEPER)
def shown_early(act: Act):
    """Someone showed cards before the vote was settled: they go off, no vote is held."""
    player = act.form.get("player", "")
    facts = act.draft.facts
    if player == "" and facts.get("shown_early") is not None:
        if facts.get("hands"):
            abort(409, _("Hands are entered already: correct who went off after the round is "
                         "confirmed, or clear the hands first."))
        round_store.update_facts(act.draft, {"shown_early": None})
        return None
    if player not in act.game.players:
        abort(400, _("Pick the player who showed their cards."))
    if act.view.phase not in (Phase.DEAL, Phase.VOTE) or facts.get("shown_early"):
        abort(409, _("The vote is settled already: cards shown now are the reveal."))
    sealed.discard(act.game, act.draft.round_index)
    store.end_timer(act.draft)
    called = [p for p in facts.get("called") or [] if p != player]
    round_store.update_facts(act.draft, {"shown_early": player, "voted_off": None,
                                         "called": called or None})
    return None


@bp.post("/forfeit")
@game_action(Who.KEEPER, *PLAYING_ROUND, refuse=_l("There is no round in progress."))
def forfeit(act: Act):
    """The dealer erred after public cards were dealt: their round score is 0 (or undo it).

    The form says the state it wants (``forfeit=yes|no``): sent twice, it stays as wanted.
    A page drawn before forms said so sends nothing: it turns the forfeit over, as it did.
    """
    now = bool(act.draft.facts.get("dealer_forfeit"))
    wanted = _wanted(act.form.get("forfeit"), now)
    if wanted != now:
        round_store.update_facts(act.draft, {"dealer_forfeit": True if wanted else None})


def _wanted(said: str | None, now: bool) -> bool:
    """The state a toggle's form wants: ``yes`` or ``no``; without one (a page drawn before
    forms said so), the other state than ``now``."""
    if said is None:
        return not now
    if said not in ("yes", "no"):
        abort(400, _("Tick it (yes) or untick it (no)."))
    return said == "yes"


@bp.post("/called")
@game_action(Who.KEEPER, Phase.HANDS,
             refuse=_l("TROMP! calls are ticked once the hands are revealed."))
def called(act: Act):
    """Tick (or untick) a survivor who shouted their TROMP! call correctly.

    The form says the state it wants (``called=yes|no``): sent twice, it stays as wanted.
    """
    view = act.view
    assert isinstance(view, RoundView) and view.options is not None
    if not view.options.tromp_stake:
        abort(409, _("TROMP! betting is off in this game."))
    player = act.form.get("player", "")
    line = next((h for h in view.hands if h.player == player), None)
    if line is None:
        abort(400, _("Pick a player."))
    shouted = list(act.draft.facts.get("called") or [])
    if line.off:
        abort(409, _("%(name)s went off and cannot win a TROMP! call.", name=player))
    if line.call is None and player not in shouted:
        abort(409, _("%(name)s's hand makes no TROMP! call.", name=player) if line.entered
              else _("%(name)s's hand makes no TROMP! call: it is not entered yet.", name=player))
    if _wanted(act.form.get("called"), player in shouted) == (player in shouted):
        return  # (sent twice: it is as wanted already)
    names = set(shouted) ^ {player}
    round_store.update_facts(act.draft,
                             {"called": [p for p in act.game.players if p in names] or None})


# --------------------------------------------------------------------------- hands


def _set_hand(act: Act, player: str, hand: dict[str, Any] | None) -> None:
    """Enter (or replace, or with ``None`` clear) ``player``'s hand; keep seat order."""
    hands = {p: h for p, h in (act.draft.facts.get("hands") or {}).items() if p != player}
    if hand is not None:
        hands[player] = hand
    changes: dict[str, Any] = {"hands": {p: hands[p] for p in act.game.players if p in hands}}
    if hand is None:
        changes["called"] = [p for p in act.draft.facts.get("called") or []
                             if p != player] or None
    round_store.update_facts(act.draft, changes)


def _hand_page(view: RoundView, player: str, *, keeper: bool, values: dict[str, Any],
               error: str | None = None, status: int = 200):
    line = next((h for h in view.hands if h.player == player), None)
    position = next(s.position for s in view.table.seats if s.name == player)
    return render_template("tromplemond/hand.html", tp=view, view=view, line=line,
                           player=player, position=position, keeper=keeper,
                           deck_rows=forms.DECK_ROWS, taken=view.taken_codes(player),
                           hand=values, error=error), status


def _hands_view(view: RoundView) -> None:
    if view.phase is not Phase.HANDS:
        abort(409, _("Hands are entered after the vote, when everyone reveals."))


@bp.get("/seats/<int:position>/hand")
@wrong_codes
def my_hand_page(code: str, number: int, position: int):
    """A phone's card picker for its own 5 cards (2 face up, 3 face down)."""
    table, game = load_game(code, number)
    seat = require_seat_at(table, position)
    require_playing(table, game)
    view = FLOW.moment(table, game, seat.name)
    if view.phase is not Phase.HANDS:
        return redirect(url_for("seats.seat", code=table.code) + "#round", code=303)
    data = view.mine.data if view.mine is not None else None
    return _hand_page(view, seat.name or "", keeper=False, values=forms.hand_fields(data))


def _save_hand(act: Act, player: str, read: Any):
    """Save ``player``'s hand as ``read`` reads it from the form, or show the form again."""
    try:
        hand = read(act.form, player)
    except FormError as error:
        return _hand_page(act.view, player, keeper=act.keeper, error=f"{error}.",
                          values=forms.hand_fields_from_form(act.form), status=400)
    _set_hand(act, player, hand)
    return None


@bp.post("/seats/<int:position>/hand")
@game_action(Who.SEAT, Phase.HANDS,
             refuse=_l("Hands are entered after the vote, when everyone reveals."))
def my_hand(act: Act, position: int):
    """A phone saves its own 5 cards from the picker."""
    return _save_hand(act, act.player or "", forms.read_picker)


def _keeper_player(view: RoundView, position: int) -> str:
    seat = view.table.seat_at(position)
    if seat is None or seat.name not in view.players:
        abort(404, _("There is no player in seat %(position)s.", position=position))
    return seat.name


@bp.get("/hands/<int:position>")
@wrong_codes
def keeper_hand_page(code: str, number: int, position: int):
    """The scorekeeper's form for any hand: the cards, the quick form, or clear it."""
    table, game = keeper_game(code, number)
    view = FLOW.moment(table, game)
    _hands_view(view)
    player = _keeper_player(view, position)
    line = next(h for h in view.hands if h.player == player)
    return _hand_page(view, player, keeper=True, values=forms.hand_fields(line.data))


@bp.post("/hands/<int:position>")
@game_action(Who.KEEPER, Phase.HANDS,
             refuse=_l("Hands are entered after the vote, when everyone reveals."))
def keeper_hand(act: Act, position: int):
    """The scorekeeper enters or corrects any hand: cards, the quick form, or clears it."""
    return _save_hand(act, _keeper_player(act.view, position), forms.read_hand)


# --------------------------------------------------------------------------- the end, penalties


@bp.post("/cut-winner")
@game_action(Who.KEEPER, Phase.CUT, same_round=False,
             refuse=_l("No card cut is due: the top total is not shared after an extra round."))
def cut_winner(act: Act):
    """Still tied after the extra round: record who won the card cut."""
    view = act.view
    assert isinstance(view, RoundView) and view.now is not None
    winner = act.form.get("player", "")
    if winner not in view.now.tied:
        abort(400, _("The card cut is between %(names)s: pick one.", names=and_list(view.now.tied)))
    index = len(act.game.rounds) - 1
    round_store.amend_round(act.game, index, act.game.rounds[index] | {"cut_winner": winner})


@bp.post("/penalty")
@game_action(Who.KEEPER, same_round=False)
def penalty(act: Act):
    """Shown on purpose (banned: the game is abandoned) or void; or take either back."""
    what = act.form.get("what")
    if what == "banned":
        player = act.form.get("player", "")
        if player not in act.game.players:
            abort(400, _("Pick the player who showed their cards on purpose."))
        round_store.set_flag(act.game, "banned", player)
    elif what == "void":
        round_store.set_flag(act.game, "void", True)
    elif what == "clear":
        round_store.set_flag(act.game, "banned", None)
        round_store.set_flag(act.game, "void", None)
    else:
        abort(400, _("Pick a penalty."))
    try:
        FLOW.replay(act.game.record())
    except RuleError as error:
        abort(400, f"{say(error)}.")


@bp.get("/penalties")
@wrong_codes
def penalties(code: str, number: int):
    """The penalties, each behind a confirm: shown early, dealer error, banned, void."""
    table, game = keeper_game(code, number)
    view = FLOW.moment(table, game)
    if view.phase in (Phase.END, Phase.CUT):
        return redirect(url_for("tables.keeper", code=table.code) + "#round", code=303)
    return render_template("tromplemond/penalties.html", tp=view, view=view)

