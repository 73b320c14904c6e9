"""Real-browser tests: a live companion server and Chromium driven by Playwright.

The server is the real app (``create_app``) on a temporary SQLite database,
served by werkzeug in a thread on 127.0.0.1. Chromium is Debian's
``/usr/bin/chromium``. The machine running the tests may have no internet, so
every browser context answers the pinned htmx CDN URL with a local copy of the
same file (its SRI hash still has to match): the app's own, in static/vendor/.
(Pages on 127.0.0.1 or a LAN name load the app's own copy and never ask the CDN;
only a page on a public name does: ``companion.web.security``.)
Chromium also resolves the made-up names ``LAN_HOST`` and ``PUBLIC_HOST`` to
127.0.0.1, so a test can open the server as a LAN name that is not localhost (not a
secure context), or as a server on the internet (:func:`public_url`).

Without Chromium or the local htmx the tests are skipped with the reason,
unless ``COMPANION_REQUIRE_BROWSER=1`` (CI), when they fail instead.

What a game's browser tests share (a table of that game, its players) is in that game's
browser helper, ``tests/browser/games/<game>.py``; the fixtures a helper names in its
``FIXTURES`` are offered here to every browser test (:func:`game_fixtures`, found through
the registry: this module names no game).
"""

from __future__ import annotations

import importlib
import os
import re
import shutil
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from companion.config import HTMX_COPY
from companion.config import HTMX_URL as HTMX_CDN_URL
from companion.rules import GAMES
from tests.browser.fit import check_screen
from tests.browser.long_evening import HELPERS
from tests.browser.screens import LIVE_MS, make_table, start_with_defaults
from tests.waiting import HANG_MS

try:
    from playwright.sync_api import expect
except ImportError:  # reported by the ``browser`` fixture
    expect = None

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
CHROMIUM = "/usr/bin/chromium"
LAN_HOST = "companion-lan.local"
PUBLIC_HOST = "companion.example.org"
CHROMIUM_ARGS = [
    f"--host-resolver-rules=MAP {LAN_HOST} 127.0.0.1, MAP {PUBLIC_HOST} 127.0.0.1",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-dev-shm-usage",
]
SCREENSHOTS = ROOT / "test-output" / "screenshots"
DOCS_SCREENSHOTS = ROOT / "docs" / "screenshots"
TABLET = {"viewport": {"width": 820, "height": 1180}, "device_scale_factor": 1}
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 1,
    "is_mobile": True,
    "has_touch": True,
}
if expect is not None:
    expect.set_options(timeout=LIVE_MS)  # every expect(...) waits as long, unless told otherwise


def pytest_collection_modifyitems(config, items):
    """Mark every test in this folder ``browser``."""
    for item in items:
        if HERE in Path(str(item.path)).resolve().parents:
            item.add_marker(pytest.mark.browser)


def missing(reason: str) -> None:
    """Skip for a missing browser or htmx, or fail when CI requires the browser tests."""
    if os.environ.get("COMPANION_REQUIRE_BROWSER") == "1":
        pytest.fail(f"{reason} (COMPANION_REQUIRE_BROWSER=1)", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def htmx_file() -> Path:
    """The local copy of the pinned htmx served in place of the CDN (the app's own)."""
    candidates = [os.environ.get("COMPANION_HTMX_FILE"), ROOT / "static" / HTMX_COPY]
    for candidate in candidates:
        if candidate and Path(candidate).is_file():
            return Path(candidate)
    missing(f"no local htmx: static/{HTMX_COPY} is missing and COMPANION_HTMX_FILE is not set")
    raise AssertionError("unreachable")


class _LateApp:
    """A WSGI app that forwards to the real one, which is made once the port is known."""

    def __init__(self) -> None:
        self.app = None
        self.config: dict = {}
        """The settings the app is made with (and made again with, at a restart)."""

    def __call__(self, environ, start_response):
        return self.app(environ, start_response)


@pytest.fixture(scope="session")
def live_wsgi() -> _LateApp:
    """What the live server serves: the app of the moment (a restart makes another)."""
    return _LateApp()


@pytest.fixture(scope="session")
def live_server(tmp_path_factory, live_wsgi) -> Iterator[str]:
    """The companion served on 127.0.0.1 and a free port; yields its base URL."""
    from werkzeug.serving import make_server

    from companion import create_app
    from companion.extensions import db

    wsgi = live_wsgi
    server = make_server("127.0.0.1", 0, wsgi, threaded=True)
    base_url = f"http://127.0.0.1:{server.server_port}"
    database = tmp_path_factory.mktemp("browser-db") / "companion.sqlite"
    wsgi.config = {
        "TESTING": True,
        "SECRET_KEY": "browser-tests",
        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}",
        "COMPANION_PUBLIC_URL": base_url,
        "PUBLIC_URL": base_url,
        # Every test makes its tables from this one address, in one server.
        "NEW_TABLE_LIMIT": "1000/minute", "API_LIMIT": "1000/minute",
        "REFUSED_IMPORT_LIMIT": "1000/minute",
    }
    app = create_app(wsgi.config)
    with app.app_context():
        db.create_all()
    wsgi.app = app
    thread = threading.Thread(target=server.serve_forever, name="live-server", daemon=True)
    thread.start()
    yield base_url
    server.shutdown()
    thread.join(timeout=5)


