"""The game journal: each game's configuration, every action before it is acknowledged, and its end.

After a crash the server restores every running game from its actions (:meth:`Journal.running_games`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Final, Literal

from sqlalchemy import Connection, bindparam, exists, literal_column, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError

from .checks import check_choice, check_int, check_json, check_page, check_text
from .database import DriverStatement, locked_by_key
from .errors import DuplicateActionError, GameStateError, InvalidValueError, StoreError, UnknownGameError
from .fences import Fence, Fences, check_fence, refuse_moved
from .schema import ID_MAX_LENGTH, game_actions_table, games_table, ledger_table, utc, utc_now

__all__ = ["GAME_STATUSES", "GameAction", "Journal", "StoredGame"]

GAME_STATUSES: Final = ("running", "finished", "void")
"""The states of a stored game: running until finished (settled) or void (abandoned)."""

_VOID_REASON_MAX_LENGTH: Final = 10_000

# The statements of append_action, built once: the server appends an action for every move,
# and building a statement anew costs more than running it.
_GAME_STATUS_FOR_UPDATE: Final = (
    select(games_table.c.status).where(games_table.c.game_id == bindparam("game_id")).with_for_update()
)
_INSERT_ACTION: Final = game_actions_table.insert()
_GAMES_STATUS_FOR_UPDATE: Final = locked_by_key(  # PostgreSQL: the status of every game of a batch, locked
    games_table.c.game_id, (games_table.c.game_id, games_table.c.status), "game_ids", read=False
)
_GAME_STATUS: Final = select(games_table.c.status).where(games_table.c.game_id == bindparam("game_id"))
_ACTION_COLUMNS: Final = ("game_id", "seq", "action_json", "created_at")
_INSERT_ACTION_IF_RUNNING: Final = game_actions_table.insert().from_select(  # SQLite: no row for a game not running
    _ACTION_COLUMNS,
    select(*[bindparam(name, type_=game_actions_table.c[name].type) for name in _ACTION_COLUMNS]).where(
        exists().where(
            games_table.c.game_id == bindparam("game_id"), games_table.c.status == literal_column("'running'")
        )
    ),
)


@dataclass(frozen=True, slots=True)
class GameAction:
    """One action of a game, stored before the server acknowledged it."""

    seq: int
    action_json: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class StoredGame:
    """A stored game. ``actions`` is filled by :meth:`Journal.get_game` and :meth:`Journal.running_games`."""

    game_id: str
    room: str
    status: Literal["running", "finished", "void"]
    config_json: str
    record_json: str | None
    settlement_json: str | None
    void_reason: str | None
    created_at: datetime
    updated_at: datetime
    actions: tuple[GameAction, ...] = field(default=())
    table_id: str | None = None  # the table it is played at (None: stored before tables were named)


class Journal(Fences):
    """The stored games: the part of :class:`~shuangkou.store.Store` that a crash must not lose.

    Every write takes an optional :class:`~shuangkou.store.fences.Fence`: the claim of the
    node that runs the game's table, checked in the same transaction (a cluster's nodes
    pass one, a single server none)."""

    def save_game(
        self,
        game_id: str,
        room: str,
        config_json: str,
        record_json: str | None = None,
        status: str = "running",
        table_id: str | None = None,
        fence: Fence | None = None,
    ) -> None:
        """Create or update a game; a finished or void game can no longer be saved (:class:`GameStateError`).

        The server saves a game when it starts (status ``"running"``) and may save its record
        again while it runs; :meth:`finish_game` and :meth:`void_game` end it. ``table_id``
        names the table it is played at.
        """
        game_id = check_text(game_id, "game_id", ID_MAX_LENGTH)
        room = check_text(room, "room", ID_MAX_LENGTH)
        config_json = check_json(config_json, "config_json")
        if record_json is not None:
            record_json = check_json(record_json, "record_json")
        status = check_choice(status, "game status", GAME_STATUSES)
        if table_id is not None:
            table_id = check_text(table_id, "table_id", ID_MAX_LENGTH)
        values: dict[str, Any] = {
            "game_id": game_id, "room": room, "config_json": config_json, "record_json": record_json,
            "status": status, "table_id": table_id, "now": utc_now(), "running": "running",
        }
        upsert, status_of = self._save_statements
        with self._driver_transaction() as cursor:
            self._check_fences(cursor, [fence] if fence is not None else [])
            cursor.execute(upsert.sql, upsert.parameters(values))
            if not cursor.fetchall():  # the row exists and is not running
                cursor.execute(status_of.sql, status_of.parameters(values))
                raise GameStateError(f"game {game_id} is {cursor.fetchone()[0]}; it can no longer be saved")

    @functools.cached_property
    def _save_statements(self) -> tuple[DriverStatement, DriverStatement]:
        """The upsert of :meth:`save_game` (the server saves every game it starts) and the
        status query, compiled once."""
        insert = (postgresql.insert if self.dialect == "postgresql" else sqlite.insert)(games_table)
        now = bindparam("now", type_=games_table.c.updated_at.type)
        values: dict[str, Any] = {
            key: bindparam(key) for key in ("room", "config_json", "record_json", "status", "table_id")
        }
        upsert = (
            insert.values(game_id=bindparam("game_id"), created_at=now, updated_at=now, **values)
            .on_conflict_do_update(
                index_elements=[games_table.c.game_id],
                set_={**values, "updated_at": now},
                where=games_table.c.status == bindparam("running"),
            )
            .returning(games_table.c.game_id)
        )
        return self.driver_statement(upsert), self.driver_statement(_GAME_STATUS)

    @functools.cached_property
    def _insert_action(self) -> DriverStatement:
        """The insert of :meth:`_append_pipelined`, compiled once."""
        return self.driver_statement(_INSERT_ACTION)

    @functools.cached_property
    def _insert_if_running(self) -> tuple[DriverStatement, Callable[[Sequence[Any]], tuple[Any, ...]]]:
        """SQLite: the insert of :meth:`append_actions` that stores an action only when its
        game is running, compiled once, and its parameters from a row of ``_ACTION_COLUMNS``."""
        insert = self.driver_statement(_INSERT_ACTION_IF_RUNNING)
        return insert, insert.row_parameters(_ACTION_COLUMNS)

    def append_action(self, game_id: str, seq: int, action_json: str, fence: Fence | None = None) -> None:
        """Store action number ``seq`` of a running game (before the server acknowledges it).

        A second action with the same ``seq`` raises :class:`DuplicateActionError`; an unknown
        game :class:`UnknownGameError`; a game that is not running :class:`GameStateError`;
        a fence that is no longer the table's :class:`~shuangkou.store.FencedError`.
        """
        row = _action_row(_checked_action(game_id, seq, action_json), utc_now())
        with self._transaction(write=True) as conn:
            check_fence(conn, fence)
            status = conn.execute(_GAME_STATUS_FOR_UPDATE, {"game_id": game_id}).scalar_one_or_none()
            if status is None:
                raise UnknownGameError(f"no game {game_id!r}")
            if status != "running":
                raise GameStateError(f"game {game_id} is {status}; no more actions")
            try:
                conn.execute(_INSERT_ACTION, row)
            except IntegrityError:
                raise DuplicateActionError(f"game {game_id} already has action {seq}") from None

    def append_actions(
        self, actions: Sequence[tuple[str, int, str]], fences: Sequence[Fence | None] | None = None
    ) -> list[StoreError | None]:
        """Store several ``(game_id, seq, action_json)`` actions, of any games, with one commit
        (a group commit): for each, in order, None when it was stored, else the error
        :meth:`append_action` raises for it. ``fences``, when given, holds each action's fence.

        When every action can be stored they are written in one transaction (the fences of
        its tables checked by one statement); otherwise each is stored on its own, so a bad
        action never holds back the others. Errors of the database itself (it is
        unreachable, say) raise.
        """
        if not actions:
            return []
        each_fence = list(fences) if fences is not None else [None] * len(actions)
        try:
            checked = [_checked_action(*action) for action in actions]
            now = utc_now()
            with self._driver_transaction() as cursor:
                if self.dialect == "postgresql":
                    rows = [_action_row(action, now) for action in checked]
                    self._append_pipelined(cursor, rows, [fence for fence in each_fence if fence is not None])
                    return [None] * len(rows)
                self._check_fences(cursor, (fence for fence in each_fence if fence is not None))
                # One statement for the batch: each row is inserted only if its game is running
                # (SQLite's write lock, taken at BEGIN IMMEDIATE, holds the games' status).
                insert, parameters = self._insert_if_running
                stamp = insert.convert("created_at", now)
                cursor.executemany(insert.sql, [parameters((*action, stamp)) for action in checked])
                if cursor.rowcount == len(checked):
                    return [None] * len(checked)
                raise GameStateError("a game of the batch is not running")  # rolled back: one by one below
        except (StoreError, IntegrityError):
            pass  # one by one below: each action gets its own answer
        outcomes: list[StoreError | None] = []
        for action, fence in zip(actions, each_fence, strict=True):
            try:
                self.append_action(*action, fence=fence)
                outcomes.append(None)
            except StoreError as error:
                outcomes.append(error)
        return outcomes

    def _append_pipelined(self, cursor: Any, rows: list[dict[str, Any]], fences: list[Fence]) -> None:
        """PostgreSQL: write a batch's ``rows`` in one round trip before the commit: the fence
        check, the status of its games (locked) and the inserts are sent together (psycopg's
        pipeline mode), then checked; :class:`FencedError` or :class:`GameStateError` when
        the batch may not be stored as a whole (the transaction is rolled back)."""
        connection = cursor.connection
        wanted = {fence.table_id: fence for fence in fences}
        games = sorted({row["game_id"] for row in rows})
        checks = self._pipelined_checks
        with connection.pipeline(), connection.cursor() as fenced, connection.cursor() as statuses:
            if wanted:
                fenced.execute(checks[0].sql, checks[0].parameters({"table_ids": sorted(wanted)}))
            statuses.execute(checks[1].sql, checks[1].parameters({"game_ids": games}))
            insert = self._insert_action
            cursor.executemany(insert.sql, [insert.parameters(row) for row in rows])
            found = {str(table_id): int(token) for table_id, token in fenced.fetchall()} if wanted else {}
            running = {str(game) for game, status in statuses.fetchall() if status == "running"}
        refuse_moved(wanted, found)
        if running != set(games):
            raise GameStateError(f"a game of the batch is not running: {sorted(set(games) - running)}")

    @functools.cached_property
    def _pipelined_checks(self) -> tuple[DriverStatement, DriverStatement]:
        """The fence check and the games' status of :meth:`_append_pipelined`, compiled once."""
        fences = self._fences_statement
        assert fences is not None, "PostgreSQL only"
        return fences, self.driver_statement(_GAMES_STATUS_FOR_UPDATE)

    def finish_game(self, game_id: str, record_json: str, settlement_json: str, fence: Fence | None = None) -> bool:
        """Mark a running game finished with its record and settlement breakdown (R9.6).

        Returns False, changing nothing, when the game is already finished (a retry);
        raises :class:`GameStateError` for a void game and :class:`UnknownGameError` for none.
        """
        return self._end_game(game_id, "finished", _finished(record_json, settlement_json), fence)

    def void_game(self, game_id: str, reason: str, fence: Fence | None = None) -> bool:
        """Mark a running game void (abandoned, never settled), keeping ``reason``.

        Returns False, changing nothing, when it is already void; raises
        :class:`GameStateError` for a finished game and :class:`UnknownGameError` for none.
        """
        reason = check_text(reason, "reason", _VOID_REASON_MAX_LENGTH)
        return self._end_game(game_id, "void", {"void_reason": reason}, fence)

    def _end_game(self, game_id: str, status: str, values: dict[str, str], fence: Fence | None) -> bool:
        with self._driver_transaction() as cursor:
            self._check_fences(cursor, [fence] if fence is not None else [])
            return self._end_game_on(cursor, game_id, status, values)

    def _end_game_on(self, cursor: Any, game_id: str, status: str, values: dict[str, str]) -> bool:
        """:meth:`_end_game` inside a writing transaction whose fences are checked (an error
        raised here rolls it back whole)."""
        update, status_of = self._end_statements(tuple(values))
        parameters = {"game_id": game_id, "running": "running", "status": status, "now": utc_now(), **values}
        cursor.execute(update.sql, update.parameters(parameters))
        if cursor.rowcount == 1:
            return True
        cursor.execute(status_of.sql, status_of.parameters(parameters))
        found = cursor.fetchone()
        if found is None:
            raise UnknownGameError(f"no game {game_id!r}")
        if found[0] == status:
            return False
        raise GameStateError(f"game {game_id} is {found[0]}; it cannot become {status}")

    def _end_statements(self, keys: tuple[str, ...]) -> tuple[DriverStatement, DriverStatement]:
        """The update of :meth:`_end_game` setting the columns ``keys`` besides the status,
        and the status query, compiled once each (the server ends every game it starts)."""
        statements = self._end_statement_cache.get(keys)
        if statements is None:
            update = (
                games_table.update()
                .where(games_table.c.game_id == bindparam("game_id"), games_table.c.status == bindparam("running"))
                .values(
                    status=bindparam("status"),
                    updated_at=bindparam("now", type_=games_table.c.updated_at.type),
                    **{key: bindparam(key) for key in keys},
                )
            )
            statements = (self.driver_statement(update), self.driver_statement(_GAME_STATUS))
            self._end_statement_cache[keys] = statements
        return statements

    @functools.cached_property
    def _end_statement_cache(self) -> dict[tuple[str, ...], tuple[DriverStatement, DriverStatement]]:
        return {}

    def get_game(self, game_id: str) -> StoredGame | None:
        """The game with this id and its actions in order, or ``None``."""
        with self._transaction() as conn:
            found = _games(
                conn, select(games_table).where(games_table.c.game_id == game_id), with_actions=True
            )
        return found[0] if found else None

    def game_ids_starting(self, prefix: str, limit: int = 2, account_id: int | None = None) -> list[str]:
        """Up to ``limit`` ids of games whose id starts with ``prefix``, in id order; with
        ``account_id``, only the settled games that account played (its ledger rows)."""
        check_page(limit, 0)
        query = (
            select(games_table.c.game_id)
            .where(games_table.c.game_id.startswith(check_text(prefix, "prefix", ID_MAX_LENGTH), autoescape=True))
            .order_by(games_table.c.game_id)
            .limit(limit)
        )
        if account_id is not None:
            played = select(ledger_table.c.game_id).where(ledger_table.c.account_id == check_int(account_id, "account"))
            query = query.where(games_table.c.game_id.in_(played))
        with self._transaction() as conn:
            return [str(game_id) for game_id in conn.execute(query).scalars()]

    def list_games(self, limit: int = 100, offset: int = 0, status: str | None = None) -> list[StoredGame]:
        """Games, newest first, optionally of one status; without their actions."""
        check_page(limit, offset)
        query = (
            select(games_table)
            .order_by(games_table.c.created_at.desc(), games_table.c.game_id.desc())
            .limit(limit)
            .offset(offset)
        )
        if status is not None:
            query = query.where(games_table.c.status == check_choice(status, "game status", GAME_STATUSES))
        with self._transaction() as conn:
            return _games(conn, query, with_actions=False)

    def running_games(self) -> list[StoredGame]:
        """Every running game, oldest first, with its actions in order: what to restore after a crash."""
        query = (
            select(games_table)
            .where(games_table.c.status == "running")
            .order_by(games_table.c.created_at, games_table.c.game_id)
        )
        with self._transaction() as conn:
            return _games(conn, query, with_actions=True)


