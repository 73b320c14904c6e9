"""Real-browser tests: a live companion server and Chromium driven by Playwright.

The server is the real app (``create_app``) on a temporary SQLite database,
served by werkzeug in a thread on 127.0.0.1. Chromium is Debian's
``/usr/bin/chromium``. The machine running the tests may have no internet, so
every browser context answers the pinned htmx CDN URL with a local copy of the
same file (its SRI hash still has to match).

Without Chromium or the local htmx the tests are skipped with the reason,
unless ``COMPANION_REQUIRE_BROWSER=1`` (CI), when they fail instead.
"""

from __future__ import annotations

import os
import re
import shutil
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

try:
    from playwright.sync_api import expect
except ImportError:  # reported by the ``browser`` fixture
    expect = None

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-dev-shm-usage",
]
HTMX_CDN_URL = "https://unpkg.com/htmx.org@2.0.11/dist/htmx.min.js"
SCREENSHOTS = ROOT / "test-output" / "screenshots"
DOCS_SCREENSHOTS = ROOT / "docs" / "screenshots"
TABLET = {"viewport": {"width": 820, "height": 1180}, "device_scale_factor": 1}
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 1,
    "is_mobile": True,
    "has_touch": True,
}
# How long something may take to show up "without a reload" (two live ticks and then some).
LIVE_MS = 5_000


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
    """The local copy of htmx 2.0.11 served in place of the CDN."""
    candidates = [os.environ.get("COMPANION_HTMX_FILE"),
                  ROOT / "node_modules" / "htmx.org" / "dist" / "htmx.min.js"]
    for candidate in candidates:
        if candidate and Path(candidate).is_file():
            return Path(candidate)
    missing("no local htmx: run `npm install --no-save --no-package-lock htmx.org@2.0.11` "
            "or set COMPANION_HTMX_FILE")
    raise AssertionError("unreachable")


class _LateApp:
    """A WSGI app that forwards to the real one, which is made once the port is known."""

    def __init__(self) -> None:
        self.app = None

    def __call__(self, environ, start_response):
        return self.app(environ, start_response)


@pytest.fixture(scope="session")
def live_server(tmp_path_factory) -> Iterator[str]:
    """The companion served on 127.0.0.1 and a free port; yields its base URL."""
    from werkzeug.serving import make_server

    from companion import create_app
    from companion.extensions import db

    wsgi = _LateApp()
    server = make_server("127.0.0.1", 0, wsgi, threaded=True)
    base_url = f"http://127.0.0.1:{server.server_port}"
    database = tmp_path_factory.mktemp("browser-db") / "companion.sqlite"
    app = create_app({
        "TESTING": True,
        "SECRET_KEY": "browser-tests",
        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}",
        "COMPANION_PUBLIC_URL": base_url,
        "PUBLIC_URL": base_url,
    })
    with app.app_context():
        db.create_all()
    wsgi.app = app
    thread = threading.Thread(target=server.serve_forever, name="live-server", daemon=True)
    thread.start()
    yield base_url
    server.shutdown()
    thread.join(timeout=5)


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


class ConsoleErrors(list):
    """Console errors and uncaught exceptions of every page in a test's contexts."""

    def watch(self, page, label: str) -> None:
        """Record ``page``'s console errors and page errors under ``label``."""
        page.on("console", lambda message: message.type == "error"
                and self.append(f"{label} console: {message.text} ({page.url})"))
        page.on("pageerror", lambda error: self.append(f"{label} page error: {error}"))


@pytest.fixture
def console_errors() -> ConsoleErrors:
    """The errors browser pages logged during this test."""
    return ConsoleErrors()


@pytest.fixture
def new_context(browser, live_server, htmx_file, console_errors) -> Iterator[Callable]:
    """Make browser contexts (separate devices: own cookies, own storage) for this test.

    ``new_context("phone", js=False)`` gives a fresh phone-sized context with
    JavaScript off. The test fails if any page in them logs a console error.
    """
    contexts = []
    counts: dict[str, int] = {}

    def serve_htmx(route) -> None:
        route.fulfill(path=str(htmx_file), content_type="application/javascript",
                      headers={"Access-Control-Allow-Origin": "*"})

    def make(kind: str = "phone", *, js: bool = True, **options):
        counts[kind] = counts.get(kind, 0) + 1
        label = f"{kind}{counts[kind]}"
        device = TABLET if kind == "tablet" else PHONE
        context = browser.new_context(base_url=live_server, java_script_enabled=js,
                                      **{**device, **options})
        context.set_default_timeout(10_000)
        context.route(HTMX_CDN_URL, serve_htmx)
        context.on("page", lambda page: console_errors.watch(page, label))
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()
    assert not console_errors, "pages logged errors:\n" + "\n".join(console_errors)


@pytest.fixture
def screenshot(request) -> Callable:
    """Save a page's screenshot as test-output/screenshots/<test>-<step>.png.

    ``screenshot(page, "seated", docs="phone")`` also copies it to
    docs/screenshots/phone.png.
    """
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    test_name = re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.name)

    def take(page, step: str, *, docs: str | None = None) -> Path:
        path = SCREENSHOTS / f"{test_name}-{step}.png"
        page.screenshot(path=str(path), full_page=True)
        if docs:  # also kept as docs/screenshots/<docs>.png, for the README
            DOCS_SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, DOCS_SCREENSHOTS / f"{docs}.png")
        return path

    return take


def make_table(tablet, name: str, players: list[str | None],
               game: str = "trumplestiltskin") -> str:
    """Fill in the tablet's create-table form; return the join URL the tablet then shows.

    A ``None`` player leaves the seat blank for a phone to name.
    """
    tablet.goto("/")
    tablet.get_by_test_id("start-table").click()
    tablet.get_by_test_id("table-name").fill(name)
    tablet.get_by_test_id("game").select_option(game)
    tablet.get_by_test_id("seat-count").fill(str(len(players)))
    for position, player in enumerate(players, 1):
        tablet.get_by_test_id(f"player-{position}").fill(player or "")
    tablet.get_by_test_id("phone-names").set_checked(None in players)
    tablet.get_by_test_id("create-table").click()
    tablet.wait_for_url(re.compile(r"/t/[^/]+$"))
    expect(tablet.locator("#keeper-live")).to_be_visible()
    return tablet.locator("#join-url").inner_text().strip()


@pytest.fixture(name="make_table")
def make_table_fixture() -> Callable:
    """:func:`make_table`, for the test modules (importlib mode cannot import conftest)."""
    return make_table
