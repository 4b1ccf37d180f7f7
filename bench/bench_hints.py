"""The mover's moves in hint order, as the server lists them for every turn of a person
(:class:`~shuangkou.server.views.TurnMoves`: :func:`~shuangkou.games.shuangkou.bots.hints` and the
moves' JSON): CPU microseconds per turn over a fixed, seeded set of two-seat games, split
into a game's first lead, the later leads and the follows.

    .venv/bin/python bench/bench_hints.py [--games 300] [--warmup 200] [--seed 1]
                                          [--baseline OTHER/.venv/bin/python] [--rounds 3]

The games are played as the load test's players play them: one of the first three moves
listed, at random (seeded), so they stay the same from run to run as long as the listing
does. ``--warmup`` games are played first, untimed, so the caches of the move generator
and of the moves' JSON are as warm as in a server that has played a while.

With ``--baseline``, the same script runs under that interpreter too (another checkout's
virtual environment: its own code), alternately with this one for ``--rounds`` rounds,
each in a fresh process; the least of each figure is printed side by side with the
ratio (machines here are noisy, so the ratios are the figures to compare between runs),
and whether both listed the very same JSON at every turn.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import statistics
import subprocess
import sys
import time

from shuangkou.games.shuangkou.config import load_config
from shuangkou.games.shuangkou.family import SHUANGKOU
from shuangkou.games.shuangkou.game import Game, Pass, Play
from shuangkou.server.views import TurnMoves

KINDS = ("first lead", "lead", "follow", "every turn")


def play(games: range) -> dict[str, float | str]:
    """Play ``games`` (by seed), listing the moves of every turn: the mean CPU microseconds
    per turn of each kind, the mean moves and JSON bytes of each, and a digest of every JSON
    listed."""
    config = load_config("points")
    times: dict[str, list[int]] = {kind: [] for kind in KINDS}
    moves: dict[str, list[int]] = {kind: [] for kind in KINDS}
    sizes: dict[str, list[int]] = {kind: [] for kind in KINDS}
    digest = hashlib.sha256()
    clock = time.process_time_ns
    turn = 0
    for seed in games:
        game = Game.deal(config, seed)
        chance = random.Random(seed)
        led = False
        while not game.finished:
            turn += 1
            start = clock()
            text = TurnMoves().json(SHUANGKOU, game, game.to_act, turn)
            spent = clock() - start
            listed = json.loads(text)
            kind = "follow" if game.table is not None else "lead" if led else "first lead"
            for name in (kind, "every turn"):
                times[name].append(spent)
                moves[name].append(len(listed))
                sizes[name].append(len(text))
            digest.update(text.encode())
            led = led or game.table is None
            seat = game.to_act
            move = listed[chance.randrange(min(3, len(listed)))] if listed else {"type": "pass"}
            game.apply(Play.of(seat, move["cards"], move["as"]) if "cards" in move else Pass(seat))
    figures: dict[str, float | str] = {"digest": digest.hexdigest()}
    for kind in KINDS:
        figures[f"{kind} µs"] = statistics.mean(times[kind]) / 1000
        figures[f"{kind} turns"] = len(times[kind])
        figures[f"{kind} moves"] = statistics.mean(moves[kind])
        figures[f"{kind} bytes"] = statistics.mean(sizes[kind])
    return figures


def measure(args: argparse.Namespace) -> dict[str, float | str]:
    """The figures of this code: warm-up games, then the measured ones."""
    play(range(args.seed + 10**6, args.seed + 10**6 + args.warmup))
    return play(range(args.seed, args.seed + args.games))


def run(python: str, args: argparse.Namespace) -> dict[str, float | str]:
    """The figures of the code ``python`` runs, from a fresh process."""
    command = [python, __file__, "--games", str(args.games), "--warmup", str(args.warmup), "--seed", str(args.seed)]
    command.append("--json")
    result = subprocess.run(command, capture_output=True, text=True, check=True)
    figures: dict[str, float | str] = json.loads(result.stdout)
    return figures


def least(runs: list[dict[str, float | str]], key: str) -> float:
    """The least of a figure over ``runs`` (other work on the machine only ever adds to it)."""
    return min(float(figures[key]) for figures in runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--warmup", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--baseline", help="another interpreter to run the same games with (its own code)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", action="store_true", help="print this code's figures as JSON")
    args = parser.parse_args()
    if args.json:
        print(json.dumps(measure(args)))
        return
    ours: list[dict[str, float | str]] = []
    theirs: list[dict[str, float | str]] = []
    for _ in range(args.rounds if args.baseline else 1):
        if args.baseline:
            theirs.append(run(args.baseline, args))
        ours.append(run(sys.executable, args))
    runs = "one run" if len(ours) == 1 else f"the least of {len(ours)} runs"
    print(f"{args.games} games after {args.warmup} warm-up games; CPU µs per turn ({runs})")
    header = f"{'turn':<12}{'turns':>7}{'moves':>8}{'bytes':>8}{'this µs':>10}"
    print(header + (f"{'baseline µs':>13}{'ratio':>7}" if theirs else ""))
    for kind in KINDS:
        row = (
            f"{kind:<12}{least(ours, f'{kind} turns'):>7.0f}{least(ours, f'{kind} moves'):>8.1f}"
            f"{least(ours, f'{kind} bytes'):>8.0f}{least(ours, f'{kind} µs'):>10.1f}"
        )
        if theirs:
            base = least(theirs, f"{kind} µs")
            row += f"{base:>13.1f}{least(ours, f'{kind} µs') / base:>7.2f}"
        print(row)
    if theirs:
        same = {figures["digest"] for figures in ours + theirs}
        print("the same moves listed in the same order at every turn:", "yes" if len(same) == 1 else "NO")


if __name__ == "__main__":
    main()
