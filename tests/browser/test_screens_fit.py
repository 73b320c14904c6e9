"""The pages before a table, the rules and the error pages fit a 360 px phone and an 800 px
tablet, in each of the four languages, in light and dark and at 200 % text, and axe-core
finds no violation in them (of any impact).

The game screens, the ledger, the join and recover flows are checked where their own tests
reach them (each of their screenshots checks the state: tests/browser/fit.py); this test
walks the pages no game reaches. Screenshots: test-output/screenshots/test_pages_fit_*.png.

The theme switch at the foot of every page: a choice is drawn at once, kept on the device
(a cookie), and drawn by the server on the next page; it works without JavaScript too.
"""

from __future__ import annotations

import re

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


LANGUAGES = ("en", "fr", "de", "nb")


def in_language(context, live_server: str, lang: str):
    """``context``'s pages in ``lang`` (the cookie the language switch sets)."""
    context.add_cookies([{"name": "lang", "value": lang, "url": live_server}])
    return context


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("kind", ["phone", "tablet"])
def test_pages_fit(new_context, live_server, console_errors, screenshot, kind, lang):
    """Each page in each language: the longest words are German and Norwegian ones, and a
    name a landmark shares with another may come only in one language."""
    page = in_language(new_context(kind), live_server, lang).new_page()
    for name, path in PAGES:
        answer = page.goto(path)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        expect(page.locator("h1").first).to_be_visible()
        screenshot(page, f"{kind}-{lang}-{name}")
        if answer.status >= 400:  # an error page: the browser logs its status, as it should
            console_errors[:] = [e for e in console_errors if "status of 4" not in e]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_home_and_take_over_buttons_stay_inside_a_phone_at_200_percent_text(
        new_context, live_server, lang):
    """At 200 % text on a 360 px phone each button's words wrap inside it ("Einen Tisch
    über-nehmen"), and the button stays inside its panel."""
    page = in_language(new_context("phone"), live_server, lang).new_page()
    page.set_viewport_size({"width": 360, "height": 780})
    for path in ("/", "/recover"):
        page.goto(path)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        page.evaluate("document.documentElement.style.fontSize = '200%'")
        widest = page.evaluate("""() => Math.max(...[...document.querySelectorAll("main .button")]
            .map((button) => button.getBoundingClientRect().right))""")
        panel = page.evaluate("""() => Math.min(...[...document.querySelectorAll("main .panel")]
            .map((panel) => panel.getBoundingClientRect().right))""")
        assert widest <= panel, f"{path}: a button reaches {widest} px, its panel {panel} px"


def test_the_theme_chosen_on_a_device_is_kept_and_drawn_from_the_first_paint(new_context):
    page = new_context("phone", color_scheme="dark").new_page()
    page.goto("/new")
    html = page.locator("html")
    background = "() => getComputedStyle(document.body).backgroundColor"
    dark = page.evaluate(background)
    expect(html).not_to_have_attribute("data-theme", "light")

    page.get_by_test_id("theme-light").check()  # the page changes at once, no request
    expect(html).to_have_attribute("data-theme", "light")
    light = page.evaluate(background)
    assert light != dark

    page.reload()  # the server draws the chosen theme: no flash of the dark one
    expect(html).to_have_attribute("data-theme", "light")
    expect(page.get_by_test_id("theme-light")).to_be_checked()
    assert page.evaluate(background) == light
    page.goto("/recover")
    expect(html).to_have_attribute("data-theme", "light")

    page.get_by_test_id("theme-auto").check()  # as the device: dark, as this phone prefers
    expect(html).not_to_have_attribute("data-theme", "light")
    page.reload()
    assert page.evaluate(background) == dark


def test_the_theme_switch_works_without_javascript(new_context):
    page = new_context("phone", js=False, color_scheme="light").new_page()
    page.goto("/recover")
    page.get_by_test_id("theme-dark").check()
    page.locator("form.theme-switch button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/recover\??$"))
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
