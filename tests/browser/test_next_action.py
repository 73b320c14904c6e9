"""The next thing to do comes first: at each step of a Tromplemond round, on a 390×844 phone
and an 800×1280 tablet, the action for the moment is inside the first screen, unscrolled.
Touch targets are at least 44×44 px, the card picker's tiles included; a card already in
another hand is marked; a conflict shows where the player is looking.
"""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.screens import in_first_screen, touch_sized
from tests.waiting import HANG_MS

LIVE_MS = HANG_MS  # a wait for the state, up to the hang ceiling
TABLET = {"width": 800, "height": 1280}


def first_screen(page, locator, what: str) -> None:
    """``locator`` is visible without scrolling: wholly inside the viewport at the top."""
    in_first_screen(page, locator, what)


def test_the_next_action_is_in_the_first_screen_at_every_step(tromplemond_table):
    table = tromplemond_table()
    tablet, phones = table.tablet, table.phones
    tablet.set_viewport_size(TABLET)
    table.start(joining_fee="1.00", tromp_stake="0.20")

    # Dealing and claims: the tablet's "vote now"; each phone's claims and clock.
    first_screen(tablet, tablet.get_by_test_id("open-vote"), "Claims done: vote now")
    for name, phone in phones.items():
        first_screen(phone, phone.get_by_test_id("next-action"), f"{name}'s claims")
    touch_sized(tablet.locator("#round button:visible"), "the tablet's buttons")
    # A checklist folds away once every step is ticked, and opens again on a tap.
    deck = tablet.locator("#deck-steps")
    for step in deck.locator("button.tick-button").all():
        step.click()
        expect(step).to_have_attribute("aria-pressed", "true", timeout=LIVE_MS)
    expect(tablet.locator("#deck-steps")).not_to_have_attribute("open", "", timeout=LIVE_MS)
    expect(tablet.get_by_test_id("deck-count")).to_have_text("all done ✓")
    tablet.locator("#deck-steps > summary").click()
    expect(tablet.locator("#deck-steps button.tick-button").first).to_be_visible()

    # The vote: each phone's slip, its names and its drop button; the tablet's slips in.
    table.open_vote()
    for name, phone in phones.items():
        first_screen(phone, phone.get_by_test_id("slip-confirm"), f"{name}'s drop button")
        touch_sized(phone.locator(".slip-choice"), f"{name}'s slip names")
    first_screen(tablet, tablet.get_by_test_id("slips-in"), "the slips in")
    table.vote({"Rob": "Emily", "Sam": "Emily", "Nick": "Emily", "Emily": "Rob"})
    table.wait_phase("hands")

    # The reveal: each survivor's "enter my 5 cards", the tablet's confirm.
    for name in ("Rob", "Sam", "Nick"):
        first_screen(phones[name], phones[name].get_by_test_id("enter-hand"),
                     f"{name}'s enter-hand button")
    first_screen(tablet, tablet.get_by_test_id("confirm-round"), "the confirm button")
    expect(tablet.get_by_test_id("confirm-round")).to_be_disabled()

    # The picker: tiles of 44 px at least, "n of N", and cards in other hands marked.
    table.enter_hand("Sam", ["A♣", "2♦"], ["10♦", "4♠", "K♦"])
    nick = phones["Nick"]
    nick.locator("#round").get_by_test_id("enter-hand").click()
    expect(nick.get_by_test_id("picker-form")).to_be_visible()
    touch_sized(nick.locator("label.pick"), "the picker's tiles")
    for card in ("AC", "2D", "10D", "4S", "KD"):  # Sam's five
        expect(nick.locator(f'label.pick:has(> [value="{card}"][name="public"])')).to_have_class(
            "pick taken")
    expect(nick.get_by_test_id("public-count")).to_have_text("0 of 2")
    table.pick_cards(nick, {"public": ["J♥", "A♦"], "secret": ["J♠", "A♠", "10♦"]})
    # A ticked tile keeps its suit's colour.
    colour = nick.locator('label.pick:has(> [value="10D"][name="secret"]) .card').evaluate(
        "card => getComputedStyle(card).color")
    red = nick.locator('label.pick:has(> [value="JH"][name="public"]) .card').evaluate(
        "card => getComputedStyle(card).color")
    assert colour == red
    nick.get_by_test_id("save-hand").click()
    # The clash with Sam's 10♦ is said at once, where Nick is looking.
    conflict = nick.get_by_test_id("my-conflicts")
    expect(conflict).to_contain_text("10♦", timeout=LIVE_MS)
    first_screen(nick, conflict, "Nick's conflict")
    expect(tablet.get_by_test_id("confirm-round")).to_be_disabled()


def test_the_seats_shrink_to_one_line_on_a_phone_while_a_game_runs(tromplemond_table):
    table = tromplemond_table()
    phone = table.phones["Emily"]
    expect(phone.locator("details.seat-list")).to_have_attribute("open", "")
    table.start()
    expect(phone.locator("details.seat-list")).not_to_have_attribute("open", "",
                                                                   timeout=LIVE_MS)
    expect(phone.get_by_test_id("seated")).to_have_text("4 of 4 seated")
    assert phone.locator("details.seat-list li").first.is_hidden()
