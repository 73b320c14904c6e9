"""Push: a page's event stream brings the answer its pulse poll would get, so a screen has a
change in one message and the server makes no request of it; when the stream cannot make
it (or the change is the page's own tap), it says the version only and the page polls."""

from __future__ import annotations

import re
import threading

import pytest

from companion.live import feed
from companion.live import streams as bell
from tests.web.test_live import HTMX, pulse_of

pytestmark = pytest.mark.db

TABLET, PHONE = "tabletpage01", "phonepage001"


@pytest.fixture(autouse=True)
def quick(monkeypatch):
    """A heartbeat every second; the screens hear a change at once; no watch."""
    monkeypatch.setattr(bell, "HEARTBEAT", 1.0)
    monkeypatch.setattr(bell, "SPREAD", 0.0)
    monkeypatch.setattr(feed, "WATCH_EVERY", 60.0)


def open_stream(device, code, *, page: str | None = None, pulse: str | None = None):
    """A page's stream (with its id and pulse, as app.js opens it) and its messages."""
    query = {} if page is None else {"page": page, "pulse": pulse}
    response = device.get(f"/t/{code}/events", query_string=query, buffered=False)
    said = iter(response.response)
    assert next(said).startswith(b"retry:")
    return response, said


def next_news(said, version: int) -> bytes:
    """The stream's next message that is not a heartbeat of ``version``."""
    while (got := next(said)) == f"data: {version}\n\n".encode():
        pass
    return got


def pushed(message: bytes) -> tuple[str, str]:
    """A pushed message's pulse URL (the one it answers) and its answer."""
    text = message.decode()
    assert text.startswith("event: pulse\n") and text.endswith("\n\n"), text[:80]
    lines = [line.removeprefix("data: ") for line in text[:-2].split("\n")[1:]]
    return lines[0], "\n".join(lines[1:])


TOKEN_STAMP = re.compile(r'(name="csrf_token" value="[^".]+)\.[^"]+"')
FORM_TAP = re.compile(r'(name="tap" value=)"[^"]+"')


def as_polled(answer: str) -> str:
    """An answer with its forms' tokens cut to what identifies the session's secret (a
    token made in another second than the poll's carries another time stamp, and both
    are good), and without the key its forms' taps carry without JavaScript (one drawn for
    each answer)."""
    return FORM_TAP.sub(r'\1""', TOKEN_STAMP.sub(r'\1"', answer))


def polled(device, pulse: str) -> str:
    """What the page's poll of ``pulse`` gets now (its tokens cut as by :func:`as_polled`)."""
    return as_polled(device.get(pulse, headers=HTMX).get_data(as_text=True))


def later(action) -> None:
    """Another screen acts a moment later (its answer read to the end: the bells ring then)."""
    threading.Timer(0.1, action).start()


def table_with_phones(actions):
    code = actions.create_table()
    phones = actions.seat_everyone(code)
    actions.start(code)
    return code, phones


def phone_following(actions, code, phone):
    """The phone's seat page as it follows the table: its pulse, the table's version, and
    the stream the page opens with them (its response and its messages)."""
    shown = pulse_of(phone.get(f"/t/{code}/seat").get_data(as_text=True))
    v = actions.table(code).version
    return shown, v, *open_stream(phone, code, page=PHONE, pulse=shown)


def tablet_ticks_later(actions, code, tablet: str) -> None:
    """The tablet's tap a moment later, from a page showing ``tablet`` (its answer brings
    the tablet's page up to date, not the phone's)."""
    later(lambda: actions.post(f"/t/{code}/games/1/tick", {"round": "1", "step": "deal:0"},
                               headers={**HTMX, "X-Companion-Page": TABLET,
                                        "X-Companion-Pulse": tablet}, buffered=True))


