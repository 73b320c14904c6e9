"""Trefeltromp through the pages: options, dealing, betting on the phones, buys, the sealed
reveals, the Fool's privilege, undo, leaving, the end, corrections and the record.

The tablet (``actions.keeper``) and a phone per player, each its own test
client. Every refusal is checked to change nothing; every number a page
shows is checked against the rules (``replay`` of the record with the hand
in progress).
"""

from __future__ import annotations

import json
import re
from html import unescape

import pytest

from companion.extensions import db
from companion.games.trefeltromp import rules
from companion.games.trefeltromp.web import FLOW
from companion.rules import replay
from companion.store import queries, sealed
from companion.store import rounds as round_store
from tests.conftest import element, sealed_fields
from tests.web.tables import HTMX, GameAtTable, as_logged, every_screen, fresh

pytestmark = pytest.mark.db

P3 = ("Ann", "Bo", "Cy")
P4 = ("Ann", "Bo", "Cy", "Di")
OPTIONS = {"unit": "GBP", "ante": "10", "stack": "100", "limit": "", "chip_value": ""}


def text(response) -> str:
    return unescape(response.get_data(as_text=True))


class Game(GameAtTable):
    """A Trefeltromp game at a table: the tablet and a phone per seated player."""

    GAME = "trefeltromp"
    GENERIC = ()  # undo too is Trefeltromp's own
    OK = (200, 303)
    body = staticmethod(text)

    def __init__(self, actions, code: str, phones: dict) -> None:
        super().__init__(actions, code, phones, tuple(phones) or P3)

    # --- reading

    def view(self, me: str | None = None):
        """The flow's moment, as the screens draw it."""
        with self.app.test_request_context():
            table = db.session.scalar(queries.table_by_code(self.code))
            return FLOW.moment(table, table.current_game, me)

    # --- doing

    def post(self, tail: str, data: dict | None = None, *, client=None, htmx=False,
             **fields):
        view = self.view()
        if "at" in fields:  # the moment of the hand the form was drawn for
            fields["moment"] = fields.pop("at")
        form = {"round": str(view.round_number), "moment": str(view.at),
                "from": "keeper" if client is None else "seat", **fields, **(data or {})}
        return self.actions.post(self.url(tail), form, client=client,
                                 headers=HTMX if htmx else {})

    def deal(self):
        return self.ok("deal")

    def draw(self):
        return self.ok("draw")

    def undo(self):
        return self.ok("undo")

    def act(self, name: str, verb: str, amount: int | None = None, *, tablet=False, **kwargs):
        data = {"verb": verb}
        if amount is not None:
            data["amount"] = str(amount)
        client = None if tablet else self.phones[name]
        return self.post(f"seats/{self.seat(name)}/act", data, client=client, **kwargs)

    def acts(self, *moves) -> None:
        """Each move is ``(name, verb)`` or ``(name, verb, amount)``, from the phones."""
        for move in moves:
            response = self.act(*move)
            assert response.status_code == 303, (move, text(response))

    def checks(self, *names) -> None:
        self.acts(*((n, "check") for n in names))

    def lay(self, name: str, card: str, *, client=None, htmx=False, stage=None):
        step = self.view().phase.value
        phone = client or self.phones[name]
        page = element(phone.get(f"/t/{self.code}/seat/pulse", headers=HTMX).get_data(as_text=True),
                       "round")
        data = sealed_fields(page, card) or {"choice": card}  # sealed as slip.js does
        if stage is not None:
            data["stage"] = str(stage)
        return self.actions.post(f"/t/{self.code}/games/1/sealed/{step}", data,
                                 client=phone,
                                 headers=HTMX if htmx else {})

    def reveal(self, cards: dict[str, str]) -> None:
        for name, card in cards.items():
            response = self.lay(name, card)
            assert response.status_code == 303, text(response)

    def buy(self, name: str, amount: int, *, tablet=False, **kwargs):
        view = self.view()
        return self.post(f"seats/{self.seat(name)}/buy",
                         {"amount": str(amount), "bought": str(view.buys_made(name))},
                         client=None if tablet else self.phones[name], **kwargs)

    def leave(self, name: str, leaves: str = "yes", *, tablet=False, **kwargs):
        return self.post(f"seats/{self.seat(name)}/leave", {"leaves": leaves},
                         client=None if tablet else self.phones[name], **kwargs)

    def to_banen(self) -> None:
        """Deal, everyone checks fyrsturkalla, the draw, everyone checks banenkalla."""
        self.deal()
        order = self.order()
        self.checks(*order)
        self.draw()
        self.checks(*order)
        assert self.phase() == "banen"

    def order(self) -> list[str]:
        """Who acts first to last in this hand's betting rounds (everyone still in)."""
        hand = self.view().hand
        first = hand.to_act
        seats = list(hand.seats)
        i = seats.index(first)
        return seats[i:] + seats[:i]


def start(actions, players=P3, *, phones=True, **options) -> Game:
    code = actions.create_table(game="trefeltromp", players=list(players))
    seated = actions.seat_everyone(code) if phones else []
    response = actions.post(f"/t/{code}/start", OPTIONS | options)
    assert response.status_code == 303, text(response)
    return Game(actions, code, dict(zip(players, seated, strict=False)))


@pytest.fixture
def game(actions) -> Game:
    """Ann, Bo and Cy with a phone each: ante 10, stack 100, Ann deals first."""
    return start(actions)


def refused(response, status: int, message: str) -> None:
    assert response.status_code == status, text(response)
    assert message in text(response), text(response)


def unchanged(game: Game, before: int) -> None:
    assert game.version() == before


# --------------------------------------------------------------------------- setting up


def test_the_start_form_asks_the_options_with_the_rules_defaults(actions):
    code = actions.create_table(game="trefeltromp", players=list(P3))
    actions.seat_everyone(code)
    page = text(actions.keeper.get(f"/t/{code}/start"))
    assert 'name="ante" value="10"' in page and 'name="stack" value="500"' in page
    assert 'name="limit" value=""' in page and 'name="chip_value" value=""' in page
    # The money a chip is worth starts as £, so the form's example (0.05) is taken as is.
    assert '<option value="GBP" selected>' in page and 'placeholder="e.g. 0.05"' in page
    form = dict(re.findall(r'name="(ante|stack|limit|chip_value)" value="([^"]*)"', page))
    response = actions.post(f"/t/{code}/start", form | {"unit": "GBP", "chip_value": "0.05"})
    assert response.status_code == 303, text(response)
    assert actions.table(code).games[0].options["chip_value"] == 5


def test_a_game_starts_with_the_records_option_names_and_the_tables_unit(actions):
    game = start(actions, limit="50", chip_value="0.05")
    assert game.record()["options"] == {"ante": 10, "stack": 100, "limit": 50,
                                        "chip_value": 5}
    assert actions.table(game.code).unit == "GBP"
    assert game.phase() == "ready"
    tablet = game.tablet()
    assert "Give each of the 3 players 100 chips. The ante is 10 a hand; no bet or raise " \
           "over 50." in tablet  # the deck-prep checklist, in the rules' words
    assert "Deal hand 1: the antes go in" in tablet
    assert re.search(r"<strong>Ann</strong> deals", tablet)


