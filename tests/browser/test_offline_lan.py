"""Issue 15: a table on a laptop with no internet and plain http.

- On a LAN name, htmx comes from the app's own copy under the pinned SRI hash, with
  no request to the CDN at all (so no failed request in the console, and no wait for
  a CDN that hangs), and every screen stays live (issue 41).
- On a public name with the CDN out of reach (the route aborted, as with no internet,
  or never answered), htmx comes from the app's own copy under the same SRI hash.
- On plain http from a LAN name (not a secure context, so no Screen Wake Lock),
  nosleep.js keeps the tablet awake from the first tap until the game ends, and
  the header says so.
"""

from __future__ import annotations

from playwright.sync_api import expect

from companion.config import HTMX_COPY, HTMX_PACKAGE, HTMX_SRI, HTMX_URL, pinned_version
from tests.browser.conftest import LAN_HOST
from tests.waiting import HANG_MS, Ceiling

# Generous: two live ticks, and a busy two-core machine.
LIVE_MS = HANG_MS  # a wait for the state, up to the hang ceiling
# The app waits 3 s for a CDN that does not answer; then loads its own copy.
FALLBACK_MS = HANG_MS
OWN_COPY = f"/static/{HTMX_COPY}"
# Chromium's console line for a request that found no network.
NO_NETWORK = "Failed to load resource: net::ERR_INTERNET_DISCONNECTED"


class NoInternet:
    """Browser contexts whose CDN requests fail as with no route out.

    It keeps what they report about it: the failed requests, and where each
    "no network" console error came from (Chromium logs it without the URL).
    """

    def __init__(self) -> None:
        self.failed: list[str] = []
        self.logged_at: list[str] = []
        self.asked: list[str] = []
        """Every request the contexts made to another server than the app's."""

    def cut(self, context, app_url: str):
        """Take ``context`` off the internet (the app's server, at ``app_url``, stays
        reachable)."""
        context.unroute(HTMX_URL)
        context.route(HTMX_URL, lambda route: route.abort("internetdisconnected"))
        context.on("requestfailed", lambda request: self.failed.append(request.url))
        context.on("request", lambda request: request.url.startswith(app_url)
                   or self.asked.append(request.url))
        context.on("console", lambda message: message.type == "error"
                   and message.text == NO_NETWORK
                   and self.logged_at.append(message.location["url"]))
        return context

    def allow_failed_cdn_requests(self, console_errors, page) -> None:
        """Pass over the console errors of the failed CDN requests, and only those (once
        ``page``'s has come: Chromium may tell it after the fallback has run)."""
        ceiling = Ceiling()
        while not self.logged_at and not ceiling.passed:
            page.wait_for_timeout(20)  # (Playwright hears the console while it waits)
        assert self.logged_at and set(self.logged_at) == {HTMX_URL}, self.logged_at
        console_errors[:] = [e for e in console_errors if NO_NETWORK not in e]


def expect_htmx_from_the_own_copy(page, *, cdn_tried: bool = True) -> None:
    """htmx on ``page`` is the pinned version, run from the app's copy with its SRI hash:
    the fallback app/load-htmx.js added (``cdn_tried``), or the page's own script."""
    page.wait_for_function("() => window.htmx !== undefined", timeout=FALLBACK_MS)
    assert page.evaluate("htmx.version") == pinned_version(HTMX_PACKAGE)
    script = page.locator(f'head script[src="{OWN_COPY}"]')
    expect(script).to_have_count(1)
    # The SRI check passed: the script carries the pinned hash, and it ran.
    assert script.get_attribute("integrity") == HTMX_SRI
    assert script.get_attribute("crossorigin") == "anonymous"
    assert page.locator('meta[name="companion-htmx"]').count() == (1 if cdn_tried else 0)


def seat_row(page, position: int):
    """The row of seat ``position`` in a page's list of seats."""
    return page.locator(f'li.seat[data-seat="{position}"]')


def test_on_a_lan_name_htmx_is_the_apps_copy_with_no_request_to_the_cdn_and_phones_update_live(
        new_context, lan_url, make_table, console_errors):
    offline = NoInternet()
    tablet = offline.cut(new_context("tablet", base_url=lan_url), lan_url).new_page()
    join_url = make_table(tablet, "Holiday cottage", ["Rob", "Sam", "Nick"], "trumplestiltskin")
    expect_htmx_from_the_own_copy(tablet, cdn_tried=False)
    tablet.evaluate("window.companionNoReload = true")
    # (The server's public URL is 127.0.0.1 here: the phones scan the LAN name instead.)
    join_url = join_url.replace("127.0.0.1", LAN_HOST)

    rob = offline.cut(new_context("phone", base_url=lan_url), lan_url).new_page()
    rob.goto(join_url)
    expect_htmx_from_the_own_copy(rob, cdn_tried=False)
    rob.get_by_test_id("claim-1").click()
    expect(rob.locator("#you-are")).to_have_text("You are Rob (seat 1)")
    expect(seat_row(tablet, 1)).to_have_attribute("data-joined", "yes", timeout=LIVE_MS)

    sam = offline.cut(new_context("phone", base_url=lan_url), lan_url).new_page()
    sam.goto(join_url)
    sam.get_by_test_id("claim-2").click()
    expect(sam.locator("#you-are")).to_have_text("You are Sam (seat 2)")
    # Both other screens see Sam sit down by themselves.
    expect(seat_row(tablet, 2)).to_have_attribute("data-joined", "yes", timeout=LIVE_MS)
    expect(seat_row(rob, 2)).to_have_attribute("data-joined", "yes", timeout=LIVE_MS)
    assert tablet.evaluate("window.companionNoReload") is True, "the tablet was reloaded"

    # Not one request left the LAN, so none failed: the console stayed clean (the
    # new_context fixture fails the test on any console error).
    assert offline.asked == [], offline.asked
    assert console_errors == []


