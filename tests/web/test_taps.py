"""A tap is applied once: a tap sent again with its key is answered from the first.

The phone gives every tap a key (``static/app/taps-page.js``, header ``X-Companion-Tap``) and
sends the same key when it sends the tap again; a plain form carries a key drawn with
the page. The server applies a key once per session (``companion.web.taps``). These
tests use the checklist's old toggle form (``step=``, which a page drawn before the
toggles said their state still sends) where a tap applied twice would show: ticked
twice, a step is unticked again.
"""

from __future__ import annotations

import re
import secrets

import pytest
from sqlalchemy import func, select

from companion.door import FrontDoor
from companion.extensions import db
from companion.store.taps import Tap, prune
from companion.web.taps import TAP_HEADER

from ..conftest import at_once
from .test_trefeltromp import start as start_trefeltromp

pytestmark = pytest.mark.db

HTMX = {"HX-Request": "true"}
STEP = "deck:0"


def key() -> str:
    """A tap's key, as taps-page.js makes one: 128 random bits."""
    return secrets.token_hex(16)


def playing(actions) -> str:
    """A Tromplemond table with four seated phones, its game started; its code."""
    code = actions.create_table()
    actions.seat_everyone(code)
    assert actions.start(code).status_code == 303
    return code


def tick(actions, code: str, sent: str | None, *, client=None, htmx: bool = True, **form):
    """Turn the deck step over (the old toggle form; or ``tick=`` / ``untick=`` it) with the
    key ``sent`` (None: no key header; a form field ``tap`` may carry one)."""
    headers = dict(HTMX if htmx else {})
    if sent is not None:
        headers[TAP_HEADER] = sent
    said = form if {"tick", "untick"} & set(form) else {"step": STEP, **form}
    return actions.post(f"/t/{code}/games/1/tick", {"round": "1", **said},
                        client=client, headers=headers)


def ticked(actions, code: str) -> bool:
    with actions.app.app_context():
        from companion.store import queries
        from companion.store import rounds as round_store
        table = db.session.scalar(queries.table_by_code(code))
        return STEP in round_store.current_draft(table.current_game).ticks


def kept(app) -> int:
    """How many applied taps' keys the database holds."""
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(Tap))


def done_in(answer) -> str:
    """Whether an answer's round region shows the deck step ticked ("yes"/"no")."""
    found = re.search(r'data-step="deck:0" data-done="(yes|no)"', answer.get_data(as_text=True))
    assert found, answer.get_data(as_text=True)[:300]
    return found.group(1)


def as_several_servers(app, monkeypatch) -> None:
    """Let requests in without the server's gate, as several server processes (each with
    its own gate) would: copies of a tap then really meet in the database."""
    assert isinstance(app.wsgi_app, FrontDoor)
    monkeypatch.setattr(app.wsgi_app, "gate", None)


def same_device(app, client):
    """Another connection of the same device: a client holding the same cookie."""
    other = app.test_client()
    other.set_cookie("companion", client.get_cookie("companion").value)
    return other


def test_an_htmx_tap_sent_again_is_applied_once_and_answered_with_its_region_now(
        app, actions):
    code = playing(actions)
    before = actions.table(code).version
    tap = key()

    first = tick(actions, code, tap)
    assert first.status_code == 200 and done_in(first) == "yes"
    again = tick(actions, code, tap)  # its answer was lost: the phone sends it again

    assert again.status_code == 200
    assert done_in(again) == "yes", "the repeat shows the tap's effect, as the first did"
    assert ticked(actions, code) and actions.table(code).version == before + 1
    assert f'data-version="{before + 1}"' in again.get_data(as_text=True)
    assert kept(app) == 1
    # A new tap (a new key) is a new tap: the toggle turns the step over again.
    assert done_in(tick(actions, code, key())) == "no"
    assert not ticked(actions, code) and actions.table(code).version == before + 2


