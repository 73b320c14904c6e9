"""Tromplemond through the pages: options, checklists, timer, vote, hands, scores, TROMP!

Four phones and the scorekeeper's tablet, each its own test client. Every
number a page shows is checked against ``replay`` of the game's record.json.
"""

from __future__ import annotations

import re

import pytest

from companion.extensions import db
from companion.games.tromplemond.store import vote_status
from companion.rules import replay
from companion.store import queries
from tests.conftest import at_once
from tests.web.tables import HTMX, GameAtTable

pytestmark = pytest.mark.db

PLAYERS = ("Rob", "Sam", "Nick", "Emily")
OPTIONS = {"unit": "GBP", "joining_fee": "2.50", "payout_winner": "75",
           "payout_runner_up": "25", "tromp_stake": "0.50", "rounds": "8", "target": "200"}

# The worked example of RULES.md, as picker codes: (face up, face down).
ROB = (["KH", "10S"], ["QH", "JD", "KS"])
SAM = (["AC", "2D"], ["10D", "4S", "KD"])
NICK = (["JH", "AD"], ["JS", "AS", "10H"])
NICK_SLIP = (["JH", "AD"], ["JS", "AS", "10D"])  # the rules text's slip: 10♦ twice
EMILY = (["2S", "3H"], ["JC", "AH", "4D"])


def text(response) -> str:
    return response.get_data(as_text=True)


class Table(GameAtTable):
    """A Tromplemond game at a table: the tablet (``actions.keeper``) and four phones."""

    GAME = "tromplemond"

    def __init__(self, actions, code: str, phones: list) -> None:
        super().__init__(actions, code, dict(zip(PLAYERS, phones, strict=True)), PLAYERS)

    # --- doing

    def open_vote(self) -> None:
        self.ok("vote")

    def vote(self, slips: dict[str, str]) -> None:
        for voter, target in slips.items():
            response = self.actions.vote(self.code, self.phones[voter], target)
            assert response.status_code == 303, text(response)

    def vote_off(self, player: str) -> None:
        """Open the vote; three slips name ``player``, whose own slip names the next seat."""
        self.open_vote()
        other = next(p for p in PLAYERS if p != player)
        self.vote({p: (player if p != player else other) for p in PLAYERS})

    def enter(self, name: str, hand: tuple[list[str], list[str]]):
        """A phone enters its own hand with the picker."""
        public, secret = hand
        position = PLAYERS.index(name) + 1
        return self.post(f"seats/{position}/hand", {"public": public, "secret": secret},
                         client=self.phones[name])

    def quick(self, name: str, points: int, public_jacks: int = 0, secret_jacks: int = 0):
        """The scorekeeper enters a hand the quick way."""
        position = PLAYERS.index(name) + 1
        return self.ok(f"hands/{position}", {
            "how": "quick", "points": str(points), "public_jacks": str(public_jacks),
            "secret_jacks": str(secret_jacks)})

    def example_round(self) -> None:
        """Round of the worked example: Emily is voted off; three phones enter their hands."""
        self.vote_off("Emily")
        for name, hand in (("Rob", ROB), ("Sam", SAM), ("Nick", NICK)):
            assert self.enter(name, hand).status_code == 303
        self.confirm()


def start(actions, **options) -> Table:
    code = actions.create_table()
    phones = actions.seat_everyone(code)
    response = actions.post(f"/t/{code}/start", OPTIONS | options)
    assert response.status_code == 303, text(response)
    return Table(actions, code, phones)


@pytest.fixture
def game(actions) -> Table:
    """A Tromplemond game with a £2.50 fee and a 50p TROMP! stake, Rob dealing first."""
    return start(actions)


def totals_on(html: str) -> dict[str, int]:
    return {name: int(value.replace("\u2212", "-")) for name, value in
            re.findall(r'data-total="(\w+)"[^>]*>([−-]?\d+)<', html)}


# --------------------------------------------------------------------------- setting up


def test_the_options_form_starts_with_the_rules_defaults(actions):
    code = actions.create_table()
    actions.seat_everyone(code)
    keeper = text(actions.keeper.get(f"/t/{code}"))
    assert f'href="/t/{code}/start"' in keeper
    page = text(actions.keeper.get(f"/t/{code}/start"))
    assert 'name="payout_winner" value="75"' in page
    assert 'name="payout_runner_up" value="25"' in page
    assert 'name="rounds" value="8"' in page and 'name="target" value="200"' in page
    assert '<option value="GBP" selected>' in page
    assert all(f'<option value="{code}">' in page for code in ("chips", "EUR", "USD", "NOK", "JPY"))


def test_a_game_starts_with_the_design_option_names_and_the_unit_on_the_table(game):
    record = game.record()
    assert record["options"] == {"joining_fee": 250, "payout": [75, 25], "tromp_stake": 50,
                                 "rounds": 8, "target": 200}
    assert game.actions.table(game.code).unit == "GBP"
    assert "each put the joining fee of £2.50 in the pot (£10.00 in all)" in game.tablet()


def test_euros_and_chips(actions):
    game = start(actions, unit="EUR", joining_fee="€1,5", tromp_stake="")
    assert game.record()["options"]["joining_fee"] == 150
    assert game.record()["options"]["tromp_stake"] == 0
    assert "−€1.50" in game.scores()  # one minus sign everywhere
    code = actions.create_table(name="Chips")
    actions.seat_everyone(code)
    response = actions.post(f"/t/{code}/start",
                            OPTIONS | {"unit": "chips", "joining_fee": "20", "tromp_stake": "2"})
    assert response.status_code == 303
    page = text(actions.keeper.get(f"/t/{code}/pulse", headers=HTMX))
    assert 'data-money="Rob">−20<' in page


