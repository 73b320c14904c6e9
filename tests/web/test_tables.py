"""The scorekeeper: making a table, arranging its seats, starting and ending a game."""

from __future__ import annotations

import re

import pytest

from companion.extensions import db
from companion.store import Table

pytestmark = pytest.mark.db


def count_tables(app) -> int:
    with app.app_context():
        return db.session.query(Table).count()


def new_table_form(**changes):
    form = {"name": "Friday night", "game": "tromplemond", "seats": "4",
            "player": ["Rob", "Sam", "Nick", "Emily"], "dealer": "1"}
    form.update(changes)
    return form


# Making a table ---------------------------------------------------------------------------

def test_the_create_form_has_its_fields(client):
    html = client.get("/new").get_data(as_text=True)
    for hook in ('id="table-name"', 'id="game"', 'id="seat-count"', 'id="phone-names"',
                 'id="dealer"', 'data-testid="create-table"'):
        assert hook in html
    for game in ("Tromplemond", "Clumond", "Trumplestiltskin", "Trefeltromp", "Tremp"):
        assert game in html


@pytest.mark.parametrize(("query", "fields", "seat_choices"), [
    ("", 4, ["4"]),                                      # Tromplemond: exactly four
    ("?game=clumond", 3, ["3"]),                          # Clumond: exactly three
    ("?game=trumplestiltskin&seats=5", 5, ["3", "4", "5"]),
    ("?game=trefeltromp&seats=7", 7, [str(n) for n in range(2, 20)]),
])
def test_the_create_form_asks_for_as_many_seats_as_the_game_takes(client, query, fields,
                                                                   seat_choices):
    html = client.get("/new" + query).get_data(as_text=True)
    assert [i for i in range(1, 9) if f'id="player-{i}"' in html] == list(range(1, fields + 1))
    start = html.index('id="seat-count"')
    seats = html[start:html.index("</select>", start)]
    assert re.findall(r'<option value="(\d+)"', seats) == seat_choices


def test_the_create_form_names_the_first_dealer_by_name(client):
    html = client.get("/new?game=tromplemond&seats=4&player=Rob&player=Sam&player=&player=Emily"
                      "&dealer=2").get_data(as_text=True)
    dealer = html[html.index('id="dealer"'):html.index("</select>", html.index('id="dealer"'))]
    options = re.findall(r'<option value="(\w+)"( selected)?>([^<]*)</option>', dealer)
    assert options == [("random", "", "Draw at random"), ("1", "", "Rob (seat 1)"),
                       ("2", " selected", "Sam (seat 2)"), ("3", "", "Seat 3"),
                       ("4", "", "Emily (seat 4)")]


def test_making_a_table_makes_this_device_its_scorekeeper(app, client, actions):
    code = actions.create_table(players=["Rob", "Sam", "Nick", "Emily"], dealer=2)
    table = actions.table(code)
    assert table.name == "Friday night" and table.game == "tromplemond"
    assert [(s.position, s.name, s.key_hash) for s in table.seats] == [
        (1, "Rob", None), (2, "Sam", None), (3, "Nick", None), (4, "Emily", None)]
    assert table.first_dealer == 2 and not table.dealer_drawn
    assert len(table.code) == 8
    assert len(table.scorekeeper_key_hash) == 64
    assert client.get(f"/t/{code}").status_code == 200
    assert actions.phone().get(f"/t/{code}").status_code == 403


def test_the_key_and_recovery_code_are_stored_only_as_hashes(client, actions):
    code = actions.create_table()
    table = actions.table(code)
    cookie = client.get_cookie("companion").value
    html = client.get(f"/t/{code}").get_data(as_text=True)
    recovery = re.search(r'id="recovery-code">([^<]+)<', html).group(1).replace(" ", "")
    assert recovery not in table.recovery_code_hash
    assert table.recovery_code_hash.startswith(("scrypt:", "pbkdf2:"))
    assert table.scorekeeper_key_hash not in cookie


def test_a_random_first_dealer_is_drawn_on_the_server_and_shown(client, actions):
    code = actions.create_table(dealer="random")
    table = actions.table(code)
    assert table.dealer_drawn and table.first_dealer in (1, 2, 3, 4)
    dealer = table.seat_at(table.first_dealer).name
    html = client.get(f"/t/{code}").get_data(as_text=True)
    assert re.search(rf"<strong>{dealer}</strong> \(seat {table.first_dealer}\) deals first, "
                     r"drawn at random", html)


