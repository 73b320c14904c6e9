"""Settle-up: exact, positive, deterministic, and as few transfers as a brute force finds."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules.errors import RuleError
from companion.rules.settle import EXACT_LIMIT, settle_up

NAMES = [f"P{i}" for i in range(40)]


def fewest_transfers(amounts: list[int]) -> int:
    """Brute force: the fewest transfers that settle ``amounts`` (which sum to zero).

    A depth-first search that, at each step, clears the first open balance
    against every balance of the other sign in turn. Some optimal answer
    always has this shape (any transfer can be redirected so that it clears
    someone), so the search is exhaustive; it knows nothing of zero-sum groups.
    """
    amounts = [a for a in amounts if a]

    def search(start: int) -> int:
        while start < len(amounts) and amounts[start] == 0:
            start += 1
        if start == len(amounts):
            return 0
        best = len(amounts)
        for j in range(start + 1, len(amounts)):
            if amounts[j] * amounts[start] < 0:
                amounts[j] += amounts[start]
                best = min(best, 1 + search(start + 1))
                amounts[j] -= amounts[start]
        return best

    return search(0)


def balances_strategy(max_players: int):
    """Zero-sum balances, with small amounts and zeros so that zero-sum groups are common."""
    def build(values: list[int]) -> dict[str, int]:
        balances = {NAMES[i]: v for i, v in enumerate(values)}
        balances[NAMES[len(values)]] = -sum(values)
        return balances

    amounts = st.one_of(st.integers(-12, 12), st.integers(-10_000, 10_000))
    return st.lists(amounts, min_size=0, max_size=max_players - 1).map(build)


def apply(transfers: list[tuple[str, str, int]], names) -> dict[str, int]:
    net = dict.fromkeys(names, 0)
    for payer, payee, amount in transfers:
        net[payer] -= amount
        net[payee] += amount
    return net


@settings(max_examples=200, deadline=None)
@given(balances_strategy(7))
def test_transfers_settle_exactly_with_the_fewest_possible(balances):
    transfers = settle_up(balances)
    assert apply(transfers, balances) == balances
    for payer, payee, amount in transfers:
        assert type(amount) is int and amount > 0
        assert payer != payee and payer in balances and payee in balances
        assert balances[payer] < 0 < balances[payee]  # nobody pays through a third party
    assert len(transfers) == fewest_transfers(list(balances.values()))


@settings(max_examples=100, deadline=None)
@given(balances_strategy(9))
def test_settle_up_is_deterministic(balances):
    assert settle_up(balances) == settle_up(dict(balances))


def test_brute_force_sanity():
    assert fewest_transfers([5, -5, 3, -3]) == 2
    assert fewest_transfers([10, -3, -7]) == 2
    assert fewest_transfers([4, 3, -2, -5]) == 3
    assert fewest_transfers([0, 0]) == 0


def test_two_separate_debts_are_two_transfers_not_three():
    balances = {"Ann": 7, "Bo": -3, "Cy": 3, "Di": -7}
    assert sorted(settle_up(balances)) == [("Bo", "Cy", 3), ("Di", "Ann", 7)]


def test_the_documented_example():
    assert settle_up({"Ann": 30, "Bo": -10, "Cy": -20, "Di": 5, "Ed": -5}) == [
        ("Cy", "Ann", 20), ("Bo", "Ann", 10), ("Ed", "Di", 5)]


def test_nothing_to_settle():
    assert settle_up({}) == []
    assert settle_up({"Ann": 0, "Bo": 0}) == []


def test_twelve_players_settle_in_at_most_eleven_transfers():
    # (How long twelve take: scripts/bench_rules.py.)
    rng = random.Random(12)
    values = [rng.randint(-500, 500) for _ in range(11)]
    balances = {NAMES[i]: v for i, v in enumerate(values)} | {NAMES[11]: -sum(values)}
    transfers = settle_up(balances)
    assert apply(transfers, balances) == balances
    assert len(transfers) <= 11


def test_more_than_the_exact_limit_still_settles():
    rng = random.Random(40)
    count = EXACT_LIMIT + 8
    values = [rng.randint(-900, 900) or 1 for _ in range(count - 1)]
    balances = {NAMES[i]: v for i, v in enumerate(values)} | {NAMES[count - 1]: -sum(values)}
    transfers = settle_up(balances)
    assert apply(transfers, balances) == balances
    assert len(transfers) <= sum(1 for v in balances.values() if v) - 1
    assert all(amount > 0 for _, _, amount in transfers)


def test_balances_that_do_not_sum_to_zero_are_refused():
    with pytest.raises(RuleError) as info:
        settle_up({"Ann": 10, "Bo": -7})
    assert str(info.value) == "the balances add up to 3, not 0: someone's money is missing"


@pytest.mark.parametrize("value", [2.5, "10", None, True])
def test_balances_must_be_whole_numbers(value):
    with pytest.raises(RuleError, match="Bo's balance must be a whole number"):
        settle_up({"Ann": 0, "Bo": value})