@pytest.mark.parametrize(("change", "message"), [
    ({"payout_winner": "70", "payout_runner_up": "20"}, "adding up to 100"),
    ({"joining_fee": "two pounds"}, "The joining fee must be an amount like 2.50"),
    ({"tromp_stake": "0.505"}, "The TROMP! stake must be an amount"),
    ({"unit": "chips", "joining_fee": "2.5"}, "whole number of chips"),
    ({"unit": "yen"}, "Pick the money unit"),
    ({"rounds": "0"}, "The number of rounds must be from 1 to 99"),
    ({"target": ""}, "The target must be a whole number"),
])
def test_bad_options_are_refused_with_a_message_and_start_nothing(actions, change, message):
    code = actions.create_table()
    actions.seat_everyone(code)
    response = actions.post(f"/t/{code}/start", OPTIONS | change)
    assert response.status_code == 400
    assert message in text(response)
    table = actions.table(code)
    assert table.games == [] and table.unit == "GBP"


def test_only_the_scorekeeper_starts_the_game_and_only_when_all_are_named(actions):
    code = actions.create_table(players=["Rob", "Sam", None, "Emily"], phone_names=True)
    phone = actions.phone()
    assert phone.get(f"/t/{code}/start").status_code == 403
    response = actions.post(f"/t/{code}/start", OPTIONS)
    assert response.status_code == 409 and "Seat 3 has no name yet" in text(response)
    assert actions.table(code).games == []
    other = actions.create_table(game="clumond", players=["A", "B", "C"])
    page = text(actions.keeper.get(f"/t/{other}/start"))  # each game asks its own options
    assert "Start Clumond" in page and "joining_fee" not in page


def test_a_phone_waiting_for_the_game_gets_the_round_when_it_starts(actions):
    code = actions.create_table()
    phones = actions.seat_everyone(code)
    waiting = text(phones[0].get(f"/t/{code}/seat/pulse", headers=HTMX))
    assert 'data-testid="no-game"' in waiting
    actions.post(f"/t/{code}/start", OPTIONS)
    page = text(phones[0].get(f"/t/{code}/seat"))
    assert 'data-phase="deal"' in page and "Rob</strong> deals" in page


def test_the_plain_start_button_still_starts_tromplemond_with_the_defaults(actions):
    code = actions.create_table()
    actions.seat_everyone(code)
    assert actions.start(code).status_code == 303
    keeper = text(actions.keeper.get(f"/t/{code}"))
    assert 'data-phase="deal"' in keeper and "Round 1 of 8" in keeper


# --------------------------------------------------------------------------- dealing


def test_the_tablet_shows_the_dealer_the_claims_and_the_card_points(game):
    html = game.tablet()
    assert "<strong>Rob</strong> deals" in html
    assert re.search(r"Claims: .*Rob.*Sam.*Nick.*Emily", html)
    assert 'data-testid="card-points"' in html and "−20 to every other survivor" in html
    assert "Everyone puts the TROMP! stake of £0.50 in the round pot (£2.00)." in html
    assert "Next round Sam deals." in html


def test_a_phone_ticks_a_step_and_every_screen_shows_it(game):
    assert 'data-step="deal:2" data-done="no"' in game.tablet()
    response = game.post("tick", {"step": "deal:2", "from": "seat"},
                         client=game.phones["Rob"])
    assert response.status_code == 303 and response.headers["Location"].endswith("/seat#round")
    assert 'data-step="deal:2" data-done="yes"' in game.tablet()
    assert 'data-step="deal:2" data-done="yes"' in game.phone("Emily")
    game.ok("tick", {"step": "deck:0"})
    game.ok("tick", {"step": "deal:2"})
    assert game.draft().ticks == ["deck:0"]


def test_only_the_dealers_phone_ticks_the_dealing_and_other_phones_fold_the_lists(game):
    """Rob deals: Nick's phone shows the deck prep and the dealing folded (a short page), the
    dealing without buttons; its tick of a dealing step is refused, of the deck prep not."""
    nick = game.phone("Nick")
    assert re.search(r'data-testid="deck-steps" data-mine="yes"', nick)
    assert re.search(r'data-testid="deal-steps" data-mine="no"', nick)
    assert 'data-testid="tick-deal-0"' not in nick and 'data-testid="tick-deck-0"' in nick
    assert re.search(r'data-testid="deal-steps" open data-mine="yes"', game.phone("Rob"))
    refused = game.post("tick", {"step": "deal:0", "from": "seat"}, client=game.phones["Nick"])
    assert refused.status_code == 403 and game.draft().ticks == []
    game.ok("tick", {"step": "deck:0", "from": "seat"}, client=game.phones["Nick"])
    assert game.draft().ticks == ["deck:0"]


def test_ticks_are_refused_for_strangers_unknown_steps_and_old_rounds(game):
    stranger = game.actions.phone()
    assert game.post("tick", {"step": "deal:0"}, client=stranger).status_code == 403
    assert game.post("tick", {"step": "deal:99"}).status_code == 400
    response = game.post("tick", {"step": "deal:0"}, round_=2)
    assert response.status_code == 409 and "the table is on round 1" in text(response)
    assert game.draft().ticks == []


def test_the_deck_checklist_is_only_for_round_one(game):
    assert 'data-testid="deck-steps"' in game.tablet()
    game.example_round()
    html = game.tablet()
    assert 'data-testid="deck-steps"' not in html and "<strong>Sam</strong> deals" in html


def test_the_interrogation_timer_starts_pauses_and_ends_on_every_screen(game):
    assert 'data-timer="ready"' in game.tablet() and ">5:00<" in game.tablet()
    game.ok("timer", {"action": "start"})
    html = game.phone("Sam")
    assert 'data-timer="running"' in html and 'data-running="yes"' in html
    game.ok("timer", {"action": "pause"})
    html = game.phone("Sam")
    assert 'data-timer="paused"' in html
    left = int(re.search(r'data-countdown="(\d+)"', html).group(1))
    assert 295 <= left <= 300
    game.ok("timer", {"action": "end"})
    assert 'data-timer="ended"' in game.tablet() and ">0:00<" in game.tablet()
    assert game.post("timer", {"action": "snooze"}).status_code == 400
    assert game.post("timer", {"action": "start"}, client=game.phones["Rob"]).status_code == 403
    game.open_vote()
    assert game.post("timer", {"action": "start"}).status_code == 409


