"""The secret vote on the phones and the tablet: slips, reveal, ties, card cut, proxy voting."""

from __future__ import annotations

import itertools
import re
import threading

import pytest

from companion.extensions import db, limiter
from companion.store import ALPHABET, queries
from companion.store.ballots import VoteStatus, vote_status

pytestmark = pytest.mark.db

HTMX = {"HX-Request": "true"}
PLAYERS = ("Rob", "Sam", "Nick", "Emily")


def at(code: str, tail: str = "", round_number: int = 1, number: int = 1) -> str:
    return f"/t/{code}/games/{number}/rounds/{round_number}{tail}"


def status(app, code: str, round_number: int = 1) -> VoteStatus:
    with app.app_context():
        table = db.session.scalar(queries.table_by_code(code))
        return vote_status(table.current_game, round_number - 1)


def version(actions, code: str) -> int:
    return actions.table(code).version


def text_of(response) -> str:
    return response.get_data(as_text=True)


def open_vote(actions, code: str, round_number: int = 1) -> None:
    response = actions.post(at(code, "/vote/open", round_number))
    assert response.status_code == 303, text_of(response)


@pytest.fixture
def table(actions):
    """A Tromplemond game of four with a phone in every seat: (code, {name: phone})."""
    code = actions.create_table()
    assert actions.start(code).status_code == 303
    return code, dict(zip(PLAYERS, actions.seat_everyone(code), strict=True))


def vote_all(actions, code, phones, slips, **kwargs):
    for voter, target in slips.items():
        response = actions.vote(code, phones[voter], target, **kwargs)
        assert response.status_code == 303, text_of(response)


# the slip ---------------------------------------------------------------------------------

def test_a_phone_gets_its_slip_when_the_scorekeeper_opens_the_vote(actions, table):
    code, phones = table
    page = text_of(phones["Sam"].get(at(code, "/vote")))
    assert 'data-step="closed"' in page and "The vote opens after" in page
    open_vote(actions, code)
    page = text_of(phones["Sam"].get(at(code, "/vote")))
    assert 'data-step="choose"' in page
    buttons = re.findall(r'name="target" value="([^"]+)"', page)
    assert buttons == ["Rob", "Nick", "Emily"], "the three opponents, never yourself"
    assert "0 of 4" in page


def test_the_first_tap_shows_the_choice_back_and_writes_nothing(actions, table):
    code, phones = table
    open_vote(actions, code)
    before = version(actions, code)
    response = actions.vote(code, phones["Rob"], "Emily", confirm=False, htmx=True)
    assert response.status_code == 200
    html = text_of(response)
    assert 'data-step="confirm"' in html and "Your slip names <strong" in html
    assert 'name="confirm" value="yes"' in html and "<html" not in html
    assert "hx-trigger" not in html, "the confirm step waits for the tap: it does not poll"
    assert version(actions, code) == before
    assert status(actions.app, code).slips_in == 0


def test_the_second_tap_drops_the_slip_and_the_phone_says_so(actions, table):
    code, phones = table
    open_vote(actions, code)
    response = actions.vote(code, phones["Rob"], "Emily")
    assert response.status_code == 303
    assert response.headers["Location"] == at(code, "/vote")
    page = text_of(phones["Rob"].get(at(code, "/vote")))
    assert 'data-step="in"' in page and "Your slip is in" in page and "1 of 4" in page
    assert "Emily</strong>" not in page, "the phone does not repeat whom it named"
    partial = actions.vote(code, phones["Sam"], "Emily", htmx=True)
    assert partial.status_code == 200 and "<html" not in text_of(partial)
    assert "Your slip is in" in text_of(partial) and "2 of 4" in text_of(partial)
    assert status(actions.app, code).slips_in == 2


def test_the_tablet_shows_slips_in_and_which_seats_voted_never_for_whom(client, actions,
                                                                        table):
    code, phones = table
    open_vote(actions, code)
    vote_all(actions, code, phones, {"Sam": "Emily", "Nick": "Rob"})
    panel = text_of(client.get(at(code, "/vote/panel"), headers=HTMX))
    assert "2 of 4" in panel
    assert re.findall(r'data-voted="(yes|no)">(\w+)<', panel) == [
        ("no", "Rob"), ("yes", "Sam"), ("yes", "Nick"), ("no", "Emily")]
    assert 'data-count="' not in panel and "vote-counts" not in panel