@pytest.fixture
def restart_server(live_server, live_wsgi) -> Callable[[], None]:
    """``restart_server()``: the live server restarts, as a server process would on the same
    database: a new app (with a new, empty sealing key store) answers from now on, and the
    old one's event streams end (their connections close, as a stopped process's do)."""
    from companion import create_app
    from companion.live.streams import EXTENSION

    def restart() -> None:
        old = live_wsgi.app
        live_wsgi.app = create_app(live_wsgi.config)
        bell = old.extensions[EXTENSION]
        bell.stopping = lambda: True
        with bell._lock:
            for table in bell._tables.values():
                table.news.notify_all()

    return restart


@pytest.fixture(scope="session")
def browser(htmx_file):
    """Headless Debian Chromium for the whole session."""
    if not (Path(CHROMIUM).is_file() and shutil.which(CHROMIUM)):
        missing(f"no Chromium at {CHROMIUM}: `apt-get install chromium`")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing("the playwright Python package is not installed")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


STOPPED_POLL = ("htmx:sendAbort", "htmx:afterRequest")
"""What htmx logs when a request is stopped (a network failure logs htmx:sendError too)."""


class ConsoleErrors(list):
    """Console errors and uncaught exceptions of every page in a test's contexts (but
    htmx's note of a poll a tap stopped on purpose: see action() in _macros.html)."""

    def watch(self, page, label: str) -> None:
        """Record ``page``'s console errors and page errors under ``label``."""
        page.on("console", lambda message: message.type == "error"
                and not message.text.startswith(STOPPED_POLL)
                and self.append(f"{label} console: {message.text} ({page.url})"))
        page.on("pageerror", lambda error: self.append(f"{label} page error: {error}"))


@pytest.fixture
def console_errors() -> ConsoleErrors:
    """The errors browser pages logged during this test."""
    return ConsoleErrors()


PAGE_STATE = """() => {
    const pulse = document.getElementById("pulse");
    return {stream: document.body && document.body.dataset.stream,
            heard: document.body && document.body.dataset.heard,
            shown: pulse && pulse.dataset.version};
}"""


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """On a failed browser test, add what each open page shows and hears: its pulse's
    version, the version its stream said last, and whether it hears its stream."""
    outcome = yield
    report = outcome.get_result()
    contexts = getattr(item, "companion_contexts", None)
    if report.when != "call" or not report.failed or not contexts:
        return
    lines = []
    for label, context in contexts:
        for page in context.pages:
            try:
                state = page.evaluate(PAGE_STATE)
            except Exception as error:  # a closed or crashed page: say so, go on
                state = f"unreadable ({error.__class__.__name__})"
            lines.append(f"{label} {page.url}: {state}")
    report.sections.append(("pages when it failed", "\n".join(lines)))


@pytest.fixture
def new_context(request, browser, live_server, htmx_file, console_errors) -> Iterator[Callable]:
    """Make browser contexts (separate devices: own cookies, own storage) for this test.

    ``new_context("phone", js=False)`` gives a fresh phone-sized context with
    JavaScript off; other keywords go to Playwright's ``new_context`` (e.g.
    ``base_url=lan_url``). The test fails if any page in them logs a console error.
    """
    contexts: list[tuple[str, object]] = []  # (label, context)
    request.node.companion_contexts = contexts  # for the failure report above
    counts: dict[str, int] = {}

    def serve_htmx(route) -> None:
        route.fulfill(path=str(htmx_file), content_type="application/javascript",
                      headers={"Access-Control-Allow-Origin": "*"})

    def make(kind: str = "phone", *, js: bool = True, **options):
        counts[kind] = counts.get(kind, 0) + 1
        label = f"{kind}{counts[kind]}"
        device = TABLET if kind == "tablet" else PHONE
        context = browser.new_context(java_script_enabled=js,
                                      **{"base_url": live_server, **device, **options})
        context.set_default_timeout(HANG_MS)
        context.companion_js = js  # (fit.py checks only the pages that run scripts)
        context.route(HTMX_CDN_URL, serve_htmx)
        context.on("page", lambda page: console_errors.watch(page, label))
        contexts.append((label, context))
        return context

    yield make
    for _label, context in contexts:
        context.close()
    assert not console_errors, "pages logged errors:\n" + "\n".join(console_errors)