# --------------------------------------------------------------------------- the vote


def test_the_vote_shows_slips_on_phones_and_the_panel_on_the_tablet(game):
    game.open_vote()
    assert 'data-phase="vote"' in game.tablet() and 'data-testid="vote-status"' in game.tablet()
    html = game.phone("Sam")
    # The slip is kept as it is while Sam makes up their mind (live updates leave it alone).
    slip = re.search(r'<section class="vote-slip"[^>]*>', html).group(0)
    assert 'data-step="choose"' in slip and "data-keep-choice" in slip
    assert 'data-testid="slip-Rob"' in html and 'data-testid="slip-Sam"' not in html
    assert game.post("vote").status_code == 409  # opened already


def test_the_settled_vote_moves_every_screen_to_the_reveal(game):
    game.vote_off("Nick")
    for html in (game.tablet(), game.phone("Rob"), game.phone("Nick")):
        assert 'data-phase="hands"' in html and 'data-testid="vote-counts"' in html
    assert "<strong>You</strong> score 0 this round" in game.phone("Nick")
    assert 'data-testid="enter-hand"' in game.phone("Rob")


def test_a_card_cut_at_a_tie_sends_the_player_off(game):
    game.open_vote()
    game.vote({"Rob": "Sam", "Sam": "Rob", "Nick": "Sam", "Emily": "Rob"})
    assert game.post("cut", {"name": "Sam"}).status_code == 303
    assert 'data-phase="hands"' in game.tablet()
    for name, hand in (("Rob", ROB), ("Nick", NICK), ("Emily", EMILY)):
        assert game.enter(name, (hand[0], hand[1])).status_code == 303


# --------------------------------------------------------------------------- hands


def test_hands_wait_for_the_vote(game):
    response = game.enter("Rob", ROB)
    assert response.status_code == 409 and "after the vote" in text(response)
    # The picker page sends a phone back to its seat until then.
    page = f"/t/{game.code}/games/1/tromplemond/seats/1/hand"
    assert game.phones["Rob"].get(page).status_code == 303


def test_phones_enter_hands_in_parallel_and_a_duplicate_card_shows_on_both(game):
    game.vote_off("Emily")
    page = text(game.phones["Sam"].get(f"/t/{game.code}/games/1/tromplemond/seats/2/hand"))
    assert page.count('type="checkbox"') == 52 and 'data-testid="public-JC"' in page
    assert game.enter("Sam", SAM).status_code == 303
    assert game.enter("Nick", NICK_SLIP).status_code == 303
    assert game.enter("Rob", ROB).status_code == 303
    for name in ("Sam", "Nick"):
        html = game.phone(name)
        assert "10♦ is in both Sam&#39;s and Nick&#39;s hands" in html
    assert 'data-testid="conflict"' not in game.phone("Rob")
    assert "10♦ is in both" in game.tablet()
    assert re.search(r'disabled\s+data-testid="confirm-round"', game.tablet())
    response = game.post("confirm")
    assert response.status_code == 409 and "10♦ is in both Sam" in text(response)
    assert game.record()["rounds"] == []
    # Nick puts it right: the conflict is gone everywhere, the scores are shown.
    assert game.enter("Nick", NICK).status_code == 303
    assert 'data-testid="conflict"' not in game.phone("Sam")
    html = game.tablet()
    assert 'data-testid="preview"' in html
    assert re.search(r'data-score="Rob">11<', html) and re.search(r'data-score="Sam">−9<', html)
    assert "26 own + 13 (half of Sam&#39;s 26) + 12 (half of Nick&#39;s 24)" in html
    game.confirm()
    assert game.record()["rounds"][0]["hands"]["Nick"] == {"public": ["J♥", "A♦"],
                                                           "secret": ["J♠", "A♠", "10♥"]}


@pytest.mark.parametrize(("picks", "message"), [
    ((["KH"], ["QH", "JD", "KS"]), "Pick 2 face-up cards (you picked 1)"),
    ((["KH", "10S"], ["QH", "JD"]), "Pick 3 face-down cards (you picked 2)"),
    ((["KH", "5S"], ["QH", "JD", "KS"]), "&#39;5S&#39; is not a card of the Tromplemond deck"),
    ((["KH", "10S"], ["QH", "KH", "KS"]), "K♥ is twice in Rob&#39;s hand"),
])
def test_a_bad_pick_is_refused_and_kept_on_the_picker(game, picks, message):
    game.vote_off("Emily")
    response = game.enter("Rob", picks)
    assert response.status_code == 400 and message in text(response)
    assert 'value="QH" checked' in text(response)
    assert game.draft().facts.get("hands", {}) == {}


def test_a_phone_enters_only_its_own_hand(game):
    game.vote_off("Emily")
    response = game.post("seats/2/hand", {"public": SAM[0], "secret": SAM[1]},
                         client=game.phones["Rob"])
    assert response.status_code == 403
    assert game.post("seats/2/hand", {"public": SAM[0], "secret": SAM[1]}).status_code == 403
    assert game.draft().facts.get("hands", {}) == {}


def test_the_voted_off_hand_is_optional_and_still_checked(game):
    game.vote_off("Emily")
    for name, hand in (("Rob", ROB), ("Sam", SAM), ("Nick", NICK)):
        game.enter(name, hand)
    assert 'data-testid="preview"' in game.tablet()
    # Emily's hand holds the fourth jack and the fourth ace: all adds up.
    assert game.enter("Emily", EMILY).status_code == 303
    assert 'data-testid="preview"' in game.tablet()
    # With a jack too many it does not.
    game.enter("Emily", (["2S", "3H"], ["JC", "AH", "JS"]))
    assert "J♠ is in both Nick&#39;s and Emily&#39;s hands" in game.phone("Emily")
    assert game.post("confirm").status_code == 409


