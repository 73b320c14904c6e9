"""The secret vote on the phones and the tablet: slips, reveal, ties, card cut, the private screen.

A slip is chosen on the phone (nothing is sent while the player makes up
their mind) and dropped with one tap; nothing any device gets back depends
on the name on it until every slip is in.
"""

from __future__ import annotations

import re

import pytest

from companion.extensions import db
from companion.games.tromplemond.store import Stage, VoteStatus, vote_status
from companion.store import queries
from companion.web import words
from tests.conftest import at_once, element, pulse_of
from tests.web.tables import HTMX, as_logged, every_screen, fresh

pytestmark = pytest.mark.db

PLAYERS = ("Rob", "Sam", "Nick", "Emily")


def game_url(code: str, tail: str = "", number: int = 1) -> str:
    return f"/t/{code}/games/{number}{tail}"


def status(app, code: str, round_index: int = 0) -> VoteStatus:
    with app.app_context():
        table = db.session.scalar(queries.table_by_code(code))
        return vote_status(table.current_game, round_index)


def version(actions, code: str) -> int:
    return actions.table(code).version


def text_of(response) -> str:
    return response.get_data(as_text=True)


def open_vote(actions, code: str, round_number: int = 1) -> None:
    response = actions.post(game_url(code, "/tromplemond/vote"), {"round": str(round_number)})
    assert response.status_code == 303, text_of(response)


def phone_round(phone, code: str) -> str:
    response = phone.get(pulse_of("phone", code), headers=HTMX)
    assert response.status_code == 200
    return element(text_of(response), "round")


def tablet_round(client, code: str) -> str:
    response = client.get(pulse_of("tablet", code), headers=HTMX)
    assert response.status_code == 200
    return element(text_of(response), "round")


def slip_of(html: str) -> str:
    """The slip element of a round region (its opening tag and what it holds)."""
    match = re.search(r'<section class="vote-slip".*?</section>', html, re.S)
    assert match, "no slip on this screen"
    return match.group(0)


def cut(actions, code: str, name: str, **headers):
    return actions.post(game_url(code, "/tromplemond/cut"), {"name": name, "round": "1"},
                        headers=headers)


@pytest.fixture
def table(actions):
    """A Tromplemond game of four with a phone in every seat: (code, {name: phone})."""
    code = actions.create_table()
    phones = actions.seat_everyone(code)
    assert actions.start(code).status_code == 303
    return code, dict(zip(PLAYERS, phones, strict=True))


def vote_all(actions, code, phones, slips, **kwargs):
    for voter, target in slips.items():
        response = actions.vote(code, phones[voter], target, **kwargs)
        assert response.status_code == 303, text_of(response)


# the slip ---------------------------------------------------------------------------------

def test_a_phone_gets_its_slip_when_the_scorekeeper_opens_the_vote(actions, table):
    code, phones = table
    assert 'class="vote-slip"' not in phone_round(phones["Sam"], code)
    open_vote(actions, code)
    slip = slip_of(phone_round(phones["Sam"], code))
    assert 'data-step="choose"' in slip and 'hx-history="false"' in slip
    # The three others, as tiles chosen on the phone; never oneself.
    assert re.findall(r'type="radio" name="choice" value="(\w+) \.*"', slip) == ["Rob", "Nick",
                                                                             "Emily"]
    assert 'data-testid="slip-confirm"' in slip


def test_the_choice_is_made_on_the_phone_and_sent_only_with_the_drop(actions, table):
    code, phones = table
    open_vote(actions, code)
    slip = slip_of(phone_round(phones["Rob"], code))
    form = re.search(r'<form class="slip-form" ([^>]*)>', slip).group(1)
    # One POST to a URL that names no choice; the name travels in its body.
    assert 'method="post"' in form and f'action="/t/{code}/games/1/sealed/vote"' in form
    assert 'name="target"' not in slip and "confirm" not in form
    assert status(actions.app, code).slips_in == 0


