"""The home page: join with a code, take a table over, and the limit on wrong codes."""

from __future__ import annotations

import re

import pytest

from companion.store import ALPHABET, CODE_LENGTH, is_code, normalise_code
from companion.store.codes import new_code

pytestmark = pytest.mark.db


def test_home_offers_start_join_and_take_over(client):
    html = client.get("/").get_data(as_text=True)
    assert 'href="/new"' in html and "Start a table" in html
    assert 'action="/join"' in html and "Join with a code" in html
    assert 'href="/recover"' in html and "Take over a table" in html


def test_join_codes_are_eight_unambiguous_characters():
    codes = {new_code() for _ in range(200)}
    assert len(codes) == 200
    for code in codes:
        assert len(code) == CODE_LENGTH == 8
        assert set(code) <= set(ALPHABET)
    assert not set("AEIOUY01") & set(ALPHABET)


@pytest.mark.parametrize("typed", ["k7tq2mxb", "K7TQ-2MXB", " k7tq 2mxb ", "K7TQ_2MXB"])
def test_typed_codes_are_normalised(typed):
    assert normalise_code(typed) == "K7TQ2MXB"
    assert is_code(normalise_code(typed))


def test_a_typed_code_leads_to_the_join_page(client, actions):
    code = actions.create_table()
    typed = f"{code[:4].lower()}-{code[4:].lower()}"
    response = client.get("/join", query_string={"code": typed})
    assert response.status_code == 303
    assert response.headers["Location"].endswith(f"/j/{code}")


def test_a_join_link_in_lower_case_goes_to_the_canonical_one(client, actions):
    code = actions.create_table()
    response = actions.phone().get(f"/j/{code.lower()}")
    assert response.status_code == 302 and response.headers["Location"].endswith(f"/j/{code}")


def test_an_empty_code_is_a_400_with_a_hint(client):
    response = client.get("/join", query_string={"code": "  "})
    assert response.status_code == 400
    assert "Type the code" in response.get_data(as_text=True)


def test_a_wrong_code_is_a_404_that_says_so(client):
    response = client.get("/join", query_string={"code": "BCDF GHJK"})
    assert response.status_code == 404
    assert "There is no table with the code BCDF GHJK" in response.get_data(as_text=True)


WRONG = [f"BCDFGH{a}{b}" for a in "JKLM" for b in "23456789"][:30]
"""Thirty wrong codes: the most one address may type in a minute."""


def test_wrong_codes_are_limited_per_device_with_a_clear_429(app, client, actions):
    code = actions.create_table()
    for wrong in WRONG:
        assert client.get("/join", query_string={"code": wrong}).status_code == 404
    response = client.get("/join", query_string={"code": "BCDFGHJK"})
    assert response.status_code == 429
    assert "Too many tries" in response.get_data(as_text=True)
    # The limit is shared: guessing through the join links is stopped too.
    assert client.get("/j/BCDFGHJK").status_code == 429
    # Another device is not affected.
    assert actions.phone().get(f"/j/{code}").status_code == 200


def test_eight_phones_on_one_wifi_with_typos_are_never_refused(actions):
    code = actions.create_table(game="trefeltromp", players=[f"P{i}" for i in range(1, 9)])
    phones = [actions.phone() for _ in range(8)]
    for phone in phones:
        phone.environ_base["REMOTE_ADDR"] = "203.0.113.9"  # one café's address
    for phone, typo in zip(phones, WRONG[::3], strict=False):
        for wrong in (typo, typo[::-1]):  # two typos each, sixteen in all
            assert phone.get("/join", query_string={"code": wrong}).status_code == 404
        assert phone.get("/join", query_string={"code": code.lower()}).status_code == 303


def test_right_codes_do_not_count_towards_the_limit(client, actions):
    code = actions.create_table()
    for _ in range(15):
        assert client.get("/join", query_string={"code": code}).status_code == 303


# Taking a table over ---------------------------------------------------------------------

def recovery_code_of(client, code):
    html = client.get(f"/t/{code}").get_data(as_text=True)
    start = html.index('id="recovery-code">') + len('id="recovery-code">')
    return html[start:html.index("<", start)]


