"""Live updates: each page polls once a tick with what it shows; an unchanged poll is a bodiless
204, a changed one brings only the regions that changed."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.db

HTMX = {"HX-Request": "true"}


def version(actions, code) -> int:
    return actions.table(code).version


PULSE = re.compile(r'<div id="pulse" hidden hx-get="([^"]+)" hx-trigger="([^"]+)" '
                   r'hx-swap="none" data-version="(\d+)"')


def pulse_of(html: str) -> str:
    """The one URL a page polls (its pulse), with the version and stamps it shows."""
    [(url, trigger, _)] = PULSE.findall(html)
    assert trigger == "companion:tick from:body"
    return url.replace("&amp;", "&")


ROUND = re.compile(r'<section [^>]*\bid="round"[^>]*>')


def oob_ids(html: str) -> list[str]:
    """The regions a pulse answer swaps in, by id."""
    return re.findall(r'id="([\w-]+)"[^>]*hx-swap-oob="true"', html)


def test_each_live_page_polls_once_a_tick_with_its_version_and_names_its_stream(client,
                                                                                actions):
    code = actions.create_table()
    actions.start(code)
    v = version(actions, code)
    phone, _ = actions.claim(code, 2)
    v = version(actions, code)
    pages = {f"/t/{code}": (client, f"/t/{code}/pulse?v={v}&s="),
             f"/t/{code}/seat": (phone, f"/t/{code}/seat/pulse?v={v}&s="),
             f"/t/{code}/games/1": (phone, f"/t/{code}/games/1/pulse?v={v}&s="),
             f"/j/{code}": (actions.phone(), f"/j/{code}/pulse?v={v}&s=")}
    for page, (device, start) in pages.items():
        html = device.get(page).get_data(as_text=True)
        assert pulse_of(html).startswith(start), page
        assert f'data-events="/t/{code}/events"' in html, page  # when to tick: the stream
        # No region polls by itself: the page makes one request a tick, not one per region.
        assert html.count("companion:tick from:body") == 1, page


def test_an_unchanged_pulse_is_a_204_without_a_body(client, actions):
    code = actions.create_table()
    actions.start(code)
    phone, _ = actions.claim(code, 1)
    for device, page in ((client, f"/t/{code}"), (phone, f"/t/{code}/seat"),
                         (phone, f"/t/{code}/games/1"), (actions.phone(), f"/j/{code}")):
        response = device.get(pulse_of(device.get(page).get_data(as_text=True)), headers=HTMX)
        assert response.status_code == 204 and response.data == b"", page


def test_a_tick_re_renders_the_round_and_nothing_else(client, actions):
    code = actions.create_table()
    actions.start(code)
    phone, _ = actions.claim(code, 1)
    url = pulse_of(phone.get(f"/t/{code}/seat").get_data(as_text=True))
    keeper_url = pulse_of(client.get(f"/t/{code}").get_data(as_text=True))
    actions.post(f"/t/{code}/games/1/tick", {"round": "1", "step": "deal:0"})
    answer = phone.get(url, headers=HTMX).get_data(as_text=True)
    assert oob_ids(answer) == ["pulse", "round"]
    assert 'data-step="deal:0" data-done="yes"' in answer
    assert oob_ids(client.get(keeper_url, headers=HTMX).get_data(as_text=True)) == [
        "pulse", "round"]


def test_a_seat_taken_re_renders_the_seats_and_a_round_the_scoreboard(client, actions):
    from tests.web.test_tromplemond import Table as Game

    code = actions.create_table()
    phones = [actions.claim(code, n)[0] for n in (1, 2, 3)]
    keeper_url = pulse_of(client.get(f"/t/{code}").get_data(as_text=True))
    phone_url = pulse_of(phones[0].get(f"/t/{code}/seat").get_data(as_text=True))
    fourth, _ = actions.claim(code, 4)
    answer = client.get(keeper_url, headers=HTMX).get_data(as_text=True)
    assert oob_ids(answer) == ["pulse", "round", "requests-live", "keeper-live"]
    assert re.search(r'data-seat="4"\s+data-joined="yes"', answer)
    assert oob_ids(phones[0].get(phone_url, headers=HTMX).get_data(as_text=True)) == [
        "pulse", "round", "you-live"]
    # The game starts: every region changes. A round confirmed changes the scoreboard.
    actions.start(code)
    game = Game(actions, code, [*phones, fourth])
    url = pulse_of(phones[0].get(f"/t/{code}/seat").get_data(as_text=True))
    game.vote_off("Emily")
    for name in ("Rob", "Sam", "Nick"):
        game.quick(name, 20)
    assert "scoreboard" not in oob_ids(phones[0].get(url, headers=HTMX).get_data(as_text=True))
    url = pulse_of(phones[0].get(f"/t/{code}/seat").get_data(as_text=True))
    game.confirm()
    answer = phones[0].get(url, headers=HTMX).get_data(as_text=True)
    assert oob_ids(answer) == ["pulse", "round", "scoreboard"]
    assert 'data-total="Rob"' in answer


def test_an_unchanged_region_poll_is_a_204_without_a_body(client, actions):
    code = actions.create_table()
    v = version(actions, code)
    for url in (f"/t/{code}/pulse", f"/t/{code}/seat/pulse"):
        response = client.get(f"{url}?v={v}", headers=HTMX)
        assert response.status_code == 204
        assert response.data == b""
    phone = actions.phone()
    assert phone.get(f"/j/{code}/pulse?v={v}", headers=HTMX).status_code == 204


def test_a_change_reaches_the_scorekeeper_on_the_next_poll(client, actions):
    code = actions.create_table()
    v = version(actions, code)
    actions.claim(code, 3)
    response = client.get(f"/t/{code}/pulse?v={v}", headers=HTMX)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert "<html" not in html, "only the regions, not the page"
    assert f'data-version="{v + 1}"' in html
    assert re.search(r'data-seat="3"\s+data-joined="yes"', html)


def test_a_seat_back_request_appears_live_and_the_asker_sees_the_answer(client, actions):
    code = actions.create_table()
    actions.claim(code, 2)
    keeper_url = pulse_of(client.get(f"/t/{code}").get_data(as_text=True))
    asker = actions.phone()
    actions.post(f"/j/{code}/ask", {"seat": "2"}, client=asker)
    keeper = client.get(keeper_url, headers=HTMX).get_data(as_text=True)
    assert "requests-live" in oob_ids(keeper)
    asked_id = re.search(r'data-testid="approve-(\d+)"', keeper).group(1)
    v = version(actions, code)
    assert asker.get(f"/t/{code}/seat/pulse?v={v}", headers=HTMX).status_code == 204
    actions.post(f"/t/{code}/requests/{asked_id}/approve")
    you = asker.get(f"/t/{code}/seat/pulse?v={v}", headers=HTMX).get_data(as_text=True)
    assert "You are Sam (seat 2)" in you


def test_the_game_appears_on_the_phones_when_it_starts(actions):
    code = actions.create_table()
    phone, _ = actions.claim(code, 1)
    v = version(actions, code)
    html = phone.get(f"/t/{code}/seat").get_data(as_text=True)
    assert pulse_of(html).startswith(f"/t/{code}/seat/pulse?v={v}&")
    assert 'data-testid="no-game"' in html
    actions.start(code)
    html = phone.get(f"/t/{code}/seat/pulse?v={v}", headers=HTMX).get_data(as_text=True)
    assert 'data-testid="score-table"' in html


def test_a_plain_browser_opening_a_region_gets_the_page(client, actions):
    code = actions.create_table()
    response = client.get(f"/t/{code}/pulse")
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/t/{code}")


def test_the_scorekeeper_region_is_the_scorekeeper_s_only(actions):
    code = actions.create_table()
    response = actions.phone().get(f"/t/{code}/pulse?v=0", headers=HTMX)
    assert response.status_code == 403
    assert "<html" not in response.get_data(as_text=True)
    # An unchanged poll is answered before any check, with nothing: it shows nothing either.
    quiet = actions.phone().get(f"/t/{code}/pulse?v=1", headers=HTMX)
    assert quiet.status_code == 204 and quiet.get_data() == b""


def test_a_poll_for_an_unknown_table_is_a_404(client):
    assert client.get("/t/BCDFGHJK/pulse?v=1", headers=HTMX).status_code == 404
    assert client.get("/j/BCDFGHJK/pulse?v=1", headers=HTMX).status_code == 404


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
    client.get(f"/t/{code}/pulse?v=0", headers=HTMX)
    actions.post(f"/t/{code}/seats/1/move", {"direction": "up"})  # refused: already first
    actions.post(f"/t/{code}/seats/1/name", {"name": "x" * 200})  # refused: too long
    actions.claim(code, 9)  # refused: no such seat
    assert version(actions, code) == v


def test_a_poll_held_back_by_the_limit_skips_the_tick_quietly(app, client, actions):
    code = actions.create_table()
    app.config["WRONG_CODE_LIMIT"] = "2/minute"
    for _ in range(2):
        client.get("/join", query_string={"code": "BCDFGHJK"})
    response = client.get(f"/t/{code}/pulse?v=0", headers=HTMX)
    assert response.status_code == 204 and response.data == b""
    boosted = client.get("/join", query_string={"code": code},
                         headers={**HTMX, "HX-Boosted": "true"})
    assert boosted.status_code == 429 and "Too many tries" in boosted.get_data(as_text=True)


def test_a_tap_answer_brings_the_page_up_to_date_so_its_next_poll_is_a_204(client, actions):
    from tests.web.test_tromplemond import Table as Game

    code = actions.create_table()
    phones = actions.seat_everyone(code)
    actions.start(code)
    game = Game(actions, code, phones)
    keeper_url = pulse_of(client.get(f"/t/{code}").get_data(as_text=True))
    tap = {"X-Companion-Pulse": keeper_url, **HTMX}
    answer = actions.post(f"/t/{code}/games/1/tick", {"round": "1", "step": "deal:0"},
                          headers=tap).get_data(as_text=True)
    # The round in place (the tap's own target), the new pulse by its id: nothing else changed.
    assert oob_ids(answer) == ["pulse"]
    assert len(ROUND.findall(answer)) == 1 and 'data-step="deal:0" data-done="yes"' in answer
    new_url = pulse_of(answer)
    assert f"v={version(actions, code)}&" in new_url
    assert client.get(new_url, headers=HTMX).status_code == 204
    # A confirmed round changes the scoreboard too: the tap's answer brings it
    game.vote_off("Emily")
    for name in ("Rob", "Sam", "Nick"):
        game.quick(name, 20)
    keeper_url = pulse_of(client.get(f"/t/{code}").get_data(as_text=True))
    answer = actions.post(f"/t/{code}/games/1/confirm", {"round": "1"},
                          headers={**HTMX, "X-Companion-Pulse": keeper_url}).get_data(
        as_text=True)
    # (and the tablet's game panel, which offers the next step once the rules end the game)
    assert oob_ids(answer) == ["pulse", "scoreboard", "game-area"]
    assert 'data-total="Rob"' in answer
    assert client.get(pulse_of(answer), headers=HTMX).status_code == 204
    # A phone's tap: its own page's pulse (the tablet's pulse URL is not its page).
    phone_url = pulse_of(phones[0].get(f"/t/{code}/seat").get_data(as_text=True))
    for sent, pulse_back in ((phone_url, True), (keeper_url, False), ("", False)):
        answer = actions.post(f"/t/{code}/games/1/tick", {"round": "2", "step": "deal:1",
                                                          "from": "seat"}, client=phones[0],
                              headers={**HTMX, "X-Companion-Pulse": sent}).get_data(
            as_text=True)
        assert ('id="pulse"' in answer) is pulse_back, sent
        [round_tag] = ROUND.findall(answer)
        assert "hx-swap-oob" not in round_tag, "the round goes in place: the tap's own target"


def test_after_a_tap_the_moment_is_made_once_for_every_screen(client, actions, monkeypatch):
    from companion.games.tromplemond.web.flow import TromplemondFlow

    code = actions.create_table()
    phones = actions.seat_everyone(code)
    actions.start(code)
    pulses = [pulse_of(client.get(f"/t/{code}").get_data(as_text=True))] + [
        pulse_of(phone.get(f"/t/{code}/seat").get_data(as_text=True)) for phone in phones]
    made = []
    real = TromplemondFlow.table_moment
    monkeypatch.setattr(TromplemondFlow, "table_moment",
                        lambda self, *args: made.append(1) or real(self, *args))
    actions.post(f"/t/{code}/games/1/tick", {"round": "1", "step": "deal:0"})
    made.clear()  # the tap itself (before and after its commit)
    answers = [device.get(url, headers=HTMX).get_data(as_text=True)
               for device, url in zip([client, *phones], pulses, strict=True)]
    assert len(made) == 1
    assert all('data-step="deal:0" data-done="yes"' in answer for answer in answers)
    # Each screen still gets its own: Sam's slip, not Rob's; the tablet's vote status.
    actions.post(f"/t/{code}/games/1/tromplemond/vote", {"round": "1"})
    made.clear()
    slips = [phone.get(f"/t/{code}/seat/pulse?v=0", headers=HTMX).get_data(as_text=True)
             for phone in phones]
    assert len(made) == 1
    for name, slip in zip(("Rob", "Sam", "Nick", "Emily"), slips, strict=True):
        choices = set(re.findall(r'name="choice" value="(\w+) \.*"', slip))
        assert choices == {"Rob", "Sam", "Nick", "Emily"} - {name}, name


def test_a_shared_moment_keeps_the_interrogation_clock_running(client, actions, monkeypatch):
    from datetime import timedelta

    from companion.games.tromplemond import store

    code = actions.create_table()
    phones = actions.seat_everyone(code)
    actions.start(code)
    actions.post(f"/t/{code}/games/1/tromplemond/timer", {"round": "1", "action": "start"})
    first = phones[0].get(f"/t/{code}/seat/pulse?v=0", headers=HTMX).get_data(as_text=True)
    assert re.search(r'data-countdown="(29\d|300)"', first)
    later = store._now() + timedelta(seconds=30)
    monkeypatch.setattr(store, "_now", lambda: later)
    # The same version (no change since): another screen shares the moment, not its clock.
    second = phones[1].get(f"/t/{code}/seat/pulse?v=0", headers=HTMX).get_data(as_text=True)
    assert re.search(r'data-countdown="(26\d|270)"', second)
