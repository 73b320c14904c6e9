"""Trumplestiltskin through the pages: the options, the checklists, the auction on the phones,
who looked, the Gnome and trump, points typed or counted, the tally, the end.

Four phones (five in one game) and the scorekeeper's tablet, each its own
test client. Every number a page shows is checked against ``replay`` of the
game's record.json.
"""

from __future__ import annotations

import re
from fractions import Fraction
from urllib.parse import urlsplit

import pytest

from companion.rules import replay
from tests.conftest import at_once
from tests.web.tables import HTMX, GameAtTable

pytestmark = pytest.mark.db

PLAYERS = ("Ann", "Bo", "Cy", "Di")

# The hand of DESIGN.md ("The game record"), dealt by Ann: Bo 10, Cy looks and passes, Di 12.
DESIGN_HAND = {"bids": [["Bo", 10], ["Cy", "pass"], ["Di", 12], ["Ann", "pass"], ["Bo", "pass"]],
               "looked": ["Cy"], "gnome": "9♥", "trump": "♥",
               "points": {"Ann": 3, "Bo": 5, "Cy": 2, "Di": 6}}


def text(response) -> str:
    return response.get_data(as_text=True)


def value(shown: str) -> Fraction:
    """A number as the pages write it (``−3½``, ``12``) as an exact fraction."""
    shown = shown.strip().replace("\u2212", "-")
    half = shown.endswith("½")
    whole = shown.rstrip("½")
    number = Fraction(int(whole) if whole not in ("", "-") else 0)
    if half:
        number += Fraction(-1, 2) if shown.startswith("-") else Fraction(1, 2)
    return number


def cells(html: str, attribute: str) -> dict[str, Fraction]:
    """The numbers in the cells marked ``attribute="<name>"`` (the first of each name)."""
    found: dict[str, Fraction] = {}
    for name, shown in re.findall(rf'{attribute}="([^"]+)"[^>]*>([^<]*)<', html):
        found.setdefault(name, value(shown))
    return found


def phase_of(html: str) -> str:
    return re.search(r'data-phase="([a-z-]*)"', html).group(1)


def error_of(html: str) -> str:
    match = re.search(r'data-testid="error">([^<]*)<', html) or re.search(
        r'role="alert"[^>]*>(?:<strong>[^<]*</strong>)?([^<]*)', html)
    return match.group(1).strip() if match else ""


class Game(GameAtTable):
    """A Trumplestiltskin game at a table: the tablet (``actions.keeper``) and a phone a seat."""

    GAME = "trumplestiltskin"
    OK = (200, 303)

    def __init__(self, actions, code: str, phones: list, players=PLAYERS) -> None:
        super().__init__(actions, code, dict(zip(players, phones, strict=True)), players)

    # --- doing

    def client(self, name: str, by: str):
        return self.keeper if by == "tablet" else self.phones[name]

    def speeches(self) -> int:
        return len(self.facts().get("bids") or [])

    def say(self, name: str, said, *, by: str = "phone", **kwargs):
        """``name`` bids ``said`` (a number) or passes (``"pass"``): their phone, or the tablet."""
        tail = f"seats/{self.seat(name)}/" + ("pass" if said == "pass" else "bid")
        data = {"moment": str(self.speeches())}
        if said != "pass":
            data["bid"] = str(said)
        return self.post(tail, data, client=self.client(name, by), **kwargs)

    def bids(self, *speeches) -> None:
        """Speeches in turn, each from its player's phone: ("Bo", 10), ("Cy", "pass") …"""
        for name, said in speeches:
            response = self.say(name, said)
            assert response.status_code == 303, text(response)

    def look(self, name: str, *, by: str = "phone", looked: str = "yes"):
        return self.post(f"seats/{self.seat(name)}/looked", {"looked": looked},
                         client=self.client(name, by))

    def gnome(self, card: str, *, client=None):
        return self.post("gnome", {"card": card}, client=client or self.keeper)

    def points(self, name: str, points, *, by: str = "phone", **kwargs):
        return self.post(f"seats/{self.seat(name)}/points", {"points": str(points)},
                         client=self.client(name, by), **kwargs)

    def all_points(self, points: dict[str, int]) -> None:
        for name, n in points.items():
            response = self.points(name, n)
            assert response.status_code == 303, text(response)

    def hand(self, bids, gnome: str, points: dict[str, int], looked=(), trump=None) -> None:
        """A whole hand from the phones: looks, the speeches, the Gnome (and trump), points."""
        for name in looked:
            assert self.look(name).status_code == 303
        self.bids(*bids)
        self.ok("gnome", {"card": gnome})
        if trump:
            self.ok("trump", {"suit": trump})
        self.all_points(points)
        self.confirm()

    def thrown_in(self) -> None:
        """Everyone passes, from the dealer's left; the scorekeeper confirms it."""
        order = self.order()
        self.bids(*((name, "pass") for name in order))
        self.confirm()

    def order(self) -> list[str]:
        """The players clockwise from the current dealer's left."""
        dealer = re.search(r'data-testid="dealer">· (\w+) deals', self.tablet()).group(1)
        i = self.players.index(dealer) + 1
        return list(self.players[i:] + self.players[:i])


def start(actions, players=PLAYERS, **options) -> Game:
    code = actions.create_table(game="trumplestiltskin", players=players)
    phones = actions.seat_everyone(code)
    form = {"target": "200", "gnome_target": "350"} | options
    response = actions.post(f"/t/{code}/start", form)
    assert response.status_code == 303, text(response)
    return Game(actions, code, phones, players)


@pytest.fixture
def game(actions) -> Game:
    """A four-seat Trumplestiltskin game: Ann, Bo, Cy and Di clockwise, Ann dealing first."""
    return start(actions)


# --------------------------------------------------------------------------- setting up


def test_the_options_form_starts_with_the_rules_defaults(actions):
    code = actions.create_table(game="trumplestiltskin", players=PLAYERS)
    actions.seat_everyone(code)
    assert f'href="/t/{code}/start"' in text(actions.keeper.get(f"/t/{code}"))
    page = text(actions.keeper.get(f"/t/{code}/start"))
    assert 'name="target" value="200"' in page and 'name="gnome_target" value="350"' in page


def test_a_game_starts_with_the_design_option_names(actions):
    game = start(actions, target="150", gnome_target="300")
    record = game.record()
    assert record["options"] == {"target": 150, "gnome_target": 300}
    assert record["players"] == list(PLAYERS) and record["first_dealer"] == "Ann"
    assert "to 150, the Gnome to 300" in game.scores()


