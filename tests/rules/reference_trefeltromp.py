"""Trefeltromp's part of the record book's independent count (``records_reference``):
its reveals worked out from the cards shown, with the pot followed chip by chip."""

from __future__ import annotations

from fractions import Fraction

STANDING = "money"
"""What of its replay ranks the players for the runner-up (None: it has none)."""


_ROMAN = {"Fool": 0} | {r: n for n, r in enumerate(
    "I II III IV V VI VII VIII IX X XI XII XIII XIV XV XVI XVII XVIII XIX XX XXI".split(), 1)}


def _strength(card: str) -> tuple[int, int]:
    """How a card ranks at a reveal (RULES: trumps by number, then the ace, the courts all
    equal, 10 down to 2); the Fool is a trump that only wins alone."""
    if card in _ROMAN:
        return (2, _ROMAN[card])
    rank = card[:-1]
    if rank == "A":
        return (1, 100)
    if rank in ("P", "N", "Q", "K"):
        return (1, 50)
    return (1, int(rank))


def _reveal_winner(cards: dict[str, str]) -> str | None:
    """Who wins a reveal, or None on a tie."""
    ranked = {p: _strength(c) for p, c in cards.items()}
    top = max(ranked.values())
    best = [p for p, r in ranked.items() if r == top]
    return best[0] if len(best) == 1 else None


def _trefeltromp(record: dict, result: dict) -> list[tuple[int, str, int]]:
    """Each take: a reveal won (⅓, ½, then all of the pot as it stands, rounded down) or the
    pot of a hand won by folding, the pot followed chip by chip."""
    takes = []
    for number, (raw, hand) in enumerate(zip(record["rounds"], result["rounds"],
                                             strict=True), 1):
        b = hand["breakdown"]
        pot = b["pot_after_antes"]
        in_hand = list(b["seated"])
        shows = raw.get("shows") or []
        for k, call in enumerate(b["calls"]):
            for action in call["actions"]:
                pot += action["chips"]
                if action["action"] == "fold":
                    in_hand.remove(action["player"])
                    if len(in_hand) == 1:
                        if pot:
                            takes.append((number, in_hand[0], pot))
                        pot = 0
            reveal = k - 1
            if 0 <= reveal < len(shows) and shows[reveal] and len(in_hand) > 1:
                winner = _reveal_winner(shows[reveal])
                if winner is not None:
                    share = pot * (1, 1, 2)[reveal] // (3, 2, 2)[reveal]
                    if share:
                        takes.append((number, winner, share))
                    pot -= share
    return takes


def count(raw: dict, result: dict, at) -> None:
    """Count one game of Trefeltromp (``raw``, replayed as ``result``) into ``at`` (a
    ``records_reference.Counting``): its rounds, its takes, its candidates for the records."""
    e, g = at.e, at.g
    figures, took = at.figures, at.took
    for r, hand in enumerate(result["rounds"], 1):
        b = hand["breakdown"]
        if b["stage"] == "over":
            for p in b["seated"]:
                figures[p].rounds.append(((e, g, r), Fraction(hand["scores"][p])))
    for r, p, amount in _trefeltromp(raw, result):
        took(p, (e, g, r), amount, "chips")