# outcomes ---------------------------------------------------------------------------------

def test_three_one_is_revealed_on_every_screen_at_once(client, actions, table):
    code, phones = table
    open_vote(actions, code)
    vote_all(actions, code, phones, {"Rob": "Emily", "Sam": "Emily", "Nick": "Emily"})
    before = version(actions, code)
    actions.vote(code, phones["Emily"], "Nick")
    # One version bump: every live region polling ?v=<before> gets the reveal on its next tick.
    assert version(actions, code) == before + 1
    screens = [client.get(f"{at(code, '/vote/panel')}?v={before}", headers=HTMX)]
    screens += [p.get(f"{at(code, '/vote/slip')}?v={before}", headers=HTMX)
                for p in phones.values()]
    for screen in screens:
        html = text_of(screen)
        assert screen.status_code == 200
        assert re.findall(r'<th scope="row">(\w+)</th><td data-count="(\d)">', html) == [
            ("Rob", "0"), ("Sam", "0"), ("Nick", "1"), ("Emily", "3")]
        assert "<strong>Emily</strong> is off (voted off)" in html
    assert status(actions.app, code).settled_off == "Emily"


def test_two_two_gives_tie_break_slips_to_the_two_with_no_votes_only(client, actions, table):
    code, phones = table
    open_vote(actions, code)
    vote_all(actions, code, phones,
             {"Rob": "Sam", "Sam": "Nick", "Nick": "Sam", "Emily": "Nick"})
    for decider in ("Rob", "Emily"):
        page = text_of(phones[decider].get(at(code, "/vote")))
        assert 'data-step="choose"' in page and "Your tie-break slip" in page
        assert re.findall(r'name="target" value="([^"]+)"', page) == ["Sam", "Nick"]
        assert 'name="stage" value="2"' in page
    for other in ("Sam", "Nick"):
        page = text_of(phones[other].get(at(code, "/vote")))
        assert 'data-step="deciding"' in page and "Rob and Emily are deciding" in page
        assert 'name="target"' not in page
    refused = actions.tie_break(code, phones["Sam"], "Nick")
    assert refused.status_code == 403 and "only Rob and Emily decide" in text_of(refused)
    panel = text_of(client.get(at(code, "/vote/panel"), headers=HTMX))
    assert "2–2 between Sam and Nick; Rob and Emily decide" in panel
    assert "0 of 2" in panel
    vote_all(actions, code, phones, {"Rob": "Nick", "Emily": "Nick"})
    assert (status(actions.app, code).settled_off, status(actions.app, code).how) == (
        "Nick", "tie-break")
    panel = text_of(client.get(at(code, "/vote/panel"), headers=HTMX))
    assert "<strong>Nick</strong> is off (tie-break)" in panel


def test_a_disagreeing_tie_break_gives_the_deciders_new_slips(actions, table):
    code, phones = table
    open_vote(actions, code)
    vote_all(actions, code, phones,
             {"Rob": "Sam", "Sam": "Nick", "Nick": "Sam", "Emily": "Nick"})
    vote_all(actions, code, phones, {"Rob": "Sam", "Emily": "Nick"})
    page = text_of(phones["Rob"].get(at(code, "/vote")))
    assert 'data-step="choose"' in page and 'name="stage" value="3"' in page
    assert "Rob and Emily disagreed, new slips" in page
    assert not status(actions.app, code).settled


def test_one_one_one_one_gives_everyone_a_new_slip(actions, table):
    code, phones = table
    open_vote(actions, code)
    vote_all(actions, code, phones,
             {"Rob": "Sam", "Sam": "Nick", "Nick": "Emily", "Emily": "Rob"})
    for phone in phones.values():
        page = text_of(phone.get(at(code, "/vote")))
        assert 'data-step="choose"' in page and "The vote again" in page
        assert len(re.findall(r'name="target"', page)) == 3
        assert "1–1–1–1, everyone votes again" in page
    vote_all(actions, code, phones,
             {"Rob": "Nick", "Sam": "Nick", "Nick": "Emily", "Emily": "Nick"}, stage=2)
    assert status(actions.app, code).settled_off == "Nick"


