"""Tremp through the pages: bidding on the phones, trump and tremp, the tricks and the trick
counter, the trick judge, match and game totals, undo, corrections, the record.

Four phones and the scorekeeper's tablet, each its own test client. Every
number a page shows is checked against the rules: ``replay`` of the game's
record.json (and the rules' helpers), written as the ``number`` filter writes it.
"""

from __future__ import annotations

import html as html_lib
import json
import re
from urllib.parse import urlencode

import pytest

from companion.extensions import db
from companion.games.tremp import rules
from companion.store import queries
from companion.store import rounds as round_store
from companion.web.filters import number
from tests.web.tables import HTMX, GameAtTable

pytestmark = pytest.mark.db

PLAYERS = ("Rob", "Sam", "Nick", "Emily")
A, B = "Rob & Nick", "Sam & Emily"
CODES = [f"{rank}{suit}" for suit in "SHDC"
         for rank in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")]

# The example of docs/records.md: Rob deals; Sam 5♥, Nick passes, Emily K♠, three passes.
EXAMPLE = ["5H", "pass", "KS", "pass", "pass", "pass"]


def esc(name: str) -> str:
    """A team's name as an HTML attribute holds it."""
    return html_lib.escape(name)


def text(response) -> str:
    return response.get_data(as_text=True)


def message(response) -> str:
    """The refusal a page or a region shows."""
    page = html_lib.unescape(text(response))
    found = re.search(r'id="error-message">([^<]*)<', page) or re.search(
        r'data-testid="error">([^<]*)<', page) or re.search(r"</strong> ([^<]*)\s*<a", page)
    assert found, page[:2000]
    return found.group(1).strip()


class Table(GameAtTable):
    """A Tremp game at a table: the tablet (``actions.keeper``) and the phones by name."""

    GAME = "tremp"
    OK = (200, 303)

    def __init__(self, actions, code: str, phones: dict) -> None:
        super().__init__(actions, code, phones, PLAYERS)

    # --- reading

    def result(self) -> dict:
        return rules.replay(self.record())

    def bids(self) -> list:
        return list(self.facts().get("bids") or [])

    def turn(self) -> str:
        return re.search(r'data-turn="([^"]*)"', self.tablet()).group(1)

    # --- doing

    def post(self, tail: str, data: dict | None = None, *, hand=None, **kwargs):
        """POST to the hand's action (this hand, or ``hand``)."""
        return super().post(tail, data, round_=hand, **kwargs)

    def say(self, player: str, what: str, *, by_tablet: bool = False, **kwargs):
        """``player`` displays a card (a picker code) or passes, from their phone by default."""
        position = PLAYERS.index(player) + 1
        data = {"moment": str(len(self.bids())), "bid": "pass" if what == "pass" else "display"}
        if what != "pass":
            data["card"] = what
        phone = None if by_tablet or player not in self.phones else self.phones[player]
        if phone is not None:
            data["from"] = "seat"
        return self.post(f"seats/{position}/bid", data, client=phone, **kwargs)

    def bidding(self, words) -> None:
        """The bids in turn from whoever's turn it is: each from its player's phone."""
        for word in words:
            player = self.turn()
            response = self.say(player, word)
            assert response.status_code == 303, text(response)

    def tricks(self, n: int, client=None):
        data = {"tricks": str(n)}
        if client is not None:
            data["from"] = "seat"
        return self.post("tricks", data, client=client)

    def play(self, words, tricks: int) -> None:
        """A whole hand: the bids, the tricks from the tablet, the confirm."""
        self.bidding(words)
        assert self.tricks(tricks).status_code == 303
        self.confirm()


def start(actions, *, seated=PLAYERS, beginners=False, dealer=1) -> Table:
    code = actions.create_table(game="tremp", dealer=dealer)
    phones = {}
    for position, name in enumerate(PLAYERS, 1):
        if name in seated:
            phone, response = actions.claim(code, position)
            assert response.status_code == 303
            phones[name] = phone
    form = {"beginners": "on"} if beginners else {}
    response = actions.post(f"/t/{code}/start", form)
    assert response.status_code == 303, text(response)
    return Table(actions, code, phones)


@pytest.fixture
def game(actions) -> Table:
    """A Tremp game, Rob dealing first, a phone in every seat."""
    return start(actions)


def displays(n: int, first: int = 0) -> list[str]:
    """``n`` displayed cards in turn (different cards), then the three passes that end it."""
    return CODES[first:first + n] + ["pass"] * 3


# --------------------------------------------------------------------------- setting up


def test_tremp_is_for_exactly_four_seats(actions):
    form = text(actions.keeper.get("/new?game=tremp"))
    assert "Tremp (4 players)" in form
    code = actions.create_table(game="tremp")
    actions.seat_everyone(code)
    page = text(actions.keeper.get(f"/t/{code}/start"))
    assert 'data-testid="beginners"' in page and "every match to 136" in page
    # The teams by their players' names, not by seat numbers.
    assert ("Partners sit opposite: Rob &amp; Nick against Sam &amp; Emily. A full 52-card "
            "deck.") in page and "seats 1 & 3" not in page
    unnamed = actions.create_table(game="tremp", players=[None] * 4, phone_names=True)
    page = text(actions.keeper.get(f"/t/{unnamed}/start"))
    assert "Partners sit opposite: seats 1 & 3 against seats 2 & 4." in page
    response = actions.post("/new", {"name": "Three", "game": "tremp", "seats": "3",
                                     "player": ["A", "B", "C"], "dealer": "1"})
    assert response.status_code == 400 and "Tremp is for 4 players, not 3" in text(response)


def test_a_game_starts_with_the_options_of_the_record(actions):
    game = start(actions)
    assert game.record()["options"] == {}  # the rules' default: not beginners
    beginners = start(actions, beginners=True)
    assert beginners.record()["options"] == {"beginners": True}
    scores = beginners.scores()
    assert f'data-match="{esc(A)}">0 <small class="muted">of 136<' in scores
    assert "beginners: every match to 136" in scores


def test_every_screen_names_the_teams_the_dealer_and_the_dealing_steps(game):
    tablet = game.tablet()
    assert game.phase(tablet) == "bidding"
    assert "<strong>Rob</strong> deals" in tablet
    assert "Partners sit opposite: Rob &amp; Nick against Sam &amp; Emily" in tablet
    assert ("Rob shuffles and deals all 52 cards one at a time, clockwise, starting with Sam: "
            "13 each.") in tablet
    assert "Bidding starts at \u22124 with Sam" in tablet  # one minus sign everywhere
    for name in PLAYERS:
        page = game.phone(name)
        assert "Rob</strong> deals" in page and 'data-testid="deal-steps"' in page
    scores = game.scores(game.phones["Sam"])
    assert f'data-team="{esc(B)}"' in scores and "you</small>" in scores
    assert f'data-match="{esc(A)}">0 <small class="muted">of 272<' in scores


def test_the_dealers_phone_ticks_a_dealing_step_for_every_screen(game):
    """Rob deals: his phone has the checklists open with buttons; another phone has them
    folded, the dealing steps without buttons, and its tick of one is refused."""
    rob, nick = game.phone("Rob"), game.phone("Nick")
    assert re.search(r'data-testid="deal-steps" open data-mine="yes"', rob)
    assert re.search(r'data-testid="deal-steps" data-mine="no"', nick)
    assert 'data-testid="tick-deal-0"' not in nick and "Rob ticks these" in nick
    refused = game.post("tick", {"step": "deal:0", "from": "seat"}, client=game.phones["Nick"])
    assert refused.status_code == 403 and "only Rob&#39;s phone or the scorekeeper" in text(refused)
    game.ok("tick", {"step": "deal:0", "from": "seat"}, client=game.phones["Rob"])
    assert 'data-step="deal:0" data-done="yes"' in game.phone("Emily")
    assert 'data-step="deal:0" data-done="yes"' in game.tablet()
    game.ok("tick", {"step": "deal:1"})  # the tablet ticks any step


# --------------------------------------------------------------------------- the bidding


def test_the_phone_whose_turn_it_is_gets_the_picker_and_the_others_watch(game):
    sam = game.phone("Sam")
    assert "Your turn to bid" in sam and 'data-testid="bid-form"' in sam
    assert sam.count('type="radio" name="card"') == 52
    assert "data-keep-choice" in sam  # a card being picked survives the live updates
    assert re.search(r'data-testid="pick-count">.*0.*of 1', sam, re.S)
    for name in ("Rob", "Nick", "Emily"):
        page = game.phone(name)
        assert "Sam's turn to bid" in page and 'data-testid="bid-form"' not in page
    tablet = game.tablet()
    assert "Sam bids on their phone" in tablet and 'data-testid="bid-for"' in tablet


def test_a_displayed_card_raises_the_bid_and_names_trump_and_tremp_on_every_screen(game):
    assert 'data-bid="-4"' in game.tablet() and "\u22124" in game.tablet()
    assert game.say("Sam", "5H").status_code == 303
    for page in (game.tablet(), *(game.phone(n) for n in PLAYERS)):
        assert 'data-bid="-3" data-bidder="Sam" data-trump="♥" data-tremp="♦"' in page
        assert 'data-testid="shown-Sam" data-cards="5♥"' in page
        assert 'data-turn="Nick"' in page
    game.bidding(["pass", "KS", "pass", "7D"])
    page = game.phone("Rob")
    assert 'data-bid="-1" data-bidder="Sam" data-trump="♦" data-tremp="♥"' in page
    # Each player's cards, left to right in the order displayed.
    assert 'data-testid="shown-Sam" data-cards="5♥ 7♦"' in page
    assert 'data-testid="shown-Emily" data-cards="K♠"' in page
    assert 'data-testid="shown-Rob" data-cards=""' in page
    assert game.bids() == [["Sam", "5♥"], ["Nick", "pass"], ["Emily", "K♠"], ["Rob", "pass"],
                           ["Sam", "7♦"]]
    assert 'value="5H" disabled' in game.phone("Nick")  # displayed cards are out of the picker


def test_three_passes_after_a_bid_end_the_bidding_and_the_record_keeps_the_order(game):
    game.bidding(EXAMPLE)
    for page in (game.tablet(), game.phone("Rob"), game.phone("Sam")):
        assert game.phase(page) == "play"
        assert 'data-bid="-2" data-bidder="Emily" data-trump="♠" data-tremp="♣"' in page
    assert "your team needs 0 tricks" in game.phone("Sam")
    assert "Sam &amp; Emily need 0 tricks" in game.phone("Rob")
    assert game.tricks(9).status_code == 303
    game.confirm()
    assert game.record()["rounds"] == [{"bids": [
        ["Sam", "5♥"], ["Nick", "pass"], ["Emily", "K♠"], ["Rob", "pass"], ["Sam", "pass"],
        ["Nick", "pass"]], "tricks": 9}]


def test_an_action_out_of_turn_is_refused_and_changes_nothing(game):
    response = game.say("Nick", "pass")
    assert response.status_code == 409
    assert message(response) == "It is Sam's turn to bid, not yours."
    response = game.say("Nick", "pass", by_tablet=True)
    assert response.status_code == 409
    assert message(response) == "It is Sam's turn to bid, not Nick's."
    assert game.bids() == []


def test_a_card_already_displayed_by_anyone_is_refused(game):
    game.bidding(["5H", "pass"])
    response = game.say("Emily", "5H")
    assert response.status_code == 409
    assert message(response) == "5♥ is already displayed by Sam: pick another card."
    assert game.bids() == [["Sam", "5♥"], ["Nick", "pass"]]


MOVED_ON = "The bidding moved on a moment ago: look again, then tap."


@pytest.mark.parametrize(("data", "status", "said"), [
    ({"bid": "display"}, 400, "Pick the card you display first, then tap Display."),
    ({"bid": "display", "card": "1S"}, 400, "'1S' is not a card of a 52-card deck."),
    ({"bid": "display", "card": "PS"}, 400, "'PS' is not a card of a 52-card deck."),
    ({"bid": "raise"}, 400, "Display a card or pass."),
    ({"bid": "pass", "moment": "x"}, 409, MOVED_ON),
    ({"bid": "pass", "moment": "3"}, 409, MOVED_ON),
])
def test_bad_bids_are_refused_with_a_message(game, data, status, said):
    form = {"moment": "0", "from": "seat", **data}
    response = game.post("seats/2/bid", form, client=game.phones["Sam"])
    assert response.status_code == status and message(response) == said
    assert game.bids() == []


def test_a_phone_bids_only_for_its_own_seat_and_strangers_not_at_all(game):
    response = game.post("seats/3/bid", {"moment": "0", "bid": "pass", "from": "seat"},
                         client=game.phones["Sam"])
    assert response.status_code == 403 and "a phone acts only for its own seat" in text(response)
    stranger = game.actions.phone()
    assert game.post("seats/2/bid", {"moment": "0", "bid": "pass"},
                     client=stranger).status_code == 403
    assert game.post("seats/9/bid", {"moment": "0", "bid": "pass"}).status_code == 404
    assert game.bids() == []


def test_a_phone_without_javascript_does_not_reload_while_it_picks_its_card(game):
    sam = text(game.phones["Sam"].get(f"/t/{game.code}/seat"))
    assert 'http-equiv="refresh"' not in sam  # Sam is picking
    assert 'http-equiv="refresh"' in text(game.phones["Nick"].get(f"/t/{game.code}/seat"))


def test_a_tap_for_another_hand_is_refused(game):
    response = game.say("Sam", "pass", hand=2)
    assert response.status_code == 409 and "the table is on hand 1" in text(response)


def test_a_refusal_comes_back_where_the_player_looks_and_stays_live(game):
    response = game.say("Nick", "pass", htmx=True)
    assert response.status_code == 409
    region = text(response)
    assert region.lstrip().startswith("<section") and 'id="round"' in region
    assert 'data-testid="error">It is Sam&#39;s turn to bid, not yours.<' in region
    assert "data-version=" in region  # the page's pulse keeps refreshing it
    assert game.say("Sam", "pass", htmx=True).status_code == 200


def test_the_tablet_bids_for_a_player_without_a_phone(actions):
    game = start(actions, seated=("Rob", "Sam", "Nick"))
    game.bidding(["5H", "pass"])
    tablet = game.tablet()
    assert "Emily has no phone" in tablet and 'data-testid="bid-for"' not in tablet
    assert game.say("Emily", "KS").status_code == 303
    assert game.bids()[-1] == ["Emily", "K♠"]


def test_the_dealer_must_bid_when_the_first_three_pass_and_their_phone_says_so(game):
    game.bidding(["pass", "pass", "pass"])
    rob = game.phone("Rob")
    assert "You must bid (house rule)" in rob
    assert ("Sam, Nick and Emily passed, so you, the dealer, <strong>must display a card"
            "</strong> (house rule).") in rob
    assert re.search(r'value="pass" disabled[^>]*data-testid="pass"', rob)
    assert "Rob, the dealer, <strong>must display a card" in game.phone("Sam")
    assert "Rob, the dealer, <strong>must display a card" in game.tablet()
    response = game.say("Rob", "pass")
    assert response.status_code == 409
    assert message(response) == ("Sam, Nick and Emily passed: Rob, the dealer, must bid "
                                 "(house rule). Display a card.")
    game.bidding(["2C", "pass", "pass", "pass"])
    assert game.phase() == "play" and 'data-bid="-3" data-bidder="Rob"' in game.tablet()


def test_the_tablet_undoes_the_last_bid(game):
    game.bidding(["5H", "pass", "KS"])
    tablet = game.tablet()
    assert "Undo Emily's <span class=\"card black\">K♠</span>" in tablet
    game.ok("bids/undo", {"moment": "3"})
    assert game.bids() == [["Sam", "5♥"], ["Nick", "pass"]] and game.turn() == "Emily"
    response = game.post("bids/undo", {"moment": "3"})  # a second tap on the old screen
    assert response.status_code == 409 and game.bids() == [["Sam", "5♥"], ["Nick", "pass"]]
    assert game.post("bids/undo", {"moment": "2"}, client=game.phones["Sam"]).status_code == 403
    assert game.post("bids/undo", {}).status_code == 400
    game.ok("bids/undo", {"moment": "2"})
    game.ok("bids/undo", {"moment": "1"})
    response = game.post("bids/undo", {"moment": "0"})
    assert response.status_code == 409 and message(response) == "No one has bid in this hand yet."


def test_undoing_the_last_pass_opens_the_bidding_again_and_clears_the_tricks(game):
    game.bidding(EXAMPLE)
    assert game.tricks(5).status_code == 303 and game.phase() == "score"
    assert 'data-confirm="Undo Nick\'s pass?' in game.tablet()
    game.ok("bids/undo", {"moment": "6"})
    assert game.phase() == "bidding" and game.turn() == "Nick"
    assert "tricks" not in game.draft().facts


def test_bids_after_the_bidding_are_refused(game):
    game.bidding(EXAMPLE)
    response = game.say("Emily", "AS", by_tablet=True)
    assert response.status_code == 409
    assert message(response) == "The bidding is over: Emily won it at \u22122, trump ♠."


def test_a_player_displays_at_most_thirteen_cards(game):
    # Sam and Rob take turns displaying while Nick and Emily pass: 13 cards each.
    cards = iter(CODES)
    for _ in range(13):
        game.bidding([next(cards), "pass", "pass", next(cards)])
    response = game.say("Sam", next(cards))
    assert response.status_code == 409
    assert message(response) == "Hand 1: Sam has displayed 14 cards but holds only 13."
    assert len(game.bids()) == 52


# --------------------------------------------------------------------------- the tricks


def test_the_tablet_or_either_bidder_enters_the_tricks_and_no_one_else(game):
    game.bidding(EXAMPLE)
    assert 'data-testid="tricks-form"' in game.phone("Sam")
    assert 'data-testid="tricks-form"' not in game.phone("Rob")
    assert "the scorekeeper, Sam or Emily enter the tricks" in game.phone("Nick")
    response = game.tricks(9, client=game.phones["Rob"])
    assert response.status_code == 403
    assert message(response) == ("Only Sam or Emily (who won the bid) or the scorekeeper enter "
                                 "the tricks.")
    assert game.tricks(9, client=game.phones["Sam"]).status_code == 303
    assert game.draft().facts["tricks"] == 9
    assert game.tricks(8, client=game.phones["Emily"]).status_code == 303
    assert game.tricks(7).status_code == 303 and game.draft().facts["tricks"] == 7
    assert 'aria-pressed="true" data-testid="tricks-7"' in game.tablet()


@pytest.mark.parametrize(("value", "said"), [
    ("14", "The tricks taken by Sam & Emily must be from 0 to 13, not 14."),
    ("", "The tricks taken by Sam & Emily must be a whole number."),
    ("-1", "The tricks taken by Sam & Emily must be a whole number."),
])
def test_bad_tricks_are_refused(game, value, said):
    game.bidding(EXAMPLE)
    response = game.post("tricks", {"tricks": value})
    assert response.status_code == 400 and message(response) == said
    assert "tricks" not in game.draft().facts


def test_tricks_wait_for_the_end_of_the_bidding(game):
    response = game.tricks(5)
    assert response.status_code == 409
    assert message(response) == "The bidding is not over yet: it is Sam's turn."
    assert game.post("confirm").status_code == 409
    game.bidding(EXAMPLE)
    response = game.post("confirm")
    assert response.status_code == 409 and "Enter the tricks taken by Sam &amp; Emily" in text(
        response)


def test_the_hand_breakdown_shows_the_formula_with_fractions_exactly(game):
    game.bidding(EXAMPLE)
    game.tricks(9)
    for page in (game.tablet(), game.phone("Rob"), game.phone("Emily")):
        assert game.phase(page) == "score"
        points = re.sub(r"<[^>]+>", "", re.search(
            r'data-testid="points-line">(.*?)</span>\.', page, re.S).group(1))
        assert " ".join(points.split()) == (
            "Sam & Emily made \u22122 with 9 tricks: +P(\u22122) = ¼ match, "
            "+P(22) = 4194304 game").replace("&", "&amp;")
    assert 'data-testid="confirm-hand"' in game.tablet()
    assert "The scorekeeper confirms the hand." in game.phone("Rob")


def test_a_failed_bid_gives_the_opponents_their_points(game):
    # Bid 8: twelve displays in turn from Sam; Rob's is the last. 4 tricks: failed.
    game.bidding(displays(12))
    assert 'data-bid="8" data-bidder="Rob"' in game.tablet()
    game.tricks(4)
    page = game.tablet()
    points = " ".join(re.sub(r"<[^>]+>", "", re.search(
        r'data-testid="points-line">(.*?)</span>\.', page, re.S).group(1)).split())
    assert points == ("Rob &amp; Nick failed 8 with 4 tricks; Sam &amp; Emily took 9: "
                      "+P(7) = 128 game, +P(6) = 64 match")
    assert 'data-made="no"' in page
    game.confirm()
    result = game.result()
    assert result["totals"] == {A: 0, B: 128} and result["match"] == {A: 0, B: 64}


# --------------------------------------------------------------------------- the trick counter


WINNERS = ["Rob", "Rob", "Sam", "Emily", "Nick", "Nick", "Nick", "Sam", "Rob", "Emily", "Rob",
           "Sam", "Nick"]


def at(game, taps):
    """The moment of a hand after its bidding: the bids said, and ``taps`` tricks counted."""
    return str(len(game.bids()) + int(taps))


def tap(game, player, taps=None, **kwargs):
    data = {"winner": str(PLAYERS.index(player) + 1),
            "moment": at(game, len(game.draft().facts.get("trick_taps") or []) if taps is None
                         else taps)}
    return game.post("counter", data, **kwargs)


def test_the_trick_counter_gives_the_tricks_after_thirteen_taps(game):
    game.bidding(EXAMPLE)
    tablet = game.tablet()
    assert 'data-testid="counter" data-played="0"' in tablet
    assert "Trick <strong>1</strong> of 13: who won it? <span class=\"muted\">Rob leads." in tablet
    for k, winner in enumerate(WINNERS, 1):
        assert tap(game, winner).status_code == 303
        if k < 13:
            assert game.phase() == "play"
    tablet = game.tablet()
    assert game.phase(tablet) == "score"
    assert game.draft().facts["tricks"] == 5  # Sam & Emily: 5 of the 13
    assert 'data-testid="counted">5<' in tablet
    assert f'data-tally="{esc(A)}">8<' in tablet and f'data-tally="{esc(B)}">5<' in tablet
    game.confirm()
    assert game.record()["rounds"][0] == {"bids": game.record()["rounds"][0]["bids"],
                                          "tricks": 5}  # the taps stay out of the record


def test_the_counter_refuses_a_double_tap_a_fourteenth_and_phones(game):
    game.bidding(EXAMPLE)
    assert tap(game, "Sam", taps=0).status_code == 303
    response = tap(game, "Sam", taps=0)  # the same tap again
    assert response.status_code == 409
    assert message(response) == ("Another tap got there first. That trick was counted a moment "
                                 "ago: look again, then tap.")
    assert game.draft().facts["trick_taps"] == ["Sam"]
    assert tap(game, "Sam", client=game.phones["Sam"]).status_code == 403
    assert game.post("counter", {"winner": "5", "moment": at(game, 1)}).status_code == 400
    assert game.post("counter", {"winner": "1"}).status_code == 400
    for winner in WINNERS[1:]:
        tap(game, winner)
    response = tap(game, "Rob")
    assert response.status_code == 409
    assert message(response) == "All 13 tricks are counted. Undo a tap to change one."


def test_undoing_a_tap_takes_back_the_tricks_it_set_but_not_those_entered(game):
    game.bidding(EXAMPLE)
    for winner in WINNERS:
        tap(game, winner)
    game.ok("counter/undo", {"moment": at(game, 13)})
    assert game.phase() == "play" and "tricks" not in game.draft().facts
    assert game.post("counter/undo", {"moment": at(game, 13)}).status_code == 409
    tap(game, "Sam")  # now Sam & Emily took 6
    assert game.draft().facts["tricks"] == 6
    game.tricks(7)  # the scorekeeper knows better
    tablet = game.tablet()
    assert "The trick counter says Sam &amp; Emily took 6; 7 entered." in tablet
    game.ok("counter/undo", {"moment": at(game, 13)})
    assert game.draft().facts["tricks"] == 7 and game.phase() == "score"
    for _ in range(12):
        game.ok("counter/undo", {"moment": at(game, len(game.draft().facts["trick_taps"]))})
    response = game.post("counter/undo", {"moment": at(game, 0)})
    assert response.status_code == 409 and message(response) == "No trick has been counted yet."


def test_the_counter_waits_for_the_end_of_the_bidding(game):
    response = tap(game, "Rob", taps=0)
    assert response.status_code == 409 and "it is Sam's turn" in message(response)
    assert game.post("counter/undo", {"moment": at(game, 0)}).status_code == 409


# --------------------------------------------------------------------------- the trick judge


def judge(game, client=None, **query):
    url = f"/t/{game.code}/games/1/tremp/judge"
    if query:
        url += "?" + urlencode(query)
    return (client or game.keeper).get(url)


def test_the_judge_names_the_winner_and_the_rule_on_the_tablet_and_any_phone(game):
    assert 'data-testid="judge-link"' in game.tablet() and 'data-testid="judge-link"' in game.phone(
        "Nick")
    for client in (game.keeper, game.phones["Nick"]):
        response = judge(game, client, cards="KH AH 2S 3S", trump="C")
        page = html_lib.unescape(text(response))
        assert response.status_code == 200
        assert 'data-index="1"' in page and 'data-reason="ace_over_king"' in page
        assert "A♥ beats K♥: an ace beats the king of its suit" in page
        assert "(condition 4)" in page


@pytest.mark.parametrize(("cards", "trump", "index", "why"), [
    ("KS AS 2D 3H", "H", 3, "3♥ beats A♠: trump beats any other suit"),
    ("5S 2C 9H 4H", "S", 2, "9♥ beats 2♣: any other suit beats tremp"),
])
def test_the_judge_follows_the_worked_lines_of_the_rules(game, cards, trump, index, why):
    page = html_lib.unescape(text(judge(game, cards=cards, trump=trump)))
    assert f'data-index="{index}"' in page and why in page
    expected = rules.trick_winner(cards.split(), trump)
    for line in expected.explanation:
        assert line in page
    assert expected.index == index


def test_the_judge_takes_the_hands_trump_and_names_who_played(game):
    page = text(judge(game, cards="KS AS"))
    assert 'data-testid="judge-pick-trump"' in page  # no trump yet in the bidding
    assert "2 of 4" in page
    game.bidding(EXAMPLE)  # trump ♠; Rob leads the first trick (left of Emily)
    page = html_lib.unescape(text(judge(game, cards="KS AS 2D 3H")))
    assert 'data-trump="♠"' in page and "(this hand's)" in page
    assert 'data-winner="Sam"' in page and "Sam</strong> takes the trick" in page
    assert "A♠ beats K♠: an ace beats the king of its suit" in page
    page = html_lib.unescape(text(judge(game, cards="KS AS 2D 3H", lead="Nick")))
    assert 'data-winner="Emily"' in page
    # The picker's tiles add a card to the trick (links, no JavaScript needed).
    page = html_lib.unescape(text(judge(game, cards="KS")))
    assert "cards=KS+AS" in page and "1 of 4" in page
    # Anyone with the table's link may ask; the judge goes back to the score page.
    stranger = game.actions.phone()
    page = text(judge(game, stranger, cards="KS AS 2D 3H"))
    assert f'href="/t/{game.code}/games/1" data-testid="judge-done"' in page


def test_the_tablet_counts_the_judged_trick_in_one_tap(game):
    game.bidding(EXAMPLE)
    page = text(judge(game, cards="KS AS 2D 3H"))
    assert 'data-testid="judge-count"' in page and "Count it: Sam won trick 1" in page
    assert 'data-testid="judge-count"' not in text(judge(game, game.phones["Sam"],
                                                         cards="KS AS 2D 3H"))
    response = game.post("counter", {"winner": "2", "moment": at(game, 0)})
    assert response.status_code == 303 and response.headers["Location"].endswith("#round")
    assert game.draft().facts["trick_taps"] == ["Sam"]


@pytest.mark.parametrize(("query", "said"), [
    ({"cards": "KS XX"}, "'XX' is not a card of a 52-card deck."),
    ({"cards": "KS KS"}, "K♠ is already in the trick."),
    ({"cards": "KS AS 2D 3H 4H"}, "A trick is 4 cards, one from each player."),
    ({"cards": "KS", "trump": "stars"}, "Trump is one of ♠ ♥ ♦ ♣."),
    ({"cards": "KS", "lead": "Bob"}, "'Bob' is not a player at this table."),
])
def test_the_judge_refuses_a_trick_that_cannot_be(game, query, said):
    response = judge(game, **query)
    assert response.status_code == 400 and message(response) == said


# --------------------------------------------------------------------------- matches and the game


def test_a_match_won_at_272_moves_to_the_game_total_and_the_losers_deal_next(game):
    # Hand 1, Rob deals: 13 displays in turn from Sam; Sam's is the 13th: bid 9, made with 9.
    game.play(displays(13), 9)
    result = game.result()
    assert result["matches"] == {A: 0, B: 1} and result["match"] == {A: 0, B: 0}
    assert result["totals"] == {A: 0, B: 512 + 1}
    # The deal would pass to Sam (the winners'): it goes on to Nick, on the losing team.
    tablet = game.tablet()
    assert "<strong>Nick</strong> deals" in tablet
    won = re.search(r'<p class="notice info match-won"[^>]*>(.*?)</p>', tablet, re.S).group(0)
    assert f'data-team="{esc(B)}" data-threshold="272"' in won
    assert "win the match at 272: 512 match points go to their game total." in won
    for name in PLAYERS:
        assert 'data-testid="match-won"' in game.phone(name)
    scores = game.scores()
    assert f'data-match="{esc(A)}">0 <small class="muted">of 136<' in scores  # the trailing team
    assert f'data-match="{esc(B)}">0 <small class="muted">of 272<' in scores
    assert f'data-matches="{esc(B)}">1<' in scores and "won the match at 272" in scores


def test_the_game_ends_at_a_two_match_lead_with_the_winners_on_every_screen(game):
    game.play(displays(13), 9)  # Rob deals, Sam bids 9 and makes it: match 1
    assert game.result()["matches"] == {A: 0, B: 1} and not game.result()["finished"]
    game.play(displays(13), 9)  # Nick deals (the losers), Emily bids 9: match 2
    result = game.result()
    assert result["finished"] and result["winners"] == ["Sam", "Emily"]
    response = game.post("confirm")
    assert response.status_code == 409 and "The game is over" in text(response)
    for page in (game.tablet(), *(game.phone(n) for n in PLAYERS)):
        assert game.phase(page) == "end"
        assert "<strong>Sam &amp; Emily</strong> win the game, 2 matches to 0." in page
    public = text(game.keeper.get(f"/t/{game.code}/games/1"))
    assert "Winners: Sam &amp; Emily." in public
    response = game.say("Sam", "pass")
    assert response.status_code == 409
    assert message(response) == "The game is over: its record stays as it is."


# --------------------------------------------------------------------------- undo and corrections


def test_the_last_hand_is_undone_back_to_its_confirm(game):
    game.play(EXAMPLE, 9)
    assert game.post("undo", {"rounds": "1"}).status_code == 303
    assert game.record()["rounds"] == [] and game.phase() == "score"
    assert game.draft().facts["tricks"] == 9
    game.confirm()
    assert len(game.record()["rounds"]) == 1


def test_a_past_hand_is_corrected_and_everything_after_it_follows(game):
    game.play(EXAMPLE, 9)
    game.play(displays(5), 3)
    before = game.result()
    page = text(game.keeper.get(f"/t/{game.code}/games/1/rounds/1"))
    assert 'value="5♥ pass K♠ pass pass pass"' in page
    assert "Bids, in turn from Sam" in page and '<option value="9" selected>' in page
    form = {"rounds": "2", "bids": "5h pass ks pass pass pass", "tricks": "2"}
    preview = game.post("rounds/1", form)
    assert preview.status_code == 200 and 'data-testid="correction-preview"' in text(preview)
    assert game.record()["rounds"][0]["tricks"] == 9  # nothing saved yet
    game.ok("rounds/1", form | {"step": "save"})
    after = game.result()
    assert game.record()["rounds"][0] == {"bids": [
        ["Sam", "5♥"], ["Nick", "pass"], ["Emily", "K♠"], ["Rob", "pass"], ["Sam", "pass"],
        ["Nick", "pass"]], "tricks": 2}
    assert after["totals"] != before["totals"]
    assert after["rounds"][1]["totals"] == rules.replay(game.record())["rounds"][1]["totals"]
    # Each phone is told what the correction did to its team's game total.
    old = number(before["totals"][B])
    new = number(after["totals"][B])
    assert f"your total {old} → <strong>{new}</strong>" in game.phone("Sam")


@pytest.mark.parametrize(("bids", "tricks", "said"), [
    ("5h pass ks pass pass", "9", "the bidding has not ended"),
    ("5h pass zz pass pass pass", "9", "Bid 3 (Emily): 'zz' is neither a card nor pass."),
    ("", "9", "Type the bids in turn: a card to display it, or pass."),
    ("5h pass ks pass pass pass", "14", "must be from 0 to 13"),
    ("5h pass 5h pass pass pass", "9", "5♥ was already displayed by Sam"),
    (" ".join(["pass"] * 57), "9", "That is 57 bids: more than a hand can hold."),
])
def test_a_bad_correction_is_refused_with_a_message(game, bids, tricks, said):
    game.play(EXAMPLE, 9)
    response = game.post("rounds/1", {"rounds": "1", "bids": bids, "tricks": tricks,
                                      "step": "save"})
    assert response.status_code == 400 and said in html_lib.unescape(text(response))
    assert game.record()["rounds"][0]["tricks"] == 9


def test_a_correction_that_would_move_a_later_deal_is_refused(game):
    game.play(displays(13), 9)  # Sam bids 9 and makes it: Sam & Emily win match 1; Nick deals
    game.play(EXAMPLE, 4)       # hand 2 is bid from Emily, left of Nick
    # With 8 tricks hand 1 fails: no match is won, and Sam would have dealt hand 2.
    bids = " ".join(displays(13))
    response = game.post("rounds/1", {"rounds": "2", "bids": bids, "tricks": "8"})
    assert response.status_code == 400
    assert "Round 2: Emily bid out of turn; it was Nick's turn." in html_lib.unescape(
        text(response))
    assert game.record()["rounds"][0]["tricks"] == 9


def test_a_draft_the_rules_refuse_shows_its_problem_and_takes_no_tap(game):
    with game.actions.app.app_context():
        table = db.session.scalar(queries.table_by_code(game.code))
        draft = round_store.locked_draft(table.current_game)
        round_store.update_facts(draft, {"bids": [["Nick", "pass"]]})  # out of turn
        db.session.commit()
    for page in (game.tablet(), game.phone("Sam")):
        assert "record: hand 1: Nick passed out of turn; it was Sam&#39;s turn" in page
    assert game.say("Sam", "pass").status_code == 409
    assert game.post("confirm").status_code == 409
    assert 'data-testid="score-table"' in game.scores()


# --------------------------------------------------------------------------- the record, the rules


def test_the_record_exports_and_imports_again(game, client):
    game.play(EXAMPLE, 9)
    game.play(displays(12), 4)
    record = game.record()
    response = client.post("/api/games", data=json.dumps(record),
                           content_type="application/json")
    assert response.status_code == 201, text(response)
    page = text(client.get(response.get_json()["game_url"]))
    result = rules.replay(record)
    for team in (A, B):
        assert f'data-total="{esc(team)}">{number(result["totals"][team])}<' in page


def test_the_rules_help_marks_the_house_decisions(game):
    page = text(game.keeper.get("/rules/tremp"))
    assert "Who wins a trick" in page and "house</strong>" in page
    assert "the dealer must bid" in page
    assert 'href="/rules/tremp' in game.tablet()


# --------------------------------------------------------------------------- every number


def shown(page: str, attribute: str, team: str) -> str:
    cell = re.search(rf'{attribute}="{re.escape(team.replace("&", "&amp;"))}"[^>]*>([^<]*)<',
                     page)
    assert cell, (attribute, team)
    return cell.group(1).strip()


def test_every_number_the_pages_show_is_the_rules(game):
    game.play(EXAMPLE, 9)           # made −2 with 9: ¼ match, 4194304 game
    game.play(displays(12), 4)      # failed 8
    game.play(displays(13), 9)      # a match won
    game.bidding(displays(5))
    game.tricks(3)
    record = game.record()
    result = rules.replay(record)
    now = rules.progress(record)
    for client in (game.keeper, *game.phones.values()):
        scores = game.scores(client)
        for team in (A, B):
            assert shown(scores, "data-total", team) == number(result["totals"][team])
            assert shown(scores, "data-game", team) == number(result["totals"][team])
            assert shown(scores, "data-match", team) == number(result["match"][team])
            assert shown(scores, "data-matches", team) == str(result["matches"][team])
            assert f"of {now.thresholds[team]}<" in scores
        for n, done in enumerate(result["rounds"], 1):
            row = re.search(rf'<tr data-round="{n}".*?</tr>', scores, re.S).group(0)
            for team in (A, B):
                assert shown(row, "data-running", team) == number(done["totals"][team])
            assert f'data-tricks="{done["breakdown"]["tricks"]}"' in row
            line = re.search(rf'data-points="{n}".*?</tr>', scores, re.S).group(0)
            b = done["breakdown"]
            f = rules.points_formula(b["bid"], b["tricks"])
            assert f"+P({number(f.match_power)}) = " in line
            assert f">{number(b['match_points'])}<" in line
            assert f">{number(b['game_points'])}<" in line
    # The hand in progress: the preview is the rules' replay with this hand.
    preview = rules.replay(record | {"rounds": [*record["rounds"], {
        "bids": game.bids(), "tricks": 3}]})["rounds"][-1]["breakdown"]
    tablet = game.tablet()
    for team, total in preview["match_totals"].items():
        assert shown(tablet, "data-match-total", team) == number(total)
    assert f'data-bid="{preview["bid"]}"' in tablet


def test_the_screen_that_lost_a_race_for_one_seat_is_told_someone_else_acted(game):
    """Sam's phone and the tablet pass for Sam at the same moment: the later tap is refused
    with a word that another screen acted, and its answer carries the page's pulse at the new
    version, so the page does not poll and draw the round again without the word."""
    page = text(game.phones["Sam"].get(f"/t/{game.code}/seat"))
    pulse = html_lib.unescape(re.search(r'id="pulse"[^>]*hx-get="([^"]+)"', page).group(1))
    assert game.say("Sam", "pass", by_tablet=True).status_code == 303
    headers = {**HTMX, "X-Companion-Tap": "a" * 22, "X-Companion-Pulse": pulse}
    lost = game.post("seats/2/bid", {"moment": "0", "bid": "pass", "from": "seat"},
                     client=game.phones["Sam"], headers=headers)
    assert lost.status_code == 409
    assert message(lost).startswith("Someone else acted first, on another screen.")
    assert f'data-version="{game.version()}"' in re.search(
        r'<div id="pulse"[^>]*>', text(lost)).group(0)
    assert game.bids() == [["Sam", "pass"]]


def test_a_refusal_without_javascript_is_titled_for_what_it_is(game):
    """A form sent without JavaScript and refused (out of turn, here) gets the error page
    titled "Not now", not "Someone got there first" (nobody did)."""
    response = game.say("Nick", "pass")
    assert response.status_code == 409
    assert "<title>Not now · The companion</title>" in text(response)
    assert "Someone got there first" not in text(response)