@pytest.mark.parametrize(("change", "message"), [
    ({"target": "lots"}, "The target must be a whole number"),
    ({"gnome_target": "0"}, "The Gnome&#39;s target must be from 1 to 9999, not 0"),
])
def test_bad_options_are_refused_with_a_message_and_start_nothing(actions, change, message):
    code = actions.create_table(game="trumplestiltskin", players=PLAYERS)
    actions.seat_everyone(code)
    response = actions.post(f"/t/{code}/start", {"target": "200", "gnome_target": "350"}
                            | change)
    assert response.status_code == 400 and message in text(response)
    assert actions.table(code).games == []


@pytest.mark.parametrize("seats", [3, 4, 5])
def test_three_to_five_seats_start(actions, seats):
    names = ("Ann", "Bo", "Cy", "Di", "Ed")[:seats]
    game = start(actions, players=names)
    assert game.phase() == "auction"
    share = {3: "two get 15 cards and one gets 14", 4: "everyone gets 11 cards",
             5: "four get 9 cards and one gets 8"}[seats]
    assert share in game.tablet()


@pytest.mark.parametrize("seats", [2, 6])
def test_two_or_six_seats_are_refused(actions, seats):
    form = {"name": "Too many", "game": "trumplestiltskin", "seats": str(seats),
            "player": [f"P{i}" for i in range(seats)], "dealer": "1"}
    response = actions.post("/new", form)
    assert response.status_code == 400
    assert f"Trumplestiltskin is for 3 to 5 players, not {seats}" in text(response)


def test_the_checklists_name_the_blanket_and_the_people_who_deal(game):
    for html in (game.tablet(), game.phone("Cy")):
        assert "Pinochle deck" in html and "these six are the Blanket" in html
        assert "Ann shuffles the Blanket" in html
        assert "Di (on the dealer’s right) picks one Blanket card face down: the Gnome." in html
        assert "Ann deals one of the other Blanket cards to each player" in html
    game.ok("tick", {"step": "deal:1"}, client=game.phones["Bo"])
    assert 'data-step="deal:1" data-done="yes"' in game.tablet()
    game.thrown_in()
    html = game.tablet()
    assert "Pinochle deck" not in html  # the deck is prepared once
    assert "Bo shuffles the Blanket" in html and "Ann (on the dealer’s right)" in html


def test_every_score_sheet_has_a_column_for_the_gnome(game):
    game.hand([("Bo", 10), ("Cy", "pass"), ("Di", 12), ("Ann", "pass"), ("Bo", "pass")],
              "9♥", DESIGN_HAND["points"], looked=["Cy"])
    for html in (game.scores(), game.scores(game.phones["Bo"]),
                 text(game.phones["Bo"].get(f"/t/{game.code}/games/1"))):
        assert '<th scope="col" class="gnome-col">Gnome</th>' in html
        assert cells(html, "data-total") == {"Ann": 0, "Bo": 5, "Cy": 0, "Di": -12,
                                             "Gnome": 11}
        assert '<polyline' in html and "<title>Gnome</title>" in html  # the Gnome's line


# --------------------------------------------------------------------------- the auction


def test_the_phone_whose_turn_it_is_gets_the_bid_control(game):
    bo = game.phone("Bo")
    assert 'data-testid="your-turn"' in bo and 'name="bid" value="1"' in bo
    assert "No bid yet: the smallest bid is <strong>1</strong>" in bo
    assert 'data-testid="pass"' in bo and "I looked at the Gnome" in bo
    for name in ("Ann", "Cy", "Di"):
        html = game.phone(name)
        assert 'data-testid="bid-box"' not in html
        assert "<strong>Bo</strong>'s turn to bid" in html
        assert "I looked at the Gnome" in html  # usable before they bid or pass
    tablet = game.tablet()
    assert "<strong>Bo</strong>'s turn to bid" in tablet
    assert 'data-testid="act-for"' in tablet  # Bo has a phone: the tablet's controls fold away


def test_a_page_without_javascript_does_not_reload_under_a_bid_or_points_being_typed(game):
    refresh = 'http-equiv="refresh"'
    assert refresh not in text(game.phones["Bo"].get(f"/t/{game.code}/seat"))  # Bo's turn
    assert refresh in text(game.phones["Cy"].get(f"/t/{game.code}/seat"))
    take_design_hand(game)
    game.points("Ann", 3)
    assert refresh in text(game.phones["Ann"].get(f"/t/{game.code}/seat"))  # entered
    assert refresh not in text(game.phones["Bo"].get(f"/t/{game.code}/seat"))


def test_bids_and_passes_go_round_from_the_dealers_left_skipping_who_passed(game):
    game.bids(("Bo", 10), ("Cy", "pass"), ("Di", 12))
    assert 'name="bid" value="13"' in game.phone("Ann")
    assert "Top bid: <strong>Di 12</strong> · You may bid <strong>13</strong>" in game.phone("Ann")
    game.bids(("Ann", "pass"))
    bo = game.phone("Bo")
    assert 'data-testid="your-turn"' in bo
    game.bids(("Bo", 14), ("Di", 15))  # Cy and Ann passed: skipped
    assert 'data-testid="your-turn"' in game.phone("Bo")
    for html in (game.tablet(), game.phone("Cy")):
        speeches = re.findall(r'data-player="(\w+)"><span class="who">\w+</span> <strong>(\w+)'
                              r'</strong>', html)
        assert speeches == [("Bo", "10"), ("Cy", "pass"), ("Di", "12"), ("Ann", "pass"),
                            ("Bo", "14"), ("Di", "15")]
        assert 'data-player="Bo" data-state="turn"' in html
        assert 'data-player="Cy" data-state="passed"' in html


def test_the_stepper_starts_at_the_smallest_bid_and_steps_by_one_and_five(game):
    game.bids(("Bo", 10))
    cy = game.phone("Cy")
    assert 'name="bid" value="11"' in cy
    assert re.search(r'disabled data-testid="bid-minus">−1<', cy)
    seat = game.seat("Cy")
    step = {"moment": "1", "bid": "11"}
    game.ok(f"seats/{seat}/bid", step | {"adjust": "5"}, client=game.phones["Cy"])
    assert 'name="bid" value="16"' in game.phone("Cy")
    game.ok(f"seats/{seat}/bid", step | {"bid": "20", "adjust": "1"},
            client=game.phones["Cy"])  # from the number typed
    assert 'name="bid" value="21"' in game.phone("Cy")
    game.ok(f"seats/{seat}/bid", {"moment": "1", "bid": "3", "adjust": "-1"},
            client=game.phones["Cy"])
    assert 'name="bid" value="11"' in game.phone("Cy")  # never below the least
    assert game.facts()["bids"] == [["Bo", 10]]  # stepping says nothing
    # Bid with nothing typed: the stepper's bid, as the screen showed it.
    game.ok(f"seats/{seat}/bid", {"moment": "1", "bid": "", "proposal": "16"},
            client=game.phones["Cy"])
    assert game.facts()["bids"] == [["Bo", 10], ["Cy", 16]]
    assert 'name="bid" value="17"' in game.phone("Di")  # Di's starts afresh
    assert "proposal" not in game.facts()


