"""The evening's ledger: DESIGN.md's worked evening, edge cases, refusals, and the bank check.

The property tests replay generated evenings (``gen_evening``, built from
every game's own generator) and hold the ledger to its promises: nets sum to
zero, every game's lines add up to its money (and a finished game's to
zero), ``owing`` squares net and payments exactly in the fewest transfers,
and the result survives JSON.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.clumond import rules as clumond
from companion.games.trefeltromp import rules as trefeltromp
from companion.rules import RuleError, evening, replay

from . import gen_tremp
from .gen_evening import random_evening, renamed
from .test_settle import fewest_transfers

SEEDS = st.integers(0, 2**32 - 1)
FOUR = ["Ana", "Ben", "Cleo", "Dev"]


def quick(points: int, public_jacks: int = 0, secret_jacks: int = 0) -> dict[str, int]:
    """A Tromplemond hand the quick way."""
    return {"points": points, "public_jacks": public_jacks, "secret_jacks": secret_jacks}


def design_tromplemond() -> dict:
    """A Tromplemond whose money is DESIGN.md's: Ana +750, Ben −50, Cleo and Dev −350.

    Fee 200 and stake 50 over 3 rounds, Dev voted off each time. Round 1 Ana's
    Grand takes the round pot (200); round 2 Ben's Moyenne takes 50 (150 to
    the kitty); round 3 Ana's Tromplemond 100 and Ben's Moyenne 50 (50 to the
    kitty). Ana wins (65) and had the best round (50), so takes 600 of the fee
    pot and the kitty of 200; Ben is runner-up (43) with 200.
    """
    return {"game": "tromplemond", "players": FOUR, "first_dealer": "Ana",
            "options": {"joining_fee": 200, "tromp_stake": 50, "rounds": 3},
            "rounds": [
                {"hands": {"Ana": quick(20, 1, 2), "Ben": quick(30), "Cleo": quick(30)},
                 "voted_off": "Dev", "called": ["Ana"]},
                {"hands": {"Ana": quick(30), "Ben": quick(20, 1, 1), "Cleo": quick(24)},
                 "voted_off": "Dev", "called": ["Ben"]},
                {"hands": {"Ana": quick(20, 0, 2), "Ben": quick(16, 1, 1), "Cleo": quick(30)},
                 "voted_off": "Dev", "called": ["Ana", "Ben"]},
            ]}


def design_clumond(**options) -> dict:
    """A Clumond whose chips are DESIGN.md's: Ana −12, Ben +20, Cleo −8 (5 per chip: −60, 100, −40).

    Ben makes his declaration both rounds; the 28 chips left after round 2
    are shared out from the dealer Ben's left (Cleo 10, Ana 9, Ben 9).
    """
    return {"game": "clumond", "players": ["Ana", "Ben", "Cleo"], "first_dealer": "Ana",
            "options": {"rounds": 2, "chip_value": 5} | options,
            "rounds": [{"tricks": {"Ana": 2, "Ben": 2, "Cleo": 9},
                        "declared": {"Ana": 0, "Ben": 2, "Cleo": 2}},
                       {"tricks": {"Ana": 9, "Ben": 2, "Cleo": 2},
                        "declared": {"Ana": 0, "Ben": 2, "Cleo": 1}}]}


def design_evening(**changes) -> dict:
    return {"evening": "Friday", "unit": "GBP", "games": [design_tromplemond(), design_clumond()],
            "paid": [["Cleo", "Ana", 350]]} | changes


def settles(transfers, balances) -> bool:
    """True when ``transfers`` bring every balance to zero (each a debtor paying a creditor)."""
    left = dict(balances)
    for payer, payee, amount in transfers:
        assert type(amount) is int and amount > 0
        assert balances[payer] < 0 < balances[payee]
        left[payer] += amount
        left[payee] -= amount
    return not any(left.values())


def line_sums(lines, game: int) -> dict[str, int]:
    sums: dict[str, int] = {}
    for line in lines:
        if line["game"] == game:
            sums[line["player"]] = sums.get(line["player"], 0) + line["amount"]
    return sums


def nonzero(amounts) -> dict[str, int]:
    return {p: v for p, v in amounts.items() if v}


# --- DESIGN.md's worked evening -------------------------------------------------------


def test_the_worked_evening_of_design_md():
    ledger = evening(design_evening())
    assert ledger["players"] == ["Ana", "Ben", "Cleo", "Dev"]
    assert ledger["games"] == [
        {"game": "tromplemond", "finished": True,
         "money": {"Ana": 750, "Ben": -50, "Cleo": -350, "Dev": -350}},
        {"game": "clumond", "finished": True,
         "money": {"Ana": -60, "Ben": 100, "Cleo": -40},
         "chips": {"Ana": -12, "Ben": 20, "Cleo": -8}},
    ]
    assert ledger["net"] == {"Ana": 690, "Ben": 50, "Cleo": -390, "Dev": -350}
    assert ledger["in_play"] == {}
    assert ledger["paid"] == {"Ana": -350, "Cleo": 350}
    assert len(ledger["owing"]) == 3
    assert settles(ledger["owing"], {"Ana": 340, "Ben": 50, "Cleo": -40, "Dev": -350})
    assert ledger["settled"] is False
    assert ledger["lines"][0] == {"game": 1, "round": None, "player": "Ana", "amount": -200,
                                  "what": "joining fee"}
    assert set(ledger) == {"players", "games", "net", "in_play", "paid", "owing", "settled",
                           "lines"}


def test_the_worked_evening_lines_tell_each_games_story():
    lines = evening(design_evening())["lines"]
    ana = [(line["game"], line["round"], line["amount"], line["what"]) for line in lines
           if line["player"] == "Ana"]
    assert ana == [
        (1, None, -200, "joining fee"),
        (1, 1, -50, "TROMP! stake"), (1, 1, 200, "round pot won"),
        (1, 2, -50, "TROMP! stake"),
        (1, 3, -50, "TROMP! stake"), (1, 3, 100, "round pot won"),
        (1, None, 600, "fee payout"), (1, None, 200, "kitty"),
        (2, 1, -25, "ante"), (2, 1, -10, "missed declaration"),
        (2, 2, -25, "ante"), (2, 2, -45, "missed declaration"), (2, 2, 45, "share-out"),
    ]
    assert line_sums(lines, 1) == {"Ana": 750, "Ben": -50, "Cleo": -350, "Dev": -350}
    assert line_sums(lines, 2) == {"Ana": -60, "Ben": 100, "Cleo": -40}
    assert all("unit" not in line for line in lines)


def test_paying_what_is_owing_settles_the_evening():
    first = evening(design_evening())
    paid = design_evening()["paid"] + first["owing"]
    ledger = evening(design_evening(paid=paid))
    assert ledger["owing"] == [] and ledger["settled"] is True
    assert ledger["paid"] == {"Ana": -690, "Ben": -50, "Cleo": 390, "Dev": 350}


# --- edge cases ------------------------------------------------------------------------


def test_a_chip_game_without_a_chip_value_keeps_its_chips_out_of_the_money():
    ledger = evening({"unit": "GBP", "games": [design_clumond(chip_value=None)]})
    assert ledger["games"] == [{"game": "clumond", "finished": True, "money": {},
                                "chips": {"Ana": -12, "Ben": 20, "Cleo": -8}}]
    assert ledger["net"] == {"Ana": 0, "Ben": 0, "Cleo": 0}
    assert ledger["owing"] == [] and ledger["settled"] is True
    assert ledger["lines"] and all(line["unit"] == "chips" for line in ledger["lines"])
    assert line_sums(ledger["lines"], 1) == {"Ana": -12, "Ben": 20, "Cleo": -8}


def test_chips_are_not_money_without_a_value_even_at_a_table_that_counts_in_chips():
    ledger = evening({"unit": "chips", "games": [design_clumond(chip_value=None)]})
    assert ledger["games"][0]["money"] == {} and ledger["owing"] == []
    ledger = evening({"unit": "chips", "games": [design_clumond(chip_value=1)]})
    assert ledger["net"] == {"Ana": -12, "Ben": 20, "Cleo": -8}
    assert all("unit" not in line for line in ledger["lines"])


def test_a_chip_value_multiplies_money_and_lines_and_may_come_as_a_whole_float():
    five = evening({"unit": "EUR", "games": [design_clumond(chip_value=5.0)]})
    assert five == evening({"unit": "EUR", "games": [design_clumond()]})
    assert five["lines"][0] == {"game": 1, "round": 1, "player": "Ana", "amount": -25,
                                "what": "ante"}


def test_an_overpayment_is_owed_back():
    ledger = evening(design_evening(paid=[["Cleo", "Ana", 500]]))
    assert ledger["paid"] == {"Ana": -500, "Cleo": 500}
    balances = {"Ana": 190, "Ben": 50, "Cleo": 110, "Dev": -350}
    assert settles(ledger["owing"], balances)
    assert len(ledger["owing"]) == 3
    assert ledger["settled"] is False


def test_a_player_who_played_only_one_game():
    ledger = evening(design_evening(paid=[]))
    assert "Dev" in ledger["players"] and "Dev" not in ledger["games"][1]["money"]
    assert ledger["net"]["Dev"] == -350
    assert sum(amount for payer, _, amount in ledger["owing"] if payer == "Dev") == 350
    assert {line["game"] for line in ledger["lines"] if line["player"] == "Dev"} == {1}


def test_a_running_game_is_in_play_not_in_net_and_the_evening_is_not_settled():
    running = design_tromplemond()
    running["rounds"] = running["rounds"][:2]
    ledger = evening({"unit": "GBP", "games": [design_clumond(), running]})
    assert ledger["games"][1]["finished"] is False
    assert ledger["net"] == {"Ana": -60, "Ben": 100, "Cleo": -40, "Dev": 0}
    # Fees and two stakes paid in (300 each); Ana took round 1's pot, Ben 50 of round 2's.
    assert ledger["in_play"] == {"Ana": -100, "Ben": -250, "Cleo": -300, "Dev": -300}
    assert ledger["settled"] is False
    assert settles(ledger["owing"], {"Ana": -60, "Ben": 100, "Cleo": -40})
    assert line_sums(ledger["lines"], 2) == ledger["in_play"]


def test_a_running_game_alone_owes_nothing_yet_but_is_not_settled():
    running = design_clumond()
    running["rounds"] = running["rounds"][:1]
    ledger = evening({"unit": "GBP", "games": [running]})
    assert ledger["owing"] == [] and ledger["settled"] is False
    assert sum(ledger["in_play"].values()) == -16 * 5  # the pot, still on the table


def test_an_evening_with_nothing_played_is_settled():
    assert evening({"unit": "USD"}) == {
        "players": [], "games": [], "net": {}, "in_play": {}, "paid": {}, "owing": [],
        "settled": True, "lines": []}
    assert evening({"evening": None, "unit": "chips", "games": None, "paid": None})["settled"]


@pytest.mark.parametrize("flag", [{"void": True}, {"banned": "Cleo"}])
def test_a_void_or_abandoned_tromplemond_gives_every_payment_back(flag):
    game = design_tromplemond() | flag
    ledger = evening({"unit": "GBP", "games": [game]})
    assert ledger["games"][0] == {"game": "tromplemond", "finished": True,
                                  "money": dict.fromkeys(FOUR, 0)}
    lines = [(line["round"], line["player"], line["amount"], line["what"])
             for line in ledger["lines"]]
    assert [line for line in lines if line[1] == "Ana"] == [
        (None, "Ana", -200, "joining fee"), (1, "Ana", -50, "TROMP! stake"),
        (2, "Ana", -50, "TROMP! stake"), (3, "Ana", -50, "TROMP! stake"),
        (None, "Ana", 350, "money returned")]
    assert {what for *_, what in lines} == {"joining fee", "TROMP! stake", "money returned"}
    assert nonzero(line_sums(ledger["lines"], 1)) == {}
    assert ledger["owing"] == [] and ledger["settled"] is True


def test_a_void_tromplemond_before_any_round_returns_the_fees():
    game = design_tromplemond() | {"void": True, "rounds": []}
    lines = evening({"unit": "GBP", "games": [game]})["lines"]
    assert [(line["amount"], line["what"]) for line in lines] == \
        [(-200, "joining fee")] * 4 + [(200, "money returned")] * 4


def test_an_extreme_call_takes_the_kitty_in_its_round():
    game = {"game": "tromplemond", "players": FOUR, "first_dealer": "Ana",
            "options": {"tromp_stake": 10, "rounds": 2},
            "rounds": [
                {"hands": {"Ana": quick(20, 1, 1), "Ben": quick(30), "Cleo": quick(30)},
                 "voted_off": "Dev", "called": ["Ana"]},
                {"hands": {"Ana": quick(30), "Ben": quick(10, 2, 2), "Cleo": quick(30)},
                 "voted_off": "Dev", "called": ["Ben"]},
            ]}
    ledger = evening({"unit": "GBP", "games": [game]})
    won = [(line["round"], line["player"], line["amount"], line["what"])
           for line in ledger["lines"] if line["amount"] > 0]
    # Round 1: Ana's Moyenne takes 10 of the 40, 30 to the kitty; round 2: Ben's Extreme
    # takes the kitty and the round pot, and the (empty) joining-fee pot at the end.
    assert won == [(1, "Ana", 10, "round pot won"), (2, "Ben", 40, "round pot won"),
                   (2, "Ben", 30, "kitty")]
    assert line_sums(ledger["lines"], 1) == ledger["games"][0]["money"]


def test_a_tromplemond_without_stakes_and_the_points_games_have_no_money():
    points_only = design_tromplemond()
    points_only["options"] = {"rounds": 3}
    tremp = renamed(gen_tremp.random_record(random.Random(3), 4),
                    dict(zip(gen_tremp.PLAYERS, FOUR, strict=True)))
    ledger = evening({"unit": "GBP", "games": [points_only, tremp]})
    assert [game["money"] for game in ledger["games"]] == [{}, {}]
    assert ledger["lines"] == [] and ledger["net"] == dict.fromkeys(FOUR, 0)


def test_a_trefeltromp_lines_follow_the_chips_not_the_buys():
    checks = [["Ben", "check"], ["Ana", "check"]]
    game = {"game": "trefeltromp", "players": ["Ana", "Ben"], "first_dealer": "Ana",
            "options": {"chip_value": 2},
            "rounds": [{"buys": [["Ben", 200]],
                        "calls": [[["Ben", "bet", 20], ["Ana", "call"]], checks, checks, checks],
                        "shows": [{"Ana": "XXI", "Ben": "K♥"}, {"Ana": "A♠", "Ben": "A♦"},
                                  {"Ana": "II", "Ben": "III"}],
                        "leave": ["Ana", "Ben"]}]}
    ledger = evening({"unit": "GBP", "games": [game]})
    # Pot 20 + 40 = 60: Ana takes 20 at banen; detuiler ties; Ben takes the 40 at debekranse.
    assert [(line["player"], line["amount"], line["what"]) for line in ledger["lines"]] == [
        ("Ana", -20, "ante"), ("Ben", -20, "ante"), ("Ana", -40, "bets"), ("Ben", -40, "bets"),
        ("Ana", 40, "payout"), ("Ben", 80, "payout")]
    assert ledger["games"][0] == {"game": "trefeltromp", "finished": True,
                                  "money": {"Ana": -20, "Ben": 20},
                                  "chips": {"Ana": -10, "Ben": 10}}


def test_a_trefeltromp_pot_left_when_everyone_leaves_is_a_share_out():
    game = {"game": "trefeltromp", "players": ["Ana", "Ben", "Cleo"], "first_dealer": "Ana",
            "options": {"ante": 5},
            "rounds": [{"calls": [[["Ben", "check"], ["Cleo", "check"], ["Ana", "check"]]] * 4,
                        "shows": [{"Ana": "A♠", "Ben": "A♦", "Cleo": "2♣"},
                                  {"Ana": "K♠", "Ben": "K♦", "Cleo": "3♣"},
                                  {"Ana": "Q♠", "Ben": "Q♦", "Cleo": "4♣"}],
                        "leave": ["Ana", "Ben", "Cleo"]}]}
    lines = evening({"unit": "GBP", "games": [game]})["lines"]
    assert [(line["player"], line["amount"], line["what"], line["unit"]) for line in lines] == [
        ("Ana", -5, "ante", "chips"), ("Ben", -5, "ante", "chips"), ("Cleo", -5, "ante", "chips"),
        ("Ana", 5, "share-out", "chips"), ("Ben", 5, "share-out", "chips"),
        ("Cleo", 5, "share-out", "chips")]


def test_players_are_in_the_order_first_seen():
    clu = renamed(design_clumond(), {"Ana": "Eve", "Cleo": "Ana"})
    ledger = evening({"unit": "GBP", "games": [clu, design_tromplemond()]})
    assert ledger["players"] == ["Eve", "Ben", "Ana", "Cleo", "Dev"]
    assert list(ledger["net"]) == ledger["players"]


# --- refusals ----------------------------------------------------------------------------

NOT_A_UNIT = "unit must be a currency's ISO 4217 code (such as GBP, EUR, NOK or JPY) or chips"


@pytest.mark.parametrize(("record", "message"), [
    (["GBP"], "an evening record must be a JSON object"),
    ({"unit": "GBP", "payments": []}, "an evening has no field 'payments' "
                                      "(only evening, unit, games, paid, player_ids)"),
    ({"unit": "GBP", "evening": 5}, "the evening's name must be text, not 5"),
    ({}, f"{NOT_A_UNIT}, not None"),
    ({"unit": "gbp"}, f"{NOT_A_UNIT}, not 'gbp'"),
    ({"unit": "KRONER"}, f"{NOT_A_UNIT}, not 'KRONER'"),
    ({"unit": "ABC"}, f"{NOT_A_UNIT}, not 'ABC'"),
    ({"unit": 578}, f"{NOT_A_UNIT}, not 578"),
    ({"unit": "GBP", "games": {}}, "games must be a list of game records"),
    ({"unit": "GBP", "paid": "Cleo"}, "paid must be a list of payments"),
])
def test_a_malformed_evening_is_refused(record, message):
    with pytest.raises(RuleError) as info:
        evening(record)
    assert str(info.value) == message


@pytest.mark.parametrize(("entry", "message"), [
    (["Cleo", "Zed", 350], "payment 1: 'Zed' is not a player this evening"),
    (["Zed", "Ana", 350], "payment 1: 'Zed' is not a player this evening"),
    ([None, "Ana", 350], "payment 1: None is not a player this evening"),
    (["Cleo", "Cleo", 350], "payment 1: Cleo pays Cleo: a payment is to someone else"),
    (["Cleo", "Ana", 0], "payment 1: the amount must be a positive whole number, not 0"),
    (["Cleo", "Ana", -350], "payment 1: the amount must be a positive whole number, not -350"),
    (["Cleo", "Ana", 3.5], "payment 1: the amount must be a positive whole number, not 3.5"),
    (["Cleo", "Ana", "350"], "payment 1: the amount must be a positive whole number, "
                             "not '350'"),
    (["Cleo", "Ana", True], "payment 1: the amount must be a positive whole number, not True"),
    (["Cleo", "Ana"], "payment 1: ['Cleo', 'Ana'] is not a payment: write [payer, payee, "
                      "amount]"),
    ({"Cleo": 350}, "payment 1: {'Cleo': 350} is not a payment: write [payer, payee, amount]"),
])
def test_a_payment_that_cannot_be_is_refused(entry, message):
    with pytest.raises(RuleError) as info:
        evening(design_evening(paid=[entry]))
    assert str(info.value) == message


def test_the_refused_payment_is_named_by_its_place():
    with pytest.raises(RuleError, match=r"^payment 2: 'Zed' is not"):
        evening(design_evening(paid=[["Cleo", "Ana", 350], ["Zed", "Ana", 1]]))


def test_a_whole_float_payment_reads_as_whole():
    assert evening(design_evening(paid=[["Cleo", "Ana", 350.0]])) == evening(design_evening())


@pytest.mark.parametrize("value", [0, -5, 2.5, True, "5", [5]])
@pytest.mark.parametrize("game", ["clumond", "trefeltromp"])
def test_a_chip_value_that_is_not_a_positive_whole_number_is_refused(game, value):
    record = {"game": game, "players": ["Ana", "Ben", "Cleo"], "options": {"chip_value": value},
              "rounds": []}
    message = f"chip_value must be a positive whole number, not {value!r}"
    with pytest.raises(RuleError) as info:
        replay(record)
    assert str(info.value) == message
    with pytest.raises(RuleError) as info:
        evening({"unit": "GBP", "games": [design_tromplemond(), record]})
    assert str(info.value) == f"game 2: {message}"


def test_the_chip_games_accept_a_chip_value_in_their_checklists_too():
    assert clumond.read_options({"chip_value": 25}).chip_value == 25
    assert trefeltromp.deck_prep(["Ana", "Ben"], {"chip_value": 25}).steps
    with pytest.raises(RuleError, match="chip_value must be a positive whole number"):
        trefeltromp.deck_prep(["Ana", "Ben"], {"chip_value": 0})


def test_a_chip_value_belongs_to_chip_games_only():
    game = design_tromplemond()
    game["options"]["chip_value"] = 5
    with pytest.raises(RuleError) as info:
        evening({"unit": "GBP", "games": [game]})
    assert str(info.value) == "game 1: tromplemond has no option 'chip_value'"


@pytest.mark.parametrize(("game", "message"), [
    ("not a game", "game 2: a game record must be a JSON object"),
    ({"game": "snap"}, "game 2: unknown game 'snap'; the companion knows tromplemond, clumond, "
                       "trumplestiltskin, trefeltromp, tremp"),
    (design_clumond() | {"rounds": [{"tricks": {"Ana": 2, "Ben": 2, "Cleo": 2}}]},
     "game 2: round 1: the tricks add up to 6, not 13"),
])
def test_a_game_that_does_not_replay_is_refused_with_its_number(game, message):
    with pytest.raises(RuleError) as info:
        evening({"unit": "GBP", "games": [design_tromplemond(), game]})
    assert str(info.value) == message


# --- properties of generated evenings --------------------------------------------------


def ledger_of(seed: int) -> tuple[dict, dict]:
    record = random_evening(random.Random(seed))
    return record, evening(record)


@settings(max_examples=80, deadline=None)
@given(seed=SEEDS)
def test_nets_sum_to_zero_and_add_up_the_finished_games(seed):
    _, ledger = ledger_of(seed)
    assert sum(ledger["net"].values()) == 0
    assert list(ledger["net"]) == ledger["players"]
    for player in ledger["players"]:
        finished = sum(game["money"].get(player, 0) for game in ledger["games"]
                       if game["finished"])
        running = [game["money"][player] for game in ledger["games"]
                   if not game["finished"] and player in game["money"]]
        assert ledger["net"][player] == finished
        assert ledger["in_play"].get(player) == (sum(running) if running else None)
    assert sum(ledger["paid"].values()) == 0


@settings(max_examples=80, deadline=None)
@given(seed=SEEDS)
def test_the_bank_check_lines_add_up_per_game_to_its_money_and_to_zero(seed):
    record, ledger = ledger_of(seed)
    evening_total = 0
    for number, game in enumerate(ledger["games"], 1):
        lines = [line for line in ledger["lines"] if line["game"] == number]
        sums = line_sums(lines, number)
        in_chips = "chips" in game and not game["money"]
        assert all(("unit" in line) == in_chips for line in lines)
        assert nonzero(sums) == nonzero(game["chips"] if in_chips else game["money"])
        assert all(line["amount"] != 0 and line["round"] != 0 for line in lines)
        if game["finished"]:
            assert sum(sums.values()) == 0
            if not in_chips:
                evening_total += sum(sums.values())
        chip_value = record["games"][number - 1].get("options", {}).get("chip_value")
        if "chips" in game and chip_value:
            assert game["money"] == {p: v * chip_value for p, v in game["chips"].items()}
    assert evening_total == 0


@settings(max_examples=80, deadline=None)
@given(seed=SEEDS)
def test_owing_settles_net_and_payments_exactly_in_the_fewest_transfers(seed):
    _, ledger = ledger_of(seed)
    balances = {p: ledger["net"][p] + ledger["paid"].get(p, 0) for p in ledger["players"]}
    assert settles(ledger["owing"], balances)
    if sum(1 for v in balances.values() if v) <= 8:
        assert len(ledger["owing"]) == fewest_transfers(list(balances.values()))
    running = any(not game["finished"] for game in ledger["games"])
    assert ledger["settled"] == (not ledger["owing"] and not running)


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS)
def test_paying_every_transfer_owed_leaves_nothing_owing(seed):
    record, ledger = ledger_of(seed)
    after = evening(record | {"paid": record["paid"] + ledger["owing"]})
    assert after["owing"] == []
    assert after["settled"] == all(game["finished"] for game in ledger["games"])


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS)
def test_an_evening_survives_json(seed):
    record, ledger = ledger_of(seed)
    assert json.loads(json.dumps(ledger)) == ledger
    assert evening(json.loads(json.dumps(record))) == ledger
