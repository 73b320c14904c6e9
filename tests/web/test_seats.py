"""Phones: joining by the link, taking a seat, keeping it, asking for it back."""

from __future__ import annotations

import html
import re

import pytest

from companion.extensions import db
from companion.store import SeatRequest
from tests.conftest import at_once

pytestmark = pytest.mark.db


def seat_keys(actions, code):
    return [s.key_hash for s in actions.table(code).seats]


# The join page ----------------------------------------------------------------------------

def test_the_join_page_shows_the_table_and_its_free_seats_as_buttons(actions):
    code = actions.create_table(name="Friday night")
    actions.claim(code, 2)
    html = actions.phone().get(f"/j/{code}").get_data(as_text=True)
    assert "Friday night" in html and "Tromplemond" in html
    for position in (1, 3, 4):
        assert f'data-testid="claim-{position}"' in html
    assert 'data-testid="claim-2"' not in html
    assert 'data-testid="ask-2"' in html


def test_a_wrong_join_link_is_a_404(actions):
    response = actions.phone().get("/j/BCDFGHJK")
    assert response.status_code == 404
    assert "There is no table with the code BCDFGHJK" in response.get_data(as_text=True)


def test_taking_a_seat_leads_to_the_seat_page(actions):
    code = actions.create_table()
    phone, response = actions.claim(code, 2)
    assert response.status_code == 303
    assert response.headers["Location"].endswith(f"/t/{code}/seat")
    html = phone.get(f"/t/{code}/seat").get_data(as_text=True)
    assert re.search(r'<h1 id="you-are"[^>]*>You are Sam \(seat 2\)</h1>', html)
    assert actions.table(code).seat_at(2).key_hash is not None


def test_the_seat_is_kept_by_the_cookie_across_reloads_and_restarts(app, actions):
    code = actions.create_table()
    phone, _ = actions.claim(code, 2)
    cookie = phone.get_cookie("companion")
    assert cookie.expires is not None, "the cookie outlives a closed browser"
    # A new client with only the cookie (the phone after a restart of its browser).
    again = app.test_client()
    again.set_cookie("companion", cookie.value)
    assert "You are Sam (seat 2)" in again.get(f"/t/{code}/seat").get_data(as_text=True)


def test_a_phone_with_a_seat_is_sent_to_its_seat_page_never_a_second_seat(actions):
    code = actions.create_table()
    phone, _ = actions.claim(code, 2)
    response = phone.get(f"/j/{code}")
    assert response.status_code == 303 and response.headers["Location"].endswith("/seat")
    _, response = actions.claim(code, 3, phone=phone)
    assert response.status_code == 303 and response.headers["Location"].endswith("/seat")
    held = [k for k in seat_keys(actions, code) if k]
    assert len(held) == 1 and actions.table(code).seat_at(3).key_hash is None


def test_a_held_seat_cannot_be_taken_by_another_phone(actions):
    code = actions.create_table()
    _, _ = actions.claim(code, 2)
    before = seat_keys(actions, code)
    _, response = actions.claim(code, 2)
    assert response.status_code == 409
    assert "Sam is taken" in response.get_data(as_text=True)
    assert seat_keys(actions, code) == before


@pytest.mark.parametrize(("seat", "status"), [("9", 400), ("0", 400), ("two", 400), ("", 400),
                                               ("-1", 400), ("1.5", 400)])
def test_unknown_or_forged_seats_are_refused(actions, seat, status):
    code = actions.create_table()
    phone = actions.phone()
    response = actions.post(f"/j/{code}/claim", {"seat": seat}, client=phone)
    assert response.status_code == status
    assert not any(seat_keys(actions, code))


def test_a_missing_seat_field_is_a_400(actions):
    code = actions.create_table()
    phone = actions.phone()
    response = phone.post(f"/j/{code}/claim", data={"csrf_token": actions.token(phone)})
    assert response.status_code == 400


def test_a_name_for_an_already_named_seat_is_refused(actions):
    code = actions.create_table()
    _, response = actions.claim(code, 2, name="Mallory")
    assert response.status_code == 400
    assert [s.name for s in actions.table(code).seats][1] == "Sam"
    assert not any(seat_keys(actions, code))