def test_dropping_a_slip_says_it_is_in_and_never_what_it_says(client, actions, table):
    code, phones = table
    open_vote(actions, code)
    response = actions.vote(code, phones["Rob"], "Sam")
    assert response.status_code == 303 and response.headers["Location"].endswith("/seat#round")
    mine = phone_round(phones["Rob"], code)
    assert 'data-step="in"' in slip_of(mine) and "Your slip is in." in mine
    for html in (mine, tablet_round(client, code), phone_round(phones["Nick"], code)):
        assert "1 of 4</strong> slips in" in html
        assert re.search(r'<li class="in" data-voted="yes">Rob</li>', html)
        assert 'data-count="' not in html and "vote-counts" not in html
    assert status(actions.app, code).voted == {"Rob"}


def test_three_one_is_revealed_on_every_screen_at_once(client, actions, table):
    code, phones = table
    open_vote(actions, code)
    vote_all(actions, code, phones, {"Rob": "Emily", "Sam": "Emily", "Nick": "Emily"})
    assert "vote-counts" not in tablet_round(client, code)
    vote_all(actions, code, phones, {"Emily": "Rob"})
    for html in (tablet_round(client, code), *(phone_round(p, code) for p in phones.values())):
        assert 'data-phase="hands"' in html
        assert re.search(r'data-candidate="Emily"><th scope="row">Emily</th>'
                         r'<td data-count="3">', html)
        assert re.search(r'data-candidate="Rob"><th scope="row">Rob</th>'
                         r'<td data-count="1">', html)
        assert "<strong>Emily</strong> is off (voted off)" in html


def test_two_two_gives_tie_break_slips_to_the_two_with_no_votes_only(client, actions, table):
    code, phones = table
    open_vote(actions, code)
    vote_all(actions, code, phones, {"Rob": "Sam", "Sam": "Rob", "Nick": "Sam", "Emily": "Rob"})
    now = status(actions.app, code)
    assert (now.stage, now.kind, now.eligible, now.candidates) == (
        2, Stage.TIE_BREAK, ("Nick", "Emily"), ("Rob", "Sam"))
    nick = slip_of(phone_round(phones["Nick"], code))
    assert 'data-step="choose"' in nick and "who goes off, Rob or Sam?" in nick
    assert re.findall(r'name="choice" value="(\w+) \.*"', nick) == ["Rob", "Sam"]
    assert 'data-step="waiting"' in slip_of(phone_round(phones["Rob"], code))
    tablet = tablet_round(client, code)
    assert "Tie-break: <strong>Nick and Emily</strong> decide between <strong>Rob and Sam" \
        in tablet
    assert 'data-testid="cut-Rob"' in tablet and 'data-testid="cut-Nick"' not in tablet
    refused = actions.vote(code, phones["Rob"], "Sam")
    assert refused.status_code == 403 and "only Nick and Emily decide" in text_of(refused)


def test_a_disagreeing_tie_break_gives_the_deciders_new_slips(actions, table):
    code, phones = table
    open_vote(actions, code)
    vote_all(actions, code, phones, {"Rob": "Sam", "Sam": "Rob", "Nick": "Sam", "Emily": "Rob"})
    first = re.search(r'id="(slip-\d+)"', phone_round(phones["Nick"], code)).group(1)
    vote_all(actions, code, phones, {"Nick": "Rob", "Emily": "Sam"})
    now = status(actions.app, code)
    assert (now.stage, now.kind, now.slips_in) == (3, Stage.TIE_BREAK, 0)
    html = phone_round(phones["Nick"], code)
    # A new stage is a new slip (a new id), so a phone's half-made choice is not kept.
    assert re.search(r'id="(slip-\d+)"', html).group(1) != first
    assert "Nick and Emily disagreed, new slips" in tablet_round(actions.keeper, code)


def test_one_one_one_one_gives_everyone_a_new_slip(actions, table):
    code, phones = table
    open_vote(actions, code)
    vote_all(actions, code, phones, {"Rob": "Sam", "Sam": "Nick", "Nick": "Emily",
                                     "Emily": "Rob"})
    now = status(actions.app, code)
    assert (now.stage, now.kind, now.eligible) == (2, Stage.VOTE, PLAYERS)
    for phone in phones.values():
        assert 'data-step="choose"' in slip_of(phone_round(phone, code))
    assert "1–1–1–1, everyone votes again" in tablet_round(actions.keeper, code)


