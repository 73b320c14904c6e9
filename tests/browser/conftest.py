"""Real-browser tests: a live companion server and Chromium driven by Playwright.

The server is the real app (``create_app``) on a temporary SQLite database,
served by werkzeug in a thread on 127.0.0.1. Chromium is Debian's
``/usr/bin/chromium``. The machine running the tests may have no internet, so
every browser context answers the pinned htmx CDN URL with a local copy of the
same file (its SRI hash still has to match): the app's own, in static/vendor/.
Chromium also resolves the made-up name ``LAN_HOST`` to 127.0.0.1, so a test can
open the server as a LAN address that is not localhost (not a secure context).

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

from companion.config import HTMX_COPY
from companion.config import HTMX_URL as HTMX_CDN_URL
from tests.browser.fit import check_screen
from tests.browser.screens import LIVE_MS, TableScreens, card_code, in_first_screen
from tests.waiting import HANG_MS

try:
    from playwright.sync_api import expect
except ImportError:  # reported by the ``browser`` fixture
    expect = None

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
CHROMIUM = "/usr/bin/chromium"
LAN_HOST = "companion-lan.test"
CHROMIUM_ARGS = [
    f"--host-resolver-rules=MAP {LAN_HOST} 127.0.0.1",
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
def screenshot(request) -> Iterator[Callable]:
    """Save a page's screenshot as test-output/screenshots/<test>-<step>.png, and check
    that state (tests/browser/fit.py): it fits a 360 px phone or an 800 px tablet, in light
    and dark and at 200 % text, and axe-core finds nothing serious in it. The test fails at
    its end, with every state that did not, once it has walked them all.

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


def fill_new_table(tablet, name: str, players, game: str, *, dealer: str | None = None) -> None:
    """Fill in the tablet's create-table form and make the table.

    The form is drawn again when the game or the number of seats changes (by
    htmx, or by its "Update" button without JavaScript): each redraw is waited
    for before typing on, so nothing typed is lost to it.
    """
    tablet.goto("/")
    tablet.get_by_test_id("start-table").click()
    tablet.get_by_test_id("table-name").fill(name)
    update = tablet.get_by_test_id("update-form")  # shown only without JavaScript

    def choose(testid: str, value: str) -> None:
        field = tablet.get_by_test_id(testid)
        if field.input_value() == value:
            return
        if update.is_visible():
            field.select_option(value)
            update.click()
        else:
            with tablet.expect_response(lambda answer: "/new?" in answer.url):
                field.select_option(value)
            expect(tablet.locator(".htmx-added, .htmx-settling, .htmx-request")).to_have_count(0)
        expect(tablet.get_by_test_id(testid)).to_have_value(value)

    choose("game", game)
    choose("seat-count", str(len(players)))
    expect(tablet.locator('input[name="player"]')).to_have_count(len(players))
    for position, player in enumerate(players, 1):
        tablet.get_by_test_id(f"player-{position}").fill(player or "")
    tablet.get_by_test_id("phone-names").set_checked(None in players)
    if dealer is not None:
        tablet.get_by_test_id("dealer").select_option(dealer)
    tablet.get_by_test_id("create-table").click()
    tablet.wait_for_url(re.compile(r"/t/[^/]+$"))


def make_table(tablet, name: str, players: list[str | None],
               game: str = "trumplestiltskin") -> str:
    """Fill in the tablet's create-table form; return the join URL the tablet then shows.

    A ``None`` player leaves the seat blank for a phone to name.
    """
    fill_new_table(tablet, name, players, game)
    expect(tablet.locator("#keeper-live")).to_be_visible()
    return tablet.locator("#join-url").inner_text().strip()


def start_with_defaults(tablet) -> None:
    """The scorekeeper taps Start, keeps the game's default options and starts it."""
    tablet.get_by_test_id("start-game").click()
    expect(tablet.get_by_test_id("options-form")).to_be_visible()
    tablet.get_by_test_id("start-options").click()
    expect(tablet.get_by_test_id("end-game")).to_be_visible()


