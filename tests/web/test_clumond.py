"""Clumond through the pages: options, the first dealer, antes, going for Clumond, the trump,
tricks and kept cards from the phones and the tablet, the checks, scores, corrections, the end.

Three phones and the scorekeeper's tablet, each its own test client. Every number a page
shows is checked against ``replay`` of the game's record.json.
"""

from __future__ import annotations

import html
import re

import pytest

from companion.games.clumond.rules import explain
from companion.rules import replay, settle_up
from tests.conftest import at_once
from tests.web.tables import HTMX, GameAtTable

pytestmark = pytest.mark.db

PLAYERS = ("Ann", "Bo", "Cy")
OPTIONS = {"stack": "100", "ante": "5", "ends": "rounds", "rounds": "10", "target": "",
           "chip_value": "", "unit": "GBP"}

# Round 1 (Cy deals, nobody goes for Clumond): Ann and Bo make it, Cy pays 5.
TWO_MAKE_IT = {"tricks": {"Ann": 3, "Bo": 4, "Cy": 6},
               "kept": {"Ann": ["3H", "7S", "4D"], "Bo": ["AC", "5S", "6D"],
                        "Cy": ["5D", "QS", "2D"]}}


def text(response) -> str:
    return html.unescape(response.get_data(as_text=True))


def words(page: str) -> str:
    """A page's text without its tags, spaces squeezed."""
    squeezed = " ".join(re.sub(r"<[^>]+>", " ", page).split())
    return re.sub(r" ([.,:;])", r"\1", squeezed)


class Game(GameAtTable):
    """A Clumond game at a table: the tablet (``actions.keeper``) and three phones."""

    GAME = "clumond"
    body = staticmethod(text)

    def __init__(self, actions, code: str, phones: list) -> None:
        super().__init__(actions, code, dict(zip(PLAYERS, phones, strict=False)), PLAYERS)

    # --- doing

    def post(self, tail: str, data: dict | None = None, *, client=None, **kwargs):
        """A phone's action says it comes from the seat (unless ``data`` says otherwise)."""
        data = dict(data or {})
        if client is not None and client in self.phones.values():
            data.setdefault("from", "seat")
        return super().post(tail, data, client=client, **kwargs)

    def answer(self, name: str, yes: bool, *, keeper: bool = False):
        client = None if keeper else self.phones[name]
        return self.post(f"seats/{self.seat(name)}/offer", {"answer": "yes" if yes else "no"},
                         client=client)

    def offers(self, declarer: str | None = None, trump: str = "♥") -> None:
        """Each player in turn says no, until ``declarer`` says yes and names ``trump``."""
        while 'data-phase="offer"' in (page := self.tablet()):
            turn = re.search(r'data-player="(\w+)"\s+data-said="now"', page).group(1)
            response = self.answer(turn, turn == declarer, keeper=turn not in self.phones)
            assert response.status_code == 303, text(response)
        if declarer is not None:
            self.ok(f"seats/{self.seat(declarer)}/trump", {"trump": trump},
                    client=self.phones.get(declarer))

    def enter(self, name: str, tricks: int | None = None, kept=()):
        """A phone saves its tricks and kept cards (picker codes)."""
        data: dict = {"kept": list(kept)}
        if tricks is not None:
            data["tricks"] = str(tricks)
        return self.post(f"seats/{self.seat(name)}/entry", data, client=self.phones[name])

    def keeper_enter(self, name: str, tricks: int | None = None, *, how: str = "cards",
                     kept=(), declared: int | None = None):
        data: dict = {"how": how, "kept": list(kept)}
        if tricks is not None:
            data["tricks"] = str(tricks)
        if declared is not None:
            data["declared"] = str(declared)
        return self.post(f"players/{self.seat(name)}", data)

    def play(self, tricks: dict, kept: dict | None = None, declared: dict | None = None, *,
             declarer: str | None = None, trump: str = "♥") -> None:
        """A whole round: the offers, every entry (phones, or the tablet), the confirm."""
        self.offers(declarer, trump)
        for name in PLAYERS:
            cards = (kept or {}).get(name)
            number = (declared or {}).get(name)
            if number is not None or name not in self.phones:
                response = self.keeper_enter(name, tricks[name], how="number" if number is not
                                             None else "cards", kept=cards or (),
                                             declared=number)
            else:
                response = self.enter(name, tricks[name], cards or ())
            assert response.status_code == 303, text(response)
        self.confirm()


def start(actions, *, dealer: int = 3, players=PLAYERS, seated=PLAYERS, **options) -> Game:
    code = actions.create_table(game="clumond", players=list(players), dealer=dealer)
    phones = []
    for position, name in enumerate(players, 1):
        if name in seated:
            phone, response = actions.claim(code, position)
            assert response.status_code == 303
            phones.append(phone)
    response = actions.post(f"/t/{code}/start", OPTIONS | options)
    assert response.status_code == 303, text(response)
    game = Game(actions, code, [])
    game.phones = dict(zip([p for p in players if p in seated], phones, strict=True))
    return game


@pytest.fixture
def game(actions) -> Game:
    """Clumond for Ann, Bo and Cy (Cy deals first), 100 chips each, ante 5, 10 rounds."""
    return start(actions)


def number_in(page: str, attribute: str, name: str) -> int:
    """The number in the cell ``attribute="name"`` (a minus sign may be ``−``)."""
    cell = re.search(rf'{attribute}="{name}"[^>]*>(?:\s*<[^>]+>)*\s*([−+-]?\d+)', page).group(1)
    return int(cell.replace("−", "-").replace("+", ""))


def stacks_on(page: str) -> dict[str, int]:
    return {name: number_in(page, "data-total", name) for name in PLAYERS}


# --------------------------------------------------------------------------- setting up


def test_the_start_form_asks_the_stack_the_ante_the_end_and_a_chip_value(actions):
    code = actions.create_table(game="clumond", players=list(PLAYERS))
    actions.seat_everyone(code)
    page = text(actions.keeper.get(f"/t/{code}/start"))
    assert 'name="stack" value="100"' in page and 'name="ante" value="5"' in page
    assert 'name="rounds" value="10"' in page and 'name="target" value=""' in page
    assert re.search(r'value="rounds" checked', page)
    assert 'name="chip_value" value=""' in page and "blank: the chips are not money" in page
    assert '<option value="GBP" selected>' in page and 'value="chips"' not in page


