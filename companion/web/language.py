"""The device's language: English, French, German or Norwegian Bokmål (Flask-Babel).

Each device reads the app in its own language, whatever the table's: a French phone at an
English table reads French. The language is the one the device chose (a cookie, set by
the switch at the foot of every page), else the best of its browser's ``Accept-Language``,
else English. Numbers and money follow it too (:func:`locale_name`, used by the money
filter).

The catalogues are ``companion/translations/<language>/LC_MESSAGES/messages.po``, made
with ``pybabel`` (``babel.cfg`` says where the strings are). The app compiles a catalogue
whose ``.mo`` is missing or older than its ``.po`` when it starts
(:func:`compile_catalogues`), so a fresh checkout needs no step of its own.
"""

from __future__ import annotations

import logging
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from flask import Blueprint, Flask, Response, redirect, request, url_for
from flask_babel import Babel, get_locale

log = logging.getLogger(__name__)

LANGUAGES: dict[str, str] = {"en": "English", "fr": "Français", "de": "Deutsch",
                             "nb": "Norsk bokmål"}
"""The languages of the app, each by its code and its own name for itself."""

ALIASES = {"no": "nb", "nn": "nb"}
"""Browser languages read as one of :data:`LANGUAGES` (Norwegian, and Nynorsk, read
Bokmål)."""

COOKIE = "lang"
"""The cookie that keeps the device's own choice (a year, like the theme)."""

CATALOGUES = Path(__file__).resolve().parent.parent / "translations"
"""Where the catalogues are (Flask-Babel's default, beside the app's package)."""

bp = Blueprint("language", __name__)


def choose_locale() -> str:
    """The language of the request's device: its choice, else its browser's, else English.

    >>> from flask import Flask
    >>> app = Flask(__name__)
    >>> with app.test_request_context(headers={"Accept-Language": "nn-NO, de;q=0.5"}):
    ...     choose_locale()
    'nb'
    """
    chosen = request.cookies.get(COOKIE)
    if chosen in LANGUAGES:
        return chosen
    for wanted, _quality in request.accept_languages:
        base = wanted.split("-")[0].split("_")[0].lower()
        base = ALIASES.get(base, base)
        if base in LANGUAGES:
            return base
    return "en"


def locale_name() -> str:
    """The language numbers and money are written in now: the request's, or English
    outside a request (a record's export, a script)."""
    try:
        found = get_locale()
    except RuntimeError:  # no app or no request: English
        return "en"
    return str(found) if found is not None else "en"


@bp.post("/language")
def choose() -> Response:
    """Keep the language chosen on this device, and go back to the page it was chosen on."""
    lang = request.form.get("lang", "")
    back = request.form.get("next", "")
    if not back.startswith("/") or back.startswith("//") or "\\" in back:
        back = url_for("home.index")
    answer = redirect(back, code=303)
    if lang in LANGUAGES:
        answer.set_cookie(COOKIE, lang, max_age=365 * 24 * 3600, samesite="Lax",
                          httponly=True, secure=request.is_secure)
    return answer


def compile_catalogues(folder: Path = CATALOGUES) -> list[str]:
    """Compile each catalogue whose ``.mo`` is missing or older than its ``.po``; the
    languages compiled. A folder that cannot be written is left as it is (logged)."""
    compiled = []
    for po in sorted(folder.glob("*/LC_MESSAGES/messages.po")):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        try:
            with po.open("rb") as source:
                catalogue = read_po(source)
            with mo.open("wb") as target:
                write_mo(target, catalogue)
        except OSError as error:
            log.warning("catalogue %s not compiled: %s", po, error)
            continue
        compiled.append(po.parent.parent.name)
    return compiled


def register(app: Flask) -> None:
    """Give the app its languages: Flask-Babel with the device's locale, the switch, and
    the templates' globals (the languages, the page's own)."""
    compile_catalogues()
    Babel(app, locale_selector=choose_locale, default_translation_directories=str(CATALOGUES))
    app.register_blueprint(bp)
    app.jinja_env.globals["languages"] = LANGUAGES
    app.jinja_env.globals["page_language"] = locale_name


__all__ = ["LANGUAGES", "choose", "choose_locale", "compile_catalogues", "locale_name",
           "register"]