def test_the_scorekeeper_settles_a_tie_by_a_card_cut(client, actions, table):
    code, phones = table
    open_vote(actions, code)
    vote_all(actions, code, phones, {"Rob": "Sam", "Sam": "Rob", "Nick": "Sam", "Emily": "Rob"})
    vote_all(actions, code, phones, {"Nick": "Rob"})  # one tie-break slip in, then the cut
    response = cut(actions, code, "Sam", **HTMX)
    # The same answer whoever goes off: a redirect, whose size names nobody.
    assert response.status_code == 303 and response.headers["Location"].endswith("#round")
    tablet = tablet_round(client, code)
    assert 'data-phase="hands"' in tablet and "<strong>Sam</strong> is off (card cut)" in tablet
    now = status(actions.app, code)
    assert (now.settled_off, now.how) == ("Sam", Stage.CUT)
    assert "Card cut: Sam goes off" in tablet_round(client, code)


def test_a_card_cut_without_htmx_goes_back_to_the_tablet(actions, table):
    code, phones = table
    open_vote(actions, code)
    vote_all(actions, code, phones, {"Rob": "Sam", "Sam": "Nick", "Nick": "Emily",
                                     "Emily": "Rob"})
    response = cut(actions, code, "Emily")
    assert response.status_code == 303 and response.headers["Location"].endswith(
        f"/t/{code}#round")
    assert status(actions.app, code).settled_off == "Emily"


@pytest.mark.parametrize(("slips", "name", "code_", "message"), [
    ({}, "Sam", 409, "there is no tie yet"),
    ({"Rob": "Sam", "Sam": "Rob", "Nick": "Sam", "Emily": "Rob"}, "Nick", 400,
     "The card cut is between Rob and Sam"),
])
def test_a_bad_card_cut_is_refused_and_changes_nothing(actions, table, slips, name, code_,
                                                       message):
    code, phones = table
    open_vote(actions, code)
    vote_all(actions, code, phones, slips)
    before = version(actions, code)
    response = cut(actions, code, name)
    assert response.status_code == code_ and message in text_of(response)
    assert version(actions, code) == before
    phone_cut = actions.post(game_url(code, "/tromplemond/cut"), {"name": "Rob", "round": "1"},
                             client=phones["Rob"])
    assert phone_cut.status_code == 403


@pytest.mark.parametrize(("voter", "target", "code_", "message"), [
    ("Rob", "Rob", 400, "You cannot vote for yourself"),
    ("Rob", "Zed", 400, "Name one of Sam, Nick and Emily on your slip"),
    ("Rob", "", 400, "Name one of"),
])
def test_bad_slips_are_refused_with_a_message_and_change_nothing(actions, table, voter,
                                                                 target, code_, message):
    code, phones = table
    open_vote(actions, code)
    before = version(actions, code)
    response = actions.vote(code, phones[voter], target)
    assert response.status_code == code_ and message in text_of(response)
    assert version(actions, code) == before and status(actions.app, code).slips_in == 0
    # With htmx the phone's round comes back with the refusal on top, and its slip.
    again = actions.vote(code, phones[voter], target, htmx=True)
    assert again.status_code == code_
    html = text_of(again)
    assert html.index(message.replace("'", "&#39;")) < html.index('class="vote-slip"')


def test_one_slip_each_and_a_slip_for_an_earlier_stage_is_refused(actions, table):
    code, phones = table
    open_vote(actions, code)
    vote_all(actions, code, phones, {"Rob": "Sam"})
    twice = actions.vote(code, phones["Rob"], "Nick")
    assert twice.status_code == 409 and "Rob has already voted" in text_of(twice)
    vote_all(actions, code, phones, {"Sam": "Rob", "Nick": "Sam", "Emily": "Rob"})
    stale = actions.vote(code, phones["Nick"], "Rob", stage=1)
    assert stale.status_code == 409 and "the vote has moved on" in text_of(stale)
    assert status(actions.app, code).slips_in == 0


