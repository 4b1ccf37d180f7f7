"""One table (shuangkou.server.tables) driven through its inbox on a real SQLite store,
without sockets: what a connection is sent is recorded in order.

Covers what the end-to-end tests cannot reach: an action whose journal write fails is
taken back; ``first_player = "winner"`` follows the winner's account, not its seat; the
mover's legal moves travel with its state, to nobody else."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from shuangkou.cards import parse_cards
from shuangkou.games.shuangkou.bots import Seen, hints
from shuangkou.games.shuangkou.combos import Combo
from shuangkou.games.shuangkou.config import RoomConfig, load_config
from shuangkou.games.shuangkou.family import SHUANGKOU
from shuangkou.games.shuangkou.game import Game, Play
from shuangkou.games.shuangkou.wire import PlayMessage
from shuangkou.server.clock import Turn
from shuangkou.server.connection import Connection
from shuangkou.server.inbox import Received, Sit, Watch
from shuangkou.server.journal import ActionJournal
from shuangkou.server.protocol import (
    HintMessage,
    HostingMessage,
    LeaveMessage,
    PingMessage,
    ReadyMessage,
)
from shuangkou.server.pusher import MovesPusher
from shuangkou.server.room import Room
from shuangkou.server.tables import Services, Table
from shuangkou.store import Account, Store

BALANCES = {"points": 1000, "wealth": 100_000}


class Recorder:
    """A connection's outlet that keeps what it is sent, in order (None: the socket closed)."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[bytes | None] = asyncio.Queue()

    def write_message(self, data: bytes) -> None:
        self.queue.put_nowait(data)

    def unsent(self) -> int:
        return 0

    def end(self, code: int) -> None:
        self.queue.put_nowait(None)