# card cut ---------------------------------------------------------------------------------

def test_the_scorekeeper_settles_a_tie_by_a_card_cut(client, actions, table):
    code, phones = table
    open_vote(actions, code)
    vote_all(actions, code, phones,
             {"Rob": "Sam", "Sam": "Nick", "Nick": "Sam", "Emily": "Nick"})
    panel = text_of(client.get(at(code, "/vote/panel"), headers=HTMX))
    assert re.findall(r'name="name" value="(\w+)"', panel) == ["Sam", "Nick"]
    response = actions.post(at(code, "/cut"), {"name": "Sam"}, headers=HTMX)
    assert response.status_code == 200
    assert "<strong>Sam</strong> is off (card cut)" in text_of(response)
    assert (status(actions.app, code).settled_off, status(actions.app, code).how) == (
        "Sam", "cut")
    page = text_of(phones["Rob"].get(at(code, "/vote")))
    assert 'data-step="settled"' in page and 'name="target"' not in page


def test_a_card_cut_without_htmx_goes_back_to_the_page_it_came_from(actions, table):
    code, phones = table
    open_vote(actions, code)
    vote_all(actions, code, phones,
             {"Rob": "Sam", "Sam": "Nick", "Nick": "Emily", "Emily": "Rob"})
    response = actions.post(at(code, "/cut"), {"name": "Emily"},
                            headers={"Referer": f"http://localhost{at(code, '/vote/keeper')}"})
    assert response.status_code == 303
    assert response.headers["Location"] == at(code, "/vote/keeper")
    assert status(actions.app, code).settled_off == "Emily"


@pytest.mark.parametrize(("slips", "name", "code_", "message"), [
    ({}, "Sam", 409, "there is no tie yet"),
    ({"Rob": "Sam", "Sam": "Nick", "Nick": "Sam", "Emily": "Nick"}, "Rob", 400,
     "between Sam and Nick"),
    ({"Rob": "Sam", "Sam": "Nick", "Nick": "Sam", "Emily": "Nick"}, "", 400,
     "between Sam and Nick"),
    ({"Rob": "Emily", "Sam": "Emily", "Nick": "Emily", "Emily": "Nick"}, "Nick", 409,
     "Emily is off"),
])
def test_a_bad_card_cut_is_refused_and_changes_nothing(actions, table, slips, name, code_,
                                                      message):
    code, phones = table
    open_vote(actions, code)
    vote_all(actions, code, phones, slips)
    before = (version(actions, code), status(actions.app, code))
    for headers in ({}, HTMX):
        response = actions.post(at(code, "/cut"), {"name": name}, headers=headers)
        assert response.status_code == code_
        assert message in text_of(response)
    assert (version(actions, code), status(actions.app, code)) == before


# refusals ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("voter", "target", "extra", "code_", "message"), [
    ("Rob", "Rob", {}, 400, "cannot vote for yourself"),
    ("Rob", "Zed", {}, 400, "Name one of Sam, Nick and Emily"),
    ("Rob", "", {}, 400, "Name one of"),
    ("Sam", "Rob", {}, 409, "Sam has already voted"),
    ("Rob", "Sam", {"seat": 2}, 403, "not seat 2"),
    ("Rob", "Sam", {"seat": 9}, 403, "not seat 9"),
    ("Rob", "Sam", {"stage": 2}, 409, "earlier vote"),
])
@pytest.mark.parametrize("confirm", [True, False])
def test_bad_slips_are_refused_with_a_message_and_change_nothing(actions, table, voter,
                                                                 target, extra, code_,
                                                                 message, confirm):
    code, phones = table
    open_vote(actions, code)
    actions.vote(code, phones["Sam"], "Emily")
    before = (version(actions, code), status(actions.app, code))
    for htmx in (False, True):
        response = actions.vote(code, phones[voter], target, confirm=confirm, htmx=htmx,
                                **extra)
        assert response.status_code == code_, text_of(response)
        assert message in text_of(response)
    assert (version(actions, code), status(actions.app, code)) == before