def test_a_french_phone_that_votes_twice_is_told_so_in_french(actions, table, monkeypatch):
    """The refusal is a fact (its code and the voter's name) said in the phone's language:
    the French catalogue's entry for the code (a stand-in here, so that the test reads
    the web layer and not a translator's wording), with the name in it."""
    french = {"tromplemond.vote.voted_already": "{voter} a déjà voté : un bulletin chacun."}
    catalogue = words.pgettext
    monkeypatch.setattr(words, "pgettext",
                        lambda code, english: french.get(code) or catalogue(code, english))
    code, phones = table
    open_vote(actions, code)
    vote_all(actions, code, phones, {"Rob": "Sam"})
    phones["Rob"].set_cookie("lang", "fr")
    twice = actions.vote(code, phones["Rob"], "Nick")
    assert twice.status_code == 409
    assert "Rob a déjà voté : un bulletin chacun." in text_of(twice)
    assert "already voted" not in text_of(twice)
    assert status(actions.app, code).slips_in == 1


def test_a_device_without_a_seat_cannot_vote(actions, table):
    code, _ = table
    open_vote(actions, code)
    response = actions.vote(code, actions.phone(), "Sam")
    assert response.status_code == 403 and "holds no seat" in text_of(response)
    # The scorekeeper's screen is not a seat either: it votes only on the private screen.
    assert actions.vote(code, actions.keeper, "Sam").status_code == 403


def test_no_slip_before_the_vote_opens_or_after_the_game_ends(actions, table):
    code, phones = table
    early = actions.vote(code, phones["Rob"], "Sam")
    assert early.status_code == 409 and "no slip to drop now" in text_of(early)
    open_vote(actions, code)
    actions.post(game_url(code, "/end"))
    late = actions.vote(code, phones["Rob"], "Sam")
    assert late.status_code == 409 and "Game 1 is over" in text_of(late)


def test_a_game_without_that_sealed_choice_has_no_such_page(actions):
    code = actions.create_table(game="clumond", players=["Ann", "Bo", "Cy"])
    phones = actions.seat_everyone(code)
    actions.start(code)
    response = actions.vote(code, phones[0], "Bo")
    assert response.status_code == 404 and "no such choice" in text_of(response)
    assert actions.keeper.get(game_url(code, "/sealed/vote/private")).status_code == 404
    assert actions.vote(code, phones[0], "Bo", number=7).status_code == 404


def test_opening_the_vote_twice_is_refused_and_changes_nothing(actions, table):
    code, _ = table
    open_vote(actions, code)
    before = version(actions, code)
    again = actions.post(game_url(code, "/tromplemond/vote"), {"round": "1"})
    assert again.status_code == 409 and version(actions, code) == before


def test_only_the_scorekeeper_opens_the_vote_or_uses_the_private_screen(actions, table):
    code, phones = table
    assert actions.post(game_url(code, "/tromplemond/vote"), {"round": "1"},
                        client=phones["Rob"]).status_code == 403
    open_vote(actions, code)
    assert phones["Rob"].get(game_url(code, "/sealed/vote/private")).status_code == 403
    assert actions.post(game_url(code, "/sealed/vote/private"), {"chooser": "Sam"},
                        client=phones["Rob"]).status_code == 403


# the tablet's private screen --------------------------------------------------------------

@pytest.fixture
def no_phone_for_emily(actions):
    code = actions.create_table()
    phones = {}
    for position, name in enumerate(PLAYERS[:3], 1):
        phones[name], _ = actions.claim(code, position)
    actions.start(code)
    return code, phones


def test_a_player_without_a_phone_votes_on_the_tablet_privately(client, actions,
                                                                no_phone_for_emily):
    code, phones = no_phone_for_emily
    open_vote(actions, code)
    tablet = tablet_round(client, code)
    assert 'data-testid="proxy-link"' in tablet and "for Emily (no phone)" in tablet
    private = game_url(code, "/sealed/vote/private")
    pick = text_of(client.get(private))
    assert 'data-testid="private-Emily"' in pick and 'data-testid="private-Rob"' not in pick
    slip = actions.post(private, {"chooser": "Emily"})
    assert slip.status_code == 200
    assert re.findall(r'name="choice" value="(\w+) \.*"', text_of(slip)) == ["Rob", "Sam", "Nick"]
    dropped = actions.post(private, {"chooser": "Emily", "choice": "Nick", "stage": "1"})
    assert dropped.status_code == 303 and dropped.headers["Location"].endswith(
        "/sealed/vote/private?done=1")
    done = text_of(client.get(dropped.headers["Location"]))
    assert "Slip in." in done and "Nick" not in done.split('id="private-slip"')[1]
    assert status(actions.app, code).voted == {"Emily"}
    again = actions.post(private, {"chooser": "Emily"})
    assert again.status_code == 409 and "Emily has chosen already" in text_of(again)