def test_claiming_needs_the_csrf_token(actions):
    code = actions.create_table()
    phone = actions.phone()
    phone.get(f"/j/{code}")
    assert phone.post(f"/j/{code}/claim", data={"seat": "2"}).status_code == 400
    assert not any(seat_keys(actions, code))


# Phones that type their own names ----------------------------------------------------------

def open_table(actions):
    return actions.create_table(players=["Rob", None, None, None], phone_names=True)


def test_a_phone_types_its_name_into_a_blank_seat(actions):
    code = open_table(actions)
    phone = actions.phone()
    html = phone.get(f"/j/{code}").get_data(as_text=True)
    assert f'href="/j/{code}/seats/2"' in html
    assert phone.get(f"/j/{code}/seats/2").status_code == 200
    _, response = actions.claim(code, 2, phone=phone, name="  Sam ")
    assert response.status_code == 303
    assert "You are Sam (seat 2)" in phone.get(f"/t/{code}/seat").get_data(as_text=True)
    assert actions.table(code).seat_at(2).name == "Sam"


@pytest.mark.parametrize(("name", "message"), [
    ("x" * 200, "Your name is at most 40 characters"), ("", "Your name is empty"),
    ("rob", "already called Rob"), ("ROB", "already called Rob")])
def test_bad_typed_names_are_refused_and_change_nothing(actions, name, message):
    code = open_table(actions)
    _, response = actions.claim(code, 2, name=name)
    assert response.status_code == 400
    assert message in response.get_data(as_text=True)
    seat = actions.table(code).seat_at(2)
    assert seat.name is None and seat.key_hash is None


def test_blank_seats_wait_for_the_scorekeeper_when_phones_may_not_name_them(actions):
    code = actions.create_table(players=["Rob", None, None, None], phone_names=True)
    actions.post("/new", {})  # nothing: only to be sure the keeper has a token
    with actions.app.app_context():
        from companion.store import Table
        table = db.session.query(Table).filter_by(code=code).one()
        table.allow_phone_names = False
        db.session.commit()
    _, response = actions.claim(code, 2, name="Sam")
    assert response.status_code == 400
    assert "the scorekeeper names it" in response.get_data(as_text=True)
    assert actions.table(code).seat_at(2).name is None


# Asking for a seat back -------------------------------------------------------------------

def ask(actions, code, position, phone=None):
    phone = phone or actions.phone()
    return phone, actions.post(f"/j/{code}/ask", {"seat": str(position)}, client=phone)


def pending(actions, code):
    table = actions.table(code)
    with actions.app.app_context():
        return db.session.query(SeatRequest).filter_by(table_id=table.id,
                                                       status="pending").all()


def test_a_phone_that_lost_its_cookie_asks_and_the_scorekeeper_approves(actions):
    code = actions.create_table()
    old_phone, _ = actions.claim(code, 2)
    new_phone, response = ask(actions, code, 2)
    assert response.status_code == 303
    html = new_phone.get(f"/t/{code}/seat").get_data(as_text=True)
    assert 'id="waiting"' in html and "Sam" in html
    # The scorekeeper sees it, with one-tap buttons.
    [asked] = pending(actions, code)
    keeper_html = actions.keeper.get(f"/t/{code}").get_data(as_text=True)
    assert f'data-testid="approve-{asked.id}"' in keeper_html
    assert f'data-testid="deny-{asked.id}"' in keeper_html
    # Nothing is taken over silently: the seat is still the old phone's.
    assert "You are Sam" in old_phone.get(f"/t/{code}/seat").get_data(as_text=True)
    response = actions.post(f"/t/{code}/requests/{asked.id}/approve")
    assert response.status_code == 303
    assert "You are Sam (seat 2)" in new_phone.get(f"/t/{code}/seat").get_data(as_text=True)
    old_html = old_phone.get(f"/t/{code}/seat").get_data(as_text=True)
    assert 'id="lost-seat"' in old_html and "You are Sam" not in old_html
    assert pending(actions, code) == []


