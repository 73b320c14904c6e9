"""Make the companion installable: web manifest, service worker, offline page.

The service worker (``static/sw.js``) is served from the site root so that
its scope is the whole app. It caches only the app shell (style sheets,
the scripts, the icons and the offline page); pages, partials, ballots,
scores and money always come from the network.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from flask import Blueprint, Response, current_app, make_response, render_template, url_for
from flask_babel import lazy_gettext as _l

from .flow import game_stylesheets

bp = Blueprint("pwa", __name__)

NAME = _l("The companion")
SHORT_NAME = _l("Companion")
DESCRIPTION = _l(
    "Keep score for card games played with real cards at a real table: "
    "one shared scorekeeper screen, every player's phone as their own slip."
)
"""The manifest's words, in the language of the device that installs the app."""
THEME_COLOR = "#111418"
BACKGROUND_COLOR = "#111418"
ICONS = (
    # (file under static/, size, purpose)
    ("icons/icon-192.png", 192, "any"),
    ("icons/icon-512.png", 512, "any"),
    ("icons/maskable-512.png", 512, "maskable"),
)


def _static_dir() -> Path:
    """The app's static folder."""
    return Path(current_app.static_folder or "static")


def scripts() -> list[str]:
    """The app's own scripts, which every page loads: the ES modules under static/app/.

    boot.js imports the others; a module missing from the shell would leave the offline
    page without its scripts, so the list is the folder's.
    """
    folder = _static_dir() / "app"
    if not folder.is_dir():
        return []
    return sorted(p.relative_to(_static_dir()).as_posix() for p in folder.glob("*.js"))


def stylesheets() -> list[str]:
    """The style sheets under static/css/, as file names relative to static/."""
    css = _static_dir() / "css"
    if not css.is_dir():
        return []
    return sorted(p.relative_to(_static_dir()).as_posix() for p in css.rglob("*.css"))


def shell_files() -> list[str]:
    """The static files of the app shell, relative to static/."""
    return [*stylesheets(), *scripts(), *(icon for icon, _size, _purpose in ICONS)]


def _stylesheet_urls() -> list[str]:
    """Every page's style sheets: the app's own, then each game's (from its package)."""
    return [url_for("static", filename=name) for name in stylesheets()] + list(game_stylesheets())


def shell_urls() -> list[str]:
    """Every URL the service worker stores on install: the shell files, the games' style
    sheets and /offline."""
    return [url_for("static", filename=name) for name in shell_files()] + [
        *game_stylesheets(), url_for("pwa.offline")
    ]


def _shell_version() -> str:
    """A short hash of the shell and the worker, so any change makes a new cache."""
    digest = hashlib.sha256()
    static = _static_dir()
    for name in [*shell_files(), "sw.js"]:
        path = static / name
        digest.update(name.encode())
        if path.is_file():
            digest.update(path.read_bytes())
    for url, path in game_stylesheets().items():
        digest.update(url.encode())
        digest.update(path.read_bytes())
    digest.update(render_template("pwa/offline.html", **_offline_context()).encode())
    return digest.hexdigest()[:12]


@bp.record_once
def _describe_every_page(state) -> None:
    """Every page's ``<meta name="description">`` says what the app is, as its manifest
    does, in the device's language (a lazy string, said when the page is drawn)."""
    state.app.jinja_env.globals["app_description"] = DESCRIPTION


def _offline_context() -> dict[str, object]:
    """What the offline page needs to look like the app without a network."""
    return {"stylesheets": _stylesheet_urls(), "theme_color": THEME_COLOR}


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    """The web app manifest that makes the companion installable."""
    data = {
        "id": "/",
        "name": str(NAME),
        "short_name": str(SHORT_NAME),
        "description": str(DESCRIPTION),
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOR,
        "background_color": BACKGROUND_COLOR,
        "icons": [
            {
                "src": url_for("static", filename=name),
                "sizes": f"{size}x{size}",
                "type": "image/png",
                "purpose": purpose,
            }
            for name, size, purpose in ICONS
        ],
    }
    response = Response(json.dumps(data, indent=2), mimetype="application/manifest+json")
    response.cache_control.no_cache = True
    return response


@bp.get("/sw.js")
def service_worker() -> Response:
    """The service worker, from the root so that it controls every page.

    The list of shell URLs and a version hash go in front of static/sw.js, so
    the worker updates itself whenever a shell file changes.
    """
    source = (_static_dir() / "sw.js").read_text(encoding="utf-8")
    config = (
        f"self.COMPANION_SHELL = {json.dumps(shell_urls())};\n"
        f"self.COMPANION_OFFLINE = {json.dumps(url_for('pwa.offline'))};\n"
        f"self.COMPANION_VERSION = {json.dumps(_shell_version())};\n"
    )
    response = Response(config + source, mimetype="text/javascript")
    response.headers["Service-Worker-Allowed"] = "/"
    response.cache_control.no_cache = True
    return response


@bp.get("/offline")
def offline() -> Response:
    """The page the service worker shows when a page cannot be fetched.

    It holds no seat, key or token, so it may be kept, but always checked
    again (``no-cache``): the service worker refreshes its copy with the shell.
    """
    response = make_response(render_template("pwa/offline.html", **_offline_context()))
    response.cache_control.no_cache = True
    return response
