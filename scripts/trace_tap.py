"""Trace one Trefeltromp bet sent as an htmx tap: which of the project's modules it enters.

In process (Flask's test client, a SQLite file in a temporary folder): a table with its
scorekeeper and three phones, Trefeltromp started and dealt, so that Bo is to bet. Then
ONE bet, sent as ``static/app/taps-page.js`` sends a tap (``HX-Request: true``, the tap's key in
``X-Companion-Tap``, the page's id in ``X-Companion-Page``), is traced with
``sys.setprofile``: the project modules entered (files under ``companion/``), the
templates rendered (Flask's ``template_rendered`` signal) and entered (the ones they
include or import), the calls into the project's
functions and the deepest nesting of them. It prints::

    modules=N templates=T calls=C depth=D

then the modules and the templates, one a line. ``--json`` prints the same as JSON.
``tests/test_layers.py`` runs it and keeps the modules at most its ``CEILING``.
"""

from __future__ import annotations

import argparse
import json
import re
import secrets
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = ("Ann", "Bo", "Cy")
OPTIONS = {"unit": "GBP", "ante": "10", "stack": "100", "limit": "", "chip_value": ""}
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"|"X-CSRFToken": "([^"]+)"')
HTMX = {"HX-Request": "true"}


@dataclass
class Trace:
    """What one request entered of the project."""

    modules: list[str] = field(default_factory=list)
    templates: list[str] = field(default_factory=list)
    calls: int = 0
    depth: int = 0
    status: int = 0

    def line(self) -> str:
        return (f"modules={len(self.modules)} templates={len(self.templates)} "
                f"calls={self.calls} depth={self.depth}")


def _token(client: Any) -> str:
    found = CSRF.search(client.get("/").get_data(as_text=True))
    assert found, "no CSRF token on the home page"
    return found.group(1) or found.group(2)


def _post(client: Any, url: str, data: dict[str, Any], headers: dict[str, str] | None = None,
          ) -> Any:
    return client.post(url, data={"csrf_token": _token(client), **data}, headers=headers or {})


def betting_table(app: Any) -> tuple[str, Any]:
    """A Trefeltromp table whose hand is dealt: its code, and Bo's phone (Bo bets first)."""
    keeper = app.test_client()
    made = _post(keeper, "/new", {"name": "Friday night", "game": "trefeltromp", "seats": "3",
                                  "player": list(PLAYERS), "dealer": "1"})
    assert made.status_code == 303, made.get_data(as_text=True)
    code = made.headers["Location"].rstrip("/").rsplit("/", 1)[-1]
    phones = []
    for position in range(1, len(PLAYERS) + 1):
        phone = app.test_client()
        phone.environ_base["REMOTE_ADDR"] = f"192.168.1.{100 + position}"
        claimed = _post(phone, f"/j/{code}/claim", {"seat": str(position)})
        assert claimed.status_code == 303, claimed.get_data(as_text=True)
        phones.append(phone)
    started = _post(keeper, f"/t/{code}/start", OPTIONS)
    assert started.status_code == 303, started.get_data(as_text=True)
    dealt = _post(keeper, f"/t/{code}/games/1/trefeltromp/deal",
                  {"round": "1", "moment": "0", "from": "keeper"})
    assert dealt.status_code == 303, dealt.get_data(as_text=True)
    return code, phones[1]


@contextmanager
def traced(into: Trace) -> Iterator[None]:
    """Note the project's modules, calls and depth, and the templates, inside the block."""
    from flask import template_rendered

    package = str(ROOT / "companion") + "/"
    folder = str(ROOT / "templates") + "/"
    modules: set[str] = set()
    templates: set[str] = set()
    stack: list[bool] = []  # per Python frame entered: is it the project's?
    mine = 0

    def profile(frame: Any, event: str, _arg: Any) -> None:
        nonlocal mine
        if event == "call":
            filename = frame.f_code.co_filename
            # A game's templates live in its package: a template is not a module.
            ours = filename.startswith(package) and filename.endswith(".py")
            stack.append(ours)
            if filename.startswith(folder):
                templates.add(filename[len(folder):])
            elif filename.endswith(".html") and "/templates/" in filename:
                templates.add(filename.split("/templates/", 1)[1])
            if ours:
                modules.add(filename[len(package):])
                into.calls += 1
                mine += 1
                into.depth = max(into.depth, mine)
        elif event == "return" and stack:
            if stack.pop():
                mine -= 1

    def rendered(_app: Any, template: Any, **_extra: Any) -> None:
        templates.add(template.name)

    template_rendered.connect(rendered)
    sys.setprofile(profile)
    try:
        yield
    finally:
        sys.setprofile(None)
        template_rendered.disconnect(rendered)
        into.modules = sorted(modules)
        into.templates = sorted(templates)


def trace_bet() -> Trace:
    """Set a table up to Bo's bet, then trace the bet sent from Bo's phone as a tap."""
    from companion import create_app
    from companion.extensions import db

    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"TESTING": True, "SECRET_KEY": "trace",
                          "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/trace.sqlite3",
                          "PUBLIC_URL": "", "RATELIMIT_STORAGE_URI": "memory://",
                          "NEW_TABLE_LIMIT": "1000/minute"})
        with app.app_context():
            db.create_all()
        code, bo = betting_table(app)
        region = bo.get(f"/t/{code}/seat/pulse", headers=HTMX).get_data(as_text=True)
        at = re.search(r'name="moment" value="(\d+)"', region)
        form = {"csrf_token": _token(bo), "round": "1", "moment": at.group(1) if at else "0",
                "from": "seat", "verb": "bet", "amount": "5"}
        headers = {**HTMX, "X-Companion-Tap": secrets.token_hex(16),
                   "X-Companion-Page": secrets.token_hex(8)}
        trace = Trace()
        url = f"/t/{code}/games/1/trefeltromp/seats/2/act"
        with traced(trace):
            response = bo.post(url, data=form, headers=headers)
        trace.status = response.status_code
        assert response.status_code == 200, response.get_data(as_text=True)[:500]
        with app.app_context():
            db.session.remove()
            db.engine.dispose()
    return trace


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("--json", action="store_true", help="print the trace as JSON")
    options = parser.parse_args()
    trace = trace_bet()
    if options.json:
        print(json.dumps(asdict(trace)))
        return
    print(trace.line())
    for name in trace.modules:
        print(f"  companion/{name}")
    for name in trace.templates:
        print(f"  templates/{name}")


if __name__ == "__main__":
    main()
