"""The record book counted again, independently of ``companion.rules.records``.

Written from RULES.md and the record book's readings (``docs/records.md``), not from the
module under test or the money lines: each game's takes from a pot are worked out here
from the game record itself (Tromplemond's calls from the jacks in each hand, the round
pots, the kitty and its end shares; Trefeltromp's reveals from the cards shown, with the
pot followed chip by chip), the Gnome's points by the Trumplestiltskin generator's own
tally, and Tremp's length by counting hands. Where a figure is the game's own result (who
won, a Clumond payout, a finished game's money) it is read from the game's replay or the
evening's ledger, the games' contract, never through the book's helpers.

:func:`count` gives, for a table's evening records, the figures the book must show:
per player id and game, and the table's records, each with its value, its earliest place
(evening, game, round) and its holders.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from companion.rules import evening, replay

from . import gen_trumplestiltskin
from .gen_tromplemond import _POINTS

Where = tuple[int, int, int | None]
"""A place: evening number, game (from 1), round (None: the whole game)."""


@dataclass
class Counted:
    """One player's figures at one game, counted here."""

    played: int = 0
    won: int = 0
    runner_up: int = 0
    rounds: list[tuple[Where, Fraction]] = field(default_factory=list)
    money: dict[str, int] = field(default_factory=dict)
    takes: dict[str, list[tuple[Where, int]]] = field(default_factory=dict)
    """Each single take from a pot, by unit, in the order taken."""

    def largest(self, unit: str) -> tuple[int, Where]:
        """The largest take and where it was first made."""
        top = max(amount for _where, amount in self.takes[unit])
        return top, next(where for where, amount in self.takes[unit] if amount == top)


@dataclass
class Table:
    """Everything counted for a table."""

    players: dict[str, dict[str, Counted]] = field(default_factory=dict)
    candidates: dict[tuple[str, str | None], list[tuple[int | Fraction, Where, tuple[str, ...]]]] \
        = field(default_factory=dict)

    def record(self, kind: str, unit: str | None = None
               ) -> tuple[int | Fraction, Where, tuple[str, ...]] | None:
        """The record: its top value, the first place it was reached, and who reached it
        there (each once, in order)."""
        found = self.candidates.get((kind, unit), [])
        if not found:
            return None
        top = max(value for value, _w, _h in found)
        where = next(w for value, w, _h in found if value == top)
        holders: list[str] = []
        for value, w, who in found:
            if value == top and w == where:
                holders += [h for h in who if h not in holders]
        return top, where, tuple(holders)


# --------------------------------------------------------------------------- Tromplemond


def _rank(card: str) -> str:
    """A card's rank however the generator spelled it (``K♥``, ``KH``, ``th``, `` J ♠ ``)."""
    text = card.replace(" ", "").upper()
    rank = text[:-1]
    return "10" if rank == "T" else rank


def _hand(hand: dict[str, Any]) -> tuple[int, int, int]:
    """A Tromplemond hand's card points, jacks in the back row and jacks on show."""
    if "points" in hand:
        return hand["points"], hand["secret_jacks"], hand["public_jacks"]
    secret = [_rank(c) for c in hand["secret"]]
    public = [_rank(c) for c in hand["public"]]
    return (sum(_POINTS[r] for r in secret + public), secret.count("J"), public.count("J"))


def _share(back: int, shown: int) -> Fraction | str:
    """What a correct TROMP! call wins of the round pot (RULES' table), or "extreme"."""
    table = {(1, 1): Fraction(1, 4), (2, 0): Fraction(1, 2), (2, 1): Fraction(1),
             (3, 0): Fraction(1), (3, 1): Fraction(1), (0, 2): Fraction(1, 2),
             (1, 2): Fraction(1, 2), (2, 2): "extreme"}
    return table.get((back, shown), Fraction(0))