def test_the_tablet_does_not_vote_for_a_player_whose_phone_holds_the_seat(actions,
                                                                        no_phone_for_emily):
    code, _ = no_phone_for_emily
    open_vote(actions, code)
    response = actions.post(game_url(code, "/sealed/vote/private"),
                            {"chooser": "Rob", "choice": "Sam"})
    assert response.status_code == 409 and "Rob's phone holds their seat" in text_of(
        response).replace("&#39;", "'")
    assert status(actions.app, code).slips_in == 0


def test_the_private_screen_in_a_tie_break_offers_only_the_tied(actions, no_phone_for_emily):
    code, phones = no_phone_for_emily
    open_vote(actions, code)
    vote_all(actions, code, phones, {"Rob": "Sam", "Sam": "Nick", "Nick": "Sam"})
    private = game_url(code, "/sealed/vote/private")
    actions.post(private, {"chooser": "Emily", "choice": "Nick", "stage": "1"})
    assert status(actions.app, code).eligible == ("Rob", "Emily")
    slip = text_of(actions.post(private, {"chooser": "Emily"}))
    assert re.findall(r'name="choice" value="(\w+) \.*"', slip) == ["Sam", "Nick"]
    refused = actions.post(private, {"chooser": "Sam"})
    assert refused.status_code == 409 and "Pick a player" in text_of(refused)


# caching and history ----------------------------------------------------------------------

def test_every_sealed_choice_response_is_no_store(client, actions, no_phone_for_emily):
    code, phones = no_phone_for_emily
    private = game_url(code, "/sealed/vote/private")
    open_vote(actions, code)
    responses = [
        actions.vote(code, phones["Rob"], "Sam"),
        actions.vote(code, phones["Rob"], "Sam"),  # a refusal
        actions.vote(code, phones["Sam"], "Sam", htmx=True),  # a refusal, htmx
        actions.vote(code, phones["Nick"], "Sam", htmx=True),
        client.get(private),
        client.get(private + "?done=1"),
        actions.post(private, {"chooser": "Emily"}),
        actions.post(private, {"chooser": "Rob"}),
        phones["Rob"].get(private),
        actions.vote(code, phones["Rob"], "Sam", number=5),
    ]
    statuses = {r.status_code for r in responses}
    assert {200, 303, 400, 403, 404, 409} <= statuses
    for response in responses:
        assert response.headers["Cache-Control"] == "no-store", response.request.path


def test_an_unchanged_poll_is_a_204_and_a_slip_changes_every_region(client, actions, table):
    code, phones = table
    open_vote(actions, code)
    v = version(actions, code)
    assert client.get(f"/t/{code}/pulse?v={v}", headers=HTMX).status_code == 204
    assert phones["Nick"].get(f"/t/{code}/seat/pulse?v={v}", headers=HTMX).status_code == 204
    actions.vote(code, phones["Rob"], "Sam")
    html = text_of(phones["Nick"].get(f"/t/{code}/seat/pulse?v={v}", headers=HTMX))
    assert f'data-version="{v + 1}"' in html and "1 of 4</strong> slips in" in html
    assert "1 of 4</strong> slips in" in text_of(client.get(f"/t/{code}/pulse?v={v}",
                                                      headers=HTMX))


# concurrency ------------------------------------------------------------------------------

def test_four_phones_voting_in_the_same_instant_all_count_once(actions, table):
    code, phones = table
    open_vote(actions, code)
    slips = {"Rob": "Emily", "Sam": "Emily", "Nick": "Sam", "Emily": "Sam"}
    for phone in phones.values():
        actions.token(phone)  # fetched beforehand, so the four posts go out together
    answers = at_once(lambda voter: actions.vote(code, phones[voter], slips[voter]).status_code,
                      slips)
    assert answers == dict.fromkeys(PLAYERS, 303)
    now = status(actions.app, code)
    assert now.counts == {"Rob": 0, "Sam": 2, "Nick": 0, "Emily": 2}
    assert (now.stage, now.kind, now.eligible) == (2, Stage.TIE_BREAK, ("Rob", "Nick"))


