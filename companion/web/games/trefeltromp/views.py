"""Trefeltromp's own actions, under ``/t/<code>/games/<n>/trefeltromp/``: dealing, a betting
action (from the phone whose turn it is, or the tablet for any seat), buying chips,
leaving, the discard and draw, the tablet's undo, and the story of a hand.

The reveals' cards are every sealed choice's (``companion.web.vote``, with
:class:`~.flow.RevealStep`); confirming, undoing and correcting a whole hand
are every game's (``companion.web.rounds``). A refusal comes back where the
player looks: their screen's round region with the message on top.
"""

from __future__ import annotations

from typing import Any

from flask import abort, render_template, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from ....rules import RuleError
from ....rules import trefeltromp as rules
from ....store import rounds as round_store
from ...actions import Act, Who, game_action, load_game, refusal
from ...forms import FormError
from ...limits import wrong_codes
from ...roles import is_keeper, phone
from . import forms
from .flow import (
    BETTING_PHASES,
    FLOW,
    HAND_PHASES,
    REVEAL_PHASES,
    Done,
    HandView,
    Phase,
    after_change,
    bp,
    forget_reveal,
    log_of,
)

STALE = _l("That was for an earlier moment of the hand: it has moved on. Look again and tap "
           "once more.")



def _write(act: Act, changes: dict[str, Any], log: list[Done]) -> None:
    """Change the hand's facts and its log; ``started`` and ``drawn`` follow the log."""
    round_store.update_facts(act.draft, {
        **changes, "log": [done.value for done in log],
        "started": True if Done.START in log else None,
        "drawn": True if Done.DRAW in log else None})


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
    ready = act.view_as(HandView).ready
    assert ready is not None
    if ready.problem is not None:
        return refusal(act, str(ready.problem))
    _write(act, {}, [*log_of(act.draft.facts), Done.START])
    after_change(act)
    return None


@bp.post("/seats/<int:position>/act")
@game_action(Who.PLAYER, *BETTING_PHASES, refuse=_not_betting, moment=STALE)
def act_(act: Act, position: int):
    """A betting action: from the phone whose turn it is, or from the tablet for that seat."""
    player = act.player_at(position)
    hand = act.view_as(HandView).hand
    assert hand is not None
    if player != hand.to_act:
        if act.player == player:
            return refusal(act, _("It is %(to_act)s's turn, not yours.", to_act=hand.to_act))
        return refusal(act, _("It is %(to_act)s's turn, not %(player)s's.", to_act=hand.to_act,
                              player=player))
    try:
        verb = rules.Verb(act.form.get("verb", ""))
    except ValueError:
        return refusal(act, _("Tap check, bet, call, raise, fold or stay."), 400)
    amount = None
    if verb in (rules.Verb.BET, rules.Verb.RAISE):
        try:
            amount = forms.read_amount(act.form, _("The bet") if verb is rules.Verb.BET
                                       else _("The raise"))
        except FormError as error:
            return refusal(act, f"{error}.", 400)
    action = rules.Action(player, verb, amount)
    try:
        hand.act(action)
    except RuleError as error:
        return refusal(act, forms.sentence(error), 400)
    facts = act.draft.facts
    k = rules.BETTING_ROUNDS.index(hand.stage)
    calls = [list(c) for c in facts.get("calls") or []]
    calls += [[] for _ in range(k + 1 - len(calls))]
    calls[k].append(action.as_entry())
    _write(act, {"calls": calls}, [*log_of(facts), Done.ACT])
    after_change(act)
    return None


@bp.post("/draw")
@game_action(Who.KEEPER, Phase.DRAW, refuse=_l("There is no discard and draw now."), moment=STALE)
def draw(act: Act):
    """The discard and draw after fyrsturkalla is done: banenkalla opens."""
    _write(act, {}, [*log_of(act.draft.facts), Done.DRAW])
    return None


@bp.post("/reveal")
@game_action(Who.KEEPER, *REVEAL_PHASES, refuse=_l("No reveal is due now."), moment=STALE)
def open_reveal(act: Act):
    """Ask for the cards of the reveal due (when a hand was put back from the record)."""
    view = act.view_as(HandView)
    if view.sealing is not None and view.sealing.open:
        return refusal(act, _("The cards of this reveal are being laid already."))
    after_change(act)
    return None


@bp.post("/undo")
@game_action(Who.KEEPER, Phase.READY, *HAND_PHASES, Phase.HAND_OVER, Phase.CHECK,
             refuse=_l("There is no hand to undo in: use the score table's undo."), moment=STALE)