def test_the_scorekeeper_screen_shows_the_recovery_code_behind_a_tap(client, actions):
    code = actions.create_table()
    html = client.get(f"/t/{code}").get_data(as_text=True)
    assert "<details" in html and "<summary>Recovery code</summary>" in html
    assert is_code(normalise_code(recovery_code_of(client, code)))


def test_recovery_moves_the_scorekeeper_to_the_new_device(app, client, actions):
    code = actions.create_table()
    recovery = recovery_code_of(client, code)
    tablet = actions.phone()
    response = actions.post("/recover", {"code": code.lower(), "recovery": recovery.lower()},
                            client=tablet)
    assert response.status_code == 303
    assert response.headers["Location"].endswith(f"/t/{code}?new_recovery=1")
    page = tablet.get(response.headers["Location"]).get_data(as_text=True)
    assert 'data-testid="new-recovery"' in page and '<details class="panel recovery" open>' in page
    # The old tablet is no longer the scorekeeper.
    assert client.get(f"/t/{code}").status_code == 403
    assert actions.post(f"/t/{code}/seats/1/move", {"direction": "down"}).status_code == 403
    # The recovery code is new: the old device cannot take the table back with the old one.
    fresh = recovery_code_of(tablet, code)
    assert normalise_code(fresh) != normalise_code(recovery)
    back = actions.post("/recover", {"code": code, "recovery": recovery}, client=client)
    assert back.status_code == 404 and tablet.get(f"/t/{code}").status_code == 200
    again = actions.post("/recover", {"code": code, "recovery": fresh}, client=client)
    assert again.status_code == 303 and client.get(f"/t/{code}").status_code == 200


def test_a_wrong_recovery_code_is_a_404_and_changes_nothing(client, actions):
    code = actions.create_table()
    before = actions.table(code).scorekeeper_key_hash
    tablet = actions.phone()
    response = actions.post("/recover", {"code": code, "recovery": "BCDFGHJK"}, client=tablet)
    assert response.status_code == 404
    assert "No table has that code and recovery code" in response.get_data(as_text=True)
    assert actions.table(code).scorekeeper_key_hash == before
    assert tablet.get(f"/t/{code}").status_code == 403
    assert client.get(f"/t/{code}").status_code == 200


def test_recovery_needs_both_codes(actions):
    response = actions.post("/recover", {"code": "", "recovery": ""}, client=actions.phone())
    assert response.status_code == 400


def test_guessing_recovery_codes_is_limited(actions):
    code = actions.create_table()
    right = recovery_code_of(actions.keeper, code)
    tablet = actions.phone()
    statuses = [actions.post("/recover", {"code": code, "recovery": wrong},
                             client=tablet).status_code for wrong in WRONG]
    assert statuses == [404] * len(WRONG)
    response = actions.post("/recover", {"code": code, "recovery": right}, client=tablet)
    assert response.status_code == 429, "even the right code waits once the limit is hit"


def test_the_games_page_lists_each_game_its_players_and_its_rules(client):
    """``/rules`` is the public games page, linked from home and the new-table form: each
    game's seat range is its rules' (Trefeltromp 2 to 19), each links its rules page."""
    assert 'href="/rules"' in client.get("/").get_data(as_text=True)
    assert 'href="/rules"' in client.get("/new").get_data(as_text=True)
    response = client.get("/rules")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    players = dict(re.findall(r'data-testid="players-(\w+)">([^<]+)<', html))
    assert players == {"tromplemond": "4 players", "clumond": "3 players",
                       "trumplestiltskin": "3 to 5 players", "trefeltromp": "2 to 19 players",
                       "tremp": "4 players"}
    assert "Three players and a pot of chips." in html
    for game in players:
        link = re.search(rf'href="(/rules/{game}[^"]*)" data-testid="rules-{game}"', html)
        assert link and client.get(link.group(1).replace("&amp;", "&")).status_code == 200
    assert 'href="/rules"' in client.get("/rules/clumond").get_data(as_text=True)


def test_the_new_table_form_offers_each_game_its_rules_seat_range(client):
    html = client.get("/new?game=trefeltromp").get_data(as_text=True)
    start = html.index('id="seat-count"')
    seats = re.findall(r'<option value="(\d+)"', html[start:html.index("</select>", start)])
    assert seats == [str(n) for n in range(2, 20)]
    assert "Trefeltromp (2 to 19 players)" in html
