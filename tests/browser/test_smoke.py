"""The home page works in a real Chromium: htmx (the app's own copy on a LAN or 127.0.0.1,
the pinned CDN copy on a public name), static/app/, no errors."""

from __future__ import annotations

from companion.config import HTMX_COPY, HTMX_PACKAGE, HTMX_SRI, HTMX_URL, pinned_version
from tests.waiting import HANG_MS, Ceiling


def test_home_page_loads_htmx_and_app_js_without_errors(new_context, screenshot):
    context = new_context("tablet")
    asked = []
    context.on("request", lambda request: asked.append(request.url))
    page = context.new_page()
    response = page.goto("/")
    assert response is not None and response.ok
    page.wait_for_load_state("load")
    # On 127.0.0.1, htmx is the app's own copy under its SRI hash (a plain script), and the
    # CSP let it run; the CDN is never asked.
    assert page.evaluate("typeof htmx") == "object"
    assert page.evaluate("htmx.version") == pinned_version(HTMX_PACKAGE)
    own = page.locator(f'script[src="/static/{HTMX_COPY}"]')
    assert own.count() == 1 and own.get_attribute("integrity") == HTMX_SRI
    assert page.locator(f'script[src="{HTMX_URL}"]').count() == 0
    assert [url for url in asked if "unpkg.com" in url] == []
    assert page.locator('link[rel="manifest"]').get_attribute("href") == "/manifest.webmanifest"
    assert page.locator('script[type="module"][src="/static/app/boot.js"]').count() == 1
    screenshot(page, "home")


def test_on_a_public_name_htmx_comes_from_the_pinned_cdn(new_context, public_url):
    page = new_context("phone", base_url=public_url).new_page()
    page.goto("/")
    page.wait_for_load_state("load")
    # app/load-htmx.js loaded the CDN URL with its SRI hash (the test's contexts answer it
    # with the same file), and the CSP let it run.
    assert page.evaluate("htmx.version") == pinned_version(HTMX_PACKAGE)
    assert page.locator(f'script[src="{HTMX_URL}"]').count() == 1
    assert page.locator(f'script[src="/static/{HTMX_COPY}"]').count() == 0, "no fallback needed"


def test_live_ticks_run_while_visible_pause_while_hidden_and_catch_up(new_context):
    page = new_context("phone").new_page()
    page.goto("/")
    # Headless pages are always visible: stand in for the phone's screen going off.
    page.evaluate("""() => {
        window.companionTicks = 0;
        window.companionVisibility = "visible";
        Object.defineProperty(document, "visibilityState",
                              {configurable: true, get: () => window.companionVisibility});
        document.body.addEventListener("companion:tick", () => { window.companionTicks += 1; });
    }""")
    page.wait_for_function("() => window.companionTicks >= 1", timeout=HANG_MS)  # while shown

    page.evaluate("""() => {
        window.companionVisibility = "hidden";
        document.dispatchEvent(new Event("visibilitychange"));
        window.companionTicks = 0;
    }""")
    page.wait_for_timeout(2_300)  # a tick's time and more: none comes (a busy machine only
    # makes a tick later, so this cannot fail for want of time)
    assert page.evaluate("window.companionTicks") == 0, "no polling while the screen is off"

    page.evaluate("""() => {
        window.companionVisibility = "visible";
        document.dispatchEvent(new Event("visibilitychange"));
    }""")
    assert page.evaluate("window.companionTicks") == 1, "one tick at once on waking up"


def test_data_confirm_asks_before_a_form_is_sent(new_context):
    page = new_context("phone").new_page()
    page.goto("/")
    # A form like the app's "end the game" ones; it goes to /offline so it needs no table.
    page.evaluate("""() => {
        const form = document.createElement("form");
        form.action = "/offline";
        form.dataset.confirm = "End the game for everyone?";
        form.innerHTML = '<button id="end">End the game</button>';
        document.body.append(form);
    }""")
    asked = []

    def answer(dialog, accept):
        asked.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    page.once("dialog", lambda dialog: answer(dialog, accept=False))
    page.click("#end")
    ceiling = Ceiling()
    while not asked and not ceiling.passed:  # (Playwright hears the dialog while it waits)
        page.wait_for_timeout(20)
    assert asked == ["End the game for everyone?"]
    assert not page.url.endswith("/offline?"), "Cancel must not send the form"

    page.once("dialog", lambda dialog: answer(dialog, accept=True))
    page.click("#end")
    page.wait_for_url("**/offline*")
    assert asked == ["End the game for everyone?"] * 2
    assert "/offline" in page.url