def test_a_game_starts_with_every_option_written_out_and_the_unit_left_alone(game):
    assert game.record()["options"] == {"stack": 100, "ante": 5, "rounds": 10, "target": None,
                                        "chip_value": None}
    assert game.actions.table(game.code).unit == "chips"
    assert "Round 1 of 10" in game.tablet()


@pytest.mark.parametrize(("change", "options", "label"), [
    ({"ends": "target", "target": "150", "rounds": ""},
     {"rounds": None, "target": 150}, "Round 1 · first to 150"),
    ({"ends": "either", "target": "150", "rounds": "6"},
     {"rounds": 6, "target": 150}, "Round 1 of 6 · or first to 150"),
])
def test_the_game_ends_at_a_target_or_whichever_comes_first(actions, change, options, label):
    game = start(actions, **change)
    assert game.record()["options"] | options == game.record()["options"]
    assert label in game.tablet() and label in game.phone("Bo")


def test_a_chip_value_sets_the_tables_money(actions):
    game = start(actions, chip_value="0.10", unit="EUR")
    assert game.record()["options"]["chip_value"] == 10
    assert game.actions.table(game.code).unit == "EUR"
    assert "1 chip = €0.10" in game.scores()


@pytest.mark.parametrize(("change", "message"), [
    ({"stack": "lots"}, "The starting stack must be a whole number"),
    ({"ante": "-1"}, "The ante must be a whole number"),
    ({"ends": "never"}, "Say how the game ends"),
    ({"rounds": "0"}, "The number of rounds must be from 1 to 99, not 0"),
    ({"ends": "target", "target": ""}, "The target stack must be a whole number"),
    ({"ends": "either", "target": "100"}, "The target stack (100) must be more than"),
    ({"chip_value": "ten pence"}, "The value of one chip must be an amount like 2.50"),
    ({"chip_value": "0.10", "unit": "chips"}, "Pick the currency one chip is worth"),
    ({"chip_value": "0.10", "unit": "yen"}, "Pick the money unit"),
])
def test_bad_options_are_refused_with_a_message_and_start_nothing(actions, change, message):
    code = actions.create_table(game="clumond", players=list(PLAYERS))
    actions.seat_everyone(code)
    response = actions.post(f"/t/{code}/start", OPTIONS | change)
    assert response.status_code == 400 and message in text(response)
    table = actions.table(code)
    assert table.games == [] and table.unit == "chips"


def test_the_screens_say_the_first_dealer_was_chosen(game):
    for page in (game.tablet(), game.phone("Ann")):
        assert "<strong>Cy</strong> deals" in page and "(chosen by the scorekeeper)" in page
    assert "that's you" in game.phone("Cy")


def test_the_screens_say_the_first_dealer_was_drawn_and_only_in_round_one(actions):
    game = start(actions, dealer="random")
    dealer = game.record()["first_dealer"]
    for page in (game.tablet(), game.phone("Bo")):
        assert f"<strong>{dealer}</strong> deals" in page and "(drawn at random)" in page
    game.play({"Ann": 5, "Bo": 4, "Cy": 4}, declared={"Ann": 1, "Bo": 1, "Cy": 1})
    assert 'data-testid="dealer-how"' not in game.tablet()


def test_the_deck_prep_and_the_dealing_steps_on_the_tablet_and_every_phone(game):
    for page in (game.tablet(), game.phone("Ann")):
        assert "Remove the four 10s (10♠ 10♥ 10♦ 10♣): 48 cards remain, 16 for each player." \
            in page
        assert "Give Ann, Bo and Cy 100 chips each" in page
        assert "Cy shuffles the 48 cards and deals 16 to each player, starting with Ann." in page
    game.ok("tick", {"step": "deck:1"}, client=game.phones["Bo"])
    assert 'data-step="deck:1" data-done="yes"' in game.tablet()
    game.play({"Ann": 5, "Bo": 4, "Cy": 4}, declared={"Ann": 1, "Bo": 1, "Cy": 1})
    page = game.tablet()
    assert 'data-testid="deck-steps"' not in page and "Ann shuffles the 48 cards" in page


# --------------------------------------------------------------------------- antes


def test_the_tablet_shows_the_pot_before_and_after_the_antes_and_each_phone_its_stack(game):
    assert words(game.tablet()).count("Pot 0 → 15 with the antes (5 each)") == 1
    for name in PLAYERS:
        assert "Your stack 100 · you ante 5 · pot 15 after the antes" in words(game.phone(name))
    game.play(**TWO_MAKE_IT)
    assert "Pot 8 → 23 with the antes (5 each)" in words(game.tablet())
    assert "Your stack 90 · you ante 5 · pot 23 after the antes" in words(game.phone("Cy"))


# --------------------------------------------------------------------------- going for Clumond


def test_the_offer_goes_round_from_the_dealers_left(game):
    assert game.phase() == "offer"
    assert 'data-testid="go-for-clumond"' in game.phone("Ann")
    for name in ("Bo", "Cy"):
        page = game.phone(name)
        assert 'data-testid="go-for-clumond"' not in page
        assert "<strong>Ann</strong> is deciding whether to go for Clumond" in page
    response = game.answer("Bo", True)
    assert response.status_code == 409 and "It is Ann's turn to answer, not Bo's" in text(
        response)
    assert game.answer("Ann", False).status_code == 303
    assert 'data-testid="go-for-clumond"' in game.phone("Bo")
    assert re.search(r'data-player="Ann"\s+data-said="no"', game.tablet())
    assert game.draft().facts == {"passed": ["Ann"]}


