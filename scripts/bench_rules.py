"""Time ``replay`` of a long game (50 rounds where the game allows) for each of the five games.

Usage: ``.venv/bin/python scripts/bench_rules.py [--runs 50] [--seed 2024]``

Each game's record comes from its generator, ``tests/rules/gen_<game>.py``
(``random_record(rng, rounds=50, ...)``), with options that keep the game
going (huge targets and the like). The script prints the rounds replayed and
the median and best time of ``replay`` next to the 5 ms goal, then the cost of
a round for games of 10 to 100 rounds: replay is linear in the rounds (each
round is scored once, from the running totals of the rounds before it), so
that cost stays the same as a game grows; last, the time ``settle_up`` takes for
twelve players (the goal: under a second; tests/rules/test_settle.py checks only what it
settles, not how fast). It only reports: a missing
generator, an error or a slow game never makes it fail.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from companion.rules import GAMES, game_module  # noqa: E402  (needs ROOT on the path)

ROUNDS = 50
GOAL_MS = 5.0
HUGE = 10**9
GROWTH = (10, 25, 50, 100)  # lengths of game for the growth report

# Keywords that make each game last: options of the game, or the generator's own knobs.
LONG_GAME: dict[str, dict[str, Any]] = {
    "tromplemond": {"target": HUGE},
    "clumond": {},  # the generator's ``rounds`` is the game's length
    "trumplestiltskin": {"target": HUGE, "gnome_target": HUGE},
    "trefeltromp": {"finish": 0.0, "cut": 0.0, "leave_chance": 0.0},
    "tremp": {"avoid_end": True},
}


def usable_keywords(generator: Any, game: str, wanted: dict[str, Any]) -> dict[str, Any]:
    """The ``wanted`` keywords the generator takes: its own parameters, or the game's options."""
    parameters = inspect.signature(generator).parameters
    options = game_module(game).DEFAULTS
    return {key: value for key, value in wanted.items()
            if (key in parameters and parameters[key].kind is not inspect.Parameter.VAR_KEYWORD)
            or key in options}


def timed(game: str, rounds: int, runs: int, seed: int) -> tuple[int, float, float]:
    """Replay a generated ``rounds``-round game ``runs`` times: rounds replayed, median and
    best ms. Raises what the generator or the rules raise."""
    gen = importlib.import_module(f"tests.rules.gen_{game}")
    generator = gen.random_record
    keywords = usable_keywords(generator, game, LONG_GAME.get(game, {}))
    record = generator(random.Random(seed), rounds=rounds, **keywords)
    replay = game_module(game).replay
    replayed = len(replay(record)["rounds"])
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        replay(record)
        times.append((time.perf_counter() - start) * 1000)
    return replayed, statistics.median(times), min(times)


def failed(game: str, error: Exception) -> str:
    """The report's line for a game that could not be timed."""
    if isinstance(error, ModuleNotFoundError) and error.name in (
            f"tests.rules.gen_{game}", "tests.rules", "tests"):
        return f"{game:<17} n/a: gen module missing"
    return f"{game:<17} error: {type(error).__name__}: {error}"


def bench(game: str, runs: int, seed: int) -> str:
    """One line of the report for ``game``: a 50-round game against the goal."""
    try:
        rounds, median, best = timed(game, ROUNDS, runs, seed)
    except Exception as error:  # noqa: BLE001 - report, never fail
        return failed(game, error)
    verdict = "ok" if median < GOAL_MS else "SLOW"
    return (f"{game:<17} {rounds:>6} {median:>10.2f} {best:>8.2f}   < {GOAL_MS:g} ms  {verdict}")


def growth(game: str, runs: int, seed: int) -> str:
    """One line of the growth report: the cost of a round at each length of game.

    Replay is linear in the rounds when the cost of a round stays the same as the game
    grows (the last column, the longest game's cost a round over the shortest's, near 1).
    """
    try:
        per_round = []
        for length in GROWTH:
            rounds, median, _best = timed(game, length, runs, seed)
            per_round.append(median * 1000 / max(rounds, 1))
    except Exception as error:  # noqa: BLE001 - report, never fail
        return failed(game, error)
    cells = "".join(f"{cost:>9.0f}" for cost in per_round)
    return f"{game:<17}{cells}   x{per_round[-1] / per_round[0]:.2f}"


def settle_twelve(runs: int) -> str:
    """The median and worst time of settling up twelve players' random balances."""
    from companion.rules.settle import settle_up

    seconds = []
    for seed in range(runs):
        rng = random.Random(seed)
        values = [rng.randint(-500, 500) for _ in range(11)]
        balances = {f"P{i}": v for i, v in enumerate(values)} | {"P11": -sum(values)}
        started = time.perf_counter()
        settle_up(balances)
        seconds.append(time.perf_counter() - started)
    return (f"settle_up, twelve players, {runs} runs: median "
            f"{1000 * statistics.median(seconds):.1f} ms, worst {1000 * max(seconds):.1f} ms "
            "(goal: under 1000 ms)")


def main(argv: list[str] | None = None) -> int:
    """Print the report; always exit 0."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50, help="replays timed per game")
    parser.add_argument("--seed", type=int, default=2024, help="seed of the generated games")
    args = parser.parse_args(argv)
    print(f"replay of a {ROUNDS}-round game, {args.runs} runs each (seed {args.seed})")
    print(f"{'game':<17} {'rounds':>6} {'median ms':>10} {'best ms':>8}   goal")
    for game in GAMES:
        print(bench(game, max(1, args.runs), args.seed), flush=True)
    print()
    print("growth: microseconds of replay per round, by the game's length in rounds "
          "(linear: the same at every length)")
    print(f"{'game':<17}" + "".join(f"{length:>9}" for length in GROWTH) + "   longest/shortest")
    for game in GAMES:
        print(growth(game, max(1, args.runs // 2), args.seed), flush=True)
    print()
    print(settle_twelve(max(1, args.runs // 5)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
