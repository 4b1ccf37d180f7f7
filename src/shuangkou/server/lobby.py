"""The lobby: rooms loaded from configuration files, tables, matchmaking, restore."""

from __future__ import annotations

import asyncio
import functools
import logging
import secrets
from collections.abc import Awaitable, Callable
from functools import partial
from pathlib import Path
from typing import Any

from ..bots import GreedyBot
from ..config import EDITIONS, ConfigError, load_config
from ..store import Account, Store
from .connection import Connection
from .inbox import Rejoin, Restore, Sit
from .journal import ActionJournal
from .metrics import METRICS
from .record import restore_game
from .room import LobbyError, Room
from .tables import Services, Table
from .views import RoomSummary

__all__ = ["SHIPPED_ROOMS", "Lobby", "LobbyError"]

log = logging.getLogger("shuangkou.lobby")
SHIPPED_ROOMS = ("points", "wealth", "classic", "qianbian")


@functools.cache
def _shipped_starting_balance(edition: str) -> int:
    """The starting balance of the shipped room of ``edition`` (read once: files are parsed slowly)."""
    return load_config(edition).starting_balance


class Lobby:
    """Rooms and their tables. Runs in the server's event loop."""

    def __init__(
        self,
        store: Store,
        run_db: Callable[[Callable[[], Any]], Awaitable[Any]],
        rooms_dir: Path | None,
        bot_delay: float,
        seed: int | None = None,
        commit_delay: float = 0.0,
    ) -> None:
        self.store = store
        self.run_db = run_db
        self.rooms_dir = rooms_dir
        self.rooms: dict[str, Room] = {}
        self.tables: dict[str, Table] = {}
        self.seated: dict[int, Table] = {}
        self.lock = asyncio.Lock()
        self.accepting = True
        self.services = Services(
            store=store,
            run_db=run_db,
            journal=ActionJournal(store, run_db, commit_delay),
            bot_delay=bot_delay,
            seed=seed,
            on_seated=self._on_seated,
            on_unseated=self._on_unseated,
            on_empty=self._on_empty,
            fill_with_bots=self._fill_waiting_table,
        )
        self.reload_rooms()

    # -- rooms ------------------------------------------------------------------------

    def _room_files(self) -> dict[str, str]:
        if self.rooms_dir is None:
            return {name: name for name in SHIPPED_ROOMS}
        return {path.stem: str(path) for path in sorted(self.rooms_dir.glob("*.toml"))}

    def reload_rooms(self) -> dict[str, Any]:
        """(Re)load every room file: new rooms open, changed ones apply to new games only,
        removed ones close. An invalid file leaves its room as it was and is reported."""
        loaded, errors = [], {}
        files = self._room_files()
        for name, source in files.items():
            try:
                config = load_config(source)
            except (ConfigError, OSError) as problem:
                errors[name] = str(problem)
                continue
            room = self.rooms.get(name)
            if room is None:
                self.rooms[name] = Room(name, config, source)
            else:
                room.config, room.source, room.open = config, source, True
            loaded.append(name)
        for name, room in self.rooms.items():
            if name not in files:
                room.open = False
        if not self.rooms:
            raise LobbyError("no_rooms", f"no valid room configuration: {errors}")
        log.info("rooms loaded", extra={"rooms": loaded, "errors": errors})
        return {"loaded": loaded, "errors": errors}

    def close_room(self, name: str) -> None:
        """Stop seating in a room; games in progress finish."""
        self.room(name).open = False

    def room(self, name: str) -> Room:
        """The room called ``name``."""
        room = self.rooms.get(name)
        if room is None:
            raise LobbyError("unknown_room", f"no room {name!r}; rooms: {', '.join(self.rooms)}")
        return room

    def summary(self) -> list[RoomSummary]:
        """The rooms as the lobby shows them, with players seated."""
        players: dict[str, int] = {}
        free: dict[str, int] = {}
        for table in self.tables.values():
            name = table.room.name
            players[name] = players.get(name, 0) + len(table.accounts())
            if table.waiting_for_players():
                free[name] = free.get(name, 0) + table.free_seats
        return [room.summary(players.get(name, 0), free.get(name, 0)) for name, room in self.rooms.items()]

    def starting_balances(self) -> dict[str, int]:
        """Balances of a new guest: each edition's starting balance (the first room of it)."""
        balances: dict[str, int] = {}
        for room in self.rooms.values():
            balances.setdefault(room.config.edition, room.config.starting_balance)
        for edition in EDITIONS:  # each edition's shipped room is named after it
            balances.setdefault(edition, _shipped_starting_balance(edition))
        return balances

    # -- seating ----------------------------------------------------------------------

    async def join(
        self, account: Account, connection: Connection, room_name: str | None, table_id: str | None,
        opponent: str, seat: int | None = None,
    ) -> Table:
        """Seat the account: at the table ``table_id`` (an invite; in ``seat`` when given, so
        that friends choose partners or opponents), against a bot, or by quick match with
        the next player of the room."""
        if not self.accepting:
            raise LobbyError("shutting_down", "the server is shutting down")
        async with self.lock:
            seated = self.seated.get(account.id)
            if seated is not None:
                if table_id == seated.id and await seated.ask(Rejoin(account, connection)):
                    return seated  # back at the seat hosting kept playing after an escape (R10.1)
                raise LobbyError("already_seated", f"you are already seated at table {seated.id}")
            if seat is not None and table_id is None:
                raise LobbyError("bad_message", "'seat' chooses a seat at an invite table: name it with 'table'")
            if table_id is not None:
                table = self.tables.get(table_id)
                if table is None:
                    raise LobbyError("unknown_table", f"no table {table_id!r}")
                if seat is not None and not table.private:
                    raise LobbyError("bad_message", f"table {table_id!r} is no invite table: quick match seats players")
                await self._check_entry(account, table.room)
                return await self._sit(table, account, connection, seat)
            if room_name is None:
                raise LobbyError("bad_message", "join needs 'room' or 'table'")
            room = self.room(room_name)
            if not room.open:
                raise LobbyError("room_closed", f"room {room_name!r} is closed")
            await self._check_entry(account, room)
            if opponent == "bot":
                table = self._new_table(room)
                await self._sit(table, account, connection)
                await self._fill_with_bots(table)
                return table
            if opponent == "invite":
                table = self._new_table(room)
                table.private = True
                return await self._sit(table, account, connection)
            waiting = min(  # quick match: the table closest to full (two seats: the one waiting player)
                (t for t in self.tables.values() if t.room is room and t.waiting_for_players()),
                key=lambda t: t.free_seats,
                default=None,
            )
            if waiting is not None:
                try:
                    return await self._sit(waiting, account, connection)
                except LobbyError:  # its player left (and the table closed) meanwhile
                    pass
            return await self._sit(self._new_table(room), account, connection)

    async def fill_with_bots(self, account: Account) -> Table:
        """Seat bots in every free seat of the account's table, between games."""
        async with self.lock:
            table = self.seated.get(account.id)
            if table is None:
                raise LobbyError("not_seated", "join a table first")
            if table.playing:
                raise LobbyError("in_game", "a game is in progress")
            await self._fill_with_bots(table)
            return table

    async def _fill_waiting_table(self, table: Table) -> None:
        """``bot_fill = "auto"``: bots in the free seats of a table whose players waited long enough."""
        async with self.lock:
            if table.waiting_for_players() and not table.playing:
                await self._fill_with_bots(table)

    async def _fill_with_bots(self, table: Table) -> None:
        for _ in range(table.free_seats):
            bot = await self.run_db(lambda: self.store.create_guest("Bot", self.starting_balances()))
            await table.ask(Sit(bot, None, GreedyBot()))

    async def _check_entry(self, account: Account, room: Room) -> None:
        """A player below the room's first level may not sit down in a wealth room (R9.4)."""
        balance = await self.run_db(lambda: self.store.balance(account.id, room.config.edition))
        if not room.config.can_sit(balance):
            needed = room.config.entry_balance
            raise LobbyError("below_entry", f"room {room.name!r} needs a balance of at least {needed} (R9.4)")

    async def _sit(self, table: Table, account: Account, connection: Connection, seat: int | None = None) -> Table:
        await table.ask(Sit(account, connection, seat=seat))  # a LobbyError when there is no (such) seat
        return table

    def _new_table(self, room: Room) -> Table:
        table = Table(secrets.token_urlsafe(8), room, self.services)
        self.tables[table.id] = table
        table.start()
        return table

    def _on_seated(self, account: int, table: Table) -> None:
        self.seated[account] = table

    def _on_unseated(self, account: int, table: Table) -> None:
        if self.seated.get(account) is table:
            del self.seated[account]

    def _on_empty(self, table: Table) -> None:
        self.tables.pop(table.id, None)
        for account, seated in list(self.seated.items()):
            if seated is table:
                del self.seated[account]

    # -- restart and shutdown -------------------------------------------------------------

    async def restore(self) -> tuple[int, int]:
        """Restore the games left running by a stop or crash; void those that cannot be
        (with no transfer, the reason kept with the game). Returns (restored, voided).

        A game whose room file is gone is restored too, under the configuration stored
        with it, at a table of a closed room: it finishes but no new game starts there."""
        restored = voided = 0
        for stored in await self.run_db(self.store.running_games):
            room = self.rooms.get(stored.room)
            table: Table | None = None
            try:
                record, game = restore_game(stored)
                if room is None:
                    room = Room(stored.room, game.settings, "(removed)", open=False)
                table = Table(secrets.token_urlsafe(8), room, self.services)
                self.tables[table.id] = table
                table.start()
                await table.ask(Restore(stored.game_id, record, game))
                METRICS.games_restored.inc()
                restored += 1
            except Exception as problem:  # anything that stops a replay voids the game
                reason = f"not restorable: {problem}"
                log.warning("game voided", extra={"game": stored.game_id, "reason": reason})
                await self.run_db(partial(self.store.void_game, stored.game_id, reason))
                METRICS.games_voided.inc()
                if table is not None:
                    await table.stop()
                    self._on_empty(table)
                voided += 1
        return restored, voided

    async def shutdown(self) -> None:
        """Stop seating, stop every table (running games stay persisted for restore)."""
        self.accepting = False
        for room in self.rooms.values():
            room.open = False
        await asyncio.gather(*(table.stop() for table in list(self.tables.values())))