def test_a_device_without_a_seat_cannot_vote(actions, table):
    code, _ = table
    open_vote(actions, code)
    stranger = actions.phone()
    response = actions.vote(code, stranger, "Rob")
    assert response.status_code == 403 and "holds no seat" in text_of(response)
    assert stranger.get(at(code, "/vote")).status_code == 403
    # The scorekeeper's tablet holds no seat either: it votes only through the proxy screen.
    assert actions.vote(code, actions.keeper, "Rob").status_code == 403
    assert status(actions.app, code).slips_in == 0


def test_no_slip_before_the_vote_opens_or_after_the_game_ends(actions, table):
    code, phones = table
    response = actions.vote(code, phones["Rob"], "Sam")
    assert response.status_code == 409 and "not open yet" in text_of(response)
    open_vote(actions, code)
    assert actions.post(f"/t/{code}/games/1/end").status_code == 303
    response = actions.vote(code, phones["Rob"], "Sam")
    assert response.status_code == 409 and "Game 1 is over" in text_of(response)
    assert actions.post(at(code, "/vote/open")).status_code == 409
    assert status(actions.app, code).slips_in == 0


@pytest.mark.parametrize("where", [
    "/t/{code}/games/1/rounds/2/vote", "/t/{code}/games/1/rounds/0/vote",
    "/t/{code}/games/7/rounds/1/vote", "/t/BCDFGHJK/games/1/rounds/1/vote",
])
def test_a_round_or_game_that_does_not_exist_is_a_404(actions, table, where):
    code, phones = table
    open_vote(actions, code)
    url = where.format(code=code)
    assert phones["Rob"].get(url).status_code == 404
    response = actions.post(url, {"target": "Sam", "confirm": "yes"}, client=phones["Rob"])
    assert response.status_code == 404
    assert status(actions.app, code).slips_in == 0


def test_only_tromplemond_has_a_vote(actions):
    code = actions.create_table(game="tremp")
    actions.start(code)
    actions.seat_everyone(code)
    assert actions.post(at(code, "/vote/open")).status_code == 404


def test_opening_the_vote_twice_changes_nothing(actions, table):
    code, _ = table
    open_vote(actions, code)
    before = version(actions, code)
    open_vote(actions, code)
    assert version(actions, code) == before


# permissions ------------------------------------------------------------------------------

def test_only_the_scorekeeper_opens_cuts_watches_the_panel_or_proxies(actions, table):
    code, phones = table
    open_vote(actions, code)
    vote_all(actions, code, phones,
             {"Rob": "Sam", "Sam": "Nick", "Nick": "Emily", "Emily": "Rob"})
    before = (version(actions, code), status(actions.app, code))
    phone = phones["Rob"]
    for response in (
        actions.post(at(code, "/vote/open"), client=phone),
        actions.post(at(code, "/cut"), {"name": "Rob"}, client=phone),
        phone.get(at(code, "/vote/panel"), headers=HTMX),
        phone.get(at(code, "/vote/keeper")),
        phone.get(at(code, "/proxy")),
        actions.post(at(code, "/proxy"), {"voter": "Rob", "target": "Sam", "confirm": "yes"},
                     client=phone),
    ):
        assert response.status_code == 403, response.request.path
    assert (version(actions, code), status(actions.app, code)) == before


# proxy voting -----------------------------------------------------------------------------

@pytest.fixture
def no_phone_for_emily(actions):
    """Rob, Sam and Nick have phones; Emily has none and votes on the tablet."""
    code = actions.create_table()
    actions.start(code)
    phones = {name: actions.claim(code, position)[0]
              for position, name in enumerate(PLAYERS[:3], start=1)}
    return code, phones


