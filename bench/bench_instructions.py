"""The server's work per game action counted in instructions, not seconds: a server run
under valgrind's callgrind (which counts every instruction the process executes in user
space, the same count whatever else the machine is doing) while the load test's bots play
on it, against another installed copy of the code the same way, in the same run.

    .venv/bin/python bench/bench_instructions.py --baseline OTHER/.venv/bin/python [--tables 16] [--window 60]

CPU seconds per action (``shuangkou loadtest``) on a shared machine move by a tenth or
more from one run to the next; instruction counts move by about 1 %. What they leave
out: the kernel's work for the server (socket writes and reads, the database file: the
``stime`` of ``/proc/PID/stat``: 130–170 µs per action in both copies measured here) and
how fast the processor gets through the instructions (cache misses: ``--cache`` adds
callgrind's simulated cache misses per action, read as a hint only).

Each server is started as the load test starts one (SQLite in a fresh directory; with
``--seed 1``, so both copies deal the same games in the same order), seated with
``--tables`` tables of the load test's bots (this copy's ``shuangkou loadtest --url``),
left to play ``--warmup`` seconds, then counted over ``--window`` seconds of play
(``callgrind_control``: instrumentation switched on and off; the actions from the server's
``/metrics``). Under callgrind a server runs some 50 times slower, so keep the tables few:
at about one action a second per table, 16 tables keep it under its core (with
``--cache``, slower still, the older code saturated its core at 16: use 8). A window that
holds no game's end or start (a think time far longer than the default) counts mid-game
actions only. ``--keep DIR`` keeps each count's callgrind dumps (``DIR/COPY-ROUND/``), for
``callgrind_annotate`` to say which functions the instructions and misses fall in.
Needs valgrind (Debian's package ``valgrind``).
"""

from __future__ import annotations

import argparse
import contextlib
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from shuangkou.server.process import ServerProcess

THIS_PYTHON = sys.executable


@dataclass(frozen=True)
class Count:
    """What one server executed over the window."""

    actions: int
    events: dict[str, int]  # callgrind's totals: Ir (instructions), and cache misses with --cache

    def per_action(self, event: str) -> float:
        """``event``'s total over the window, per action."""
        return self.events[event] / self.actions


def actions_applied(server: ServerProcess) -> int:
    """The server's ``shuangkou_actions_total``."""
    with urllib.request.urlopen(f"{server.url}/metrics", timeout=30) as answer:
        for line in answer.read().decode().splitlines():
            if line.startswith("shuangkou_actions_total "):
                return int(float(line.split()[1]))
    raise RuntimeError("the server's /metrics has no shuangkou_actions_total")


def read_totals(directory: Path) -> dict[str, int]:
    """The events and totals of the dump ``callgrind_control --dump`` asked for (callgrind
    writes another at exit, with nothing counted since)."""
    dumps = []
    for path in directory.glob("callgrind.out.*"):
        names: list[str] = []
        for line in path.read_text().splitlines():
            if line.startswith("events:"):
                names = line.split()[1:]
            elif line.startswith("totals:"):
                values = [int(value) for value in line.split()[1:]]
                dumps.append(dict(zip(names, values + [0] * (len(names) - len(values)), strict=True)))
    if not dumps:
        raise RuntimeError(f"no callgrind dump in {directory}")
    return max(dumps, key=lambda totals: totals["Ir"])


