"""Issue 4 in a real browser: the rest of a Tromplemond table's evening.

- the deck and deal checklists and the interrogation timer, shared by every
  screen; a player who shows cards early goes off with no vote;
- a player without a phone votes on the tablet's private screen, a 1–1–1–1
  is settled by a card cut, the scorekeeper enters a hand the quick way, and
  the last round is undone and confirmed again;
- a phone with JavaScript off drops its slip and enters its hand with plain
  forms.

Screenshots: test-output/screenshots/<test>-<step>.png.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from companion.rules import replay
from tests.browser.screens import without_stream
from tests.waiting import HANG_MS

LIVE_MS = HANG_MS  # a wait for the state, up to the hang ceiling
PLAYERS = ("Rob", "Sam", "Nick", "Emily")


def step(page, key: str):
    """The checklist step ``key`` (``deck:0``, ``deal:3``) on a page."""
    return page.locator(f'li.step[data-step="{key}"]')


def accept_next_dialog(page) -> None:
    """Answer OK to the next "are you sure?" the page asks."""
    page.once("dialog", lambda dialog: dialog.accept())


def round_scores(page, number: int) -> dict[str, int]:
    """The scores of confirmed round ``number`` in a page's score table."""
    row = page.locator(f'[data-testid="score-table"] tbody tr[data-round="{number}"]')
    cells = row.locator(".score").all_inner_texts()
    return {name: int(text.replace("−", "-")) for name, text in zip(PLAYERS, cells, strict=True)}


def test_checklists_and_the_timer_are_on_every_screen_and_an_early_show_ends_the_vote(
        tromplemond_table, screenshot):
    table = tromplemond_table()
    tablet, phones = table.tablet, table.phones
    table.start()

    # Round 1 has the deck preparation too; the deal steps name the real dealer.
    for page in (tablet, phones["Sam"]):
        expect(page.get_by_test_id("deck-steps")).to_contain_text("26")
        expect(page.get_by_test_id("deal-steps")).to_contain_text("Rob")
    # Rob deals: another phone shows the lists folded (a short page), the dealing steps
    # without buttons; it opens the deck prep to tick a step of it.
    expect(phones["Sam"].get_by_test_id("deck-steps")).not_to_have_attribute("open", "")
    assert phones["Sam"].get_by_test_id("tick-deal-0").count() == 0
    expect(phones["Rob"].get_by_test_id("deal-steps")).to_have_attribute("open", "")
    phones["Sam"].get_by_test_id("deck-steps").locator("summary").click()
    # A tick on a phone shows on the tablet and the other phones, and the other way round.
    phones["Sam"].get_by_test_id("tick-deck-0").click()
    for page in (tablet, phones["Emily"]):
        expect(step(page, "deck:0")).to_have_attribute("data-done", "yes", timeout=LIVE_MS)
    tablet.get_by_test_id("tick-deal-0").click()
    for page in phones.values():
        expect(step(page, "deal:0")).to_have_attribute("data-done", "yes", timeout=LIVE_MS)
    expect(step(phones["Nick"], "deal:1")).to_have_attribute("data-done", "no")
    phones["Nick"].get_by_test_id("deck-steps").locator("summary").click()
    phones["Nick"].get_by_test_id("tick-deck-0").click()  # a second tap takes it back
    expect(step(tablet, "deck:0")).to_have_attribute("data-done", "no", timeout=LIVE_MS)
    screenshot(phones["Sam"], "sam-checklist")

    # The interrogation timer: started, paused and ended on the tablet, seen everywhere.
    for action, state in (("start", "running"), ("pause", "paused"), ("start", "running"),
                          ("end", "ended")):
        tablet.get_by_test_id(f"timer-{action}").click()
        for page in table.pages():
            expect(page.get_by_test_id("timer")).to_have_attribute("data-timer", state,
                                                                   timeout=LIVE_MS)
        if state == "paused":
            screenshot(phones["Emily"], "emily-timer-paused")
    expect(tablet.get_by_test_id("timer-clock")).to_have_text("0:00")
    assert tablet.get_by_test_id("timer-start").count() == 0, "an ended timer stays ended"

    # Sam shows a card during the interrogation: he is off, and no vote is held.
    tablet.get_by_test_id("penalties").click()
    accept_next_dialog(tablet)
    tablet.get_by_test_id("shown-early-Sam").click()
    table.wait_phase("hands")
    for name in ("Rob", "Nick", "Emily"):
        expect(phones[name].get_by_test_id("off")).to_contain_text("Sam showed cards early")
        expect(phones[name].get_by_test_id("enter-hand")).to_be_visible()
    expect(phones["Sam"].get_by_test_id("off")).to_contain_text("You showed cards early")
    expect(tablet.get_by_test_id("off")).to_contain_text("Sam showed cards early")
    for page in table.pages():
        assert page.locator(".vote-slip, #vote-status").count() == 0, "no vote is held"
    screenshot(tablet, "tablet-sam-showed-early")