def test_the_first_yes_names_the_trump_and_the_record_keeps_only_declarer_and_trump(game):
    game.answer("Ann", False)
    game.answer("Bo", True)
    assert game.phase() == "trump"
    assert "You went for Clumond: name the trump" in game.phone("Bo")
    assert "<strong>Bo</strong> went for Clumond and is naming the trump" in game.phone("Cy")
    response = game.answer("Cy", True)
    assert response.status_code == 409 and "over for this round" in text(response)
    response = game.post("seats/3/trump", {"trump": "♠"}, client=game.phones["Cy"])
    assert response.status_code == 409 and "Bo went for Clumond: Bo names the trump" in text(
        response)
    response = game.post("seats/2/trump", {"trump": "roses"}, client=game.phones["Bo"])
    assert response.status_code == 400 and "Name a trump suit (♠ ♥ ♦ ♣) or no trumps" in text(
        response)
    game.ok("seats/2/trump", {"trump": "♦"}, client=game.phones["Bo"])
    assert game.phase() == "tricks"
    assert "<strong>Bo</strong> went for Clumond: " in game.tablet()
    assert "♦</span> trumps · Cy leads" in game.tablet()
    assert "you lead" in game.phone("Cy")
    game.enter("Ann", 1)
    game.enter("Bo", 12, ["KH", "3D", "4D"])
    game.enter("Cy", 0)
    game.confirm()
    assert game.record()["rounds"] == [{"declarer": "Bo", "trump": "♦",
                                        "tricks": {"Ann": 1, "Bo": 12, "Cy": 0},
                                        "kept": {"Bo": ["K♥", "3♦", "4♦"]}}]


def test_nobody_going_for_clumond_is_no_trumps_led_from_the_dealers_left(game):
    game.offers(None)
    page = game.tablet()
    assert game.phase(page) == "tricks"
    assert "Nobody went for Clumond: no trumps · Ann leads" in words(page)


def test_the_tablet_answers_for_a_seat_without_a_phone(actions):
    game = start(actions, seated=("Ann", "Bo"))
    game.answer("Ann", False)
    page = game.tablet()
    assert "Bo answers on their phone" in page
    game.answer("Bo", False)
    page = game.tablet()
    assert "Cy has no phone: answer for Cy." in page and 'data-testid="offer-yes"' in page
    assert game.answer("Cy", True, keeper=True).status_code == 303
    assert "Cy has no phone: name the trump for Cy." in game.tablet()
    game.ok("seats/3/trump", {"trump": "none"})
    assert "no trumps · Ann leads" in words(game.tablet())


def test_the_tablet_takes_back_the_last_answer_or_the_trump(game):
    response = game.post("take-back")
    assert response.status_code == 409 and "Nobody has answered yet" in text(response)
    game.answer("Ann", True)
    game.ok("seats/1/trump", {"trump": "♣"}, client=game.phones["Ann"])
    assert game.post("take-back", client=game.phones["Ann"]).status_code == 403
    game.ok("take-back")
    assert game.phase() == "trump" and "trump" not in game.draft().facts
    game.ok("take-back")
    assert game.phase() == "offer" and 'data-testid="go-for-clumond"' in game.phone("Ann")


def test_a_refusal_comes_back_in_place_of_the_round_with_its_message(game):
    response = game.post("seats/3/offer", {"answer": "yes"}, client=game.phones["Cy"],
                         headers=HTMX)
    assert response.status_code == 409
    region = text(response)
    assert region.lstrip().startswith("<section") and 'id="round"' in region
    assert 'data-testid="error">It is Ann\'s turn to answer, not Cy\'s.<' in region


def test_offers_refused_for_a_bad_answer_another_seat_a_stranger_or_an_old_round(game):
    before = game.version()
    assert game.post("seats/1/offer", {"answer": "maybe"},
                     client=game.phones["Ann"]).status_code == 400
    assert game.post("seats/1/offer", {"answer": "yes"},
                     client=game.phones["Bo"]).status_code == 403
    stranger = game.actions.phone()
    assert game.post("seats/1/offer", {"answer": "yes", "from": "seat"},
                     client=stranger).status_code == 403
    response = game.post("seats/1/offer", {"answer": "yes"}, client=game.phones["Ann"],
                         round_=2)
    assert response.status_code == 409 and "the table is on round 1" in text(response)
    assert game.post("seats/9/offer", {"answer": "yes"}).status_code == 404
    assert game.post("seats/1/trump", {"trump": "♥"}).status_code == 409
    assert game.version() == before and game.draft().facts == {}


# --------------------------------------------------------------------------- tricks and cards


def test_entries_wait_for_the_offers(game):
    response = game.enter("Ann", 3, ["3H", "7S", "4D"])
    assert response.status_code == 409 and "once going for Clumond is settled" in text(response)
    page = f"/t/{game.code}/games/1/clumond/seats/1/entry"
    assert game.phones["Ann"].get(page).status_code == 303


def test_a_phone_enters_its_tricks_and_kept_cards_and_the_working_shows_at_once(game):
    game.offers(None)
    page = text(game.phones["Ann"].get(f"/t/{game.code}/games/1/clumond/seats/1/entry"))
    assert page.count('name="tricks"') == 14 and page.count('name="kept"') == 48
    assert 'value="10H"' not in page and "0 of 3" in page
    assert game.enter("Ann", 12, ["3H", "7S", "4D"]).status_code == 303
    mine = words(game.phone("Ann"))
    assert "12 tricks: 2 count" in mine and "You declare: 3♥ 7♠ 4♦: 2 + 1 + 0 = 3" in mine
    tablet = words(game.tablet())
    assert "Ann 12 tricks: 2 count 3♥ 7♠ 4♦: 2 + 1 + 0 = 3" in tablet
    assert "waiting for Bo's tricks and kept cards, Cy's tricks and kept cards" in tablet
    page = text(game.phones["Ann"].get(f"/t/{game.code}/games/1/clumond/seats/1/entry"))
    assert 'value="12" checked' in page and 'value="7S" checked' in page and "3 of 3" in page
    assert game.draft().facts["kept"] == {"Ann": ["3♥", "7♠", "4♦"]}


def test_the_working_as_cards_are_ticked(game):
    url = f"/t/{game.code}/games/1/clumond/working"
    assert words(text(game.phones["Ann"].get(url + "?tricks=11&kept=KH&kept=2C",
                                             headers=HTMX))) == \
        "11 tricks: 1 counts · declaration K♥ 2♣: 2 + 3 = 5 so far"
    assert "10♦ is not in the Clumond deck" in text(game.keeper.get(url + "?kept=10D"))
    assert game.keeper.get("/t/BCDFGHJK/games/1/clumond/working").status_code == 404