def test_blank_seats_need_phone_names_ticked(app, actions):
    before = count_tables(app)
    response = actions.post("/new", new_table_form(player=["Rob", "", "Nick", ""]))
    assert response.status_code == 400
    assert "Seat 2 has no name" in response.get_data(as_text=True)
    assert count_tables(app) == before
    code = actions.create_table(players=["Rob", None, "Nick", None], phone_names=True)
    assert [s.name for s in actions.table(code).seats] == ["Rob", None, "Nick", None]


@pytest.mark.parametrize(("changes", "message"), [
    ({"name": "x" * 200}, "at most 40 characters"),
    ({"name": "   "}, "The table&#39;s name is empty"),
    ({"player": ["Rob", "Sam", "Nick", "E" * 200]}, "Seat 4&#39;s name is at most 40 characters"),
    ({"player": ["Rob", "Sam", "rob", "Emily"]}, "Two seats are called rob"),
    ({"game": "poker"}, "Pick one of the games"),
    ({"seats": "5", "player": ["A", "B", "C", "D", "E"]}, "Tromplemond is for 4 players, not 5"),
    ({"game": "clumond"}, "Clumond is for 3 players, not 4"),
    ({"seats": "four"}, "The number of seats must be a whole number"),
    ({"seats": "99"}, "The number of seats must be from 1 to 19"),
    ({"seats": "3", "game": "clumond"}, "Seat 4 has a name, but the table has only 3 seats"),
    ({"dealer": "7"}, "The first dealer&#39;s seat must be from 1 to 4"),
    ({"player": [f"P{i}" for i in range(20)]}, "at most 19 seats"),
    ({"player": ["Rob", "Sam\x00", "Nick", "Emily"]}, "control characters"),
])
def test_bad_table_forms_are_refused_with_a_message_and_change_nothing(app, actions, changes,
                                                                      message):
    before = count_tables(app)
    response = actions.post("/new", new_table_form(**changes))
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert message in html
    assert 'id="new-table"' in html, "the form is shown again"
    assert count_tables(app) == before


def test_the_form_keeps_what_was_typed_after_a_refusal(actions):
    response = actions.post("/new", new_table_form(player=["Rob", "Sam", "Rob", "Emily"]))
    html = response.get_data(as_text=True)
    assert 'id="table-name" name="name" value="Friday night"' in html
    assert 'value="Emily"' in html


def test_names_are_tidied(actions):
    code = actions.create_table(players=["  Rob  ", "Sam   Smith", "Nick", "Emily"])
    assert [s.name for s in actions.table(code).seats][:2] == ["Rob", "Sam Smith"]


def test_trefeltromp_takes_two_to_eight_players(actions):
    code = actions.create_table(game="trefeltromp", players=["Ann", "Bo"])
    assert len(actions.table(code).seats) == 2
    code = actions.create_table(game="trefeltromp", players=[f"P{i}" for i in range(1, 9)])
    assert len(actions.table(code).seats) == 8


def test_creating_a_table_needs_the_csrf_token(app, client):
    client.get("/")
    before = count_tables(app)
    response = client.post("/new", data=new_table_form())
    assert response.status_code == 400
    assert "expired or did not come from this app" in response.get_data(as_text=True)
    assert count_tables(app) == before


def test_a_forged_csrf_token_is_refused(app, client):
    before = count_tables(app)
    response = client.post("/new", data={**new_table_form(), "csrf_token": "forged"})
    assert response.status_code == 400
    assert count_tables(app) == before


def test_player_names_are_escaped_everywhere(client, actions):
    code = actions.create_table(players=["<script>x</script>", "Sam", "Nick", "Emily"],
                                name="<b>bold</b>")
    for page in (f"/t/{code}", f"/j/{code}"):
        html = actions.phone().get(page).get_data(as_text=True) if page.startswith("/j") \
            else client.get(page).get_data(as_text=True)
        assert "<script>x</script>" not in html and "&lt;script&gt;x&lt;/script&gt;" in html
        assert "<b>bold</b>" not in html


# The scorekeeper's screen -------------------------------------------------------------------