def test_a_double_tap_on_drop_counts_once(actions, table):
    code, phones = table
    open_vote(actions, code)
    actions.token(phones["Rob"])
    answers = at_once(lambda _: actions.vote(code, phones["Rob"], "Sam").status_code, range(2))
    assert sorted(answers.values()) == [303, 409]
    assert status(actions.app, code).slips_in == 1


# secrecy: no response before the reveal depends on any slip ---------------------------------

def _screens(actions, code, phones, watcher) -> dict[str, str]:
    """Every page and partial any device may load now, as it gets it."""
    keeper = actions.keeper
    return every_screen((
        ("tablet", keeper, [f"/t/{code}", f"/t/{code}/pulse", f"/t/{code}/games/1",
                            f"/t/{code}/games/1/record.json",
                            f"/t/{code}/games/1/sealed/vote/private"]),
        ("watcher", watcher, [f"/t/{code}/games/1", f"/t/{code}/games/1/pulse",
                              f"/j/{code}/pulse",
                              f"/t/{code}/games/1/record.json", f"/j/{code}"]),
        *((player, phone, [f"/t/{code}/seat", f"/t/{code}/seat/pulse", f"/t/{code}/games/1"])
          for player, phone in phones.items()),
    ), text_of)


def _run(app, actions, monkeypatch, slips: dict[str, str]) -> list[dict[str, str]]:
    """A fresh database, a table with fixed codes, the slips in order; the screens at each step.

    Returns the screens before each slip and after the last, plus each slip's own answer
    (its status, its headers, its size and its body, as an access log or a proxy sees it).
    """
    actions = fresh(app, actions, monkeypatch)
    code = actions.create_table()
    phones = dict(zip(PLAYERS, actions.seat_everyone(code), strict=True))
    actions.start(code)
    watcher = app.test_client()
    open_vote(actions, code)
    steps = []
    for voter, target in slips.items():
        steps.append(_screens(actions, code, phones, watcher))
        answer = actions.vote(code, phones[voter], target, htmx=True)
        assert answer.status_code == 200
        steps.append(as_logged(answer, text_of))
    steps.append(_screens(actions, code, phones, watcher))
    return steps


def test_no_screen_or_answer_before_the_last_slip_depends_on_any_slip(app, actions,
                                                                     monkeypatch):
    # Same voters in the same order; Rob names Nick (2–2) or Emily (3–1).
    tie = _run(app, actions, monkeypatch, {"Rob": "Nick", "Sam": "Emily", "Nick": "Emily",
                                           "Emily": "Nick"})
    three_one = _run(app, actions, monkeypatch, {"Rob": "Emily", "Sam": "Emily",
                                                 "Nick": "Emily", "Emily": "Nick"})
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


def restart(app) -> None:
    """As a new server process on the same database: an empty key store, and its first
    request not yet answered (before which it voids the votes whose keys are lost)."""
    from companion.store import sealed

    sealed.install_keys(app, None)


def test_a_restart_during_the_vote_asks_everyone_again_and_says_so(app, client, actions, table):
    code, phones = table
    open_vote(actions, code)
    vote_all(actions, code, phones, {"Rob": "Sam", "Sam": "Rob"})
    before = version(actions, code)
    restart(app)
    assert tablet_round(client, code)  # the new process's first request voids the vote
    assert version(actions, code) == before + 1, "every open screen hears of it"
    for html in (tablet_round(client, code), phone_round(phones["Rob"], code)):
        assert "The server restarted: please vote again." in html
        assert "0 of 4</strong> slips in" in html  # nothing is guessed from the old slips
    assert 'data-step="choose"' in slip_of(phone_round(phones["Rob"], code))
    vote_all(actions, code, phones, {"Rob": "Emily", "Sam": "Emily", "Nick": "Emily",
                                     "Emily": "Rob"})
    assert status(actions.app, code).settled_off == "Emily"
    assert "restarted" not in tablet_round(client, code)