@pytest.mark.parametrize(("tricks", "kept", "message"), [
    (3, ["3H", "7S"], "Pick 3 kept cards (you picked 2)"),
    (3, ["3H", "7S", "4D", "5D"], "4 cards are picked: each player keeps 3"),
    (3, ["3H", "7S", "10D"], "10♦ is not in the Clumond deck: the four 10s are taken out"),
    (3, ["3H", "7S", "ZZ"], "'ZZ' is not a card"),
    (3, ["3H", "3H", "4D"], "3♥ is picked twice"),
    (14, ["3H", "7S", "4D"], "Ann's tricks must be from 0 to 13, not 14"),
    (None, [], "Tap your tricks and pick your 3 kept cards"),
])
def test_a_bad_entry_is_refused_and_kept_on_the_page(game, tricks, kept, message):
    game.offers(None)
    response = game.enter("Ann", tricks, kept)
    assert response.status_code == 400 and message in text(response)
    assert 'data-testid="entry-form"' in text(response)
    if "3H" in kept:
        assert 'value="3H" checked' in text(response)
    assert "tricks" not in game.draft().facts and "kept" not in game.draft().facts


def test_a_phone_enters_only_its_own_round(game):
    game.offers(None)
    assert game.post("seats/2/entry", {"tricks": "3"}, client=game.phones["Ann"]).status_code \
        == 403
    assert game.post("seats/2/entry", {"tricks": "3"}).status_code == 403
    assert game.post("players/2", {"tricks": "3"}, client=game.phones["Bo"]).status_code == 403
    assert game.phones["Bo"].get(f"/t/{game.code}/games/1/clumond/players/2").status_code \
        == 403
    assert game.keeper.get(f"/t/{game.code}/games/1/clumond/players/7").status_code == 404
    assert game.post("players/7", {"tricks": "3"}).status_code == 404
    assert game.draft().facts.get("tricks") is None


def test_a_kept_card_on_two_phones_shows_on_both_and_the_tablet_until_fixed(game):
    game.offers(None)
    game.enter("Ann", 3, ["3H", "7S", "4D"])
    game.enter("Bo", 4, ["AC", "5S", "6D"])
    game.enter("Cy", 6, ["5D", "QS", "3H"])  # Ann's 3♥
    conflict = "3♥ is in both Ann's and Cy's kept cards"
    for name in ("Ann", "Cy"):
        assert conflict in game.phone(name)
    assert conflict not in game.phone("Bo") and 'data-testid="problem-elsewhere"' in game.phone(
        "Bo")
    assert conflict in game.tablet()
    assert re.search(r'disabled\s+data-testid="confirm-round"', game.tablet())
    entry = text(game.phones["Cy"].get(f"/t/{game.code}/games/1/clumond/seats/3/entry"))
    assert conflict in entry and re.search(r'class="pick taken">.*value="3H"', entry)
    response = game.post("confirm")
    assert response.status_code == 409 and conflict in text(response)
    assert game.record()["rounds"] == []
    game.enter("Cy", 6, ["5D", "QS", "2D"])
    assert 'data-testid="problems"' not in game.tablet()
    assert 'data-testid="my-problems"' not in game.phone("Ann")
    assert 'data-testid="preview"' in game.tablet()


def test_tricks_that_do_not_add_up_to_13_are_refused(game):
    game.offers(None)
    game.enter("Ann", 3, ["3H", "7S", "4D"])
    game.enter("Bo", 4, ["AC", "5S", "6D"])
    game.enter("Cy", 7, ["5D", "QS", "2D"])
    message = "The tricks add up to 14, not 13"
    for page in (game.tablet(), *(game.phone(name) for name in PLAYERS)):
        assert message in page
    response = game.post("confirm")
    assert response.status_code == 409 and message in text(response)
    game.enter("Cy", 6, ["5D", "QS", "2D"])
    assert message not in game.tablet() and 'data-testid="preview"' in game.tablet()


def test_the_tablet_enters_any_player_with_cards_or_just_the_number(game):
    game.offers(None)
    page = text(game.keeper.get(f"/t/{game.code}/games/1/clumond/players/3"))
    assert 'data-testid="how-number"' in page and page.count('name="declared"') == 10
    assert game.keeper_enter("Cy", 6, how="number", declared=1).status_code == 303
    assert "declared 1" in words(game.tablet()) and game.draft().facts["declared"] == {"Cy": 1}
    # Cy's phone saves tricks only: the number stays; cards replace it.
    assert "The scorekeeper entered your declaration as 1" in text(
        game.phones["Cy"].get(f"/t/{game.code}/games/1/clumond/seats/3/entry"))
    game.enter("Cy", 6)
    assert game.draft().facts["declared"] == {"Cy": 1}
    game.enter("Cy", 6, ["5D", "QS", "2D"])
    assert "declared" not in game.draft().facts and game.draft().facts["kept"]["Cy"] == [
        "5♦", "Q♠", "2♦"]
    # The tablet puts the number back, then takes the declaration out altogether.
    game.keeper_enter("Cy", 6, how="number", declared=1)
    assert "kept" not in game.draft().facts
    game.keeper_enter("Cy", None, how="none")
    assert game.draft().facts == {"passed": ["Ann", "Bo", "Cy"]}


@pytest.mark.parametrize(("form", "message"), [
    ({"how": "number", "tricks": "3"}, "Tap Ann's declared number (0 to 9)"),
    ({"how": "number", "declared": "10"}, "Ann's declared number must be from 0 to 9, not 10"),
    ({"how": "cards", "tricks": "3"}, "Pick Ann's 3 kept cards, or give the declared number"),
    ({"how": "guess"}, "Give the kept cards, the declared number, or neither"),
    ({"how": "cards", "kept": ["TH", "2H", "3H"]}, "10♥ is not in the Clumond deck"),
])
def test_a_bad_tablet_entry_is_refused_with_a_message(game, form, message):
    game.offers(None)
    response = game.post("players/1", form)
    assert response.status_code == 400 and message in text(response)
    assert 'data-testid="keeper-entry-page"' in text(response)
    assert "tricks" not in game.draft().facts