def _tromplemond(record: dict, result: dict) -> tuple[list[dict[str, int]],
                                                      list[tuple[int | None, str, int, bool]]]:
    """Each round's scores, and each take: (round, player, amount, TROMP! money or not)."""
    players = record["players"]
    opts = record.get("options") or {}
    stake, fee = opts.get("tromp_stake", 0), opts.get("joining_fee", 0)
    payout = opts.get("payout", [75, 25])
    first = record.get("first_dealer") or players[0]
    start = players.index(first)
    pot = 4 * stake
    kitty = 0
    extreme: str | None = None
    supers: set[str] = set()
    ultimates: set[str] = set()
    scores_by_round: list[dict[str, int]] = []
    takes: list[tuple[int | None, str, int, bool]] = []
    for number, rnd in enumerate(record["rounds"], 1):
        dealer = players[(start + number - 1) % 4]
        off = rnd.get("voted_off") or rnd.get("shown_early")
        survivors = [p for p in players if p != off]
        hands = {p: _hand(rnd["hands"][p]) for p in players if p in rnd["hands"]}
        scores = {}
        for p in players:
            if p == off:
                scores[p] = 0
                continue
            others = [q for q in survivors if q != p]
            scores[p] = (hands[p][0] + sum(hands[q][0] // 2 for q in others)
                         - 20 * sum(hands[q][1] + hands[q][2] for q in others))
        if rnd.get("dealer_forfeit") and dealer != off:
            scores[dealer] = 0
        scores_by_round.append(scores)
        won: dict[str, int] = {}
        for p in rnd.get("called") or []:
            share = _share(hands[p][1], hands[p][2])
            if share == "extreme":
                if kitty:
                    takes.append((number, p, kitty, True))
                kitty, extreme = 0, p
            elif p in survivors:
                won[p] = int(pot * share)
                if (hands[p][1], hands[p][2]) == (3, 0):
                    supers.add(p)
                elif (hands[p][1], hands[p][2]) == (3, 1):
                    ultimates.add(p)
        if extreme is not None:
            won = {extreme: pot}
        for p in players:  # in seat order, as the replay gives a round's pot
            if won.get(p):
                takes.append((number, p, won[p], True))
        kitty += pot - sum(won.values())
    if record.get("void") or record.get("banned"):
        return scores_by_round, []  # all money goes back: nothing was taken
    if not result["finished"]:
        return scores_by_round, takes
    totals = {p: sum(s[p] for s in scores_by_round) for p in players}
    winner = result["winners"][0]
    others = {p: t for p, t in totals.items() if p != winner}
    runners = [p for p, t in others.items() if t == max(others.values())]
    fee_pot = 4 * fee
    if extreme is not None:
        fee_paid = {extreme: fee_pot}
    else:
        fee_paid = {p: fee_pot * payout[1] // 100 // len(runners) for p in runners}
        fee_paid[winner] = fee_pot - sum(fee_paid.values())
    takes += [(None, p, amount, False) for p, amount in fee_paid.items() if amount]
    left = kitty
    order = players[start:] + players[:start]
    super_paid = {p: kitty // 4 for p in players if p in supers}
    left -= sum(super_paid.values())
    ultimate_paid = {}
    if ultimates and left:
        ultimate_paid = {p: left // len(ultimates) for p in players if p in ultimates}
        left -= sum(ultimate_paid.values())
    best = max(s for scores in scores_by_round for s in scores.values())
    best_players = [p for p in order if any(s[p] == best for s in scores_by_round)]
    best_paid = {}
    if left and best_players:
        each, odd = divmod(left, len(best_players))
        best_paid = {p: each + (1 if i < odd else 0) for i, p in enumerate(best_players)}
    for paid in (super_paid, ultimate_paid, best_paid):
        takes += [(None, p, amount, True) for p, amount in paid.items() if amount]
    return scores_by_round, takes


# --------------------------------------------------------------------------- Trefeltromp

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


# --------------------------------------------------------------------------- the table


def count(evenings: list[dict]) -> Table:
    """Every figure of the record book of ``evenings``, counted here."""
    table = Table()
    for e, record in enumerate(evenings, 1):
        ids = record.get("player_ids") or {}
        ledger = evening(record)
        unit = record["unit"]
        for g, raw in enumerate(record.get("games") or [], 1):
            _game(table, e, g, raw, unit, ids, ledger["games"][g - 1])
    return table


def _game(table: Table, e: int, g: int, raw: dict, unit: str, ids: dict[str, str],
          ledger: dict) -> None:
    name, players = raw["game"], raw["players"]
    result = replay(raw)
    idof = {p: ids.get(p, p) for p in players}
    figures = {p: table.players.setdefault(idof[p], {}).setdefault(name, Counted())
               for p in players}
    void = raw.get("void") is True
    for p in players:
        figures[p].played += 1
        if result["finished"] and p in result["winners"]:
            figures[p].won += 1
        if result["finished"] and p in ledger["money"]:
            figures[p].money[unit] = figures[p].money.get(unit, 0) + ledger["money"][p]
    standing = {"tromplemond": "totals", "clumond": "totals", "trumplestiltskin": "totals",
                "trefeltromp": "money"}.get(name)
    if standing and result["finished"] and result["winners"]:
        others = {p: Fraction(v) for p, v in result[standing].items()
                  if p not in result["winners"]}
        for p, v in others.items():
            if v == max(others.values()):
                figures[p].runner_up += 1

    def candidate(kind: str, value: int | Fraction, where: Where, who: list[str],
                  key: str | None = None) -> None:
        table.candidates.setdefault((kind, key), []).append(
            (value, where, tuple(idof[p] for p in who)))

    def took(p: str, where: Where, amount: int, in_unit: str) -> None:
        figures[p].takes.setdefault(in_unit, []).append((where, amount))

    if name == "tromplemond":
        scores, takes = _tromplemond(raw, result)
        if not void:
            for r, s in enumerate(scores, 1):
                for p in players:
                    figures[p].rounds.append(((e, g, r), Fraction(s[p])))
                top = max(s.values())
                candidate("highest", top, (e, g, r), [p for p in players if s[p] == top])
        for r, p, amount, tromp in takes:
            took(p, (e, g, r), amount, unit)
            if tromp:
                candidate("tromp", amount, (e, g, r), [p], unit)
    elif name == "clumond":
        before = {p: (raw.get("options") or {}).get("stack", 100) for p in players}
        for r, hand in enumerate(result["rounds"], 1):
            for p in players:
                figures[p].rounds.append(((e, g, r), Fraction(hand["totals"][p] - before[p])))
            before = hand["totals"]
            rows = hand["breakdown"]["players"]
            for p in players:
                if rows[p]["payout"]:
                    took(p, (e, g, r), rows[p]["payout"], "chips")
            candidate("clumond", hand["breakdown"]["pot_after_payments"], (e, g, r),
                      [p for p in players if rows[p]["payout"]])
    elif name == "trumplestiltskin":
        totals = dict.fromkeys(players, Fraction(0))
        gnome = Fraction(0)
        for r, hand in enumerate(raw["rounds"], 1):
            taker = gen_trumplestiltskin._taker_of(hand["bids"], len(players))
            before = dict(totals)
            gnome += gen_trumplestiltskin._tally(hand, taker, totals)
            if taker is not None:
                for p in players:
                    figures[p].rounds.append(((e, g, r), totals[p] - before[p]))
        if raw["rounds"]:
            candidate("gnome", gnome, (e, g, None), [])
    elif name == "trefeltromp":
        for r, hand in enumerate(result["rounds"], 1):
            b = hand["breakdown"]
            if b["stage"] == "over":
                for p in b["seated"]:
                    figures[p].rounds.append(((e, g, r), Fraction(hand["scores"][p])))
        for r, p, amount in _trefeltromp(raw, result):
            took(p, (e, g, r), amount, "chips")
    elif name == "tremp":
        teams = {players[0]: 0, players[2]: 0, players[1]: 1, players[3]: 1}
        names = (f"{players[0]} & {players[2]}", f"{players[1]} & {players[3]}")
        for r, hand in enumerate(result["rounds"], 1):
            for p in players:
                figures[p].rounds.append(((e, g, r), Fraction(hand["scores"][names[teams[p]]])))
        if raw["rounds"]:
            candidate("tremp", len(raw["rounds"]), (e, g, None), list(players))