@pytest.mark.parametrize(("change", "message"), [
    ({"ante": "x"}, "The ante must be a whole number"),
    ({"stack": "-5"}, "The starting stack must be a whole number"),
    ({"limit": "0"}, "The limit on a bet or raise must be from 1"),
    ({"chip_value": "abc"}, "The value of one chip must be an amount like 2.50"),
    ({"unit": "chips", "chip_value": "5"}, "Pick the currency a chip is worth"),
    ({"unit": "kroner"}, "Pick the money unit"),
])
def test_bad_options_are_refused_with_a_message_and_start_nothing(actions, change, message):
    code = actions.create_table(game="trefeltromp", players=list(P3))
    actions.seat_everyone(code)
    response = actions.post(f"/t/{code}/start", OPTIONS | change)
    refused(response, 400, message)
    assert actions.table(code).games == []


# --------------------------------------------------------------------------- dealing and betting


def test_dealing_takes_the_antes_and_the_first_player_left_of_the_dealer_acts(game):
    before = game.record()
    game.deal()
    assert game.record() == before  # the hand lives in the draft until it is over
    assert game.facts() == {"started": True, "log": ["start"]}
    tablet = game.tablet()
    assert 'data-phase="fyrsturkalla"' in tablet and 'data-testid="pot">30<' in tablet
    for name in P3:
        assert f'data-stack="{name}">90<' in tablet
    bo, ann = game.phone("Bo"), game.phone("Ann")
    assert "Your turn." in bo and 'data-testid="turn"' in bo
    # Only the legal actions: check, bet (chips up to the stack), fold. No call, no stay.
    assert 'data-testid="act-check"' in bo and 'data-testid="act-bet"' in bo
    assert 'data-testid="act-fold"' in bo
    assert 'act-call' not in bo and 'act-stay' not in bo and 'act-raise' not in bo
    assert re.findall(r'name="amount" value="(\d+)"', bo) == ["5", "10", "25", "90"]
    assert 'data-testid="turn"' not in ann and "<strong>Bo</strong> to act" in ann
    assert "<strong>Bo</strong> to act, on their phone" in tablet


def test_a_call_shows_its_amount_and_a_raise_is_by_n_more(game):
    game.deal()
    game.acts(("Bo", "bet", 20))
    cy = game.phone("Cy")
    assert "Call 20" in cy and 'data-testid="act-raise"' in cy and "Raise by" in cy
    assert 'data-testid="to-call">20<' in cy
    assert re.findall(r'name="amount" value="(\d+)"', cy) == ["5", "10", "25", "70"]
    game.acts(("Cy", "raise", 10))
    ann = game.phone("Ann")
    assert "Call 30" in ann
    assert game.facts()["calls"] == [[["Bo", "bet", 20], ["Cy", "raise", 10]]]
    tablet = game.tablet()
    assert 'data-put="Cy">30<' in tablet and 'data-testid="pot">80<' in tablet


def test_a_typed_amount_wins_over_a_chip_and_the_tablet_acts_for_a_seat(game):
    game.deal()
    response = game.act("Bo", "bet", 5, tablet=True, typed="12")
    assert response.status_code == 303
    assert game.facts()["calls"] == [[["Bo", "bet", 12]]]


def test_an_action_out_of_turn_is_refused_where_the_player_looks(game):
    game.deal()
    before = game.version()
    refused(game.act("Cy", "check"), 409, "It is Bo's turn, not yours.")
    unchanged(game, before)
    answer = game.act("Cy", "check", htmx=True)
    assert answer.status_code == 409
    html = text(answer)
    assert 'id="round"' in html  # the phone's own region, polling on
    assert html.index("It is Bo's turn, not yours.") < html.index('data-testid="ledger"')
    refused(game.act("Cy", "check", tablet=True), 409, "It is Bo's turn, not Cy's.")
    unchanged(game, before)


def test_a_double_tap_acts_once(game):
    game.deal()
    view = game.view()
    form = {"round": "1", "moment": str(view.at), "verb": "check", "from": "seat"}
    url = f"/t/{game.code}/games/1/trefeltromp/seats/2/act"
    first = game.actions.post(url, form, client=game.phones["Bo"])
    second = game.actions.post(url, form, client=game.phones["Bo"])
    assert first.status_code == 303
    refused(second, 409, "That was for an earlier moment of the hand")
    assert game.facts()["calls"] == [[["Bo", "check"]]]


def test_a_tap_for_another_hand_is_refused(game):
    game.deal()
    before = game.version()
    refused(game.act("Bo", "check", round="2"), 409, "That was for another hand: the table "
                                                     "is on hand 1 now")
    unchanged(game, before)


@pytest.mark.parametrize(("move", "status", "message"), [
    (("Bo", "dance"), 400, "Tap check, bet, call, raise, fold or stay."),
    (("Bo", "bet"), 400, "The bet: tap an amount or type one."),
    (("Bo", "bet", 0), 400, "The bet must be from 1"),
    (("Bo", "bet", 91), 400, "Fyrsturkalla: Bo cannot cover a bet of 91 with 90 chips"),
    (("Bo", "raise", 5), 400, "Bo cannot raise: nobody has bet yet (bet instead)."),
    (("Bo", "call"), 400, "Bo cannot call: there is nothing to call (check instead)."),
    (("Bo", "stay"), 400, "Bo cannot stay: only a player who showed the Fool"),
])
def test_an_action_the_rules_refuse_changes_nothing(game, move, status, message):
    game.deal()
    before = game.version()
    refused(game.act(*move), status, message)
    unchanged(game, before)
    assert "calls" not in game.facts()


def test_the_table_limit_caps_a_bet(actions):
    game = start(actions, limit="25")
    game.deal()
    assert re.findall(r'name="amount" value="(\d+)"', game.phone("Bo")) == ["5", "10", "25"]
    refused(game.act("Bo", "bet", 30), 400, "Bo's bet of 30 is over the table limit of 25")


def test_a_phone_acts_only_for_its_own_seat(game):
    game.deal()
    response = game.post("seats/2/act", {"verb": "check"}, client=game.phones["Cy"])
    refused(response, 403, "This phone holds seat 3, not seat 2")
    stranger = game.actions.phone()
    assert game.post("seats/2/act", {"verb": "check"}, client=stranger).status_code == 403


def test_nobody_bets_before_the_deal_during_the_draw_or_a_reveal(game):
    refused(game.act("Bo", "check", round="1", at="0"), 409, "The hand has not been dealt yet")
    game.deal()
    game.checks("Bo", "Cy", "Ann")
    assert game.phase() == "draw"
    refused(game.act("Bo", "check"), 409, "The discard and draw comes first")
    assert "Discard one card face down and draw one" in game.phone("Bo")
    refused(game.post("draw", client=game.phones["Ann"]), 403, "scorekeeper")
    game.draw()
    game.checks("Bo", "Cy", "Ann")
    refused(game.act("Bo", "check"), 409, "Nobody bets during a reveal")
    refused(game.post("draw"), 409, "There is no discard and draw now")
    refused(game.post("deal"), 409, "This hand is dealt already")


# --------------------------------------------------------------------------- buying chips


