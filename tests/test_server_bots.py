"""A room's bots play at its level (``bot_level``, R11.2 for "easy") through real
WebSockets: every move a bot made is the move its level's bot chooses from what its seat
sees; an expert's moves are searched in worker processes and replay from the game's record;
the lobby and the table say the level; the expert pool stops with its workers."""

from __future__ import annotations

import asyncio
import multiprocessing
import threading
from collections.abc import Callable
from typing import Any

import pytest
from server_fixtures import (
    RunningServer,
    act,
    check_settlement,
    pg_server_database_fixture,  # noqa: F401 - fixtures
    run,
    start_server_fixture,  # noqa: F401
    take_turns,
    weakest,
)

from shuangkou.games.shuangkou.bots import Bot, Seen, hint_moves, make_bot
from shuangkou.games.shuangkou.config import BotLevel, load_config
from shuangkou.games.shuangkou.expert import Budget, ExpertBot
from shuangkou.games.shuangkou.game import Game, Hosting, Pass, Play, action_to_dict
from shuangkou.games.shuangkou.tablebot import LEVEL_BOTS, expert_action
from shuangkou.server.bots import ExpertPool, move_seed
from shuangkou.server.record import TableRecord, restore_game
from shuangkou.server.state import AppState
from shuangkou.store import Store

StartServer = Callable[..., RunningServer]
ROLLOUTS = 8  # a light search: the test checks where moves come from, not how good they are


def room(level: BotLevel) -> str:
    """A two-seat room whose bots play at ``level``."""
    return (
        f'edition = "points"\nname = "Bots"\n[play]\nbot_level = "{level}"\nexpert_rollouts = {ROLLOUTS}\n'
        "[timers]\nturn_seconds = 30\nready_seconds = 30\n"
    )


def level_bot(level: BotLevel, game_id: str, game: Game) -> Bot:
    """The bot that chose the move of the seat to act in ``game`` at ``level``: an expert
    seeded for that state of that game (:func:`move_seed`), as the server seeds it."""
    if level == "expert":
        return ExpertBot(game.settings, move_seed(game_id, game.seq), Budget(ROLLOUTS))
    return make_bot(LEVEL_BOTS[level])


@pytest.mark.parametrize("level", ["easy", "normal", "expert"])
def test_a_rooms_bot_plays_every_move_at_the_rooms_level_to_an_exact_settlement(
    start_server: StartServer, level: BotLevel
) -> None:
    """A player against the bot of a room plays a whole game; the lobby and the table show
    the level, and so do the player's history and the game's replay afterwards (the bot's
    seat only); the ledger holds the settlement shown; replaying the stored game, each move
    of the bot's seat is its level's choice from that seat's view (R11.2: easy is the
    hosting move), so the bot saw nothing another player could not."""
    server = start_server(rooms={"bots": room(level)})

    async def scenario() -> str:
        ana = await server.player("Ana", connect=False)
        welcome = await ana.connect()
        assert [(r["name"], r["bot_level"]) for r in welcome["rooms"]] == [("bots", level)]
        await ana.join("bots", "bot")
        table = await ana.until(lambda t: t["seats"][1] is not None)
        assert (table["seats"][0]["bot_level"], table["seats"][1]["bot_level"]) == (None, level)
        assert table["seats"][1]["bot"]
        await ana.ready()
        playing = await ana.until(lambda t: t["phase"] == "playing")
        await take_turns(ana, weakest, playing["game_id"], timeout=30)
        final = await ana.until(lambda t: t["settlement"] is not None)
        await check_settlement(server, (ana,), final)
        bot = table["seats"][1]["name"]
        seats = [{"name": "Ana", "bot": False, "bot_level": None}, {"name": bot, "bot": True, "bot_level": level}]
        status, history = await server.ahttp("GET", "/api/me/games", token=ana.token)
        assert status == 200 and [game["seats"] for game in history["games"]] == [seats]
        status, replay = await server.ahttp("GET", f"/api/games/{final['game_id']}")
        assert status == 200 and replay["seats"] == seats
        return str(final["game_id"])

    game_id = run(scenario(), timeout=120)
    assert check_moves(server, level, game_id)

def test_the_expert_pool_searches_as_the_expert_does_and_stops_its_workers() -> None:
    """A move from the pool is the expert's move for the same view and seed; closing the
    pool ends its worker processes, and a closed pool searches no more."""
    config = load_config("points")
    game = Game.deal(config, 5)
    seen = Seen.of(game, game.to_act)
    expected = ExpertBot(config, 11, Budget(ROLLOUTS)).choose(seen)

    async def scenario() -> None:
        before = set(multiprocessing.active_children())
        pool = ExpertPool(1)
        searched = await pool.search(expert_action, (config, seen, 11, ROLLOUTS))
        assert searched == (Pass(seen.seat) if expected is None else Play.move(seen.seat, expected))
        workers = set(multiprocessing.active_children()) - before
        assert len(workers) == 1
        await pool.close()
        assert not any(worker.is_alive() for worker in workers)
        with pytest.raises(RuntimeError, match="closed"):
            await pool.search(expert_action, (config, seen, 11, ROLLOUTS))

    asyncio.run(scenario())


