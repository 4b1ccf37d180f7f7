"""A table's state, and what it answers of it: who sits where, whether a game runs, who
may act and how the clocks are armed (:class:`TableBase`); what tables share (:class:`Services`).
The table's parts build on it: :mod:`.table_send` (what it sends), :mod:`.table_play` (the
game: deal, actions, settlement, restore, timers, bots) and :mod:`.tables` (the task, seating
and the client's messages).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from ..games.interface import Hand, Waiting
from ..games.interface import Room as RoomConfig
from ..store import Account, Fence, Store
from .bots import ExpertPool, default_expert_workers
from .clock import Countdown, Turn, TurnClock
from .connection import Connection
from .inbox import (
    FillWaitOver,
    Inbox,
    ReadyExpired,
    SettleAgain,
    TimerFired,
)
from .journal import ActionJournal
from .pusher import MovesPusher
from .room import Room
from .seats import Seat
from .views import TurnMoves

if TYPE_CHECKING:
    from .tables import Table

__all__ = ["Match", "Services", "StateKey", "TableBase", "TableGame"]

log = logging.getLogger("shuangkou.table")


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
class TableBase:
    """A table's state: its room, seats, spectators, game, match, state numbers, inbox and
    clocks, and what it answers of them; :class:`~.tables.Table` is the whole table."""

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
    wait_seq: int = 0  # the state the timers run from: the turn's first, or every state of a clocked wait
    clocked: bool = False  # the game waited in a clocked wait at the last state
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

    def _automatic(self, index: int) -> bool:
        """Whether a bot or hosting plays seat ``index``, so its actions are the table's to make."""
        seat = self.seats[index]
        current = self.current
        return seat is not None and current is not None and (seat.bot is not None or current.game.hosted(index))

    def _turn_is_current(self, turn: Turn) -> bool:
        """The turn (for a person) or the state (for an automatic move) ``turn`` was armed for is still on."""
        return self.playing and turn.number == (self.wait_seq if turn.kind == "timed" else self.seq)

    def _waits(self) -> Sequence[Waiting]:
        """The seats the game in progress waits for (none without one)."""
        current = self.current
        return current.game.waiting() if current is not None and self.playing else ()

    def _due(self, waits: Sequence[Waiting]) -> list[int]:
        """The seats of ``waits`` whose automatic action (a bot's, or hosting's) is due now:
        in a clocked wait, only a bot that does something else than its timer would."""
        return [wait.seat for wait in waits if self._automatic(wait.seat)
                and (not wait.clocked or self._acts_before_clock(wait.seat))]

    def _timed(self, waits: Sequence[Waiting]) -> list[Waiting]:
        """The waits of ``waits`` that end when their timer runs out: a person's, and every
        clocked one."""
        return [wait for wait in waits if self._person(wait.seat) or (wait.clocked and self._automatic(wait.seat))]

    def _acts_before_clock(self, index: int) -> bool:
        """Whether the bot of seat ``index`` chooses, in a clocked wait, another action than
        its timer's (a Tractor bot declares while the cards arrive)."""
        seat, current = self.seats[index], self.current
        if seat is None or seat.bot is None or current is None or current.game.hosted(index):
            return False
        return bool(seat.bot.act(current.game, index) != current.game.timeout_action(index))

    def _arm_turn(self) -> None:
        """After every change: the next automatic action (a bot's, or hosting's), or the
        timer of the persons the game waits for (R11.3) and of its clocked waits. The turn
        timer runs from the start of the turn: changes that do not pass the turn keep it; a
        clocked wait's runs from the last change."""
        timed = Turn("timed", self.wait_seq)
        waits = self._waits()
        due = self._due(waits)
        running = self._timed(waits)
        if running and not due and self.clock.runs_for(timed):
            return
        self.clock.stop()
        if due:
            self.clock.start(Turn("auto", self.seq), self.services.bot_delay)
        elif running:
            self.clock.start(timed, max(wait.seconds for wait in running))

    def _arm_ready(self, index: int) -> None:
        """A seated player who is not ready in time leaves the table (R11.4)."""
        seat = self.seats[index]
        if seat is None or seat.ready or self.unsettled:
            return
        seat.ready_token += 1
        seat.ready_clock.start(seat.ready_token, self.room.config.ready_seconds)

    def _ready_clock(self, index: int) -> Countdown[int]:
        def is_current(token: int) -> bool:
            seat = self.seats[index]
            return seat is not None and seat.ready_token == token and not seat.ready and not self.unsettled

        return Countdown(lambda token: self.inbox.post(ReadyExpired(index, token)), is_current)

    @property
    def whole(self) -> Table:
        """The table this state is part of (every :class:`TableBase` is a :class:`~.tables.Table`),
        as the lobby's callbacks know it."""
        return cast("Table", self)

    def _seat(self, index: int, seat: Seat) -> None:
        self.seats[index] = seat
        self.services.on_seated(seat.account.id, self.whole)

    def _free(self, index: int) -> None:
        seat = self.seats[index]
        if seat is None:
            return
        self.seats[index] = None
        seat.ready_clock.stop()
        self.services.on_unseated(seat.account.id, self.whole)
        if seat.bot is not None:
            self.services.on_bot_free(seat.account)
        self._log("unseated", account=seat.account.id, seat=index)
        if seat.bot is None and all(other is None or other.bot is not None for other in self.seats):
            for other in range(len(self.seats)):  # a bot never waits alone: the table closes
                self._free(other)

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
