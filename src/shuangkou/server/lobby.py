"""The lobby: rooms loaded from configuration files, tables, matchmaking, restore."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import secrets
from collections.abc import Awaitable, Callable
from functools import partial
from pathlib import Path
from typing import Any

from ..editions import EDITIONS
from ..games import family, load_room
from ..roomfiles import ConfigError
from ..store import Account, Fence, FencedError, Store, StoredGame
from .bots import ExpertPool, default_expert_workers
from .cluster import WAITING_LISTED, Cluster, Redirect
from .connection import Connection
from .inbox import Rejoin, Restore, Resume, SendOn, Sit
from .journal import ActionJournal
from .metrics import METRICS
from .record import TableRecord, restore_game
from .room import LobbyError, Room
from .tables import Services, Table
from .views import RoomSummary

__all__ = ["SHIPPED_ROOMS", "Lobby", "LobbyError"]

log = logging.getLogger("shuangkou.lobby")
SHIPPED_ROOMS = ("points", "wealth", "classic", "qianbian")


@functools.cache
def _shipped_starting_balance(edition: str) -> int:
    """The starting balance of the shipped room of ``edition`` (read once: files are parsed slowly)."""
    return load_room(edition)[1].starting_balance


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
        cluster: Cluster | None = None,
        expert_workers: int | None = None,
    ) -> None:
        self.store = store
        self.cluster = cluster  # a node of a cluster: tables are claimed, the directory kept
        self.run_db = run_db
        self.rooms_dir = rooms_dir
        self.rooms: dict[str, Room] = {}
        self.tables: dict[str, Table] = {}
        self.seated: dict[int, Table] = {}
        self.restoring: set[str] = set()  # tables whose game is being restored here: seats not all filled yet
        self.lock = asyncio.Lock()
        self.accepting = True
        self._background: set[asyncio.Task[None]] = set()
        self._waiting: set[str] = set()  # quick-match tables where players waited at the last heartbeat
        self._idle_bots: list[Account] = []  # bot accounts at no table, for the next bots to sit down
        self.services = Services(
            store=store,
            run_db=run_db,
            journal=ActionJournal(store, run_db, commit_delay),
            bot_delay=bot_delay,
            seed=seed,
            on_seated=self._on_seated,
            on_unseated=self._on_unseated,
            on_bot_free=self._idle_bots.append,
            on_empty=self._on_empty,
            on_lost=self._on_lost,
            fill_with_bots=self._fill_waiting_table,
            experts=ExpertPool(expert_workers or default_expert_workers()),
        )
        self.reload_rooms()

    # -- rooms ------------------------------------------------------------------------

    def _room_files(self) -> dict[str, str]:
        if self.rooms_dir is None:
            return {name: name for name in SHIPPED_ROOMS}
        return {path.stem: str(path) for path in sorted(self.rooms_dir.glob("*.toml"))}

    def reload_rooms(self) -> dict[str, Any]:
        """(Re)load every room file: new rooms open, changed ones apply to new games only,
        removed ones close. An invalid file leaves its room as it was and is reported. A
        room's file names its game (the registry, :func:`~shuangkou.games.load_room`). A
        server that is stopping keeps every room closed."""
        loaded, errors = [], {}
        files = self._room_files()
        for name, source in files.items():
            try:
                game, config = load_room(source)
            except (ConfigError, OSError) as problem:
                errors[name] = str(problem)
                continue
            room = self.rooms.get(name)
            if room is None:
                self.rooms[name] = Room(name, game, config, source, open=self.accepting)
            else:
                room.family, room.config, room.source, room.open = game, config, source, self.accepting
            loaded.append(name)
        for name, room in self.rooms.items():
            if name not in files:
                room.open = False
        if not self.rooms:
            raise LobbyError("no_rooms", f"no valid room configuration: {errors}")
        log.info("rooms loaded", extra={"rooms": loaded, "errors": errors})
        return {"loaded": loaded, "errors": errors}

    def operate(self, command: dict[str, Any]) -> dict[str, Any]:
        """An operator command on the rooms, and its answer: ``{"op": "reload"}`` (see
        :meth:`reload_rooms`) or ``{"op": "close", "room": NAME}`` (see :meth:`close_room`)."""
        if command["op"] == "reload":
            return self.reload_rooms()
        self.close_room(str(command["room"]))
        return {"closed": command["room"]}

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
        counts = [self.local_rooms()]
        if self.cluster is not None:  # and those of the cluster's other live nodes, as of their last heartbeat
            counts += [status.rooms for node, status in self.cluster.nodes.items() if node != self.cluster.node_id]
        players: dict[str, int] = {}
        free: dict[str, int] = {}
        for rooms in counts:
            for name, (seated, waiting) in rooms.items():
                players[name] = players.get(name, 0) + seated
                free[name] = free.get(name, 0) + waiting
        return [room.summary(players.get(name, 0), free.get(name, 0)) for name, room in self.rooms.items()]

    def waiting_tables(self) -> dict[str, list[tuple[str, int]]]:
        """Per room, the tables where players have waited for quick match since the last
        heartbeat at least (the closest to full first), for the other nodes to send players
        to. A table that has just opened is not listed: in a burst of joins it fills within
        moments, and the other nodes would send players to a seat taken long before they
        arrive (each then opening a table there, piling tables onto one node)."""
        waiting: dict[str, list[tuple[str, int]]] = {}
        for table in self.tables.values():
            if table.waiting_for_players() and table.id in self._waiting:
                waiting.setdefault(table.room.name, []).append((table.id, table.free_seats))
        return {room: sorted(tables, key=lambda t: t[1])[:WAITING_LISTED] for room, tables in waiting.items()}

    def local_rooms(self) -> dict[str, tuple[int, int]]:
        """Per room: players seated at this server's tables, and free seats where players wait."""
        counts: dict[str, tuple[int, int]] = {}
        for table in self.tables.values():
            players, free = counts.get(table.room.name, (0, 0))
            counts[table.room.name] = (
                players + len(table.accounts()), free + (table.free_seats if table.waiting_for_players() else 0)
            )
        return counts

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
        opponent: str, seat: int | None = None, redirected: bool = False,
    ) -> Table:
        """Seat the account: at the table ``table_id`` (an invite; in ``seat`` when given, so
        that friends choose partners or opponents), against a bot, or by quick match with
        the next player of the room. A join that follows a cluster's ``redirect`` is
        ``redirected``: it is seated on this node, never sent on again; with a table and a
        room, by quick match in the room when that table can no longer seat the player."""
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
            if table_id is not None and redirected and room_name is not None:
                table = self.tables.get(table_id)
                if table is not None and table.room.name == room_name and table.waiting_for_players():
                    await self._check_entry(account, table.room)
                    with contextlib.suppress(LobbyError):  # filled meanwhile: quick match below
                        return await self._sit(table, account, connection)
                table_id = None
            if table_id is not None:
                table = self.tables.get(table_id)
                if table is None and self.cluster is not None and (url := await self.cluster.table_url(table_id)):
                    raise Redirect(url, table_id)  # an invite to a table of another node
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
                table = await self._new_table(room)
                await self._sit(table, account, connection)
                await self._fill_with_bots(table)
                return table
            if opponent == "invite":
                table = await self._new_table(room)
                table.private = True
                return await self._sit(table, account, connection)
            waiting = min(  # quick match: the table closest to full (two seats: the one waiting player)
                (t for t in self.tables.values() if t.room is room and t.waiting_for_players()),
                key=lambda t: t.free_seats,
                default=None,
            )
            forward = None if redirected else self.cluster  # a redirected join is seated here
            elsewhere = forward.waiting_elsewhere(room.name) if forward is not None else None
            if elsewhere is not None and (waiting is None or elsewhere[0] < waiting.free_seats):
                raise Redirect(elsewhere[1], elsewhere[2], room.name)  # players wait on another node: join them there
            if waiting is not None:
                try:
                    return await self._sit(waiting, account, connection)
                except LobbyError:  # its player left (and the table closed) meanwhile
                    pass
            if forward is not None and (url := forward.placement(len(self.tables))):
                raise Redirect(url, room=room.name)  # the new table opens on the least-loaded node
            return await self._sit(await self._new_table(room), account, connection)

    def send_waiting_on(self) -> None:
        """A cluster's heartbeat: the players who have waited at a quick-match table here
        since the last heartbeat are sent to a table of their room where players wait on a
        node whose id sorts before this one's (seats enough for them): players who joined
        on two nodes at once, each opening a table, end at one table. Players only move
        towards lower ids, so no two nodes swap theirs."""
        cluster = self.cluster
        assert cluster is not None, "a cluster's node"
        waiting = {table.id: table for table in self.tables.values() if table.waiting_for_players()}
        for table_id in sorted(waiting.keys() & self._waiting):
            table = waiting[table_id]
            players = len(table.seats) - table.free_seats
            room = table.room.name
            found = cluster.waiting_elsewhere(room, players, lower_ids=True)
            if found is not None:
                table.tell(SendOn(players, Redirect(found[1], found[2], room).message()))
        self._waiting = set(waiting)

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
        """Bots in the free seats: accounts of bots that left their tables first (topped up
        to the room edition's starting balance, a grant, when they lost), new ones only when
        none is idle, so that joining and leaving creates no accounts."""
        config = table.room.config
        for _ in range(table.free_seats):
            if self._idle_bots:
                bot = self._idle_bots.pop()
                await self.run_db(partial(self._top_up, bot.id, config.edition, config.starting_balance))
            else:
                bot = await self.run_db(lambda: self.store.create_guest("Bot", self.starting_balances(), bot=True))
            await table.ask(Sit(bot, None, table.room.family.table_bot(config)))

    def _top_up(self, account: int, edition: str, starting: int) -> None:
        """Bring a bot's balance back to ``starting`` (a grant) when it is below."""
        balance = self.store.balance(account, edition)
        if balance < starting:
            self.store.grant(account, edition, starting - balance, "bot top-up", "server")

    async def _check_entry(self, account: Account, room: Room) -> None:
        """A player below the room's first level may not sit down in a wealth room (R9.4)."""
        balance = await self.run_db(lambda: self.store.balance(account.id, room.config.edition))
        if not room.config.can_sit(balance):
            needed = room.config.entry_balance
            raise LobbyError("below_entry", f"room {room.name!r} needs a balance of at least {needed} (R9.4)")

    async def _sit(self, table: Table, account: Account, connection: Connection, seat: int | None = None) -> Table:
        await table.ask(Sit(account, connection, seat=seat))  # a LobbyError when there is no (such) seat
        return table

    async def _new_table(self, room: Room, table_id: str | None = None) -> Table:
        """A running table (claimed first, in a cluster)."""
        table = Table(table_id or secrets.token_urlsafe(8), room, self.services)
        if self.cluster is not None:
            node = self.cluster.node_id
            table.fence = await self.run_db(partial(self.store.claim_table, table.id, node))
            self.cluster.table_opened(table.id)
        self.tables[table.id] = table
        table.start()
        return table

    def _on_seated(self, account: int, table: Table) -> None:
        self.seated[account] = table
        if self.cluster is not None:
            self.cluster.seated(account, table.id)

    def _on_unseated(self, account: int, table: Table) -> None:
        if self.seated.get(account) is table:
            del self.seated[account]
            if self.cluster is not None:
                self.cluster.unseated(account)

    def _on_empty(self, table: Table) -> None:
        self._forget(table)
        if table.match is not None:  # the match ends with its table
            self._in_background(partial(self.store.end_match, table.id))
        if self.cluster is not None:
            self.cluster.table_closed(table.id)
            if table.fence is not None:  # forget the claim on the closed table
                self._in_background(partial(self.store.release_table, table.fence))

    def _in_background(self, work: Callable[[], Any]) -> None:
        """Run ``work`` on the database executor, waited for by nobody (but shutdown)."""

        async def run() -> None:
            try:
                await self.run_db(work)
            except Exception:
                log.exception("background database work failed")

        task = asyncio.get_running_loop().create_task(run())
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def _on_lost(self, table: Table) -> None:
        """Another node claimed the table: forget it here, leave the directory to that node."""
        self._forget(table)
        if self.cluster is not None:
            self.cluster.table_lost()

    def _forget(self, table: Table) -> None:
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
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
            if await self._restore(stored, stored.table_id):
                restored += 1
            else:
                voided += 1
        for stored in await self.run_db(self.store.open_matches):
            await self._resume(stored)
        return restored, voided

    async def _resume(self, stored: StoredGame) -> None:
        """Seat the players of a table's match again between hands (after a restart), at the
        table of its last hand; the match is forgotten when its room is gone or closed, its
        table plays a restored game already, or none of its players can sit there."""
        record: TableRecord | None = None
        table_id = stored.table_id
        try:
            record, _ = restore_game(stored)
            table_id = record.table or table_id
            room = self.rooms.get(stored.room)
            resumable = room is not None and room.open and table_id is not None and table_id not in self.tables
            if resumable and record.seats and any(
                seat is not None and not seat.bot and seat.account not in self.seated for seat in record.seats
            ):
                assert room is not None and table_id is not None
                table = await self._new_table(room, table_id)
                if await table.ask(Resume(record)):
                    log.info("match resumed", extra={"table": table.id, "game": stored.game_id})
                    return
        except Exception as problem:  # a match that cannot go on is forgotten: the next hand starts a new one
            log.warning("match not resumed", extra={"game": stored.game_id, "reason": str(problem)})
        if table_id is not None:
            await self.run_db(partial(self.store.end_match, table_id))

    async def adopt(self, game_id: str, table_id: str | None) -> bool:
        """A node of a cluster takes over the unfinished game ``game_id`` of a node that
        died (or of its own id before a restart): claims its table, so that the old
        owner's writes are refused from now on, then reads and restores the game."""
        if table_id is not None and table_id in self.tables:
            return False  # runs here already
        assert self.cluster is not None, "only a cluster's node adopts games"
        stored = await self.run_db(partial(self.store.get_game, game_id))
        if stored is None or stored.status != "running":
            return False
        table_id = table_id or _record_table(stored)
        fence = await self.run_db(partial(self.store.claim_table, table_id, self.cluster.node_id))
        stored = await self.run_db(partial(self.store.get_game, game_id))  # every action before the claim
        if stored is None or stored.status != "running":
            await self.run_db(partial(self.store.release_table, fence))
            return False
        if not await self._restore(stored, fence.table_id, fence):
            return False
        METRICS.tables_taken_over.inc()
        log.info("table taken over", extra={"table": fence.table_id, "game": game_id, "token": fence.token})
        return True

    async def _restore(self, stored: StoredGame, table_id: str | None, fence: Fence | None = None) -> bool:
        """Run a stored running game at a table again; void it when it cannot be (True: restored)."""
        room = self.rooms.get(stored.room)
        table: Table | None = None
        try:
            record, game = restore_game(stored)
            if room is None:
                room = Room(stored.room, family(record.game.config.game), record.game.config, "(removed)", open=False)
            table = Table(table_id or record.table or secrets.token_urlsafe(8), room, self.services, fence=fence)
            self.restoring.add(table.id)  # listed in the directory below, before its seats are filled
            if self.cluster is not None:
                self.cluster.table_opened(table.id)
            self.tables[table.id] = table
            table.start()
            if fence is not None and stored.table_id is None:  # a game of a single server: name its table
                await self.run_db(partial(
                    self.store.save_game, stored.game_id, stored.room, stored.config_json, stored.record_json,
                    "running", table.id, fence,
                ))
            await table.ask(Restore(stored.game_id, record, game))
            METRICS.games_restored.inc()
            return True
        except FencedError:
            return True  # claimed by another node meanwhile: it runs the game
        except Exception as problem:  # anything that stops a replay voids the game
            reason = f"not restorable: {problem}"
            log.warning("game voided", extra={"game": stored.game_id, "reason": reason})
            try:
                await self.run_db(partial(self.store.void_game, stored.game_id, reason, fence))
            except FencedError:
                return True
            METRICS.games_voided.inc()
            if table is not None:
                await table.stop()
                self._on_empty(table)
            return False
        finally:
            if table is not None:
                self.restoring.discard(table.id)

    async def check_fences(self) -> None:
        """After this node's liveness lapsed: stop every table another node has claimed meanwhile."""
        fenced = {table.id: table for table in self.tables.values() if table.fence is not None and not table.lost}
        if not fenced:
            return
        tokens = await self.run_db(partial(self.store.fence_tokens, list(fenced)))
        for table_id, table in fenced.items():
            assert table.fence is not None
            if tokens.get(table_id) != table.fence.token and not table.lost:  # (not lost by a write meanwhile)
                log.warning("table lost", extra={"table": table_id, "reason": "claimed while this node lapsed"})
                METRICS.tables_lost.inc()
                table.lost = True
                await table.stop()

    def stop_seating(self) -> None:
        """Seat nobody and deal no new game from now on (games in progress go on)."""
        self.accepting = False
        for room in self.rooms.values():
            room.open = False

    async def finish_games(self, seconds: float) -> None:
        """Stop seating, then wait up to ``seconds`` for the games in progress to end and be paid."""
        self.stop_seating()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        while any(table.unsettled for table in self.tables.values()) and loop.time() < deadline:
            await asyncio.sleep(0.1)

    async def shutdown(self) -> None:
        """Stop seating, stop every table (running games stay persisted for restore)."""
        self.stop_seating()
        await asyncio.gather(*(table.stop() for table in list(self.tables.values())))
        await self.services.experts.close()


def _record_table(stored: StoredGame) -> str:
    """The table a stored game's record names (games stored before tables were recorded with them)."""
    try:
        record, _ = restore_game(stored)
    except Exception:  # not restorable: the restore voids it under a table of its own
        return secrets.token_urlsafe(8)
    return record.table or secrets.token_urlsafe(8)
