"""Live updates: regions poll with the table's version; an unchanged poll is a bodiless 204."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.db

HTMX = {"HX-Request": "true"}


def version(actions, code) -> int:
    return actions.table(code).version


def test_live_regions_poll_on_the_tick_with_the_table_version(client, actions):
    code = actions.create_table()
    actions.start(code)
    v = version(actions, code)
    html = client.get(f"/t/{code}").get_data(as_text=True)
    # The region's forms are page changes: they must not inherit its target and swap.
    regions = re.findall(r'hx-get="([^"]+)" hx-trigger="([^"]+)" hx-target="this" '
                         r'hx-swap="outerHTML" hx-disinherit="hx-target hx-swap"', html)
    assert (f"/t/{code}/live?v={v}", "companion:tick from:body") in regions
    assert (f"/t/{code}/scoreboard?v={v}", "companion:tick from:body") in regions
    assert "[" not in "".join(trigger for _, trigger in regions), "no eval'd trigger filters"


def test_an_unchanged_poll_is_a_204_without_a_body(client, actions):
    code = actions.create_table()
    v = version(actions, code)
    for url in (f"/t/{code}/live", f"/t/{code}/scoreboard"):
        response = client.get(f"{url}?v={v}", headers=HTMX)
        assert response.status_code == 204
        assert response.data == b""
    phone = actions.phone()
    assert phone.get(f"/j/{code}/live?v={v}", headers=HTMX).status_code == 204


def test_a_change_reaches_the_scorekeeper_on_the_next_poll(client, actions):
    code = actions.create_table()
    v = version(actions, code)
    actions.claim(code, 3)
    response = client.get(f"/t/{code}/live?v={v}", headers=HTMX)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert "<html" not in html, "only the region, not the page"
    assert f'hx-get="/t/{code}/live?v={v + 1}"' in html
    assert re.search(r'data-seat="3"\s+data-joined="yes"', html)


def test_a_seat_back_request_appears_live_and_the_asker_sees_the_answer(client, actions):
    code = actions.create_table()
    actions.claim(code, 2)
    v = version(actions, code)
    asker = actions.phone()
    actions.post(f"/j/{code}/ask", {"seat": "2"}, client=asker)
    keeper = client.get(f"/t/{code}/live?v={v}", headers=HTMX).get_data(as_text=True)
    asked_id = re.search(r'data-testid="approve-(\d+)"', keeper).group(1)
    v = version(actions, code)
    assert asker.get(f"/t/{code}/seat/live?v={v}", headers=HTMX).status_code == 204
    actions.post(f"/t/{code}/requests/{asked_id}/approve")
    you = asker.get(f"/t/{code}/seat/live?v={v}", headers=HTMX).get_data(as_text=True)
    assert "You are Sam (seat 2)" in you


def test_the_game_appears_on_the_phones_when_it_starts(actions):
    code = actions.create_table()
    phone, _ = actions.claim(code, 1)
    v = version(actions, code)
    html = phone.get(f"/t/{code}/seat").get_data(as_text=True)
    assert f'hx-get="/t/{code}/scoreboard?v={v}"' in html
    assert 'data-testid="no-game"' in html
    actions.start(code)
    html = phone.get(f"/t/{code}/scoreboard?v={v}", headers=HTMX).get_data(as_text=True)
    assert 'data-testid="score-table"' in html


def test_a_plain_browser_opening_a_region_gets_the_page(client, actions):
    code = actions.create_table()
    response = client.get(f"/t/{code}/live")
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/t/{code}")


def test_the_scorekeeper_region_is_the_scorekeeper_s_only(actions):
    code = actions.create_table()
    response = actions.phone().get(f"/t/{code}/live?v=1", headers=HTMX)
    assert response.status_code == 403
    assert "<html" not in response.get_data(as_text=True)


def test_a_poll_for_an_unknown_table_is_a_404(client):
    assert client.get("/t/BCDFGHJK/live?v=1", headers=HTMX).status_code == 404
    assert client.get("/j/BCDFGHJK/live?v=1", headers=HTMX).status_code == 404


@pytest.mark.parametrize(("step", "path", "data"), [
    ("move", "/seats/1/move", {"direction": "down"}),
    ("rename", "/seats/1/name", {"name": "Robin"}),
    ("dealer", "/dealer", {"dealer": "2"}),
    ("start", "/start", {}),
])
def test_every_change_of_the_scorekeeper_bumps_the_version_once(actions, step, path, data):
    code = actions.create_table()
    before = version(actions, code)
    assert actions.post(f"/t/{code}{path}", data).status_code == 303
    assert version(actions, code) == before + 1


def test_joining_asking_answering_freeing_and_leaving_bump_the_version(actions):
    code = actions.create_table()
    v = version(actions, code)
    phone, _ = actions.claim(code, 2)
    assert version(actions, code) == v + 1
    asker = actions.phone()
    actions.post(f"/j/{code}/ask", {"seat": "2"}, client=asker)
    assert version(actions, code) == v + 2
    keeper = actions.keeper.get(f"/t/{code}").get_data(as_text=True)
    asked_id = re.search(r'data-testid="deny-(\d+)"', keeper).group(1)
    actions.post(f"/t/{code}/requests/{asked_id}/deny")
    assert version(actions, code) == v + 3
    actions.post(f"/t/{code}/seats/2/free")
    assert version(actions, code) == v + 4
    actions.claim(code, 2, phone=phone)
    actions.post(f"/t/{code}/seats/2/leave", client=phone)
    assert version(actions, code) == v + 6


def test_looking_and_refused_changes_do_not_bump_the_version(client, actions):
    code = actions.create_table()
    v = version(actions, code)
    client.get(f"/t/{code}")
    actions.phone().get(f"/j/{code}")
    client.get(f"/t/{code}/live?v=0", headers=HTMX)
    actions.post(f"/t/{code}/seats/1/move", {"direction": "up"})  # refused: already first
    actions.post(f"/t/{code}/seats/1/name", {"name": "x" * 200})  # refused: too long
    actions.claim(code, 9)  # refused: no such seat
    assert version(actions, code) == v


def test_a_poll_held_back_by_the_limit_skips_the_tick_quietly(app, client, actions):
    code = actions.create_table()
    app.config["WRONG_CODE_LIMIT"] = "2/minute"
    for _ in range(2):
        client.get("/join", query_string={"code": "BCDFGHJK"})
    response = client.get(f"/t/{code}/live?v=0", headers=HTMX)
    assert response.status_code == 204 and response.data == b""
    boosted = client.get("/join", query_string={"code": code},
                         headers={**HTMX, "HX-Boosted": "true"})
    assert boosted.status_code == 429 and "Too many tries" in boosted.get_data(as_text=True)