@pytest.fixture(name="start_with_defaults")
def start_with_defaults_fixture() -> Callable:
    """:func:`start_with_defaults`, for the test modules."""
    return start_with_defaults


@pytest.fixture(name="make_table")
def make_table_fixture() -> Callable:
    """:func:`make_table`, for the test modules (importlib mode cannot import conftest)."""
    return make_table


# --------------------------------------------------------------------------- Tromplemond

TROMPLEMOND_PLAYERS = ("Rob", "Sam", "Nick", "Emily")
"""The four players of the Tromplemond browser tests, clockwise from seat 1 (Rob deals first)."""

def pick_cards(page, rows: dict[str, list[str]], prefix: str = "", *, js: bool = True) -> None:
    """Tap the picker's tiles (as a finger would, on the tile) until each row holds ``rows``."""
    for row, cards in rows.items():
        name = prefix + row
        wanted = {card_code(card) for card in cards}
        ticked = set(page.locator(f'input[name="{name}"]:checked').evaluate_all(
            "boxes => boxes.map(box => box.value)"))
        for code in sorted(ticked ^ wanted):
            page.locator(f'label.pick:has(> input[name="{name}"][value="{code}"])').click()
        for code in wanted:
            expect(page.locator(f'input[name="{name}"][value="{code}"]')).to_be_checked()
        if js and not prefix:  # the picker says how many are ticked, of how many
            expect(page.get_by_test_id(f"{row}-count")).to_have_text(
                f"{len(wanted)} of {len(wanted)}")


def tap_slip(page, name: str) -> None:
    """Tap ``name``'s tile on a slip (it is picked on the device; nothing is sent)."""
    page.locator(f'label.slip-choice:has(> [data-testid="slip-{name}"])').click()
    expect(page.get_by_test_id(f"slip-{name}")).to_be_checked()


def at_once(pages, selector: str, *, delay_ms: int = 400) -> None:
    """Tap ``selector`` on every page in the same instant, as four hands at a table would.

    Each page is told the same moment on the shared clock and clicks by itself
    then (a timer in the page), so the requests really race at the server. The
    call returns once every page has tapped.
    """
    moment = pages[0].evaluate("Date.now()") + delay_ms
    for page in pages:
        page.evaluate("""([selector, moment]) => {
            window.companionTapped = "waiting";
            setTimeout(() => {
                const target = document.querySelector(selector);
                window.companionTapped = target ? "tapped" : "missing";
                if (target) { target.click(); }
            }, Math.max(0, moment - Date.now()));
        }""", [selector, moment])
    for page in pages:
        # Polled on a timer, not on animation frames (which a busy machine may starve).
        page.wait_for_function("() => window.companionTapped !== 'waiting'", polling=100)
        assert page.evaluate("window.companionTapped") == "tapped", f"{selector} on {page.url}"