def test_a_player_without_a_phone_votes_on_the_tablet_privately(client, actions,
                                                                no_phone_for_emily):
    code, phones = no_phone_for_emily
    open_vote(actions, code)
    panel = text_of(client.get(at(code, "/vote/panel"), headers=HTMX))
    assert 'data-testid="proxy-link"' in panel and "for Emily (no phone)" in panel
    pick = text_of(client.get(at(code, "/proxy")))
    assert re.findall(r'name="voter" value="(\w+)"', pick) == ["Emily"]
    assert 'hx-history="false"' in pick
    slip = actions.post(at(code, "/proxy"), {"voter": "Emily"})
    assert slip.status_code == 200
    assert re.findall(r'name="target" value="(\w+)"', text_of(slip)) == ["Rob", "Sam", "Nick"]
    confirm = actions.post(at(code, "/proxy"), {"voter": "Emily", "target": "Nick",
                                                "stage": "1"})
    assert "Your slip names <strong" in text_of(confirm)
    assert status(actions.app, code).slips_in == 0, "the confirm step writes nothing"
    dropped = actions.post(at(code, "/proxy"), {"voter": "Emily", "target": "Nick",
                                                "stage": "1", "confirm": "yes"})
    assert dropped.status_code == 303
    assert dropped.headers["Location"] == at(code, "/proxy") + "?done=1"
    done = text_of(client.get(dropped.headers["Location"]))
    assert "Slip in." in done and "Hand the tablet back." in done
    for name in PLAYERS:
        assert name not in done, "the neutral page names nobody"
    assert status(actions.app, code).voted == frozenset({"Emily"})
    # Emily cannot vote twice, on the tablet or otherwise.
    again = actions.post(at(code, "/proxy"), {"voter": "Emily", "target": "Rob",
                                              "confirm": "yes"})
    assert again.status_code == 409 and "already voted" in text_of(again)
    assert status(actions.app, code).slips_in == 1


def test_the_tablet_does_not_vote_for_a_player_whose_phone_holds_the_seat(actions,
                                                                         no_phone_for_emily):
    code, phones = no_phone_for_emily
    open_vote(actions, code)
    for data in ({"voter": "Rob"}, {"voter": "Rob", "target": "Sam", "confirm": "yes"}):
        response = actions.post(at(code, "/proxy"), data)
        assert response.status_code == 409 and "Rob votes on the phone" in text_of(response)
    bad = actions.post(at(code, "/proxy"), {"voter": "Zed"})
    assert bad.status_code == 400 and "Pick a player" in text_of(bad)
    self_vote = actions.post(at(code, "/proxy"), {"voter": "Emily", "target": "Emily",
                                                  "confirm": "yes"})
    assert self_vote.status_code == 400 and "cannot vote for yourself" in text_of(self_vote)
    assert status(actions.app, code).slips_in == 0


def test_proxy_voting_in_a_tie_break_offers_only_the_tied(actions, no_phone_for_emily):
    code, phones = no_phone_for_emily
    open_vote(actions, code)
    vote_all(actions, code, phones, {"Rob": "Sam", "Sam": "Nick", "Nick": "Sam"})
    actions.post(at(code, "/proxy"), {"voter": "Emily", "target": "Nick", "confirm": "yes"})
    slip = text_of(actions.post(at(code, "/proxy"), {"voter": "Emily"}))
    assert re.findall(r'name="target" value="(\w+)"', slip) == ["Sam", "Nick"]
    refused = actions.post(at(code, "/proxy"), {"voter": "Sam"})
    assert refused.status_code == 400 and "Pick a player" in text_of(refused)


# caching and history ----------------------------------------------------------------------