def test_a_look_is_recorded_before_bidding_and_everyone_sees_it(game):
    assert game.look("Cy").status_code == 303  # not Cy's turn yet: looking is allowed
    game.bids(("Bo", 10))
    assert game.look("Cy").status_code == 303  # twice is still once
    game.bids(("Cy", "pass"))
    for html in (game.tablet(), game.phone("Ann"), game.phone("Di")):
        assert "Looked at the Gnome: Cy." in html
        assert 'data-player="Cy" data-state="passed" data-looked="yes"' in html
    assert game.facts()["looked"] == ["Cy"]
    # The tablet records a look for a seat; a mistaken look is taken back.
    assert game.look("Di", by="tablet").status_code == 303
    assert game.look("Di", looked="no").status_code == 303
    assert game.facts()["looked"] == ["Cy"]


def test_the_tablet_bids_and_passes_for_a_seat_without_a_phone(actions):
    code = actions.create_table(game="trumplestiltskin", players=PLAYERS)
    phones = [actions.claim(code, position)[0] for position in (1, 3, 4)]  # Bo has no phone
    assert actions.post(f"/t/{code}/start").status_code == 303
    game = Game(actions, code, [phones[0], None, phones[1], phones[2]])
    tablet = game.tablet()
    assert 'data-testid="no-phone"' in tablet and 'data-testid="act-for"' not in tablet
    assert 'data-testid="bid-box" data-player="Bo"' in tablet
    assert game.say("Bo", 7, by="tablet").status_code == 303
    assert game.look("Cy", by="tablet").status_code == 303
    assert game.say("Cy", "pass", by="tablet").status_code == 303  # a phone gone flat
    assert game.facts()["bids"] == [["Bo", 7], ["Cy", "pass"]]


@pytest.mark.parametrize(("who", "said", "status", "message"), [
    ("Cy", 10, 400, "Cy&#39;s bid of 10 is not higher than Bo&#39;s bid of 10"),
    ("Di", 12, 409, "Di cannot bid 12 out of turn: it is Cy&#39;s turn"),
    ("Cy", 9, 400, "Cy&#39;s bid of 9 is not higher than Bo&#39;s bid of 10"),
    ("Cy", "lots", 400, "A bid must be a whole number"),
    ("Cy", 0, 400, "A bid must be from 1 to 9999, not 0"),
    ("Cy", "-3", 400, "A bid is at least 1, not \u22123"),
    ("Cy", "\u22123", 400, "A bid is at least 1, not \u22123"),
])
def test_a_bad_bid_is_refused_with_a_message_and_changes_nothing(game, who, said, status,
                                                                 message):
    game.bids(("Bo", 10))
    before = game.version()
    response = game.say(who, said)
    assert response.status_code == status and message in text(response)
    assert game.facts()["bids"] == [["Bo", 10]] and game.version() == before


def test_a_player_who_passed_cannot_bid_or_look(game):
    game.bids(("Bo", 10), ("Cy", "pass"), ("Di", 11), ("Ann", 12), ("Bo", 13))
    response = game.say("Cy", 14, by="tablet")
    assert response.status_code == 409
    assert "Cy cannot bid 14: Cy passed earlier and is out of the bidding" in text(response)
    response = game.look("Cy")
    assert response.status_code == 409 and "Cy passed and is out of the bidding" in text(response)


def test_a_refusal_comes_back_on_the_phone_where_the_player_looks(game):
    game.bids(("Bo", 10))
    response = game.say("Cy", 10, htmx=True)
    assert response.status_code == 400
    html = text(response)
    assert 'id="round"' in html and 'data-phase="auction"' in html  # the phone's own region
    assert error_of(html) == "Cy’s bid of 10 is not higher than Bo’s bid of 10.".replace(
        "’", "&#39;")
    assert 'data-testid="bid-box"' in html  # still Cy's turn, the control right there
    out_of_turn = game.say("Di", 12, htmx=True)
    assert out_of_turn.status_code == 409 and "out of turn" in error_of(text(out_of_turn))


def test_a_tap_the_bidding_has_passed_is_refused(game):
    game.bids(("Bo", 10))
    stale = game.post(f"seats/{game.seat('Cy')}/pass", {"moment": "0"}, client=game.phones["Cy"])
    assert stale.status_code == 409
    assert "The bidding changed a moment ago (Bo bid 10)" in text(stale)
    missing = game.post(f"seats/{game.seat('Cy')}/pass", {}, client=game.phones["Cy"])
    assert missing.status_code == 400
    old_round = game.post(f"seats/{game.seat('Cy')}/pass", {"moment": "1"},
                          client=game.phones["Cy"], round_=2)
    assert old_round.status_code == 409 and "the table is on hand 1" in text(old_round)
    assert game.facts()["bids"] == [["Bo", 10]]


@pytest.mark.parametrize(("tail", "data"), [
    ("seats/2/bid", {"moment": "0", "bid": "5"}), ("seats/2/pass", {"moment": "0"}),
    ("seats/2/looked", {"looked": "yes"}), ("seats/2/points", {"points": "3"}),
    ("seats/2/count", {"what": "honours", "by": "1"}),
])
def test_a_phone_acts_only_for_its_own_seat(game, tail, data):
    before = game.version()
    response = game.post(tail, data, client=game.phones["Cy"])
    assert response.status_code == 403 and "acts only for its own seat" in text(response)
    stranger = game.post(tail, data, client=game.actions.phone())
    assert stranger.status_code == 403
    assert game.version() == before


def test_the_last_bid_or_pass_can_be_taken_back(game):
    game.bids(("Bo", 10), ("Cy", "pass"))
    assert 'data-testid="take-back"' in game.phone("Cy")  # Cy's own, until someone speaks
    assert 'data-testid="take-back"' not in game.phone("Bo")
    refused = game.post("take-back", {"moment": "2"}, client=game.phones["Bo"])
    assert refused.status_code == 403 and "Only Cy&#39;s phone or the scorekeeper" in text(refused)
    game.ok("take-back", {"moment": "2"}, client=game.phones["Cy"])
    assert game.facts()["bids"] == [["Bo", 10]]
    game.ok("take-back", {"moment": "1"})  # the tablet takes back anyone's
    assert "bids" not in game.facts()
    nothing = game.post("take-back", {"moment": "0"})
    assert nothing.status_code == 409 and "Nobody has bid or passed yet" in text(nothing)


