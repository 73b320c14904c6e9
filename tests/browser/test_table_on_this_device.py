"""A table on this device (issue 42): /here runs the whole app in the tablet's browser
(Pyodide in a Web Worker, the service worker passing the frame's requests to it). Loaded
once online, it starts again with the network gone, makes a table, and a reload with no
network finds the table where it was. On the same load (Python's start in the browser is
slow), a Tromplemond round: every slip chosen on the tablet's private screen, sealed in the
page and opened by the browser's Python, every hand entered on the tablet. With the network
back, one tap moves the Clumond evening to the server, where phones join it."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect

from companion.rules import replay
from tests.browser.games.clumond import ClumondTable
from tests.browser.games.tromplemond import (
    TROMPLEMOND_PLAYERS,
    TromplemondTable,
    enter_quick_hands,
    tap_slip,
)
from tests.waiting import HANG_MS

ROOT = Path(__file__).resolve().parents[2]
START_MS = 5 * HANG_MS
"""Python's start in the browser: download (first time), compile, import the app; 20 to 60 s
on a loaded machine, so five hang ceilings (a wait for the state, not a time)."""


@pytest.fixture(scope="module")
def built():
    """The app's zip for the browser (scripts/build_offline.py), made when Pyodide is here."""
    if not (ROOT / "node_modules" / "pyodide" / "pyodide.mjs").is_file():
        pytest.skip("node_modules/pyodide is absent (npm ci)")
    subprocess.run([sys.executable, str(ROOT / "scripts" / "build_offline.py")], check=True,
                   cwd=ROOT, capture_output=True)


def started(page):
    """The frame of /here once the app answers in it (its home page)."""
    expect(page.get_by_test_id("here-frame")).to_be_visible(timeout=START_MS)
    frame = page.frame_locator("#here-frame")
    expect(frame.locator("a.brand")).to_be_visible(timeout=START_MS)
    return frame


