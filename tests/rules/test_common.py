"""The shared core: reading a record's header, seats, exact numbers, small checks."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from companion.rules.common import (
    Checklist,
    Header,
    clockwise_from,
    distribute_odd_units,
    json_scores,
    left_of,
    read_header,
    require_player,
    right_of,
    round_label,
    split_evenly,
    to_json_number,
    whole_number,
)
from companion.rules.errors import RuleError

SEATS = ["Rob", "Sam", "Nick", "Emily"]
DEFAULTS = {"rounds": 8, "target": 200}


def header(**fields):
    record = {"game": "tromplemond", "players": list(SEATS), "first_dealer": "Rob",
              "options": {}, "rounds": []} | fields
    return read_header(record, "tromplemond", [4], DEFAULTS)


def refusal(**fields) -> str:
    with pytest.raises(RuleError) as info:
        header(**fields)
    return str(info.value)


# ---------------------------------------------------------------------------
# read_header


def test_a_good_header():
    h = header(options={"target": 150}, rounds=[{"a": 1}])
    assert h == Header("tromplemond", tuple(SEATS), "Rob", {"rounds": 8, "target": 150},
                       ({"a": 1},))


def test_defaults_fill_in_missing_or_null_options_and_rounds():
    record = {"game": "tromplemond", "players": list(SEATS)}
    h = read_header(record, "tromplemond", [4], DEFAULTS)
    assert h.first_dealer == "Rob"  # the first seat when not given
    assert h.options == DEFAULTS and h.rounds == ()
    assert header(options=None).options == DEFAULTS


def test_defaults_are_not_changed_by_reading():
    before = dict(DEFAULTS)
    header(options={"target": 1})
    assert DEFAULTS == before


def test_not_a_record():
    with pytest.raises(RuleError, match="a game record must be a JSON object"):
        read_header(["tromplemond"], "tromplemond", [4], DEFAULTS)


@pytest.mark.parametrize(("game", "words"), [
    ("clumond", "this is not a tromplemond record (game is 'clumond')"),
    (None, "this is not a tromplemond record (game is None)"),
])
def test_wrong_game(game, words):
    assert refusal(game=game) == words


@pytest.mark.parametrize("players", ["Rob, Sam", None, ["Rob", 3, "Nick", "Emily"],
                                     ("Rob", "Sam", "Nick", "Emily")])
def test_players_must_be_a_list_of_names(players):
    assert refusal(players=players) == "players must be a list of names"


def test_empty_and_padded_names():
    assert refusal(players=["Rob", "  ", "Nick", "Emily"]) == "a player's name is empty"
    assert refusal(players=["Rob", "Sam ", "Nick", "Emily"]) == (
        "a player's name starts or ends with spaces")


def test_duplicate_names():
    assert refusal(players=["Rob", "Sam", "Rob", "Emily"]) == "Rob is seated twice"


@pytest.mark.parametrize(("counts", "players", "words"), [
    ([4], SEATS[:3], "tromplemond is for 4 players, not 3"),
    (range(3, 6), SEATS[:2], "tromplemond is for 3 to 5 players, not 2"),
    ((2, 4), SEATS[:3], "tromplemond is for 2, 4 players, not 3"),
])
def test_player_count(counts, players, words):
    record = {"game": "tromplemond", "players": players}
    with pytest.raises(RuleError) as info:
        read_header(record, "tromplemond", counts, DEFAULTS)
    assert str(info.value) == words


@pytest.mark.parametrize("dealer", ["Zed", None, ""])
def test_bad_first_dealer(dealer):
    assert refusal(first_dealer=dealer) == (
        f"the first dealer {dealer!r} is not one of the players")


def test_options():
    assert refusal(options=["target", 5]) == "options must be a JSON object"
    assert refusal(options={"targte": 5}) == "tromplemond has no option 'targte'"


def test_rounds():
    assert refusal(rounds={"a": 1}) == "rounds must be a list of JSON objects"
    assert refusal(rounds=None) == "rounds must be a list of JSON objects"
    assert refusal(rounds=[{}, {}, 7]) == (
        "round 3 is not a JSON object (rounds must be a list of JSON objects): 7")


# ---------------------------------------------------------------------------
# Seats


def test_left_and_right():
    assert left_of(SEATS, "Rob") == "Sam"
    assert left_of(SEATS, "Emily") == "Rob"
    assert left_of(SEATS, "Sam", 2) == "Emily"
    assert left_of(SEATS, "Sam", 6) == "Emily"
    assert right_of(SEATS, "Rob") == "Emily"
    assert right_of(SEATS, "Nick", 2) == "Rob"
    assert left_of(tuple(SEATS), "Nick") == "Emily"
    for p in SEATS:
        assert right_of(SEATS, left_of(SEATS, p)) == p


def test_clockwise_from():
    assert clockwise_from(SEATS, "Rob") == SEATS
    assert clockwise_from(tuple(SEATS), "Emily") == ["Emily", "Rob", "Sam", "Nick"]


# ---------------------------------------------------------------------------
# Numbers


def test_to_json_number():
    assert to_json_number(Fraction(-5, 2)) == -2.5
    assert to_json_number(Fraction(1, 4)) == 0.25
    assert to_json_number(Fraction(6, 3)) == 2 and isinstance(to_json_number(Fraction(6, 3)), int)
    assert to_json_number(-7) == -7


def test_json_scores_keep_the_order_and_survive_json():
    scores = json_scores({"Sam": Fraction(1, 2), "Rob": 3, "Nick": Fraction(-4, 2)})
    assert list(scores) == ["Sam", "Rob", "Nick"]
    assert scores == {"Sam": 0.5, "Rob": 3, "Nick": -2}
    assert json.loads(json.dumps(scores)) == scores


def test_split_evenly():
    assert split_evenly(11, 3) == (3, 2)
    assert split_evenly(12, 4) == (3, 0)
    assert split_evenly(2, 5) == (0, 2)
    with pytest.raises(ValueError):
        split_evenly(5, 0)


def test_distribute_odd_units():
    assert distribute_odd_units(11, ["Ann", "Bo", "Cy"]) == {"Ann": 4, "Bo": 4, "Cy": 3}
    assert distribute_odd_units(2, ["Cy", "Ann", "Bo"]) == {"Cy": 1, "Ann": 1, "Bo": 0}
    assert sum(distribute_odd_units(97, SEATS).values()) == 97


def test_whole_number():
    assert whole_number(5, "Ann's tricks") == 5
    assert whole_number(5.0, "Ann's tricks") == 5 and isinstance(whole_number(5.0, "x"), int)
    assert whole_number(0, "x", minimum=0, maximum=0) == 0


@pytest.mark.parametrize(("value", "kwargs", "words"), [
    (True, {}, "round 2: Ann's tricks must be a whole number, not True"),
    (2.5, {}, "round 2: Ann's tricks must be a whole number, not 2.5"),
    ("3", {}, "round 2: Ann's tricks must be a whole number, not '3'"),
    (None, {}, "round 2: Ann's tricks must be a whole number, not None"),
    (float("nan"), {}, "round 2: Ann's tricks must be a whole number, not nan"),
    (-1, {"minimum": 0}, "round 2: Ann's tricks must be at least 0, not -1"),
    (14, {"maximum": 13}, "round 2: Ann's tricks must be at most 13, not 14"),
    (14.0, {"maximum": 13}, "round 2: Ann's tricks must be at most 13, not 14"),
])
def test_whole_number_refusals(value, kwargs, words):
    with pytest.raises(RuleError) as info:
        whole_number(value, "round 2: Ann's tricks", **kwargs)
    assert str(info.value) == words


def test_require_player():
    assert require_player("Sam", SEATS, "round 1") == "Sam"
    with pytest.raises(RuleError) as info:
        require_player("Zed", SEATS, "round 4")
    assert str(info.value) == "round 4: 'Zed' is not a player at this table"
    with pytest.raises(RuleError, match="round 1: 3 is not a player"):
        require_player(3, SEATS, "round 1")


def test_round_label_and_checklist():
    assert round_label(0) == "round 1" and round_label(8) == "round 9"
    checklist = Checklist("Deal", ("one", "two"))
    assert checklist.as_dict() == {"title": "Deal", "steps": ["one", "two"]}
    assert json.loads(json.dumps(checklist.as_dict())) == checklist.as_dict()


def test_rule_error_is_a_value_error():
    assert issubclass(RuleError, ValueError)