def test_the_scorekeeper_screen_shows_qr_join_url_code_and_seats(client, actions):
    code = actions.create_table()
    html = client.get(f"/t/{code}").get_data(as_text=True)
    assert re.search(r'<svg [^>]*id="join-qr"', html)
    assert f'<a id="join-url" href="http://localhost/j/{code}"' in html
    assert f">http://localhost/j/{code}</a>" in html
    assert f'id="join-code" data-code="{code}"' in html
    assert f"{code[:4]} {code[4:]}" in html
    for position, name in enumerate(["Rob", "Sam", "Nick", "Emily"], start=1):
        assert re.search(rf'data-seat="{position}"\s+data-joined="no">\s*'
                         rf'<span class="position">{position}</span>\s*'
                         rf'<span class="name">{name}</span>', html)


def test_the_qr_code_is_inline_svg_with_no_external_references(client, actions):
    code = actions.create_table()
    html = client.get(f"/t/{code}").get_data(as_text=True)
    svg = re.search(r"<svg [^>]*id=\"join-qr\".*?</svg>", html, re.S).group(0)
    assert "<path" in svg
    assert "href" not in svg and "<image" not in svg and "style=" not in svg


def test_a_joined_seat_is_marked_on_the_scorekeeper_screen(client, actions):
    code = actions.create_table()
    actions.claim(code, 3)
    html = client.get(f"/t/{code}").get_data(as_text=True)
    assert re.search(r'data-seat="3"\s+data-joined="yes"', html)
    assert re.search(r'data-seat="1"\s+data-joined="no"', html)


def test_wake_lock_is_on_only_while_a_game_runs(client, actions):
    code = actions.create_table()
    assert "data-wake-lock" not in client.get(f"/t/{code}").get_data(as_text=True)
    actions.start(code)
    assert 'data-wake-lock="on"' in client.get(f"/t/{code}").get_data(as_text=True)
    actions.post(f"/t/{code}/games/1/end")
    assert "data-wake-lock" not in client.get(f"/t/{code}").get_data(as_text=True)


def test_the_scorekeeper_screen_refreshes_itself_without_javascript(client, actions):
    code = actions.create_table()
    html = client.get(f"/t/{code}").get_data(as_text=True)
    assert '<noscript><meta http-equiv="refresh" content="5"></noscript>' in html


# Arranging the seats ----------------------------------------------------------------------

def names(actions, code):
    return [s.name for s in actions.table(code).seats]


def test_seats_move_up_and_down_and_the_first_dealer_moves_along(actions):
    code = actions.create_table(dealer=1)
    assert actions.post(f"/t/{code}/seats/1/move", {"direction": "down"}).status_code == 303
    assert names(actions, code) == ["Sam", "Rob", "Nick", "Emily"]
    assert actions.table(code).first_dealer == 2, "Rob still deals first"
    assert actions.post(f"/t/{code}/seats/4/move", {"direction": "up"}).status_code == 303
    assert names(actions, code) == ["Sam", "Rob", "Emily", "Nick"]


def test_a_moved_seat_keeps_its_phone(actions):
    code = actions.create_table()
    phone, _ = actions.claim(code, 1)
    actions.post(f"/t/{code}/seats/1/move", {"direction": "down"})
    assert "You are Rob (seat 2)" in phone.get(f"/t/{code}/seat").get_data(as_text=True)


@pytest.mark.parametrize(("position", "direction", "status"), [
    (1, "up", 400), (4, "down", 400), (2, "sideways", 400), (9, "up", 400)])
def test_impossible_moves_are_refused(actions, position, direction, status):
    code = actions.create_table()
    response = actions.post(f"/t/{code}/seats/{position}/move", {"direction": direction})
    assert response.status_code == status
    assert names(actions, code) == ["Rob", "Sam", "Nick", "Emily"]


def test_a_non_integer_seat_in_the_url_is_a_404(actions):
    code = actions.create_table()
    assert actions.post(f"/t/{code}/seats/two/move", {"direction": "up"}).status_code == 404


def test_seats_are_fixed_while_a_game_is_played(actions):
    code = actions.create_table()
    actions.start(code)
    response = actions.post(f"/t/{code}/seats/1/move", {"direction": "down"})
    assert response.status_code == 409
    assert "only between games" in response.get_data(as_text=True)
    assert actions.post(f"/t/{code}/seats/1/name", {"name": "Bob"}).status_code == 409
    assert actions.post(f"/t/{code}/dealer", {"dealer": "3"}).status_code == 409
    assert names(actions, code) == ["Rob", "Sam", "Nick", "Emily"]