def test_the_scorekeeper_denies_a_request(actions):
    code = actions.create_table()
    old_phone, _ = actions.claim(code, 2)
    new_phone, _ = ask(actions, code, 2)
    [asked] = pending(actions, code)
    assert actions.post(f"/t/{code}/requests/{asked.id}/deny").status_code == 303
    assert 'id="denied"' in new_phone.get(f"/t/{code}/seat").get_data(as_text=True)
    assert "You are Sam" in old_phone.get(f"/t/{code}/seat").get_data(as_text=True)
    # Answered once only.
    assert actions.post(f"/t/{code}/requests/{asked.id}/approve").status_code == 409
    assert "You are Sam" in old_phone.get(f"/t/{code}/seat").get_data(as_text=True)


def test_a_request_lapses_when_the_phone_takes_a_free_seat_meanwhile(actions):
    code = actions.create_table()
    actions.claim(code, 2)
    phone, _ = ask(actions, code, 2)
    asked_id = pending(actions, code)[0].id
    actions.claim(code, 3, phone=phone)
    assert pending(actions, code) == []
    response = actions.post(f"/t/{code}/requests/{asked_id}/approve")
    assert response.status_code == 409
    assert len([k for k in seat_keys(actions, code) if k]) == 2


def test_asking_for_a_free_seat_says_to_take_it(actions):
    code = actions.create_table()
    _, response = ask(actions, code, 2)
    assert response.status_code == 409
    assert pending(actions, code) == []


def test_a_request_of_another_table_is_unknown_here(actions):
    code = actions.create_table()
    other = actions.create_table(name="Other")
    actions.claim(other, 1)
    ask(actions, other, 1)
    asked = pending(actions, other)[0]
    response = actions.post(f"/t/{code}/requests/{asked.id}/approve")
    assert response.status_code == 400
    assert pending(actions, other) != []


def test_a_phone_with_a_seat_cannot_ask_for_a_second(actions):
    code = actions.create_table()
    actions.claim(code, 2)
    phone, _ = actions.claim(code, 3)
    _, response = ask(actions, code, 2, phone=phone)
    assert response.status_code == 303 and response.headers["Location"].endswith("/seat")
    assert pending(actions, code) == []


# Leaving, and acting only for one's own seat ------------------------------------------------

def test_a_phone_leaves_its_seat(actions):
    code = actions.create_table()
    phone, _ = actions.claim(code, 2)
    response = actions.post(f"/t/{code}/seats/2/leave", client=phone)
    assert response.status_code == 303
    assert actions.table(code).seat_at(2).key_hash is None


def test_a_phone_cannot_act_for_another_seat(actions):
    code = actions.create_table()
    phone, _ = actions.claim(code, 2)
    actions.claim(code, 3)
    before = seat_keys(actions, code)
    response = actions.post(f"/t/{code}/seats/3/leave", client=phone)
    assert response.status_code == 403
    assert "a phone acts only for its own seat" in response.get_data(as_text=True)
    assert seat_keys(actions, code) == before


def test_a_phone_without_a_seat_cannot_act_for_one(actions):
    code = actions.create_table()
    actions.claim(code, 3)
    response = actions.post(f"/t/{code}/seats/3/leave", client=actions.phone())
    assert response.status_code == 403


def test_a_seat_at_one_table_gives_nothing_at_another(actions):
    code = actions.create_table()
    other = actions.create_table(name="Other")
    phone, _ = actions.claim(code, 2)
    actions.claim(other, 2)
    response = actions.post(f"/t/{other}/seats/2/leave", client=phone)
    assert response.status_code == 403
    assert actions.table(other).seat_at(2).key_hash is not None


def test_the_seat_page_of_a_phone_that_never_joined_goes_to_the_join_page(actions):
    code = actions.create_table()
    response = actions.phone().get(f"/t/{code}/seat")
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/j/{code}")


def test_a_refused_claim_leaves_the_phone_a_newcomer(actions):
    code = actions.create_table()
    actions.claim(code, 2)
    phone, response = actions.claim(code, 2)
    assert response.status_code == 409
    html = phone.get(f"/j/{code}").get_data(as_text=True)
    assert "no longer holds a seat" not in html
    assert phone.get(f"/t/{code}/seat").status_code == 303, "no seat page for a newcomer"


