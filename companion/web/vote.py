"""The secret vote's pages: slips on the phones, the tablet's panel, proxy voting, card cuts.

Two partials are made to be included in other pages, each a live region:

- ``vote/_panel.html`` for the scorekeeper's tablet: slips in, the reveal,
  the tie-break, the card-cut form, the way to the proxy-voting screen;
- ``vote/_slip.html`` for a phone: its slip (the opponents as big buttons),
  a confirm step, then "Your slip is in"; a tie-break slip only for the two
  deciders, the others see who is deciding.

Include them with the context of :func:`vote_context` (one key, ``vote``).
URLs name a round by its number (``/rounds/1`` is round index 0).

Nothing here shows a count before every slip of a ballot is in (the store
never reads one), and every response is ``Cache-Control: no-store``; the
slip and proxy pages carry ``hx-history="false"`` so htmx keeps no copy.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from flask import (
    Blueprint,
    Response,
    abort,
    redirect,
    render_template,
    request,
    url_for,
)

from ..extensions import db
from ..store import PLAYING, Game, Table, queries
from ..store.ballots import (
    BallotError,
    VoteStatus,
    cast,
    check_slip,
    open_vote,
    record_cut,
    scrub,
    vote_status,
)
from .forms import game_title
from .limits import wrong_codes
from .live import is_htmx, live_table
from .roles import find_table, require_keeper, require_seat, require_seat_at

bp = Blueprint("vote", __name__)

ROUND = "/t/<code>/games/<int:number>/rounds/<int:round_number>"


@bp.after_request
def no_store(response: Response) -> Response:
    """Ballot pages and partials are never cached, by the browser or anything between."""
    response.headers["Cache-Control"] = "no-store"
    response.headers["Pragma"] = "no-cache"
    return response


@dataclass(frozen=True)
class VoteView:
    """What the vote partials show: the status, this device's part in it, and the URLs."""

    table: Table
    game: Game
    round_index: int
    status: VoteStatus
    seat_name: str | None
    phones: frozenset[str]
    """The players whose seat a phone holds (the others vote on the tablet)."""
    step: str = ""
    """A phone's slip: closed, choose, confirm, in, deciding, settled (see ``_slip.html``)."""
    confirm: str | None = None
    """The name on a slip waiting for its confirming tap (shown to its voter only)."""
    error: str | None = None

    @property
    def round_number(self) -> int:
        """The round as players count it (1 for the first)."""
        return self.round_index + 1

    def url(self, endpoint: str, **values: Any) -> str:
        """A vote URL of this round."""
        return url_for(endpoint, code=self.table.code, number=self.game.number,
                       round_number=self.round_number, **values)

    @property
    def targets(self) -> tuple[str, ...]:
        """Whom this seat may name on its slip."""
        return self.status.targets(self.seat_name)

    @property
    def seat_position(self) -> int | None:
        """This phone's seat number, sent with its slip (a phone votes only for itself)."""
        seat = next((s for s in self.table.seats if s.name == self.seat_name), None)
        return seat.position if seat is not None else None

    @property
    def counts(self) -> list[tuple[str, int]]:
        """The last revealed ballot's counts, in seat order (empty before any reveal)."""
        return list(self.status.counts.items()) if self.status.counts is not None else []

    @property
    def headline(self) -> str | None:
        """What the last revealed ballot decided, as the history says it."""
        return self.status.history[-1] if self.status.history else None

    @property
    def proxy_players(self) -> list[str]:
        """Who still has a slip to drop and no phone: they vote on the tablet."""
        status = self.status
        return [n for n in status.eligible if status.may_vote(n) and n not in self.phones]


def _step(status: VoteStatus, seat_name: str | None) -> str:
    if not status.opened:
        return "closed"
    if status.settled:
        return "settled"
    if status.may_vote(seat_name):
        return "choose"
    if seat_name in status.voted:
        return "in"
    return "deciding"


def vote_context(table: Table, game: Game, round_index: int, *,
                 seat_name: str | None = None, confirm: str | None = None,
                 error: str | None = None, status: VoteStatus | None = None) -> dict[str, Any]:
    """The context of ``vote/_panel.html`` and ``vote/_slip.html``: ``{"vote": VoteView}``.

    ``seat_name`` is the phone's player (for the slip); ``confirm`` a name
    waiting for the confirming tap; ``error`` a refusal to show on top;
    ``status`` the round's vote status when the caller has read it already.
    """
    if status is None:
        status = vote_status(game, round_index)
    step = _step(status, seat_name)
    if confirm is not None and step == "choose":
        step = "confirm"
    phones = frozenset(s.name for s in table.seats if s.held and s.name)
    return {"vote": VoteView(table=table, game=game, round_index=round_index, status=status,
                             seat_name=seat_name, phones=phones, step=step,
                             confirm=confirm if step == "confirm" else None, error=error)}


