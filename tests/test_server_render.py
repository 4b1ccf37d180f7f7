"""The server's cached JSON of the pushed moves (shuangkou.games.shuangkou.wire) is exactly the core's
legal moves, each once as the body of a play, weakest first."""

from __future__ import annotations

import json
import random

import pytest

from shuangkou.games.shuangkou.combos import classify
from shuangkou.games.shuangkou.config import load_config
from shuangkou.games.shuangkou.game import Escape, Game, HostedTurn, Hosting, Pass, Play, Timeout
from shuangkou.games.shuangkou.wire import moves_json


def _compact(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


@pytest.mark.parametrize("seed", range(12))
def test_hints_match_the_core(seed: int) -> None:
    config = load_config("points" if seed % 2 else "wealth")
    chance = random.Random(seed)
    for game_number in range(2):
        game = Game.deal(config, seed * 10 + game_number)
        while True:
            if game.finished:
                break
            moves = game.legal_moves()
            bodies: list[dict[str, str]] = []
            for move in moves:
                body = {"cards": move.view()["cards"], "as": move.kind}
                if body not in bodies:
                    bodies.append(body)
            assert moves_json(moves) == _compact(bodies)
            seat = game.to_act
            roll = chance.random()
            if roll < 0.03 and game.escaped is None:
                game.apply(Escape(seat))
            elif roll < 0.08:
                game.apply(Hosting(seat, not game.hosting[seat]))
            elif game.hosting[seat]:
                game.apply(HostedTurn(seat))
            elif roll < 0.12:
                game.apply(Timeout(seat))
            elif moves and (game.table is None or roll < 0.8):
                game.apply(Play.move(seat, moves[chance.randrange(len(moves))]))
            else:
                game.apply(Pass(seat))


def test_an_empty_hint_is_an_empty_list() -> None:
    assert moves_json([]) == "[]"


def test_the_pass_among_the_hints_is_the_body_of_a_pass_message() -> None:
    single = classify("9")
    assert moves_json([None, single]) == _compact([{"type": "pass"}, {"cards": "9", "as": "single"}])