def test_the_house_rule_everyone_else_passed_the_last_may_still_bid(game):
    game.bids(("Bo", "pass"), ("Cy", "pass"), ("Di", "pass"))
    for html in (game.tablet(), game.phone("Ann"), game.phone("Bo")):
        assert 'data-testid="last-chance"' in html
        assert "the hand is thrown in" in html
    assert 'data-testid="your-turn"' in game.phone("Ann")
    game.bids(("Ann", 1))
    assert game.phase() == "gnome"
    assert "You took the bid at 1." in game.phone("Ann")


def test_a_hand_everyone_passed_is_thrown_in_and_the_deal_passes(game):
    game.bids(("Bo", "pass"), ("Cy", "pass"), ("Di", "pass"), ("Ann", "pass"))
    assert game.phase() == "thrown-in"
    for html in (game.tablet(), game.phone("Cy")):
        assert "Everyone passed: the hand is thrown in." in html
        assert "the deal passes to <strong>Bo</strong>" in html
    assert "Throw the hand in: Bo deals next" in game.tablet()
    late = game.say("Bo", 3)
    assert late.status_code == 409 and "The bidding is over" in text(late)
    game.confirm()
    assert game.record()["rounds"] == [{"bids": [["Bo", "pass"], ["Cy", "pass"],
                                                 ["Di", "pass"], ["Ann", "pass"]]}]
    html = game.tablet()
    assert "Hand 2" in html and "· Bo deals" in html
    assert "thrown in" in game.scores()
    assert cells(game.scores(), "data-total") == dict.fromkeys([*PLAYERS, "Gnome"], 0)


# --------------------------------------------------------------------------- the Gnome


def test_the_taker_enters_the_gnome_and_trump_shows_everywhere(game):
    game.bids(("Bo", 10), ("Cy", "pass"), ("Di", "pass"), ("Ann", "pass"))
    assert game.phase() == "gnome"
    assert 'data-testid="gnome-picker"' in game.phone("Bo")
    assert 'data-testid="gnome-picker"' in game.tablet()
    assert 'data-testid="gnome-picker"' not in game.phone("Cy")
    assert "<strong>Bo</strong> took the bid at 10 and turns the Gnome over" in game.phone("Cy")
    refused = game.gnome("9♣", client=game.phones["Cy"])
    assert refused.status_code == 403 and "Bo&#39;s phone or the scorekeeper" in text(refused)
    for card, message in (("K♣", "not K♣"), ("the Gnome", "Pick the Gnome card")):
        bad = game.gnome(card, client=game.phones["Bo"])
        assert bad.status_code == 400 and message in text(bad)
    assert game.gnome("9♣", client=game.phones["Bo"]).status_code == 303
    assert game.phase() == "points"
    for html in (game.tablet(), *(game.phone(name) for name in PLAYERS)):
        assert re.search(r'data-testid="trump">Trump <span class="suit black">♣</span>', html)
    assert game.facts()["gnome"] == "9♣" and game.facts()["trump"] == "♣"


def test_a_joker_gnome_lets_the_taker_pick_trump_from_its_two_suits(game):
    game.bids(("Bo", "pass"), ("Cy", 8), ("Di", "pass"), ("Ann", "pass"))
    assert game.gnome("black joker", client=game.phones["Cy"]).status_code == 303
    assert game.phase() == "gnome"
    cy = game.phone("Cy")
    assert 'data-testid="trump-♠"' in cy and 'data-testid="trump-♣"' in cy
    assert 'data-testid="trump-♥"' not in cy
    wrong = game.post("trump", {"suit": "♥"}, client=game.phones["Cy"])
    assert wrong.status_code == 400
    assert "The Gnome is the black joker, so trump is either ♠ or ♣, not ♥." in text(wrong)
    assert game.post("trump", {"suit": "♠"}, client=game.phones["Bo"]).status_code == 403
    game.ok("trump", {"suit": "♣"}, client=game.phones["Cy"])
    assert game.phase() == "points"
    # 16 aces and kings, 11 clubs, and of the Blanket the red joker 2 and the 9♣ 1: 30.
    assert "(the hand holds 30 at most)" in game.phone("Ann")


def test_the_gnome_card_is_entered_again_when_it_was_wrong(game):
    game.bids(("Bo", 10), ("Cy", "pass"), ("Di", "pass"), ("Ann", "pass"))
    game.gnome("red joker", client=game.phones["Bo"])
    game.ok("gnome/clear", client=game.phones["Bo"])  # "Not the red joker?"
    game.gnome("9♦", client=game.phones["Bo"])
    game.points("Ann", 4)
    assert game.post("gnome/clear", client=game.phones["Ann"]).status_code == 403
    game.ok("gnome/clear")
    assert game.phase() == "gnome" and game.facts()["points"] == {"Ann": 4}
    # Ann's pass was the last word: her phone takes it back, and the bidding is open again.
    game.ok("take-back", {"moment": "4"}, client=game.phones["Ann"])
    assert game.phase() == "auction" and 'data-testid="your-turn"' in game.phone("Ann")


def test_nothing_of_the_gnome_before_the_bidding_is_over(game):
    assert game.gnome("9♠").status_code == 409
    assert game.post("trump", {"suit": "♠"}).status_code == 409
    response = game.points("Ann", 3)
    assert response.status_code == 409 and "once the Gnome is turned over" in text(response)


# --------------------------------------------------------------------------- points


def take_design_hand(game: Game) -> None:
    """DESIGN.md's hand up to the points: Cy looked, Di took it at 12, the Gnome is the 9♥."""
    game.look("Cy")
    game.bids(("Bo", 10), ("Cy", "pass"), ("Di", 12), ("Ann", "pass"), ("Bo", "pass"))
    game.gnome("9♥", client=game.phones["Di"])


def test_phones_enter_their_points_at_the_same_time(game):
    take_design_hand(game)
    for phone in game.phones.values():
        game.actions.token(phone)
    answers = at_once(lambda name: game.points(name, DESIGN_HAND["points"][name]).status_code,
                      PLAYERS)
    assert answers == dict.fromkeys(PLAYERS, 303)
    assert game.facts()["points"] == DESIGN_HAND["points"]
    assert game.phase() == "tally"