def test_in_a_declarer_round_only_the_declarers_declaration_is_needed(game):
    game.offers("Bo", "♠")
    assert "your kept cards are optional" in game.phone("Ann")
    game.enter("Ann", 1)
    game.enter("Cy", 0)
    assert "waiting for Bo's tricks and kept cards" in game.tablet()
    game.enter("Bo", 12, ["KH", "3D", "4D"])
    page = game.tablet()
    assert 'data-testid="preview"' in page and "not needed this round" in page


def test_three_phones_saving_in_the_same_instant_all_land(game):
    game.offers(None)
    for phone in game.phones.values():
        game.actions.token(phone)
    entries = TWO_MAKE_IT
    answers = at_once(lambda name: game.enter(name, entries["tricks"][name],
                                              entries["kept"][name]).status_code, PLAYERS)
    assert answers == dict.fromkeys(PLAYERS, 303)
    facts = game.draft().facts
    assert list(facts["tricks"]) == list(PLAYERS) and list(facts["kept"]) == list(PLAYERS)
    assert 'data-testid="preview"' in game.tablet()


# --------------------------------------------------------------------------- scores


def test_a_standard_round_where_two_make_it_on_the_tablet_and_each_phone(game):
    game.offers(None)
    for name in PLAYERS:
        game.enter(name, TWO_MAKE_IT["tricks"][name], TWO_MAKE_IT["kept"][name])
    page = words(game.tablet())
    assert "Pot 0 → 15 with the antes (5 each)" in page
    assert "→ 20 after the payments · Cy 5" in page
    assert "⅓ of that each to whoever made it: Ann 6 Bo 6" in page
    assert "8 stay in the pot" in page
    assert "Cy: 6 tricks: 6 count, declared 1: 5 off, pays 5" in page
    assert "Then Ann deals." in page
    mine = words(game.phone("Ann"))
    assert "Your round: 3 tricks: 3 count, declared 3: made it, takes ⅓ of the pot: 6" in mine
    assert "Your stack: 100 → 101 (+1)" in mine
    assert "Your stack: 100 → 90 (−10)" in words(game.phone("Cy"))
    game.confirm()
    result = replay(game.record())
    assert result["totals"] == {"Ann": 101, "Bo": 101, "Cy": 90} and result["pot"] == 8
    assert stacks_on(game.scores()) == result["totals"]
    assert "<strong>Ann</strong> deals" in game.tablet()
    assert "Round 1: 6 tricks: 6 count, declared 1: 5 off, pays 5 −10." in words(
        game.phone("Cy"))


def test_when_nobody_makes_it_the_pot_carries(game):
    game.play({"Ann": 4, "Bo": 5, "Cy": 4}, {"Ann": ["KH", "2D", "3D"],
                                             "Bo": ["AC", "KC", "QC"],
                                             "Cy": ["4D", "5D", "7D"]})
    rnd = replay(game.record())["rounds"][0]
    assert rnd["breakdown"]["left_in_pot"] == rnd["pot"] == 15 + 2 + 4 + 4
    assert "Pot 25 → 40 with the antes (5 each)" in words(game.tablet())
    assert number_in(game.scores(), "data-pot", "now") == 25


def test_a_declarer_round_won_and_one_lost(game):
    game.play({"Ann": 1, "Bo": 12, "Cy": 0}, {"Bo": ["KH", "3D", "4D"]}, declarer="Bo")
    assert replay(game.record())["totals"] == {"Ann": 95, "Bo": 110, "Cy": 95}
    game.offers("Bo", "none")  # Ann deals: Bo is asked first
    game.enter("Ann", 4)
    game.enter("Bo", 9, ["AC", "KH", "QD"])  # declares 5, 9 count: missed
    game.enter("Cy", 0)
    page = words(game.tablet())
    assert "Bo missed: the pot is split between the other two: Cy 7 Ann 7 (the odd chip stays)" \
        in page or "Bo missed: the pot is split between the other two: Ann 7 Cy 7" in page
    assert "1 stays in the pot" in page
    game.confirm()
    result = replay(game.record())
    assert result["totals"] == {"Ann": 97, "Bo": 105, "Cy": 97} and result["pot"] == 1
    scores = game.scores()
    assert re.search(r'class="declarer">Bo <abbr title="no trumps">NT</abbr> <span class="missed"',
                     scores)


def test_a_stack_below_zero_is_shown_as_owing(actions):
    game = start(actions, stack="0")
    game.play(**TWO_MAKE_IT)
    assert "−10<small class=\"owing-word\"> owing</small>" in game.scores()
    assert "−10<small class=\"owing-word\"> owing</small>" in game.phone("Cy")


def test_confirm_is_the_scorekeepers_waits_for_every_entry_and_lands_once(game):
    assert game.post("confirm").status_code == 409
    game.offers(None)
    game.enter("Ann", 3, ["3H", "7S", "4D"])
    response = game.post("confirm")
    assert response.status_code == 409 and "Waiting for Bo's tricks and kept cards" in text(
        response)
    game.enter("Bo", 4, ["AC", "5S", "6D"])
    game.enter("Cy", 6, ["5D", "QS", "2D"])
    assert game.post("confirm", client=game.phones["Ann"]).status_code == 403
    answers = at_once(lambda _: game.post("confirm", round_=1).status_code, range(2))
    assert sorted(answers.values()) == [303, 409]
    assert len(game.record()["rounds"]) == 1