def test_the_scorekeeper_names_a_seat(actions):
    code = actions.create_table(players=["Rob", None, "Nick", "Emily"], phone_names=True)
    assert actions.keeper.get(f"/t/{code}/seats/2/name").status_code == 200
    assert actions.post(f"/t/{code}/seats/2/name", {"name": " Sam "}).status_code == 303
    assert names(actions, code) == ["Rob", "Sam", "Nick", "Emily"]


@pytest.mark.parametrize(("name", "message"), [
    ("nick", "Seat 3 is already called Nick"), ("y" * 200, "at most 40 characters"),
    ("", "The name is empty")])
def test_bad_seat_names_are_refused(actions, name, message):
    code = actions.create_table()
    response = actions.post(f"/t/{code}/seats/2/name", {"name": name})
    assert response.status_code == 400
    assert message in response.get_data(as_text=True)
    assert names(actions, code) == ["Rob", "Sam", "Nick", "Emily"]


def test_the_first_dealer_can_be_chosen_or_drawn(actions):
    code = actions.create_table(dealer=1)
    assert actions.post(f"/t/{code}/dealer", {"dealer": "3"}).status_code == 303
    table = actions.table(code)
    assert (table.first_dealer, table.dealer_drawn) == (3, False)
    assert actions.post(f"/t/{code}/dealer", {"dealer": "random"}).status_code == 303
    assert actions.table(code).dealer_drawn
    assert actions.post(f"/t/{code}/dealer", {"dealer": "5"}).status_code == 400
    assert actions.post(f"/t/{code}/dealer", {"dealer": "x"}).status_code == 400


def test_the_scorekeeper_frees_a_seat(actions):
    code = actions.create_table()
    phone, _ = actions.claim(code, 2)
    assert actions.post(f"/t/{code}/seats/2/free").status_code == 303
    assert actions.table(code).seat_at(2).key_hash is None
    assert actions.table(code).seat_at(2).name == "Sam"
    html = phone.get(f"/t/{code}/seat").get_data(as_text=True)
    assert 'id="lost-seat"' in html and 'id="you-are"' not in html
    assert actions.post(f"/t/{code}/seats/2/free").status_code == 409


# Only the scorekeeper runs the table ------------------------------------------------------

@pytest.mark.parametrize(("path", "data"), [
    ("/seats/1/move", {"direction": "down"}),
    ("/seats/1/name", {"name": "Bob"}),
    ("/seats/2/free", {}),
    ("/dealer", {"dealer": "2"}),
    ("/start", {}),
])
def test_a_phone_cannot_run_the_table(actions, path, data):
    code = actions.create_table()
    phone, _ = actions.claim(code, 2)
    before = actions.table(code)
    response = actions.post(f"/t/{code}{path}", data, client=phone)
    assert response.status_code == 403
    assert "Only the scorekeeper" in response.get_data(as_text=True)
    after = actions.table(code)
    assert [(s.name, s.key_hash) for s in after.seats] == \
        [(s.name, s.key_hash) for s in before.seats]
    assert after.version == before.version and after.games == []


def test_a_phone_cannot_end_the_game_or_answer_requests(actions):
    code = actions.create_table()
    actions.start(code)
    phone, _ = actions.claim(code, 2)
    assert actions.post(f"/t/{code}/games/1/end", client=phone).status_code == 403
    assert actions.post(f"/t/{code}/requests/1/approve", client=phone).status_code == 403
    assert actions.table(code).games[0].status == "playing"


def test_the_scorekeeper_of_one_table_cannot_run_another(app, actions):
    mine = actions.create_table()
    other_keeper = actions.phone()
    theirs = actions.create_table(client=other_keeper, name="Other table")
    response = actions.post(f"/t/{theirs}/seats/1/move", {"direction": "down"})
    assert response.status_code == 403
    assert actions.keeper.get(f"/t/{mine}").status_code == 200
    assert actions.keeper.get(f"/t/{theirs}").status_code == 403


def test_table_actions_need_the_csrf_token(client, actions):
    code = actions.create_table()
    response = client.post(f"/t/{code}/seats/1/move", data={"direction": "down"})
    assert response.status_code == 400
    assert names(actions, code) == ["Rob", "Sam", "Nick", "Emily"]


# Starting and ending a game ---------------------------------------------------------------