def test_points_show_who_is_waiting_until_all_are_in(game):
    take_design_hand(game)
    game.points("Ann", 3)
    ann = game.phone("Ann")
    assert "Your points: <strong>3</strong>" in ann
    assert "Waiting for Bo, Cy, Di (1 of 4 in)" in ann
    assert 'data-testid="points-form"' in game.phone("Bo")
    assert "waiting for <strong>Bo, Cy, Di</strong> (1 of 4 in)" in game.tablet()
    assert re.search(r'data-testid="confirm-hand"[^>]*>', game.tablet())
    assert re.search(r'disabled data-testid="confirm-hand"', game.tablet())
    early = game.post("confirm")
    assert early.status_code == 409 and "Waiting for Bo, Cy and Di&#39;s points" in text(early)


@pytest.mark.parametrize(("points", "message"), [
    ("33", "Ann&#39;s 33 points: the points add up to 33 (Ann 33), but a hand with 9♥ as the "
           "Gnome and ♥ trumps holds at most 32"),
    ("three", "Points must be a whole number"),
    ("-2", "Points must be a whole number"),
])
def test_points_beyond_the_hand_or_unreadable_are_refused(game, points, message):
    take_design_hand(game)
    before = game.version()
    response = game.points("Ann", points)
    assert response.status_code == 400 and message in text(response)
    assert game.version() == before and "points" not in game.facts()


def test_the_sum_of_all_points_is_checked_against_the_limit(game):
    take_design_hand(game)
    game.all_points({"Ann": 20, "Bo": 10})
    response = game.points("Cy", 3, htmx=True)
    assert response.status_code == 400
    assert ("Cy&#39;s 3 points: the points add up to 33 (Ann 20, Bo 10, Cy 3), but a hand with "
            "9♥ as the Gnome and ♥ trumps holds at most 32") in text(response)
    assert 'data-phase="points"' in text(response)  # the phone's region, the form right there


def test_the_counter_works_the_points_out_with_the_working(game):
    take_design_hand(game)
    seat = game.seat("Bo")
    bo = game.phones["Bo"]
    for what, times in (("honours", 5), ("trumps", 3), ("jokers", 1)):
        for _ in range(times):
            game.ok(f"seats/{seat}/count", {"what": what, "by": "1"}, client=bo)
    game.ok(f"seats/{seat}/count", {"what": "trumps", "by": "-1"}, client=bo)
    html = game.phone("Bo")
    assert 'data-testid="count-working">A/K 5 + trumps 2 + jokers 2×1 = 9<' in html
    assert "Enter 9 points" in html
    game.ok(f"seats/{seat}/points", {"how": "count"}, client=bo)
    assert game.facts()["points"] == {"Bo": 9}
    too_many = game.post(f"seats/{seat}/count", {"what": "queens", "by": "1"}, client=bo)
    assert too_many.status_code == 400
    game.ok(f"seats/{seat}/count", {"by": "reset"}, client=bo)
    assert "A/K 0 + trumps 0 + jokers 2×0 = 0" in game.phone("Bo")
    assert game.facts()["points"] == {"Bo": 9}  # a new count changes nothing entered
    for _ in range(2):
        game.ok(f"seats/{seat}/count", {"what": "jokers", "by": "1"}, client=bo)
    third = game.post(f"seats/{seat}/count", {"what": "jokers", "by": "1"}, client=bo)
    assert third.status_code == 400 and "Jokers taken must be at most 2, not 3." in text(third)


def test_the_tablet_enters_and_corrects_any_player(game):
    take_design_hand(game)
    game.all_points({"Ann": 3, "Bo": 5, "Cy": 2})
    assert game.points("Di", 7, by="tablet").status_code == 303
    assert game.points("Di", 6, by="tablet").status_code == 303  # corrected
    assert game.phase() == "tally"
    game.ok(f"seats/{game.seat('Ann')}/points", {"how": "clear"})
    assert game.phase() == "points" and "Ann" not in game.facts()["points"]
    assert game.post("seats/9/points", {"points": "1"}).status_code == 404


# --------------------------------------------------------------------------- the tally


def test_the_tally_explains_every_share_with_halves(game):
    take_design_hand(game)
    game.all_points({"Ann": 3, "Bo": 5, "Cy": 7, "Di": 6})
    preview = replay(game.record() | {"rounds": [DESIGN_HAND | {"points": {
        "Ann": 3, "Bo": 5, "Cy": 7, "Di": 6}}]})
    tablet = game.tablet()
    tally = re.search(r'data-testid="tally".*?</table>', tablet, re.S).group(0)
    breakdown = preview["rounds"][0]["breakdown"]["players"]
    assert cells(tally, "data-score") == {p: Fraction(b["score"]) for p, b in breakdown.items()}
    # Ann and Cy never bid: all their points go to the Gnome; Bo made 5 of his 10; Di failed.
    assert cells(tally, "data-to-gnome") == {"Ann": 3, "Bo": 0, "Cy": 7, "Di": 6, "Gnome": 16}
    assert preview["rounds"][0]["gnome"] == 16
    top_bids = re.findall(r'data-top-bid="(\w+)">([^<]*)<', tally)
    assert top_bids == [("Ann", "—"), ("Bo", "10"), ("Cy", "—"), ("Di", "12")]
    assert "Cy</strong>: never bid: scores 0; all 7 points go to the Gnome" in tablet
    assert "failed, loses 12; all 6 points go to the Gnome" in tablet
    assert cells(tally, "data-total") == {"Ann": 0, "Bo": 5, "Cy": 0, "Di": -12, "Gnome": 16}


def test_halves_are_shown_as_halves_never_rounded(game):
    game.look("Bo")
    game.bids(("Bo", 4), ("Cy", "pass"), ("Di", "pass"), ("Ann", "pass"))
    game.gnome("9♠", client=game.phones["Bo"])
    game.all_points({"Ann": 2, "Bo": 7, "Cy": 0, "Di": 1})
    bo = game.phone("Bo")
    # Bo took the bid at 4, looked, made it with 7: scores 3½, the Gnome 3½.
    assert '<strong data-score="Bo">3½</strong>' in bo
    assert '<strong data-to-gnome="Bo">3½</strong>' in bo
    assert "made it but looked at the Gnome, scores half, 3½" in bo
    assert "Your total after this hand: <strong>3½</strong>" in bo
    game.confirm()
    assert cells(game.scores(), "data-total") == {"Ann": 0, "Bo": Fraction(7, 2), "Cy": 0,
                                                  "Di": 0, "Gnome": Fraction(13, 2)}