class Client:
    """A seat's (or spectator's) connection and everything the table sent it."""

    def __init__(self, account: Account) -> None:
        self.account = account
        self.outlet = Recorder()
        self.connection = Connection(account, self.outlet)
        self.log: list[dict[str, Any]] = []

    async def receive(self, kind: str) -> dict[str, Any]:
        """The next message of type ``kind`` (the ones before it are kept in ``log``)."""
        while True:
            text = await asyncio.wait_for(self.outlet.queue.get(), 5)
            assert text is not None, f"{self.account.name}'s connection was closed"
            message: dict[str, Any] = json.loads(text)
            self.log.append(message)
            if message["type"] == kind:
                return message

    async def first(self, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """The first message, received so far or next, that is ``wanted``."""
        for message in self.log:
            if wanted(message):
                return message
        while not wanted(message := await self.receive("state")):
            pass
        return message

    def drain(self) -> list[dict[str, Any]]:
        """Every message queued so far (kept in ``log`` too)."""
        while not self.outlet.queue.empty():
            text = self.outlet.queue.get_nowait()
            if text is not None:
                self.log.append(json.loads(text))
        return self.log


class Harness:
    """A table of ``config`` on a fresh store; games are dealt with seed, seed + 1, ..."""

    def __init__(self, tmp_path: Path, config: RoomConfig, seed: int) -> None:
        self.store = Store(f"sqlite:///{tmp_path / 'table.db'}")

        async def run_db(function: Callable[[], Any]) -> Any:
            return function()

        self.journal = ActionJournal(self.store, run_db)
        services = Services(self.store, run_db, self.journal, bot_delay=30.0, seed=seed)
        self.table = Table("T1", Room("room", SHUANGKOU, config, "test"), services)

    async def sit(self, name: str) -> Client:
        client = Client(self.store.create_guest(name, BALANCES))
        await self.table.ask(Sit(client.account, client.connection))
        await client.receive("state")
        return client

    async def ready(self, *clients: Client) -> None:
        for client in clients:
            self.table.tell(Received(client.connection, ReadyMessage(type="ready")))
            await client.receive("state")

    @property
    def game(self) -> Game:
        assert self.table.current is not None
        return self.table.current.game

    async def close(self) -> None:
        await self.table.stop()
        self.store.close()


def pushed_moves(game: Game) -> list[dict[str, str]]:
    """The hints pushed to the mover: each legal move once as the body of a play (cards and
    kind), in hint order, and on a follow the pass among them."""
    bodies = [None if move is None else (move.view()["cards"], move.kind) for move in hints(Seen.of(game, game.to_act))]
    return [{"type": "pass"} if body is None else {"cards": body[0], "as": body[1]} for body in dict.fromkeys(bodies)]


def _seed_where_the_flip_card_picks_seat_0(config: RoomConfig) -> int:
    """A seed whose second deal (seed + 1) is led by seat 0 when no winner is remembered."""
    return next(seed for seed in range(100) if Game.deal(config, seed + 1).leader == 0)


def test_an_action_the_journal_cannot_store_is_taken_back_and_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def scenario() -> None:
        harness = Harness(tmp_path, load_config("points"), seed=3)
        harness.table.start()
        ann, bob = await harness.sit("Ann"), await harness.sit("Bob")
        await harness.ready(ann, bob)
        game = harness.game
        to_act = game.to_act
        mover = [ann, bob][to_act]
        hands, seq, turn_seq = [list(hand) for hand in game.hands], game.seq, harness.table.turn_seq
        move = game.legal_moves()[0]
        play = PlayMessage(type="play", seq=harness.table.seq, cards=move.to_dict()["cards"])

        async def broken(game_id: str, seq: int, action_json: str) -> None:
            raise OSError("disk full")

        with monkeypatch.context() as patch:
            patch.setattr(harness.journal, "append", broken)
            harness.table.tell(Received(mover.connection, play))
            refused = await mover.receive("error")
        assert refused["code"] == "unavailable"
        after = harness.game
        assert after is game and [list(hand) for hand in after.hands] == hands  # taken back in place
        assert after.seq == seq and after.actions == []
        assert after.to_act == to_act and after.plays == [] and after.table is None
        assert harness.table.turn_seq == turn_seq  # the same turn: the move may be sent again
        assert harness.table.clock.runs_for(Turn("timed", turn_seq))
        assert harness.table.current is not None
        stored = harness.store.get_game(harness.table.current.game_id)
        assert stored is not None and stored.actions == ()

        harness.table.tell(Received(mover.connection, play))  # the journal works again
        state = await mover.receive("state")
        assert state["events"][0]["type"] == "play"
        stored = harness.store.get_game(harness.table.current.game_id)
        assert stored is not None and [action.seq for action in stored.actions] == [1]
        played = parse_cards(str(move.to_dict()["cards"]))
        assert harness.game.seq == 1 and len(harness.game.hands[to_act]) == len(hands[to_act]) - len(played)
        await harness.close()

    asyncio.run(scenario())


def test_R2_1_the_winner_leads_the_next_game_while_seated(tmp_path: Path) -> None:
    config = load_config("points", {"first_player": "winner"})
    seed = _seed_where_the_flip_card_picks_seat_0(config)

    async def scenario() -> None:
        harness = Harness(tmp_path, config, seed)
        harness.table.start()
        ann, bob = await harness.sit("Ann"), await harness.sit("Bob")
        await harness.ready(ann, bob)
        harness.table.tell(Received(ann.connection, LeaveMessage(type="leave")))  # an escape: Bob wins
        assert (await ann.receive("left"))["escape"] is True
        assert harness.game.winner == 1
        carl = await harness.sit("Carl")  # in Ann's seat, 0
        await harness.ready(carl, bob)
        assert harness.game.leader == 1  # Bob, the winner, leads; the flip card would pick seat 0
        await harness.close()

    asyncio.run(scenario())


def test_R2_1_a_newcomer_in_the_departed_winners_seat_does_not_lead(tmp_path: Path) -> None:
    config = load_config("points", {"first_player": "winner"})
    seed = _seed_where_the_flip_card_picks_seat_0(config)

    async def scenario() -> None:
        harness = Harness(tmp_path, config, seed)
        harness.table.start()
        ann, bob = await harness.sit("Ann"), await harness.sit("Bob")
        await harness.ready(ann, bob)
        harness.table.tell(Received(ann.connection, LeaveMessage(type="leave")))  # Bob (seat 1) wins
        await ann.receive("left")
        carl = await harness.sit("Carl")  # seat 0
        harness.table.tell(Received(bob.connection, LeaveMessage(type="leave")))  # the winner goes
        assert (await bob.receive("left"))["escape"] is False
        dan = await harness.sit("Dan")  # seat 1, the winner's seat
        assert harness.table.seats[1] is not None and harness.table.seats[1].account.id == dan.account.id
        await harness.ready(carl, dan)
        assert harness.game.leader == Game.deal(config, seed + 1).leader == 0  # the flip card decides
        await harness.close()

    asyncio.run(scenario())


def dealt(message: dict[str, Any]) -> bool:
    """A state of a game's first turn."""
    return message["type"] == "state" and message["table"]["game"] is not None


def test_the_mover_alone_gets_its_legal_moves_with_its_state(tmp_path: Path) -> None:
    async def scenario() -> None:
        harness = Harness(tmp_path, load_config("points"), seed=11)
        harness.table.start()
        ann, bob = await harness.sit("Ann"), await harness.sit("Bob")
        sue = Client(harness.store.create_guest("Sue", BALANCES))
        harness.table.tell(Watch(sue.connection))
        await sue.receive("state")
        await harness.ready(ann, bob)
        game = harness.game
        seats = [ann, bob]
        mover, other = seats[game.to_act], seats[1 - game.to_act]
        expected = pushed_moves(game)
        assert expected
        state = await mover.first(dealt)
        table = state["table"]
        assert table["game"]["seq"] == 0 and table["game"]["to_act"] == table["you"]
        assert state["moves"] == expected  # unasked: the state of its turn carries them
        assert "moves" not in await other.first(dealt) and "moves" not in await sue.first(dealt)

        harness.table.tell(Received(mover.connection, HintMessage(type="hint")))
        assert (await mover.receive("hint"))["moves"] == expected  # asked again: the same moves
        harness.table.tell(Received(other.connection, HintMessage(type="hint")))
        assert (await other.receive("hint"))["moves"] == []

        harness.table.tell(Received(mover.connection, HostingMessage(type="hosting", on=True)))
        hosted = await mover.receive("state")
        assert hosted["table"]["game"]["hosting"][game.to_act] is True
        await asyncio.sleep(0.05)
        for client in (ann, bob, sue):
            hints = [message for message in client.drain() if message["type"] == "hint"]
            if client is mover:  # the one asked for; none once hosting plays the seat
                assert [message["seq"] for message in hints] == [table["seq"]]
                assert [message for message in client.log if dealt(message) and "moves" in message] == [state]
            elif client is other:
                assert [message["moves"] for message in hints] == [[]]  # only the one it asked for
            else:
                assert hints == []
        held = sorted(str(card.rank) for card in game.hands[game.to_act])
        for move in expected:
            needed = [str(card.rank) for card in parse_cards(move["cards"])]
            assert all(needed.count(rank) <= held.count(rank) for rank in needed)  # its own cards
        await harness.close()

    asyncio.run(scenario())


class ServedOnDemand(MovesPusher):
    """A pusher that serves its tables only when told to."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[Table] = []

    def push(self, table: Any) -> None:
        self.tables.append(table)

    def serve(self) -> None:
        tables, self.tables = self.tables, []
        for table in tables:
            table.send_moves()


async def dealt_with_moves_on_demand(harness: Harness) -> tuple[ServedOnDemand, list[Client]]:
    """Start the harness's table with a pusher served on demand, seat Ann and Bob, and
    have them ready until the game is dealt and the mover's state is held for its moves;
    returns the pusher and the two seats' clients."""
    pusher = harness.table.services.pusher = ServedOnDemand()
    harness.table.start()
    ann, bob = await harness.sit("Ann"), await harness.sit("Bob")
    harness.table.tell(Received(ann.connection, ReadyMessage(type="ready")))
    await ann.receive("state")
    harness.table.tell(Received(bob.connection, ReadyMessage(type="ready")))
    while harness.table.current is None or pusher.tables == []:
        await asyncio.sleep(0)  # the game starts; the mover's state is held
    return pusher, [ann, bob]


def test_a_held_state_goes_out_before_anything_else_and_its_moves_follow(tmp_path: Path) -> None:
    """The state of the seat to act waits for its moves; a message the table sends the seat
    meanwhile goes out after that state (sent without them), and the moves follow as a ``hint``."""

    async def scenario() -> None:
        harness = Harness(tmp_path, load_config("points"), seed=11)
        pusher, seats = await dealt_with_moves_on_demand(harness)
        game = harness.game
        mover, other = seats[game.to_act], seats[1 - game.to_act]
        assert "moves" not in await other.first(dealt)
        assert not any(map(dealt, mover.drain()))  # nothing yet
        harness.table.tell(Received(mover.connection, PingMessage(type="ping")))
        await mover.receive("pong")
        state, pong = mover.log[-2:]
        assert dealt(state) and "moves" not in state and pong == {"type": "pong"}  # in the order made
        pusher.serve()
        hint = await mover.receive("hint")
        assert hint == {"type": "hint", "seq": state["table"]["seq"], "moves": pushed_moves(game)}
        assert mover.drain()[-1] is hint  # sent once
        await harness.close()

    asyncio.run(scenario())


def test_the_first_turn_of_a_new_game_gets_its_own_moves(tmp_path: Path) -> None:
    config = load_config("points")
    seed = next(s for s in range(100) if Game.deal(config, s).leader == Game.deal(config, s + 1).leader)

    async def scenario() -> None:
        harness = Harness(tmp_path, config, seed)
        harness.table.start()
        ann, bob = await harness.sit("Ann"), await harness.sit("Bob")
        await harness.ready(ann, bob)
        leader = harness.game.leader
        assert harness.table.current is not None
        game_id = harness.table.current.game_id
        mover, other = [ann, bob][leader], [ann, bob][1 - leader]
        first = (await mover.first(dealt))["moves"]
        assert first == pushed_moves(harness.game)
        harness.table.tell(Received(other.connection, LeaveMessage(type="leave")))  # an escape before any play
        await other.receive("left")
        again = await harness.sit("Carl")  # in the escaper's seat
        await harness.ready(again, mover)
        game = harness.game
        assert game.leader == leader and game.plays == []  # the same turn of the game as before
        expected = pushed_moves(game)
        assert expected != first
        pushed = await mover.first(lambda message: dealt(message) and message["table"]["game_id"] != game_id)
        assert pushed["moves"] == expected and pushed["table"]["seq"] == harness.table.seq
        await harness.close()

    asyncio.run(scenario())


def _seed_and_move_the_other_seat_cannot_beat(config: RoomConfig) -> tuple[int, Combo]:
    """A seed and a lead of its first deal that the other seat cannot beat (R2.6: it passes
    at once, and the turn comes back to the leader)."""
    for seed in range(200):
        game = Game.deal(config, seed)
        for move in game.legal_moves():
            after = Game.deal(config, seed)
            after.apply(Play.move(after.to_act, move))
            if not after.finished and after.to_act == game.to_act:
                return seed, move
    raise AssertionError("no such deal among the first 200 seeds")


def test_the_answer_to_a_players_own_action_is_not_held_for_its_moves(tmp_path: Path) -> None:
    """R2.6: when the other seat passes at once for want of a move, the turn comes back to
    the player who just played; the state that acknowledges the play goes out at once (not
    held while the moves are listed at a low priority), and the moves follow as a ``hint``."""
    config = load_config("points")
    seed, move = _seed_and_move_the_other_seat_cannot_beat(config)

    async def scenario() -> None:
        harness = Harness(tmp_path, config, seed)
        pusher, seats = await dealt_with_moves_on_demand(harness)
        pusher.serve()
        leader = harness.game.to_act
        mover = seats[leader]
        await mover.first(lambda message: dealt(message) and "moves" in message)
        cards = move.to_dict()["cards"]
        harness.table.tell(Received(mover.connection, PlayMessage(type="play", seq=harness.table.seq, cards=cards)))
        answer = await mover.first(
            lambda message: message["type"] == "state" and any(event["type"] == "play" for event in message["events"])
        )
        assert answer["table"]["game"]["to_act"] == leader, "the other seat passed at once"
        assert "moves" not in answer and pusher.tables, "acknowledged before its moves were listed"
        pusher.serve()
        hint = await mover.receive("hint")
        assert hint == {"type": "hint", "seq": answer["table"]["seq"], "moves": pushed_moves(harness.game)}
        await harness.close()

    asyncio.run(scenario())