class TromplemondTable(TableScreens):
    """A Tromplemond table in the browser: the scorekeeper's tablet and four seated phones.

    ``phones`` maps each player's name to their phone's page. The helpers tap
    the pages as people at a table would (no request is made behind their back)
    and wait for what a person would wait for; the tests assert the rest.
    """

    def __init__(self, tablet, phones: dict, join_url: str, no_js=()) -> None:
        super().__init__(tablet, phones)
        self.join_url = join_url
        self.no_js = tuple(no_js)

    @property
    def code(self) -> str:
        """The table's join code."""
        return self.join_url.rstrip("/").rsplit("/", 1)[-1]

    # The game ------------------------------------------------------------------------------

    def start(self, *, joining_fee: str = "", tromp_stake: str = "", rounds: int = 8,
              target: int = 200, unit: str = "GBP") -> None:
        """The scorekeeper starts Tromplemond with these options; every screen shows round 1."""
        tablet = self.tablet
        tablet.get_by_test_id("start-game").click()
        expect(tablet.get_by_test_id("options-form")).to_be_visible()
        tablet.get_by_test_id("unit").select_option(unit)
        tablet.get_by_test_id("joining-fee").fill(joining_fee)
        tablet.get_by_test_id("tromp-stake").fill(tromp_stake)
        tablet.get_by_test_id("rounds").fill(str(rounds))
        tablet.get_by_test_id("target").fill(str(target))
        tablet.get_by_test_id("start-options").click()
        self.wait_phase("deal")

    # The vote ------------------------------------------------------------------------------

    def open_vote(self) -> None:
        """The tablet ends the claims and opens the vote; each phone shows its slip."""
        self.tablet.get_by_test_id("open-vote").click()
        self.wait_phase("vote")
        self.wait_slips("choose", list(self.phones))

    tap_slip = staticmethod(tap_slip)
    pick_cards = staticmethod(pick_cards)

    def slip(self, player: str):
        """``player``'s slip on their phone."""
        return self.phones[player].locator(".vote-slip")

    def wait_slips(self, step: str, players) -> None:
        """Wait until the slips of ``players`` show ``step`` (choose, in, waiting)."""
        for player in players:
            expect(self.slip(player)).to_have_attribute("data-step", step, timeout=LIVE_MS)

    def pick(self, choices: dict[str, str]) -> None:
        """Each voter taps a name on their slip: it is picked on the phone, nothing is sent."""
        for voter, target in choices.items():
            tap_slip(self.phones[voter], target)
        for voter, target in choices.items():
            expect(self.phones[voter].get_by_test_id(f"slip-{target}")).to_be_checked()
            expect(self.slip(voter)).to_have_attribute("data-step", "choose")

    def drop_at_once(self, voters) -> None:
        """The voters tap "Drop my slip" in the same instant; each slip is taken in.

        The slip taken is the one each phone showed (a reveal may open the next stage,
        whose new slip has another id).
        """
        pages = [self.phones[v] for v in voters]
        slips = [self.slip(v).get_attribute("id") for v in voters]
        at_once(pages, '[data-testid="slip-confirm"]')
        for page, slip in zip(pages, slips, strict=True):
            expect(page.locator(f'#{slip}[data-step="choose"]')).to_have_count(0,
                                                                              timeout=LIVE_MS)

    def vote(self, choices: dict[str, str]) -> None:
        """A whole ballot: every voter picks a name, then all drop their slips at once."""
        self.pick(choices)
        self.drop_at_once(list(choices))

    def counts(self, page=None) -> dict[str, int]:
        """The revealed counts a page shows now (the tablet by default), by candidate."""
        page = page or self.tablet
        rows = page.locator('[data-testid="vote-counts"] tr[data-candidate]')
        return {row.get_attribute("data-candidate"):
                int(row.locator("td").get_attribute("data-count"))
                for row in rows.all()}

    def expect_counts(self, wanted: dict[str, int], page=None) -> None:
        """Wait (live) until a page (the tablet by default) reveals exactly these counts."""
        page = page or self.tablet
        rows = page.locator('[data-testid="vote-counts"] tr[data-candidate]')
        expect(rows).to_have_count(len(wanted), timeout=LIVE_MS)
        for name, count in wanted.items():
            expect(rows.and_(page.locator(f'[data-candidate="{name}"]')).locator("td")
                   ).to_have_attribute("data-count", str(count), timeout=LIVE_MS)
        assert self.counts(page) == wanted

    # The hands -----------------------------------------------------------------------------

    def pick_hand(self, player: str, public, secret) -> None:
        """``player`` opens their card picker and taps 2 face-up and 3 face-down cards."""
        phone = self.phones[player]
        phone.locator("#round").get_by_test_id("enter-hand").click()
        expect(phone.get_by_test_id("picker-form")).to_be_visible()
        pick_cards(phone, {"public": public, "secret": secret}, js=player not in self.no_js)

    def save_hands_at_once(self, players) -> None:
        """The players tap "Save my hand" in the same instant; their phones go back to the round."""
        pages = [self.phones[p] for p in players]
        at_once(pages, '[data-testid="save-hand"]')
        for page in pages:
            expect(page.locator("#round")).to_be_visible(timeout=LIVE_MS)
            expect(page.get_by_test_id("my-hand")).to_have_attribute("data-entered", "yes")

    def enter_hand(self, player: str, public, secret) -> None:
        """``player`` enters their 5 cards on their phone."""
        self.pick_hand(player, public, secret)
        self.save_hands_at_once([player])

    def hand_row(self, player: str):
        """The tablet's line of ``player``'s hand."""
        return self.tablet.locator(f'[data-testid="hands"] li[data-player="{player}"]')

    def tick_call(self, player: str) -> None:
        """The scorekeeper ticks that ``player`` shouted their TROMP! call correctly."""
        self.tablet.get_by_test_id(f"called-{player}").click()
        expect(self.tablet.get_by_test_id(f"called-{player}")).to_have_attribute(
            "aria-pressed", "true", timeout=LIVE_MS)

    def total(self, player: str, page=None):
        """The cell of ``player``'s total in a page's score table (the tablet by default)."""
        page = page or self.tablet
        return page.locator(f'[data-testid="score-table"] tfoot td[data-total="{player}"]')


