"""A change reaches the other screens through their table's event stream, which brings it
(the answer a poll would get): a screen that hears its stream makes no request at all; a
screen without a stream (the server holds as many as it may) polls every 2 s as before and
sees the same change."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.screens import LIVE_MS, without_push, without_stream

COUNT_TICKS = """() => {
    window.companionTicks = 0;
    document.body.addEventListener("companion:tick", () => {
        window.companionTicks += 1;
        document.body.setAttribute("data-ticks", String(window.companionTicks));
    });
}"""



def seated_phone(new_context, join_url: str, position: int, *, stream: bool = True,
                 push: bool = True):
    """A phone that took seat ``position``; without ``stream`` the server refuses its event
    stream (as one holding as many streams as it may); without ``push`` its stream says
    the versions only (and the phone polls for each change)."""
    context = new_context("phone")
    if not stream:
        without_stream(context)
    if not push:
        without_push(context)
    phone = context.new_page()
    phone.goto(join_url)
    phone.get_by_test_id(f"claim-{position}").click()
    expect(phone.locator("#you-are")).to_be_visible()
    return phone


def step(page, key: str):
    """A checklist step on a page."""
    return page.locator(f'li.step[data-step="{key}"]')


def test_a_tick_reaches_a_hearing_phone_by_its_stream_and_a_cut_one_by_polling(
        new_context, make_table, start_with_defaults):
    tablet = new_context("tablet").new_page()
    join_url = make_table(tablet, "Push", ["Rob", "Sam", "Nick"], "trumplestiltskin")
    hearing = seated_phone(new_context, join_url, 1)
    polling = seated_phone(new_context, join_url, 2, stream=False)
    start_with_defaults(tablet)
    for page in (hearing, polling):
        expect(step(page, "deal:0")).to_have_attribute("data-done", "no", timeout=LIVE_MS)
    expect(hearing.locator("body")).to_have_attribute("data-stream", "on")
    expect(tablet.locator("body")).to_have_attribute("data-stream", "on")
    expect(polling.locator("body")).to_have_attribute("data-stream", "off")
    hearing.evaluate(COUNT_TICKS)
    polling.evaluate(COUNT_TICKS)
    asked = []
    hearing.on("request", lambda request: asked.append(request.url)
               if "/pulse" in request.url else None)

    tablet.get_by_test_id("tick-deal-0").click()
    expect(step(tablet, "deal:0")).to_have_attribute("data-done", "yes")
    for page in (hearing, polling):
        expect(step(page, "deal:0")).to_have_attribute("data-done", "yes", timeout=LIVE_MS)
    # The hearing phone's stream brought the change itself: it asked nothing; the other
    # one polls on every tick (it sees the change by one of them).
    assert asked == [] and hearing.evaluate("window.companionTicks") == 0
    expect(hearing.locator("body")).to_have_attribute("data-stream", "on")
    expect(polling.locator("body")).to_have_attribute("data-ticks", re.compile(r"^([2-9]|\d\d+)$"),
                                                      timeout=LIVE_MS)


def test_a_phone_whose_polls_find_nothing_new_keeps_asking_until_it_has_the_change(
        new_context, make_table, start_with_defaults):
    # The stream says a change, but the phone's first polls are answered "nothing new" (as
    # when a poll reads the table just before the change is visible): the phone asks again
    # every 2 s until it has it, not only at the stream's next heartbeat (15 s later). (A
    # stream that says the version only: one that brings the answer needs no poll.)
    tablet = new_context("tablet").new_page()
    join_url = make_table(tablet, "Catch up", ["Rob", "Sam", "Nick"], "trumplestiltskin")
    phone = seated_phone(new_context, join_url, 1, push=False)
    start_with_defaults(tablet)
    expect(step(phone, "deal:0")).to_have_attribute("data-done", "no", timeout=LIVE_MS)
    expect(phone.locator("body")).to_have_attribute("data-stream", "on")
    unchanged = []

    def nothing_new_four_times(route):
        if len(unchanged) < 4:
            unchanged.append(route.request.url)
            route.fulfill(status=204, headers={"Cache-Control": "no-store"})
        else:
            route.continue_()

    phone.route(re.compile(r"/seat/pulse\?"), nothing_new_four_times)
    tablet.get_by_test_id("tick-deal-0").click()
    expect(step(tablet, "deal:0")).to_have_attribute("data-done", "yes")
    heard = tablet.locator("#pulse").get_attribute("data-version")
    expect(phone.locator("body")).to_have_attribute("data-heard", heard, timeout=LIVE_MS)
    # Two polls at once (the stream's word, and one chase), then one every 2 s: the change
    # is in within about 6 s; resting until the heartbeat would take two of them (>= 15 s).
    expect(step(phone, "deal:0")).to_have_attribute("data-done", "yes", timeout=LIVE_MS)
    assert len(unchanged) == 4
