"""Tables: one asyncio task per table owns its seats, its game and its timers.

Everything that changes a table — client messages, connects and disconnects, timers,
escapes — goes through the table's inbox and is handled one at a time, so no two
changes interleave. A game action is checked by the game, persisted, and only then
announced. Timers carry the state number they were armed for and do nothing when the
state has moved on.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Literal, TypeVar

import orjson

from ..bots import Bot, GreedyBot, bot_action
from ..config import RoomConfig, config_from_dict
from ..errors import ErrorCode
from ..game import (
    Action,
    Escape,
    Event,
    Game,
    GameError,
    HostedTurn,
    Hosting,
    Pass,
    Play,
    Timeout,
    action_to_dict,
)
from ..store import Account, Store, StoredGame
from . import protocol as p
from .connection import Connection
from .journal import ActionJournal
from .metrics import METRICS
from .render import moves_json

__all__ = ["Room", "Services", "Table", "TableFull"]

log = logging.getLogger("shuangkou.table")
T = TypeVar("T")


@dataclass
class Room:
    """A room: a name and its current configuration (new games take the configuration
    in force when they start)."""

    name: str
    config: RoomConfig
    source: str
    open: bool = True

    def summary(self, players: int) -> dict[str, Any]:
        """What the lobby shows of the room."""
        config = self.config
        levels = config.levels
        return {
            "name": self.name,
            "title": config.name,
            "edition": config.edition,
            "stakes": [levels[0].match_points, levels[-1].match_points],
            "entry": levels[0].needed if config.edition == "wealth" else None,
            "turn_seconds": config.turn_seconds,
            "players": players,
            "open": self.open,
        }


@dataclass
class Services:
    """What tables share: the store, its executor, the action journal, timing settings,
    and the lobby's callbacks for seat bookkeeping."""

    store: Store
    run_db: Callable[[Callable[[], Any]], Awaitable[Any]]
    journal: ActionJournal
    bot_delay: float = 0.6
    on_seated: Callable[[int, Table], None] = lambda account, table: None
    on_unseated: Callable[[int, Table], None] = lambda account, table: None
    on_empty: Callable[[Table], None] = lambda table: None
    bot_account: Callable[[str], Awaitable[Account]] | None = None
    seed: int | None = None  # tests and demos only: the n-th game (from 0) is dealt with seed + n
    deals: int = 0

    def next_seed(self) -> int | None:
        """The seed of the next deal: None (a secure shuffle, R1.4) unless the server has a seed."""
        if self.seed is None:
            return None
        self.deals += 1
        return self.seed + self.deals - 1


@dataclass
class Seat:
    """A seated player (or bot)."""

    account: Account
    bot: Bot | None = None
    connection: Connection | None = None
    ready: bool = False
    left: bool = False  # escaped in "host" mode: the seat is played to the end, then freed
    ready_token: int = 0


class TableFull(Exception):
    """No free seat."""


@dataclass
class _Request:
    """An inbox item that wants an answer."""

    kind: str
    args: tuple[Any, ...]
    reply: asyncio.Future[Any] | None = None


Phase = Literal["waiting", "ready", "playing", "settled"]