def test_on_a_public_name_with_no_internet_htmx_comes_from_the_apps_copy(
        new_context, public_url, console_errors):
    offline = NoInternet()
    page = offline.cut(new_context("phone", base_url=public_url), public_url).new_page()
    page.goto("/")
    expect_htmx_from_the_own_copy(page)
    assert HTMX_URL in offline.failed, "the CDN copy is tried first"
    page.evaluate("window.companionNoReload = true")
    page.get_by_test_id("start-table").click()
    expect(page.get_by_test_id("table-name")).to_be_visible()
    assert page.evaluate("window.companionNoReload") is True, "the link was not boosted"
    offline.allow_failed_cdn_requests(console_errors, page)


def test_when_the_cdn_hangs_the_apps_copy_takes_over_and_a_late_cdn_copy_never_runs(
        new_context, public_url, htmx_file):
    context = new_context("phone", base_url=public_url)
    held = []
    context.unroute(HTMX_URL)
    context.route(HTMX_URL, lambda route: held.append(route))  # unanswered: it hangs
    page = context.new_page()
    # The hanging script holds the page's load event, so wait only for the document.
    page.goto("/", wait_until="domcontentloaded")
    expect_htmx_from_the_own_copy(page)
    assert held, "the CDN copy is tried first"

    # htmx has set the page up: a boosted link changes the page without a reload.
    page.evaluate("window.companionNoReload = true")
    page.get_by_test_id("start-table").click()
    expect(page.get_by_test_id("table-name")).to_be_visible()
    assert page.evaluate("window.companionNoReload") is True, "the link was not boosted"

    # The CDN answers at last: its copy must not start a second htmx.
    page.evaluate("window.companionHtmx = htmx")
    held[0].fulfill(path=str(htmx_file), content_type="application/javascript",
                    headers={"Access-Control-Allow-Origin": "*"})
    page.wait_for_load_state("load")
    assert page.evaluate("window.htmx === window.companionHtmx"), "a second htmx ran"


VIDEO_SPY = """
window.companionVideo = [];
const play = HTMLMediaElement.prototype.play;
HTMLMediaElement.prototype.play = function () {
    if (!this.companionSpied) {
        this.companionSpied = true;
        this.addEventListener("playing", () => window.companionVideo.push("playing"));
        this.addEventListener("pause", () => window.companionVideo.push("paused"));
    }
    return play.call(this);
};
"""


def video_is(page, state: str) -> None:
    """Wait until nosleep.js's video is ``playing`` or ``paused``."""
    page.wait_for_function("(state) => window.companionVideo.at(-1) === state", arg=state,
                           timeout=LIVE_MS)


def test_on_plain_http_the_wake_lock_fallback_starts_on_the_first_tap_and_stops_at_the_end(
        new_context, lan_url, make_table, start_with_defaults, screenshot):
    context = new_context("tablet", base_url=lan_url)
    context.add_init_script(VIDEO_SPY)
    tablet = context.new_page()
    make_table(tablet, "Pub back room", ["Rob", "Sam", "Nick"], "trumplestiltskin")
    assert tablet.url.startswith(lan_url)
    # What a tablet on http://192.168.… gets: no secure context, no Screen Wake Lock.
    assert tablet.evaluate("[window.isSecureContext, 'wakeLock' in navigator]") == [False, False]
    status = tablet.locator("#wake-status")
    body = tablet.locator("body")
    expect(status).to_be_hidden()

    # Starting the game is a tap: the screen is kept on from then on.
    start_with_defaults(tablet)
    expect(body).to_have_attribute("data-wake-lock", "on")
    expect(status).to_have_text("Screen stays on", timeout=LIVE_MS)
    expect(status).to_have_attribute("data-state", "on")
    video_is(tablet, "playing")

    # The page is opened again (reloaded, the browser restarted): it needs a new first tap.
    tablet.reload()
    expect(status).to_have_text("Tap once to keep the screen on", timeout=LIVE_MS)
    expect(status).to_have_attribute("data-state", "tap")
    assert tablet.evaluate("window.companionVideo") == [], "no video before the tap"
    screenshot(tablet, "tap-once")
    status.click()
    expect(status).to_have_text("Screen stays on", timeout=LIVE_MS)
    video_is(tablet, "playing")
    screenshot(tablet, "screen-stays-on")

    # The game ends (a boosted form, no reload): the video stops and the status goes.
    tablet.once("dialog", lambda dialog: dialog.accept())
    tablet.get_by_test_id("end-game").click()
    expect(tablet.get_by_test_id("end-game")).to_have_count(0, timeout=LIVE_MS)
    expect(body).not_to_have_attribute("data-wake-lock", "on")
    expect(status).to_be_hidden()
    video_is(tablet, "paused")