def seat_four_phones(new_context, tablet, players=TROMPLEMOND_PLAYERS, *,
                     seated=TROMPLEMOND_PLAYERS, no_js=()) -> tuple[str, dict]:
    """Make a four-seat Tromplemond table on ``tablet`` (seat 1 deals) and seat the phones.

    A phone takes the seat of each player in ``seated`` (the others have no
    phone); the players in ``no_js`` have JavaScript switched off. Returns the
    join URL and the phones' pages by player name.
    """
    fill_new_table(tablet, "Tromplemond night", list(players), "tromplemond", dealer="1")
    join_url = tablet.locator("#join-url").inner_text().strip()
    phones = {}
    for position, player in enumerate(players, 1):
        if player not in seated:
            continue
        phone = new_context("phone", js=player not in no_js).new_page()
        phone.goto(join_url)
        phone.get_by_test_id(f"claim-{position}").click()
        expect(phone.locator("#you-are")).to_have_text(f"You are {player} (seat {position})")
        phones[player] = phone
    for position, player in enumerate(players, 1):
        expect(tablet.locator(f'li.seat[data-seat="{position}"]')).to_have_attribute(
            "data-joined", "yes" if player in seated else "no", timeout=LIVE_MS)
    return join_url, phones


@pytest.fixture
def tromplemond_table(new_context) -> Callable[..., TromplemondTable]:
    """Make a Tromplemond table: a tablet and phones seated as Rob, Sam, Nick and Emily.

    ``tromplemond_table()`` returns the :class:`TromplemondTable` before the
    game starts; call its ``start(joining_fee=..., tromp_stake=..., rounds=...)``.
    ``tromplemond_table(seated=("Rob", "Sam", "Nick"))`` leaves Emily without
    a phone; ``no_js=("Rob",)`` gives Rob a phone with JavaScript off.
    """
    def make(*, seated=TROMPLEMOND_PLAYERS, no_js=()) -> TromplemondTable:
        tablet = new_context("tablet").new_page()
        join_url, phones = seat_four_phones(new_context, tablet, seated=seated, no_js=no_js)
        return TromplemondTable(tablet, phones, join_url, no_js)

    return make


# --------------------------------------------------------------------------- Clumond


def said(text: str) -> re.Pattern:
    """``text`` as a pattern in which a minus may be written ``−`` or ``-``."""
    return re.compile(re.escape(text).replace("−", "[-−]"))


def above_the_fold(page, locator) -> None:
    """``locator`` shows whole on the first screen, without scrolling."""
    in_first_screen(page, locator)


