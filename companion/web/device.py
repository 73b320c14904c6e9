"""What each device chooses for itself: its language and its colours, each kept in a cookie.

**Language**: English, French, German or Norwegian Bokmål (Flask-Babel).

Each device reads the app in its own language, whatever the table's: a French phone at an
English table reads French. The language is the one the device chose (a cookie, set by
the switch at the foot of every page), else the best of its browser's ``Accept-Language``,
else English. Numbers and money follow it too (:func:`locale_name`, used by the money
filter).

The catalogues are ``companion/translations/<language>/LC_MESSAGES/messages.po``, made
with ``pybabel`` (``babel.cfg`` says where the strings are). The app compiles a catalogue
whose ``.mo`` is missing or older than its ``.po`` when it starts
(:func:`compile_catalogues`), so a fresh checkout needs no step of its own.

A game may have catalogues of its own, in the folder its registry entry names
(``Registered.translations``): the words of its templates, its flow and its rules' codes,
so that a new game adds its words without touching the app's catalogues. Flask-Babel
reads them all (:func:`catalogue_folders`: each game's, then the app's, whose words and
plural forms win where both say the same).

**Colours**: light, dark, or as the device (its ``prefers-color-scheme``). The page reads
the cookie (:func:`device_theme`) so that it is drawn in them from its first paint;
``static/app/theme.js`` sets it at once, ``GET /theme`` without JavaScript.

Both switches are at the foot of every page (``templates/_device.html``).
"""

from __future__ import annotations

import logging
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from flask import Blueprint, Flask, Response, abort, redirect, request, url_for
from flask_babel import Babel, get_locale

from ..rules.games import GAMES, registered

log = logging.getLogger(__name__)

LANGUAGES: dict[str, str] = {"en": "English", "fr": "Français", "de": "Deutsch",
                             "nb": "Norsk bokmål"}
"""The languages of the app, each by its code and its own name for itself."""

ALIASES = {"no": "nb", "nn": "nb"}
"""Browser languages read as one of :data:`LANGUAGES` (Norwegian, and Nynorsk, read
Bokmål)."""

COOKIE = "lang"
"""The cookie that keeps the device's own language."""
THEME_COOKIE = "companion-theme"
"""The colours chosen on this device (static/app/theme.js sets it; /theme without it)."""
THEMES = ("auto", "light", "dark")
"""As the device (its prefers-color-scheme), or always light, or always dark."""
A_YEAR = 365 * 24 * 3600
"""How long a device keeps its choices (seconds)."""

CATALOGUES = Path(__file__).resolve().parent.parent / "translations"
"""Where the catalogues are (Flask-Babel's default, beside the app's package)."""

bp = Blueprint("device", __name__)


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


def _back(page: str) -> str:
    """Where a switch goes back to: ``page`` when it is a page of this app, else home."""
    if not page.startswith("/") or page.startswith("//") or "\\" in page:
        return url_for("home.index")
    return page


@bp.post("/language")
def language() -> Response:
    """Keep the language chosen on this device, and go back to the page it was chosen on."""
    lang = request.form.get("lang", "")
    answer = redirect(_back(request.form.get("next", "")), code=303)
    if lang in LANGUAGES:
        answer.set_cookie(COOKIE, lang, max_age=A_YEAR, samesite="Lax", httponly=True,
                          secure=request.is_secure)
    return answer


@bp.app_template_global()
def device_theme() -> str:
    """This device's colours, so that every page is drawn in them from its first paint
    (base.html asks; a region drawn for a live page does not)."""
    choice = request.cookies.get(THEME_COOKIE, "auto")
    return choice if choice in THEMES else "auto"


@bp.get("/theme")
def theme() -> Response:
    """The colours switch without JavaScript: keep the choice on this device, go back."""
    choice = request.args.get("theme", "")
    if choice not in THEMES:
        abort(400, "Choose light, dark, or as the device.")
    answer = redirect(_back(request.args.get("next", "")), code=303)
    if choice == "auto":
        answer.delete_cookie(THEME_COOKIE)
    else:
        answer.set_cookie(THEME_COOKIE, choice, max_age=A_YEAR, samesite="Lax")
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


def catalogue_folders() -> list[Path]:
    """Every folder of catalogues the app reads: each registered game's own (in the
    registry's order), then the app's (:data:`CATALOGUES`), read last so that its words and
    its plural forms win where a game's catalogue says the same."""
    games = [registered(game).catalogues() for game in GAMES]
    return [*(folder for folder in games if folder is not None), CATALOGUES]


def register(app: Flask) -> None:
    """Give the app its languages (Flask-Babel with the device's locale, reading the app's
    catalogues and each game's) and both switches, with the templates' globals (the
    languages, the page's own, the device's colours)."""
    folders = catalogue_folders()
    for folder in folders:
        compile_catalogues(folder)
    Babel(app, locale_selector=choose_locale,
          default_translation_directories=";".join(map(str, folders)))
    app.register_blueprint(bp)
    app.jinja_env.globals["languages"] = LANGUAGES
    app.jinja_env.globals["page_language"] = locale_name


__all__ = ["LANGUAGES", "THEMES", "THEME_COOKIE", "catalogue_folders", "choose_locale",
           "compile_catalogues",
           "device_theme", "language", "locale_name", "register", "theme"]
