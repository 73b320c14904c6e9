"""A table on this device (issue 42): /here runs the whole app in the tablet's browser
(Pyodide in a Web Worker, the service worker passing the frame's requests to it). Loaded
once online, it starts again with the network gone, makes a table, and a reload with no
network finds the table where it was."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect

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


def test_a_table_on_this_device_works_with_no_network_and_survives_a_reload(
        built, new_context):
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

    page.reload()
    frame = started(page)
    assert page.evaluate(
        "document.getElementById('here-frame').contentWindow.location.pathname") == where
    expect(frame.locator("main")).to_contain_text("Cleo", timeout=HANG_MS)