class ClumondTable(TableScreens):
    """A Clumond table in the browser: the scorekeeper's tablet and the three players' phones.

    ``phones`` maps each player's name to their phone's page (the seat page). The
    helpers tap the pages as people at a table would and wait for what a person would
    wait for; the tests assert the rest.
    """

    said = staticmethod(said)
    above_the_fold = staticmethod(above_the_fold)

    def answer(self, player: str, yes: bool) -> None:
        """``player`` answers "Go for Clumond?" on their phone, once it is their turn."""
        phone = self.phones[player]
        expect(phone.get_by_test_id("go-for-clumond")).to_be_visible(timeout=LIVE_MS)
        phone.locator("#round").get_by_test_id("offer-yes" if yes else "offer-no").click()
        expect(phone.get_by_test_id("go-for-clumond")).to_have_count(0, timeout=LIVE_MS)

    def nobody_goes(self, order) -> None:
        """The players say no in ``order`` (from the dealer's left); the tricks are next."""
        for player in order:
            self.answer(player, False)
        self.wait_phase("tricks")

    def goes(self, passing, declarer: str, trump: str) -> None:
        """The players in ``passing`` say no, ``declarer`` says yes and names ``trump``."""
        for player in passing:
            self.answer(player, False)
        self.answer(declarer, True)
        phone = self.phones[declarer]
        expect(phone.get_by_test_id("name-trump")).to_be_visible(timeout=LIVE_MS)
        tile = "trump-none" if trump == "none" else f"trump-{'♠♥♦♣'.index(trump) + 1}"
        above_the_fold(phone, phone.locator("#round").get_by_test_id(tile))
        phone.locator("#round").get_by_test_id(tile).click()
        self.wait_phase("tricks")

    def open_entry(self, player: str) -> None:
        """``player`` opens their tricks-and-kept-cards page on their phone."""
        phone = self.phones[player]
        phone.locator("#round").get_by_test_id("enter-mine").click()
        expect(phone.get_by_test_id("entry-form")).to_be_visible(timeout=LIVE_MS)

    def pick(self, player: str, tricks: int, kept=()) -> None:
        """On the entry page: tap the tricks and tick exactly the ``kept`` cards."""
        phone = self.phones[player]
        phone.locator(f'label.tile:has(> input[name="tricks"][value="{tricks}"])').click()
        wanted = {card_code(card) for card in kept}
        ticked = set(phone.locator('input[name="kept"]:checked').evaluate_all(
            "boxes => boxes.map(box => box.value)"))
        for code in sorted(ticked ^ wanted):
            phone.locator(f'label.pick:has(> input[name="kept"][value="{code}"])').click()
        expect(phone.get_by_test_id("kept-count")).to_have_text(f"{len(wanted)} of 3")
        expect(phone.get_by_test_id("working")).to_contain_text(f"{tricks} trick",
                                                                timeout=LIVE_MS)

    def save_at_once(self, players) -> None:
        """The players tap "Save" in the same instant; each phone is back on the round."""
        pages = [self.phones[p] for p in players]
        at_once(pages, '[data-testid="save-entry"]')
        for page in pages:
            expect(page.get_by_test_id("my-entry")).to_have_attribute("data-entered", "yes",
                                                                      timeout=LIVE_MS)

    def enter_all(self, entries: dict) -> None:
        """Every player opens their entry page, taps their round, and all save at once.

        ``entries`` maps a player to their ``(tricks, kept cards)``.
        """
        for player, (tricks, kept) in entries.items():
            self.open_entry(player)
            self.pick(player, tricks, kept)
        self.save_at_once(list(entries))

    def stack_cell(self, player: str, page=None):
        """The cell of ``player``'s stack in a page's score table (the tablet by default)."""
        page = page or self.tablet
        return page.locator(f'[data-testid="score-table"] tfoot td[data-total="{player}"]')

    def stacks(self, page=None) -> dict[str, int]:
        """The stacks a page's score table shows now, by player."""
        return {name: int(self.stack_cell(name, page).inner_text().split()[0]
                          .replace("−", "-"))
                for name in self.phones}

    def expect_stacks(self, wanted: dict[str, int], page=None) -> None:
        """Wait (live) until a page (the tablet by default) shows exactly these stacks."""
        for name, amount in wanted.items():
            expect(self.stack_cell(name, page)).to_contain_text(
                said(str(amount).replace("-", "−")), timeout=LIVE_MS)
        assert self.stacks(page) == wanted


@pytest.fixture(name="clumond_table")
def clumond_table_fixture() -> Callable[..., ClumondTable]:
    """:class:`ClumondTable`: ``clumond_table(tablet, {"Ann": phone, ...})`` once the phones
    hold their seats (importlib mode: the test modules cannot import conftest)."""
    return ClumondTable
