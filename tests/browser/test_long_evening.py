"""Issue 39: every screen still right at the end of a long evening.

Each game is played to its end at its own table, twenty rounds and more (Tremp over two
matches), as the pages post them: the scorekeeper's tablet and a phone a seat are Flask
test clients on the live server's own app (tests/browser/long_evening.py plays them).
Then Chromium takes over the tablet's and a phone's cookies and opens every page of the
end state: the tablet, the phone, the score page, the record book, the ledger and the
recap, each on a 360 × 780 phone and an 800 × 1280 tablet, in light and dark at 100 % text
and at 200 % text. A page fails on sideways scroll, a letter-per-line column or a word
broken inside, a height past its bound (per page, per round), a settling column (Net,
money, total) out of view with nothing scrolled, overlapping chart labels, or an axe-core
violation of any impact (tests/browser/long_evening.py says each).

The counts of every page are printed at the end of the session. ``COMPANION_LONG_SHOTS=1``
also saves each page's screen (light, 100 %; a phone's at 200 % too) under
test-output/long-evening/.
"""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import expect

from tests.browser import long_evening
from tests.browser.fit import PHONE_SIZE, ROOT_FONT, TABLET_SIZE
from tests.conftest import TableActions

SHOTS = long_evening.ROOT / "test-output" / "long-evening"

PAGES = (
    # (name, whose device opens it, path after /t/<code>)
    ("tablet", "keeper", ""),
    ("phone", "phone", "/seat"),
    ("score", "phone", "/games/1"),
    ("records", "phone", "/records"),
    ("ledger", "keeper", "/evenings/1"),
    ("recap", "phone", "/evenings/1/recap"),
)


def carry_cookies(client, context, base_url: str) -> None:
    """The browser ``context`` becomes the device of the Flask test ``client``: it takes
    the client's session cookie (the same app signs and reads it)."""
    cookie = client.get_cookie(client.application.config["SESSION_COOKIE_NAME"])
    assert cookie is not None, "the device has no session yet"
    context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": base_url}])


def shoot(page, name: str) -> None:
    """Save the page's screen as test-output/long-evening/<name>.png (light, 100 % text),
    and a phone's at 200 % text too (<name>-200.png)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
    if page.viewport_size["width"] < 700:
        page.evaluate(ROOT_FONT, "200%")
        try:
            page.screenshot(path=str(SHOTS / f"{name}-200.png"), full_page=True)
        finally:
            page.evaluate(ROOT_FONT, "")


@pytest.mark.parametrize("game", list(long_evening.GAMES))
def test_every_end_screen_is_right_after_a_long_evening(game, live_server, live_wsgi,
                                                        new_context):
    app = live_wsgi.app
    actions = TableActions(app, app.test_client())
    played = long_evening.GAMES[game](actions)
    rounds = len(played.record()["rounds"])
    assert rounds >= long_evening.ROUNDS and played.phase() == "end"

    devices = {"keeper": new_context("tablet"), "phone": new_context("phone")}
    carry_cookies(actions.keeper, devices["keeper"], live_server)
    carry_cookies(next(iter(played.phones.values())), devices["phone"], live_server)
    tabs = {who: context.new_page() for who, context in devices.items()}

    problems = []
    for name, who, path in PAGES:
        page = tabs[who]
        page.set_viewport_size(PHONE_SIZE)
        page.goto(f"/t/{played.code}{path}")
        expect(page.locator("h1").first).to_be_visible()
        for size in (PHONE_SIZE, TABLET_SIZE):
            page.set_viewport_size(size)
            result = long_evening.check_page(page, game, name, rounds)
            problems += result.said
            if os.environ.get("COMPANION_LONG_SHOTS") == "1":
                shoot(page, f"{game}-{name}-{result.device}")
    assert not problems, "end screens that are not right:\n" + "\n".join(problems)
