"""Money lines: signed by what they were, and each game's add up to its money, round by round."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.clumond import rules as clumond
from companion.games.trefeltromp import rules as trefeltromp
from companion.games.tromplemond import rules as tromplemond
from companion.rules.ledger import MoneyLine, What, lines_of

from . import gen_clumond, gen_trefeltromp, gen_tromplemond

SEEDS = st.integers(0, 2**32 - 1)


def nonzero(amounts) -> dict[str, int]:
    return {p: v for p, v in amounts.items() if v}


def test_a_money_line_has_the_sign_of_what_it_was():
    assert MoneyLine(1, "Ana", -5, What.ANTE).amount == -5
    for amount in (5, 0, True, 2.5):
        with pytest.raises(ValueError, match="wrong sign"):
            MoneyLine(1, "Ana", amount, What.ANTE)
    with pytest.raises(ValueError, match="wrong sign"):
        MoneyLine(None, "Ana", -5, What.KITTY)
    assert lines_of(None, What.KITTY, {"Ana": 0}) == []


def test_every_kind_of_line_is_a_word_of_its_own():
    assert len({what.value for what in What}) == len(What)
    paid_in = {what.value for what in What if what.sign < 0}
    assert paid_in == {"joining fee", "TROMP! stake", "ante", "missed declaration", "bets"}


def per_player(lines) -> dict[str, int]:
    sums: dict[str, int] = {}
    for line in lines:
        sums[line.player] = sums.get(line.player, 0) + line.amount
    return sums


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS)
def test_each_games_lines_add_up_to_its_money(seed):
    rng = random.Random(seed)
    for module, record in (
            (tromplemond, gen_tromplemond.random_game(rng, rng.randint(1, 6), flags=True,
                                                      rigged=0.5,
                                                      played=rng.choice([None, 2]))[0]),
            (clumond, gen_clumond.random_record(rng, rng.randint(1, 6),
                                                played=rng.choice([None, 3]))),
            (trefeltromp, gen_trefeltromp.random_record(rng, rng.randint(1, 6)))):
        money = module.replay(record)["money"]
        assert nonzero(per_player(module.money_lines(record))) == nonzero(money)


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS)
def test_a_chip_games_lines_add_up_round_by_round_to_its_scores(seed):
    rng = random.Random(seed)
    for module, record in ((clumond, gen_clumond.random_record(rng, rng.randint(1, 6))),
                           (trefeltromp, gen_trefeltromp.random_record(rng, rng.randint(1, 6)))):
        lines = module.money_lines(record)
        for number, rnd in enumerate(module.replay(record)["rounds"], 1):
            assert nonzero(per_player(line for line in lines if line.round == number)) == \
                nonzero(rnd["scores"])