def test_every_ballot_response_is_no_store(client, actions, table):
    code, phones = table
    responses = [
        phones["Rob"].get(at(code, "/vote")),
        actions.post(at(code, "/vote/open")),
        client.get(at(code, "/vote/panel"), headers=HTMX),
        client.get(f"{at(code, '/vote/panel')}?v={version(actions, code)}", headers=HTMX),
        client.get(at(code, "/vote/panel")),
        client.get(at(code, "/vote/keeper")),
        phones["Rob"].get(at(code, "/vote/slip"), headers=HTMX),
        phones["Rob"].get(f"{at(code, '/vote/slip')}?v={version(actions, code)}",
                          headers=HTMX),
        actions.vote(code, phones["Rob"], "Sam", confirm=False),
        actions.vote(code, phones["Rob"], "Sam", confirm=False, htmx=True),
        actions.vote(code, phones["Rob"], "Sam"),
        actions.vote(code, phones["Rob"], "Sam"),  # a refusal
        actions.vote(code, phones["Sam"], "Sam", htmx=True),  # a refusal, htmx
        client.get(at(code, "/proxy")),
        client.get(at(code, "/proxy") + "?done=1"),
        actions.post(at(code, "/proxy"), {"voter": "Nick"}),
        actions.post(at(code, "/cut"), {"name": "Nick"}),
        phones["Rob"].get(at(code, "/proxy")),
        phones["Rob"].get(at(code, "/vote", 5)),
    ]
    statuses = {r.status_code for r in responses}
    assert {200, 204, 303, 400, 403, 404, 409} <= statuses
    for response in responses:
        assert response.headers["Cache-Control"] == "no-store", response.request.path


def test_the_slip_pages_keep_no_htmx_history(actions, table):
    code, phones = table
    open_vote(actions, code)
    for response in (phones["Rob"].get(at(code, "/vote")),
                     phones["Rob"].get(at(code, "/vote/slip"), headers=HTMX),
                     actions.vote(code, phones["Rob"], "Sam", confirm=False, htmx=True)):
        assert re.search(r'id="vote-slip" hx-history="false"', text_of(response))


def test_an_unchanged_poll_is_a_204_and_a_vote_changes_every_region(client, actions, table):
    code, phones = table
    open_vote(actions, code)
    v = version(actions, code)
    panel = f"{at(code, '/vote/panel')}?v={v}"
    slip = f"{at(code, '/vote/slip')}?v={v}"
    assert client.get(panel, headers=HTMX).status_code == 204
    assert phones["Nick"].get(slip, headers=HTMX).status_code == 204
    actions.vote(code, phones["Rob"], "Sam")
    assert client.get(panel, headers=HTMX).status_code == 200
    html = text_of(phones["Nick"].get(slip, headers=HTMX))
    assert f'?v={v + 1}"' in html and "1 of 4" in html
    # A plain browser that opens a region's URL gets the page instead.
    assert phones["Nick"].get(at(code, "/vote/slip")).headers["Location"] == at(code, "/vote")


# concurrency ------------------------------------------------------------------------------

def test_four_phones_voting_in_the_same_instant_all_count_once(actions, table):
    code, phones = table
    open_vote(actions, code)
    slips = {"Rob": "Emily", "Sam": "Emily", "Nick": "Sam", "Emily": "Sam"}
    for phone in phones.values():
        actions.token(phone)  # fetched beforehand, so the four posts go out together
    start = threading.Barrier(len(slips))
    answers: dict[str, int] = {}

    def drop(voter: str, target: str) -> None:
        start.wait()
        answers[voter] = actions.vote(code, phones[voter], target).status_code

    threads = [threading.Thread(target=drop, args=item) for item in slips.items()]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert answers == dict.fromkeys(PLAYERS, 303)
    now = status(actions.app, code)
    assert now.counts == {"Rob": 0, "Sam": 2, "Nick": 0, "Emily": 2}
    assert (now.stage, now.kind, now.eligible) == (2, "tie-break", ("Rob", "Nick"))


def test_a_double_tap_on_confirm_counts_once(actions, table):
    code, phones = table
    open_vote(actions, code)
    actions.token(phones["Rob"])
    start = threading.Barrier(2)
    answers: list[int] = []

    def drop() -> None:
        start.wait()
        answers.append(actions.vote(code, phones["Rob"], "Sam").status_code)

    threads = [threading.Thread(target=drop) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers) == [303, 409]
    assert status(actions.app, code).slips_in == 1


# secrecy: no response before the reveal depends on any slip ---------------------------------

CSRF_VALUE = re.compile(r'("X-CSRFToken": "|name="csrf_token" value=")[^"]+')
CLOCK = re.compile(r"\b\d{1,2}:\d{2}(:\d{2})?\b|\d{4}-\d{2}-\d{2}T[\d:.+Z-]+")


def _normal(body: str) -> str:
    # CSRF tokens are signed with the time; a timer would show the clock. Nothing else varies.
    return CLOCK.sub("<clock>", CSRF_VALUE.sub(r"\1<token>", body))