def test_a_phone_that_left_is_a_newcomer_again(actions):
    code = actions.create_table()
    phone, _ = actions.claim(code, 2)
    response = actions.post(f"/t/{code}/seats/2/leave", client=phone)
    html = phone.get(response.headers["Location"]).get_data(as_text=True)
    assert 'data-testid="claim-2"' in html
    assert "no longer holds a seat" not in html


def test_a_phone_whose_seat_was_freed_is_told_so_on_the_join_page(actions):
    code = actions.create_table()
    phone, _ = actions.claim(code, 2)
    actions.post(f"/t/{code}/seats/2/free")
    html = phone.get(f"/j/{code}").get_data(as_text=True)
    assert "This phone no longer holds a seat here" in html


def test_the_cookie_stays_small_however_many_tables_a_device_joins(actions):
    device = actions.phone()
    codes = [actions.create_table(name=f"Table {i}", client=device) for i in range(12)]
    for code in codes:
        actions.claim(code, 1, phone=device)
    assert len(device.get_cookie("companion").value) < 3000
    # The latest tables are remembered; the oldest were let go.
    assert device.get(f"/t/{codes[-1]}").status_code == 200
    assert "You are Rob" in device.get(f"/t/{codes[-1]}/seat").get_data(as_text=True)


def test_a_fresh_phone_tapping_two_seats_in_the_same_instant_gets_one(actions):
    code = actions.create_table()
    phone = actions.phone()
    phone.get(f"/j/{code}")  # the join page: a session (and its CSRF token), no seat key yet
    token = actions.token(phone)
    answers = at_once(lambda position: phone.post(f"/j/{code}/claim", data={
        "csrf_token": token, "seat": str(position)}).status_code, (1, 2))
    held = [seat.position for seat in actions.table(code).seats if seat.held]
    assert len(held) == 1, (answers, held)
    # And the seat is the phone's: it shows "You are …", so no seat is held by a lost key.
    page = phone.get(f"/t/{code}/seat").get_data(as_text=True)
    assert f'data-seat="{held[0]}"' in page and "You are" in page


def test_seat_back_requests_are_limited_per_address_and_per_table(actions):
    code = actions.create_table(game="trefeltromp",
                                players=["A", "B", "C", "D", "E", "F", "G", "H"])
    for position in range(1, 9):
        actions.claim(code, position)
    # One address (a café's Wi-Fi): two requests wait at most; the third is refused.
    same_wifi = []
    for position in (1, 2, 3):
        phone = actions.phone()
        phone.environ_base["REMOTE_ADDR"] = "203.0.113.7"
        same_wifi.append(ask(actions, code, position, phone=phone)[1].status_code)
    assert same_wifi == [303, 303, 429]
    assert len(pending(actions, code)) == 2
    # The table: eight wait at most, whoever asks.
    others = [ask(actions, code, position)[1].status_code for position in (3, 4, 5, 6, 7, 8, 3)]
    assert others[:6] == [303] * 6 and others[6] == 429
    refused = ask(actions, code, 4)[1]
    assert refused.status_code == 429 and "Too many phones are asking" in refused.get_data(
        as_text=True)
    assert len(pending(actions, code)) == 8
    # Answering one makes room again.
    actions.post(f"/t/{code}/requests/{pending(actions, code)[0].id}/deny")
    assert ask(actions, code, 5)[1].status_code == 303


# Once the table has started a game, a free seat is the scorekeeper's to give ----------------

def tablet_page(actions, code) -> str:
    return actions.keeper.get(f"/t/{code}").get_data(as_text=True)


def request_rows(html: str) -> dict[int, str]:
    """The requests the tablet shows, by seat: each row's text, tags taken out."""
    return {int(seat): " ".join(re.sub(r"<[^>]+>", "", row).replace("&#39;", "'").split())
            for seat, row in re.findall(r'<li class="request" data-request="\d+" '
                                        r'data-seat="(\d+)"[^>]*>(.*?)</li>', html, re.S)}


def test_before_the_first_game_a_free_seat_is_taken_with_one_tap(actions):
    code = actions.create_table()
    phone, response = actions.claim(code, 4)
    assert response.status_code == 303
    assert "You are Emily (seat 4)" in phone.get(f"/t/{code}/seat").get_data(as_text=True)
    assert pending(actions, code) == []
    assert request_rows(tablet_page(actions, code)) == {}
    assert 'id="requests-live"' in tablet_page(actions, code), "the region waits, hidden"