# --------------------------------------------------------------------------- helpers


def _round(code: str, number: int, round_number: int) -> tuple[Table, Game, int]:
    table = find_table(code)
    game = db.session.scalar(queries.game_number(table.id, number))
    if game is None:
        abort(404, f"This table has no game {number}.")
    if game.game != "tromplemond":
        abort(404, "Only Tromplemond has a secret vote.")
    if not 1 <= round_number <= len(game.rounds) + 1:
        abort(404, f"Game {number} has no round {round_number} yet.")
    return table, game, round_number - 1


def _playing(game: Game) -> None:
    if game.status != PLAYING:
        abort(409, f"Game {game.number} is over: its votes are closed.")


def _same_site_path(url: str | None, table: Table) -> str | None:
    """A referring page of this table on this site, to go back to after a form."""
    if not url:
        return None
    parts = urlsplit(url)
    if parts.netloc and parts.netloc != request.host:
        return None
    if not parts.path.startswith(f"/t/{table.code}"):
        return None
    return parts.path + (f"?{parts.query}" if parts.query else "")


def _keeper_back(table: Table):
    back = _same_site_path(request.referrer, table) or url_for("tables.keeper", code=table.code)
    return redirect(back, code=303)


def _seat_name(table: Table) -> str:
    """This phone's player; a slip sent for another seat is refused (403)."""
    position = request.form.get("seat")
    if position is None:
        seat = require_seat(table)
    else:
        if not position.isdigit():
            abort(400, "The slip names no seat. Reload the page and try again.")
        seat = require_seat_at(table, int(position))
    return seat.name or ""


def _stage() -> int | None:
    stage = request.form.get("stage")
    if stage is None or stage == "":
        return None
    if not stage.isdigit():
        abort(400, "The slip names no vote. Reload the page and try again.")
    return int(stage)


def _slip(table: Table, game: Game, index: int, seat_name: str, *, status: int = 200,
          **extra: Any):
    """The phone's slip: the partial for htmx, the whole slip page otherwise."""
    context = vote_context(table, game, index, seat_name=seat_name, **extra)
    if is_htmx() and not request.headers.get("HX-Boosted"):
        return render_template("vote/_slip.html", **context), status
    return render_template("vote/slip.html", **context), status


# --------------------------------------------------------------------------- phones


@bp.get(ROUND + "/vote")
@wrong_codes
def slip_page(code: str, number: int, round_number: int):
    """A phone's slip page (the slip alone; the round's phone page includes the same partial)."""
    table, game, index = _round(code, number, round_number)
    seat = require_seat(table)
    return _slip(table, game, index, seat.name or "")


@bp.get(ROUND + "/vote/slip")
@wrong_codes
def slip(code: str, number: int, round_number: int):
    """The phone's slip, as a live region."""
    live_table(code, "vote.slip_page", number=number, round_number=round_number)
    table, game, index = _round(code, number, round_number)
    seat = require_seat(table)
    return render_template("vote/_slip.html",
                           **vote_context(table, game, index, seat_name=seat.name))


@bp.post(ROUND + "/vote")
@wrong_codes
def vote(code: str, number: int, round_number: int):
    """Drop this phone's slip: the first tap picks a name, the second (``confirm``) drops it."""
    table, game, index = _round(code, number, round_number)
    name = _seat_name(table)
    _playing(game)
    target = request.form.get("target", "")
    stage = _stage()
    if request.form.get("confirm") != "yes":
        # The first tap: show the choice back for a second tap; nothing is written.
        try:
            check_slip(game, index, name, target, stage=stage)
        except BallotError as error:
            return _slip(table, game, index, name, status=error.status, error=str(error))
        return _slip(table, game, index, name, confirm=target)
    try:
        revealed = cast(game, index, name, target, stage=stage)
    except BallotError as error:
        db.session.rollback()
        return _slip(table, game, index, name, status=error.status, error=str(error))
    db.session.commit()
    if revealed:
        scrub()
    if is_htmx() and not request.headers.get("HX-Boosted"):
        return _slip(table, game, index, name)
    return redirect(url_for("vote.slip_page", code=table.code, number=number,
                            round_number=round_number), code=303)


# --------------------------------------------------------------------------- the tablet


def _panel(table: Table, game: Game, index: int, *, status: int = 200, error: str | None = None):
    return render_template("vote/_panel.html",
                           **vote_context(table, game, index, error=error)), status


