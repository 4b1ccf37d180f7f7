"""Store benchmark: storing game actions one commit each against group commits of
several actions, in the same run (machines here are noisy, so the ratios are the figures
to compare between runs).

    .venv/bin/python bench/bench_store.py [--games 1000] [--actions 4000]
    .venv/bin/python bench/bench_store.py --database-url postgresql+psycopg://postgres@127.0.0.1/bench [--fenced]
    .venv/bin/python bench/bench_store.py --baseline OTHER/.venv/bin/python [--rounds 5]

The actions go to random games among ``--games`` running ones, as a server's tables make
them. Each figure is CPU time of this process and wall time per action; with PostgreSQL
the wall time includes the database server's round trips and flushes, and when the
database runs on this machine the CPU its processes used is shown too (from ``/proc``:
every process named ``postgres``, so keep the machine's other databases idle meanwhile).
``--fenced`` stores them as a cluster's node does: each game at a table claimed first, and
every action carrying its table's fence (checked in the batch's transaction). The default
database is a fresh SQLite file (WAL, as the server uses it); on a PostgreSQL database
given by URL each run (each round with ``--baseline``) gets a new schema of its own,
dropped at its end, as a load test's server does.

``--baseline PYTHON`` compares this copy's store with another installed copy's (that
interpreter runs this script on its own code), on ``--database-url`` when given: each
batch size is measured ``--rounds`` times by each in turn, each round a fresh process and
database, and the medians of CPU per action are printed side by side with their ratio
(this / baseline), and the database's too when it is measured.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterable, Iterator
from pathlib import Path

from sqlalchemy.engine import make_url

from shuangkou.store import Fence, Store

ACTION = json.dumps({"type": "play", "seat": 0, "cards": "3 3 4 4 5 5", "kind": "pair_run"})
BATCHES = (1, 2, 4, 8, 16)
LOOPBACK = ("127.0.0.1", "localhost", "::1", None)  # None: the local socket


Figures = tuple[float, float, float | None]
"""CPU of this process, wall time and CPU of the database's processes (None when not
measured), in microseconds per action."""


def database_seconds() -> float:
    """CPU seconds used so far by the processes named ``postgres`` on this machine."""
    from shuangkou.loadtest.run import CpuSnapshot  # here: a round of --baseline may run on a copy without it

    return sum(process.seconds for process in CpuSnapshot.read().processes.values() if process.name == "postgres")


def can_measure_database(url: str) -> bool:
    """Whether the database's CPU can be read: PostgreSQL on this machine, and a copy of the
    code that reads processes' CPU."""
    try:
        from shuangkou.loadtest.run import CpuSnapshot  # noqa: F401 - only whether this copy has it
    except ImportError:
        return False
    parsed = make_url(url)
    return parsed.get_backend_name() == "postgresql" and parsed.host in LOOPBACK


