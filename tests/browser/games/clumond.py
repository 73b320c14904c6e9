"""Clumond in the browser tests: its long evening (``tests.browser.long_evening``
finds it by its name)."""

from __future__ import annotations

from tests.browser.long_evening import ROUNDS


def long_evening(actions):
    """Clumond of 22 rounds, 100 chips, ante 5, a chip worth 10p: rounds nobody goes for
    and rounds someone goes for Clumond and names trump."""
    from tests.web import test_clumond as game_of

    game = game_of.start(actions, rounds=str(ROUNDS + 2), chip_value="0.10")
    kept = [{"Ann": ["3H", "7S", "4D"], "Bo": ["AC", "5S", "6D"], "Cy": ["5D", "QS", "2D"]},
            {"Ann": ["KH", "2D", "3D"], "Bo": ["AC", "KC", "QC"], "Cy": ["4D", "5D", "7D"]}]
    tricks = [{"Ann": 3, "Bo": 4, "Cy": 6}, {"Ann": 4, "Bo": 5, "Cy": 4},
              {"Ann": 6, "Bo": 3, "Cy": 4}, {"Ann": 5, "Bo": 4, "Cy": 4}]
    for number in range(ROUNDS + 2):
        declarer = game_of.PLAYERS[number % 3] if number % 4 == 1 else None
        game.play(tricks[number % 4], kept[number % 2], declarer=declarer,
                  trump="♠♥♦♣"[number % 4])
    return game
