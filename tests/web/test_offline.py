"""A table on this device (``COMPANION_OFFLINE=1``, ``companion.offline``): the app the
tablet's browser runs on Pyodide, here in CPython through the same ``Here.answer`` the
browser's worker calls. No compression, no stream, framed by /here, its cookies kept in its
folder: a second start (a reload) finds the table and its scorekeeper again. The server's
own app is unchanged."""

from __future__ import annotations

import gzip
import re

import pytest

from companion import offline

ORIGIN = "http://127.0.0.1:5000"
GZIP = [("Accept-Encoding", "gzip")]


def _page(here, url, headers=()):
    answer = here.answer("GET", url, [*GZIP, *headers])
    return answer, answer["body"].decode()


def _new_table(here) -> str:
    _answer, form = _page(here, f"{offline.MOUNT}/new?game=clumond&seats=3")
    token = re.search(r'name="csrf_token" value="([^"]+)"', form).group(1)
    data = (f"csrf_token={token}&name=Kitchen&game=clumond&seats=3&player=Ana&player=Ben"
            "&player=Cleo&dealer=1").encode()
    made = here.answer("POST", f"{offline.MOUNT}/new",
                       [("Content-Type", "application/x-www-form-urlencoded")], data)
    assert made["status"] == 303, made["body"].decode()[:2000]
    assert made["store"] is True  # a change: the worker stores the folder at once
    location = dict(made["headers"])["Location"]
    assert location.startswith(f"{ORIGIN}{offline.MOUNT}/t/") or \
        location.startswith(f"{offline.MOUNT}/t/")
    return location.split(ORIGIN, 1)[-1]


@pytest.fixture
def here(tmp_path):
    started = offline.start(str(tmp_path), ORIGIN)
    yield started
    from companion.extensions import db
    with started.app.app_context():
        db.engine.dispose()


def test_a_table_on_this_device_is_made_and_drawn_under_its_mount(here):
    url = _new_table(here)
    answer, page = _page(here, url)
    assert answer["status"] == 200
    assert answer["store"] is False  # reading a page changes nothing
    headers = dict(answer["headers"])
    assert "Content-Encoding" not in headers  # nothing compressed
    assert "frame-ancestors 'self'" in headers["Content-Security-Policy"]
    assert all(name in page for name in ("Ana", "Ben", "Cleo"))
    assert 'data-events=""' in page  # no event stream to open
    assert "<body" in page and "data-here" in page.split("<body", 1)[1].split(">", 1)[0]
    # Links and forms stay under the mount; htmx is the app's own copy there.
    assert f'href="{offline.MOUNT}/' in page
    # htmx from the app's own copy, never the CDN (no internet there)
    assert f'<script src="{offline.MOUNT}/static/vendor/htmx.min.js"' in page
    assert "unpkg" not in page


def test_a_second_start_finds_the_table_and_its_scorekeeper(here, tmp_path):
    url = _new_table(here)
    _answer, before = _page(here, url)
    again = offline.start(str(tmp_path), ORIGIN)
    answer, after = _page(again, url)
    assert answer["status"] == 200
    assert "Kitchen" in after
    # Still the scorekeeper: the same buttons as before the reload.
    keeper_forms = re.findall(r'action="([^"]+)"', before)
    assert keeper_forms and re.findall(r'action="([^"]+)"', after) == keeper_forms


def test_the_server_is_unchanged(client):
    page = client.get("/", headers=dict(GZIP))
    assert "frame-ancestors 'none'" in page.headers["Content-Security-Policy"]
    assert page.headers.get("Content-Encoding") == "gzip"
    assert b"data-here" not in gzip.decompress(page.get_data())


def test_the_page_that_runs_it_says_phones_cannot_join_and_serves_only_its_files(client):
    page = client.get("/here")
    assert page.status_code == 200
    assert "Phones cannot join" in page.get_data(as_text=True)
    worker = client.get("/here/worker.js")
    assert worker.status_code == 200
    assert "'wasm-unsafe-eval'" in worker.headers["Content-Security-Policy"]
    assert "wasm-unsafe-eval" not in page.headers["Content-Security-Policy"]
    assert client.get("/here/pyodide/314.0.7/package.json").status_code == 404
    assert client.get("/here/pyodide/0.0.1/pyodide.mjs").status_code == 404
    assert client.get("/here/files/secret_key").status_code == 404
    assert client.get("/here/files/..%2Fsecret_key").status_code == 404


def test_a_table_on_this_device_offers_no_join_code_and_says_why(here, actions):
    url = _new_table(here)
    _answer, page = _page(here, url)
    assert "Phones cannot join a table on this device: the tablet enters for every seat." in page
    # No QR code, join code or join link: no phone can reach this table.
    assert 'id="join-qr"' not in page and "Scan to join" not in page
    assert 'id="join-url"' not in page and 'id="join-code"' not in page
    # The server's own tables still show how to join.
    code = actions.create_table(game="clumond", players=["Ana", "Ben", "Cleo"])
    server = actions.keeper.get(f"/t/{code}").get_data(as_text=True)
    assert 'id="join-qr"' in server and "Phones cannot join" not in server


def test_the_recap_of_a_table_on_this_device_offers_no_code_to_scan(here):
    url = _new_table(here)
    answer, page = _page(here, f"{url}/evenings/1/recap")
    assert answer["status"] == 200, page[:500]
    assert "Phones cannot join a table on this device: the tablet enters for every seat." in page
    assert 'id="recap-qr"' not in page and "Open it on another phone" not in page
    # Not "the table's Wi-Fi": the recap lives on this tablet; its downloads still work.
    assert "the recap lives on this tablet" in page and "Wi-Fi" not in page
    for download in ("download-svg", "download-text"):
        link = re.search(rf'href="([^"]+)"[^>]*data-testid="{download}"', page).group(1)
        assert here.answer("GET", link.replace("&amp;", "&"), [])["status"] == 200