def clock(page) -> int:
    """The seconds the interrogation clock on a page shows."""
    minutes, seconds = page.get_by_test_id("timer-clock").inner_text().split(":")
    return int(minutes) * 60 + int(seconds)


def test_the_interrogation_clock_counts_down_on_every_screen_and_stops_when_paused(
        tromplemond_table):
    table = tromplemond_table()
    watched = (table.tablet, table.phones["Rob"])
    table.start()
    table.tablet.get_by_test_id("timer-start").click()
    for page in watched:
        expect(page.get_by_test_id("timer")).to_have_attribute("data-timer", "running",
                                                               timeout=LIVE_MS)
    for page in watched:  # it counts down on every screen: 4:57 and below, within the minute
        expect(page.get_by_test_id("timer-clock")).to_have_text(
            re.compile(r"^0?4:([0-4]\d|5[0-7])$"), timeout=LIVE_MS)

    table.tablet.get_by_test_id("timer-pause").click()
    for page in watched:
        expect(page.get_by_test_id("timer")).to_have_attribute("data-timer", "paused",
                                                               timeout=LIVE_MS)
    paused = [clock(page) for page in watched]
    table.tablet.wait_for_timeout(2_500)  # more than two seconds' ticks: none moves it (a
    # busy machine only makes a tick later, so this cannot fail for want of time)
    assert [clock(page) for page in watched] == paused, "a paused clock stands still"


def test_a_player_without_a_phone_votes_on_the_tablet_and_a_card_cut_settles_the_tie(
        tromplemond_table, screenshot):
    table = tromplemond_table(seated=("Rob", "Sam", "Nick"))  # Emily has no phone
    tablet, phones = table.tablet, table.phones
    table.start()
    tablet.get_by_test_id("open-vote").click()
    table.wait_phase("vote")
    table.wait_slips("choose", phones)
    expect(tablet.get_by_test_id("proxy-link")).to_be_visible(timeout=LIVE_MS)
    expect(tablet.locator("#vote-status")).to_contain_text("for Emily (no phone)")

    table.vote({"Rob": "Sam", "Sam": "Nick", "Nick": "Emily"})
    expect(tablet.get_by_test_id("slips-in")).to_have_text("3 of 4 slips in", timeout=LIVE_MS)

    # Emily votes on the tablet, on a screen of her own that shows nobody else's slip.
    tablet.get_by_test_id("proxy-link").click()
    tablet.get_by_test_id("private-Emily").click()
    expect(tablet.locator("#private-slip")).to_contain_text("Only Emily looks at the screen now")
    names = tablet.locator("#private-slip .slip-choice").all_inner_texts()
    assert sorted(names) == ["Nick", "Rob", "Sam"]
    assert tablet.get_by_test_id("vote-counts").count() == 0
    table.tap_slip(tablet, "Rob")
    screenshot(tablet, "tablet-emily-confirms")
    tablet.get_by_test_id("slip-confirm").click()
    expect(tablet.get_by_test_id("private-done")).to_be_visible()
    assert "Rob" not in tablet.locator("#private-slip").inner_text(), "her slip is not shown"
    screenshot(tablet, "tablet-slip-in")
    tablet.get_by_role("link", name="Scorekeeper screen").click()

    # 1–1–1–1: instead of a revote the scorekeeper records a card cut; Nick goes off.
    table.expect_counts({"Rob": 1, "Sam": 1, "Nick": 1, "Emily": 1})
    accept_next_dialog(tablet)
    tablet.get_by_test_id("cut-Nick").click()
    table.wait_phase("hands")
    expect(tablet.get_by_test_id("vote-off")).to_contain_text("Nick is off (card cut)")
    expect(phones["Rob"].get_by_test_id("vote-off")).to_contain_text("Nick is off (card cut)",
                                                                       timeout=LIVE_MS)
    screenshot(phones["Rob"], "rob-card-cut")

    # Rob and Sam enter their cards; the scorekeeper enters Emily's hand the quick way.
    table.pick_hand("Rob", ["K♥", "10♠"], ["Q♥", "J♦", "K♠"])
    table.pick_hand("Sam", ["A♣", "2♦"], ["10♦", "4♠", "K♦"])
    table.save_hands_at_once(["Rob", "Sam"])
    expect(table.hand_row("Emily")).to_have_attribute("data-entered", "no", timeout=LIVE_MS)
    expect(tablet.get_by_test_id("confirm-round")).to_be_disabled()
    tablet.get_by_test_id("edit-hand-4").click()
    tablet.get_by_test_id("quick-points").fill("20")
    tablet.get_by_test_id("quick-public-jacks").fill("0")
    tablet.get_by_test_id("quick-secret-jacks").fill("1")
    screenshot(tablet, "tablet-quick-hand")
    tablet.get_by_test_id("save-quick").click()
    expect(table.hand_row("Emily")).to_have_attribute("data-entered", "yes", timeout=LIVE_MS)
    expect(table.hand_row("Emily")).to_contain_text("20 points")
    table.confirm_round()
    scored = {"Rob": 29, "Sam": 9, "Nick": 0, "Emily": 26}
    assert round_scores(tablet, 1) == scored
    expect(phones["Sam"].locator('[data-testid="score-table"] tbody tr[data-round="1"]')
           ).to_be_visible(timeout=LIVE_MS)
    assert round_scores(phones["Sam"], 1) == scored

    # Undo: the round is back in progress with its hands, then confirmed again.
    accept_next_dialog(tablet)
    tablet.get_by_test_id("undo-round").click()
    expect(tablet.locator('[data-testid="score-table"] tbody tr[data-round]')).to_have_count(
        0, timeout=LIVE_MS)
    table.wait_phase("hands", [tablet])
    expect(table.hand_row("Emily")).to_contain_text("20 points")
    expect(phones["Sam"].locator('[data-testid="score-table"] tbody tr[data-round]')
           ).to_have_count(0, timeout=LIVE_MS)
    table.confirm_round()
    assert round_scores(tablet, 1) == scored
    record = tablet.context.request.get(
        tablet.get_by_test_id("record-json").get_attribute("href")).json()
    assert len(record["rounds"]) == 1
    assert replay(record)["rounds"][0]["scores"] == scored
    screenshot(tablet, "tablet-after-undo")