def measure(
    store: Store, games: dict[str, Fence | None], actions: int, batch: int, rng: random.Random, database: bool
) -> Figures:
    """The figures for ``actions`` actions stored ``batch`` per commit, each with its game's
    fence (None: a single server's); the database's CPU when ``database``."""
    seqs = dict.fromkeys(games, 0)
    names = list(games)

    def next_action() -> tuple[str, int, str]:
        game = rng.choice(names)
        seqs[game] += 1
        return game, seqs[game], ACTION

    # Each batch size writes to games of its own, so no run makes another's rows longer.
    rounds = max(1, actions // batch)
    database_before = database_seconds() if database else 0.0
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(rounds):
        batch_actions = [next_action() for _ in range(batch)]
        outcomes = store.append_actions(batch_actions, [games[game] for game, _, _ in batch_actions])
        assert not any(outcomes), outcomes
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    done = rounds * batch
    database_cpu = (database_seconds() - database_before) / done * 1e6 if database else None
    return cpu / done * 1e6, wall / done * 1e6, database_cpu


def run(
    url: str, games_count: int, actions: int, batches: tuple[int, ...], rng: random.Random, fenced: bool
) -> dict[int, Figures]:
    """The figures of each batch size, on the database at ``url``."""
    figures: dict[int, Figures] = {}
    with Store(url) as store:
        database = can_measure_database(url)
        for batch in batches:
            games: dict[str, Fence | None] = {}
            for _ in range(games_count):
                game = uuid.uuid4().hex
                fence = store.claim_table(f"t-{game}", "bench") if fenced else None
                store.save_game(game, "bench", json.dumps({"edition": "points"}),
                                table_id=fence.table_id if fence else None, fence=fence)
                games[game] = fence
            figures[batch] = measure(store, games, actions, batch, rng, database)
    return figures


def compare(baseline: str, args: argparse.Namespace) -> None:
    """This copy against the one of the interpreter ``baseline``, batch size by batch size."""
    database = args.database_url.split(":", 1)[0] if args.database_url else "sqlite"
    fenced = ", fenced" if args.fenced else ""
    print(f"{database}: {args.actions} actions per batch size, to {args.games} running games{fenced}; "
          f"median of {args.rounds} rounds, each a fresh process, baseline first\n")
    print(f"{'actions per commit':<20} {'CPU µs/action: baseline / this (ratio)':>40} "
          f"{'database CPU µs/action: baseline / this (ratio)':>49}")
    for batch in BATCHES:
        found: list[list[Figures]] = [[], []]  # the baseline's rounds, this copy's
        for round_ in range(args.rounds):
            for python, rounds in zip((baseline, sys.executable), found, strict=True):
                command = [python, __file__, "--games", str(args.games), "--actions", str(args.actions),
                           "--batch", str(batch), "--seed", str(args.seed + round_), "--json"]
                if args.fenced:
                    command.append("--fenced")
                with database_for_run(args.database_url) as url:
                    command += ["--database-url", url]
                    figures = json.loads(subprocess.run(command, capture_output=True, text=True, check=True).stdout)
                rounds.append(tuple(figures[str(batch)]))
        columns = [side_by_side([figures[column] for figures in rounds] for rounds in found) for column in (0, 2)]
        print(f"{batch:<20} {columns[0]:>40} {columns[1]:>49}")


def side_by_side(rounds: Iterable[list[float | None]]) -> str:
    """``baseline / this (ratio)`` of the medians of two copies' rounds (``-`` where one was
    not measured, and for the ratio of a baseline of nothing: too short a run to count a
    clock tick)."""
    before, after = (statistics.median(values) if None not in values else None for values in rounds)
    if before is None or after is None:
        return "-"
    return f"{before:,.1f} / {after:,.1f} ({after / before:.2f})" if before else f"{before:,.1f} / {after:,.1f} (-)"


@contextlib.contextmanager
def database_for_run(database_url: str | None, as_given: bool = False) -> Iterator[str]:
    """A database for one run: a fresh SQLite file, or a new schema of the PostgreSQL
    database at ``database_url`` (that database itself when ``as_given``: a round of
    ``--baseline``, whose schema the parent made); gone afterwards."""
    if database_url is not None and make_url(database_url).get_backend_name() == "postgresql" and not as_given:
        from shuangkou.loadtest.run import fresh_schema  # here: --baseline runs this file on copies without it

        with fresh_schema(database_url, "bench") as url:
            yield url
        return
    with tempfile.TemporaryDirectory(prefix="shuangkou-bench-") as directory:
        yield database_url or f"sqlite:///{Path(directory) / 'bench.db'}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000, help="running games the actions go to (default 1000)")
    parser.add_argument("--actions", type=int, default=4000, help="actions per batch size (default 4000)")
    parser.add_argument("--database-url", help="a throwaway database (default: a fresh SQLite file)")
    parser.add_argument("--fenced", action="store_true", help="store as a cluster's node does: every action fenced")
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
    with database_for_run(args.database_url, as_given=args.json) as url:
        figures = run(url, args.games, args.actions, batches, rng, args.fenced)
    if args.json:
        print(json.dumps(figures))
        return
    fenced = ", fenced" if args.fenced else ""
    print(f"{url.split(':')[0].split('+')[0]}: {args.actions} actions per batch size, "
          f"to {args.games} running games{fenced}\n")
    header = f"{'actions per commit':<20} {'CPU µs/action':>14} {'wall µs/action':>15}"
    print(f"{header} {'wall vs 1 per commit':>21} {'database CPU µs/action':>23}")
    single_wall = figures[batches[0]][1]
    for batch, (cpu, wall, database) in figures.items():
        database_column = "-" if database is None else f"{database:,.0f}"
        print(f"{batch:<20} {cpu:>14,.0f} {wall:>15,.0f} {single_wall / wall:>20.1f}× {database_column:>23}")


if __name__ == "__main__":
    main()
