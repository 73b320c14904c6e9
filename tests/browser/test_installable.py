"""The companion is installable and survives a lost network (the PWA of issue 3)."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.waiting import HANG_MS

LIVE_MS = HANG_MS  # a wait for the state, up to the hang ceiling


def wait_for_service_worker(page) -> None:
    """Wait until the service worker is active, then reload so that it controls the page."""
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    page.wait_for_function("navigator.serviceWorker.controller !== null")


def test_service_worker_controls_the_page_after_a_reload(new_context):
    page = new_context("phone").new_page()
    page.goto("/")
    assert page.locator('link[rel="manifest"]').count() == 1
    manifest = page.request.get("/manifest.webmanifest").json()
    assert manifest["display"] == "standalone"
    wait_for_service_worker(page)
    scope = page.evaluate("navigator.serviceWorker.controller.scriptURL")
    assert scope.endswith("/sw.js")


def test_offline_page_is_shown_when_the_server_cannot_be_reached(new_context, console_errors,
                                                               screenshot):
    context = new_context("phone")
    page = context.new_page()
    page.goto("/")
    wait_for_service_worker(page)

    context.set_offline(True)
    page.goto("/")
    assert page.locator("#offline-heading").inner_text() == "No connection"
    # The page still looks like the app: its style sheets and icon came from the cache.
    assert page.evaluate("document.images[0].complete && document.images[0].naturalWidth") > 0
    screenshot(page, "offline")

    context.set_offline(False)
    page.get_by_role("link", name="Try again").click()
    # Back online, the page the phone wanted comes back.
    expect(page.locator("#offline-heading")).to_have_count(0, timeout=LIVE_MS)
    expect(page.locator("#start-heading")).to_be_visible()

    # A tap on a (boosted) link with no connection also ends on the offline page.
    context.set_offline(True)
    page.get_by_test_id("start-table").click()
    expect(page.locator("#offline-heading")).to_be_visible(timeout=LIVE_MS)
    assert page.url.endswith("/new"), "Try again must retry the page the player wanted"
    # htmx and Chromium log the failed request itself; that one is expected here.
    expected = ("htmx:afterRequest", "htmx:sendError", "ERR_INTERNET_DISCONNECTED")
    console_errors[:] = [e for e in console_errors if not any(x in e for x in expected)]


WAKE_LOCK_SPY = """
window.companionWakeLock = [];
if (navigator.wakeLock) {
    const request = navigator.wakeLock.request.bind(navigator.wakeLock);
    navigator.wakeLock.request = (type) => request(type).then((lock) => {
        window.companionWakeLock.push("held " + type);
        lock.addEventListener("release", () => window.companionWakeLock.push("released"));
        return lock;
    });
}
"""


def test_scorekeeper_screen_stays_awake_while_a_game_runs(new_context, make_table,
                                                         start_with_defaults):
    context = new_context("tablet")
    context.add_init_script(WAKE_LOCK_SPY)
    tablet = context.new_page()
    make_table(tablet, "Awake", ["Rob", "Sam", "Nick"], "trumplestiltskin")
    assert tablet.evaluate("window.companionWakeLock") == []

    # Start and end are boosted forms: the page is not reloaded, yet the lock follows.
    start_with_defaults(tablet)
    expect(tablet.locator("body")).to_have_attribute("data-wake-lock", "on")
    tablet.wait_for_function("window.companionWakeLock.length === 1")
    assert tablet.evaluate("window.companionWakeLock") == ["held screen"]
    # The header says so (the Wake Lock needs no tap: no "Tap once" here).
    expect(tablet.locator("#wake-status")).to_have_text("Screen stays on")

    tablet.once("dialog", lambda dialog: dialog.accept())
    tablet.get_by_test_id("end-game").click()
    expect(tablet.get_by_test_id("end-game")).to_have_count(0)
    tablet.wait_for_function("window.companionWakeLock.length === 2")
    assert tablet.evaluate("window.companionWakeLock") == ["held screen", "released"]
    expect(tablet.locator("#wake-status")).to_be_hidden()