def test_the_scorekeeper_enters_hands_the_quick_way_and_in_full(game):
    game.vote_off("Emily")
    page = text(game.keeper.get(f"/t/{game.code}/games/1/tromplemond/hands/1"))
    assert 'data-testid="quick-form"' in page and page.count('type="checkbox"') == 52
    game.quick("Rob", 26, 0, 1)
    game.quick("Sam", 26)
    game.ok("hands/3", {"how": "cards", "public": NICK[0], "secret": NICK[1]})
    html = game.tablet()
    assert "26 points, 0 J on show, 1 J in the back row" in html
    assert re.search(r'data-score="Rob">11<', html) and re.search(r'data-score="Nick">30<', html)
    page = text(game.keeper.get(f"/t/{game.code}/games/1/tromplemond/hands/3"))
    assert 'value="JH" checked' in page and 'value="10H" checked' in page
    game.ok("hands/3", {"how": "clear"})
    assert 'data-testid="preview"' not in game.tablet()
    assert "Waiting for Nick" in game.tablet()


@pytest.mark.parametrize(("form", "message"), [
    ({"how": "quick", "points": "27"}, "Rob&#39;s points must be even"),
    ({"how": "quick", "points": "48", "secret_jacks": "1"}, "cannot be worth 48 points"),
    ({"how": "quick", "points": "20", "public_jacks": "3"}, "jacks on show must be from 0 to 2"),
    ({"how": "magic"}, "Enter the cards, the quick form, or clear the hand"),
])
def test_a_bad_quick_hand_is_refused_with_the_rules_message(game, form, message):
    game.vote_off("Emily")
    response = game.post("hands/1", form)
    assert response.status_code == 400 and message in text(response)
    assert game.draft().facts.get("hands", {}) == {}


def test_only_the_scorekeeper_uses_the_tablet_hand_form(game):
    game.vote_off("Emily")
    response = game.post("hands/1", {"how": "quick", "points": "20"}, client=game.phones["Rob"])
    assert response.status_code == 403
    assert game.keeper.get(f"/t/{game.code}/games/1/tromplemond/hands/9").status_code == 404


# --------------------------------------------------------------------------- TROMP! and confirm


def test_tromp_calls_are_detected_ticked_and_paid_from_the_round_pot(game):
    game.vote_off("Emily")
    for name, hand in (("Rob", ROB), ("Sam", SAM), ("Nick", NICK)):
        game.enter(name, hand)
    html = game.tablet()
    assert 'data-testid="called-Nick"' in html and "Moyenne Tromplemond!" in html
    assert 'data-testid="called-Sam"' not in html  # no jack, no call
    assert 'data-testid="called-Rob"' not in html  # a Petit call wins nothing: no toggle
    assert "Your call: <strong>Petit Tromplemond!</strong>" in game.phone("Rob")
    assert "Your call: <strong>Moyenne Tromplemond!</strong>" in game.phone("Nick")
    game.ok("called", {"player": "Nick"})
    html = game.tablet()
    assert 'aria-pressed="true"' in html and 'data-won="Nick">+£0.50<' in html
    assert "to the kitty £1.50" in html
    response = game.post("called", {"player": "Sam"})
    assert response.status_code == 409 and "makes no TROMP! call" in text(response)
    assert game.post("called", {"player": "Emily"}).status_code == 409
    assert game.post("called", {"player": "Nick"}, client=game.phones["Nick"]).status_code == 403
    game.confirm()
    record = game.record()
    assert record["rounds"][0]["called"] == ["Nick"]
    result = replay(record)
    assert result["kitty"] == 150 and result["rounds"][0]["tromp"] == {"Nick": 50}
    assert "TROMP! kitty: £1.50" in game.scores()


def test_tromp_calls_and_the_dealer_error_send_the_state_they_want(game):
    # Sent twice (a double tap, a tap sent again after a lost answer), each stays as wanted.
    for _ in range(2):
        game.ok("forfeit", {"forfeit": "yes"})
    assert game.draft().facts.get("dealer_forfeit") is True
    game.ok("forfeit", {"forfeit": "no"})
    game.ok("forfeit", {"forfeit": "no"})
    assert game.draft().facts.get("dealer_forfeit") is None
    assert game.post("forfeit", {"forfeit": "maybe"}).status_code == 400
    game.vote_off("Emily")
    for name, hand in (("Rob", ROB), ("Sam", SAM), ("Nick", NICK)):
        game.enter(name, hand)
    html = game.tablet()
    assert '<input type="hidden" name="called" value="yes">' in html  # the form says it
    for _ in range(2):
        game.ok("called", {"player": "Nick", "called": "yes"})
    assert game.draft().facts["called"] == ["Nick"]
    game.ok("called", {"player": "Nick", "called": "no"})
    game.ok("called", {"player": "Nick", "called": "no"})
    assert not game.draft().facts.get("called")
    # A page drawn before the forms said their state turns it over, as it did.
    game.ok("called", {"player": "Nick"})
    assert game.draft().facts["called"] == ["Nick"]


def test_tromp_ticks_need_tromp_betting(actions):
    game = start(actions, tromp_stake="")
    game.vote_off("Emily")
    for name, hand in (("Rob", ROB), ("Sam", SAM), ("Nick", NICK)):
        game.enter(name, hand)
    assert 'data-testid="called-Nick"' not in game.tablet()
    response = game.post("called", {"player": "Nick"})
    assert response.status_code == 409 and "TROMP! betting is off" in text(response)


