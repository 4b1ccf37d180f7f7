"""Random legal self-play against RLCard's Dou Dizhu game engine, side by side in one run.

    pip install -e '.[bench]'          # RLCard, only for this comparison
    .venv/bin/python bench/bench_rlcard.py [--first 2000] [--games 200] [--rounds 5] [--seed 1]

Both engines play complete games in which every turn takes a uniformly random legal
action, through each engine's own game API:

- shuangkou: ``Game.deal`` of the default Rush room (two seats), then ``Game.legal_moves``
  plus a pass when following, one chosen at random and applied with ``Game.apply``;
- RLCard: ``DoudizhuGame.init_game`` (three seats, landlord fixed as RLCard deals it), then
  one of the legal actions its state lists (``state["actions"]``, what
  ``DoudizhuEnv._get_legal_actions`` reads; ``"pass"`` among them when following) chosen at
  random and applied with ``DoudizhuGame.step``.

A turn is one chosen action applied to the game (shuangkou's automatic passes, R2.6, are
part of the action that causes them). Dealing is timed with the games; time is this
process's CPU time on one core. Every game has its own deal (no game is played twice).

Two figures per engine, each all turns over all CPU time of its games: the first
``--first`` games from a cold start (shuangkou builds its move templates as hands need
them, RLCard loads its action tables at import), then ``--rounds`` rounds of ``--games``
games, the engines taking turns, as a long self-play run sees them (the machine is shared,
so the ratio of the same run is the figure to compare; the spread of the rounds' ratios
is printed too).
"""

from __future__ import annotations

import argparse
import random
import time

from shuangkou.games.shuangkou.config import load_config
from shuangkou.games.shuangkou.game import Game, Pass, Play

Turns = tuple[int, float]
"""Turns played and the CPU seconds they took."""


def shuangkou_turns(deals: range, chooser: random.Random) -> Turns:
    """Random two-seat Rush games, one per seed in ``deals``."""
    config = load_config("points")
    turns = 0
    start = time.process_time()
    for seed in deals:
        game = Game.deal(config, seed)
        while not game.finished:
            seat = game.to_act
            moves = game.legal_moves()
            following = game.table is not None
            choice = chooser.randrange(len(moves) + following)
            game.apply(Play.move(seat, moves[choice]) if choice < len(moves) else Pass(seat))
            turns += 1
    return turns, time.process_time() - start


def rlcard_turns(deals: range, chooser: random.Random) -> Turns:
    """Random Dou Dizhu games on RLCard's game engine, one per seed in ``deals``."""
    import numpy as np
    from rlcard.games.doudizhu.game import DoudizhuGame

    game = DoudizhuGame()
    turns = 0
    start = time.process_time()
    for seed in deals:
        game.np_random = np.random.RandomState(seed)
        state, _ = game.init_game()
        while not game.is_over():
            actions = state["actions"]
            state, _ = game.step(actions[chooser.randrange(len(actions))])
            turns += 1
    return turns, time.process_time() - start


def per_second(played: list[Turns]) -> float:
    """All turns over all their CPU time."""
    return sum(turns for turns, _ in played) / sum(seconds for _, seconds in played)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--first", type=int, default=2000, help="games per engine from a cold start")
    parser.add_argument("--games", type=int, default=400, help="games per engine per round after those")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    try:
        import rlcard  # noqa: F401
    except ImportError:
        parser.exit(2, "RLCard is not installed: pip install -e '.[bench]'\n")
    engines = {"shuangkou (Rush, 2 seats)": shuangkou_turns, "RLCard Dou Dizhu (3 seats)": rlcard_turns}
    chooser = random.Random(args.seed)
    base = args.seed * 10_000_000
    first = {name: per_second([play(range(base, base + args.first), chooser)]) for name, play in engines.items()}
    rounds: dict[str, list[Turns]] = {name: [] for name in engines}
    for number in range(args.rounds):
        deals = range(base + args.first + number * args.games, base + args.first + (number + 1) * args.games)
        for name, play in engines.items():
            rounds[name].append(play(deals, chooser))
    then = {name: per_second(played) for name, played in rounds.items()}
    ours, theirs = ([per_second([one]) for one in rounds[name]] for name in engines)
    ratios = [mine / other for mine, other in zip(ours, theirs, strict=True)]

    print(f"random legal self-play, turns per CPU second on one core (seed {args.seed})\n")
    print(f"{'':<28} {f'first {args.first:,} games':>18}   {f'then {args.rounds} × {args.games} games':>24}")
    for name in engines:
        print(f"{name:<28} {first[name]:>18,.0f}   {then[name]:>24,.0f}")
    mine, other = engines
    print(f"{'shuangkou / RLCard':<28} {first[mine] / first[other]:>17.2f}×   {then[mine] / then[other]:>23.2f}×  "
          f"(rounds {min(ratios):.2f}–{max(ratios):.2f})")


if __name__ == "__main__":
    main()