def test_starting_makes_a_game_from_the_seats(client, actions):
    code = actions.create_table(game="tremp", dealer=3)
    response = actions.start(code)
    assert response.status_code == 303
    game = actions.table(code).games[0]
    assert game.record() == {"game": "tremp", "players": ["Rob", "Sam", "Nick", "Emily"],
                             "first_dealer": "Nick", "options": {}, "rounds": []}
    assert game.number == 1 and game.status == "playing"
    html = client.get(f"/t/{code}").get_data(as_text=True)
    assert 'data-testid="score-table"' in html


def test_a_game_needs_every_seat_named(actions):
    code = actions.create_table(players=["Rob", None, "Nick", None], phone_names=True)
    response = actions.start(code)
    assert response.status_code == 409
    assert "Seats 2, 4 have no name yet" in response.get_data(as_text=True)
    assert actions.table(code).games == []


def test_only_one_game_at_a_time_and_another_after_it_ends(actions):
    code = actions.create_table()
    assert actions.start(code).status_code == 303
    assert actions.start(code).status_code == 409
    assert actions.post(f"/t/{code}/games/1/end").status_code == 303
    assert actions.post(f"/t/{code}/games/1/end").status_code == 409
    assert actions.post(f"/t/{code}/games/7/end").status_code == 404
    assert actions.start(code).status_code == 303
    assert [g.number for g in actions.table(code).games] == [1, 2]


def test_the_scorekeeper_screen_of_a_wrong_code_is_a_404(client):
    assert client.get("/t/BCDFGHJK").status_code == 404
    assert client.get("/t/not-a-code").status_code == 404


def test_another_device_on_the_scorekeeper_screen_is_shown_the_way_back(actions):
    code = actions.create_table()
    response = actions.phone().get(f"/t/{code}")
    assert response.status_code == 403
    html = response.get_data(as_text=True)
    assert f'href="/recover?code={code}"' in html and f'href="/j/{code}"' in html


def test_between_games_the_table_chooses_another_game_and_its_seats(actions):
    from tests.web.test_tromplemond import Table as Game

    code = actions.create_table()
    phones = actions.seat_everyone(code)
    actions.start(code)
    assert actions.post(f"/t/{code}/seats/add").status_code == 409  # not while playing
    assert actions.post(f"/t/{code}/next-game", {"game": "clumond"}).status_code == 409
    game = Game(actions, code, phones)
    game.vote_off("Emily")
    for name in ("Rob", "Sam", "Nick"):
        game.quick(name, 20)
    game.confirm()
    actions.post(f"/t/{code}/games/1/end")
    # Clumond next: three seats; Emily sits out.
    assert actions.post(f"/t/{code}/next-game", {"game": "chess"}).status_code == 400
    assert actions.post(f"/t/{code}/next-game", {"game": "clumond"}).status_code == 303
    problems = actions.keeper.get(f"/t/{code}").get_data(as_text=True)
    assert "Clumond is for 3 players, not 4" in problems
    assert actions.post(f"/t/{code}/seats/4/remove").status_code == 303
    table = actions.table(code)
    assert table.game == "clumond" and names(actions, code) == ["Rob", "Sam", "Nick"]
    assert actions.post(f"/t/{code}/start", {}).status_code == 303
    assert actions.table(code).games[-1].record()["players"] == ["Rob", "Sam", "Nick"]
    # Emily's phone no longer holds a seat here; the others keep theirs.
    assert "You no longer hold a seat" in phones[3].get(f"/t/{code}/seat").get_data(as_text=True)
    assert "You are Rob" in phones[0].get(f"/t/{code}/seat").get_data(as_text=True)


def test_a_seat_is_added_or_removed_only_between_games_and_the_dealer_follows(actions):
    code = actions.create_table(dealer=3)
    assert actions.post(f"/t/{code}/seats/2/remove").status_code == 303
    table = actions.table(code)
    assert names(actions, code) == ["Rob", "Nick", "Emily"] and table.first_dealer == 2
    assert actions.post(f"/t/{code}/seats/add").status_code == 303
    assert [s.position for s in actions.table(code).seats] == [1, 2, 3, 4]
    assert actions.post(f"/t/{code}/seats/9/remove").status_code == 400
    phone = actions.phone()
    assert actions.post(f"/t/{code}/seats/add", client=phone).status_code == 403