def test_confirm_is_the_scorekeepers_and_lands_once(game):
    game.vote_off("Emily")
    for name, hand in (("Rob", ROB), ("Sam", SAM), ("Nick", NICK)):
        game.enter(name, hand)
    assert game.post("confirm", client=game.phones["Rob"]).status_code == 403
    game.confirm()
    again = game.post("confirm", round_=1)
    assert again.status_code == 409 and "the table is on round 2" in text(again)
    assert len(game.record()["rounds"]) == 1
    html = game.tablet()
    assert "Round 2 of 8" in html and "<strong>Sam</strong> deals" in html


def test_confirm_waits_for_every_survivors_hand(game):
    assert game.post("confirm").status_code == 409
    game.vote_off("Emily")
    game.enter("Rob", ROB)
    response = game.post("confirm")
    assert response.status_code == 409 and "Waiting for Sam and Nick" in text(response)


def test_every_number_on_the_pages_is_replays(game):
    game.example_round()
    game.vote_off("Rob")
    game.quick("Sam", 30, 1, 0)
    game.quick("Nick", 20)
    game.quick("Emily", 12, 0, 2)
    game.ok("called", {"player": "Emily"})
    game.confirm()
    result = replay(game.record())
    assert totals_on(game.scores()) == result["totals"]
    assert totals_on(game.scores(game.phones["Sam"])) == result["totals"]
    html = game.scores()
    for number, done in enumerate(result["rounds"], 1):
        row = re.search(rf'<tr data-round="{number}"[^>]*>(.*?)</tr>', html, re.S).group(1)
        shown = [int(x.replace("\u2212", "-"))
                 for x in re.findall(r'class="score">([−-]?\d+)<', row)]
        assert shown == [done["scores"][p] for p in PLAYERS]
    for name, amount in result["money"].items():
        assert f'data-money="{name}">{"+" if amount > 0 else ""}' in html


# --------------------------------------------------------------------------- penalties


def test_cards_shown_early_send_the_offender_off_without_a_vote(game):
    game.open_vote()
    game.vote({"Rob": "Sam"})
    response = game.post("shown-early", {"player": "Nick"})
    assert response.status_code == 303
    with game.actions.app.app_context():
        table = db.session.scalar(queries.table_by_code(game.code))
        assert not vote_status(table.current_game, 0).opened  # the slips are gone
    html = game.tablet()
    assert 'data-phase="hands"' in html and "<strong>Nick</strong> showed cards early" in html
    for name, hand in (("Rob", ROB), ("Sam", SAM), ("Emily", EMILY)):
        game.enter(name, hand)
    game.confirm()
    rnd = game.record()["rounds"][0]
    assert rnd["shown_early"] == "Nick" and rnd["voted_off"] is None
    assert replay(game.record())["rounds"][0]["scores"]["Nick"] == 0


def test_cards_shown_early_can_be_taken_back_until_hands_are_entered(game):
    game.ok("shown-early", {"player": "Sam"})
    game.ok("shown-early", {"player": ""})
    assert game.phase() == "deal"
    game.ok("shown-early", {"player": "Sam"})
    game.enter("Rob", ROB)
    assert game.post("shown-early", {"player": ""}).status_code == 409


def test_cards_shown_after_the_vote_are_the_reveal(game):
    game.vote_off("Emily")
    response = game.post("shown-early", {"player": "Sam"})
    assert response.status_code == 409 and "cards shown now are the reveal" in text(response)
    assert game.post("shown-early", {"player": "Zed"}).status_code == 400
    assert game.draft().facts.get("shown_early") is None


def test_a_dealer_error_makes_the_dealers_round_score_zero(game):
    page = text(game.keeper.get(f"/t/{game.code}/games/1/tromplemond/penalties"))
    assert 'data-confirm="Rob scores 0 this round. Sure?"' in page
    game.ok("forfeit")
    game.vote_off("Emily")
    for name, hand in (("Rob", ROB), ("Sam", SAM), ("Nick", NICK)):
        game.enter(name, hand)
    assert "dealer forfeit" in game.tablet()
    game.confirm()
    assert game.record()["rounds"][0]["dealer_forfeit"] is True
    assert totals_on(game.scores()) == {"Rob": 0, "Sam": -9, "Nick": 30, "Emily": 0}


def test_shown_on_purpose_bans_the_player_and_gives_all_money_back(game):
    game.example_round()
    page = text(game.keeper.get(f"/t/{game.code}/games/1/tromplemond/penalties"))
    assert 'data-testid="banned-Sam"' in page and "data-confirm=" in page
    response = game.actions.post(f"/t/{game.code}/games/1/tromplemond/penalty",
                                 {"what": "banned", "player": "Sam"})
    assert response.status_code == 303
    assert game.record()["banned"] == "Sam"
    html = game.phone("Rob")
    assert 'data-phase="end"' in html and "Sam showed cards on purpose and is banned" in html
    assert 'data-money="Rob">£0.00<' in html
    assert "Nobody owes anybody anything." in html
    # A slip of the finger: it can be taken back while the game is open.
    game.actions.post(f"/t/{game.code}/games/1/tromplemond/penalty", {"what": "clear"})
    assert "banned" not in game.record() and game.phase() == "deal"


def test_void_game(game):
    game.actions.post(f"/t/{game.code}/games/1/tromplemond/penalty", {"what": "void"})
    assert game.record()["void"] is True
    html = game.tablet()
    assert "null and void" in html and 'data-testid="penalty-clear"' in html
    assert replay(game.record())["money"] == dict.fromkeys(PLAYERS, 0)


@pytest.mark.parametrize("form", [{"what": "banned", "player": "Zed"}, {"what": "fine"}])
def test_bad_penalties_change_nothing(game, form):
    response = game.actions.post(f"/t/{game.code}/games/1/tromplemond/penalty", form)
    assert response.status_code == 400
    record = game.record()
    assert "banned" not in record and "void" not in record


