"""Sealed choices on the screens, for every game: the slip on a phone, the tablet's private
screen for a player without a phone, and the status everyone sees.

A slip is chosen on the device (big radio tiles: nothing is sent while a
player makes up their mind) and dropped with one tap. The device seals it
before it is sent (``static/app/slip.js``: see :mod:`companion.store.sealed`), so
the request carries the choice only sealed, in a body of the same size
whoever it names, to a URL that names no choice. Without JavaScript the
choice goes in clear (the slip says so), in a value padded to
:data:`PADDED_CHARS` characters as the form sends it (:func:`padded`): the
body's size still tells nothing. Nothing any response holds depends on the
choice: the slip only says "your slip is in", every screen shows only who is
in until the last choice reveals them all. Every response here is
``Cache-Control: no-store``, and slips keep no htmx history.

A game's flow names its sealed steps (``GameFlow.sealed_steps``); its
round templates include ``vote/_slip.html`` with a :class:`Slip` from
:func:`slip_for`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, Response, abort, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from ..store import sealed
from .actions import Act, Who, game_action, keeper_game
from .flow import SealedStep, View, flow_for
from .forms import FormError, whole_number
from .limits import wrong_codes
from .words import say

bp = Blueprint("vote", __name__)

SEALED = "/t/<code>/games/<int:number>/sealed/<step>"

PADDED_CHARS = 488
"""A choice's radio value, padded, as a form body carries it: a 40-character name of
4-byte characters takes 480 (each byte escaped: ``%F0``), the space before the dots 1."""

_UNRESERVED = re.compile(r"[A-Za-z0-9*\-._ ]")
_PADDING = re.compile(r" \.*\Z")


def form_length(value: str) -> int:
    """How many characters ``value`` takes in a form body (application/x-www-form-urlencoded:
    letters, digits, ``*-._`` as they are, a space as ``+``, any other byte as ``%XX``).

    >>> form_length("Emily"), form_length("Zoë"), form_length("a b~")
    (5, 8, 6)
    """
    return sum(1 if _UNRESERVED.match(c) else 3 * len(c.encode("utf-8")) for c in value)


def padded(choice: str) -> str:
    """A choice as a slip's radio value: a space and dots after it, so that it takes
    :data:`PADDED_CHARS` characters in the form's body whatever it names.

    >>> padded("Rob")[:8], form_length(padded("Rob")) == form_length(padded("Emily")) == 488
    ('Rob ....', True)
    """
    return f"{choice} " + "." * max(0, PADDED_CHARS - 1 - form_length(choice))


def unpadded(value: str) -> str:
    """The choice a radio value names (:func:`padded`'s dots taken off; a value sent
    unpadded is the choice itself).

    >>> unpadded(padded("Jr.")), unpadded("Emily")
    ('Jr.', 'Emily')
    """
    return _PADDING.sub("", value)


@bp.after_request
def no_store(response: Response) -> Response:
    """Slips and the private screen are never cached, by the browser or anything between."""
    response.headers["Cache-Control"] = "no-store"
    response.headers["Pragma"] = "no-cache"
    return response


@dataclass(frozen=True)
class Slip:
    """A slip of one sealed step, for one chooser (or for a screen that only watches)."""

    step: SealedStep
    status: sealed.SealedStatus
    chooser: str | None
    choices: tuple[Any, ...]
    view: View

    @property
    def state(self) -> str:
        """``choose`` (a choice to make), ``in`` (made), ``waiting`` (not theirs), ``done``."""
        if not self.status.open:
            return "done"
        if self.status.may_choose(self.chooser):
            return "choose"
        if self.chooser in self.status.chosen:
            return "in"
        return "waiting"

    @property
    def chooser_name(self) -> str:
        """Who the slip is for (the plaintext names them: slip.js)."""
        return self.chooser or ""

    padded = staticmethod(padded)

    @property
    def dom_id(self) -> str:
        """The slip's element id: one per sealed choice, so a new stage gets a new slip."""
        return f"slip-{self.status.id}"

    @property
    def url(self) -> str:
        """Where a phone drops this slip."""
        return url_for("vote.drop", code=self.view.table.code, number=self.view.game.number,
                       step=self.step.name)

    @property
    def private_url(self) -> str:
        """The tablet's private screen for this step."""
        return url_for("vote.private", code=self.view.table.code,
                       number=self.view.game.number, step=self.step.name)

    @property
    def seat_position(self) -> int | None:
        """The chooser's seat (a phone drops a slip only for itself)."""
        seat = next((s for s in self.view.table.seats if s.name == self.chooser), None)
        return seat.position if seat is not None else None

    @property
    def without_phones(self) -> list[str]:
        """Who still has a choice to make and no phone: they choose on the tablet."""
        held = {s.name for s in self.view.table.seats if s.held}
        return [n for n in self.status.waiting_for if n not in held] if self.status.open \
            else []


def slip_for(view: View, step: SealedStep, chooser: str | None = None) -> Slip | None:
    """The slip of ``step`` at this moment, for ``chooser`` (None: as the tablet sees it)."""
    status = step.status(view)
    if status is None:
        return None
    choices = tuple(step.choices(view, chooser)) if chooser is not None else ()
    return Slip(step=step, status=status, chooser=chooser, choices=choices, view=view)


