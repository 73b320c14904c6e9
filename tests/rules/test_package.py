"""The package's front door: ``replay``, ``deck_prep`` and ``deal_steps`` for every game."""

import pytest

import companion.rules as rules
from companion.rules import GAMES, RuleError, deal_steps, deck_prep, game_module, replay

NAMES = ["Ann", "Bo", "Cy", "Di"]
SEATS = {game: next(n for n in (4, 3, 2) if n in game_module(game).PLAYERS) for game in GAMES}
"""How many players each game is tried with: four where it takes them."""


@pytest.mark.parametrize("game", GAMES)
def test_every_game_replays_an_empty_record(game):
    players = NAMES[: SEATS[game]]
    result = replay({"game": game, "players": players, "first_dealer": players[0],
                     "rounds": []})
    assert result["rounds"] == [] and result["finished"] is False


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_a_deck_checklist_and_dealing_steps_naming_the_dealer(game):
    players = NAMES[: SEATS[game]]
    prep = deck_prep(game, players)
    steps = deal_steps(game, players, "Bo")
    assert prep.title and len(prep.steps) >= 2
    assert any("Bo" in str(step) for step in steps.steps)


@pytest.mark.parametrize("record, message", [
    ({"game": "poker", "players": NAMES}, "unknown game 'poker'"),
    ({"players": NAMES}, "unknown game None"),
    (["tromplemond"], "a game record must be a JSON object"),
])
def test_a_record_of_no_known_game_is_refused(record, message):
    with pytest.raises(RuleError, match=message):
        replay(record)


def test_an_unknown_game_has_no_checklist():
    with pytest.raises(RuleError, match="unknown game 'snap'"):
        deck_prep("snap", NAMES)


def test_the_evening_is_at_the_front_door_with_its_readings():
    assert "evening" in rules.__all__
    assert callable(rules.evening) and "Readings" in rules.evening.__doc__
    assert rules.evening({"unit": "GBP"})["settled"] is True


def test_the_record_book_is_at_the_front_door_with_its_readings():
    assert "record_book" in rules.__all__
    assert "Readings" in rules.records.__doc__
    assert rules.record_book([{"unit": "GBP"}]).players == ()