def _screens(actions, code, phones, watcher) -> dict[str, str]:
    """Every page and partial any device may load now, as it gets it."""
    keeper = actions.keeper
    got = {}
    for name, client, urls in (
        ("tablet", keeper, [f"/t/{code}", f"/t/{code}/live", f"/t/{code}/scoreboard",
                            "/t/{code}/games/1", "/t/{code}/games/1/record.json",
                            at(code, "/vote/panel"), at(code, "/vote/keeper"),
                            at(code, "/proxy")]),
        ("watcher", watcher, [f"/t/{code}/games/1", f"/t/{code}/scoreboard",
                              f"/t/{code}/games/1/record.json", f"/j/{code}"]),
        *((player, phone, [f"/t/{code}/seat", f"/t/{code}/seat/live", at(code, "/vote"),
                           at(code, "/vote/slip"), f"/t/{code}/games/1"])
          for player, phone in phones.items()),
    ):
        for url in urls:
            url = url.replace("{code}", code)
            for headers in ({}, HTMX):
                response = client.get(url, headers=headers)
                got[f"{name} {url} {bool(headers)}"] = (
                    f"{response.status_code} {response.headers.get('Location')} "
                    + _normal(text_of(response)))
    return got


def _run(app, actions, monkeypatch, slips: dict[str, str]) -> list[dict[str, str]]:
    """A fresh database, a table with fixed codes, the slips in order; the screens at each step.

    Returns the screens before each slip and after the last, plus each slip's own answer.
    """
    codes = (f"BCDFGH{a}{b}" for a, b in itertools.product(ALPHABET, repeat=2))
    monkeypatch.setattr("companion.store.changes.new_code", lambda: next(codes))
    keys = (f"key{n:040d}" for n in itertools.count())
    monkeypatch.setattr("companion.store.changes.new_key", lambda: next(keys))
    with app.app_context():
        db.session.remove()
        db.drop_all()
        db.create_all()
    limiter.reset()
    actions = type(actions)(app, app.test_client())
    code = actions.create_table()
    actions.start(code)
    phones = dict(zip(PLAYERS, actions.seat_everyone(code), strict=True))
    watcher = app.test_client()
    open_vote(actions, code)
    steps = []
    for voter, target in slips.items():
        steps.append(_screens(actions, code, phones, watcher))
        answer = actions.vote(code, phones[voter], target, htmx=True)
        assert answer.status_code == 200
        steps.append({"answer": _normal(text_of(answer))})
    steps.append(_screens(actions, code, phones, watcher))
    return steps


def test_no_screen_before_the_last_slip_depends_on_any_slip(app, actions, monkeypatch):
    # Same voters in the same order; Rob names Nick (2–2) or Emily (3–1).
    tie = _run(app, actions, monkeypatch, {"Rob": "Nick", "Sam": "Emily", "Nick": "Emily",
                                  "Emily": "Nick"})
    three_one = _run(app, actions, monkeypatch, {"Rob": "Emily", "Sam": "Emily", "Nick": "Emily",
                                        "Emily": "Nick"})
    before_reveal = slice(0, -2)  # every screen and answer up to the last slip's
    assert tie[before_reveal] == three_one[before_reveal]
    for screens in tie[before_reveal]:
        for where, body in screens.items():
            assert 'data-count="' not in body and "vote-counts" not in body, where
    # The comparison is sharp: after the last slip the counts are out, and they differ.
    assert tie[-1] != three_one[-1]
    assert any('data-count="2"' in body for body in tie[-1].values())


def test_after_the_reveal_the_screens_cannot_tell_who_named_whom(app, actions, monkeypatch):
    # 2–2 between Nick and Emily either way; Rob and Sam swap their slips.
    one = _run(app, actions, monkeypatch, {"Rob": "Nick", "Sam": "Emily", "Nick": "Emily",
                                  "Emily": "Nick"})
    other = _run(app, actions, monkeypatch, {"Rob": "Emily", "Sam": "Nick", "Nick": "Emily",
                                    "Emily": "Nick"})
    assert one == other