def test_a_table_on_this_device_works_with_no_network_survives_a_reload_and_moves_to_the_server(
        built, new_context, console_errors):
    """Clumond, then (the same load) Tromplemond, each round played with no network; then
    the Clumond table moved to the server."""
    context = new_context("tablet")
    page = context.new_page()
    page.goto("/here")
    expect(page.get_by_test_id("here")).to_contain_text("Phones cannot join")
    frame = started(page)
    expect(page.get_by_test_id("here")).to_have_attribute("data-kept", "", timeout=HANG_MS)

    context.set_offline(True)
    page.reload()
    frame = started(page)  # (its page came from Python in this browser: there is no network)
    assert frame.locator("body").evaluate("body => body.hasAttribute('data-here')")
    # The new-table form for Clumond (3 players), opened in the frame as a link would.
    page.evaluate("document.getElementById('here-frame').src ="
                  " '/here/app/new?game=clumond&seats=3'")
    expect(frame.get_by_test_id("new-table-form")).to_be_visible(timeout=HANG_MS)
    frame.get_by_test_id("table-name").fill("Kitchen")
    for i, name in enumerate(("Ana", "Ben", "Cleo"), start=1):
        frame.locator(f"#player-{i}").fill(name)
    frame.get_by_test_id("new-table-form").locator('button[type="submit"]').click()
    page.wait_for_function(
        "() => document.getElementById('here-frame').contentWindow.location.pathname"
        ".startsWith('/here/app/t/')", timeout=HANG_MS)
    where = page.evaluate(
        "document.getElementById('here-frame').contentWindow.location.pathname")
    expect(frame.locator("main")).to_contain_text("Cleo", timeout=HANG_MS)
    # With no network, the table's page is not "Reconnecting…": the app is on this device.
    expect(frame.get_by_test_id("connection")).to_be_hidden()
    # No join code to scan: no phone reaches a table on this device.
    expect(frame.get_by_test_id("no-phones-here")).to_contain_text(
        "Phones cannot join a table on this device: the tablet enters for every seat.")
    expect(frame.locator("#join-qr")).to_have_count(0)

    totals = play_a_round(frame)
    # The same record, scored by the rules here (the server's own replay): the same stacks.
    record = frame.locator("body").evaluate(
        "(body, url) => fetch(url).then(answer => answer.json())",
        f"{where}/games/1/record.json")
    assert record["rounds"][0]["tricks"] == TRICKS
    assert replay(record)["totals"] == totals == {"Ana": 101, "Ben": 101, "Cleo": 90}

    page.reload()
    frame = started(page)
    assert page.evaluate(
        "document.getElementById('here-frame').contentWindow.location.pathname") == where
    expect(frame.locator("main")).to_contain_text("Cleo", timeout=HANG_MS)
    # The round played with no network is still there, its stacks too.
    table = ClumondTable(frame, dict.fromkeys(PLAYERS))
    expect(table.rows()).to_have_count(1, timeout=HANG_MS)
    table.expect_stacks(totals)

    # Tromplemond on the same tablet, still with no network: the vote by private slips.
    page.evaluate("document.getElementById('here-frame').src ="
                  " '/here/app/new?game=tromplemond&seats=4'")
    expect(frame.get_by_test_id("new-table-form")).to_be_visible(timeout=HANG_MS)
    frame.get_by_test_id("table-name").fill("Porch")
    for i, name in enumerate(TROMPLEMOND_PLAYERS, start=1):
        frame.locator(f"#player-{i}").fill(name)
    frame.get_by_test_id("new-table-form").locator('button[type="submit"]').click()
    expect(frame.locator("main")).to_contain_text("Emily", timeout=HANG_MS)
    expect(frame.get_by_test_id("no-phones-here")).to_be_visible()
    porch = page.evaluate(
        "document.getElementById('here-frame').contentWindow.location.pathname")
    assert porch.startswith("/here/app/t/")
    scores = play_tromplemond(frame)
    record = frame.locator("body").evaluate(
        "(body, url) => fetch(url).then(answer => answer.json())",
        f"{porch}/games/1/record.json")
    assert len(record["rounds"]) == 1
    assert replay(record)["rounds"][0]["scores"] == scores
    assert scores["Emily"] == 0  # voted off by the tablet's slips

    # Back to the Clumond table, and to a server in one tap.
    page.evaluate(f"document.getElementById('here-frame').src = '{where}'")
    expect(table.rows()).to_have_count(1, timeout=HANG_MS)
    # The ledger here first: the server's must say the same.
    frame.get_by_test_id("ledger-link").click()
    in_play = money_in_play(frame)
    page.evaluate(f"document.getElementById('here-frame').src = '{where}'")
    move = frame.get_by_test_id("move-table")
    expect(move).to_have_text("Move this table to the server", timeout=HANG_MS)
    # Still no network: the button says so, and the table stays here as it was.
    move.click()
    expect(frame.get_by_test_id("move-status")).to_have_text(UNREACHABLE, timeout=HANG_MS)
    console_errors[:] = [e for e in console_errors if "ERR_INTERNET_DISCONNECTED" not in e]
    expect(table.rows()).to_have_count(1)

    context.set_offline(False)
    move.click()
    # The whole tab opens the server's new table, this tablet its scorekeeper.
    page.wait_for_url(re.compile(r"/t/[A-Z0-9]+\?moved=1$"), timeout=HANG_MS)
    expect(page.get_by_test_id("moved")).to_contain_text(
        "The table on the tablet stays there as it was")
    server = ClumondTable(page, dict.fromkeys(PLAYERS))
    expect(server.rows()).to_have_count(1, timeout=HANG_MS)
    server.expect_stacks(totals)
    expect(page.get_by_test_id("no-phones-here")).to_have_count(0)
    join_url = page.locator("#join-url").get_attribute("href")
    keeper_url = page.url
    page.get_by_test_id("ledger-link").click()
    assert money_in_play(page) == in_play

    # A phone joins the server's table by its join link: a game is on, so it asks, and the
    # scorekeeper approves.
    page.goto(keeper_url)
    page.evaluate("window.companionNoReload = true")
    phone = new_context("phone").new_page()
    phone.goto(join_url)
    phone.get_by_test_id("claim-2").click()
    expect(phone.locator("#waiting")).to_be_visible(timeout=HANG_MS)
    request = page.locator('.request[data-seat="2"]')
    expect(request).to_be_visible(timeout=HANG_MS)
    request.get_by_role("button", name="Approve").click()
    expect(phone.locator("#you-are")).to_have_text("You are Ben (seat 2)", timeout=HANG_MS)


UNREACHABLE = ("The server cannot be reached: is the network back? Nothing was moved and "
               "nothing is lost; the table stays on this device.")


def money_in_play(page) -> dict[str, str]:
    """The ledger's money in play (game 1), by player, as the ledger page shows it."""
    rows = page.locator('[data-testid="in-play"] tr[data-player]')
    expect(rows).to_have_count(len(PLAYERS), timeout=HANG_MS)
    return {row.get_attribute("data-player"): row.locator("td").get_attribute("data-amount")
            for row in rows.all()}


PLAYERS = ("Ana", "Ben", "Cleo")
TRICKS = {"Ana": 3, "Ben": 4, "Cleo": 6}
DECLARED = {"Ana": 3, "Ben": 4, "Cleo": 1}


