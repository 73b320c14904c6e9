"""The pages before a table, the rules and the error pages fit a 360 px phone and an 800 px
tablet, in light and dark and at 200 % text, and axe-core finds nothing serious in them.

The game screens, the ledger, the join and recover flows are checked where their own tests
reach them (each of their screenshots checks the state: tests/browser/fit.py); this test
walks the pages no game reaches. Screenshots: test-output/screenshots/test_pages_fit_*.png.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

GAMES = ("tremp", "tromplemond", "trumplestiltskin", "clumond", "trefeltromp")
PAGES = [
    ("home", "/"),
    ("new-table", "/new"),
    ("join-no-code", "/join?code="),
    ("join-wrong-code", "/join?code=ZZZZZ"),
    ("recover", "/recover"),
    ("import", "/import"),
    ("offline", "/offline"),
    ("not-found", "/t/NOSUCHTABLE"),
    ("no-seat", "/j/NOSUCHTABLE/seats/9"),
    *[(f"rules-{game}", f"/rules/{game}") for game in GAMES],
]


@pytest.mark.parametrize("kind", ["phone", "tablet"])
def test_pages_fit(new_context, console_errors, screenshot, kind):
    page = new_context(kind).new_page()
    for name, path in PAGES:
        answer = page.goto(path)
        expect(page.locator("h1").first).to_be_visible()
        screenshot(page, f"{kind}-{name}")
        if answer.status >= 400:  # an error page: the browser logs its status, as it should
            console_errors[:] = [e for e in console_errors if "status of 4" not in e]
