"""Error pages: a clear message and the right status, as HTML or (under /api) as JSON.

Nothing a player can type leads to a 500: bad input is refused with a 4xx
and a message saying what to do.
"""

from __future__ import annotations

from flask import Flask, jsonify, render_template, request
from flask_limiter import RateLimitExceeded
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import BadRequestKeyError, HTTPException, InternalServerError

TITLES = {
    400: "That didn't work",
    403: "Not for this device",
    404: "Not found",
    405: "Not like that",
    408: "Too slow",
    409: "Not now",
    413: "Too much at once",
    429: "Too many tries",
    500: "Something went wrong",
}

MESSAGES = {
    400: "The app could not read what was sent. Go back and try again.",
    403: "This device may not do that.",
    404: "There is nothing at this address. Check the code or the link.",
    405: "This address does not take that kind of request.",
    408: "The request took too long to arrive, so nothing was done with it. Try again.",
    409: "That changed a moment ago. Look again and try once more.",
    413: "That is more than the app takes in one go.",
    429: "Too many tries from this device. Wait a minute, then check the code on the "
         "scorekeeper's screen.",
    500: "Something broke on the server. Your seat and the scores are safe; try again.",
}


def wants_json() -> bool:
    """True for the JSON API, which answers errors as ``{"error": message}``."""
    return request.path.startswith("/api/") or request.path.endswith(".json")


def message_of(error: HTTPException) -> str:
    """The message for a player: the one the view gave, else a plain one for the status."""
    code = error.code or 500
    if isinstance(error, CSRFError):
        return ("This form has expired or did not come from this app. Reload the page and "
                "try again.")
    if isinstance(error, BadRequestKeyError):
        return f"The form is missing its {error.args[0]!r} field. Reload the page and try again."
    described = error.description
    if isinstance(error, RateLimitExceeded) and not error.limit.error_message:
        described = None  # the limit's own text ("30 per 1 minute") is no message
    if described and described != type(error).description:
        return str(described)
    return MESSAGES.get(code, MESSAGES[500] if code >= 500 else MESSAGES[400])


def handle(error: HTTPException):
    """Render any HTTP error for a person, a poll or the API."""
    code = error.code or 500
    message = message_of(error)
    headers = {}
    if code == 405 and error.get_response().headers.get("Allow"):
        headers["Allow"] = error.get_response().headers["Allow"]
    if wants_json():
        return jsonify(error=message), code, headers
    title = TITLES.get(code, TITLES[500] if code >= 500 else TITLES[400])
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
