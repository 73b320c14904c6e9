"""The home page: start a table, join one with its code, or take one over."""

from __future__ import annotations

from flask import Blueprint, redirect, render_template, request, url_for
from flask_babel import gettext as _

from ..extensions import db
from ..store import changes, check_recovery, commits, is_code, normalise_code, queries
from .actions import table_action
from .limits import wrong_codes
from .roles import remember_keeper

bp = Blueprint("home", __name__)

@bp.get("/")
def index():
    """Start a table, join one with a code, or take one over."""
    return render_template("home/index.html")


@bp.get("/join")
@wrong_codes
def join_code():
    """The "join with a code" form: off to the table's join page."""
    typed = request.args.get("code", "")
    code = normalise_code(typed)
    if not code:
        return render_template("home/index.html", join_error=_(
        "Type the code shown under the QR code on the scorekeeper's screen.")), 400
    table = db.session.scalar(queries.table_by_code(code)) if is_code(code) else None
    if table is None:
        return render_template("home/index.html", code=typed[:20], join_error=(
            _("There is no table with the code %(code)s. Check it on the scorekeeper's "
              "screen (letters and digits; there is no O, 0, I or 1).", code=typed[:20]))), 404
    return redirect(url_for("seats.join", code=table.code), code=303)


@bp.route("/recover", methods=["GET", "POST"])
@wrong_codes
@table_action(find=False)
def recover():
    """Take a table over on this device with its join code and recovery code."""
    if request.method == "GET":
        return render_template("home/recover.html", code=request.args.get("code", "")[:20])
    typed_code = request.form.get("code", "")
    typed_recovery = request.form.get("recovery", "")
    code, recovery = normalise_code(typed_code), normalise_code(typed_recovery)
    if not code or not recovery:
        return render_template("home/recover.html", code=typed_code[:20], error=(
            _("Type the table's code and its recovery code."))), 400
    table = commits.find_to_change(code) if is_code(code) else None
    if table is None or not is_code(recovery) or not check_recovery(
            recovery, table.recovery_code_hash):
        return render_template("home/recover.html", code=typed_code[:20], error=(
            _("No table has that code and recovery code. The recovery code is on the old "
              "scorekeeper screen, under \u201cRecovery code\u201d."))), 404
    key, new_recovery = changes.take_over(table)
    remember_keeper(table, key, new_recovery)  # (the cookie goes with the answer)
    # The new recovery code is shown open on the screen this device lands on.
    return redirect(url_for("tables.keeper", code=table.code, new_recovery=1), code=303)