def test_a_phones_stream_brings_the_answer_its_poll_would_get(client, actions):
    code, phones = table_with_phones(actions)
    phone = phones[1]
    tablet = pulse_of(client.get(f"/t/{code}").get_data(as_text=True))
    shown, v, response, said = phone_following(actions, code, phone)
    tablet_ticks_later(actions, code, tablet)
    answers, answer = pushed(next_news(said, v))
    response.close()
    assert answers == shown, "it says what it starts from: the page's own pulse"
    assert 'data-step="deal:0" data-done="yes"' in answer
    assert f'data-version="{v + 1}"' in answer
    assert as_polled(answer) == polled(phone, shown)
    # The page it leaves needs nothing more.
    assert phone.get(pulse_of(answer), headers=HTMX).status_code == 204


def test_a_pages_own_tap_is_not_pushed_back_and_the_next_push_starts_from_its_answer(
        client, actions):
    code, phones = table_with_phones(actions)
    shown = pulse_of(client.get(f"/t/{code}").get_data(as_text=True))
    v = actions.table(code).version
    response, said = open_stream(client, code, page=TABLET, pulse=shown)
    tapped = {}
    later(lambda: tapped.setdefault("answer", actions.post(
        f"/t/{code}/games/1/tick", {"round": "1", "step": "deal:0"}, buffered=True,
        headers={**HTMX, "X-Companion-Page": TABLET, "X-Companion-Pulse": shown})))
    assert next_news(said, v) == f"data: {v + 1}\n\n".encode(), "the tap's answer has it"
    after_tap = pulse_of(tapped["answer"].get_data(as_text=True))
    # A phone ticks the next step: the tablet's stream brings it, from what its tap left.
    later(lambda: actions.post(f"/t/{code}/games/1/tick",
                               {"round": "1", "step": "deal:1", "from": "seat"},
                               client=phones[0], buffered=True,
                               headers={**HTMX, "X-Companion-Page": PHONE}))
    answers, answer = pushed(next_news(said, v + 1))
    response.close()
    assert answers == after_tap
    assert 'data-step="deal:1" data-done="yes"' in answer
    assert as_polled(answer) == polled(client, after_tap)


@pytest.mark.parametrize("case", ["no page", "bad page id", "another table's pulse",
                                  "not a pulse", "a pulse this device may not see"])
def test_a_stream_it_cannot_answer_for_says_the_version_and_the_page_polls(
        client, actions, case):
    code, phones = table_with_phones(actions)
    other = actions.create_table(name="Next table")
    phone = phones[1]
    shown = pulse_of(phone.get(f"/t/{code}/seat").get_data(as_text=True))
    page, pulse = {
        "no page": (None, None),
        "bad page id": ("<script>", shown),
        "another table's pulse": (PHONE, shown.replace(code, other)),
        "not a pulse": (PHONE, f"/t/{code}/seat?v=1"),
        "a pulse this device may not see": (PHONE, f"/t/{code}/pulse?v=1&s=&p="),
    }[case]
    v = actions.table(code).version
    response, said = open_stream(phone, code, page=page, pulse=pulse)
    later(lambda: actions.post(f"/t/{code}/games/1/tick", {"round": "1", "step": "deal:0"},
                               buffered=True))
    assert next_news(said, v) == f"data: {v + 1}\n\n".encode()
    response.close()


def test_a_stream_that_cannot_make_the_answer_goes_on_with_the_version(
        client, actions, monkeypatch):
    from companion.web import regions

    code, phones = table_with_phones(actions)
    phone = phones[1]
    shown, v, response, said = phone_following(actions, code, phone)

    def broken(*args, **kwargs):
        raise RuntimeError("a fault while making the answer")

    monkeypatch.setattr(regions, "render_template", broken)
    later(lambda: actions.post(f"/t/{code}/games/1/tick", {"round": "1", "step": "deal:0"},
                               buffered=True))
    assert next_news(said, v) == f"data: {v + 1}\n\n".encode()
    monkeypatch.undo()
    monkeypatch.setattr(bell, "HEARTBEAT", 1.0)
    monkeypatch.setattr(bell, "SPREAD", 0.0)
    later(lambda: actions.post(f"/t/{code}/games/1/tick", {"round": "1", "step": "deal:1"},
                               buffered=True))
    answers, answer = pushed(next_news(said, v + 1))
    response.close()
    assert answers == shown, "still the page's pulse: the failed answer was never sent"
    assert 'data-step="deal:1" data-done="yes"' in answer



