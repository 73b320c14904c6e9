"""A table on this device: the whole app in the tablet's browser, with no server (issue 42).

The page ``/here`` (``companion.web.here``) starts Pyodide in a Web Worker
(``static/here/worker.js``), which unpacks the app (``scripts/build_offline.py``) and
calls :func:`start`; the service worker (``static/sw.js``) passes each request under
:data:`MOUNT` to it, and :meth:`Here.answer` answers it with this same Flask app, made with
``OFFLINE`` (``companion.config.OFFLINE_SETTINGS``): no compression, no rate limits, no
event streams, no thread, slips sealed by the plain-Python box (``companion.store.box``).

The tablet is every seat: the players enter their slips on its private slip, one after
the other; nothing crosses a wire, and no phone can join (the pages under ``/here`` exist
only in this browser). The database is a SQLite file in ``folder`` (the browser keeps it
in IndexedDB: the worker stores it after every request that may have changed it), and so
are the signing key and the tablet's cookies (its seats and scorekeeper key): the evening
survives a reload. This module runs in CPython too (``tests/web/test_offline.py``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any

from .config import OFFLINE_MOUNT as MOUNT

DATABASE = "companion.sqlite3"
COOKIES = "cookies.json"
READS = frozenset({"GET", "HEAD", "OPTIONS"})


class Here:
    """The app of a table on this device, answering the requests the browser passes it."""

    def __init__(self, app: Any, folder: Path, origin: str) -> None:
        self.app = app
        self.folder = folder
        self.origin = origin.rstrip("/")
        self.client = app.test_client(use_cookies=False)
        path = folder / COOKIES
        self.cookies: dict[str, str] = json.loads(path.read_text()) if path.is_file() else {}

    def answer(self, method: str, url: str, headers: Iterable[tuple[str, str]],
               body: bytes | None = None) -> dict[str, Any]:
        """The app's answer to ``method`` ``url`` (a path under :data:`MOUNT`, with its
        query): its status, headers (without cookies: the tablet's are kept here) and body,
        and whether the worker should store the folder now (``store``)."""
        path = url[len(MOUNT):] if url.startswith(MOUNT) else url
        given = [(name, value) for name, value in headers if name.lower() != "cookie"]
        if self.cookies:
            given.append(("Cookie", "; ".join(f"{k}={v}" for k, v in self.cookies.items())))
        response = self.client.open(path or "/", method=method, headers=given,
                                    data=body or None, base_url=self.origin + MOUNT)
        changed = self._keep_cookies(response.headers.getlist("Set-Cookie"))
        answer = {
            "status": response.status_code,
            "headers": [(name, value) for name, value in response.headers.items()
                        if name.lower() != "set-cookie"],
            "body": response.get_data(),
            "store": changed or method.upper() not in READS,
        }
        response.close()
        return answer

    def _keep_cookies(self, said: list[str]) -> bool:
        """Keep what the app's Set-Cookie headers say (a Max-Age of 0 deletes); True when
        the tablet's cookies changed (they are written to the folder then)."""
        before = dict(self.cookies)
        for header in said:
            for name, morsel in SimpleCookie(header).items():
                if morsel["max-age"] in ("0", 0) or (morsel["expires"] and not morsel.value):
                    self.cookies.pop(name, None)
                else:
                    self.cookies[name] = morsel.coded_value
        if self.cookies == before:
            return False
        (self.folder / COOKIES).write_text(json.dumps(self.cookies))
        return True


def start(folder: str, origin: str) -> Here:
    """Make the app of a table on this device, its database and key in ``folder`` (made
    with its tables the first time), answering as if at ``origin`` (the page's)."""
    from . import create_app
    from .config import secret_key
    from .extensions import db

    place = Path(folder)
    place.mkdir(parents=True, exist_ok=True)
    app = create_app({
        "OFFLINE": True,
        "SECRET_KEY": secret_key(str(place)),
        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{place / DATABASE}",
        "PUBLIC_URL": "",
        # htmx: the app's own copy, as the browser sees it under MOUNT (no CDN offline).
        "HTMX_URL": f"{MOUNT}/static/vendor/htmx.min.js",
    })
    with app.app_context():
        db.create_all()
    return Here(app, place, origin)


__all__ = ["MOUNT", "Here", "start"]