@dataclass
class Table:
    """One table of a room."""

    id: str
    room: Room
    services: Services
    seats: list[Seat | None] = field(default_factory=lambda: [None, None])
    spectators: set[Connection] = field(default_factory=set)
    game: Game | None = None
    game_id: str | None = None
    config: RoomConfig | None = None
    settlement: dict[str, Any] | None = None
    previous_winner: int | None = None
    seq: int = 0
    turn_deadline: float | None = None
    ready_deadlines: list[float | None] = field(default_factory=lambda: [None, None])
    balances: list[int | None] = field(default_factory=lambda: [None, None])
    inbox: asyncio.Queue[_Request] = field(default_factory=asyncio.Queue)
    task: asyncio.Task[None] | None = None
    timer: asyncio.TimerHandle | None = None
    stopping: bool = False
    timer_kind: str | None = None
    timer_token: int | None = None
    turn_seq: int = 0
    turn_key: tuple[int, int, bool] | None = None
    private: bool = False  # an invite table: seated only by its id, never by quick match

    def invite_open(self) -> bool:
        """Whether quick match may seat a stranger here."""
        return not self.private and self.room.open and not self.stopping

    # -- outside interface (safe to call from any coroutine) ---------------------

    def start(self) -> None:
        """Start the table's task."""
        self.task = asyncio.get_running_loop().create_task(self._run(), name=f"table-{self.id}")
        METRICS.tables.inc()

    def post(self, kind: str, *args: Any) -> None:
        """Queue an item without waiting."""
        self.inbox.put_nowait(_Request(kind, args))

    async def request(self, kind: str, *args: Any) -> Any:
        """Queue an item and wait for the table to handle it (:class:`TableFull` when the
        table has stopped)."""
        if self.task is None or self.task.done():
            raise TableFull("the table is closed")
        reply: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.inbox.put_nowait(_Request(kind, args, reply))
        return await reply

    @property
    def playing(self) -> bool:
        """A game is in progress."""
        return self.game is not None and not self.game.finished

    @property
    def free_seats(self) -> int:
        """Seats nobody holds."""
        return sum(seat is None for seat in self.seats)

    def accounts(self) -> list[int]:
        """Accounts seated here."""
        return [seat.account.id for seat in self.seats if seat is not None]

    async def stop(self) -> None:
        """Stop the task (shutdown): timers cancelled, connections told; the game stays persisted."""
        self.stopping = True
        if self.task is not None:
            self.post("stop")
            await asyncio.gather(self.task, return_exceptions=True)

    # -- the task -------------------------------------------------------------------

    async def _run(self) -> None:
        handlers: dict[str, Callable[..., Awaitable[Any]]] = {
            "sit": self._sit,
            "reconnect": self._reconnect,
            "rejoin": self._rejoin,
            "watch": self._watch,
            "unwatch": self._unwatch,
            "disconnect": self._disconnect,
            "message": self._message,
            "timer": self._timer,
            "restore": self._restore,
        }
        try:
            while True:
                item = await self.inbox.get()
                if item.kind == "stop":
                    break
                started = time.perf_counter()
                try:
                    result = await handlers[item.kind](*item.args)
                except TableFull as problem:
                    if item.reply is not None and not item.reply.done():
                        item.reply.set_exception(problem)
                    continue
                except Exception as problem:  # a bug must not take the table down
                    if item.kind != "restore":  # a game that cannot be restored is voided by the lobby
                        log.exception("table error", extra={"table": self.id, "room": self.room.name})
                        METRICS.errors.labels("internal").inc()
                    if item.reply is not None and not item.reply.done():
                        item.reply.set_exception(problem)
                    continue
                if item.reply is not None and not item.reply.done():
                    item.reply.set_result(result)
                if item.kind == "message":
                    METRICS.action_latency.observe(time.perf_counter() - started)
                if all(seat is None for seat in self.seats) and not self.spectators:
                    break
        finally:
            self._cancel_timer()
            while not self.inbox.empty():  # nobody waits for an answer that never comes
                pending = self.inbox.get_nowait()
                if pending.reply is not None and not pending.reply.done():
                    pending.reply.set_exception(TableFull("the table is closed"))
            for connection in self._connections():
                connection.close("shutdown" if self.stopping else "table_closed")
            METRICS.tables.dec()
            if not self.stopping:
                self.services.on_empty(self)

    # -- seating ----------------------------------------------------------------------

    async def _sit(self, account: Account, connection: Connection | None, bot: Bot | None = None) -> int:
        if not self.room.open and bot is None:
            raise TableFull("the room is closed")
        if account.id in self.accounts():
            raise TableFull("already seated at this table")
        index = next((i for i, seat in enumerate(self.seats) if seat is None), None)
        if index is None:
            raise TableFull("the table is full")
        self.seats[index] = Seat(account, bot, connection, ready=bot is not None)
        self.services.on_seated(account.id, self)
        await self._refresh_balance(index)
        self._log("seated", account=account.id, seat=index, bot=bot is not None)
        self._arm_ready(index)
        self._changed([])
        return index

    async def _reconnect(self, account: Account, connection: Connection) -> bool:
        index = self._seat_index(account.id)
        if index is None:
            return False
        seat = self.seats[index]
        assert seat is not None
        if seat.connection is not None and seat.connection is not connection:
            seat.connection.close("replaced")  # the newer connection wins
        seat.connection = connection
        seat.left = False  # an escaper back at a hosted seat stays to the end, like any player
        self._log("reconnected", account=account.id, seat=index)
        self._send_state(connection, index, [])
        return True

    async def _watch(self, connection: Connection) -> None:
        self.spectators.add(connection)
        self._send_state(connection, None, [])

    async def _unwatch(self, connection: Connection) -> None:
        self.spectators.discard(connection)

    async def _disconnect(self, connection: Connection) -> None:
        self.spectators.discard(connection)
        index = self._seat_of(connection)
        if index is None:
            return
        seat = self.seats[index]
        assert seat is not None
        seat.connection = None
        self._log("disconnected", account=seat.account.id, seat=index)
        if self.playing and self.game is not None and not self.game.hosting[index]:
            await self._apply(Hosting(index, True, "disconnect"))  # R11.5
        elif not self.playing:
            # No game is dealt to an absent player: ready again after reconnecting, or removed (R11.4).
            seat.ready = False
            self._arm_ready(index)
            self._changed([])

    def _free(self, index: int) -> None:
        seat = self.seats[index]
        if seat is None:
            return
        self.seats[index] = None
        self.balances[index] = None
        self.ready_deadlines[index] = None
        self.services.on_unseated(seat.account.id, self)
        self._log("unseated", account=seat.account.id, seat=index)
        if seat.bot is None and all(other is None or other.bot is not None for other in self.seats):
            for other in range(len(self.seats)):  # a bot never waits alone: the table closes
                self._free(other)

    # -- client messages ------------------------------------------------------------

    async def _message(self, connection: Connection, message: Any) -> None:
        index = self._seat_of(connection)
        if isinstance(message, p.PingMessage):
            connection.send({"type": "pong"})
            return
        if index is None:
            self._refuse(connection, "not_seated", "you are not seated at this table")
            return
        if isinstance(message, p.ReadyMessage):
            await self._ready(connection, index)
        elif isinstance(message, p.PlayMessage | p.PassMessage):
            if not self.playing:
                self._refuse(connection, "not_playing", "no game is in progress")
            elif not self.turn_seq <= message.seq <= self.seq:
                self._refuse(connection, "stale", f"state {message.seq} is from before this turn ({self.turn_seq})")
            elif isinstance(message, p.PassMessage):
                await self._apply(Pass(index), connection)
            else:
                try:
                    action: Action = Play.of(index, message.cards, message.as_)
                except ValueError as problem:
                    self._refuse(connection, "unknown_card", str(problem))
                    return
                await self._apply(action, connection)
        elif isinstance(message, p.HintMessage):
            moves = []
            if self.playing and self.game is not None and self.game.to_act == index:
                moves = self.game.legal_moves(index)
            connection.send_json(f'{{"type":"hint","seq":{self.seq},"moves":{moves_json(moves)}}}')
        elif isinstance(message, p.HostingMessage):
            if not self.playing:
                self._refuse(connection, "not_playing", "no game is in progress")
            elif self.game is not None and self.game.hosting[index] == message.on:
                self._send_state(connection, index, [])  # nothing changes: no action, no new state
            else:
                await self._apply(Hosting(index, message.on), connection)
        elif isinstance(message, p.LeaveMessage):
            await self._leave(index)
        else:
            self._refuse(connection, "wrong_place", f"'{message.type}' is a lobby message")

    async def _ready(self, connection: Connection, index: int) -> None:
        seat = self.seats[index]
        assert seat is not None
        if self.playing:
            self._refuse(connection, "in_game", "a game is in progress")
            return
        config = self.room.config
        if not self.room.open:  # a closed room finishes its games but starts no new ones
            self._refuse(connection, "room_closed", f"room {self.room.name!r} is closed")
            return
        balance = await self._refresh_balance(index)
        if balance is None or not config.can_sit(balance):
            self._refuse(connection, "below_entry", f"this room needs at least {config.levels[0].needed} (R9.4)")
            return
        seat.ready = True
        self.ready_deadlines[index] = None
        others = [s for s in self.seats if s is not None]
        if len(others) == 2 and all(s.ready for s in others):
            await self._start_game()
        else:
            self._changed([])

    async def _leave(self, index: int) -> None:
        """The player leaves; the connection stays open, back in the lobby. During a game
        this is an escape (R10): in "host" mode the seat is played by hosting to the end and
        the player may take it back (a new connection, or ``join`` naming this table)."""
        seat = self.seats[index]
        assert seat is not None
        connection, seat.connection = seat.connection, None
        escape = self.playing
        if escape:
            await self._apply(Escape(index))  # R10
        hosted = self.playing  # "host" mode: hosting plays the seat to the end (R10.1)
        if connection is not None:
            connection.send({"type": "left", "table": self.id, "escape": escape, "hosted": hosted})
        if hosted:
            seat.left = True
            return
        self._free(index)
        self._changed([])

    async def _rejoin(self, account: Account, connection: Connection) -> bool:
        """A player who escaped in "host" mode takes the seat back while its game goes on."""
        index = self._seat_index(account.id)
        seat = self.seats[index] if index is not None else None
        if seat is None or not seat.left:
            return False
        return await self._reconnect(account, connection)

    # -- the game ---------------------------------------------------------------------

    async def _start_game(self) -> None:
        config = self.room.config
        self.config = config
        self.game = Game.deal(config, self.services.next_seed(), self.previous_winner)  # secure shuffle (R1.4)
        self.game_id = uuid.uuid4().hex
        self.settlement = None
        record = self._record()
        await self.services.run_db(
            lambda: self.services.store.save_game(
                self.game_id or "", self.room.name, config.to_json(), json.dumps(record), "running"
            )
        )
        METRICS.games.inc()
        self._log("game started")
        self._changed(list(self.game.events))

    def _record(self) -> dict[str, Any]:
        assert self.game is not None
        seats = [(s.account.id, s.account.name, s.bot is not None) if s else None for s in self.seats]
        return {"table": self.id, "seats": seats, "private": self.private, **self.game.record()}

    async def _apply(self, action: Action, connection: Connection | None = None) -> bool:
        game = self.game
        assert game is not None
        try:
            events = game.apply(action)
        except GameError as problem:
            if connection is not None:
                self._refuse(connection, problem.code, problem.message)
            return False
        data = json.dumps(action_to_dict(action))
        game_id, seq = self.game_id or "", game.seq
        try:
            await self.services.journal.append(game_id, seq, data)
        except Exception:
            # Not persisted, so not acknowledged: back to the state before the action.
            log.exception("action not saved", extra={"table": self.id, "game": game_id, "seq": seq})
            earlier = [action_to_dict(done) for done in game.actions[:-1]]
            self.game = Game.replay(game.settings, {**game.record(), "actions": earlier, "events": None})
            self._arm_turn()
            if connection is not None:
                self._refuse(connection, "unavailable", "the action could not be saved; try again")
            else:
                METRICS.errors.labels("unavailable").inc()
            return False
        METRICS.actions.inc()
        for event in events:
            if event.type == "hosting" and event.on:
                METRICS.hosting.labels(event.cause or "player").inc()
            if event.type == "timeout" and event.seat is not None:
                self._notice(event.seat, event.count)
        if game.finished:
            await self._settle()
        self._changed(events)
        return True

    def _notice(self, index: int, count: int) -> None:
        seat = self.seats[index]
        if seat is not None and seat.connection is not None:
            times = "time" if count == 1 else "times"
            seat.connection.send({
                "type": "notice",
                "code": "timed_out",
                "message": f"You have timed out {count} {times}",
                "count": count,
            })

    async def _settle(self) -> None:
        game, config, game_id = self.game, self.config, self.game_id
        assert game is not None and config is not None and game_id is not None
        store = self.services.store
        accounts = [seat.account.id if seat else 0 for seat in self.seats]
        balances = [await self._refresh_balance(i) for i in (0, 1)]
        paid = await self.services.run_db(lambda: store.ledger(game_id=game_id))
        if paid:  # paid before a crash: settle on the balances the payment was computed from
            before = {entry.account_id: entry.balance_after - entry.delta for entry in paid}
            balances = [before.get(account, balance) for account, balance in zip(accounts, balances, strict=True)]
        settlement = game.settle([b or 0 for b in balances])
        deltas = {accounts[i]: settlement.deltas[i] for i in (0, 1)}
        record = json.dumps(self._record())
        summary = json.dumps(settlement.to_dict())

        def write() -> None:
            store.apply_settlement(
                game_id,
                config.edition,
                deltas,
                settlement.house,
                config.allow_negative,
                f"game {game_id}",
                seats={accounts[i]: i for i in (0, 1)},
            )
            store.finish_game(game_id, record, summary)

        await self.services.run_db(write)
        METRICS.settlements.inc()
        self.settlement = settlement.to_dict()
        self.previous_winner = game.winner
        self._log("game settled", result=game.result, deltas=list(settlement.deltas), house=settlement.house)
        for index in (0, 1):
            await self._refresh_balance(index)
            seat = self.seats[index]
            if seat is not None:
                seat.ready = seat.bot is not None
                if seat.left:
                    self._free(index)
                else:
                    self._arm_ready(index)

    async def _restore(self, stored: StoredGame) -> None:
        """Rebuild a running game from its record and persisted actions (after a restart).

        The players count as disconnected until they reconnect; they are not hosted, so
        their turn timers run as usual (R11.3). Anything that stops the replay raises, and
        the lobby voids the game."""
        if stored.record_json is None:
            raise GameError("bad_record", f"game {stored.game_id} has no record")
        record = json.loads(stored.record_json)
        config = config_from_dict(json.loads(stored.config_json), source=f"game {stored.game_id}")
        actions = [json.loads(action.action_json) for action in stored.actions]
        if [action.seq for action in stored.actions] != list(range(1, len(actions) + 1)):
            raise GameError("bad_record", f"the actions of game {stored.game_id} are not numbered 1 to {len(actions)}")
        # The events were recorded at the deal only: they are not compared.
        game = Game.replay(config, {**record, "actions": actions, "events": None})
        for index, seat_info in enumerate(record["seats"]):
            if seat_info is not None:
                account_id, _name, is_bot = seat_info
                account = await self.services.run_db(partial(self.services.store.get_account, account_id))
                if account is None:
                    raise GameError("bad_record", f"account {account_id} of game {stored.game_id} is gone")
                self.seats[index] = Seat(account, GreedyBot() if is_bot else None, ready=True)
                self.services.on_seated(account_id, self)
                await self._refresh_balance(index)
        self.game, self.config, self.game_id = game, config, stored.game_id
        self.private = record.get("private") is True  # an invite table stays one
        # State numbers continue from a base no earlier state can have reached, so a message
        # built against a state from before the restart is always stale.
        self.seq = int(time.time() * 1000)
        self._log("game restored", actions=len(stored.actions))
        if game.finished:
            await self._settle()
        self._changed([])

    # -- timers -------------------------------------------------------------------------

    def _arm(self, delay: float, kind: str, token: int, index: int | None = None) -> asyncio.TimerHandle:
        return asyncio.get_running_loop().call_later(delay, self.post, "timer", kind, token, index)

    def _cancel_timer(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        self.timer_kind, self.timer_token = None, None

    def _arm_turn(self) -> None:
        """After every change: the next automatic move, or the turn timer (R11.3). The turn
        timer runs from the start of the turn: changes that do not pass the turn keep it."""
        if self.timer_kind == "turn" and self.timer_token == self.turn_seq and self._turn_is_timed():
            return
        self._cancel_timer()
        self.turn_deadline = None
        if not self.playing or self.game is None or self.config is None:
            return
        index = self.game.to_act
        seat = self.seats[index]
        if seat is None:
            return
        if seat.bot is not None or self.game.hosting[index]:
            self._arm_game_timer("auto", self.services.bot_delay, self.seq)
        else:
            self._arm_game_timer("turn", self.config.turn_seconds, self.turn_seq)
            self.turn_deadline = time.time() + self.config.turn_seconds

    def _turn_is_timed(self) -> bool:
        """The player to act is a person playing for themselves (not a bot, not hosted)."""
        game = self.game
        if game is None or game.finished:
            return False
        seat = self.seats[game.to_act]
        return seat is not None and seat.bot is None and not game.hosting[game.to_act]

    def _arm_game_timer(self, kind: str, delay: float, token: int) -> None:
        self.timer = self._arm(delay, kind, token)
        self.timer_kind, self.timer_token = kind, token

    def _arm_ready(self, index: int) -> None:
        """A seated player who is not ready in time leaves the table (R11.4)."""
        seat = self.seats[index]
        if seat is None or seat.ready or self.playing:
            return
        seat.ready_token += 1
        seconds = self.room.config.ready_seconds
        self.ready_deadlines[index] = time.time() + seconds
        self._arm(seconds, "ready", seat.ready_token, index)

    async def _timer(self, kind: str, token: int, index: int | None) -> None:
        if kind == "ready":
            seat = self.seats[index] if index is not None else None
            expired = seat is not None and not seat.ready and seat.ready_token == token and not self.playing
            if expired and seat is not None and index is not None:
                if seat.connection is not None:
                    seat.connection.close("not_ready")
                self._free(index)
                self._changed([])
            return
        current = self.turn_seq if kind == "turn" else self.seq
        if token != current or not self.playing or self.game is None:
            return  # the turn (or, for automatic moves, the state) it was armed for is over
        index = self.game.to_act
        seat = self.seats[index]
        if seat is None:
            return
        if kind == "auto":
            action = bot_action(self.game, seat.bot) if seat.bot is not None else HostedTurn(index)
            await self._apply(action)
        elif kind == "turn" and not self.game.hosting[index]:
            await self._apply(Timeout(index))

    # -- views and messages ---------------------------------------------------------

    def _changed(self, events: list[Event]) -> None:
        self.seq += 1
        turn = self._turn_key()
        if turn != self.turn_key:
            # An action must be made against a state of the current turn: changes that do not
            # pass the turn (hosting switched, a player reconnecting) leave pending moves valid.
            self.turn_key, self.turn_seq = turn, self.seq
        self._arm_turn()
        encoded = [event.to_dict() for event in events]
        for index, seat in enumerate(self.seats):
            if seat is not None and seat.connection is not None:
                seat.connection.send({"type": "state", "events": encoded, "table": self.view(index)})
        if self.spectators:  # one public view, encoded once, for every spectator
            text = orjson.dumps({"type": "state", "events": encoded, "table": self.view(None)}).decode()
            for connection in self.spectators:
                connection.send_json(text)

    def _send_state(self, connection: Connection, index: int | None, events: list[Event]) -> None:
        connection.send({"type": "state", "events": [e.to_dict() for e in events], "table": self.view(index)})

    def view(self, index: int | None) -> dict[str, Any]:
        """The table as seat ``index`` (None: a spectator) may see it."""
        config = self.config if self.playing and self.config else self.room.config
        phase: Phase
        if self.playing:
            phase = "playing"
        elif self.settlement is not None:
            phase = "settled"
        elif self.free_seats:
            phase = "waiting"
        else:
            phase = "ready"
        seats: list[dict[str, Any] | None] = []
        for i, seat in enumerate(self.seats):
            if seat is None:
                seats.append(None)
                continue
            seats.append({
                "name": seat.account.name,
                "account": seat.account.id,
                "bot": seat.bot is not None,
                "connected": seat.bot is not None or seat.connection is not None,
                "ready": seat.ready,
                "balance": self.balances[i],
                "ready_deadline": _millis(self.ready_deadlines[i]),
            })
        known = [b for b in self.balances if b is not None]
        penalty = None
        if len(known) == 2:
            penalty = config.match_points_for(known[0], known[1]) * config.escape_multiplier
        return {
            "id": self.id,
            "room": self.room.name,
            "edition": config.edition,
            "seq": self.seq,
            "phase": phase,
            "you": index,
            "seats": seats,
            "game": self.game.view(index) if self.game is not None else None,
            "game_id": self.game_id,
            "turn_seconds": config.turn_seconds,
            "turn_deadline": _millis(self.turn_deadline),
            "escape_penalty": penalty,
            "escape_mode": config.escape_mode,
            "settlement": self.settlement,
        }

    def _refuse(self, connection: Connection, code: ErrorCode, message: str) -> None:
        METRICS.errors.labels(code).inc()
        connection.send(dict(p.error(code, message)))

    # -- helpers ------------------------------------------------------------------------

    async def _refresh_balance(self, index: int) -> int | None:
        seat = self.seats[index]
        if seat is None:
            return None
        store, edition = self.services.store, self.room.config.edition
        account_id = seat.account.id
        balance: int = await self.services.run_db(lambda: store.balance(account_id, edition))
        self.balances[index] = balance
        return balance

    def _turn_key(self) -> tuple[int, int, bool] | None:
        """Who is to act, after how many plays, on a lead or not: changes exactly when a turn passes."""
        game = self.game
        if game is None or game.finished:
            return None
        return (game.to_act, len(game.plays), game.table is None)

    def _seat_index(self, account_id: int) -> int | None:
        return next((i for i, s in enumerate(self.seats) if s is not None and s.account.id == account_id), None)

    def _seat_of(self, connection: Connection) -> int | None:
        return next((i for i, s in enumerate(self.seats) if s is not None and s.connection is connection), None)

    def _connections(self) -> list[Connection]:
        seated = [s.connection for s in self.seats if s is not None and s.connection is not None]
        return seated + list(self.spectators)

    def _log(self, message: str, **fields: Any) -> None:
        log.info(message, extra={"table": self.id, "room": self.room.name, "game": self.game_id, **fields})


def _millis(stamp: float | None) -> int | None:
    return None if stamp is None else int(stamp * 1000)