def test_mid_game_a_claim_waits_for_the_scorekeeper_who_sees_who_asks_for_what(actions):
    code = actions.create_table()
    for position in (1, 2, 3):
        actions.claim(code, position)
    assert actions.start(code).status_code == 303
    phone, response = actions.claim(code, 4)
    assert response.status_code == 303 and response.headers["Location"].endswith("/seat")
    assert actions.table(code).seat_at(4).key_hash is None, "nobody sits there yet"
    page = phone.get(f"/t/{code}/seat").get_data(as_text=True)
    assert 'id="waiting"' in page and "You asked for <strong>Emily</strong>'s seat" in page
    assert "Ask the scorekeeper to tap <strong>Approve</strong>" in page
    # The tablet: at the top of its page, the seat, the name, and that the tablet plays for
    # Emily (no phone holds her seat).
    tablet = tablet_page(actions, code)
    assert tablet.index('id="requests-live"') < tablet.index('id="round"')
    rows = request_rows(tablet)
    assert list(rows) == [4]
    assert "A phone asks for Emily's seat (seat 4)." in rows[4]
    assert "No phone holds this seat: the tablet plays for Emily now." in rows[4]
    # The join page says the scorekeeper lets phones in now.
    assert "the scorekeeper lets you in" in actions.phone().get(f"/j/{code}").get_data(
        as_text=True)


def test_an_approved_claim_gives_the_seat_and_a_denied_one_does_not(actions):
    code = actions.create_table()
    actions.claim(code, 1)
    actions.start(code)
    sam, _ = actions.claim(code, 2)
    nick, _ = actions.claim(code, 3)
    assert sorted(request_rows(tablet_page(actions, code))) == [2, 3]
    assert actions.approve(code, 2).status_code == 303
    assert "You are Sam (seat 2)" in sam.get(f"/t/{code}/seat").get_data(as_text=True)
    [asked] = pending(actions, code)
    assert actions.post(f"/t/{code}/requests/{asked.id}/deny").status_code == 303
    assert 'id="denied"' in nick.get(f"/t/{code}/seat").get_data(as_text=True)
    assert actions.table(code).seat_at(3).key_hash is None
    assert request_rows(tablet_page(actions, code)) == {}
    # Refused, the phone may pick a seat again (and ask again).
    assert 'data-testid="claim-3"' in nick.get(f"/j/{code}").get_data(as_text=True)


def test_a_claim_after_the_game_ended_still_needs_the_scorekeeper(actions):
    # The evening's ledger names the seats' players: a debt must not change hands by a tap.
    code = actions.create_table()
    actions.start(code)
    assert actions.post(f"/t/{code}/games/1/end").status_code == 303
    phone, response = actions.claim(code, 2)
    assert response.status_code == 303
    assert actions.table(code).seat_at(2).key_hash is None
    assert 'id="waiting"' in phone.get(f"/t/{code}/seat").get_data(as_text=True)
    assert "No phone holds this seat now." in request_rows(tablet_page(actions, code))[2]


def test_a_held_seat_asked_for_mid_game_says_another_phone_holds_it(actions):
    code = actions.create_table()
    actions.claim(code, 2)
    actions.start(code)
    ask(actions, code, 2)
    row = request_rows(tablet_page(actions, code))[2]
    assert "Another phone holds this seat now: approving moves it to the asking phone" in row


def test_mid_game_the_ask_button_on_a_free_seat_asks_too(actions):
    code = actions.create_table()
    actions.start(code)
    phone, response = ask(actions, code, 3)
    assert response.status_code == 303
    assert actions.table(code).seat_at(3).key_hash is None
    assert [r.seat_id for r in pending(actions, code)] == [actions.table(code).seat_at(3).id]