def test_a_form_tap_sent_again_is_answered_with_the_first_redirect(app, actions):
    code = playing(actions)
    tap = key()
    first = tick(actions, code, tap, htmx=False)
    again = tick(actions, code, tap, htmx=False)
    assert first.status_code == again.status_code == 303
    assert again.headers["Location"] == first.headers["Location"] == f"/t/{code}#round"
    assert ticked(actions, code)


def test_a_plain_form_carries_the_key_of_the_page_it_was_drawn_on(app, actions, client):
    code = playing(actions)
    page = client.get(f"/t/{code}").get_data(as_text=True)
    drawn = re.search(r'name="tap" value="([^"]+)"', page).group(1)
    # Tapped twice before the page went (no JavaScript): one tap, applied once.
    for _ in range(2):
        answer = tick(actions, code, None, htmx=False, tap=drawn)
        assert answer.status_code == 303
    assert ticked(actions, code)
    # The page drawn again carries a new key: the next tap is a new one.
    again = client.get(f"/t/{code}").get_data(as_text=True)
    assert re.search(r'name="tap" value="([^"]+)"', again).group(1) != drawn


def test_the_same_key_with_another_request_is_another_tap(app, actions):
    code = playing(actions)
    tap = key()
    tick(actions, code, tap, tick=STEP)  # the new form: "tick it" (step= is the old one)
    answer = tick(actions, code, tap, untick=STEP)
    assert answer.status_code == 200 and done_in(answer) == "no"


def test_a_key_from_another_session_does_not_match(app, actions):
    code = playing(actions)
    rob, sam = actions.phone(), actions.phone()
    # Two phones that hold a seat each (the table's own phones hold the four seats: free two)
    for position, phone in ((1, rob), (2, sam)):
        assert actions.post(f"/t/{code}/seats/{position}/free").status_code == 303
        assert actions.claim(code, position, phone=phone)[1].status_code == 303
        assert actions.approve(code, position).status_code == 303  # mid-game: the tablet lets it in
    before = actions.table(code).version
    tap = key()
    assert done_in(tick(actions, code, tap, client=rob)) == "yes"
    # Sam's phone sends Rob's key (a replay, or a chance clash): it is Sam's own tap.
    assert done_in(tick(actions, code, tap, client=sam)) == "no"
    assert actions.table(code).version == before + 2
    assert kept(app) == 2


def test_copies_of_a_tap_racing_each_other_apply_once(app, actions, monkeypatch):
    code = playing(actions)
    as_several_servers(app, monkeypatch)
    before = actions.table(code).version
    token = actions.token(actions.keeper)
    copies = [same_device(app, actions.keeper) for _ in range(4)]
    tap = key()

    def send(index: int) -> int:
        answer = copies[index].post(
            f"/t/{code}/games/1/tick", data={"csrf_token": token, "round": "1", "step": STEP},
            headers={**HTMX, TAP_HEADER: tap})
        assert done_in(answer) == "yes", index
        return answer.status_code

    assert set(at_once(send, range(4)).values()) == {200}
    assert ticked(actions, code) and actions.table(code).version == before + 1
    assert kept(app) == 1


def test_copies_of_a_bet_racing_apply_once_and_the_late_one_is_not_refused(app, actions,
                                                                            monkeypatch):
    # The late copy finds the turn moved on: refused by itself, it would say "not your turn"
    # after the bet went in. It is the first one's repeat, and is answered as such.
    game = start_trefeltromp(actions)
    game.deal()
    first = game.order()[0]
    phone = game.phones[first]
    before = game.view()
    form = {"round": str(before.round_number), "moment": str(before.at), "from": "seat",
            "verb": "bet", "amount": "10", "csrf_token": actions.token(phone)}
    copies = [same_device(app, phone) for _ in range(3)]
    tap = key()
    as_several_servers(app, monkeypatch)

    def send(index: int) -> int:
        return copies[index].post(game.url(f"seats/{game.seat(first)}/act"), data=form,
                                  headers={**HTMX, TAP_HEADER: tap}).status_code

    assert set(at_once(send, range(3)).values()) == {200}
    after = game.view()
    assert after.at == before.at + 1, "one bet"
    assert after.hand.to_act != first


