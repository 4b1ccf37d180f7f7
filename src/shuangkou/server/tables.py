"""Tables: one asyncio task per table owns its seats, its game and its clocks.

Everything that changes a table — client messages, connects and disconnects, timers,
escapes, expert bots' moves — goes through the table's inbox (:mod:`.inbox`) and is handled
one at a time, so no two changes interleave. An expert's move is searched outside the event
loop (:mod:`.bots`) while the table goes on; it comes back through the inbox and is played
only if the game is still in the state it was searched for. A game action is checked by the
game, persisted, and only then announced; an action that cannot be persisted is taken back.
Clocks (:mod:`.clock`) post their expiry only while what they time is current, and the
table checks again when it handles it. Views are built by :mod:`.views`.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import Awaitable, Callable, Coroutine, Hashable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any, TypeVar, assert_never

import orjson

from ..errors import ErrorCode, Refusal
from ..games.interface import Hand, Settled, TableBot, Waiting
from ..games.interface import Room as RoomConfig
from ..store import Account, Fence, FencedError, Payout, Store
from . import protocol as p
from .bots import ExpertPool, default_expert_workers, move_seed
from .clock import Countdown, Turn, TurnClock
from .connection import Connection
from .inbox import (
    Asked,
    Decided,
    Disconnect,
    FillWaitOver,
    Inbox,
    ReadyExpired,
    Received,
    Reconnect,
    Rejoin,
    Request,
    Restore,
    SendOn,
    SettleAgain,
    Sit,
    Stop,
    TimerFired,
    Told,
    Unwatch,
    Watch,
    answer,
    fail,
)
from .journal import ActionJournal
from .metrics import METRICS
from .pusher import MovesPusher
from .record import SeatRecord, TableRecord
from .room import LobbyError, Room, TableFull
from .seats import Seat
from .views import TableViews, TurnMoves, table_view

__all__ = ["Room", "Services", "Table", "TableFull", "TableGame"]

log = logging.getLogger("shuangkou.table")

SETTLE_RETRY_SECONDS: tuple[float, ...] = (1.0, 2.0, 5.0, 10.0, 30.0)
"""The waits before each retry of a settlement that failed: the last repeats until it is paid."""

_SETTLING: dict[str, Any] = {
    "type": "notice",
    "code": "settling",
    "message": "The game is over; its settlement could not be saved yet and is being tried again",
    "count": 0,
}
Answer = TypeVar("Answer")


async def _no_bots(table: Table) -> None:
    """Without a lobby, nobody seats bots."""


@dataclass
class Services:
    """What tables share: the store, its executor, the action journal, timing settings,
    the workers of expert bots, and the lobby's callbacks for seat bookkeeping."""

    store: Store
    run_db: Callable[[Callable[[], Any]], Awaitable[Any]]
    journal: ActionJournal
    bot_delay: float = 0.6
    on_seated: Callable[[int, Table], None] = lambda account, table: None
    on_unseated: Callable[[int, Table], None] = lambda account, table: None
    on_bot_free: Callable[[Account], None] = lambda account: None  # a bot's account left its table
    on_empty: Callable[[Table], None] = lambda table: None
    on_lost: Callable[[Table], None] = lambda table: None  # another node claimed the table
    fill_with_bots: Callable[[Table], Coroutine[Any, Any, None]] = _no_bots
    seed: int | None = None  # tests and demos only: the n-th game (from 0) is dealt with seed + n
    deals: int = 0
    pusher: MovesPusher = field(default_factory=MovesPusher)
    experts: ExpertPool = field(default_factory=lambda: ExpertPool(default_expert_workers()))

    def next_seed(self) -> int | None:
        """The seed of the next deal: None (a secure shuffle, R1.4) unless the server has a seed."""
        if self.seed is None:
            return None
        self.deals += 1
        return self.seed + self.deals - 1


@dataclass(frozen=True, slots=True)
class TableGame:
    """The table's game, dealt in the room ``config``: in progress, or the last one with its
    ``settlement`` (R9.6) once paid."""

    game: Hand
    game_id: str
    config: RoomConfig
    settlement: Mapping[str, Any] | None = None
    escape_charge: Mapping[str, Any] | None = None  # what an escape that ended the game charged (R10.2, C6.2)


@dataclass(frozen=True, slots=True)
class Match:
    """What the table's last game hands to the next (:meth:`Hand.carried`), and the
    accounts in its seats then: a match goes on with the players who played it."""

    carried: Mapping[str, Any]
    accounts: tuple[int | None, ...]


StateKey = tuple[str, int]
"""A game's state: the game's id and how many actions it has taken."""


