"""The companion is installable and survives a lost network (the PWA of issue 3)."""

from __future__ import annotations

from playwright.sync_api import expect

LIVE_MS = 5_000
SHELL_PATHS = ("/static/app.js", "/static/icons/", "/static/css/", "/offline")


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


def test_offline_page_is_shown_when_the_server_cannot_be_reached(new_context, screenshot):
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


def test_service_worker_stores_only_the_app_shell(new_context):
    page = new_context("tablet").new_page()
    page.goto("/")
    wait_for_service_worker(page)
    page.goto("/")  # a page and its partials, now through the worker
    page.wait_for_timeout(2_500)
    stored = page.evaluate("""async () => {
        const urls = [];
        for (const name of await caches.keys()) {
            const cache = await caches.open(name);
            for (const request of await cache.keys()) urls.push(new URL(request.url).pathname);
        }
        return urls;
    }""")
    assert "/offline" in stored and "/static/app.js" in stored
    strays = [url for url in stored if not url.startswith(SHELL_PATHS)]
    assert not strays, f"the service worker stored more than the shell: {strays}"
