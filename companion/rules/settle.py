"""Settle-up: who pays whom at the end of the evening, in the fewest transfers.

A balance is a player's net gain in the smallest unit (positive: the table
owes them; negative: they owe the table). The balances must sum to zero.

The fewest transfers is ``n − g``, where ``n`` counts the players with a
non-zero balance and ``g`` is the largest number of disjoint groups whose
balances each sum to zero (each group settles inside itself with one
transfer fewer than its size, and no solution can do better). The groups are
found exactly by dynamic programming over subsets, which is instant up to
about 16 players with something to settle; a bigger table falls back to the
greedy pairing, which is never more than ``n − 1`` transfers.

>>> settle_up({"Ann": 30, "Bo": -10, "Cy": -20, "Di": 5, "Ed": -5})
[('Cy', 'Ann', 20), ('Bo', 'Ann', 10), ('Ed', 'Di', 5)]
"""

from __future__ import annotations

from collections.abc import Mapping

from .common import whole_number
from .errors import Phrase, RuleError

EXACT_LIMIT = 16
"""Up to this many non-zero balances the answer is proven minimal."""


def settle_up(balances: Mapping[str, int]) -> list[tuple[str, str, int]]:
    """The transfers ``(payer, payee, amount)`` that settle ``balances``.

    The fewest possible transfers (exact up to :data:`EXACT_LIMIT` players
    with a non-zero balance), each a positive whole amount, and the same
    answer every time for the same balances.
    """
    amounts = {name: whole_number(v, Phrase("field.balance_of", {"name": name}))
               for name, v in balances.items()}
    total = sum(amounts.values())
    if total != 0:
        raise RuleError("settle.not_zero_sum", total=total)
    people = [name for name, v in amounts.items() if v != 0]
    if len(people) > EXACT_LIMIT:
        return _settle_group(people, amounts)
    transfers: list[tuple[str, str, int]] = []
    for group in _zero_sum_groups(people, amounts):
        transfers.extend(_settle_group(group, amounts))
    return transfers


def _zero_sum_groups(people: list[str], amounts: Mapping[str, int]) -> list[list[str]]:
    """Split ``people`` into the most disjoint groups that each sum to zero."""
    n = len(people)
    full = (1 << n) - 1
    sums = [0] * (full + 1)
    best = [0] * (full + 1)
    for mask in range(1, full + 1):
        low = (mask & -mask).bit_length() - 1
        sums[mask] = sums[mask & (mask - 1)] + amounts[people[low]]
        best[mask] = max(best[mask ^ (1 << i)] for i in range(n) if mask >> i & 1)
        if sums[mask] == 0:
            best[mask] += 1
    groups: list[list[str]] = []
    current: list[str] = []
    mask = full
    while mask:
        gain = 1 if sums[mask] == 0 else 0
        step = next(i for i in range(n)
                    if mask >> i & 1 and best[mask ^ (1 << i)] == best[mask] - gain)
        mask ^= 1 << step
        current.append(people[step])
        if sums[mask] == 0:
            groups.append(current)
            current = []
    return groups


def _settle_group(group: list[str], amounts: Mapping[str, int]) -> list[tuple[str, str, int]]:
    """Settle one group: the biggest debtor pays the biggest creditor, until none is left.

    Each transfer clears at least one balance and the last clears two, so a
    group of ``k`` takes at most ``k − 1`` transfers.
    """
    order = {name: i for i, name in enumerate(group)}
    left = {name: amounts[name] for name in group}
    transfers = []
    while True:
        debtors = [n for n in group if left[n] < 0]
        creditors = [n for n in group if left[n] > 0]
        if not debtors:
            return transfers
        payer = min(debtors, key=lambda n: (left[n], order[n]))
        payee = max(creditors, key=lambda n: (left[n], -order[n]))
        amount = min(-left[payer], left[payee])
        transfers.append((payer, payee, amount))
        left[payer] += amount
        left[payee] -= amount