def undo(act: Act):
    """Take back the last thing done in the hand: an action, a reveal, the draw, a buy, the
    deal. A reveal whose cards clashed is laid again."""
    view = act.view_as(HandView)
    facts = act.draft.facts
    if view.clash:
        forget_reveal(act.game, act.draft.round_index, view.phase.value)
        round_store.update_facts(act.draft, {"clash": None})
        after_change(act)
        return None
    log = log_of(facts)
    if not log:
        return refusal(act, _("Nothing has happened in this hand yet: there is nothing to "
                              "undo."))
    last = log.pop()
    changes: dict[str, Any] = {"leave": None}
    if last is Done.BUY:
        changes["buys"] = list(facts.get("buys") or [])[:-1] or None
    elif last is Done.SHOW:
        shows = list(facts.get("shows") or [])
        forget_reveal(act.game, act.draft.round_index, rules.REVEALS[len(shows) - 1].value)
        changes["shows"] = shows[:-1] or None
    elif last is Done.ACT:
        calls = [list(c) for c in facts.get("calls") or []]
        while not calls[-1]:
            calls.pop()
        calls[-1].pop()
        while calls and not calls[-1]:
            calls.pop()
        changes["calls"] = calls or None
    _write(act, changes, log)
    after_change(act)
    return None


# --------------------------------------------------------------------------- chips and seats


@bp.post("/seats/<int:position>/buy")
@game_action(Who.PLAYER, Phase.READY, *HAND_PHASES,
             refuse=_l("Chips are bought between hands, or while a hand is played."))
def buy(act: Act, position: int):
    """A player buys chips: between hands for the next one, or during a hand (to cover a
    call, say). The chips go into the ledger."""
    player = act.player_at(position)
    view = act.view_as(HandView)
    facts = act.draft.facts
    entries = list(facts.get("buys") or [])
    if act.form.get("bought") != str(view.buys_made(player)):
        return refusal(act, _("%(player)s bought chips a moment ago: look again before buying "
                              "more.", player=player))
    try:
        amount = forms.read_amount(act.form, _("The chips to buy"))
    except FormError as error:
        return refusal(act, f"{error}.", 400)
    if view.phase is Phase.READY:
        assert view.ready is not None
        if player not in view.ready.seated:
            return refusal(act, _("%(player)s has left the table and buys no more chips.",
                                  player=player))
    else:
        assert view.hand is not None
        try:
            view.hand.buy(player, amount)
        except RuleError as error:
            return refusal(act, forms.sentence(error))
    _write(act, {"buys": [*entries, [player, amount]]}, [*log_of(facts), Done.BUY])
    return None


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
        return refusal(act, _("Players leave after a hand: play one first."))
    index = len(act.game.rounds) - 1
    last = act.game.rounds[index]
    leaving = set(last.get("leave") or [])
    choice = act.form.get("leaves")
    if choice == "yes":
        if player not in ready.seated:
            return refusal(act, _("%(player)s has left the table already.", player=player))
        leaving |= set(rules.who_leaves(ready.seated, {player}))
    elif choice == "no":
        if player not in leaving:
            return refusal(act, _("%(player)s is not leaving.", player=player))
        leaving.discard(player)
    else:
        return refusal(act, _("Leave the table, or stay?"), 400)
    round_store.amend_round(act.game, index, {**last, "leave": [
        p for p in act.game.players if p in leaving]})
    facts = act.draft.facts
    buys = [b for b in facts.get("buys") or [] if b[0] not in leaving]
    if len(buys) != len(facts.get("buys") or []):
        _write(act, {"buys": buys or None}, [Done.BUY] * len(buys))
    return None


@bp.post("/stay")
@game_action(Who.KEEPER, same_round=False)
def stay(act: Act):
    """Take back the leaving that ended the game: everyone who left after the last hand
    sits down again."""
    view = act.view_as(HandView)
    if view.phase is not Phase.END or not view.result or not view.result["finished"]:
        return refusal(act, _("Nobody has ended the game by leaving."))
    index = len(act.game.rounds) - 1
    round_store.amend_round(act.game, index, {**act.game.rounds[index], "leave": []})
    return None


# --------------------------------------------------------------------------- looking back


@bp.get("/hands/<int:hand_number>")
@wrong_codes
def hand_page(code: str, number: int, hand_number: int):
    """The story of one hand: each action, each reveal, and how the pot moved."""
    table, game = load_game(code, number)
    seat = phone(table).seat
    view = FLOW.moment(table, game, seat.name if seat is not None else None)
    if view.result is None:
        abort(409, _("The rules refuse this game's record: %(problem)s", problem=view.problem))
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