def test_undo_brings_the_last_round_back_as_it_was(game):
    game.play({"Ann": 4, "Bo": 5, "Cy": 4}, {"Ann": ["KH", "2D", "3D"],
                                             "Bo": ["AC", "KC", "QC"],
                                             "Cy": ["4D", "5D", "7D"]})
    game.play({"Ann": 1, "Bo": 12, "Cy": 0}, {"Bo": ["KH", "3D", "4D"]}, declarer="Bo")
    record = game.record()
    assert game.post("undo", {"rounds": "1"}).status_code == 409
    assert game.post("undo", {"rounds": "2"}, client=game.phones["Ann"]).status_code == 403
    game.ok("undo", {"rounds": "2"})
    page = game.tablet()
    assert game.phase(page) == "tricks" and 'data-testid="preview"' in page
    assert "<strong>Bo</strong> went for Clumond" in page
    game.ok("take-back")  # the trump, then Bo's yes: Bo is asked again
    game.ok("take-back")
    assert 'data-testid="go-for-clumond"' in game.phone("Bo")
    game.answer("Bo", True)
    game.ok("seats/2/trump", {"trump": "♥"}, client=game.phones["Bo"])
    game.confirm()
    assert game.record() == record
    # A round nobody went for comes back as such.
    game.ok("undo", {"rounds": "2"})
    game.ok("undo", {"rounds": "1"})
    assert "Nobody went for Clumond" in game.tablet()
    game.ok("take-back")
    assert 'data-testid="go-for-clumond"' in game.phone("Cy")


def correction_form(facts: dict, rounds: int) -> dict:
    """The correction form as the page fills it in from a round's facts."""
    from companion.games.clumond.web.forms import codes_of

    form = {"rounds": str(rounds), "declarer": facts.get("declarer") or "",
            "trump": facts.get("trump") or ""}
    for index, name in enumerate(PLAYERS, 1):
        form[f"p{index}-tricks"] = str(facts["tricks"][name])
        if name in (facts.get("kept") or {}):
            form[f"p{index}-how"] = "cards"
            form[f"p{index}-kept"] = codes_of(facts["kept"][name])
        elif name in (facts.get("declared") or {}):
            form[f"p{index}-how"] = "number"
            form[f"p{index}-declared"] = str(facts["declared"][name])
        else:
            form[f"p{index}-how"] = "none"
    return form


def test_a_past_round_is_corrected_and_everything_after_follows(game):
    game.play(**TWO_MAKE_IT)
    game.play({"Ann": 4, "Bo": 5, "Cy": 4}, {"Ann": ["KH", "2D", "3D"],
                                             "Bo": ["AC", "KC", "QC"],
                                             "Cy": ["4D", "5D", "7D"]})
    record = game.record()
    before = replay(record)["totals"]
    page = text(game.keeper.get(f"/t/{game.code}/games/1/rounds/1"))
    assert 'name="p1-tricks" value="3" checked' in page
    assert 'name="p3-kept" value="QS" checked' in page
    assert "6 tricks: 6 count, declared 1: 5 off, pays 5" in page
    # Cy had kept the 5♠ too, not the 2♦: Cy declared 2.
    form = correction_form(record["rounds"][0], 2) | {"p3-kept": ["5D", "QS", "JS"]}
    preview = game.actions.post(f"/t/{game.code}/games/1/rounds/1", form | {"step": "preview"})
    assert preview.status_code == 200 and game.record() == record
    corrected = json_copy(record)
    corrected["rounds"][0]["kept"]["Cy"] = ["5♦", "Q♠", "J♠"]
    after = replay(corrected)["totals"]
    assert after != before
    for name in PLAYERS:
        cell = re.search(rf'<td data-total="{name}">(.*?)</td>', text(preview)).group(1)
        assert cell == f"{before[name]} → <strong>{after[name]}</strong>".replace("-", "−")
    response = game.actions.post(f"/t/{game.code}/games/1/rounds/1", form | {"step": "save"})
    assert response.status_code == 303
    assert game.record() == corrected and stacks_on(game.scores()) == after
    notice = words(re.search(r'data-testid="corrected">(.*?)</p>', game.phone("Cy"),
                             re.S).group(1))
    assert notice == f"Round 1 was corrected: your total {before['Cy']} → {after['Cy']}."


@pytest.mark.parametrize(("change", "message"), [
    ({"p3-kept": ["5D", "QS", "3H"]}, "3♥ is in both Ann's and Cy's kept cards"),
    ({"p3-tricks": "7"}, "the tricks add up to 14, not 13"),
    ({"p3-tricks": ""}, "Tap Cy's tricks"),
    ({"declarer": "Dan"}, "Pick who went for Clumond, or nobody"),
    ({"declarer": "Cy", "trump": ""}, "Cy went for Clumond: name a trump suit"),
    ({"p3-kept": ["5D", "QS", "TD"]}, "10♦ is not in the Clumond deck"),
])
def test_a_correction_that_cannot_be_changes_nothing(game, change, message):
    game.play(**TWO_MAKE_IT)
    record = game.record()
    form = correction_form(record["rounds"][0], 1) | change
    response = game.actions.post(f"/t/{game.code}/games/1/rounds/1", form | {"step": "save"})
    assert response.status_code == 400 and message in text(response)
    assert game.record() == record


def json_copy(value):
    import json

    return json.loads(json.dumps(value))