@pytest.fixture
def lan_url(live_server) -> str:
    """The live server as a phone on the Wi-Fi sees it: plain http on a name that is not
    localhost, so pages there are not a secure context (no Wake Lock, no service worker)."""
    return live_server.replace("127.0.0.1", LAN_HOST)


@pytest.fixture
def public_url(live_server, live_wsgi) -> Iterator[str]:
    """The live server as a server on the internet, reached by a public name: its public
    URL (``COMPANION_PUBLIC_URL``) is that name's for this test, so pages there load htmx
    from the CDN, with the app's own copy as the fallback."""
    url = live_server.replace("127.0.0.1", PUBLIC_HOST)
    before = live_wsgi.config["PUBLIC_URL"]
    live_wsgi.config["PUBLIC_URL"] = live_wsgi.app.config["PUBLIC_URL"] = url
    yield url
    live_wsgi.config["PUBLIC_URL"] = live_wsgi.app.config["PUBLIC_URL"] = before


@pytest.fixture
def screenshot(request) -> Iterator[Callable]:
    """Save a page's screenshot as test-output/screenshots/<test>-<step>.png, and check
    that state (tests/browser/fit.py): it fits a 360 px phone or an 800 px tablet, in light
    and dark and at 200 % text, and axe-core finds no violation in it, of any impact. The
    test fails at its end, with every state that did not, once it has walked them all.

    ``screenshot(page, "seated", docs="phone")`` also copies it to
    docs/screenshots/phone.png (dark) and phone-light.png (light) when
    ``COMPANION_UPDATE_DOCS=1`` is set, so an ordinary test run leaves the committed
    README pictures alone.
    """
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    test_name = re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.name)

    problems: list[str] = []

    def take(page, step: str, *, docs: str | None = None) -> Path:
        path = SCREENSHOTS / f"{test_name}-{step}.png"
        page.screenshot(path=str(path), full_page=True)
        if docs and os.environ.get("COMPANION_UPDATE_DOCS") == "1":
            DOCS_SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            dark = page.evaluate("() => matchMedia('(prefers-color-scheme: dark)').matches")
            for scheme, suffix in (("dark", ""), ("light", "-light")):
                page.emulate_media(color_scheme=scheme)
                page.screenshot(path=str(DOCS_SCREENSHOTS / f"{docs}{suffix}.png"),
                                full_page=True)
            page.emulate_media(color_scheme="dark" if dark else "light")
        checked = check_screen(page, f"{test_name}-{step}")
        if checked:
            problems.extend(checked.problems())
        return path

    yield take
    assert not problems, "screens that do not fit or fail axe:\n" + "\n".join(problems)


# (The fit and axe counts, and the long evening's, are printed at the end of the run by
# tests/conftest.py, which adds up those of the xdist workers.)


@pytest.fixture(name="start_with_defaults")
def start_with_defaults_fixture() -> Callable:
    """:func:`start_with_defaults`, for the test modules."""
    return start_with_defaults


@pytest.fixture(name="make_table")
def make_table_fixture() -> Callable:
    """:func:`make_table`, for the test modules (importlib mode cannot import conftest)."""
    return make_table


def game_fixtures() -> dict[str, object]:
    """The fixtures each registered game's browser helper lends the browser tests (those it
    names in its ``FIXTURES``: a table of the game, say), by their names in the helper.

    Set into this module's namespace below, where pytest finds a conftest's fixtures: a
    test asks for ``<game>_table`` by name, as for any fixture here, and a new game's
    helper adds its own without a line here."""
    found: dict[str, object] = {}
    for game in GAMES:
        name = f"{HELPERS}.{game}"
        try:
            helper = importlib.import_module(name)
        except ModuleNotFoundError as error:
            if error.name != name:
                raise
            continue
        for fixture in getattr(helper, "FIXTURES", ()):
            if fixture in found or fixture in globals():
                raise ValueError(f"{name} lends {fixture}, a fixture name already taken")
            found[fixture] = getattr(helper, fixture)
    return found


globals().update(game_fixtures())