def test_a_player_who_cannot_cover_a_call_is_offered_to_buy_or_fold(game):
    game.deal()
    game.acts(("Bo", "bet", 20), ("Cy", "call"), ("Ann", "call"))
    game.draw()
    game.acts(("Bo", "bet", 70))  # everything Bo has
    cy = game.phone("Cy")
    assert "You cannot cover the call of 70 with 70 chips" not in cy  # 70 covers 70
    game.acts(("Cy", "call"))
    game.buy("Ann", 10)  # Ann has 70: now 80, then Bo's 70 is covered … Ann raises
    game.acts(("Ann", "raise", 10))
    bo = game.phone("Bo")
    assert "You cannot cover the call of 10 with 0 chips" in bo
    assert "No all-ins (house rule)" in bo
    assert 'data-testid="act-call"' not in bo and 'data-testid="act-fold"' in bo
    assert re.findall(r'data-testid="buy-(\d+)"', bo) == ["10", "100"]
    assert "Buy 10 <small>(just enough)</small>" in bo
    tablet = game.tablet()
    assert "Bo cannot cover the call of 10 with 0 chips: Bo buys chips or folds, on the " \
           "phone or here." in tablet
    assert '<details class="act-here" open>' in tablet
    game.buy("Bo", 100)
    assert "Call 10" in game.phone("Bo")
    game.acts(("Bo", "call"))
    assert game.facts()["buys"] == [["Ann", 10], ["Bo", 100]]
    # The hand's story does not say these buys, made to cover a call, came before the hand.
    story = text(game.keeper.get(f"/t/{game.code}/games/1/trefeltromp/hands/1"))
    assert "Chips bought in this hand (before the deal or during it): Ann 10, Bo 100." in story
    assert "before the hand" not in story


def test_buys_between_hands_go_into_the_next_hand_and_a_double_tap_buys_once(game):
    view = game.view()
    form = {"round": "1", "moment": str(view.at), "amount": "50", "bought": "0", "from": "seat"}
    url = f"/t/{game.code}/games/1/trefeltromp/seats/2/buy"
    assert game.actions.post(url, form, client=game.phones["Bo"]).status_code == 303
    refused(game.actions.post(url, form, client=game.phones["Bo"]), 409,
            "Bo bought chips a moment ago")
    assert game.buy("Cy", 30, tablet=True).status_code == 303
    assert game.buy("Bo", 25).status_code == 303
    assert game.facts()["buys"] == [["Bo", 50], ["Cy", 30], ["Bo", 25]]
    assert 'data-buying="Bo">+75<' in game.tablet()  # the rules add them up
    assert "+75 bought for this hand" in game.phone("Bo")
    game.deal()
    game.acts(("Bo", "fold"), ("Cy", "fold"))  # Ann takes the pot: the hand is over
    assert game.record()["rounds"][0]["buys"] == [["Bo", 75], ["Cy", 30]]


@pytest.mark.parametrize(("amount", "message"), [
    ("", "The chips to buy: tap an amount or type one."),
    ("0", "The chips to buy must be from 1"),
    ("lots", "The chips to buy must be a whole number"),
    ("100001", "The chips to buy must be from 1 to 100000"),
    ("1234567", "The chips to buy must be a whole number"),
])
def test_a_bad_buy_is_refused(game, amount, message):
    before = game.version()
    refused(game.post("seats/2/buy", {"amount": amount, "bought": "0"},
                      client=game.phones["Bo"]), 400, message)
    unchanged(game, before)


def test_the_ante_waits_for_a_buy_when_a_stack_cannot_cover_it(actions):
    game = start(actions, stack="5")
    tablet = game.tablet()
    assert "Ann cannot cover the ante of 10 with 5 chips; buy more or leave the table" in tablet
    assert re.search(r'data-testid="deal" disabled', tablet)
    refused(game.post("deal"), 409, "cannot cover the ante of 10")
    for name in P3:
        game.buy(name, 100)
    game.deal()
    assert game.phase() == "fyrsturkalla"


# --------------------------------------------------------------------------- the reveals


def test_each_player_in_lays_a_card_on_a_tarot_picker_and_all_turn_together(game):
    game.to_banen()
    ann = game.phone("Ann")
    assert 'data-phase="banen"' in ann and 'data-testid="tarot-picker"' in ann
    picker = re.findall(r'name="choice" value="([^" ]+) \.*"', ann)
    assert picker[:3] == ["Fool", "I", "II"] and picker[21] == "XXI" and len(picker) == 78
    assert picker[22:36] == ["A♠", "2♠", "3♠", "4♠", "5♠", "6♠", "7♠", "8♠", "9♠", "10♠",
                             "P♠", "N♠", "Q♠", "K♠"]
    assert re.findall(r'name="suit" value="(\w)"', ann) == ["S", "H", "D", "C"]
    assert "0 of 1" in ann and "1 of 1" in ann  # the picker's count (CSS shows the right one)
    game.reveal({"Ann": "Fool", "Bo": "XXI"})
    mine = game.phone("Ann")
    assert "Your card is in, face down." in mine and "tarot-picker" not in mine
    assert "2 of 3</strong> cards in" in game.tablet()
    game.reveal({"Cy": "kh"})  # any spelling the rules read
    assert game.facts()["shows"] == [{"Ann": "Fool", "Bo": "XXI", "Cy": "K♥"}]
    for html in (game.tablet(), *(game.phone(n) for n in P3)):
        assert 'data-phase="banenkalla"' not in html and 'data-phase="detuilerkalla"' in html
        assert 'data-reveal="banen" data-winner="Bo"' in html
        assert 'data-player="Cy" data-card="K♥"' in html
        assert "<strong>Bo</strong> wins banen and takes ⅓ of the pot: " \
               '<strong data-testid="share">10</strong>. Pot ' \
               '<span data-testid="pot-before">30</span> → ' \
               '<strong data-testid="pot-after">20</strong>.' in html


def test_the_fool_that_does_not_win_lets_its_holder_stay_in_the_next_betting_round(game):
    game.to_banen()
    game.reveal({"Ann": "Fool", "Bo": "I", "Cy": "Q♠"})  # I beats the Fool
    assert game.view().reveal.winner == "Bo"
    game.acts(("Bo", "bet", 5), ("Cy", "call"))
    ann = game.phone("Ann")
    assert 'data-testid="act-stay"' in ann and "Stay: the Fool's privilege" in ann
    assert "Call 5" in ann  # she may also match, like everyone else
    assert 'may stay' in game.tablet()
    game.acts(("Ann", "stay"))
    assert game.phase() == "detuiler"  # Ann is not asked again, and shows her card
    assert game.facts()["calls"][2] == [["Bo", "bet", 5], ["Cy", "call"], ["Ann", "stay"]]
    assert "Ann" in game.view().sealing.choosers


def test_any_action_other_than_stay_gives_the_privilege_up(game):
    game.to_banen()
    game.reveal({"Ann": "Fool", "Bo": "I", "Cy": "Q♠"})
    game.acts(("Bo", "check"), ("Cy", "check"), ("Ann", "bet", 5), ("Bo", "raise", 5),
              ("Cy", "call"))
    ann = game.phone("Ann")
    assert "Call 5" in ann and 'data-testid="act-stay"' not in ann
    refused(game.act("Ann", "stay"), 400, "Ann gave up the Fool's privilege by acting")


def test_the_fool_that_wins_gives_no_privilege(game):
    game.to_banen()
    game.reveal({"Ann": "Fool", "Bo": "K♥", "Cy": "Q♠"})  # the only trump: it wins
    assert game.view().reveal.winner == "Ann"
    game.acts(("Bo", "bet", 5), ("Cy", "call"))
    assert 'data-testid="act-stay"' not in game.phone("Ann")


