"""Store benchmark: storing game actions one commit each against group commits of
several actions, in the same run (machines here are noisy, so the ratios are the figures
to compare between runs).

    .venv/bin/python bench/bench_store.py [--games 1000] [--actions 4000]
    .venv/bin/python bench/bench_store.py --database-url postgresql+psycopg://postgres@127.0.0.1/bench

The actions go to random games among ``--games`` running ones, as a server's tables make
them. Each figure is CPU time of this process and wall time per action; with PostgreSQL
the wall time includes the database server's round trips and flushes. The default
database is a fresh SQLite file (WAL, as the server uses it); a PostgreSQL database given
by URL gets the schema and keeps the rows (use a throwaway one).
"""

from __future__ import annotations

import argparse
import json
import random
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000, help="running games the actions go to (default 1000)")
    parser.add_argument("--actions", type=int, default=4000, help="actions per batch size (default 4000)")
    parser.add_argument("--database-url", help="a throwaway database (default: a fresh SQLite file)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="shuangkou-bench-") as directory:
        url = args.database_url or f"sqlite:///{Path(directory) / 'bench.db'}"
        with Store(url) as store:
            print(f"{store.dialect}: {args.actions} actions per batch size, to {args.games} running games\n")
            header = f"{'actions per commit':<20} {'CPU µs/action':>14} {'wall µs/action':>15}"
            print(f"{header} {'wall vs 1 per commit':>21}")
            single_wall = 0.0
            for batch in BATCHES:
                games = [uuid.uuid4().hex for _ in range(args.games)]
                for game in games:
                    store.save_game(game, "bench", json.dumps({"edition": "points"}))
                cpu, wall = measure(store, games, args.actions, batch, rng)
                single_wall = single_wall or wall
                print(f"{batch:<20} {cpu:>14,.0f} {wall:>15,.0f} {single_wall / wall:>20.1f}×")


if __name__ == "__main__":
    main()