def table_lookups(app) -> list[str]:
    """The statements that look a table up by its code, from now on (a list that grows)."""
    from sqlalchemy import event

    from companion.extensions import db

    seen: list[str] = []

    def note(_conn, _cursor, statement, *_args) -> None:
        if statement.lstrip().startswith("SELECT") and "tables.code =" in statement:
            seen.append(statement)

    with app.app_context():
        event.listen(db.engine, "before_cursor_execute", note)
    return seen


def test_a_tables_streams_look_the_table_up_once_for_one_change(app, client, actions):
    code, phones = table_with_phones(actions)
    screens = [(phone, f"/t/{code}/seat") for phone in phones[:3]] + [(client, f"/t/{code}")]
    pages = [pulse_of(device.get(page).get_data(as_text=True)) for device, page in screens]
    v = actions.table(code).version
    streams = [open_stream(device, code, page=f"screenpage{n}", pulse=shown)
               for n, ((device, _page), shown) in enumerate(zip(screens, pages, strict=True))]
    lookups = table_lookups(app)
    actions.post(f"/t/{code}/games/1/tick", {"round": "1", "step": "deal:0"}, buffered=True)
    del lookups[:]  # the tap's own
    answers = [pushed(next_news(said, v)) for _response, said in streams]
    assert len(lookups) == 1, "the first answer looked the table up; the others shared it"
    for (response, _said), (device, _page), shown, (starts, answer) in zip(
            streams, screens, pages, answers, strict=True):
        response.close()
        assert starts == shown
        assert f'data-version="{v + 1}"' in answer
        assert as_polled(answer) == polled(device, shown), \
            "each screen has its own answer (its seat, its form's token), as its poll would"


def test_a_shared_table_that_lacks_what_an_answer_needs_is_looked_up_again(
        app, client, actions, monkeypatch):
    from companion.extensions import db
    from companion.live.push import SharedTable
    from companion.store import Table

    code, phones = table_with_phones(actions)
    phone = phones[1]
    shown, v, response, said = phone_following(actions, code, phone)
    actions.post(f"/t/{code}/games/1/tick", {"round": "1", "step": "deal:0"}, buffered=True)
    with app.app_context():  # the table without its seats and game, its session closed
        bare = db.session.get(Table, actions.table(code).id)
        db.session.expunge_all()
    monkeypatch.setattr(SharedTable, "at", lambda self, version: bare)  # another answer's
    answers, answer = pushed(next_news(said, v))
    response.close()
    assert answers == shown
    assert 'data-step="deal:0" data-done="yes"' in answer
    assert as_polled(answer) == polled(phone, shown)


def test_a_phone_that_used_up_its_wrong_codes_still_has_its_tables_changes_pushed(
        app, client, actions):
    code, phones = table_with_phones(actions)
    phone = phones[1]
    tablet = pulse_of(client.get(f"/t/{code}").get_data(as_text=True))
    shown, v, response, said = phone_following(actions, code, phone)
    app.config["WRONG_CODE_LIMIT"] = "2/minute"
    for _ in range(2):
        assert phone.get("/join", query_string={"code": "BCDFGHJK"}).status_code == 404
    assert phone.get("/join", query_string={"code": code}).status_code == 429
    tablet_ticks_later(actions, code, tablet)
    answers, answer = pushed(next_news(said, v))
    response.close()
    assert answers == shown and 'data-step="deal:0" data-done="yes"' in answer