def test_every_number_on_the_pages_is_replays(game):
    game.play(**TWO_MAKE_IT)
    game.play({"Ann": 4, "Bo": 5, "Cy": 4}, {"Ann": ["KH", "2D", "3D"],
                                             "Bo": ["AC", "KC", "QC"],
                                             "Cy": ["4D", "5D", "7D"]})
    game.play({"Ann": 1, "Bo": 0, "Cy": 12}, {"Cy": ["KH", "3D", "4D"]}, declarer="Cy")
    result = replay(game.record())
    scores = game.scores()
    assert stacks_on(scores) == result["totals"]
    for number, rnd in enumerate(result["rounds"], 1):
        row = re.search(rf'<tr data-round="{number}"[^>]*>(.*?)</tr>', scores, re.S).group(1)
        for name in PLAYERS:
            assert number_in(row, "data-score", name) == rnd["scores"][name]
            assert re.search(rf'data-score="{name}">.*?class="running">'
                             rf'{str(rnd["totals"][name]).replace("-", "−")}<', row)
        assert number_in(row, "data-pot", str(number)) == rnd["pot"]
    assert number_in(scores, "data-pot", "now") == result["pot"]
    for name, amount in result["money"].items():
        shown = f"{amount:+d}".replace("-", "−") if amount else "0"
        assert re.search(rf'<th scope="row">{name}</th><td class="[a-z]*">{re.escape(shown)}</td>',
                         scores)
    # The round in progress: every figure of the preview is the rules' own.
    game.offers(None)
    for name in PLAYERS:
        game.enter(name, TWO_MAKE_IT["tricks"][name], TWO_MAKE_IT["kept"][name])
    page = game.tablet()
    with_round = game.record()
    from companion.games.clumond.rules import round_record

    facts = game.draft().facts
    with_round["rounds"].append(round_record(PLAYERS, None, None, facts["tricks"],
                                             facts["kept"], {}))
    preview = replay(with_round)["rounds"][-1]
    b = preview["breakdown"]
    for name in PLAYERS:
        assert number_in(page, "data-change", name) == preview["scores"][name]
        assert number_in(page, "data-stack", name) == preview["totals"][name]
        assert explain(b, name) in page
    assert number_in(page, "data-pot", "after-antes") == b["pot_after_antes"]
    assert number_in(page, "data-pot", "after-payments") == b["pot_after_payments"]
    assert number_in(page, "data-pot", "left") == b["left_in_pot"]
    for name in PLAYERS:
        if b["players"][name]["payout"]:
            assert re.search(rf'data-payout="{name}">{name} {b["players"][name]["payout"]}<',
                             page)


# --------------------------------------------------------------------------- the end


def test_the_end_shares_out_the_pot_and_settles_the_money(actions):
    game = start(actions, rounds="2", chip_value="0.10", unit="GBP")
    game.play(**TWO_MAKE_IT)
    game.play({"Ann": 4, "Bo": 5, "Cy": 4}, {"Ann": ["KH", "2D", "3D"],
                                             "Bo": ["AC", "KC", "QC"],
                                             "Cy": ["4D", "5D", "7D"]})
    record = game.record()
    result = replay(record)
    last = result["rounds"][-1]["breakdown"]
    assert result["finished"] and result["pot"] == 0 and last["left_in_pot"] == 33
    money = {name: amount * 10 for name, amount in result["money"].items()}
    for client, name in ((None, None), *((game.phones[n], n) for n in PLAYERS)):
        page = game.tablet() if client is None else game.phone(name)
        assert game.phase(page) == "end"
        said = words(page)
        assert "The game ended after 2 rounds." in said
        assert f"Winner: {result['winners'][0]}" in said
        assert ("The 33 chips left in the pot were shared out evenly in the last round, odd "
                "chips one each from the dealer's left (Bo, Cy, Ann):") in said
        assert {p: number_in(page, "data-share", p) for p in PLAYERS} == {
            p: line["share_out"] for p, line in last["players"].items()} == dict.fromkeys(
                PLAYERS, 11)
        assert stacks_on(page) == result["totals"]
        for player in PLAYERS:
            assert number_in(page, "data-chips", player) == result["money"][player]
            cell = re.search(rf'data-money="{player}"[^>]*>([^<]*)<', page).group(1)
            assert cell == (f"{'+' if money[player] > 0 else '−' if money[player] < 0 else ''}"
                            f"£{abs(money[player]) // 100}.{abs(money[player]) % 100:02d}")
        for payer, payee, amount in settle_up(money):
            assert f"{payer} pays {payee} £{amount // 100}.{amount % 100:02d}" in said
        # The game's own transfers are its share: the evening's ledger settles.
        share = said.index("This game's share of the evening")
        assert share < said.index("the one place to settle up") < said.index(" pays ")
        assert f'<a href="/t/{game.code}/evenings/1" data-testid="game-ledger-link">' in page
        if name is not None:
            assert re.findall(r'<tr class="mine" data-player="(\w+)">', page) == [name]
    assert game.post("seats/1/offer", {"answer": "yes"}, client=game.phones["Ann"],
                     round_=3).status_code == 409
    assert "Stacks after each round" in game.scores()


def test_the_last_round_of_a_finished_game_can_be_undone_and_played_again(actions):
    game = start(actions, rounds="1")
    game.play(**TWO_MAKE_IT)
    record = game.record()
    assert replay(record)["finished"] and game.phase() == "end"
    assert 'data-testid="undo-round"' in game.scores()
    game.ok("undo", {"rounds": "1"})
    page = game.tablet()
    assert game.phase(page) == "tricks" and 'data-testid="ends-game"' in page
    game.confirm()
    assert game.record() == record


def test_the_end_at_a_target_and_a_shared_win(actions):
    game = start(actions, ends="target", rounds="", target="105")
    game.play(**TWO_MAKE_IT)  # Ann and Bo 101
    game.play({"Ann": 4, "Bo": 4, "Cy": 5}, {"Ann": ["3H", "7S", "4S"],
                                             "Bo": ["5S", "6S", "2H"],
                                             "Cy": ["AC", "KC", "QC"]})
    result = replay(game.record())
    assert result["finished"] and result["winners"] == ["Ann", "Bo"]
    page = words(game.tablet())
    assert "The game ended when Ann and Bo reached the target of 105." in page
    assert "Shared win: Ann & Bo" in page


def test_a_game_closed_early_says_so_and_takes_no_more_taps(game):
    game.play(**TWO_MAKE_IT)
    game.actions.post(f"/t/{game.code}/games/1/end")
    page = game.tablet()
    assert game.phase(page) == "end" and 'data-testid="closed-early"' in page
    assert "with 8 in the pot" in page and 'data-testid="settle-up"' not in page
    response = game.post("seats/1/offer", {"answer": "no"}, client=game.phones["Ann"])
    assert response.status_code == 409 and "Game 1 is over" in text(response)
    assert game.phones["Ann"].get(f"/t/{game.code}/games/1/clumond/seats/1/entry"
                                  ).status_code == 409


