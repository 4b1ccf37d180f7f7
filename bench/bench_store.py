"""Store benchmark: storing game actions one commit each against group commits of
several actions, in the same run (machines here are noisy, so the ratios are the figures
to compare between runs).

    .venv/bin/python bench/bench_store.py [--games 1000] [--actions 4000]
    .venv/bin/python bench/bench_store.py --database-url postgresql+psycopg://postgres@127.0.0.1/bench
    .venv/bin/python bench/bench_store.py --baseline OTHER/.venv/bin/python [--rounds 5]

The actions go to random games among ``--games`` running ones, as a server's tables make
them. Each figure is CPU time of this process and wall time per action; with PostgreSQL
the wall time includes the database server's round trips and flushes. The default
database is a fresh SQLite file (WAL, as the server uses it); a PostgreSQL database given
by URL gets the schema and keeps the rows (use a throwaway one).

``--baseline PYTHON`` compares this copy's store with another installed copy's (that
interpreter runs this script on its own code), on ``--database-url`` when given: each
batch size is measured ``--rounds`` times by each in turn, each round a fresh process and
database, and the medians of CPU per action are printed side by side with their ratio
(this / baseline).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from shuangkou.store import Store

ACTION = json.dumps({"type": "play", "seat": 0, "cards": "3 3 4 4 5 5", "kind": "pair_run"})
BATCHES = (1, 2, 4, 8, 16)


def measure(store: Store, games: list[str], actions: int, batch: int, rng: random.Random) -> tuple[float, float]:
    """CPU and wall microseconds per action for ``actions`` actions stored ``batch`` per commit."""
    seqs = dict.fromkeys(games, 0)

    def next_action() -> tuple[str, int, str]:
        game = rng.choice(games)
        seqs[game] += 1
        return game, seqs[game], ACTION

    # Each batch size writes to games of its own, so no run makes another's rows longer.
    rounds = max(1, actions // batch)
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(rounds):
        outcomes = store.append_actions([next_action() for _ in range(batch)])
        assert not any(outcomes), outcomes
    done = rounds * batch
    return (time.process_time() - cpu) / done * 1e6, (time.perf_counter() - wall) / done * 1e6


def run(
    url: str, games_count: int, actions: int, batches: tuple[int, ...], rng: random.Random
) -> dict[int, tuple[float, float]]:
    """CPU and wall microseconds per action of each batch size, on the database at ``url``."""
    figures: dict[int, tuple[float, float]] = {}
    with Store(url) as store:
        for batch in batches:
            games = [uuid.uuid4().hex for _ in range(games_count)]
            for game in games:
                store.save_game(game, "bench", json.dumps({"edition": "points"}))
            figures[batch] = measure(store, games, actions, batch, rng)
    return figures


def compare(baseline: str, args: argparse.Namespace) -> None:
    """This copy against the one of the interpreter ``baseline``, batch size by batch size."""
    database = args.database_url.split(":", 1)[0] if args.database_url else "sqlite"
    print(f"{database}: {args.actions} actions per batch size, to {args.games} running games; "
          f"median of {args.rounds} rounds, each a fresh process, baseline first\n")
    print(f"{'actions per commit':<20} {'CPU µs/action: baseline / this (ratio)':>40}")
    for batch in BATCHES:
        cpu: dict[str, list[float]] = {baseline: [], sys.executable: []}
        for round_ in range(args.rounds):
            for python in cpu:
                command = [python, __file__, "--games", str(args.games), "--actions", str(args.actions),
                           "--batch", str(batch), "--seed", str(args.seed + round_), "--json"]
                if args.database_url:
                    command += ["--database-url", args.database_url]
                found = json.loads(subprocess.run(command, capture_output=True, text=True, check=True).stdout)
                cpu[python].append(found[str(batch)][0])
        before, after = (statistics.median(cpu[python]) for python in (baseline, sys.executable))
        print(f"{batch:<20} {before:>23,.1f} / {after:,.1f} ({after / before:.2f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000, help="running games the actions go to (default 1000)")
    parser.add_argument("--actions", type=int, default=4000, help="actions per batch size (default 4000)")
    parser.add_argument("--database-url", help="a throwaway database (default: a fresh SQLite file)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--baseline", metavar="PYTHON", help="compare with the copy of this interpreter")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of each batch size with --baseline (default 5)")
    parser.add_argument("--batch", type=int, help=argparse.SUPPRESS)  # one batch size (a round of --baseline)
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)  # its figures, for --baseline
    args = parser.parse_args()
    if args.baseline:
        compare(args.baseline, args)
        return
    rng = random.Random(args.seed)
    batches = (args.batch,) if args.batch else BATCHES
    with tempfile.TemporaryDirectory(prefix="shuangkou-bench-") as directory:
        url = args.database_url or f"sqlite:///{Path(directory) / 'bench.db'}"
        figures = run(url, args.games, args.actions, batches, rng)
    if args.json:
        print(json.dumps(figures))
        return
    print(f"{url.split(':')[0].split('+')[0]}: {args.actions} actions per batch size, to {args.games} running games\n")
    header = f"{'actions per commit':<20} {'CPU µs/action':>14} {'wall µs/action':>15}"
    print(f"{header} {'wall vs 1 per commit':>21}")
    single_wall = figures[batches[0]][1]
    for batch, (cpu, wall) in figures.items():
        print(f"{batch:<20} {cpu:>14,.0f} {wall:>15,.0f} {single_wall / wall:>20.1f}×")


if __name__ == "__main__":
    main()