def test_a_tie_at_a_reveal_says_the_pot_stays(game):
    game.to_banen()
    game.reveal({"Ann": "Q♠", "Bo": "N♦", "Cy": "7♣"})
    html = game.phone("Cy")
    assert "Tie: the pot stays (Ann and Bo share the best card), at " \
           '<strong data-testid="pot-after">30</strong>.' in html
    assert "Pot <span data-testid=\"pot-before\">30</span> → " not in html


@pytest.mark.parametrize(("card", "status", "message"), [
    ("", 400, "Pick the card you lay down first."),
    ("J♠", 400, "Banen: Ann's card: J♠ is not a tarot card (the court cards are P, N, Q, K)."),
    ("red joker", 400, "the red joker is not a tarot card"),
    ("zz", 400, "is not a card"),
])
def test_a_card_that_is_not_a_tarot_card_is_refused(game, card, status, message):
    game.to_banen()
    before = game.version()
    refused(game.lay("Ann", card), status, message)
    unchanged(game, before)


def test_a_card_shown_earlier_in_the_hand_is_refused_by_anyone(game):
    game.to_banen()
    game.reveal({"Ann": "XXI", "Bo": "K♥", "Cy": "2♣"})
    game.checks("Bo", "Cy", "Ann")
    before = game.version()
    refused(game.lay("Ann", "XXI"), 400, "Detuiler: XXI was shown at banen this hand.")
    refused(game.lay("Cy", "K♥"), 400, "Detuiler: K♥ was shown by Bo at banen this hand.")
    unchanged(game, before)
    picker = game.phone("Cy")
    assert re.search(r'<label class="pick tarot taken"><input type="radio" name="choice" '
                     r'value="K♥ \.*" data-testid="card-K♥" disabled>', picker)


def test_one_card_each_and_only_the_players_still_in(game):
    game.deal()
    game.acts(("Bo", "fold"), ("Cy", "check"), ("Ann", "check"))
    game.draw()
    game.checks("Cy", "Ann")
    game.reveal({"Ann": "XXI"})
    refused(game.lay("Ann", "XX"), 409, "Ann has laid a card already: one card each.")
    refused(game.lay("Bo", "XX"), 403, "Bo lays no card now.")
    assert "You folded: you lay no card." in game.phone("Bo")
    assert "Waiting for Cy to lay a card" in game.phone("Bo")
    stale = game.lay("Cy", "XX", stage=7)
    refused(stale, 409, "That card was for an earlier moment of this reveal")


def test_a_slip_for_another_reveal_or_no_reveal_is_refused(game):
    game.deal()
    refused(game.actions.post(f"/t/{game.code}/games/1/sealed/banen", {"choice": "XXI"},
                              client=game.phones["Ann"]), 409, "no slip to drop now")
    refused(game.actions.post(f"/t/{game.code}/games/1/sealed/vote", {"choice": "XXI"},
                              client=game.phones["Ann"]), 404, "no such choice")


def test_a_restart_mid_reveal_asks_for_the_cards_again_on_every_screen(app, game):
    game.to_banen()
    game.reveal({"Ann": "XXI"})
    assert "1 of 3</strong> cards in" in game.tablet()
    before = game.version()
    sealed.install_keys(app, None)  # a new server process: an empty key store, whose first
    # request voids the reveal whose key is lost
    tablet = game.tablet()
    assert game.version() == before + 1, "every open screen hears of it at once"
    assert "The server restarted: everyone lays their card again." in tablet
    assert "0 of 3</strong> cards in" in tablet
    for name in ("Ann", "Bo", "Cy"):
        phone = game.phone(name)
        assert "The server restarted: please lay your card again." in phone
        assert 'data-step="choose"' in phone
    game.reveal({"Ann": "XXI", "Bo": "K♥", "Cy": "2♣"})
    assert game.facts()["shows"] == [{"Ann": "XXI", "Bo": "K♥", "Cy": "2♣"}]
    assert "restarted" not in game.tablet()


def test_a_card_laid_by_two_players_is_laid_again_by_those_two(game):
    game.to_banen()
    game.reveal({"Ann": "XXI", "Bo": "K♥", "Cy": "K♥"})
    assert "shows" not in game.facts() or not game.facts()["shows"]
    for html in (game.tablet(), game.phone("Ann")):
        assert 'data-testid="clash"' in html and "was laid by both Bo and Cy" in html
        assert "Bo and Cy, lay your card again." in html
        assert 'data-player="Ann"><span class="name">Ann</span> <span class="card trump">XXI' \
            in html
    assert 'data-step="choose"' in game.phone("Bo") and 'data-step="choose"' in \
        game.phone("Cy")
    assert "Waiting for Bo and Cy to lay a card" in game.phone("Ann")
    refused(game.lay("Bo", "XXI"), 400, "XXI is the card Ann laid at this reveal: pick yours.")
    game.reveal({"Bo": "K♥", "Cy": "K♠"})
    assert game.facts()["shows"] == [{"Ann": "XXI", "Bo": "K♥", "Cy": "K♠"}]
    assert "clash" not in game.facts() and game.phase() == "detuilerkalla"


def test_a_player_without_a_phone_lays_a_card_on_the_tablets_private_screen(actions):
    code = actions.create_table(game="trefeltromp", players=list(P3))
    ann, _ = actions.claim(code, 1)
    bo, _ = actions.claim(code, 2)
    actions.post(f"/t/{code}/start", OPTIONS)
    game = Game(actions, code, {"Ann": ann, "Bo": bo})
    game.players = P3
    game.deal()
    assert "<strong>Bo</strong> to act, on their phone" in game.tablet()
    game.checks("Bo")
    tablet = game.tablet()
    assert "<strong>Cy</strong> to act: Cy has no phone, tap it here." in tablet
    assert game.act("Cy", "check", tablet=True).status_code == 303
    game.checks("Ann")
    game.draw()
    game.checks("Bo")
    game.act("Cy", "check", tablet=True)
    game.checks("Ann")
    assert "Lay a card on this tablet" in game.tablet() and "for Cy (no phone)" in game.tablet()
    private = f"/t/{code}/games/1/sealed/banen/private"
    page = text(actions.keeper.get(private))
    assert 'data-testid="private-Cy"' in page
    slip = text(actions.post(private, {"chooser": "Cy"}))
    assert 'data-testid="tarot-picker"' in slip
    done = actions.post(private, {"chooser": "Cy", "choice": "XIX", "stage": "1"})
    assert done.status_code == 303 and done.headers["Location"].endswith("private?done=1")
    assert "XIX" not in text(actions.keeper.get(done.headers["Location"])).split(
        'id="private-slip"')[1]
    game.reveal({"Ann": "II", "Bo": "III"})
    assert game.facts()["shows"] == [{"Ann": "II", "Bo": "III", "Cy": "XIX"}]


# --------------------------------------------------------------------------- the end of a hand


def test_a_hand_won_by_folds_joins_the_record_at_once(game):
    game.deal()
    game.acts(("Bo", "bet", 10), ("Cy", "fold"), ("Ann", "fold"))
    record = game.record()
    assert record["rounds"] == [{"buys": [], "leave": [],
                                 "calls": [[["Bo", "bet", 10], ["Cy", "fold"],
                                            ["Ann", "fold"]]], "shows": []}]
    assert game.phase() == "ready" and game.facts() == {}
    tablet = game.tablet()
    assert "Everyone else folded: <strong>Bo</strong> takes the whole pot, " \
           '<strong data-testid="share">40</strong>' in tablet
    assert re.search(r"<strong>Cy</strong> deals", tablet)  # the deal passes to the right
    assert 'data-stack="Bo">120<' in tablet