def test_the_seats_of_a_table_on_this_device_have_no_phone_states(here):
    url = _new_table(here)
    _answer, page = _page(here, url)
    seats = page.split('id="keeper-live"', 1)[1].split("</ol>", 1)[0]
    assert "Ana" in seats and "Cleo" in seats
    # No "joined" or "no phone" beside each name: no phone joins here, none is missing.
    assert 'data-testid="joined"' not in seats and "no phone" not in seats


def test_the_tablet_answers_for_each_player_with_no_word_of_phones(app, actions,
                                                                  monkeypatch):
    """The same pages in the app's offline mode (``OFFLINE``, as on the tablet): Clumond's
    offer reads "Answer for Ann", the Tromplemond vote "for Rob, …", and a game over says
    the seats are below, with no join code; the server says "has no phone"."""
    from tests.web.test_clumond import TWO_MAKE_IT
    from tests.web.test_clumond import start as start_clumond
    server = start_clumond(actions, seated=())
    said = server.keeper.get(f"/t/{server.code}").get_data(as_text=True)
    assert re.search(r'data-testid="no-phone">\w+ has no phone: answer for \w+\.<', said)

    monkeypatch.setitem(actions.app.config, "OFFLINE", True)
    game = start_clumond(actions, seated=(), rounds="1")
    page = game.keeper.get(f"/t/{game.code}").get_data(as_text=True)
    assert re.search(r'data-testid="no-phone">Answer for (Ann|Bo|Cy)<', page)
    assert "no phone" not in page
    game.play(**TWO_MAKE_IT)
    assert actions.post(f"/t/{game.code}/games/1/end", {"game": "tremp"}).status_code == 303
    over = game.keeper.get(f"/t/{game.code}").get_data(as_text=True)
    hint = re.search(r'data-testid="seats-below">([^<]+)<', over).group(1)
    assert hint == "The seats, their names and the first dealer are below."

    code = actions.create_table(game="tromplemond")
    assert actions.start(code).status_code == 303
    opened = actions.post(f"/t/{code}/games/1/tromplemond/vote", {"round": "1"})
    assert opened.status_code == 303
    vote = actions.keeper.get(f"/t/{code}").get_data(as_text=True)
    assert 'data-testid="proxy-link"' in vote
    assert "no phone" not in vote and re.search(r">for (\w+, ){3}\w+<", vote)


def _started_with_its_options(actions, game: str) -> str:
    """A table of ``game`` for four players with no phone, started with the options its
    start form offers; its code."""
    code = actions.create_table(game=game, players=["Rob", "Sam", "Nick", "Emily"])
    form = actions.keeper.get(f"/t/{code}/start").get_data(as_text=True)
    form = re.search(r'data-testid="options-form".*?</form>', form, re.S).group(0)
    data = {}
    for field in re.findall(r"<input[^>]+>", form):
        name, value = re.search(r'name="([^"]+)"', field), re.search(r'value="([^"]*)"', field)
        chosen = ('type="radio"' not in field and 'type="checkbox"' not in field) or (
            " checked" in field)
        if name and chosen and name.group(1) not in ("csrf_token", "tap"):
            data[name.group(1)] = value.group(1) if value else ""
    for name, options in re.findall(r'<select[^>]*name="([^"]+)"[^>]*>(.*?)</select>', form,
                                    re.S):
        picked = re.search(r'<option value="([^"]*)"[^>]*selected', options) or re.search(
            r'<option value="([^"]*)"', options)
        data[name] = picked.group(1)
    assert actions.post(f"/t/{code}/start", data).status_code == 303
    return code


@pytest.mark.parametrize(("game", "server_says", "here_says"), [
    ("tremp", "Sam has no phone: tap the card Sam lays face up, or Pass.",
     "Tap the card Sam lays face up, or Pass."),
    ("trumplestiltskin", 'data-testid="no-phone">no phone: bid or pass here', "to bid"),
    ("trefeltromp", 'data-testid="joined">no phone', "Rob"),
])
def test_the_other_games_tablets_say_no_word_of_phones_either(
        app, actions, monkeypatch, game, server_says, here_says):
    """The tablet's first turn in each other game: offline, no "has no phone" and no
    "no phone" badge (the tablet enters for everyone); on the server, the same page says it."""
    server = actions.keeper.get(f"/t/{_started_with_its_options(actions, game)}")
    assert server_says in server.get_data(as_text=True)
    monkeypatch.setitem(actions.app.config, "OFFLINE", True)
    page = actions.keeper.get(f"/t/{_started_with_its_options(actions, game)}")
    assert page.status_code == 200
    assert "no phone" not in page.get_data(as_text=True)
    assert here_says in page.get_data(as_text=True)


def test_a_table_on_this_device_offers_to_move_to_the_server(here, actions):
    url = _new_table(here)
    _answer, page = _page(here, url)
    record = re.search(r'data-move-record="([^"]+)"', page).group(1)
    # The evening's record comes from the app in this browser (under its mount), and goes
    # to the server's own import page (the same origin, outside the mount).
    assert record.startswith(f"{offline.MOUNT}/t/") and record.endswith("/evening.json")
    assert 'data-move-server="/import"' in page
    assert "Move this table to the server" in page
    answer, body = _page(here, record)
    assert answer["status"] == 200 and '"games"' in body
    # A server's own table has nothing to move.
    code = actions.create_table(game="clumond", players=["Ana", "Ben", "Cleo"])
    assert "data-move-record" not in actions.keeper.get(f"/t/{code}").get_data(as_text=True)