def _step(act_or_flow_steps: Any, name: str) -> SealedStep:
    step = act_or_flow_steps.get(name)
    if step is None:
        abort(404, _("There is no such choice to make in this game."))
    return step


def _stage(form: Any) -> int | None:
    typed = form.get("stage")
    if not typed:
        return None
    try:
        return whole_number(typed, _l("The slip's stage"), 1, 10_000)
    except FormError:
        raise sealed.SealError(_("The slip names no vote. Reload the page and try again.")) \
            from None


def _drop(act: Act, step: SealedStep, chooser: str) -> None:
    """Seal ``chooser``'s choice (``SealError`` when refused); scrub after a reveal.

    A slip sealed on the device is opened at once to check it: it must be sealed to
    the open sealing, for this chooser; the game then checks the choice. A sealing
    whose key a restart lost is voided instead (the screens say so: choose again).
    """
    if act.view.phase not in step.phases:
        raise sealed.SealError(_("There is no slip to drop now: the round has moved on."), 409)
    stage = _stage(act.form)
    blob = None
    choice = unpadded(act.form.get("choice", ""))
    if act.form.get(sealed.SEALED_FIELD):
        blob = sealed.decode_blob(act.form[sealed.SEALED_FIELD])
        sealing = sealed.latest(act.game, act.draft.round_index, lock=True)
        if sealing is None or not step.status(act.view) or sealing.revealed \
                or sealing.verdict is not None:
            raise sealed.SealError(_("There is no slip to drop now: look at your screen "
                                     "again."), 409)
        if sealed.lost(sealing):
            sealed.void(act.game, sealing)
            return
        private = sealed.sealing_keys().private_key(sealing.public_key)
        if private is None:  # pragma: no cover - ended this moment by another worker
            raise sealed.SealError(sealed.RESTARTED, 409)
        slip = sealed.open_slip(private, blob)
        if slip.sealing_id != sealing.id:  # pragma: no cover - another key opens nothing
            raise sealed.SealError(_("That slip was for an earlier moment: look at your "
                                     "screen again."), 409)
        if slip.chooser != chooser:
            raise sealed.SealError(_("That slip is not %(name)s's: reload the page and "
                                     "try again.", name=chooser), 403)
        choice = slip.choice
    revealed = step.drop(act, chooser, choice, stage, blob)
    if revealed:
        act.after_commit.append(sealed.scrub)


# --------------------------------------------------------------------------- phones


@bp.post(SEALED)
@game_action(Who.SEAT, same_round=False)
def drop(act: Act, step: str):
    """A phone drops its slip: the choice is sealed; the answer never shows it."""
    sealed_step = _step(act.flow.sealed_steps, step)
    if act.seat is None or act.player is None:
        abort(403, _("This phone holds no seat at this table."))
    try:
        _drop(act, sealed_step, act.player)
    except sealed.SealError as error:
        abort(error.status, say(error.phrase))


# --------------------------------------------------------------------------- the tablet


def _private_page(view: View, step: SealedStep, *, chooser: str | None = None,
                  done: bool = False, error: str | None = None, status: int = 200):
    slip = slip_for(view, step, chooser)
    return render_template("vote/private.html", view=view, slip=slip, chooser=chooser,
                           done=done, error=error, table=view.table,
                           game_title=flow_for(view.game.game).title), status


@bp.get(SEALED + "/private")
@wrong_codes
def private(code: str, number: int, step: str):
    """The tablet's private screen: pick the player without a phone who chooses here."""
    table, game = keeper_game(code, number)
    flow = flow_for(game.game)
    sealed_step = _step(flow.sealed_steps, step)
    return _private_page(flow.moment(table, game), sealed_step,
                         done=bool(request.args.get("done")))


@bp.post(SEALED + "/private")
@game_action(Who.KEEPER, same_round=False)
def private_slip(act: Act, step: str):
    """On the tablet, for a player without a phone: their slip, then their choice dropped.

    After the drop the screen goes back to a neutral page that shows nothing of it.
    """
    sealed_step = _step(act.flow.sealed_steps, step)
    chooser = act.form.get("chooser", "")
    slip = slip_for(act.view, sealed_step, chooser)
    if slip is None or slip.state != "choose":
        message = (_("There is no choice to make now.") if slip is None or not slip.status.open
                   else _("%(name)s has chosen already: one choice each.", name=chooser)
                   if chooser in slip.status.chosen
                   else _("Pick a player who still has a choice to make."))
        return _private_page(act.view, sealed_step, error=message, status=409)
    if chooser not in slip.without_phones:
        return _private_page(act.view, sealed_step, status=409,
                             error=_("%(name)s's phone holds their seat: %(name)s chooses on "
                                     "the phone. (If the phone is lost, free the seat first.)",
                                     name=chooser))
    if "choice" not in act.form and sealed.SEALED_FIELD not in act.form:  # picked, not dropped
        return _private_page(act.view, sealed_step, chooser=chooser)
    try:
        _drop(act, sealed_step, chooser)
    except sealed.SealError as error:
        return _private_page(act.view, sealed_step, chooser=chooser, status=error.status,
                             error=say(error.phrase))
    return redirect(url_for("vote.private", code=act.table.code, number=act.game.number,
                            step=step, done=1), code=303)


__all__ = ["PADDED_CHARS", "SEALED", "Slip", "bp", "form_length", "padded", "slip_for",
           "unpadded"]