@bp.get(ROUND + "/vote/panel")
@wrong_codes
def panel(code: str, number: int, round_number: int):
    """The scorekeeper's vote panel, as a live region."""
    live_table(code, "vote.keeper_page", keeper=True, number=number, round_number=round_number)
    table, game, index = _round(code, number, round_number)
    require_keeper(table)
    return _panel(table, game, index)


@bp.get(ROUND + "/vote/keeper")
@wrong_codes
def keeper_page(code: str, number: int, round_number: int):
    """The vote panel as a page of its own (without JavaScript, and to open it full screen)."""
    table, game, index = _round(code, number, round_number)
    require_keeper(table)
    return render_template("vote/keeper.html", game_title=game_title(game.game),
                           **vote_context(table, game, index))


def _keeper_answer(table: Table, game: Game, index: int, error: BallotError | None = None):
    if error is not None:
        db.session.rollback()
        if is_htmx() and not request.headers.get("HX-Boosted"):
            return _panel(table, game, index, status=error.status, error=str(error))
        abort(error.status, str(error))
    if is_htmx() and not request.headers.get("HX-Boosted"):
        return _panel(table, game, index)
    return _keeper_back(table)


@bp.post(ROUND + "/vote/open")
@wrong_codes
def open_(code: str, number: int, round_number: int):
    """Open the round's vote: every phone gets its slip (opening twice changes nothing)."""
    table, game, index = _round(code, number, round_number)
    require_keeper(table)
    _playing(game)
    try:
        open_vote(game, index)
    except BallotError as error:
        return _keeper_answer(table, game, index, error)
    db.session.commit()
    return _keeper_answer(table, game, index)


@bp.post(ROUND + "/cut")
@wrong_codes
def cut(code: str, number: int, round_number: int):
    """Settle a tie by a card cut: the scorekeeper records who goes off."""
    table, game, index = _round(code, number, round_number)
    require_keeper(table)
    _playing(game)
    try:
        record_cut(game, index, request.form.get("name", ""))
    except BallotError as error:
        return _keeper_answer(table, game, index, error)
    db.session.commit()
    scrub()
    return _keeper_answer(table, game, index)


# --------------------------------------------------------------------------- proxy voting


def _proxy(table: Table, game: Game, index: int, *, step: str, voter: str | None = None,
           target: str | None = None, error: str | None = None, status: int = 200):
    context = vote_context(table, game, index, seat_name=voter, error=error)
    return render_template("vote/proxy.html", step=step, voter=voter, target=target,
                           game_title=game_title(game.game), **context), status


@bp.route(ROUND + "/proxy", methods=["GET", "POST"])
@wrong_codes
def proxy(code: str, number: int, round_number: int):
    """Vote on the tablet for a player without a phone, privately, one at a time.

    GET: pick the player. POST ``voter``: their slip; ``voter`` and
    ``target``: the confirm step; with ``confirm``: the slip is dropped and
    the screen goes back to a neutral page that shows nothing of it.
    """
    table, game, index = _round(code, number, round_number)
    require_keeper(table)
    if request.method == "GET":
        return _proxy(table, game, index, step="done" if request.args.get("done") else "pick")
    _playing(game)
    voter = request.form.get("voter", "")
    target = request.form.get("target")
    status = vote_status(game, index)
    if not status.may_vote(voter):
        message = (f"{voter} has already voted: one slip each." if voter in status.voted
                   else "There is no slip to drop now." if not status.voting
                   else "Pick a player who still has a slip to drop.")
        return _proxy(table, game, index, step="pick", error=message,
                      status=400 if status.voting and voter not in status.voted else 409)
    if voter in {s.name for s in table.seats if s.held}:
        return _proxy(table, game, index, step="pick", status=409,
                      error=f"{voter}'s phone holds their seat: {voter} votes on the phone. "
                            "(If the phone is lost, free the seat first.)")
    if target is None:
        return _proxy(table, game, index, step="slip", voter=voter)
    if request.form.get("confirm") != "yes":
        try:
            check_slip(game, index, voter, target, stage=_stage())
        except BallotError as error:
            return _proxy(table, game, index, step="slip", voter=voter, error=str(error),
                          status=error.status)
        return _proxy(table, game, index, step="confirm", voter=voter, target=target)
    try:
        revealed = cast(game, index, voter, target, stage=_stage())
    except BallotError as error:
        db.session.rollback()
        return _proxy(table, game, index, step="slip", voter=voter, error=str(error),
                      status=error.status)
    db.session.commit()
    if revealed:
        scrub()
    return redirect(url_for("vote.proxy", code=table.code, number=number,
                            round_number=round_number, done=1), code=303)