# --------------------------------------------------------------------------- past rounds


def test_a_past_round_is_corrected_and_everything_after_is_recomputed(game):
    game.example_round()
    game.vote_off("Rob")
    game.quick("Sam", 20)
    game.quick("Nick", 20)
    game.quick("Emily", 20, 1, 0)
    game.confirm()
    record = game.record()
    before = replay(record)["totals"]
    page = text(game.keeper.get(f"/t/{game.code}/games/1/rounds/1"))
    # The same picker as entering a hand, filled in; the round's scores explained.
    assert 'name="h1-public" value="KH" checked' in page and "26 own + 13" in page
    form = correction_form(record["rounds"][0], len(record["rounds"]))
    form["h2-how"], form["h2-points"] = "quick", "30"   # Sam's hand, the quick way
    form["h2-public_jacks"] = form["h2-secret_jacks"] = "0"
    # First the new scores beside the old ones; nothing is saved yet.
    preview = game.actions.post(f"/t/{game.code}/games/1/rounds/1", form | {"step": "preview"})
    assert preview.status_code == 200, text(preview)
    shown = text(preview)
    corrected = record | {"rounds": [correction_facts(game, form), record["rounds"][1]]}
    after = replay(corrected)["totals"]
    for name in PLAYERS:
        cell = re.search(rf'<td data-total="{name}">(.*?)</td>', shown).group(1)
        assert cell == f"{before[name]} → <strong>{after[name]}</strong>".replace("-", "−")
    assert 'data-testid="save-round"' in shown and game.record() == record
    # Saving goes back to the live page: a reload shows the table, not the form.
    response = game.actions.post(f"/t/{game.code}/games/1/rounds/1", form | {"step": "save"})
    assert response.status_code == 303 and response.headers["Location"].endswith(
        f"/t/{game.code}#scoreboard")
    assert 'data-testid="correct-form"' not in text(game.keeper.get(f"/t/{game.code}"))
    record = game.record()
    assert record["rounds"][0]["hands"]["Sam"] == {"points": 30, "public_jacks": 0,
                                                   "secret_jacks": 0}
    assert replay(record)["totals"] == after and totals_on(game.scores()) == after
    # Each phone whose total changed is told; Emily's did not change.
    assert before["Emily"] == after["Emily"]
    for name in PLAYERS:
        notice = re.search(r'data-testid="corrected">(.*?)</p>', game.phone(name), re.S)
        if before[name] == after[name]:
            assert notice is None
        else:
            words = " ".join(notice.group(1).split())
            assert words == (f"Round 1 was corrected: your total {before[name]} → "
                             f"<strong>{after[name]}</strong>.").replace("-", "−")
    # The notice goes with the next round.
    game.vote_off("Sam")
    for name in ("Rob", "Nick", "Emily"):
        game.quick(name, 10)
    game.confirm()
    assert 'data-testid="corrected"' not in game.phone("Sam")


def test_a_correction_the_rules_refuse_changes_nothing(game):
    game.example_round()
    record = game.record()
    form = correction_form(record["rounds"][0], 1)
    form["h3-secret"] = ["JS", "AS", "10D"]  # Nick gets Sam's 10♦
    response = game.actions.post(f"/t/{game.code}/games/1/rounds/1", form | {"step": "save"})
    assert response.status_code == 400
    assert "10♦ is in both Sam&#39;s and Nick&#39;s hands" in text(response)
    assert 'name="h3-secret" value="10D" checked' in text(response)
    assert game.record() == record
    form = correction_form(record["rounds"][0], 1) | {"rounds": "7"}
    assert game.actions.post(f"/t/{game.code}/games/1/rounds/1", form).status_code == 409
    assert game.keeper.get(f"/t/{game.code}/games/1/rounds/2").status_code == 404
    assert game.phones["Rob"].get(f"/t/{game.code}/games/1/rounds/1").status_code == 403


def test_undo_brings_the_last_round_back_as_it_was(game):
    game.example_round()
    record = game.record()
    scores = game.scores()
    assert 'data-testid="undo-round"' in scores and 'data-testid="correct-1"' in scores
    assert game.actions.post(f"/t/{game.code}/games/1/undo", {"rounds": "0"}).status_code == 409
    assert game.actions.post(f"/t/{game.code}/games/1/undo", {"rounds": "1"},
                             client=game.phones["Rob"]).status_code == 403
    assert game.actions.post(f"/t/{game.code}/games/1/undo", {"rounds": "1"}).status_code == 303
    assert game.record()["rounds"] == []
    html = game.tablet()
    assert 'data-phase="hands"' in html and 'data-testid="preview"' in html
    game.confirm()
    assert game.record() == record


def correction_facts(game, form: dict) -> dict:
    """The facts a correction form says (as the app reads them), for the expected totals."""
    from werkzeug.datastructures import MultiDict

    from companion.games.tromplemond.web.forms import read_round

    return read_round(MultiDict(form), list(PLAYERS), {})


def correction_form(facts: dict, rounds: int) -> dict:
    """The correction form as the page fills it in from a round's facts."""
    from companion.games.tromplemond.web.forms import codes_of

    form = {"rounds": str(rounds), "off": facts.get("shown_early") or facts["voted_off"]}
    for index, name in enumerate(PLAYERS, 1):
        hand = facts["hands"].get(name)
        if hand is None:
            form[f"h{index}-how"] = "none"
        elif "points" in hand:
            form[f"h{index}-how"] = "quick"
            for key in ("points", "public_jacks", "secret_jacks"):
                form[f"h{index}-{key}"] = str(hand.get(key, 0))
        else:
            form[f"h{index}-how"] = "cards"
            form[f"h{index}-public"] = codes_of(hand["public"])
            form[f"h{index}-secret"] = codes_of(hand["secret"])
        if name in facts.get("called", []):
            form[f"called-{index}"] = "on"
    if facts.get("shown_early"):
        form["shown_early"] = "on"
    if facts.get("dealer_forfeit"):
        form["dealer_forfeit"] = "on"
    return form