def test_a_phone_without_javascript_votes_and_enters_its_hand(tromplemond_table, screenshot):
    table = tromplemond_table(no_js=("Rob",))
    tablet, phones = table.tablet, table.phones
    rob = phones["Rob"]
    table.start()
    tablet.get_by_test_id("open-vote").click()
    table.wait_slips("choose", ["Sam", "Nick", "Emily"])

    # Rob's page refreshes itself every few seconds without JavaScript; here he reloads.
    assert rob.locator('meta[http-equiv="refresh"]').count() >= 1
    rob.reload()
    table.tap_slip(rob, "Emily")
    rob.get_by_test_id("slip-confirm").click()
    expect(rob.get_by_test_id("slip-in")).to_be_visible()
    expect(tablet.get_by_test_id("slips-in")).to_have_text("1 of 4 slips in", timeout=LIVE_MS)
    table.vote({"Sam": "Emily", "Nick": "Emily", "Emily": "Rob"})
    table.wait_phase("hands", [tablet])

    rob.reload()
    expect(rob.locator("#round")).to_have_attribute("data-phase", "hands")
    expect(rob.get_by_test_id("off")).to_contain_text("Emily")
    table.pick_hand("Rob", ["K♥", "10♠"], ["Q♥", "J♦", "K♠"])
    screenshot(rob, "rob-picker-no-js")
    rob.get_by_test_id("save-hand").click()
    expect(rob.get_by_test_id("my-hand")).to_have_attribute("data-entered", "yes")
    expect(rob.get_by_test_id("my-call")).to_contain_text("Petit Tromplemond!")
    expect(table.hand_row("Rob")).to_have_attribute("data-entered", "yes", timeout=LIVE_MS)

    table.pick_hand("Sam", ["A♣", "2♦"], ["10♦", "4♠", "K♦"])
    table.pick_hand("Nick", ["J♥", "A♦"], ["J♠", "A♠", "10♥"])
    table.save_hands_at_once(["Sam", "Nick"])
    table.confirm_round()
    rob.reload()
    expect(rob.locator('[data-testid="score-table"] tbody tr[data-round="1"]')).to_be_visible()
    assert round_scores(rob, 1) == {"Rob": 11, "Sam": -9, "Nick": 30, "Emily": 0}
    expect(rob.get_by_test_id("dealer")).to_have_text(re.compile(r"Sam\s+deals"))
    screenshot(rob, "rob-scores-no-js")


def test_a_name_picked_on_a_slip_survives_the_live_updates_around_it(tromplemond_table):
    """Sam picks a name and takes his time: unchanged polls come, then Nick's slip goes
    in and Sam's screen is updated around his slip; his pick is still there to drop.

    Sam's phone polls every 2 s (the server holds no stream for it), so unchanged polls
    come; with a stream, only the update would."""
    table = tromplemond_table()
    sam = table.phones["Sam"]
    without_stream(sam.context)
    sam.reload()
    table.start()
    table.open_vote()
    # An unchanged poll (204) comes before the pick, as it does at a real table.
    with sam.expect_response(lambda r: "/seat/pulse" in r.url and r.status == 204,
                             timeout=LIVE_MS):
        pass
    table.tap_slip(sam, "Emily")
    version = sam.locator("#pulse").get_attribute("data-version")

    table.vote({"Nick": "Emily"})
    expect(sam.locator("#pulse")).not_to_have_attribute("data-version", version,
                                                        timeout=LIVE_MS)
    expect(sam.get_by_test_id("slips-in")).to_contain_text("1 of 4", timeout=LIVE_MS)
    expect(sam.get_by_test_id("slip-Emily")).to_be_checked()
    table.drop_at_once(["Sam"])
    expect(table.tablet.get_by_test_id("slips-in")).to_have_text("2 of 4 slips in",
                                                                 timeout=LIVE_MS)
