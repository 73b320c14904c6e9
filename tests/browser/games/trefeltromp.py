"""Trefeltromp in the browser tests: its long evening (``tests.browser.long_evening``
finds it by its name)."""

from __future__ import annotations

from tests.browser.long_evening import ROUNDS


def long_evening(actions):
    """Trefeltromp at four seats, ante 10, a chip worth 5p: twenty-two hands, most won by
    a bet nobody calls, every fourth one shown down in banen; buys when a stack runs low;
    then everyone leaves."""
    from tests.web import test_trefeltromp as game_of

    game = game_of.start(actions, game_of.P4, chip_value="0.05")
    suits = "♠♥♦♣"
    for number in range(1, ROUNDS + 3):
        stacks = game_of.replay(game.record())["totals"] if number > 1 else {}
        for name, stack in stacks.items():
            if stack < 60:
                game.buy(name, 100)
        if number % 4 == 0:
            game.to_banen()
            seats = list(game.view().hand.seats)
            for stage in range(3):
                game.reveal({name: f"{'AK7'[stage]}{suits[i]}" for i, name in enumerate(seats)})
                if stage < 2:
                    game.checks(*game.order())
        else:
            game.deal()
            first, *others = game.order()
            game.acts((first, "bet", 10), *((name, "fold") for name in others))
    for name in game_of.P4:
        game.leave(name)
    return game