def _finished(record_json: str, settlement_json: str) -> dict[str, str]:
    """The checked columns a finished game gets (:meth:`Journal.finish_game`)."""
    return {
        "record_json": check_json(record_json, "record_json"),
        "settlement_json": check_json(settlement_json, "settlement_json"),
    }


def _checked_action(game_id: str, seq: int, action_json: str) -> tuple[str, int, str]:
    """A game action's checked values."""
    game_id = check_text(game_id, "game_id", ID_MAX_LENGTH)
    if check_int(seq, "seq") < 0:
        raise InvalidValueError("seq must not be negative")
    return game_id, seq, check_json(action_json, "action_json")


def _action_row(action: tuple[str, int, str], created_at: datetime) -> dict[str, Any]:
    """The row of a checked action (by column)."""
    return dict(zip(_ACTION_COLUMNS, (*action, created_at), strict=True))


def _games(conn: Connection, query: Any, with_actions: bool) -> list[StoredGame]:
    rows = conn.execute(query).all()
    actions: dict[str, list[GameAction]] = {str(row.game_id): [] for row in rows}
    if with_actions and rows:
        action_rows = conn.execute(
            select(game_actions_table)
            .where(game_actions_table.c.game_id.in_(list(actions)))
            .order_by(game_actions_table.c.game_id, game_actions_table.c.seq)
        )
        for a in action_rows:
            actions[a.game_id].append(GameAction(int(a.seq), a.action_json, utc(a.created_at)))
    return [
        StoredGame(
            game_id=row.game_id,
            room=row.room,
            status=row.status,
            config_json=row.config_json,
            record_json=row.record_json,
            settlement_json=row.settlement_json,
            void_reason=row.void_reason,
            created_at=utc(row.created_at),
            updated_at=utc(row.updated_at),
            actions=tuple(actions[row.game_id]),
            table_id=row.table_id,
        )
        for row in rows
    ]