# --------------------------------------------------------------------------- permissions


@pytest.mark.parametrize(("tail", "data"), [
    ("timer", {"action": "start"}), ("vote", {}), ("shown-early", {"player": "Sam"}),
    ("forfeit", {}), ("called", {"player": "Rob"}), ("hands/1", {"how": "clear"}),
    ("confirm", {}), ("undo", {"rounds": "0"}), ("cut-winner", {"player": "Rob"}),
    ("penalty", {"what": "void"}), ("rounds/1", {}),
])
def test_a_phone_cannot_run_the_round(game, tail, data):
    before = game.actions.table(game.code).version
    response = game.post(tail, data, client=game.phones["Sam"])
    assert response.status_code == 403
    assert game.actions.table(game.code).version == before


def test_the_tablet_region_is_the_scorekeepers_and_phones_regions_are_public(game):
    assert game.phones["Sam"].get(f"/t/{game.code}/pulse",
                                  headers=HTMX).status_code == 403
    version = game.actions.table(game.code).version
    quiet = game.phones["Sam"].get(f"/t/{game.code}/seat/pulse?v={version}",
                                   headers=HTMX)
    assert quiet.status_code == 204
    plain = game.phones["Sam"].get(f"/t/{game.code}/seat/pulse")
    assert plain.status_code == 303 and plain.headers["Location"].endswith("/seat")


def test_a_game_closed_early_takes_no_more_taps(game):
    game.example_round()
    game.ok("forfeit")
    game.actions.post(f"/t/{game.code}/games/1/end")
    response = game.post("forfeit")
    assert response.status_code == 409 and "Game 1 is over" in text(response)
    html = game.tablet()
    assert 'data-phase="end"' in html and 'data-testid="closed-early"' in html
    assert 'data-testid="net-money"' not in html and totals_on(html)["Nick"] == 30
    assert game.keeper.get(f"/t/{game.code}/games/1/rounds/1").status_code == 409


# --------------------------------------------------------------------------- a whole game


def test_a_whole_game_of_eight_rounds_to_the_payout(game):
    from companion.rules import settle_up

    # Round 1, at the table: the checklists, the timer, the vote, the phones' hands.
    game.ok("tick", {"step": "deck:1"})
    game.post("tick", {"step": "deal:1", "from": "seat"}, client=game.phones["Rob"])
    game.ok("timer", {"action": "start"})
    game.open_vote()
    game.vote({"Rob": "Emily", "Sam": "Emily", "Nick": "Emily", "Emily": "Rob"})
    game.enter("Sam", SAM)
    game.enter("Nick", NICK_SLIP)  # the slip of the rules text: refused at the confirm
    game.enter("Rob", ROB)
    assert "10♦ is in both" in game.phone("Sam") and "10♦ is in both" in game.phone("Nick")
    assert game.post("confirm").status_code == 409
    game.enter("Nick", NICK)
    game.ok("called", {"player": "Nick"})
    game.confirm()
    # Rounds 2 to 8: the phones vote, the scorekeeper enters the hands the quick way.
    for number in range(2, 9):
        off = PLAYERS[number % 4]
        game.vote_off(off)
        for name in PLAYERS:
            if name == off:
                continue
            if number == 3 and name == "Sam":
                game.quick("Sam", 20, 0, 3)  # Super Tromplemond!
                game.ok("called", {"player": "Sam"})
            else:
                game.quick(name, 12 if name == "Rob" else 10)
        assert "Super Tromplemond!" not in game.tablet() or number == 3
        game.confirm()

    record = game.record()
    result = replay(record)
    assert len(record["rounds"]) == 8 and result["finished"] and result["winners"] == ["Sam"]
    end = result["rounds"][-1]["breakdown"]["end"]
    assert end["joining_fee"]["paid"] == {"Sam": 750, "Emily": 250}
    assert end["kitty"]["super"] == {"Sam": 337}
    transfers = settle_up(result["money"])
    tablet = game.tablet()
    assert 'data-phase="end"' in tablet and "Winner: <strong>Sam</strong>" in tablet
    # Why Sam won, in words: not "(rounds played)".
    assert '<span class="muted">(the most points after all 8 rounds)</span>' in tablet
    assert totals_on(tablet) == result["totals"]
    assert 'data-testid="fee-payout"' in tablet and "Joining-fee pot £10.00" in tablet
    assert "<td>£7.50</td>" in tablet and "<td>£2.50</td>" in tablet
    assert "TROMP! kitty at the end £13.50" in tablet and "<td>£3.37</td>" in tablet
    assert "best single round (31)" in tablet
    for payer, payee, amount in transfers:
        assert f"{payer} pays {payee} £{amount // 100}.{amount % 100:02d}" in tablet
    # The game's own transfers are its share: the evening's ledger settles.
    share = tablet.index("This game's share of the evening")
    assert share < tablet.index("the one place to settle up") < tablet.index(" pays ")
    assert f'<a href="/t/{game.code}/evenings/1" data-testid="game-ledger-link">' in tablet
    for name, amount in result["money"].items():
        sign = "+" if amount > 0 else "\u2212"
        assert f'data-money="{name}">{sign}£{abs(amount) // 100}.{abs(amount) % 100:02d}<' \
            in tablet
    # Where each player's money came from: the fees, the stakes, the pots, the kitty.
    header = re.search(r'data-testid="net-money">.*?<thead>(.*?)</thead>', tablet, re.S).group(1)
    assert re.findall(r'<th scope="col"[^>]*>([^<]+)</th>', header) == [
        "joining fee", "TROMP! stake", "round pot won", "fee payout", "kitty", "Net"]
    for name, amount in result["money"].items():
        row = re.search(rf'<tr[^>]*data-player="{name}">(.*?)</tr>', tablet.split(
            'data-testid="net-money"')[1], re.S).group(1)
        parts = [text.replace("\u2212", "-").replace("£", "").replace("+", "")
                 for text in re.findall(r'data-source="[^"]+">([^<]+)<', row)]
        assert sum(round(float(p) * 100) for p in parts) == amount
    # Every phone shows the end, its own lines picked out.
    for name in PLAYERS:
        html = game.phone(name)
        assert 'data-testid="end"' in html
        assert re.search(rf'<tr class="mine" data-player="{name}">', html)
        mine = re.findall(r'<tr class="mine" data-player="(\w+)">', html)
        assert set(mine) == {name}
    # No more rounds: the next one is refused.
    assert game.post("vote").status_code == 409
    # The record goes out and comes back the same.
    assert game.imported(record) == record