def test_an_expert_pool_needs_a_worker() -> None:
    with pytest.raises(ValueError, match="at least 1 worker"):
        ExpertPool(0)



class HeldPool(ExpertPool):
    """The real pool, but every search waits until ``go`` is set (from the test's thread),
    the seeds asked for are kept in order, and the first search answers another legal
    move than the expert's (a move that must never be played: it is searched for a state
    that will be gone)."""

    def __init__(self) -> None:
        super().__init__(1)
        self.go = threading.Event()
        self.seeds: list[int] = []

    async def search(self, function: Callable[..., Any], arguments: tuple[Any, ...]) -> Any:
        _, seen, seed, _ = arguments
        self.seeds.append(seed)
        first = len(self.seeds) == 1
        await asyncio.to_thread(self.go.wait)
        action = await super().search(function, arguments)
        # (the expert's own move when it has no other: a hand of one legal move, or none)
        others = (Play.move(seen.seat, other) for other in reversed(hint_moves(seen)))
        return next((other for other in others if other != action), action) if first else action


def test_an_expert_move_searched_for_a_state_that_is_gone_is_dropped(start_server: StartServer) -> None:
    """While the expert's search is pending, the other player switches hosting on (an
    action: a new state). The table searches again for the new state; the first answer,
    for a state that is gone, is never played: every move of the bot is the one searched
    for the state it is played in, one search per move besides the dropped one."""
    server = start_server(rooms={"bots": room("expert")})
    held = HeldPool()
    app_state(server).lobby.services.experts = held

    async def scenario() -> tuple[str, int]:
        ana = await server.player("Ana")
        await ana.join("bots", "bot")
        await ana.until(lambda t: t["seats"][1] is not None)
        await ana.ready()
        table = await ana.until(lambda t: t["phase"] == "playing")
        while table["game"]["to_act"] != 1:
            table = await act(ana, weakest)
        game_id, before = table["game_id"], table["game"]["seq"]
        await until(lambda: len(held.seeds) == 1)
        await ana.hosting(True)
        await ana.until(lambda t: t["game"]["hosting"][0])
        await until(lambda: len(held.seeds) == 2)
        held.go.set()
        final = await ana.until(lambda t: t["settlement"] is not None, timeout=60)
        await check_settlement(server, (ana,), final)
        return game_id, before

    game_id, before = run(scenario(), timeout=120)
    hosting = stored_game(server, game_id)[1].actions[before]
    assert isinstance(hosting, Hosting) and hosting.seat == 0
    moved = check_moves(server, "expert", game_id)
    assert moved[0] == before + 1
    assert held.seeds == [move_seed(game_id, before)] + [move_seed(game_id, seq) for seq in moved]


def stored_game(server: RunningServer, game_id: str) -> tuple[TableRecord, Game]:
    """The finished game's record, and the game replayed from it."""
    store = Store(server.settings.database_url)
    try:
        stored = store.get_game(game_id)
    finally:
        store.close()
    assert stored is not None and stored.status == "finished"
    return restore_game(stored)


def check_moves(server: RunningServer, level: BotLevel, game_id: str) -> list[int]:
    """Replay the stored game: each move of the bot in seat 1 is the choice of ``level``'s
    bot from that seat's view of the state it was made in; returns those states (their
    numbers of actions before the move)."""
    record, final = stored_game(server, game_id)
    game = Game.restore(record.game.with_actions((), None))
    moved: list[int] = []
    for action in final.actions:
        if isinstance(action, Play | Pass) and action.seat == 1:
            move = level_bot(level, game_id, game).choose(Seen.of(game, 1))
            expected = Pass(1) if move is None else Play.move(1, move)
            assert action_to_dict(action) == action_to_dict(expected), f"move {game.seq + 1}"
            moved.append(game.seq)
        game.apply(action)
    assert game.finished
    return moved


def app_state(server: RunningServer) -> AppState:
    """The state of a running test server (its lobby, once started)."""
    assert server._server is not None
    state: AppState = server._server.config.app.state.server
    return state


async def until(condition: Callable[[], bool]) -> None:
    """Wait until ``condition`` holds (checked every few milliseconds)."""
    while not condition():
        await asyncio.sleep(0.005)