def test_each_phone_shows_its_own_line_of_the_tally_first(game):
    take_design_hand(game)
    game.all_points(DESIGN_HAND["points"])
    for name in PLAYERS:
        html = game.phone(name)
        first = re.search(r'data-testid="tally-line" data-player="(\w+)"', html).group(1)
        assert first == name
        assert html.index('data-testid="tally-line"') < html.index('data-testid="tally"')
    assert "The scorekeeper confirms the hand; Bo deals next." in game.phone("Cy")


def test_a_phone_that_lost_its_seat_still_follows_the_hand(game):
    take_design_hand(game)
    game.actions.post(f"/t/{game.code}/seats/1/free")  # Ann's phone is freed
    ann = game.phones["Ann"]
    for points in ({"Bo": 5}, {"Ann": 3, "Cy": 2, "Di": 6}):
        for name, n in points.items():
            assert game.points(name, n, by="tablet" if name == "Ann" else "phone"
                               ).status_code == 303
        page = ann.get(f"/t/{game.code}/seat")
        assert page.status_code == 200 and 'data-testid="lost-seat"' in text(page)
        assert 'data-testid="waiting-points"' in text(page)
        assert 'data-testid="points-form"' not in text(page)
    assert 'data-testid="tally"' in text(ann.get(f"/t/{game.code}/seat"))


# --------------------------------------------------------------------------- confirming


def test_confirm_is_the_scorekeepers_lands_once_and_shows_the_next_dealer(game):
    take_design_hand(game)
    game.all_points(DESIGN_HAND["points"])
    assert "Confirm hand 1 (Bo deals next)" in game.tablet()
    assert game.post("confirm", client=game.phones["Ann"]).status_code == 403
    for phone in game.phones.values():
        game.actions.token(phone)
    answers = at_once(lambda _: game.post("confirm", round_=1).status_code, range(2))
    assert sorted(answers.values()) == [303, 409]
    assert game.record()["rounds"] == [DESIGN_HAND]  # exactly DESIGN.md's record
    assert "Hand 2" in game.tablet() and "· Bo deals" in game.tablet()
    assert 'data-testid="your-turn"' in game.phone("Cy")  # left of Bo


def test_the_last_hand_is_undone_and_comes_back_as_it_was(game):
    take_design_hand(game)
    game.all_points(DESIGN_HAND["points"])
    game.confirm()
    game.bids(("Cy", 3))
    game.ok("undo", {"rounds": "1"})
    assert game.record()["rounds"] == []
    assert game.phase() == "tally"
    assert game.facts() == DESIGN_HAND
    assert game.post("undo", {"rounds": "0"}).status_code == 409


def test_a_past_hand_is_corrected_and_every_total_after_it_recomputed(game):
    take_design_hand(game)
    game.all_points(DESIGN_HAND["points"])
    game.confirm()
    game.hand([("Cy", 5), ("Di", "pass"), ("Ann", "pass"), ("Bo", "pass")], "red joker",
              {"Ann": 1, "Bo": 2, "Cy": 9, "Di": 0}, trump="♥")
    page = text(game.keeper.get(f"/t/{game.code}/games/1/rounds/1"))
    assert 'name="who-1"' in page and 'value="10"' in page and 'name="points-4" value="6"' in page
    assert '<option value="9♥" selected>' in page
    form = {"rounds": "2", "who-1": "Bo", "said-1": "10", "who-2": "Cy", "said-2": "pass",
            "who-3": "Di", "said-3": "12", "who-4": "Ann", "said-4": "pass", "who-5": "Bo",
            "said-5": "pass", "gnome": "9♥", "trump": "", "looked-3": "on",
            "points-1": "3", "points-2": "5", "points-3": "2", "points-4": "12"}
    preview = game.post("rounds/1", form)
    assert preview.status_code == 200 and 'data-testid="correction-preview"' in text(preview)
    # Di made 12 with 12 now: the Gnome no longer gets her 6 from hand 1 (11 → 5).
    assert ("The Gnome: hand 1 11 → <strong>5</strong>; total 14 → <strong>8</strong>"
            in text(preview))
    game.post("rounds/1", form | {"step": "save"})
    record = game.record()
    assert record["rounds"][0]["points"]["Di"] == 12
    result = replay(record)
    assert result["totals"]["Di"] == 24 + result["rounds"][1]["scores"]["Di"]
    assert cells(game.scores(), "data-total") == {**result["totals"], "Gnome": result["gnome"]}
    assert re.search(r"Round 1 was corrected:\s+your total −12 → <strong>24</strong>",
                     game.phone("Di"))


def test_a_correction_the_rules_refuse_changes_nothing(game):
    game.thrown_in()
    form = {"rounds": "1", "who-1": "Bo", "said-1": "pass", "who-2": "Cy", "said-2": "pass",
            "who-3": "Di", "said-3": "pass", "who-4": "Ann", "said-4": "5", "gnome": "9♠",
            "points-1": "40", "points-2": "0", "points-3": "0", "points-4": "0"}
    response = game.post("rounds/1", form)
    assert response.status_code == 400 and "holds at most" in text(response)
    response = game.post("rounds/1", form | {"said-4": "high", "step": "save"})
    assert response.status_code == 400 and "a bid or “pass”" in text(response)
    response = game.post("rounds/1", form | {"who-2": "", "points-1": "4"})
    assert response.status_code == 400 and "Bid 2: pick who spoke" in text(response)
    response = game.post("rounds/1", form | {"gnome": "red joker", "points-1": "4"})
    assert response.status_code == 400 and "the taker picks trump" in text(response)
    assert game.record()["rounds"] == [{"bids": [["Bo", "pass"], ["Cy", "pass"], ["Di", "pass"],
                                                 ["Ann", "pass"]]}]


# --------------------------------------------------------------------------- the end


def test_the_end_explains_the_last_taker_rule(actions):
    game = start(actions, target="20")
    # Hand 1 (Ann deals): Bo takes 10 and makes 11 without looking: 22 > 20.
    game.hand([("Bo", 10), ("Cy", "pass"), ("Di", "pass"), ("Ann", "pass")], "9♠",
              {"Ann": 0, "Bo": 11, "Cy": 0, "Di": 0})
    assert game.phase() == "end"
    result = replay(game.record())
    assert result["winners"] == ["Bo"] and result["finished"]
    for html, me in [(game.tablet(), None)] + [(game.phone(n), n) for n in PLAYERS]:
        assert "Winner: <strong>Bo</strong>" in html
        assert 'data-testid="end-why">Bo took the last bid and has more than 20.<' in html
        assert "The game ended after hand 1: Bo reached 20." in html
        standings = re.findall(r'<tr class="([^"]*)" data-player="(\w+)">', html)
        assert [name for _, name in standings] == ["Bo", "Ann", "Cy", "Di", "Gnome"]
        assert [name for cls, name in standings if "mine" in cls] == ([me] if me else [])
    assert game.say("Cy", 3).status_code == 409  # the game is over
    assert "Bo took the last bid and has more than 20" in game.scores()


