"""A game's rounds, for every game: checklist ticks, confirm, undo, and correcting a past
round (the live round regions: :mod:`companion.web.regions`).

What a round holds and when it may be confirmed is the flow's; the
sequence (who may act, the lock, one commit, the answer) is
:func:`~companion.web.actions.game_action`'s; the rest is here once.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, redirect, render_template, url_for
from flask_babel import gettext as _

from ..rules import RuleError
from ..store import rounds as round_store
from ..store import sealed
from .actions import Act, Who, game_action, keeper_game
from .flow import GameFlow, View, flow_for
from .forms import FormError
from .limits import wrong_codes
from .words import sentence

bp = Blueprint("rounds", __name__)

GAME = "/t/<code>/games/<int:number>"


# --------------------------------------------------------------------------- the round so far


@bp.post(GAME + "/tick")
@game_action(Who.PLAYER)
def tick(act: Act):
    """Tick (or untick) a step of a checklist: the tablet or a seated phone (a dealing step:
    the dealer's phone only, in a game whose checklists are the dealer's:
    ``GameFlow.dealer_ticks``).

    The button says the state it wants (``tick=<step>`` or ``untick=<step>``): sent twice
    (a double tap, a tap sent again after a lost answer), a tick stays ticked. A page drawn
    before buttons said so sends ``step=<step>``, which turns the tick over, as it did.
    """
    form = act.form
    wanted = True if "tick" in form else False if "untick" in form else None
    key = form.get("tick") or form.get("untick") or form.get("step", "")
    if key not in act.view.tick_keys():
        abort(400, _("There is no such step on this round's checklist."))
    if (act.flow.dealer_ticks and key.startswith("deal:") and not act.keeper
            and act.player != act.view.dealer):
        abort(403, _("%(name)s deals: only %(name)s's phone or the scorekeeper ticks the "
                     "dealing steps.", name=act.view.dealer))
    if wanted is None:
        round_store.toggle_tick(act.draft, key)
    else:
        round_store.set_tick(act.draft, key, wanted)


@bp.post(GAME + "/confirm")
@game_action(Who.KEEPER)
def confirm(act: Act):
    """Confirm the round: its facts join the record; the next dealer is shown."""
    facts = act.flow.round_to_confirm(act.view, act.draft)
    round_store.confirm_round(act.draft, facts)


@bp.post(GAME + "/undo")
@game_action(Who.KEEPER, same_round=False)
def undo(act: Act):
    """Undo the last confirmed round: it goes back to being the round in progress.

    The round in progress is thrown away, with any sealed choice it had open.
    """
    if act.form.get("rounds") != str(len(act.game.rounds)):
        abort(409, _("The rounds changed a moment ago. Look again and tap once more."))
    if not act.game.rounds:
        abort(409, _("No round has been confirmed yet."))
    sealed.discard(act.game, act.draft.round_index)
    round_store.undo_round(act.draft)


# --------------------------------------------------------------------------- past rounds


def _compare(before: dict[str, Any], after: dict[str, Any], index: int) -> list[dict[str, Any]]:
    """Each column's round score and total, before and after a correction of round ``index``."""
    old, new = before["rounds"][index], after["rounds"][index]
    return [{"name": name,
             "score": (old["scores"].get(name), new["scores"].get(name)),
             "total": (before["totals"][name], after["totals"][name])}
            for name in after["totals"]]


def _correction_page(flow: GameFlow, view: View, number: int, values: dict[str, Any], *,
                     status: int = 200, **extra: Any):
    done = view.result["rounds"][number - 1] if view.result else None
    return render_template("rounds/correct.html", view=view, flow=flow, number=number,
                           done=done, table=view.table, game=view.game, **values,
                           **extra), status


def _round_number(game_rounds: list[Any], number: int) -> None:
    if not 1 <= number <= len(game_rounds):
        abort(404, _("Round %(number)s has not been played.", number=number))


@bp.get(GAME + "/rounds/<int:round_number>")
@wrong_codes
def past_round(code: str, number: int, round_number: int):
    """The form that corrects a confirmed round, filled in with its facts."""
    table, game = keeper_game(code, number)
    _round_number(game.rounds, round_number)
    flow = flow_for(game.game)
    if flow.correction_template is None:
        abort(404, _("%(game)s's past rounds are not corrected on this screen.",
                     game=flow.title))
    view = flow.moment(table, game)
    return _correction_page(flow, view, round_number,
                            flow.correction_values(view, game.rounds[round_number - 1]))


@bp.post(GAME + "/rounds/<int:round_number>")
@game_action(Who.KEEPER, same_round=False)
def correct_round(act: Act, round_number: int):
    """Preview a corrected round (old and new scores side by side), or save it.

    Saving returns to the live page: a reload does not open the form again.
    The rules score every round after it again.
    """
    game, flow = act.game, act.flow
    _round_number(game.rounds, round_number)
    if flow.correction_template is None:
        abort(404, _("%(game)s's past rounds are not corrected on this screen.",
                     game=flow.title))
    if act.form.get("rounds") != str(len(game.rounds)):
        abort(409, _("The rounds changed a moment ago. Look again and correct once more."))
    index = round_number - 1
    try:
        facts = flow.read_correction(act.view, act.form, game.rounds[index])
        record = game.record()
        record["rounds"][index] = facts
        after = flow.replay(record)
    except (FormError, RuleError) as error:
        return _correction_page(flow, act.view, round_number,
                                flow.correction_values_from_form(act.view, act.form),
                                status=400, error=sentence(error))
    if act.form.get("step") != "save" or facts == game.rounds[index]:
        changed = facts != game.rounds[index]
        return _correction_page(flow, act.view, round_number,
                                flow.correction_values(act.view, facts),
                                preview=_compare(act.view.result, after, index),
                                changed=changed)
    round_store.replace_round(act.draft, index, facts)
    return redirect(url_for("tables.keeper", code=act.table.code) + "#scoreboard", code=303)

