"""The header follows the game: when the tablet goes on to the next game, every phone's top
bar and page title name the new game within 2 s, without a reload (the header is a live
region: companion/web/regions.py, ``_bar.html``)."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.games.tromplemond import seat_four_phones
from tests.browser.screens import end_game, start_with_defaults

FOLLOWS_MS = 2_000
"""The feature's promise: every screen names the new game within 2 s."""


def names(page, game: str) -> None:
    """``page``'s header and title name ``game`` within the promised 2 s."""
    expect(page.get_by_test_id("bar-title")).to_have_text(f"Tromplemond night · {game}",
                                                          timeout=FOLLOWS_MS)
    expect(page).to_have_title(f"Tromplemond night · {game} · The companion",
                               timeout=FOLLOWS_MS)


def test_every_phone_names_the_next_game_once_the_tablet_goes_on(new_context):
    tablet = new_context("tablet").new_page()
    _join, phones = seat_four_phones(new_context, tablet)
    start_with_defaults(tablet)
    for page in (tablet, *phones.values()):
        names(page, "Tromplemond")
    loaded = {name: phone.evaluate("performance.timeOrigin") for name, phone in phones.items()}

    # The tablet closes the game and chooses Tremp: the table plays Tremp next.
    end_game(tablet)
    tablet.get_by_test_id("next-game-top-choice").select_option("tremp")
    tablet.get_by_test_id("set-next-game-top").click()
    for page in (tablet, *phones.values()):
        names(page, "Tremp")

    # And it starts it: still Tremp on every phone.
    tablet.get_by_test_id("start-next-top").click()
    expect(tablet.get_by_test_id("options-form")).to_be_visible()
    tablet.get_by_test_id("start-options").click()
    expect(tablet.get_by_test_id("end-game")).to_be_visible()
    for page in (tablet, *phones.values()):
        names(page, "Tremp")
    # No phone was reloaded: the same documents, followed live.
    assert {name: phone.evaluate("performance.timeOrigin")
            for name, phone in phones.items()} == loaded
