"""Environment steps per second with random agents: every shipped room through
``shuangkou.env`` beside RLCard's Dou Dizhu environment, in one run.

    pip install -e '.[env,bench]'      # PettingZoo for shuangkou.env, RLCard for the comparison
    .venv/bin/python bench/bench_env.py [--games 200] [--warmup 20] [--seed 1]

Each agent takes a uniformly random action among those its observation's mask allows:

- shuangkou.env: ``env(room)`` (the wrapped environment), ``agent_iter``, ``last`` (the
  observation vector and its mask) and ``step``; a Tractor hand is chosen card by card;
  also ``royalist216`` with ``guard_card = "called"`` (叫保子, Y9);
- RLCard: ``rlcard.make("doudizhu")``, one of ``state["legal_actions"]`` (its encoded
  observation comes with every step) and ``step``.

A step is one action of a live agent (PettingZoo's steps of finished agents are not
counted). Every hand is dealt from its own seed; ``--warmup`` hands of each are played
first and not counted (the Shuangkou move templates are built as hands need them). Time is
this process's CPU time on one core; the machine may be shared, so compare the figures of
one run.
"""

from __future__ import annotations

import argparse
import functools
import random
import time
from collections.abc import Callable

Steps = tuple[int, float]
"""Steps taken and the CPU seconds they took."""


def room_steps(room: str, seeds: range, chooser: random.Random, **overrides: object) -> Steps:
    """Random agents through ``shuangkou.env`` for one hand per seed (``overrides``: room keys)."""
    from shuangkou.env import env

    table = env(room, **overrides)
    steps = 0
    start = time.process_time()
    for seed in seeds:
        table.reset(seed=seed)
        for _ in table.agent_iter():
            observation, _, terminated, truncated, _ = table.last()
            if terminated or truncated:
                table.step(None)
                continue
            table.step(chooser.choice(observation["action_mask"].nonzero()[0].tolist()))
            steps += 1
    return steps, time.process_time() - start


def rlcard_steps(seeds: range, chooser: random.Random) -> Steps:
    """Random agents in RLCard's Dou Dizhu environment, one game per seed."""
    import rlcard

    game = rlcard.make("doudizhu")
    steps = 0
    start = time.process_time()
    for seed in seeds:
        game.seed(seed)
        state, _ = game.reset()
        while not game.is_over():
            state, _ = game.step(chooser.choice(list(state["legal_actions"])))
            steps += 1
    return steps, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200, help="hands (games) counted per environment")
    parser.add_argument("--warmup", type=int, default=20, help="hands played first, not counted")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    try:
        import rlcard  # noqa: F401

        from shuangkou.env import env  # noqa: F401
    except ImportError as error:
        parser.exit(2, f"{error.name} is not installed: pip install -e '.[env,bench]'\n")
    from shuangkou.games import families

    rooms = [room for family in families().values() for room in family.shipped_rooms]
    runs: dict[str, Callable[[range, random.Random], Steps]] = {
        f"shuangkou.env {room}": (lambda seeds, chooser, room=room: room_steps(room, seeds, chooser))
        for room in rooms
    }
    runs["shuangkou.env royalist216 called"] = functools.partial(room_steps, "royalist216", guard_card="called")
    runs["RLCard doudizhu"] = rlcard_steps
    chooser = random.Random(args.seed)
    base = args.seed * 10_000_000
    warm, counted = range(base, base + args.warmup), range(base + args.warmup, base + args.warmup + args.games)
    print(f"random agents, environment steps per CPU second on one core ({args.games} hands each, seed {args.seed})\n")
    rates: dict[str, float] = {}
    for name, run in runs.items():
        run(warm, chooser)
        steps, seconds = run(counted, chooser)
        rates[name] = steps / seconds
    theirs = rates["RLCard doudizhu"]
    for name, rate in rates.items():
        print(f"{name:<32} {rate:>10,.0f}   {rate / theirs:>5.2f}×")


if __name__ == "__main__":
    main()