def test_the_end_by_most_points_when_the_last_taker_is_not_over_the_target(actions):
    game = start(actions, target="10")
    # Hand 1 (Ann deals): Bo bids 10, Cy takes it at 11 and fails with 5 (−11); Bo, who
    # bid 10 and took 10, scores 10 and reaches the target.
    game.hand([("Bo", 10), ("Cy", 11), ("Di", "pass"), ("Ann", "pass"), ("Bo", "pass")], "9♦",
              {"Ann": 0, "Bo": 10, "Cy": 5, "Di": 0})
    result = replay(game.record())
    assert result["finished"] and result["winners"] == ["Bo"]
    assert result["totals"] == {"Ann": 0, "Bo": 10, "Cy": -11, "Di": 0}
    for html in (game.tablet(), game.phone("Cy")):
        assert ('data-testid="end-why">Cy took the last bid but has −11, not more than 10: '
                'Bo has the most points (10).<') in html
        assert "The game ended after hand 1: Bo reached 10." in html


def test_the_gnome_reaching_its_target_ends_the_game_and_the_most_points_win(actions):
    game = start(actions, target="200", gnome_target="20")
    # Hand 1 (Ann deals): Bo takes 3, looks, makes 8: 4 to Bo, 4 to the Gnome; Cy's 20 to it.
    game.look("Bo")
    game.hand([("Bo", 3), ("Cy", "pass"), ("Di", "pass"), ("Ann", "pass")], "9♥",
              {"Ann": 0, "Bo": 8, "Cy": 20, "Di": 0})
    result = replay(game.record())
    assert result["finished"] and result["gnome"] == 24 and result["winners"] == ["Bo"]
    html = game.tablet()
    assert ('data-testid="end-why">Bo took the last bid but has 4, not more than 200: '
            'Bo has the most points (4).<') in html
    assert "The game ended after hand 1: the Gnome reached 20." in html
    assert re.search(r'data-player="Gnome">\s*<th scope="row">—</th>', html)


def test_a_game_closed_early_says_so(game):
    game.thrown_in()
    game.actions.post(f"/t/{game.code}/games/1/end")
    html = game.tablet()
    assert phase_of(html) == "end" and 'data-testid="closed-early"' in html
    assert game.say("Bo", 3).status_code == 409


def test_the_record_exports_and_imports_again(game):
    take_design_hand(game)
    game.all_points(DESIGN_HAND["points"])
    game.confirm()
    game.thrown_in()
    exported = game.record()
    api = game.actions.app.test_client()
    import json

    response = api.post("/api/games", data=json.dumps(exported), content_type="application/json")
    assert response.status_code == 201
    url = urlsplit(response.get_json()["game_url"]).path
    assert api.get(url + "/record.json").get_json() == exported
    page = text(api.get(url))
    assert cells(page, "data-total") == {"Ann": 0, "Bo": 5, "Cy": 0, "Di": -12, "Gnome": 11}


def test_the_rules_help_marks_the_house_decisions(game):
    assert 'data-testid="rules-link"' in game.phone("Bo")
    page = text(game.phones["Bo"].get(f"/rules/trumplestiltskin?back=/t/{game.code}/seat"))
    assert page.count('<strong class="house"') >= 8 and "the Blanket" in page
    assert "(house)" not in page and f'href="/t/{game.code}/seat"' in page


# --------------------------------------------------------------------------- every number


def test_every_number_on_the_pages_is_replays(game):
    take_design_hand(game)
    game.all_points(DESIGN_HAND["points"])
    game.confirm()
    game.look("Di")
    game.hand([("Cy", 4), ("Di", 9), ("Ann", "pass"), ("Bo", "pass"), ("Cy", "pass")],
              "red joker", {"Ann": 5, "Bo": 4, "Cy": 3, "Di": 15}, trump="♦")
    game.thrown_in()
    game.look("Ann")
    game.bids(("Ann", 5), ("Bo", 6), ("Cy", "pass"), ("Di", "pass"), ("Ann", "pass"))
    game.gnome("9♠", client=game.phones["Bo"])
    game.all_points({"Ann": 7, "Bo": 3, "Cy": 8, "Di": 9})
    record = game.record()
    result = replay(record)
    # The scoreboard everywhere: each hand's scores, running totals, the Gnome's column.
    for html in (game.scores(), game.scores(game.phones["Cy"])):
        assert cells(html, "data-total") == {**result["totals"], "Gnome": result["gnome"]}
        for number, done in enumerate(result["rounds"], 1):
            row = re.search(rf'<tr data-round="{number}"[^>]*>(.*?)</tr>', html, re.S).group(1)
            shown = [value(x) for x in re.findall(r'class="score">([^<]*)<', row)]
            running = [value(x) for x in re.findall(r'class="running">([^<]*)<', row)]
            assert shown == [*(done["scores"][p] for p in PLAYERS), done["gnome"]]
            assert running == [*(done["totals"][p] for p in PLAYERS),
                               done["breakdown"]["gnome_total"]]
    # The tally of the hand in progress: what replay of the record with it says.
    preview = replay(record | {"rounds": [*record["rounds"], {
        "bids": [["Ann", 5], ["Bo", 6], ["Cy", "pass"], ["Di", "pass"], ["Ann", "pass"]],
        "looked": ["Ann"], "gnome": "9♠", "trump": "♠",
        "points": {"Ann": 7, "Bo": 3, "Cy": 8, "Di": 9}}]})
    last = preview["rounds"][-1]
    tally = re.search(r'data-testid="tally".*?</table>', game.tablet(), re.S).group(0)
    assert cells(tally, "data-score") == last["scores"]
    assert cells(tally, "data-total") == {**last["totals"], "Gnome": preview["gnome"]}
    assert cells(tally, "data-to-gnome") == {
        **{p: b["to_gnome"] for p, b in last["breakdown"]["players"].items()},
        "Gnome": last["gnome"]}
    assert cells(tally, "data-points") == {"Ann": 7, "Bo": 3, "Cy": 8, "Di": 9}
    for name in PLAYERS:
        mine = game.phone(name)
        assert "(the hand holds 32 at most)" in mine  # 27, the black joker 3, the red 2
        assert cells(mine, "data-score")[name] == last["scores"][name]
        assert cells(mine, "data-to-gnome")[name] == last["breakdown"]["players"][name][
            "to_gnome"]
        total = re.search(r"Your total after this hand: <strong>([^<]*)<", mine).group(1)
        assert value(total) == last["totals"][name]
    game.confirm()
    result = replay(game.record())
    assert cells(game.scores(), "data-total") == {**result["totals"], "Gnome": result["gnome"]}