def test_a_whole_hand_is_recorded_in_the_records_form(game):
    game.deal()
    game.acts(("Bo", "check"), ("Cy", "bet", 20), ("Ann", "call"), ("Bo", "fold"))
    game.draw()
    game.checks("Cy", "Ann")
    game.reveal({"Ann": "XXI", "Cy": "K♥"})
    game.acts(("Cy", "bet", 10), ("Ann", "call"))
    game.reveal({"Ann": "Fool", "Cy": "7♣"})
    game.checks("Cy", "Ann")
    game.reveal({"Ann": "A♠", "Cy": "A♦"})
    (hand,) = game.record()["rounds"]
    assert hand == {"buys": [], "leave": [],
                    "calls": [[["Bo", "check"], ["Cy", "bet", 20], ["Ann", "call"],
                               ["Bo", "fold"]],
                              [["Cy", "check"], ["Ann", "check"]],
                              [["Cy", "bet", 10], ["Ann", "call"]],
                              [["Cy", "check"], ["Ann", "check"]]],
                    "shows": [{"Ann": "XXI", "Cy": "K♥"}, {"Ann": "Fool", "Cy": "7♣"},
                              {"Ann": "A♠", "Cy": "A♦"}]}
    result = replay(game.record())
    assert result["pot"] == 34 and result["totals"] == {"Ann": 116, "Bo": 90, "Cy": 60}
    tablet = game.tablet()
    assert 'data-reveal="debekranse" data-winner=""' in tablet  # aces tie: the pot stays
    assert 'data-testid="pot">34<' in tablet


# --------------------------------------------------------------------------- undo


def test_the_tablet_undoes_the_last_action_then_the_draw_then_the_deal(game):
    game.deal()
    game.acts(("Bo", "check"), ("Cy", "bet", 20))
    tablet = game.tablet()
    assert "Undo: Cy's bet of 20" in tablet
    game.undo()
    assert game.facts()["calls"] == [[["Bo", "check"]]]
    assert "Your turn." in game.phone("Cy")
    game.acts(("Cy", "check"), ("Ann", "check"))
    game.draw()
    assert "Undo: the discard and draw" in game.tablet()
    game.undo()
    assert game.phase() == "draw"
    for _ in range(3):
        game.undo()
    assert "Undo: the deal (the antes go back)" in game.tablet()
    game.undo()
    assert game.phase() == "ready" and game.facts() == {"log": []}
    refused(game.post("undo"), 409, "Nothing has happened in this hand yet")
    refused(game.post("undo", client=game.phones["Ann"]), 403, "")


def test_undoing_a_reveal_lays_its_cards_again(game):
    game.to_banen()
    game.reveal({"Ann": "XXI", "Bo": "K♥", "Cy": "2♣"})
    assert "Undo: the banen reveal" in game.tablet()
    game.undo()
    assert game.phase() == "banen" and not game.facts().get("shows")
    assert 'data-step="choose"' in game.phone("Bo")
    assert "0 of 3</strong> cards in" in game.tablet()
    game.reveal({"Ann": "XX", "Bo": "K♥", "Cy": "2♣"})
    assert game.facts()["shows"] == [{"Ann": "XX", "Bo": "K♥", "Cy": "2♣"}]


def test_undoing_the_action_that_ended_a_betting_round_drops_the_cards_laid(game):
    game.to_banen()
    game.reveal({"Ann": "XXI"})
    game.undo()  # Ann's check: banenkalla again; the card laid is gone, unread
    assert game.phase() == "banenkalla"
    with game.app.app_context():
        table = db.session.scalar(queries.table_by_code(game.code))
        assert db.session.query(sealed.Slip).count() == 0
        assert all(s.revealed for s in db.session.query(sealed.Sealing)) or \
            db.session.query(sealed.Sealing).count() == 0
        assert table is not None
    game.checks("Ann")
    assert "0 of 3</strong> cards in" in game.tablet()


def test_undoing_a_clash_lays_every_card_again(game):
    game.to_banen()
    game.reveal({"Ann": "XXI", "Bo": "K♥", "Cy": "K♥"})
    assert "Undo: the cards laid at this reveal" in game.tablet()
    game.undo()
    assert "clash" not in game.facts() and 'data-step="choose"' in game.phone("Ann")
    game.reveal({"Ann": "XXI", "Bo": "K♥", "Cy": "K♠"})
    assert game.facts()["shows"] == [{"Ann": "XXI", "Bo": "K♥", "Cy": "K♠"}]


def test_the_last_hand_is_undone_from_the_record_and_played_on(game):
    game.deal()
    game.acts(("Bo", "bet", 10), ("Cy", "fold"), ("Ann", "fold"))
    response = game.actions.post(f"/t/{game.code}/games/1/undo", {"rounds": "1"})
    assert response.status_code == 303
    assert game.record()["rounds"] == [] and game.phase() == "hand-over"
    assert "Confirm hand 1" in game.tablet()
    refused(game.buy("Ann", 10), 409, "Chips are bought between hands")
    game.undo()  # Ann's fold: back in the hand, Ann to act
    assert game.phase() == "fyrsturkalla" and "Your turn." in game.phone("Ann")
    game.acts(("Ann", "call"))
    assert game.phase() == "draw"


def test_a_hand_put_back_at_its_end_is_confirmed_again(game):
    game.deal()
    game.acts(("Bo", "bet", 10), ("Cy", "fold"), ("Ann", "fold"))
    before = game.record()["rounds"]
    game.actions.post(f"/t/{game.code}/games/1/undo", {"rounds": "1"})
    response = game.actions.post(f"/t/{game.code}/games/1/confirm", {"round": "1"})
    assert response.status_code == 303 and game.record()["rounds"] == before
    refused(game.actions.post(f"/t/{game.code}/games/1/confirm", {"round": "2"}), 409,
            "The hand is not over yet")


# --------------------------------------------------------------------------- leaving and the end


def test_players_leave_between_hands_with_their_stack(actions):
    game = start(actions, P4)
    refused(game.leave("Di"), 409, "Players leave after a hand: play one first.")
    game.buy("Di", 40)
    game.deal()
    game.acts(("Bo", "fold"), ("Cy", "fold"), ("Di", "fold"))
    refused(game.leave("Di", round="1", at="9"), 409, "That was for another hand")
    game.buy("Di", 20)
    assert game.leave("Di").status_code == 303
    assert game.record()["rounds"][0]["leave"] == ["Di"]
    assert "buys" not in game.facts()  # Di's buy for the next hand went with him
    assert "You leave the table after hand 1 with <strong>130</strong> chips." in \
        game.phone("Di")
    assert re.search(r"<strong>Cy</strong> deals", game.tablet())
    refused(game.leave("Di"), 409, "Di has left the table already.")
    refused(game.buy("Di", 10), 409, "Di has left the table and buys no more chips.")
    assert game.leave("Di", "no").status_code == 303  # Di stays after all
    assert game.record()["rounds"][0]["leave"] == []
    refused(game.leave("Di", "no"), 409, "Di is not leaving.")
    refused(game.leave("Di", "maybe"), 400, "Leave the table, or stay?")
    game.leave("Di", tablet=True)
    game.deal()
    assert game.view().hand.seats == ("Ann", "Bo", "Cy")
    refused(game.leave("Ann"), 409, "Players leave between hands")