def test_a_game_won_at_its_target_says_why_in_words(actions):
    game = start(actions, rounds="3", target="20", joining_fee="1.00", tromp_stake="")
    game.vote_off("Emily")
    for name, points in (("Rob", 20), ("Sam", 10), ("Nick", 10)):
        game.quick(name, points)
    game.confirm()
    assert replay(game.record())["rounds"][-1]["breakdown"]["end"]["how"] == "target reached"
    html = game.tablet()
    assert "Winner: <strong>Rob</strong>" in html
    assert '<span class="muted">(the most points once someone reached 20)</span>' in html


def test_a_shared_top_plays_an_extra_round_then_a_card_cut(actions):
    game = start(actions, rounds="1", joining_fee="1.00", tromp_stake="")
    game.vote_off("Emily")
    for name in ("Rob", "Sam", "Nick"):
        game.quick(name, 20)
    game.confirm()
    html = game.tablet()
    assert "Extra round" in html and "tied for first: Rob, Sam, Nick" in html
    assert "<strong>Sam</strong> deals" in html
    game.vote_off("Emily")
    for name in ("Rob", "Sam", "Nick"):
        game.quick(name, 20)
    assert "Confirm extra round" in game.tablet()
    game.confirm()
    html = game.tablet()
    assert 'data-phase="cut"' in html and "Rob and Sam and Nick share the top total" in html
    assert 'data-testid="cut-due"' in game.phone("Emily")
    response = game.actions.post(f"/t/{game.code}/games/1/tromplemond/cut-winner",
                                 {"player": "Emily"})
    assert response.status_code == 400 and "between Rob, Sam and Nick" in text(response)
    assert game.actions.post(f"/t/{game.code}/games/1/tromplemond/cut-winner",
                             {"player": "Nick"}).status_code == 303
    assert game.record()["rounds"][-1]["cut_winner"] == "Nick"
    html = game.tablet()
    assert "Winner: <strong>Nick</strong>" in html and "(won the card cut to break a tie)" in html
    assert game.actions.post(f"/t/{game.code}/games/1/tromplemond/cut-winner",
                             {"player": "Nick"}).status_code == 409
    # The cut can be corrected on the round's page, like any other fact.
    page = text(game.keeper.get(f"/t/{game.code}/games/1/rounds/2"))
    assert 'data-testid="cut-winner"' in page and '<option value="Nick" selected>' in page


# --------------------------------------------------------------------------- at the same moment


def test_four_phones_entering_their_hands_in_the_same_instant_all_land(game):
    game.vote_off("Emily")
    hands = {"Rob": ROB, "Sam": SAM, "Nick": NICK, "Emily": EMILY}
    for phone in game.phones.values():
        game.actions.token(phone)  # fetched beforehand, so the four posts go out together
    answers = at_once(lambda name: game.enter(name, hands[name]).status_code, hands)
    assert answers == dict.fromkeys(PLAYERS, 303)
    assert list(game.draft().facts.get("hands", {})) == list(PLAYERS)
    assert 'data-testid="preview"' in game.tablet()


def test_a_double_tap_on_confirm_appends_the_round_once(game):
    game.vote_off("Emily")
    for name, hand in (("Rob", ROB), ("Sam", SAM), ("Nick", NICK)):
        game.enter(name, hand)
    answers = at_once(lambda _: game.post("confirm", round_=1).status_code, range(2))
    assert sorted(answers.values()) == [303, 409]
    assert len(game.record()["rounds"]) == 1


def test_the_rules_help_marks_the_house_decisions(game):
    assert 'data-testid="rules-link"' in game.phone("Sam")
    page = text(game.phones["Sam"].get(f"/rules/tromplemond?back=/t/{game.code}/seat"))
    # The rules text (companion/games/tromplemond/texts/en.md), every house decision badged as one.
    assert page.count('<strong class="house"') >= 3 and "Grand Tromplemond!" in page
    assert "(house)" not in page
    assert f'href="/t/{game.code}/seat"' in page
    assert 'href="https://evil.example"' not in text(
        game.phones["Sam"].get("/rules/tromplemond?back=https://evil.example"))


def test_no_round_screen_shows_a_count_before_the_last_slip(game):
    game.open_vote()
    urls = ["/pulse", "/games/1/pulse", ""]
    for voter, target in (("Rob", "Emily"), ("Sam", "Nick"), ("Nick", "Emily")):
        game.vote({voter: target})
        screens = [game.tablet(), text(game.keeper.get(f"/t/{game.code}"))]
        for name, phone in game.phones.items():
            screens += [game.phone(name), text(phone.get(f"/t/{game.code}/seat"))]
        screens += [text(game.keeper.get(f"/t/{game.code}{url}", headers=HTMX)) for url in urls]
        for body in screens:
            assert "data-count=" not in body and "vote-counts" not in body
            assert "Emily</strong> is off" not in body
    game.vote({"Emily": "Nick"})
    assert 'data-count="2"' in game.phone("Rob")