def test_a_phone_may_stop_asking_and_is_a_newcomer_again(actions):
    code = actions.create_table()
    actions.start(code)
    phone, _ = actions.claim(code, 3)
    response = actions.post(f"/j/{code}/withdraw", client=phone)
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/j/{code}")
    assert pending(actions, code) == []
    assert request_rows(tablet_page(actions, code)) == {}
    html = phone.get(f"/j/{code}").get_data(as_text=True)
    assert 'data-testid="claim-3"' in html and "no longer holds a seat" not in html
    # A seated phone's "stop asking" changes nothing.
    seated, _ = actions.claim(code, 1)
    actions.approve(code, 1)
    response = actions.post(f"/j/{code}/withdraw", client=seated)
    assert response.headers["Location"].endswith("/seat")
    assert actions.table(code).seat_at(1).held


# Rob's second browser and Emily's seat (issue 27) --------------------------------------------

def test_rob_s_second_browser_cannot_take_emily_s_seat_mid_vote(actions):
    from tests.web.test_vote import game_url, open_vote, status

    code = actions.create_table()
    phones = [actions.claim(code, position)[0] for position in (1, 2, 3)]
    actions.start(code)
    open_vote(actions, code)
    assert actions.vote(code, phones[0], "Emily").status_code == 303  # Rob's own slip
    second, response = actions.claim(code, 4)  # Rob's other browser, on the join link
    assert response.status_code == 303
    assert actions.table(code).seat_at(4).key_hash is None
    assert actions.vote(code, second, "Emily").status_code == 403, "no second slip for Rob"
    assert status(actions.app, code).voted == {"Rob"}
    # Emily's slip from the tablet's private screen still goes in.
    private = game_url(code, "/sealed/vote/private")
    dropped = actions.post(private, {"chooser": "Emily", "choice": "Nick", "stage": "1"})
    assert dropped.status_code == 303
    assert status(actions.app, code).voted == {"Rob", "Emily"}
    # The tablet still shows the request: the scorekeeper says no.
    assert 4 in request_rows(tablet_page(actions, code))


# One seat per device ------------------------------------------------------------------------

def test_a_device_holding_a_seat_cannot_claim_or_ask_for_another_mid_game(actions):
    code = actions.create_table()
    rob, _ = actions.claim(code, 1)
    actions.start(code)
    for tap in (lambda: actions.claim(code, 4, phone=rob)[1],
                lambda: ask(actions, code, 4, phone=rob)[1],
                lambda: ask(actions, code, 1, phone=rob)[1]):
        response = tap()
        assert response.status_code == 303 and response.headers["Location"].endswith("/seat")
    assert pending(actions, code) == []
    assert [s.position for s in actions.table(code).seats if s.held] == [1]
    assert "You are Rob (seat 1)" in rob.get(f"/t/{code}/seat").get_data(as_text=True)


def test_a_device_asking_for_two_seats_at_once_has_one_request(actions):
    code = actions.create_table()
    actions.start(code)
    phone = actions.phone()
    phone.get(f"/j/{code}")
    token = actions.token(phone)
    at_once(lambda position: phone.post(f"/j/{code}/claim", data={
        "csrf_token": token, "seat": str(position)}).status_code, (2, 3))
    assert len(pending(actions, code)) == 1


def test_an_approval_for_a_device_that_got_a_seat_meanwhile_lapses(actions):
    code = actions.create_table()
    actions.start(code)
    phone, _ = actions.claim(code, 2)
    [first] = pending(actions, code)
    # The same device's earlier request for seat 2 is let go when it asks for seat 3 …
    actions.claim(code, 3, phone=phone)
    assert actions.post(f"/t/{code}/requests/{first.id}/approve").status_code == 409
    # … and once it holds seat 3, no other request can give it a second seat.
    assert actions.approve(code, 3).status_code == 303
    assert [s.position for s in actions.table(code).seats if s.held] == [3]


# Typing a name into a blank seat mid-evening ------------------------------------------------

def blank_seat_after_a_game(actions) -> str:
    """A table that played a game, then added a fifth seat (blank: phones type names)."""
    code = actions.create_table(game="trefeltromp", players=["Rob", "Sam", "Nick", "Emily"],
                                phone_names=True)
    actions.start(code)
    assert actions.post(f"/t/{code}/games/1/end").status_code == 303
    assert actions.post(f"/t/{code}/seats/add").status_code == 303
    assert actions.table(code).seat_at(5).name is None
    return code