def test_when_the_last_players_leave_the_pot_is_shared_out_and_the_game_ends(actions):
    game = start(actions, chip_value="0.10")
    game.to_banen()
    game.reveal({"Ann": "Q♠", "Bo": "K♦", "Cy": "2♣"})
    game.checks("Bo", "Cy", "Ann")
    game.reveal({"Ann": "A♠", "Bo": "A♦", "Cy": "3♣"})
    game.checks("Bo", "Cy", "Ann")
    game.reveal({"Ann": "7♠", "Bo": "7♦", "Cy": "4♣"})
    assert replay(game.record())["pot"] == 30
    game.leave("Bo")
    assert game.phase() == "ready"
    game.leave("Ann", tablet=True)  # Cy is left alone: Cy leaves too
    assert game.record()["rounds"][0]["leave"] == ["Ann", "Bo", "Cy"]
    assert game.phase() == "end"
    result = replay(game.record())
    assert result["finished"] and result["rounds"][0]["breakdown"]["share_out"] == {
        "Bo": 10, "Cy": 10, "Ann": 10}
    final = rules.figures(game.record())
    for name in game.phones:
        html = game.phone(name)
        assert re.search(rf'<tr class="mine" data-player="{name}">', html)
        assert len(re.findall(r'<tr class="mine"', html)) == 1
    tablet = game.tablet()
    assert '<tr class="mine"' not in tablet
    assert "The pot of 30 was shared out among the last hand's players: Bo 10, Cy 10, Ann 10." \
        in tablet
    for line in final.lines:
        assert f'data-stack="{line.player}">{line.stack}<' in tablet
        assert f'data-bought="{line.player}">{line.bought}<' in tablet
    assert "Nobody owes anybody anything." in tablet  # all even: 100 each
    # Taken back: everyone sits down again, the game goes on.
    assert "Take back the leaving after hand 1" in tablet
    assert game.ok("stay").status_code in (200, 303)
    assert game.phase() == "ready" and game.record()["rounds"][0]["leave"] == []
    refused(game.post("stay"), 409, "Nobody has ended the game by leaving.")


def test_the_end_says_who_pays_whom_with_a_chip_value(actions):
    game = start(actions, chip_value="0.05")
    game.deal()
    game.acts(("Bo", "bet", 50), ("Cy", "fold"), ("Ann", "fold"))
    game.leave("Ann")
    game.leave("Bo")
    record = game.record()
    final = rules.figures(record)
    assert final.transfers == (("Ann", "Bo", 50), ("Cy", "Bo", 50))
    for name in P3:
        html = game.phone(name)
        assert "<strong>Ann</strong> pays <strong>Bo</strong> £0.50" in html
        assert "<strong>Cy</strong> pays <strong>Bo</strong> £0.50" in html
        assert 'data-money="Bo" class="gain">+£1.00<' in html
        assert 'data-money="Ann" class="loss">−£0.50<' in html  # one minus sign
        assert "Winner: <strong>Bo</strong>" in html
    assert re.search(r'<li class="mine" data-payer="Ann"', game.phone("Ann"))


def test_a_game_closed_early_keeps_the_stacks_as_they_stood(game):
    game.deal()
    game.acts(("Bo", "bet", 10))
    game.actions.post(f"/t/{game.code}/games/1/end")
    tablet = game.tablet()
    assert 'data-phase="end"' in tablet and "The scorekeeper closed this game" in tablet
    refused(game.act("Cy", "call"), 409, "Game 1 is over")


# --------------------------------------------------------------------------- looking back


def test_a_hand_can_be_looked_back_at_step_by_step(game):
    game.deal()
    game.acts(("Bo", "check"), ("Cy", "bet", 20), ("Ann", "call"), ("Bo", "fold"))
    game.draw()
    current = text(game.keeper.get(f"/t/{game.code}/games/1/trefeltromp/hands/1"))
    assert "being played" in current and "Cy bets 20: puts in 20" in current
    assert "pot 30 → 50" in current
    game.checks("Cy", "Ann")
    game.reveal({"Ann": "XXI", "Cy": "K♥"})
    game.acts(("Cy", "fold"))
    watcher = game.actions.app.test_client()  # anyone with the link may look back
    page = text(watcher.get(f"/t/{game.code}/games/1/trefeltromp/hands/1"))
    story = rules.hand_story(replay(game.record())["rounds"][0])
    moves = [f"pot stays {e.pot_after}" if e.pot_before == e.pot_after
             else f"pot {e.pot_before} → {e.pot_after}" for e in story
             if e.kind.value not in ("betting", "left", "draw")]
    assert re.findall(r'<span class="pot-move">([^<]*)</span>', page) == moves
    assert "Banen</strong>: Ann <span class=\"card trump\">XXI</span>" in page
    assert "Ann takes ⅓: 23" in page
    assert "Everyone else folded: Ann takes the pot, 47." in page
    assert watcher.get(f"/t/{game.code}/games/1/trefeltromp/hands/3").status_code == 404
    assert watcher.get(f"/t/{game.code}/games/1/trefeltromp/hands/0").status_code == 404
    assert f'href="/t/{game.code}/games/1/trefeltromp/hands/1"' in text(
        game.keeper.get(f"/t/{game.code}/pulse", headers=HTMX))


def test_a_past_hand_is_corrected_and_every_hand_after_it_follows(game):
    game.deal()
    game.acts(("Bo", "bet", 10), ("Cy", "fold"), ("Ann", "fold"))
    game.deal()  # Cy deals: Ann first
    game.acts(("Ann", "bet", 5), ("Bo", "fold"), ("Cy", "fold"))
    assert replay(game.record())["totals"] == {"Ann": 110, "Bo": 110, "Cy": 80}
    page = text(game.keeper.get(f"/t/{game.code}/games/1/rounds/1"))
    assert 'name="call-0"' in page and "Bo bet 10\nCy fold\nAnn fold" in page
    assert "Everyone else folded: Bo takes the pot, 40." in page  # the hand as recorded
    form = {"rounds": "2", "call-0": "Bo bet 10\ncy call\nAnn fold",
            "call-1": "Bo bet 5\nCy fold", "step": "preview"}
    preview = game.actions.post(f"/t/{game.code}/games/1/rounds/1", form)
    assert preview.status_code == 200, re.findall(r'role="alert"[^>]*>([^<]*)', text(preview))
    assert 'data-total="Cy">80 → <strong>70</strong>' in text(preview)
    saved = game.actions.post(f"/t/{game.code}/games/1/rounds/1", form | {"step": "save"})
    assert saved.status_code == 303
    record = game.record()
    assert record["rounds"][0]["calls"] == [[["Bo", "bet", 10], ["Cy", "call"],
                                             ["Ann", "fold"]], [["Bo", "bet", 5],
                                                                ["Cy", "fold"]]]
    assert replay(record)["totals"] == {"Ann": 110, "Bo": 120, "Cy": 70}
    board = game.scores()
    assert numbers_on(board, "data-total") == {"Ann": 110, "Bo": 120, "Cy": 70}