def test_the_record_goes_out_and_comes_back_the_same(game):
    game.play(**TWO_MAKE_IT)
    game.play({"Ann": 1, "Bo": 0, "Cy": 12}, {"Cy": ["KH", "3D", "4D"]}, declarer="Cy")
    record = game.record()
    assert record["rounds"][0] == {"declarer": None, "trump": None,
                                   "tricks": {"Ann": 3, "Bo": 4, "Cy": 6},
                                   "kept": {"Ann": ["3♥", "7♠", "4♦"],
                                            "Bo": ["A♣", "5♠", "6♦"],
                                            "Cy": ["5♦", "Q♠", "2♦"]}}
    assert game.imported(record) == record


def test_the_rules_help_marks_the_house_decisions(game):
    assert 'data-testid="rules-link"' in game.phone("Bo")
    page = text(game.phones["Bo"].get(f"/rules/clumond?back=/t/{game.code}/seat"))
    assert page.count('<strong class="house"') >= 13 and "(house)" not in page
    assert re.search(r'<strong class="house"[^>]*>house</strong> Going for Clumond asks each '
                     r"player once", page)
    assert f'href="/t/{game.code}/seat"' in page


def test_the_game_panel_stops_offering_to_end_a_game_the_rules_have_finished(actions):
    """The tablet watches as the last round finishes the game: its next pulse answer draws
    the game panel again without the red "End the game", so the one next step is "Close
    game 1 and go on" at the top of the round."""
    game = start(actions, rounds="1")
    page = text(game.keeper.get(f"/t/{game.code}"))
    assert 'data-testid="end-game"' in page
    pulse = html.unescape(re.search(r'id="pulse" hidden hx-get="([^"]*)"', page).group(1))
    game.play(**TWO_MAKE_IT)
    answer = text(game.keeper.get(pulse, headers=HTMX))
    panel = re.search(r'<section class="panel game-area" id="game-area".*?</section>', answer,
                      re.S).group(0)
    assert 'hx-swap-oob="true"' in panel and "Game 1 (over)" in panel
    assert 'data-testid="end-game"' not in answer and "End the game" not in answer
    assert answer.count('data-testid="close-and-next"') == 1


def test_after_game_over_the_tablet_offers_the_next_game_at_the_top(actions):
    """Once the rules finish the game, the tablet's round starts with the next-game chooser
    (not a red "End the game"); one step closes the game and picks the next, and the
    start of that one is at the top too. The ledger then only closes the evening."""
    game = start(actions, rounds="1")
    page = text(game.keeper.get(f"/t/{game.code}"))
    assert 'data-testid="next-game-top"' not in page and 'data-testid="end-game"' in page
    game.play(**TWO_MAKE_IT)
    page = text(game.keeper.get(f"/t/{game.code}"))
    top = page.index('data-testid="next-game-top"')
    assert top < page.index('id="scoreboard"') and "Game over" in page[top:top + 200]
    assert 'data-testid="end-game"' not in page and "End this game for everyone" not in page
    ledger = text(game.keeper.get(f"/t/{game.code}/evening", follow_redirects=True))
    button = re.search(r'data-testid="close-evening">\s*([^<]+)<', ledger).group(1)
    assert button.strip() == "Close the evening" and "End game 1" not in ledger
    response = game.actions.post(f"/t/{game.code}/games/1/end", {"game": "tremp"})
    assert response.status_code == 303
    page = text(game.keeper.get(f"/t/{game.code}"))
    start_link = re.search(r'data-testid="start-next-top">([^<]+)<', page).group(1)
    assert start_link.startswith("Start Tremp")
    assert page.index('data-testid="start-next-top"') < page.index('id="keeper-live"')
    assert game.actions.post(f"/t/{game.code}/games/1/end", {"game": "tremp"}).status_code == 409


def test_the_tablet_saves_tricks_only_for_a_player_whose_kept_cards_are_optional(actions):
    """A declarer round, Ann without a phone: the tablet's page says her kept cards are
    optional, and Save with her tricks only (on the cards, none picked) is taken, again when
    reopened, and in a correction of the round; the declarer's cards are still asked for."""
    game = start(actions, seated=("Bo", "Cy"))
    game.offers("Bo", "♠")
    page = text(game.keeper.get(f"/t/{game.code}/games/1/clumond/players/1"))
    assert "kept cards are optional" in page and "Tap your" not in page
    for _ in range(2):  # saved, then reopened and saved again
        response = game.keeper_enter("Ann", 1, how="cards")
        assert response.status_code == 303, text(response)
        assert game.facts()["tricks"] == {"Ann": 1} and "kept" not in game.facts()
    refused = game.keeper_enter("Bo", 12, how="cards")
    assert refused.status_code == 400 and "Pick Bo's 3 kept cards" in text(refused)
    game.enter("Bo", 12, ["KH", "3D", "4D"])
    game.enter("Cy", 0)
    game.confirm()
    record = game.record()
    form = correction_form(record["rounds"][0], 1) | {"p1-how": "cards", "p1-tricks": "2",
                                                      "p2-tricks": "11"}
    response = game.actions.post(f"/t/{game.code}/games/1/rounds/1", form | {"step": "save"})
    assert response.status_code == 303, text(response)
    assert game.record()["rounds"][0]["tricks"] == {"Ann": 2, "Bo": 11, "Cy": 0}


def test_the_declarers_phone_takes_back_its_yes_until_the_trump_is_named(game):
    game.answer("Ann", False)
    game.answer("Bo", True)
    page = game.phone("Bo")
    assert 'data-testid="take-back-mine"' in page
    assert 'data-testid="take-back-mine"' not in game.phone("Cy")
    refused = game.post("seats/3/take-back", client=game.phones["Cy"])
    assert refused.status_code == 409 and "only Bo or the scorekeeper" in text(refused)
    game.ok("seats/2/take-back", client=game.phones["Bo"])
    assert game.facts().get("declarer") is None and game.facts()["passed"] == ["Ann"]
    assert 'data-testid="go-for-clumond"' in game.phone("Bo")
    game.answer("Bo", True)
    game.ok("seats/2/trump", {"trump": "♠"}, client=game.phones["Bo"])
    assert "Only the scorekeeper can take it back now" in game.phone("Bo")
    refused = game.post("seats/2/take-back", client=game.phones["Bo"])
    assert refused.status_code == 409 and "ask the scorekeeper" in text(refused)
    assert game.facts()["declarer"] == "Bo"
