from playwright.sync_api import expect
from tests.browser.screens import LIVE_MS

def test_shots(tromplemond_table, restart_server):
    table = tromplemond_table(no_js=("Rob",))
    table.start()
    table.tablet.get_by_test_id("open-vote").click()
    table.wait_phase("vote")
    rob = table.phones["Rob"]
    rob.reload()
    rob.set_viewport_size({"width": 360, "height": 780})
    rob.screenshot(path="/tmp/shot-nojs-slip-360.png", full_page=True)
    sam = table.phones["Sam"]
    sam.set_viewport_size({"width": 360, "height": 780})
    table.tap_slip(sam, "Nick")
    sam.screenshot(path="/tmp/shot-js-slip-360.png", full_page=True)
    restart_server()
    expect(sam.locator("#round")).to_contain_text("please vote again", timeout=10000)
    sam.screenshot(path="/tmp/shot-restarted-360.png", full_page=True)
    table.tablet.set_viewport_size({"width": 800, "height": 1280})
    expect(table.tablet.locator("#round")).to_contain_text("please vote again", timeout=10000)
    table.tablet.screenshot(path="/tmp/shot-restarted-tablet.png", full_page=False)
