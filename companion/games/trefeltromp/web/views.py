"""Trefeltromp's own actions, under ``/t/<code>/games/<n>/trefeltromp/``: dealing, a betting
action (from the phone whose turn it is, or the tablet for any seat), buying chips,
leaving, the discard and draw, the tablet's undo, and the story of a hand.

The reveals' cards are every sealed choice's (``companion.web.vote``, with
:class:`~.flow.RevealStep`); confirming, undoing and correcting a whole hand
are every game's (``companion.web.rounds``). A refusal comes back where the
player looks: their screen's round region with the message on top.
"""

from __future__ import annotations

from flask import abort, render_template, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from companion.rules import RuleError
from companion.store import rounds as round_store
from companion.web.actions import Act, Who, game_action, load_game
from companion.web.forms import FormError
from companion.web.limits import wrong_codes
from companion.web.roles import is_keeper, phone
from companion.web.words import say

from .. import rules
from . import forms
from .flow import (
    BETTING_PHASES,
    FLOW,
    HAND_PHASES,
    REVEAL_PHASES,
    HandView,
    Phase,
    bp,
    play_on,
)

STALE = _l("That was for an earlier moment of the hand: it has moved on. Look again and tap "
           "once more.")



def _not_betting(view: HandView) -> str:
    if view.phase is Phase.READY:
        return _("The hand has not been dealt yet: the scorekeeper deals it first.")
    if view.phase is Phase.DRAW:
        return _("The discard and draw comes first: the scorekeeper taps done when everyone "
                 "has drawn.")
    if view.phase in REVEAL_PHASES:
        return _("Nobody bets during a reveal: lay your card first.")
    return _("There is no betting now.")


# --------------------------------------------------------------------------- a hand


@bp.post("/deal")
@game_action(Who.KEEPER, Phase.READY, refuse=_l("This hand is dealt already."), moment=STALE)
def deal(act: Act):
    """Deal the next hand: every seated player antes."""
    try:
        change = rules.deal(act.game.record(), act.draft.facts)
    except RuleError as error:  # someone cannot cover the ante
        abort(409, forms.sentence(error))
    play_on(act, change)


@bp.post("/seats/<int:position>/act")
@game_action(Who.PLAYER, *BETTING_PHASES, refuse=_not_betting, moment=STALE)
def act_(act: Act, position: int):
    """A betting action: from the phone whose turn it is, or from the tablet for that seat."""
    player = act.player_at(position)
    hand = act.view_as(HandView).hand
    assert hand is not None
    if player != hand.to_act:
        if act.player == player:
            abort(409, _("It is %(to_act)s's turn, not yours.", to_act=hand.to_act))
        abort(409, _("It is %(to_act)s's turn, not %(player)s's.", to_act=hand.to_act,
                     player=player))
    try:
        verb = rules.Verb(act.form.get("verb", ""))
    except ValueError:
        abort(400, _("Tap check, bet, call, raise, fold or stay."))
    amount = None
    if verb in (rules.Verb.BET, rules.Verb.RAISE):
        try:
            amount = forms.read_amount(act.form, _("The bet") if verb is rules.Verb.BET
                                       else _("The raise"))
        except FormError as error:
            abort(400, f"{error}.")
    try:
        change = rules.act(act.game.record(), act.draft.facts,
                           rules.Action(player, verb, amount))
    except RuleError as error:
        abort(400, forms.sentence(error))
    play_on(act, change)


@bp.post("/draw")
@game_action(Who.KEEPER, Phase.DRAW, refuse=_l("There is no discard and draw now."), moment=STALE)
def draw(act: Act):
    """The discard and draw after fyrsturkalla is done: banenkalla opens."""
    play_on(act, rules.draw(act.game.record(), act.draft.facts))


@bp.post("/reveal")
@game_action(Who.KEEPER, *REVEAL_PHASES, refuse=_l("No reveal is due now."), moment=STALE)
def open_reveal(act: Act):
    """Ask for the cards of the reveal due (when a hand was put back from the record)."""
    view = act.view_as(HandView)
    if view.sealing is not None and view.sealing.open:
        abort(409, _("The cards of this reveal are being laid already."))
    play_on(act, rules.follows(act.game.record(), act.draft.facts))


@bp.post("/undo")
@game_action(Who.KEEPER, Phase.READY, *HAND_PHASES, Phase.HAND_OVER, Phase.CHECK,
             refuse=_l("There is no hand to undo in: use the score table's undo."), moment=STALE)
def undo(act: Act):
    """Take back the last thing done in the hand: an action, a reveal, the draw, a buy, the
    deal. A reveal whose cards clashed is laid again."""
    try:
        change = rules.undo(act.game.record(), act.draft.facts)
    except RuleError as error:
        abort(409, forms.sentence(error))
    play_on(act, change)


