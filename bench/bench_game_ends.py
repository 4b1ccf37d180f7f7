"""What a two-seat game costs the server outside its messages and the database, per game:
the escape costs and seat views of every state (each seat's, at every change), the record
stored at the deal and at the end, and the settlement.

    .venv/bin/python bench/bench_game_ends.py [--games 30] [--rounds 3] [--baseline PYTHON]

The same games of greedy bots (points room, seeds from ``--seed``) are replayed ``--rounds``
times; each figure is the least CPU time per game over the rounds. With ``--baseline`` the
same script runs under another interpreter (another checkout's virtual environment, its
own ``shuangkou``) right after, and the figures are printed side by side with their ratio.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import time
from collections.abc import Callable
from typing import Any

import orjson

from shuangkou.games.shuangkou.bots import GreedyBot, bot_action
from shuangkou.games.shuangkou.config import load_config
from shuangkou.games.shuangkou.game import Action, Game
from shuangkou.server.record import SeatRecord, TableRecord

BALANCES = [1000, 2500]
SEATS = (SeatRecord(1, "Ann", False), SeatRecord(2, "Bo", False))
PARTS = ("escape costs", "seat views", "record at the deal", "record at the end", "settlement")


def games_of(count: int, seed: int) -> list[tuple[int, list[Action]]]:
    """Each game's seed and actions, greedy bots in both seats."""
    config = load_config("points")
    games = []
    for number in range(seed, seed + count):
        game = Game.deal(config, number)
        bots = [GreedyBot(), GreedyBot()]
        while not game.finished:
            game.apply(bot_action(game, bots[game.to_act]))
        games.append((number, list(game.actions)))
    return games


def stored(game: Game) -> str:
    """The record as the table stores it (older code: its JSON form encoded)."""
    record = TableRecord("T1", SEATS, False, game.to_record())
    to_json: Callable[[], str] | None = getattr(record, "to_json", None)
    return to_json() if to_json is not None else orjson.dumps(record.to_dict()).decode()


def states(game: Game, spent: dict[str, int]) -> None:
    """What the views of one state cost: both seats' escape costs and views."""
    start = time.process_time_ns()
    for seat in range(2):
        game.escape_cost(seat, BALANCES)
    middle = time.process_time_ns()
    public = game.view()
    for seat in range(2):
        game.view(seat, public)
    end = time.process_time_ns()
    spent["escape costs"] += middle - start
    spent["seat views"] += end - middle


def one_round(games: list[tuple[int, list[Action]]]) -> dict[str, int]:
    """CPU nanoseconds per part over all the games, played again from their seeds."""
    config = load_config("points")
    spent = dict.fromkeys(PARTS, 0)
    for seed, actions in games:
        game = Game.deal(config, seed)
        start = time.process_time_ns()
        stored(game)
        spent["record at the deal"] += time.process_time_ns() - start
        states(game, spent)
        for action in actions:
            game.apply(action)
            states(game, spent)
        start = time.process_time_ns()
        stored(game)
        middle = time.process_time_ns()
        orjson.dumps(game.settlement(BALANCES).to_dict())
        end = time.process_time_ns()
        spent["record at the end"] += middle - start
        spent["settlement"] += end - middle
    return spent


def measure(count: int, rounds: int, seed: int) -> dict[str, float]:
    """The least µs per game of each part over the rounds."""
    games = games_of(count, seed)
    runs = [one_round(games) for _ in range(rounds)]
    return {part: min(run[part] for run in runs) / count / 1000 for part in PARTS}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--baseline", help="another interpreter to run the same measurements under")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON only")
    args = parser.parse_args()
    mine = measure(args.games, args.rounds, args.seed)
    if args.json:
        print(json.dumps(mine))
        return
    theirs: dict[str, Any] | None = None
    if args.baseline:
        command = [args.baseline, __file__, "--json", "--games", str(args.games), "--rounds", str(args.rounds),
                   "--seed", str(args.seed)]
        theirs = json.loads(subprocess.run(command, capture_output=True, text=True, check=True).stdout)
    print(f"µs of CPU per game ({args.games} games of greedy bots, least of {args.rounds} rounds)")
    print(f"{'part':<22}{'baseline':>10}{'this':>10}{'ratio':>8}" if theirs else f"{'part':<22}{'this':>10}")
    rows = [*PARTS, "total"]
    mine["total"] = sum(mine[part] for part in PARTS)
    if theirs:
        theirs["total"] = sum(theirs[part] for part in PARTS)
    for part in rows:
        if theirs:
            print(f"{part:<22}{theirs[part]:>10.0f}{mine[part]:>10.0f}{mine[part] / theirs[part]:>8.2f}")
        else:
            print(f"{part:<22}{mine[part]:>10.0f}")


if __name__ == "__main__":
    main()