@dataclass(eq=False)
class Table:
    """One table of a room."""

    id: str
    room: Room
    services: Services
    private: bool = False  # an invite table: seated only by its id, never by quick match
    fence: Fence | None = None  # this node's claim on the table (a cluster's node; None: a single server)
    lost: bool = False  # another node claimed the table: its writes were refused, it stops
    seats: list[Seat | None] = field(default_factory=list)  # one per seat of the room
    spectators: set[Connection] = field(default_factory=set)
    current: TableGame | None = None
    match: Match | None = None  # what the last game hands to the next (R2.1, C1.3: its leader)
    seq: int = 0
    turn_seq: int = 0  # the first state of the current turn
    turn_key: Hashable = None
    stopping: bool = False
    inbox: Inbox = field(default_factory=Inbox)
    task: asyncio.Task[None] | None = None
    moves: TurnMoves = field(default_factory=TurnMoves)
    clock: TurnClock = field(init=False)
    fill_clock: Countdown[int] = field(init=False)  # how long players wait for others (bot_fill_seconds)
    settle_clock: Countdown[str] = field(init=False)  # the retry of a settlement that failed, by game id
    _settle_failures: int = 0  # failed tries of the current game's settlement
    _fill_waits: int = 0
    _bots_offered: int = 0  # the wait whose end offered bots (0: none)
    _searching: StateKey | None = None  # the state an expert bot's move is being searched for
    _held: tuple[Connection, dict[str, Any]] | None = None  # the mover's state, waiting for its moves
    _background: set[asyncio.Task[None]] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.clock = TurnClock(lambda turn: self.inbox.post(TimerFired(turn)), self._turn_is_current)
        self.seats = self.seats or [None] * self.room.config.seats
        self.fill_clock = Countdown(
            lambda token: self.inbox.post(FillWaitOver(token)),
            lambda token: token == self._fill_waits and self.waiting_for_players() and not self.unsettled,
        )
        self.settle_clock = Countdown(
            lambda game_id: self.inbox.post(SettleAgain(game_id)),
            lambda game_id: self.unsettled and self.current is not None and self.current.game_id == game_id,
        )

    def invite_open(self) -> bool:
        """Whether quick match may seat a stranger here."""
        return not self.private and self.room.open and not self.stopping

    def waiting_for_players(self) -> bool:
        """Whether quick match seats the next player here: someone waits and a seat is free."""
        return self.invite_open() and 0 < self.free_seats < len(self.seats)

    # -- outside interface (safe to call from any coroutine) ---------------------

    def start(self) -> None:
        """Start the table's task."""
        self.task = asyncio.get_running_loop().create_task(self._run(), name=f"table-{self.id}")
        METRICS.tables.inc()

    def tell(self, item: Told) -> None:
        """Queue an item without waiting."""
        self.inbox.post(item)

    async def ask(self, request: Request[Answer]) -> Answer:
        """Queue a request and wait for the table's answer (:class:`TableFull` when the
        table has stopped)."""
        if self.task is None or self.task.done():
            raise TableFull("the table is closed")
        return await self.inbox.ask(request)

    @property
    def playing(self) -> bool:
        """A game is in progress."""
        return self.current is not None and not self.current.game.finished

    @property
    def unsettled(self) -> bool:
        """A game is in progress, or over and not yet paid."""
        current = self.current
        return current is not None and (not current.game.finished or current.settlement is None)

    @property
    def free_seats(self) -> int:
        """Seats nobody holds."""
        return sum(seat is None for seat in self.seats)

    def balances(self) -> list[int] | None:
        """The seated players' balances, one per seat, or None while a seat is empty or its
        balance unknown."""
        balances = [seat.balance for seat in self.seats if seat is not None and seat.balance is not None]
        return balances if len(balances) == len(self.seats) else None

    def accounts(self) -> list[int]:
        """Accounts seated here."""
        return [seat.account.id for seat in self.seats if seat is not None]

    def timed_seat(self) -> int | None:
        """The seat to act when the game waits for it alone and a person playing for
        themselves holds it (not a bot, not hosted): the seat whose turn timer runs (R11.3),
        whose moves its state carries."""
        current = self.current
        if current is None or current.game.finished:
            return None
        waits = current.game.waiting()
        if len(waits) != 1:
            return None
        index = waits[0].seat
        return index if self._person(index) else None

    def _person(self, index: int) -> bool:
        """Whether a person plays seat ``index`` for themselves (not a bot, not hosting)."""
        seat = self.seats[index]
        current = self.current
        return seat is not None and seat.bot is None and current is not None and not current.game.hosted(index)

    async def stop(self) -> None:
        """Stop the task (shutdown): timers cancelled, connections told; the game stays persisted."""
        self.stopping = True
        if self.task is not None:
            self.inbox.post(Stop())
            await asyncio.gather(self.task, return_exceptions=True)
        for task in list(self._background):  # a search nobody will play
            task.cancel()
        await asyncio.gather(*self._background, return_exceptions=True)

    # -- the task -------------------------------------------------------------------

    async def _run(self) -> None:
        try:
            while True:
                item = await self.inbox.get()
                if isinstance(item, Stop):
                    break
                started = time.perf_counter()
                self._send_held()  # what the table sends next follows the state
                try:
                    await self._handle(item)
                except FencedError as problem:  # another node runs the table now
                    if not self.lost:  # (not found lost already, by the check after a lapse of liveness)
                        log.warning(
                            "table lost", extra={"table": self.id, "room": self.room.name, "reason": str(problem)}
                        )
                        METRICS.tables_lost.inc()
                    self.lost = True
                    if isinstance(item, Request):
                        fail(item, TableFull("the table moved to another server"))
                    break
                except LobbyError as problem:  # a seat refused (TableFull among others)
                    if isinstance(item, Request):
                        fail(item, problem)
                    continue
                except Exception as problem:  # a bug must not take the table down
                    if not isinstance(item, Restore):  # a game that cannot be restored is voided by the lobby
                        log.exception("table error", extra={"table": self.id, "room": self.room.name})
                        METRICS.errors.labels("internal").inc()
                    if isinstance(item, Request):
                        fail(item, problem)
                    continue
                if isinstance(item, Received):
                    METRICS.action_latency.observe(time.perf_counter() - started)
                if all(seat is None for seat in self.seats) and not self.spectators:
                    break
        finally:
            self._send_held()
            self.clock.stop()
            self.fill_clock.stop()
            self.settle_clock.stop()
            for seat in self.seats:
                if seat is not None:
                    seat.ready_clock.stop()
            self.inbox.close(TableFull("the table is closed"))  # nobody waits for an answer that never comes
            for connection in self._connections():
                connection.close("moved" if self.lost else "shutdown" if self.stopping else "table_closed")
            METRICS.tables.dec()
            if self.lost:
                self.services.on_lost(self)
            elif not self.stopping:
                self.services.on_empty(self)

    async def _handle(self, item: Asked | Told) -> None:
        match item:
            case Sit(account=account, connection=connection, bot=bot, seat=chosen):
                answer(item, await self._sit(account, connection, bot, chosen))
            case Reconnect(account=account, connection=connection):
                answer(item, self._reconnect(account, connection))
            case Rejoin(account=account, connection=connection):
                answer(item, self._rejoin(account, connection))
            case Restore(game_id=game_id, record=record, game=game):
                await self._restore(game_id, record, game)
                answer(item, None)
            case SendOn(players=players, redirect=redirect):
                self._send_on(players, redirect)
            case Watch(connection=connection):
                self.spectators.add(connection)
                self._send_state(connection, None)
            case Unwatch(connection=connection):
                self.spectators.discard(connection)
            case Disconnect(connection=connection):
                await self._disconnect(connection)
            case Received(connection=connection, message=message):
                await self._message(connection, message)
            case TimerFired(turn=turn):
                await self._turn_timer(turn)
            case FillWaitOver(token=token):
                self._fill_wait_over(token)
            case SettleAgain(game_id=game_id):
                await self._settle_again(game_id)
            case ReadyExpired(seat=index, token=token):
                self._ready_expired(index, token)
            case Decided(key=key, seat=index, action=action):
                await self._expert_decided(key, index, action)
            case _:
                assert_never(item)

    # -- seating ----------------------------------------------------------------------

    async def _sit(
        self, account: Account, connection: Connection | None, bot: TableBot | None, chosen: int | None
    ) -> int:
        if not self.room.open and bot is None:
            raise TableFull("the room is closed")
        if account.id in self.accounts():
            raise TableFull("already seated at this table")
        free = [i for i, seat in enumerate(self.seats) if seat is None]
        if not free:
            raise TableFull("the table is full")
        if chosen is not None and chosen not in range(len(self.seats)):
            raise LobbyError("bad_seat", f"this table has seats 0 to {len(self.seats) - 1}, not {chosen}")
        if chosen is not None and chosen not in free:
            raise LobbyError("seat_taken", f"seat {chosen} is taken; free: {', '.join(map(str, free))}")
        index = free[0] if chosen is None else chosen
        self._seat(index, Seat(account, self._ready_clock(index), bot, connection, ready=bot is not None))
        await self._refresh_balance(index)
        self._log("seated", account=account.id, seat=index, bot=bot is not None)
        self._arm_ready(index)
        self._arm_fill_wait()
        self._changed([])
        return index

    def _seat(self, index: int, seat: Seat) -> None:
        self.seats[index] = seat
        self.services.on_seated(seat.account.id, self)

    def _ready_clock(self, index: int) -> Countdown[int]:
        def is_current(token: int) -> bool:
            seat = self.seats[index]
            return seat is not None and seat.ready_token == token and not seat.ready and not self.unsettled

        return Countdown(lambda token: self.inbox.post(ReadyExpired(index, token)), is_current)

    def _reconnect(self, account: Account, connection: Connection) -> bool:
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
        self._send_state(connection, index)
        if self._bots_on_offer():  # the offer still stands: a reloaded page is told again
            self._offer_bots(connection)
        return True

    def _rejoin(self, account: Account, connection: Connection) -> bool:
        """A player who escaped in "host" mode takes the seat back while its game goes on."""
        index = self._seat_index(account.id)
        seat = self.seats[index] if index is not None else None
        if seat is None or not seat.left:
            return False
        return self._reconnect(account, connection)

    async def _disconnect(self, connection: Connection) -> None:
        self.spectators.discard(connection)
        index = self._seat_of(connection)
        if index is None:
            return
        seat = self.seats[index]
        assert seat is not None
        seat.connection = None
        self._log("disconnected", account=seat.account.id, seat=index)
        if self.current is not None and self.playing:
            if not self.current.game.hosted(index):
                await self._apply(self.current.game.hosting_action(index, True, "disconnect"))  # R11.5
        else:
            # No game is dealt to an absent player: ready again after reconnecting, or removed (R11.4).
            seat.ready = False
            self._arm_ready(index)
            self._changed([])

    def _free(self, index: int) -> None:
        seat = self.seats[index]
        if seat is None:
            return
        self.seats[index] = None
        seat.ready_clock.stop()
        self.services.on_unseated(seat.account.id, self)
        if seat.bot is not None:
            self.services.on_bot_free(seat.account)
        self._log("unseated", account=seat.account.id, seat=index)
        if seat.bot is None and all(other is None or other.bot is not None for other in self.seats):
            for other in range(len(self.seats)):  # a bot never waits alone: the table closes
                self._free(other)

    def _send_on(self, players: int, redirect: dict[str, str]) -> None:
        """Send the persons waiting here on with ``redirect`` and free their seats (the table
        then closes), if the table still waits for players with no game, with ``players``
        persons seated, each connected."""
        seated = [(index, seat) for index, seat in enumerate(self.seats) if seat is not None]
        if self.unsettled or not self.waiting_for_players() or len(seated) != players:
            return
        if any(seat.bot is not None or seat.connection is None for _, seat in seated):
            return
        for index, seat in seated:
            connection, seat.connection = seat.connection, None
            if connection is not None:
                connection.send(redirect)
            self._free(index)
        self._log("players sent on", to=redirect["url"], table_there=redirect["table"], players=players)
        self._changed([])  # for its spectators

    def _arm_fill_wait(self) -> None:
        """Time the wait of the players at a quick-match table for others, once per wait."""
        seconds = self.room.config.bot_fill_seconds
        if seconds > 0 and self.waiting_for_players() and not self.fill_clock.pending:
            self._fill_waits += 1
            self.fill_clock.start(self._fill_waits, seconds)

    def _fill_wait_over(self, token: int) -> None:
        """The players have waited ``bot_fill_seconds``: bots sit down in the free seats
        (``bot_fill = "auto"``), or each player is offered them (a ``bots_offered`` notice;
        the ``bots`` message accepts)."""
        if token != self._fill_waits or not self.waiting_for_players() or self.unsettled:
            return
        if self.room.config.bot_fill == "auto":
            task = asyncio.get_running_loop().create_task(self.services.fill_with_bots(self))
            self._background.add(task)
            task.add_done_callback(self._background.discard)
            return
        self._bots_offered = token
        for connection in self._connections():
            if connection not in self.spectators:
                self._offer_bots(connection)

    def _bots_on_offer(self) -> bool:
        """Whether the offer of bots made when the last wait ended still stands: nobody has
        sat down since (a new wait) and seats are still free."""
        return self._bots_offered == self._fill_waits and self.waiting_for_players() and not self.unsettled

    def _offer_bots(self, connection: Connection) -> None:
        """Send the ``bots_offered`` notice for the free seats."""
        free = self.free_seats
        connection.send({
            "type": "notice",
            "code": "bots_offered",
            "message": f"Nobody has come for {free} seat{'s' if free > 1 else ''}: play with bots?",
            "count": free,
        })

    # -- client messages ------------------------------------------------------------

    async def _message(self, connection: Connection, message: p.ClientMessage) -> None:
        index = self._seat_of(connection)
        if isinstance(message, p.PingMessage):
            connection.send({"type": "pong"})
            return
        if index is None:
            self._refuse(connection, "not_seated", "you are not seated at this table")
            return
        current = self.current
        if isinstance(message, p.ReadyMessage):
            await self._ready(connection, index)
        elif isinstance(message, p.HintMessage):
            moves = "[]"
            if current is not None and self.playing and any(wait.seat == index for wait in current.game.waiting()):
                moves = self.moves.json(self.room.family, current.game, index, self.turn_seq)
            connection.send_json(_hint(self.seq, moves))
        elif isinstance(message, p.HostingMessage):
            if current is None or not self.playing:
                self._refuse(connection, "not_playing", "no game is in progress")
            elif current.game.hosted(index) == message.on:
                self._send_state(connection, index)  # nothing changes: no action, no new state
            else:
                await self._apply(current.game.hosting_action(index, message.on), connection)
        elif isinstance(message, p.LeaveMessage):
            await self._leave(index)
        elif isinstance(message, p.SHELL_MESSAGES):
            self._refuse(connection, "wrong_place", f"'{getattr(message, 'type', '')}' is a lobby message")
        elif current is None or not self.playing:
            self._refuse(connection, "not_playing", "no game is in progress")
        elif not self.turn_seq <= (seq := int(getattr(message, "seq", -1))) <= self.seq:
            self._refuse(connection, "stale", f"state {seq} is from before this turn ({self.turn_seq})")
        else:  # one of the game's own messages (GameFamily.messages)
            try:
                action = self.room.family.message_action(index, message)
            except Refusal as problem:
                self._refuse(connection, problem.code, problem.message)
                return
            await self._apply(action, connection)

    async def _ready(self, connection: Connection, index: int) -> None:
        seat = self.seats[index]
        assert seat is not None
        if self.playing:
            self._refuse(connection, "in_game", "a game is in progress")
            return
        if self.unsettled:  # no game is dealt on top of one not yet paid
            self._refuse(connection, "settling", "the last game's settlement is not saved yet; try again shortly")
            return
        config = self.room.config
        if not self.room.open:  # a closed room finishes its games but starts no new ones
            self._refuse(connection, "room_closed", f"room {self.room.name!r} is closed")
            return
        balance = await self._refresh_balance(index)
        if balance is None or not config.can_sit(balance):
            self._refuse(connection, "below_entry", f"this room needs at least {config.entry_balance} (R9.4)")
            return
        seat.ready = True
        seat.ready_clock.stop()
        if all(s is not None and s.ready for s in self.seats):
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
        current = self.current
        game = current.game if current is not None and self.playing else None
        escape_action = game.escape_action(index) if game is not None else None
        escape = escape_action is not None
        if game is not None and not escape and game.in_play(index) and not game.hosted(index):
            # No escape (one per game is charged, C6; a game may have none): hosted as if disconnected.
            await self._apply(game.hosting_action(index, True, "disconnect"))
        charged: Mapping[str, Any] | None = None
        if game is not None and escape_action is not None:
            balances = self.balances()
            cost = game.leaving_cost(index, balances) if balances is not None else None
            await self._apply(escape_action)  # R10, C6
            charged = cost  # host mode: the penalty to come
        stays = self.unsettled  # the seat stays in the game to its settlement
        if escape and not self.playing and self.current is not None:
            charged = self.current.escape_charge  # settled at once: what the ledger was charged (None: not yet)
        hosted = self.playing and bool(self.current and self.current.game.in_play(index))  # played by hosting (R10.1)
        if connection is not None:
            connection.send({"type": "left", "table": self.id, "escape": escape, "hosted": hosted, "charged": charged})
        if stays:
            seat.left = True
            if not hosted:
                self._changed([])
            return
        self._free(index)
        self._changed([])

    # -- the game ---------------------------------------------------------------------

    async def _start_game(self) -> None:
        config = self.room.config
        # What the last game hands on (R2.1: its winner leads, if still seated here).
        match = self.match
        carried: Mapping[str, Any] | None = None
        continuing: tuple[bool, ...] = ()
        if match is not None:
            carried = match.carried
            continuing = tuple(account == self._account_at(index) for index, account in enumerate(match.accounts))
        game = self.room.family.deal(config, self.services.next_seed(), carried, continuing)  # secure shuffle (R1.4)
        if game.swap is not None:  # C1.4: the two players change places, each with the hand dealt
            first, second = game.swap
            self.seats[first], self.seats[second] = self.seats[second], self.seats[first]
            self._log("seats swapped", seats=list(game.swap))
        game_id = uuid.uuid4().hex
        self.current = TableGame(game, game_id, config)
        record = self._record(game).to_json()
        store, room, fence = self.services.store, self.room.name, self.fence
        await self.services.run_db(
            lambda: store.save_game(game_id, room, config.to_json(), record, "running", self.id, fence)
        )
        METRICS.games.inc()
        self._log("game started")
        self._changed([event.view() for event in game.events])

    def _record(self, game: Hand) -> TableRecord:
        seats = tuple(None if s is None else SeatRecord(s.account.id, s.account.name, s.bot is not None)
                      for s in self.seats)
        return TableRecord(self.id, seats, self.private, game.to_record())

    async def _apply(self, action: Any, connection: Connection | None = None) -> bool:
        current = self.current
        assert current is not None
        game = current.game
        try:
            events = game.apply(action)
        except Refusal as problem:
            if connection is not None:
                self._refuse(connection, problem.code, problem.message)
            return False
        data = _dumps(self.room.family.action_to_dict(action))
        try:
            await self.services.journal.append(current.game_id, game.seq, data, self.fence)
        except FencedError:
            game.undo()
            raise
        except Exception:
            # Not persisted, so not acknowledged: back to the state before the action.
            log.exception("action not saved", extra={"table": self.id, "game": current.game_id, "seq": game.seq})
            game.undo()
            self._arm_turn()
            if connection is not None:
                self._refuse(connection, "unavailable", "the action could not be saved; try again")
            else:
                METRICS.errors.labels("unavailable").inc()
            return False
        METRICS.actions.inc()
        encoded = [event.view() for event in events]
        for event in encoded:
            if event["type"] == "hosting" and event.get("on"):
                METRICS.hosting.labels(event.get("cause") or "player").inc()
            seat, count = event.get("seat"), event.get("count")
            if event["type"] == "timeout" and isinstance(seat, int) and isinstance(count, int):
                self._notice(seat, count)
        if game.finished:
            await self._settle()
        self._changed(encoded, answering=connection)
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

    async def _settle(self) -> bool:
        """Pay the finished game and end it: the settlement computed (R9, C5) on the seats'
        balances as the database holds them when it pays, and stored, in one call to the
        database (one hand-off to its thread: the game's last action waits for it). Whether
        it was paid: a settlement that fails (the database unreachable, say) is logged and
        tried again later (:data:`SETTLE_RETRY_SECONDS`), the players told; until it is
        paid the table keeps its seats and deals no new game."""
        current = self.current
        assert current is not None
        game, game_id, config = current.game, current.game_id, current.config
        store = self.services.store
        accounts = [seat.account.id if seat else 0 for seat in self.seats]
        seats = range(len(self.seats))
        record = self._record(game).to_json()
        fence = self.fence

        def settle(balances: list[int]) -> tuple[Settled, Payout]:
            settlement = game.settlement(balances)  # R9, C5
            return settlement, Payout(tuple(settlement.deltas), settlement.house, _dumps(settlement.to_dict()))

        def pay() -> tuple[Settled, dict[int, int]]:
            return store.settle_game(
                game_id, config.edition, accounts, settle, config.allow_negative, f"game {game_id}", record, fence
            )

        try:
            settlement, balances_after = await self.services.run_db(pay)
        except FencedError:
            raise
        except Exception:
            delay = SETTLE_RETRY_SECONDS[min(self._settle_failures, len(SETTLE_RETRY_SECONDS) - 1)]
            self._settle_failures += 1
            log.exception(
                "settlement failed", extra={"table": self.id, "room": self.room.name, "game": game_id, "retry": delay}
            )
            METRICS.errors.labels("unavailable").inc()
            self.settle_clock.start(game_id, delay)
            for connection in self._connections():
                connection.send(_SETTLING)
            return False
        self._settle_failures = 0
        self.settle_clock.stop()
        METRICS.settlements.inc()
        charge = game.escape_charged(settlement)  # R10.2, C6.2
        self.current = replace(current, settlement=settlement.to_dict(), escape_charge=charge)
        self.match = Match(game.carried(), tuple(self._account_at(index) for index in seats))
        self._log("game settled", result=game.result, deltas=list(settlement.deltas), house=settlement.house)
        for index in seats:
            seat = self.seats[index]
            if seat is not None:
                seat.balance = balances_after.get(seat.account.id, seat.balance)
                seat.ready = seat.bot is not None
                if seat.left:
                    self._free(index)
                else:
                    self._arm_ready(index)
        return True

    async def _settle_again(self, game_id: str) -> None:
        """The retry of a settlement that failed: the game is paid now, or tried again later."""
        current = self.current
        if current is None or current.game_id != game_id or not current.game.finished or current.settlement is not None:
            return
        if await self._settle():
            self._changed([])

    async def _restore(self, game_id: str, record: TableRecord, game: Hand) -> None:
        """Go on with a running game rebuilt from its record and persisted actions (after a
        restart). The players count as disconnected until they reconnect; they are not
        hosted, so their turn timers run as usual (R11.3). Anything that fails raises, and
        the lobby voids the game."""
        for index, seated in enumerate(record.seats):
            if seated is not None:
                store = self.services.store
                account = await self.services.run_db(partial(store.get_account, seated.account))
                if account is None:
                    raise Refusal("bad_record", f"account {seated.account} of game {game_id} is gone")
                bot = self.room.family.table_bot(self.room.config) if seated.bot else None  # at the room's level now
                self._seat(index, Seat(account, self._ready_clock(index), bot, ready=True))
                await self._refresh_balance(index)
        self.current = TableGame(game, game_id, record.game.config)
        self.private = record.private  # an invite table stays one
        # State numbers continue from a base no earlier state can have reached, so a message
        # built against a state from before the restart is always stale.
        self.seq = int(time.time() * 1000)
        self._log("game restored", actions=game.seq)
        if game.finished:
            await self._settle()
        self._changed([])

    # -- clocks -------------------------------------------------------------------------

    def _turn_is_current(self, turn: Turn) -> bool:
        """The turn (for a person) or the state (for an automatic move) ``turn`` was armed for is still on."""
        return self.playing and turn.number == (self.turn_seq if turn.kind == "timed" else self.seq)

    def _arm_turn(self) -> None:
        """After every change: the next automatic action (a bot's, or hosting's), or the
        turn timer of the persons the game waits for (R11.3). The turn timer runs from the
        start of the turn: changes that do not pass the turn keep it."""
        timed = Turn("timed", self.turn_seq)
        current = self.current
        waits: Sequence[Waiting] = ()
        if current is not None and self.playing:
            waits = current.game.waiting()
        automatic = any(self._automatic(wait.seat) for wait in waits)
        persons = [wait for wait in waits if self._person(wait.seat)]
        if persons and not automatic and self.clock.runs_for(timed):
            return
        self.clock.stop()
        if automatic:
            self.clock.start(Turn("auto", self.seq), self.services.bot_delay)
        elif persons:
            self.clock.start(timed, max(wait.seconds for wait in persons))

    def _automatic(self, index: int) -> bool:
        """Whether a bot or hosting plays seat ``index``, so its actions are the table's to make."""
        seat = self.seats[index]
        current = self.current
        return seat is not None and current is not None and (seat.bot is not None or current.game.hosted(index))

    def _arm_ready(self, index: int) -> None:
        """A seated player who is not ready in time leaves the table (R11.4)."""
        seat = self.seats[index]
        if seat is None or seat.ready or self.unsettled:
            return
        seat.ready_token += 1
        seat.ready_clock.start(seat.ready_token, self.room.config.ready_seconds)

    def _ready_expired(self, index: int, token: int) -> None:
        seat = self.seats[index]
        if seat is None or seat.ready or seat.ready_token != token or self.unsettled:
            return
        if seat.connection is not None:
            seat.connection.close("not_ready")
        self._free(index)
        self._changed([])

    async def _turn_timer(self, turn: Turn) -> None:
        current = self.current
        if current is None or not self._turn_is_current(turn):
            return  # the turn (or, for automatic moves, the state) it was armed for is over
        game = current.game
        if turn.kind == "timed":  # every person the game still waits for has run out of time (R11.3)
            for timed_out in [wait.seat for wait in game.waiting() if self._person(wait.seat)]:
                if self.current is current and any(wait.seat == timed_out for wait in game.waiting()):
                    await self._apply(game.timeout_action(timed_out))
            return
        index = next((wait.seat for wait in game.waiting() if self._automatic(wait.seat)), None)
        seat = self.seats[index] if index is not None else None
        if index is None or seat is None:
            return
        bot = seat.bot
        if bot is None:
            await self._apply(game.default_action(index))  # hosting (R11.2)
            return
        search = bot.search(game, index, move_seed(current.game_id, game.seq))
        if search is None:
            await self._apply(bot.act(game, index))
        else:
            self._search(current, index, search)

    def _search(self, current: TableGame, index: int, search: tuple[Callable[..., Any], tuple[Any, ...]]) -> None:
        """Have the searching bot of seat ``index`` search its move in the background (once
        per state): its answer comes back as :class:`Decided`."""
        key = (current.game_id, current.game.seq)
        if self._searching == key:
            return  # asked already (the automatic move was armed again by a change that kept the state)
        self._searching = key
        task = asyncio.get_running_loop().create_task(self._searched(key, index, search))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _searched(self, key: StateKey, index: int, search: tuple[Callable[..., Any], tuple[Any, ...]]) -> None:
        """Search in the expert pool, then post the action to the inbox. A search that fails
        (a worker died) posts none: the bot's quick move is played instead, so the game goes on."""
        function, arguments = search
        action: Any = None
        try:
            with METRICS.expert_search.time():
                action = await self.services.experts.search(function, arguments)
        except Exception:
            log.exception("expert search failed", extra={"table": self.id, "room": self.room.name, "game": key[0]})
            METRICS.errors.labels("internal").inc()
        self.inbox.post(Decided(key, index, action))

    async def _expert_decided(self, key: StateKey, index: int, action: Any) -> None:
        """Play a searched action if the game is still in the state it was searched for;
        an action for a state that is gone (or a search asked for again since) is dropped.
        Without an action (the search failed) the bot's quick move is played."""
        if key != self._searching:
            return
        self._searching = None
        current = self.current
        if current is None or not self.playing or (current.game_id, current.game.seq) != key:
            return  # the state moved on: its automatic move, armed again, searches anew
        seat = self.seats[index]
        if action is None and seat is not None and seat.bot is not None:
            action = seat.bot.act(current.game, index)
        if action is not None:
            await self._apply(action)

    # -- views and messages ---------------------------------------------------------

    def _changed(self, events: list[Mapping[str, Any]], answering: Connection | None = None) -> None:
        """Send every seat and spectator the new state. The state that answers a player's own
        action (``answering``: their connection) is never held for its moves, even when the
        turn comes back to them (the other seat passed for want of a move): the action is
        acknowledged at once, and its moves follow as a ``hint``."""
        self._send_held()
        self.seq += 1
        turn = self.current.game.turn if self.current is not None else None
        if turn != self.turn_key:
            # An action must be made against a state of the current turn: changes that do not
            # pass the turn (hosting switched, a player reconnecting) leave pending moves valid.
            self.turn_key, self.turn_seq = turn, self.seq
        self._arm_turn()
        encoded = events
        views = TableViews(self)  # what all seats see alike is built once
        mover = self.timed_seat()
        for index, seat in enumerate(self.seats):
            if seat is not None and seat.connection is not None:
                self._send_seat_state(seat.connection, index, mover, {
                    "type": "state", "events": encoded, "table": views.of(index),
                }, hold=seat.connection is not answering)
        if self.spectators:  # one public view, encoded once, for every spectator
            text = orjson.dumps({"type": "state", "events": encoded, "table": views.of(None)}).decode()
            for connection in self.spectators:
                connection.send_json(text)

    def _send_state(self, connection: Connection, index: int | None) -> None:
        message = {"type": "state", "events": [], "table": table_view(self, index)}
        if index is None:
            connection.send(message)
        else:
            self._send_seat_state(connection, index, self.timed_seat(), message)

    def _send_seat_state(
        self, connection: Connection, index: int, mover: int | None, message: dict[str, Any], hold: bool = True
    ) -> None:
        """Send a seat its state; the state of the seat to act (``mover``, when a person plays
        it) is held, with ``hold``, until its legal moves are listed, at a low priority
        (:class:`MovesPusher`), and goes out carrying them (:meth:`send_moves`); without,
        it goes now and the moves follow as a ``hint``."""
        if index == mover:
            self.services.pusher.push(self)
            if hold:
                self._held = (connection, message)
                return
        connection.send(message)

    def _send_held(self) -> None:
        """Send the held state of the seat to act without its moves (they follow as a ``hint``):
        the table is about to send something else, which must not overtake it."""
        if self._held is not None:
            connection, message = self._held
            self._held = None
            connection.send(message)

    def send_moves(self) -> None:
        """Send the seat to act, when a person plays it, its legal moves for the current state:
        in its held state, or else as a ``hint``."""
        index = self.timed_seat()
        current = self.current
        seat = self.seats[index] if index is not None else None
        if index is None or seat is None or seat.connection is None or current is None:
            self._send_held()
            return
        if current.game.turn != self.turn_key:
            return  # an action is being stored: its change pushes the moves of the turn it makes
        moves = self.moves.json(self.room.family, current.game, index, self.turn_seq)
        held, self._held = self._held, None
        if held is not None and held[0] is seat.connection:  # held since the last change: the current state
            held[1]["moves"] = orjson.Fragment(moves)
            seat.connection.send(held[1])
            return
        if held is not None:
            held[0].send(held[1])
        seat.connection.send_json(_hint(self.seq, moves))

    def _refuse(self, connection: Connection, code: ErrorCode, message: str) -> None:
        METRICS.errors.labels(code).inc()
        connection.send(dict(p.error(code, message)))

    # -- helpers ------------------------------------------------------------------------

    async def _refresh_balance(self, index: int) -> int | None:
        """The balance of the seat ``index`` read again (None for an empty seat)."""
        seat = self.seats[index]
        if seat is None:
            return None
        store, edition, account = self.services.store, self.room.config.edition, seat.account.id
        seat.balance = await self.services.run_db(lambda: store.balance(account, edition))
        return seat.balance

    def _account_at(self, index: int) -> int | None:
        seat = self.seats[index]
        return seat.account.id if seat is not None else None

    def _seat_index(self, account_id: int) -> int | None:
        return next((i for i, s in enumerate(self.seats) if s is not None and s.account.id == account_id), None)

    def _seat_of(self, connection: Connection) -> int | None:
        return next((i for i, s in enumerate(self.seats) if s is not None and s.connection is connection), None)

    def _connections(self) -> list[Connection]:
        seated = [s.connection for s in self.seats if s is not None and s.connection is not None]
        return seated + list(self.spectators)

    def _log(self, message: str, **fields: Any) -> None:
        game_id = self.current.game_id if self.current is not None else None
        log.info(message, extra={"table": self.id, "room": self.room.name, "game": game_id, **fields})



def _dumps(data: Any) -> str:
    """JSON text for the store."""
    return orjson.dumps(data).decode()


def _hint(seq: int, moves: str) -> str:
    """A ``hint`` message: the legal moves (JSON text) for state ``seq``."""
    return f'{{"type":"hint","seq":{seq},"moves":{moves}}}'