def test_a_name_typed_into_a_blank_seat_mid_evening_is_asked_for(actions):
    code = blank_seat_after_a_game(actions)
    phone = actions.phone()
    form = phone.get(f"/j/{code}/seats/5").get_data(as_text=True)
    assert "Ask to sit here" in form
    _, response = actions.claim(code, 5, phone=phone, name="Dave")
    assert response.status_code == 303
    seat = actions.table(code).seat_at(5)
    assert seat.name is None and seat.key_hash is None
    assert "You asked to sit in seat 5 as <strong>Dave</strong>" in phone.get(
        f"/t/{code}/seat").get_data(as_text=True)
    assert "A phone asks to sit in seat 5 as Dave" in request_rows(
        tablet_page(actions, code))[5]
    assert actions.approve(code, 5).status_code == 303
    seat = actions.table(code).seat_at(5)
    assert seat.name == "Dave" and seat.held
    assert "You are Dave (seat 5)" in phone.get(f"/t/{code}/seat").get_data(as_text=True)


def test_a_typed_name_someone_took_meanwhile_is_not_approved(actions):
    code = blank_seat_after_a_game(actions)
    actions.claim(code, 5, name="Dave")
    # Meanwhile a sixth seat is named Dave by the scorekeeper.
    actions.post(f"/t/{code}/seats/add")
    assert actions.post(f"/t/{code}/seats/6/name", {"name": "dave"}).status_code == 303
    response = actions.approve(code, 5)
    assert response.status_code == 409
    assert "already called dave" in response.get_data(as_text=True)
    seat = actions.table(code).seat_at(5)
    assert seat.name is None and seat.key_hash is None


def test_bad_names_typed_mid_evening_are_refused_before_anyone_is_asked(actions):
    code = blank_seat_after_a_game(actions)
    _, response = actions.claim(code, 5, name="rob")
    assert response.status_code == 400 and "already called Rob" in response.get_data(
        as_text=True)
    assert pending(actions, code) == []


# The limits on waiting requests hold for free seats too -------------------------------------

def test_free_seat_requests_count_against_the_same_limits(actions):
    code = actions.create_table()
    actions.start(code)
    answers = []
    for position in (1, 2, 3):
        phone = actions.phone()
        phone.environ_base["REMOTE_ADDR"] = "203.0.113.9"
        answers.append(actions.claim(code, position, phone=phone)[1].status_code)
    assert answers == [303, 303, 429]
    assert len(pending(actions, code)) == 2


def test_a_phone_asking_for_its_seat_back_mid_game_is_at_the_top_of_the_tablet(actions):
    """The Approve/Deny of a seat-back request comes before the round, the scores and the
    seats on the tablet's page, and in the tablet's next pulse answer."""
    code = actions.create_table()
    actions.seat_everyone(code)
    actions.start(code)
    stamp = re.search(r'id="pulse"[^>]*hx-get="([^"]+)"',
                      actions.keeper.get(f"/t/{code}").get_data(as_text=True)).group(1)
    phone = actions.phone()
    assert actions.post(f"/j/{code}/ask", {"seat": "2"}, client=phone).status_code == 303
    page = actions.keeper.get(f"/t/{code}").get_data(as_text=True)
    requests = page.index('data-testid="requests"')
    approve = page.index('data-testid="approve-')
    assert requests < approve < page.index('id="round"') < page.index('id="keeper-live"')
    assert "Sam" in page[requests:approve]
    pulse = actions.keeper.get(html.unescape(stamp), headers={"HX-Request": "true"})
    assert 'data-testid="approve-' in pulse.get_data(as_text=True)


def test_the_join_page_names_the_game_to_be_played_not_the_last_one(actions):
    code = actions.create_table()
    actions.seat_everyone(code)
    actions.start(code)
    hint = re.compile(r'data-testid="join-hint"><span id="join-game"[^>]*>([^<]+)</span> &middot;')
    assert hint.search(actions.phone().get(f"/j/{code}").get_data(as_text=True)).group(1) == \
        "Tromplemond"
    assert actions.post(f"/t/{code}/games/1/end", {"game": "tremp"}).status_code == 303
    page = actions.phone().get(f"/j/{code}").get_data(as_text=True)
    assert hint.search(page).group(1) == "Tremp"