def play_a_round(frame) -> dict[str, int]:
    """The scorekeeper plays Clumond's first round on the tablet alone, for every seat:
    the game with its usual options, three noes, each player's tricks and declared number
    on the tablet's entry page, the round confirmed; the stacks the score table shows."""
    frame.get_by_test_id("start-game").click()
    expect(frame.get_by_test_id("options-form")).to_be_visible(timeout=HANG_MS)
    frame.get_by_test_id("start-options").click()
    expect(frame.locator("#round")).to_have_attribute("data-phase", "offer", timeout=HANG_MS)
    for _turn in PLAYERS:  # nobody goes for Clumond: the tablet answers for each seat
        asked = frame.get_by_test_id("no-phone")
        # No "has no phone" at a table where no phone joins: the tablet answers for them.
        expect(asked).to_have_text(re.compile(r"^Answer for \w+$"), timeout=HANG_MS)
        name = asked.inner_text().removeprefix("Answer for ")
        frame.get_by_test_id(f"answer-{name}").get_by_test_id("offer-no").click()
        expect(frame.get_by_test_id(f"answer-{name}")).to_have_count(0, timeout=HANG_MS)
    expect(frame.locator("#round")).to_have_attribute("data-phase", "tricks", timeout=HANG_MS)
    for position, name in enumerate(PLAYERS, start=1):
        frame.get_by_test_id(f"enter-{position}").click()
        expect(frame.get_by_test_id("keeper-entry-page")).to_be_visible(timeout=HANG_MS)
        frame.locator(f'label.tile:has(> input[name="tricks"][value="{TRICKS[name]}"])').click()
        frame.locator('label.tile:has(> input[name="how"][value="number"])').click()
        frame.locator(
            f'label.tile:has(> input[name="declared"][value="{DECLARED[name]}"])').click()
        frame.get_by_test_id("save-entry").click()
        expect(frame.get_by_test_id(f"tricks-{name}")).to_contain_text(
            str(TRICKS[name]), timeout=HANG_MS)
    table = ClumondTable(frame, dict.fromkeys(PLAYERS))
    table.confirm_round()
    expect(table.stack_cell("Cleo")).to_contain_text(
        ClumondTable.said("90"), timeout=HANG_MS)
    return table.stacks()


KEEP_WHAT_IS_SENT = """body => {
  const doc = body.ownerDocument;
  if (doc.defaultView.keepsSent) return;
  doc.defaultView.keepsSent = true;
  // Bubbling, on the document: after the slip script has sealed the form.
  doc.addEventListener("submit", (event) => {
    const sent = Object.fromEntries(new FormData(event.target).entries());
    sessionStorage.setItem("sent-slip", JSON.stringify(sent));
  });
}"""
"""Keep in the frame what each slip form sends (its fields once sealed), to look at after."""

VOTES = {"Rob": "Emily", "Sam": "Emily", "Nick": "Emily", "Emily": "Rob"}
"""Each player's slip in the Tromplemond round: Emily goes off."""


def play_tromplemond(frame) -> dict[str, int]:
    """The scorekeeper plays Tromplemond's first round on the tablet alone: the game with
    its usual options, the vote opened, each player's slip chosen on the tablet's private
    screen (sealed in the page: what the frame sends holds no name), the hands entered the
    quick way, the round confirmed; the round's scores the score table shows."""
    table = TromplemondTable(frame, {}, "")
    frame.get_by_test_id("start-game").click()
    expect(frame.get_by_test_id("options-form")).to_be_visible(timeout=HANG_MS)
    frame.get_by_test_id("start-options").click()
    table.wait_phase("deal")
    frame.get_by_test_id("open-vote").click()
    table.wait_phase("vote")
    for voter, choice in VOTES.items():
        frame.get_by_test_id("proxy-link").click()
        frame.get_by_test_id(f"private-{voter}").click()
        expect(frame.locator("#private-slip")).to_contain_text(
            f"Only {voter} looks at the screen now", timeout=HANG_MS)
        tap_slip(frame, choice)
        frame.locator("body").evaluate(KEEP_WHAT_IS_SENT)
        frame.get_by_test_id("slip-confirm").click()
        expect(frame.get_by_test_id("private-done")).to_be_visible(timeout=HANG_MS)
        sent = frame.locator("body").evaluate(
            "body => JSON.parse(sessionStorage.getItem('sent-slip'))")
        # Sealed in the page (tweetnacl): the slip sent holds no name, only the sealed box.
        assert sent.get("sealed") and sent["chooser"] == voter, sent
        assert choice not in {value for key, value in sent.items() if key != "chooser"}, sent
        frame.get_by_role("link", name="Scorekeeper screen").click()
        expect(frame.locator("#round")).to_be_visible(timeout=HANG_MS)
    table.wait_phase("hands")
    expect(frame.get_by_test_id("vote-off")).to_contain_text("Emily", timeout=HANG_MS)
    enter_quick_hands(table)
    table.confirm_round()
    row = frame.locator('[data-testid="score-table"] tbody tr[data-round="1"]')
    cells = row.locator(".score").all_inner_texts()
    scores = {name: int(text.replace("\u2212", "-"))
              for name, text in zip(TROMPLEMOND_PLAYERS, cells, strict=True)}
    return scores