# --------------------------------------------------------------------------- chips and seats


@bp.post("/seats/<int:position>/buy")
@game_action(Who.PLAYER, Phase.READY, *HAND_PHASES,
             refuse=_l("Chips are bought between hands, or while a hand is played."))
def buy(act: Act, position: int):
    """A player buys chips: between hands for the next one, or during a hand (to cover a
    call, say). The chips go into the ledger."""
    player = act.player_at(position)
    view = act.view_as(HandView)
    if act.form.get("bought") != str(view.buys_made(player)):
        abort(409, _("%(player)s bought chips a moment ago: look again before buying more.",
                     player=player))
    try:
        amount = forms.read_amount(act.form, _("The chips to buy"))
    except FormError as error:
        abort(400, f"{error}.")
    if view.ready is not None and player not in view.ready.seated:
        abort(409, _("%(player)s has left the table and buys no more chips.", player=player))
    try:
        change = rules.buy(act.game.record(), act.draft.facts, player, amount)
    except RuleError as error:
        abort(409, forms.sentence(error))
    round_store.play_on(act.draft, change.facts)  # a buy changes nothing of a reveal


@bp.post("/seats/<int:position>/leave")
@game_action(Who.PLAYER, Phase.READY,
             refuse=_l("Players leave between hands, once the hand is over."))
def leave(act: Act, position: int):
    """Between hands a player leaves the table with their stack (``leaves=yes``), or stays
    after all (``leaves=no``). A player who would be left alone leaves too: the game ends
    and the pot is shared out."""
    player = act.player_at(position)
    ready = act.view_as(HandView).ready
    assert ready is not None
    if not ready.can_leave:
        abort(409, _("Players leave after a hand: play one first."))
    index = len(act.game.rounds) - 1
    last = act.game.rounds[index]
    leaving = set(last.get("leave") or [])
    choice = act.form.get("leaves")
    if choice == "yes":
        if player not in ready.seated:
            abort(409, _("%(player)s has left the table already.", player=player))
        leaving |= set(rules.who_leaves(ready.seated, {player}))
    elif choice == "no":
        if player not in leaving:
            abort(409, _("%(player)s is not leaving.", player=player))
        leaving.discard(player)
    else:
        abort(400, _("Leave the table, or stay?"))
    round_store.amend_round(act.game, index, {**last, "leave": [
        p for p in act.game.players if p in leaving]})
    facts = act.draft.facts
    buys = [b for b in facts.get("buys") or [] if b[0] not in leaving]
    if len(buys) != len(facts.get("buys") or []):
        round_store.update_facts(act.draft, {
            "buys": buys or None, "log": [rules.Done.BUY.value] * len(buys), "started": None,
            "drawn": None})


@bp.post("/stay")
@game_action(Who.KEEPER, same_round=False)
def stay(act: Act):
    """Take back the leaving that ended the game: everyone who left after the last hand
    sits down again."""
    view = act.view_as(HandView)
    if view.phase is not Phase.END or not view.result or not view.result["finished"]:
        abort(409, _("Nobody has ended the game by leaving."))
    index = len(act.game.rounds) - 1
    round_store.amend_round(act.game, index, {**act.game.rounds[index], "leave": []})


# --------------------------------------------------------------------------- looking back


@bp.get("/hands/<int:hand_number>")
@wrong_codes
def hand_page(code: str, number: int, hand_number: int):
    """The story of one hand: each action, each reveal, and how the pot moved."""
    table, game = load_game(code, number)
    seat = phone(table).seat
    view = FLOW.moment(table, game, seat.name if seat is not None else None)
    if view.result is None:
        abort(409, _("The rules refuse this game's record: %(problem)s",
                     problem=say(view.problem)))
    played = len(game.rounds)
    if 1 <= hand_number <= played:
        done = view.result["rounds"][hand_number - 1]
        story, dealer = rules.hand_story(done), done["dealer"]
    elif hand_number == played + 1 and view.phase in (*HAND_PHASES, Phase.HAND_OVER):
        story, dealer = view.story, view.dealer
    else:
        abort(404, _("Hand %(number)s has not been played.", number=hand_number))
    keeper = is_keeper(table)
    back = (url_for("tables.keeper", code=table.code) if keeper
            else url_for("seats.seat", code=table.code) if seat is not None
            else url_for("games.game", code=table.code, number=game.number))
    return render_template("trefeltromp/hand.html", view=view, story=story, dealer=dealer,
                           hand_number=hand_number, back=back, table=table,
                           over=hand_number <= played, keeper=keeper)