def test_a_hand_in_play_that_no_longer_fits_a_corrected_hand_is_undone_until_it_does(game):
    game.deal()
    game.acts(("Bo", "bet", 10), ("Cy", "fold"), ("Ann", "fold"))
    game.deal()
    game.acts(("Ann", "bet", 80))
    form = {"rounds": "1", "call-0": "Bo bet 10\nCy fold\nAnn call",
            "call-1": "Bo bet 10\nAnn fold", "step": "save"}
    assert game.actions.post(f"/t/{game.code}/games/1/rounds/1", form).status_code == 303
    assert game.phase() == "check"
    tablet = game.tablet()
    assert "Round 2, fyrsturkalla: Ann cannot cover a bet of 80 with 70 chips" in tablet
    assert "The scorekeeper is putting the hand right." in game.phone("Ann")
    assert "Undo: Ann's bet of 80" in tablet
    game.undo()
    assert game.phase() == "fyrsturkalla" and "Your turn." in game.phone("Ann")


@pytest.mark.parametrize(("field", "value", "message"), [
    ("call-0", "Zed bet 10", "Fyrsturkalla, line 1: start with a player's name"),
    ("call-0", "Bo dances", "Fyrsturkalla, line 1: Bo: 'dances' is not an action"),
    ("call-0", "Bo bet", "Fyrsturkalla, line 1: Bo's bet needs an amount"),
    ("call-0", "Bo bet ten", "Fyrsturkalla, line 1: Bo's bet must be a whole number"),
    ("call-0", "Bo check 5", "Bo's check takes no amount"),
    ("call-0", "Bo", "after Bo, write check, bet N"),
    ("buy-1", "x", "Ann's chips bought must be a whole number"),
    ("show-0-1", "J♠", "Banen: Ann's card: J♠ is not a tarot card"),
    ("call-0", "Cy check", "it is Bo's turn, not Cy's"),
])
def test_a_bad_correction_is_refused_with_a_message(game, field, value, message):
    game.deal()
    game.acts(("Bo", "bet", 10), ("Cy", "fold"), ("Ann", "fold"))
    before = game.record()
    response = game.actions.post(f"/t/{game.code}/games/1/rounds/1",
                                 {"rounds": "1", "call-0": "Bo bet 10\nCy fold\nAnn fold",
                                  field: value, "step": "save"})
    refused(response, 400, message)
    assert game.record() == before


def test_a_record_exports_and_imports_again(game):
    game.deal()
    game.acts(("Bo", "bet", 10), ("Cy", "fold"), ("Ann", "fold"))
    game.leave("Cy")
    record = game.record()
    imported = game.imported(record)
    assert imported == record
    assert replay(imported) == replay(record)


def test_a_record_ending_mid_hand_is_played_on_after_undoing_that_hand(actions):
    record = {"game": "trefeltromp", "players": list(P3), "first_dealer": "Ann",
              "options": {"ante": 10, "stack": 100},
              "rounds": [{"calls": [[["Bo", "check"], ["Cy", "check"], ["Ann", "check"]],
                                    [["Bo", "check"], ["Cy", "check"], ["Ann", "check"]]]}]}
    client = actions.app.test_client()
    answer = client.post("/api/games", data=json.dumps(record), content_type="application/json")
    code = answer.get_json()["table_url"].rsplit("/", 1)[-1]
    recovery = answer.get_json()["recovery_code"]
    keeper = actions.keeper
    taken = actions.post("/recover", {"code": code, "recovery": recovery})
    assert taken.status_code == 303, text(taken)
    game = Game(actions, code, {})
    assert game.phase() == "check"
    assert "The record's last hand (hand 1) is not over: undo it to play it on." in \
        game.tablet()
    actions.post(f"/t/{code}/games/1/undo", {"rounds": "1"})
    assert game.phase() == "banen" and "Ask for the cards of banen" in game.tablet()
    game.ok("reveal")
    refused(game.post("reveal"), 409, "The cards of this reveal are being laid already.")
    assert "0 of 3</strong> cards in" in text(keeper.get(f"/t/{code}/pulse", headers=HTMX))


# --------------------------------------------------------------------------- the rules' numbers


def numbers_on(html: str, attribute: str) -> dict[str, int]:
    return {name: int(value) for name, value in
            re.findall(rf'{attribute}="([^"]+)">(-?\d+)<', html)}


def test_every_number_on_the_screens_is_the_rules(game):
    game.buy("Cy", 40)
    game.deal()
    game.acts(("Bo", "bet", 15), ("Cy", "raise", 25), ("Ann", "call"))
    record = game.record()
    facts = game.facts()
    played, now = rules.replay_now({**record, "rounds": [*record["rounds"], {
        k: facts[k] for k in ("buys", "calls") if k in facts}]})
    hand = now.hand
    stacks = hand.stacks_by_player()
    put = dict(zip(hand.seats, hand.put, strict=True))
    for html in (game.tablet(), *(game.phone(n) for n in P3)):
        assert numbers_on(html, "data-stack") == stacks
        assert numbers_on(html, "data-put") == put
        assert f'data-testid="pot">{hand.pot}<' in html
    bo = game.phone("Bo")
    assert f'data-testid="to-call">{rules.to_call(hand)}<' in bo
    assert f'data-testid="turn-stack">{hand.stack("Bo")}<' in bo
    assert re.findall(r'name="amount" value="(\d+)"', bo) == [
        str(n) for n in rules.amount_choices(hand)]
    # The score table and the figures: the rules' replay of the record.
    game.acts(("Bo", "fold"))
    game.draw()
    game.acts(("Cy", "bet", 5), ("Ann", "fold"))
    record = game.record()
    result = replay(record)
    final = rules.figures(record)
    board = game.scores()
    assert numbers_on(board, "data-total") == result["totals"]
    assert numbers_on(board, "data-stack-after") == result["rounds"][0]["totals"]
    assert numbers_on(board, "data-bought") == {f.player: f.bought for f in final.lines}
    assert numbers_on(board, "data-pot-after") == {"1": result["rounds"][0]["pot"]}
    tablet = game.tablet()
    event = rules.hand_story(result["rounds"][0])[-1]
    assert f'<strong data-testid="share">{event.share}</strong>' in tablet


def test_the_rules_help_names_the_fools_privilege_reading_as_a_house_decision(client):
    page = text(client.get("/rules/trefeltromp"))
    assert "The Fool's privilege" in page
    assert re.search(r'<strong class="house"[^>]*>house</strong> Any action other than stay',
                     page)


# --------------------------------------------------------------------------- secrecy


def _screens(actions, code, phones, watcher) -> dict[str, str]:
    """Every page and region any device may load now, as it gets it."""
    game = f"/t/{code}/games/1"
    return every_screen((
        ("tablet", actions.keeper, [f"/t/{code}", f"/t/{code}/pulse", game, f"{game}/pulse",
                                    f"{game}/record.json",
                                    f"{game}/sealed/banen/private",
                                    f"{game}/trefeltromp/hands/1"]),
        ("watcher", watcher, [game, f"{game}/pulse", f"{game}/record.json",
                              f"/j/{code}", f"{game}/trefeltromp/hands/1"]),
        *((player, phone, [f"/t/{code}/seat", f"/t/{code}/seat/pulse",
                           game, f"{game}/trefeltromp/hands/1"])
          for player, phone in phones.items()),
    ), text)


