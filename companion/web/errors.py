"""Error pages: a clear message and the right status, as HTML or (under /api) as JSON.

Nothing a player can type leads to a 500: bad input is refused with a 4xx
and a message saying what to do.
"""

from __future__ import annotations

from flask import Flask, jsonify, render_template, request
from flask_babel import force_locale
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_limiter import RateLimitExceeded
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import BadRequestKeyError, HTTPException, InternalServerError

TITLES = {
    400: _l("That didn't work"),
    403: _l("Not for this device"),
    404: _l("Not found"),
    405: _l("Not like that"),
    408: _l("Too slow"),
    409: _l("Not now"),
    413: _l("Too much at once"),
    429: _l("Too many tries"),
    500: _l("Something went wrong"),
}
"""An error page's title by its status, in the device's language."""

MESSAGES = {
    400: _l("The app could not read what was sent. Go back and try again."),
    403: _l("This device may not do that."),
    404: _l("There is nothing at this address. Check the code or the link."),
    405: _l("This address does not take that kind of request."),
    408: _l("The request took too long to arrive, so nothing was done with it. Try again."),
    409: _l("That changed a moment ago. Look again and try once more."),
    413: _l("That is more than the app takes in one go."),
    429: _l("Too many tries from this device. Wait a minute, then check the code on the "
            "scorekeeper's screen."),
    500: _l("Something broke on the server. Your seat and the scores are safe; try again."),
}
"""What an error says when its view gave no message of its own, by its status."""


def wants_json() -> bool:
    """True for the JSON API, which answers errors as ``{"error": message}``."""
    return request.path.startswith("/api/") or request.path.endswith(".json")


def message_of(error: HTTPException) -> str:
    """The message for a player: the one the view gave, else a plain one for the status."""
    code = error.code or 500
    if isinstance(error, CSRFError):
        return _("This form has expired or did not come from this app. Reload the page and "
                 "try again.")
    if isinstance(error, BadRequestKeyError):
        return _("The form is missing its %(field)s field. Reload the page and try again.",
                 field=repr(error.args[0]))
    described = error.description
    if isinstance(error, RateLimitExceeded) and not error.limit.error_message:
        described = None  # the limit's own text ("30 per 1 minute") is no message
    if described and described != type(error).description:
        return str(described)
    return str(MESSAGES.get(code, MESSAGES[500] if code >= 500 else MESSAGES[400]))


def handle(error: HTTPException):
    """Render any HTTP error for a person, a poll or the API."""
    code = error.code or 500
    if wants_json():  # the JSON API speaks English
        with force_locale("en"):
            message = message_of(error)
    else:
        message = message_of(error)
    headers = {}
    if code == 405 and error.get_response().headers.get("Allow"):
        headers["Allow"] = error.get_response().headers["Allow"]
    if wants_json():
        return jsonify(error=message), code, headers
    title = str(TITLES.get(code, TITLES[500] if code >= 500 else TITLES[400]))
    if request.headers.get("HX-Request") and not request.headers.get("HX-Boosted"):
        if code == 429 or code >= 500:
            # A poll that is held back (or hit a hiccup) just skips this tick:
            # the region stays as it is and asks again on the next one.
            return "", 204
        return render_template("_error.html", code=code, title=title, message=message), code
    return render_template("error.html", code=code, title=title, message=message), code, headers


def register(app: Flask) -> None:
    """Handle every HTTP error (and an unexpected exception) with :func:`handle`."""
    app.register_error_handler(HTTPException, handle)
    app.register_error_handler(InternalServerError, handle)
