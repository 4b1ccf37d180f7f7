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
import time
from collections.abc import Mapping
from typing import Any, TypeVar, assert_never

from ..errors import Refusal
from ..games.interface import TableBot
from ..store import Account, FencedError
from . import protocol as p
from .connection import Connection
from .inbox import (
    Asked,
    Decided,
    Disconnect,
    FillWaitOver,
    ReadyExpired,
    Received,
    Reconnect,
    Rejoin,
    Request,
    Restore,
    Resume,
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
from .metrics import METRICS
from .room import LobbyError, Room, TableFull
from .seats import Seat
from .table_base import Services, TableGame, log
from .table_play import TablePlay
from .table_send import hint_json

__all__ = ["REPLAY_READY_SECONDS", "Room", "Services", "Table", "TableFull", "TableGame"]

Answer = TypeVar("Answer")

REPLAY_READY_SECONDS = 120.0
"""How much longer the ready timer (R11.4) waits, once per game, for a player who watches
the replay of the table's last game (``replaying``)."""


class Table(TablePlay):
    """One table of a room: its task, seating, and the messages of its seats."""

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

    async def stop(self) -> None:
        """Stop the task (shutdown): timers cancelled, connections told; the game stays persisted."""
        self.stopping = True
        if self.task is not None:
            self.inbox.post(Stop())
            await asyncio.gather(self.task, return_exceptions=True)
        for task in list(self._background):  # a search nobody will play
            task.cancel()
        await asyncio.gather(*self._background, return_exceptions=True)

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
            case Resume(record=record):
                answer(item, await self._resume(record))
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
        elif isinstance(message, p.ReplayingMessage):
            self._replaying(connection, index)
        elif isinstance(message, p.HintMessage):
            moves = "[]"
            if current is not None and self.playing and any(wait.seat == index for wait in current.game.waiting()):
                moves = self.moves.json(self.room.family, current.game, index, self.wait_seq)
            connection.send_json(hint_json(self.seq, moves))
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
                self._refuse(connection, problem.code, problem.message, problem.detail)
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

    def _replaying(self, connection: Connection, index: int) -> None:
        """Between games the player watches the last game's replay: their ready deadline moves
        :data:`REPLAY_READY_SECONDS` later, once per game (R11.4). Ready, or given the time
        already: the state is sent again, nothing changes."""
        seat = self.seats[index]
        assert seat is not None
        current = self.current
        if self.playing:
            self._refuse(connection, "in_game", "a game is in progress")
            return
        if current is None or self.unsettled:
            self._refuse(connection, "not_playing", "this table has no settled game to replay")
            return
        deadline = seat.ready_clock.deadline
        if seat.ready or deadline is None or seat.replay_grace == current.game_id:
            self._send_state(connection, index)
            return
        seat.replay_grace = current.game_id
        seat.ready_token += 1
        seat.ready_clock.start(seat.ready_token, max(0.0, deadline - time.time()) + REPLAY_READY_SECONDS)
        self._log("replay watched", account=seat.account.id, seat=index)
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

    def _ready_expired(self, index: int, token: int) -> None:
        seat = self.seats[index]
        if seat is None or seat.ready or seat.ready_token != token or self.unsettled:
            return
        if seat.connection is not None:
            seat.connection.close("not_ready")
        self._free(index)
        self._changed([])