def count(python: str, args: argparse.Namespace, keep: Path | None = None) -> Count:
    """Run ``python``'s copy of the server under callgrind and count one window of play; the
    dumps and the server's files go to ``keep`` when given, else to a scratch directory."""
    if keep is not None:
        keep.mkdir(parents=True)  # new: an earlier run's dumps and database would be counted
    place = contextlib.nullcontext(str(keep)) if keep is not None else tempfile.TemporaryDirectory(
        prefix="bench-instructions-"
    )
    with place as scratch:
        directory = Path(scratch)
        valgrind = ["valgrind", "--tool=callgrind", "--instr-atstart=no",
                    f"--callgrind-out-file={directory}/callgrind.out.%p"]
        if args.cache:
            valgrind.append("--cache-sim=yes")
        server = ServerProcess(directory / "data", operator_token="bench", extra_args=["--seed", "1"],
                               python=python, launcher=valgrind)
        bots: subprocess.Popen[bytes] | None = None
        try:
            server.start(timeout=300)  # a server starts some 50 times slower under callgrind
            bots = subprocess.Popen(
                [THIS_PYTHON, "-m", "shuangkou", "loadtest", "--url", server.url,
                 "--tables", str(args.tables), "--think", str(args.think), "--warmup", "0",
                 "--duration", str(args.seating + args.warmup + args.window + 60)],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            )
            time.sleep(args.seating + args.warmup)
            before = actions_applied(server)
            callgrind_control("--instr=on", server)
            time.sleep(args.window)
            callgrind_control("--instr=off", server)
            after = actions_applied(server)
            callgrind_control("--dump", server)
        finally:
            if bots is not None:
                bots.terminate()
                bots.wait()
            server.terminate(timeout=120)
        if after <= before:
            raise RuntimeError(f"no action was played in the window ({python})")
        return Count(after - before, read_totals(directory))


def callgrind_control(option: str, server: ServerProcess) -> None:
    """Tell the server's callgrind ``option`` (instrumentation on or off, or dump)."""
    subprocess.run(["callgrind_control", option, str(server.pid)], check=True, capture_output=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", metavar="PYTHON", help="another copy's interpreter, counted first")
    parser.add_argument("--tables", type=int, default=16)
    parser.add_argument("--think", type=float, default=1.0,
                        help="the bots' mean think time in seconds (default 1, as the load test's)")
    parser.add_argument("--seating", type=float, default=20.0, help="seconds to seat the tables (default 20)")
    parser.add_argument("--warmup", type=float, default=40.0, help="seconds played before counting (default 40)")
    parser.add_argument("--window", type=float, default=60.0, help="seconds counted (default 60)")
    parser.add_argument("--rounds", type=int, default=1, help="windows counted for each copy, in turn")
    parser.add_argument("--cache", action="store_true", help="also simulate the caches (slower)")
    parser.add_argument("--keep", metavar="DIR", type=Path,
                        help="keep each count's callgrind dumps in DIR/COPY-ROUND (for callgrind_annotate)")
    args = parser.parse_args()
    if args.tables < 1 or args.rounds < 1 or args.window <= 0 or min(args.think, args.seating, args.warmup) < 0:
        parser.error("--tables and --rounds must be at least 1, --window positive, "
                     "--think, --seating and --warmup not negative")
    if args.keep is not None and args.keep.exists():
        parser.error(f"--keep {args.keep}: already exists; name a new directory")
    if shutil.which("valgrind") is None or shutil.which("callgrind_control") is None:
        sys.exit("bench_instructions: needs valgrind and callgrind_control (Debian's package valgrind)")
    copies = ([("baseline", args.baseline)] if args.baseline else []) + [("this", THIS_PYTHON)]
    events = ["Ir", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw"] if args.cache else ["Ir"]
    print(f"{args.tables} tables, {args.window:.0f} s counted after {args.warmup:.0f} s of play; per action:")
    print(f"{'round':<7}{'copy':<10}{'actions':>9}" + "".join(f"{event:>13}" for event in events))
    counts: dict[str, list[Count]] = {name: [] for name, _ in copies}
    for round_ in range(1, args.rounds + 1):
        for name, python in copies:
            figures = count(python, args, args.keep / f"{name}-{round_}" if args.keep is not None else None)
            counts[name].append(figures)
            print(f"{round_:<7}{name:<10}{figures.actions:>9}"
                  + "".join(f"{figures.per_action(event):>13,.0f}" for event in events), flush=True)
    if args.baseline:
        for event in events:
            ratios = [this.per_action(event) / base.per_action(event)
                      for this, base in zip(counts["this"], counts["baseline"], strict=True)]
            print(f"{event} per action, this / baseline: " + ", ".join(f"{ratio:.3f}" for ratio in ratios))


if __name__ == "__main__":
    main()