# --------------------------------------------------------------------------- five seats


def test_a_game_at_five_seats_from_the_first_hand_to_the_end(actions):
    names = ("Ann", "Bo", "Cy", "Di", "Ed")
    game = start(actions, players=names, target="40")
    assert "four get 9 cards and one gets 8" in game.tablet()
    assert "No Blanket card is left over." in game.tablet()
    # Hand 1 (Ann deals): Bo 8, Cy 9, Di looks and passes, Ed passes, Ann passes, Bo 10,
    # Cy passes: Bo takes it at 10; the Gnome is the red joker, Bo picks ♦.
    game.look("Di")
    game.bids(("Bo", 8), ("Cy", 9), ("Di", "pass"), ("Ed", "pass"), ("Ann", "pass"), ("Bo", 10),
              ("Cy", "pass"))
    assert game.phase() == "gnome"
    game.gnome("red joker", client=game.phones["Bo"])
    game.ok("trump", {"suit": "♦"}, client=game.phones["Bo"])
    assert "(the hand holds 30 at most)" in game.phone("Ed")
    game.all_points({"Ann": 2, "Bo": 14, "Cy": 6, "Di": 3, "Ed": 5})
    game.confirm()
    # Hand 2 (Bo deals): everyone passes; thrown in.
    game.thrown_in()
    # Hand 3 (Cy deals): Di takes 6 and fails with 4; Ed never bid.
    game.hand([("Di", 6), ("Ed", "pass"), ("Ann", "pass"), ("Bo", "pass"), ("Cy", "pass")],
              "9♣", {"Ann": 4, "Bo": 6, "Cy": 8, "Di": 4, "Ed": 7})
    # Hand 4 (Di deals): Ed takes 7, makes 9 without looking: +18; Bo 28 + 0.
    game.hand([("Ed", 7), ("Ann", "pass"), ("Bo", "pass"), ("Cy", "pass"), ("Di", "pass")],
              "9♠", {"Ann": 3, "Bo": 5, "Cy": 4, "Di": 2, "Ed": 9})
    result = replay(game.record())
    assert cells(game.scores(), "data-total") == {**result["totals"], "Gnome": result["gnome"]}
    assert [r["dealer"] for r in result["rounds"]] == ["Ann", "Bo", "Cy", "Di"]
    # Hand 5 (Ed deals): Bo takes 6 and makes 14 without looking: 28 + 28 = 56 > 40: he wins.
    game.hand([("Ann", "pass"), ("Bo", 6), ("Cy", "pass"), ("Di", "pass"), ("Ed", "pass")],
              "9♥", {"Ann": 0, "Bo": 14, "Cy": 0, "Di": 0, "Ed": 0})
    result = replay(game.record())
    assert result["finished"] and result["winners"] == ["Bo"]
    html = game.phone("Bo")
    assert "Bo took the last bid and has more than 40." in html
    assert re.search(r'<tr class="mine" data-player="Bo">', html)
    assert cells(html, "data-total") == {**result["totals"], "Gnome": result["gnome"]}


def test_a_look_at_the_gnome_in_a_thrown_in_hand_stays_in_the_record(game):
    """Cy looks, then everyone passes: the record keeps the bids and who looked (the rules
    score nothing of it), the correction page shows the look, and a save keeps it."""
    assert game.look("Cy").status_code in (200, 303)
    game.bids(("Bo", "pass"), ("Cy", "pass"), ("Di", "pass"), ("Ann", "pass"))
    game.confirm()
    hand = {"bids": [["Bo", "pass"], ["Cy", "pass"], ["Di", "pass"], ["Ann", "pass"]],
            "looked": ["Cy"]}
    assert game.record()["rounds"] == [hand]
    assert cells(game.scores(), "data-total") == dict.fromkeys([*PLAYERS, "Gnome"], 0)
    page = text(game.keeper.get(f"/t/{game.code}/games/1/rounds/1"))
    assert re.search(r'name="looked-3" checked', page)
    assert not re.search(r'name="looked-(1|2|4)" checked', page)
    form = {"rounds": "1", "who-1": "Bo", "said-1": "pass", "who-2": "Cy", "said-2": "pass",
            "who-3": "Di", "said-3": "pass", "who-4": "Ann", "said-4": "pass",
            "gnome": "", "looked-3": "on", "looked-4": "on", "step": "save"}
    assert game.post("rounds/1", form).status_code == 303
    assert game.record()["rounds"] == [hand | {"looked": ["Cy", "Di"]}]


def test_the_words_after_the_bidding_and_for_one_point(game):
    """Nobody looked: "nobody yet" while bidding, "nobody" once it is over; a failed taker's
    single point "goes" to the Gnome; the tablet's link on an entered player is "Correct"."""
    assert "Looked at the Gnome: nobody yet." in game.tablet()
    game.bids(("Bo", 10), ("Cy", "pass"), ("Di", "pass"), ("Ann", "pass"))
    page = game.tablet()
    assert "Looked at the Gnome: nobody." in page and "nobody yet" not in page
    game.gnome("9♥", client=game.phones["Bo"])
    game.all_points({"Ann": 12, "Bo": 1, "Cy": 10, "Di": 9})
    page = game.tablet()
    assert "failed, loses 10; the 1 point goes to the Gnome" in page
    assert "all 1 points" not in page and re.search(r"Correct Bo(&#39;|')s points", page)


def test_a_refused_bid_is_not_kept_in_the_field_to_be_sent_again(game):
    """The field shows the stepper's value (no placeholder); a bid refused in place comes
    back with a fresh field (another id, so htmx does not keep what was typed)."""
    game.bids(("Bo", 10))
    page = game.phone("Cy")
    field = re.search(r'<span class="bid-field" id="([^"]+)"', page).group(1)
    assert 'name="bid" value="11"' in page and "placeholder" not in page.split(field)[1][:400]
    assert 'data-stepper-min="11"' in page
    refused = game.say("Cy", 9, headers=HTMX)
    assert refused.status_code == 400 and "not higher than" in text(refused)
    again = re.search(r'<span class="bid-field" id="([^"]+)"', text(refused)).group(1)
    assert again != field and 'name="bid" value="11"' in text(refused)