def _run(app, actions, monkeypatch, cards: dict[str, str]) -> list[dict[str, str]]:
    """A fresh database, a table with fixed codes, banen laid in this order; the screens
    before each card and after the last, and each card's own answer."""
    actions = fresh(app, actions, monkeypatch)
    game = start(actions, P4)
    game.to_banen()
    watcher = app.test_client()
    steps = []
    for player, card in cards.items():
        steps.append(_screens(actions, game.code, game.phones, watcher))
        answer = game.lay(player, card, htmx=True)
        assert answer.status_code == 200
        steps.append(as_logged(answer, text))
    steps.append(_screens(actions, game.code, game.phones, watcher))
    return steps


def test_no_response_before_the_last_card_is_in_holds_any_players_card(app, actions,
                                                                       monkeypatch):
    # The same players in the same order; every card but the last differs.
    one = _run(app, actions, monkeypatch, {"Ann": "XXI", "Bo": "K♥", "Cy": "7♣",
                                           "Di": "2♦"})
    other = _run(app, actions, monkeypatch, {"Ann": "Fool", "Bo": "XIX", "Cy": "A♠",
                                             "Di": "2♦"})
    before_reveal = slice(0, -2)  # every screen and answer up to the last card's
    assert one[before_reveal] == other[before_reveal]
    for screens in one[before_reveal]:
        for where, body in screens.items():
            assert 'data-testid="reveal"' not in body and "data-card=" not in body, where
            assert 'class="laid"' not in body, where
    # The comparison is sharp: once the last card is in, every screen shows them all.
    assert one[-1] != other[-1]
    regions = [body for where, body in one[-1].items()
               if where.endswith("/pulse True") and "/games/" not in where]
    assert len(regions) == 5  # the tablet's and the four phones'
    assert all('data-player="Bo" data-card="K♥"' in body for body in regions)


def test_a_log_that_does_not_add_up_is_read_from_the_facts(game):
    game.deal()
    game.checks("Bo")
    with game.app.app_context():
        game_row = db.session.scalar(queries.table_by_code(game.code)).current_game
        draft = round_store.locked_draft(game_row)
        round_store.update_facts(draft, {"log": ["start", "draw", "nonsense"]})
        db.session.commit()
    assert "Undo: Bo's check" in game.tablet()
    game.undo()
    assert game.facts()["log"] == ["start"] and "calls" not in game.facts()


def test_the_ledger_counts_trefeltromp_in_hands(game):
    game.deal()
    game.acts(("Bo", "bet", 10), ("Cy", "fold"), ("Ann", "fold"))
    ledger = text(game.keeper.get(f"/t/{game.code}/evening", follow_redirects=True))
    assert re.search(r"<span>Hand 1 · ", ledger) and not re.search(r"<span>Round 1 · ", ledger)


def test_the_draw_is_not_called_banenkalla_and_nobody_is_to_act(game):
    game.deal()
    game.checks("Bo", "Cy", "Ann")
    assert game.phase() == "draw"
    for page in (game.tablet(), game.phone("Bo")):
        stage = re.search(r'data-testid="stage">([^<]+)<', page).group(1)
        assert stage == "Discard and draw" and "Banenkalla" not in stage
        assert "<strong>to act</strong>" not in page
    game.draw()
    page = game.tablet()
    assert re.search(r'data-testid="stage">Banenkalla', page)
    assert "<strong>to act</strong>" in page


def test_a_hands_last_dealing_steps_stay_until_the_next_deal(game):
    game.deal()
    game.acts(("Bo", "bet", 10), ("Cy", "fold"), ("Ann", "fold"))
    assert game.phase() == "ready"
    page = game.tablet()
    assert 'data-testid="end-steps"' in page and "Hand 1: the last steps" in page
    assert "Next hand Cy deals (the deal passes to the right)." in page
    view = game.view()
    ticked = game.actions.post(f"/t/{game.code}/games/1/tick", {
        "round": str(view.round_number), "moment": str(view.at), "tick": "end:1"})
    assert ticked.status_code == 303, text(ticked)
    assert 'data-step="end:1" data-done="yes"' in game.tablet()
    game.deal()
    assert 'data-testid="end-steps"' not in game.tablet()


def test_the_raise_chips_read_as_amounts_and_say_one_goes_in(game):
    game.deal()
    game.acts(("Bo", "bet", 10))
    page = game.phone("Cy")
    chips = re.findall(r'data-testid="amount-\d+"><span>([^<]+)<', page)
    assert chips and all(chip.strip().isdigit() for chip in chips), chips
    assert "Raise by" in page and "one amount" in page and "tap it, or type it" in page


def test_a_laid_card_is_said_back_on_its_own_phone_only(game):
    """The slip form asks the phone to keep what it seals (data-remind); once in, the slip
    has the place its phone fills with "You laid …" (the server never has the card)."""
    game.to_banen()
    assert re.search(r'class="slip-form"[^>]*data-remind', game.phone("Ann"))
    assert game.lay("Ann", "XXI").status_code == 303
    page = game.phone("Ann")
    assert re.search(r'data-testid="slip-mine" data-remind="You laid \{\}\." '
                     r'data-remind-key="\d+:Ann" hidden', page)
    assert "XXI" not in page.split('data-testid="slip-mine"')[1][:200]
    assert 'data-testid="slip-mine"' not in game.tablet()


class SecondGame(Game):
    """The table's game 2."""

    def url(self, tail: str) -> str:
        return super().url(tail).replace("/games/1/", "/games/2/", 1)


def _share(page: str) -> tuple[str, str]:
    """The game's share heading and the link to its evening's ledger, as a page shows them."""
    heading = re.search(r'data-testid="game-share">([^<]+)<', page).group(1)
    link = re.search(r'<a href="([^"]+)" data-testid="game-ledger-link">([^<]+)<', page)
    return heading, link.group(1)


def test_a_games_transfers_are_its_share_of_the_evening_settled_in_the_ledger(actions):
    """The end screen's transfers are this game's share: it says so, says the evening's
    ledger is the one place to settle up, and links that evening's ledger (the evening the
    game belongs to: the next evening's game links the next evening's)."""
    game = start(actions, chip_value="0.05")
    game.deal()
    game.acts(("Bo", "bet", 50), ("Cy", "fold"), ("Ann", "fold"))
    game.leave("Ann")
    game.leave("Bo")
    for page in [game.tablet(), *(game.phone(name) for name in P3)]:
        assert _share(page) == ("This game's share of the evening", f"/t/{game.code}/evenings/1")
        note = page.index('data-testid="settle-in-ledger"')
        assert page.index('data-testid="game-share"') < note < page.index('data-payer="Ann"')
        assert "the one place to settle up" in page[note:note + 400]
    ledger = text(game.keeper.get(f"/t/{game.code}/evenings/1"))
    assert "Who pays whom" in ledger and "Bo" in ledger

    assert actions.post(f"/t/{game.code}/games/1/end").status_code == 303
    assert actions.post(f"/t/{game.code}/evenings/1/close").status_code == 303
    assert actions.post(f"/t/{game.code}/start", OPTIONS | {"chip_value": "0.05"}
                        ).status_code == 303
    new = SecondGame(actions, game.code, game.phones)
    new.deal()
    first, *others = new.order()
    new.acts((first, "bet", 30), *((name, "fold") for name in others))
    new.leave(others[0])
    new.leave(others[1])
    assert _share(new.tablet())[1] == f"/t/{game.code}/evenings/2"
