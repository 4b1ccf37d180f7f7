"""What a seat's state costs late in a game: bytes of its JSON, raw and deflated (as
WebSocket permessage-deflate would send it), the time to build and encode a table view
with its escape cost, and the time of :meth:`Game.escape_cost` alone: computed anew, and
as the game keeps it from one change to the next.

    .venv/bin/python bench/bench_state.py [--games 20] [--seed 1]

The state before the last move of each game of greedy bots is measured as the view sends
it now (every play of the game, the round's passes) and, in the same run, as it was with
only the last eight plays, side by side.
"""

from __future__ import annotations

import argparse
import statistics
import time
import zlib
from typing import Any

import orjson

from shuangkou.games.shuangkou.bots import GreedyBot, bot_action
from shuangkou.games.shuangkou.config import RoomConfig, load_config
from shuangkou.games.shuangkou.game import Game


def deflated(data: bytes) -> int:
    """Bytes after raw deflate, as permessage-deflate sends a message."""
    packer = zlib.compressobj(6, zlib.DEFLATED, -15)
    return len(packer.compress(data) + packer.flush(zlib.Z_SYNC_FLUSH))


def last_eight(view: dict[str, Any]) -> dict[str, Any]:
    """The view as it was: the last eight plays, no round start or passes."""
    old = {key: value for key, value in view.items() if key not in ("round_start", "passed")}
    old["plays"] = view["plays"][-8:]
    return old


def late_states(config: RoomConfig, games: int, seed: int) -> list[Game]:
    """Games of greedy bots, each stopped before its last move."""
    late = []
    for number in range(games):
        game = Game.deal(config, seed + number)
        bots = [GreedyBot() for _ in range(config.seats)]
        while True:
            action = bot_action(game, bots[game.to_act])
            game.apply(action)
            if game.finished:
                game.undo()
                break
        late.append(game)
    return late


def micros(function: Any, repeat: int = 200) -> float:
    """Median CPU microseconds of one call."""
    times = []
    for _ in range(repeat):
        start = time.process_time_ns()
        function()
        times.append(time.process_time_ns() - start)
    return statistics.median(times) / 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    balances = {2: [1000, 1000], 4: [1000, 1000, 1000, 1000]}
    header = f"{'room':<26}{'plays':>6}{'now B':>8}{'deflated':>10}{'8 plays B':>11}{'deflated':>10}{'ratio':>7}"
    print(header)
    for name, overrides in (("points", {}), ("classic", {}), ("classic", {"escape_mode": "settle"})):
        config = load_config(name, overrides)
        games = late_states(config, args.games, args.seed)
        rows = []
        for game in games:
            view = dict(game.view(game.to_act))
            now, before = orjson.dumps(view), orjson.dumps(last_eight(view))
            rows.append((len(game.plays), len(now), deflated(now), len(before), deflated(before)))
        plays, now_b, now_z, old_b, old_z = (statistics.mean(column) for column in zip(*rows, strict=True))
        label = f"{name} ({config.seats} seats, {config.escape_mode})"
        print(f"{label:<26}{plays:>6.1f}{now_b:>8.0f}{now_z:>10.0f}{old_b:>11.0f}{old_z:>10.0f}{now_b / old_b:>7.2f}")
        game = games[0]
        seat = game.to_act
        view_us = micros(lambda game=game, seat=seat: orjson.dumps(game.view(seat)))
        held = balances[config.seats]
        fresh_us = micros(lambda game=game, seat=seat, held=held: game._computed_escape_cost(seat, held))
        kept_us = micros(lambda game=game, seat=seat, held=held: game.escape_cost(seat, held))
        print(
            f"{'':<26}view + encode {view_us:.0f} µs, escape_cost {fresh_us:.0f} µs computed, "
            f"{kept_us:.0f} µs kept (median CPU, one late state)"
        )


if __name__ == "__main__":
    main()