def test_a_refused_tap_keeps_no_key_and_its_retry_is_judged_afresh(app, actions):
    code = playing(actions)
    rob = actions.phone()  # Rob's new phone: his old one holds seat 1
    assert actions.post(f"/j/{code}/ask", {"seat": "1"}, client=rob).status_code == 303
    tap = key()
    refused = tick(actions, code, tap, client=rob)  # no seat yet: refused
    assert refused.status_code == 403 and kept(app) == 0 and not ticked(actions, code)

    # The scorekeeper gives him the seat; the same tap sent again is applied now.
    with app.app_context():
        from companion.store import queries
        request_id = db.session.scalars(queries.pending_requests(
            actions.table(code).id)).one().id
    assert actions.post(f"/t/{code}/requests/{request_id}/approve").status_code == 303
    assert done_in(tick(actions, code, tap, client=rob)) == "yes"
    assert ticked(actions, code) and kept(app) == 1


def test_a_tap_that_changes_nothing_keeps_no_key(app, actions):
    code = playing(actions)
    tap = key()
    assert done_in(tick(actions, code, key(), tick=STEP)) == "yes"
    # Ticking a ticked step changes nothing: no key is kept, nothing is bumped.
    version = actions.table(code).version
    assert done_in(tick(actions, code, tap, tick=STEP)) == "yes"
    assert kept(app) == 1 and actions.table(code).version == version


def test_a_tick_sent_twice_stays_ticked_even_without_a_key(app, actions):
    code = playing(actions)
    page = actions.keeper.get(f"/t/{code}").get_data(as_text=True)
    assert f'name="tick" value="{STEP}"' in page, "the button says the state it wants"
    for _ in range(2):
        assert done_in(tick(actions, code, None, tick=STEP)) == "yes"
    assert f'name="untick" value="{STEP}"' in actions.keeper.get(f"/t/{code}").get_data(
        as_text=True)
    for _ in range(2):
        assert done_in(tick(actions, code, None, untick=STEP)) == "no"
    assert not ticked(actions, code)


def test_a_key_the_app_does_not_make_is_refused_and_changes_nothing(app, actions):
    code = playing(actions)
    version = actions.table(code).version
    for bad in ("short", "x" * 65, "not a key at all!"):
        answer = tick(actions, code, bad)
        assert answer.status_code == 400, bad
        assert "key" in answer.get_data(as_text=True)
    assert actions.table(code).version == version and kept(app) == 0


def test_a_claim_sent_again_after_its_answer_was_lost_gives_the_phone_its_seat(app, actions):
    code = actions.create_table()
    phone = actions.phone()
    tap = key()
    token = actions.token(phone)
    lost = same_device(app, phone)  # the first answer (and its cookie) never came back
    first = lost.post(f"/j/{code}/claim", data={"csrf_token": token, "seat": "2"},
                      headers={TAP_HEADER: tap})
    assert first.status_code == 303
    again = phone.post(f"/j/{code}/claim", data={"csrf_token": token, "seat": "2"},
                       headers={TAP_HEADER: tap})
    assert again.status_code == 303 and again.headers["Location"] == first.headers["Location"]
    page = phone.get(f"/t/{code}/seat").get_data(as_text=True)
    assert "You are Sam (seat 2)" in page


def test_keys_older_than_a_day_are_pruned(app, actions):
    from datetime import UTC, datetime, timedelta
    code = playing(actions)
    tick(actions, code, key())
    with app.app_context():
        assert prune(datetime.now(UTC)) == 0
        assert prune(datetime.now(UTC) + timedelta(days=1, minutes=1)) == 1
        db.session.commit()
    assert kept(app) == 0
