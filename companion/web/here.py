"""A table on this device (issue 42): the page that runs the whole app in this browser.

``/here`` starts Pyodide in a Web Worker (``/here/worker.js``: ``static/here/worker.js``,
with a policy of its own that lets it compile WebAssembly) and shows the app's pages, under
``companion.config.OFFLINE_MOUNT``, in a frame; the service worker (``static/sw.js``) passes the
frame's requests to the worker and keeps these files, so that it all works with no network
after a first visit. Pyodide's files come from ``node_modules/pyodide`` and the app's zip
from ``scripts/build_offline.py`` (``instance/offline/``): nothing from a CDN.
"""

from __future__ import annotations

import json
from pathlib import Path

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    render_template,
    send_from_directory,
    url_for,
)

from ..config import OFFLINE_MOUNT as MOUNT

bp = Blueprint("here", __name__)

PYODIDE_FILES = frozenset({"pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm",
                           "python_stdlib.zip", "pyodide-lock.json"})
"""The files of the npm package pyodide that the worker loads (no packages: the app's zip
holds its own)."""
TYPES = {".mjs": "text/javascript", ".wasm": "application/wasm", ".zip": "application/zip",
         ".json": "application/json"}
FOREVER = "public, max-age=31536000, immutable"
WORKER_POLICY = ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; "
                 "connect-src 'self'; base-uri 'none'")
"""The worker's policy: the app's own scripts, and WebAssembly compiled (Pyodide)."""


def _root() -> Path:
    return Path(current_app.root_path).parent


def built() -> dict | None:
    """What ``scripts/build_offline.py`` said of its build (None: not built here)."""
    said = Path(current_app.instance_path) / "offline" / "offline.json"
    if not said.is_file():
        return None
    build = json.loads(said.read_text(encoding="utf-8"))
    if not (Path(current_app.instance_path) / "offline" / build["zip"]).is_file():
        return None
    if not (_root() / "node_modules" / "pyodide" / "pyodide.mjs").is_file():
        return None
    return build


@bp.get("/here")
def index() -> Response:
    """The page of a table on this device: it starts the app in this browser and shows it."""
    build = built()
    base = url_for("here.pyodide", version=build["pyodide"], name="-")[:-1] if build else ""
    response = Response(render_template("here/index.html", build=build, mount=MOUNT,
                                        pyodide_base=base))
    response.cache_control.no_cache = True  # (the service worker keeps it, checked each time)
    return response


@bp.get("/here/worker.js")
def worker() -> Response:
    """The Web Worker that runs Python (Pyodide) and the app in it."""
    source = (Path(current_app.static_folder or "static") / "here" / "worker.js").read_text(
        encoding="utf-8")
    response = Response(source, mimetype="text/javascript")
    response.headers["Content-Security-Policy"] = WORKER_POLICY
    response.cache_control.no_cache = True
    return response


@bp.get("/here/nacl.js")
def nacl() -> Response:
    """tweetnacl for the worker (the app's own copy, ``static/vendor/nacl-fast.min.js``),
    under ``/here`` so that the service worker keeps it with the table on this device's
    files, and only there."""
    response = send_from_directory(Path(current_app.static_folder or "static") / "vendor",
                                   "nacl-fast.min.js", mimetype="text/javascript")
    response.cache_control.no_cache = True
    return response


@bp.get("/here/pyodide/<version>/<name>")
def pyodide(version: str, name: str) -> Response:
    """One of Pyodide's files, from the npm package (its version in the URL: kept for ever)."""
    build = built()
    if build is None or version != build["pyodide"] or name not in PYODIDE_FILES:
        abort(404)
    return _forever(send_from_directory(_root() / "node_modules" / "pyodide", name,
                                        mimetype=TYPES[Path(name).suffix]))


@bp.get("/here/files/<name>")
def files(name: str) -> Response:
    """The app's zip (its hash in its name: kept for ever)."""
    build = built()
    if build is None or name != build["zip"]:
        abort(404)
    return _forever(send_from_directory(Path(current_app.instance_path) / "offline", name,
                                        mimetype=TYPES[".zip"]))


def _forever(response: Response) -> Response:
    response.headers["Cache-Control"] = FOREVER
    return response
