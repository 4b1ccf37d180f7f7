"""Table fences: which node of a cluster owns a table, checked by the database on every write.

When several servers (nodes) share one PostgreSQL database, each table is run by one node.
A node *claims* a table before it runs it: :meth:`Fences.claim_table` raises the table's
fencing token in ``table_fences`` and names the node. Every write a table makes — a game
dealt, an action appended, a settlement paid, a game finished or voided — carries the
:class:`Fence` it was claimed with, and the store checks it inside the same transaction
(:func:`check_fence`): if another node has claimed the table since, the token differs, the
write raises :class:`FencedError` and nothing of it is stored. The check reads the fence
row ``FOR SHARE``, so a claim (which updates the row) waits for a write under way and the
write after it is refused: a node paused past its lease can never write over the node that
took its tables.

A single server does not claim tables: its writes carry no fence and are not checked.
"""

from __future__ import annotations

import functools
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy import Connection, bindparam, select
from sqlalchemy.dialects import postgresql, sqlite

from .checks import check_text
from .database import Database, DriverStatement, locked_by_key
from .errors import FencedError
from .schema import ID_MAX_LENGTH, games_table, secrets_table, table_fences_table, utc_now

__all__ = ["Fence", "Fences", "RunningGame", "check_fence"]

_FENCE_FOR_SHARE: Final = (
    select(table_fences_table.c.token)
    .where(table_fences_table.c.table_id == bindparam("table_id"))
    .with_for_update(read=True)
)
_FENCES_FOR_SHARE: Final = locked_by_key(  # PostgreSQL: the fences of a batch's tables
    table_fences_table.c.table_id, (table_fences_table.c.table_id, table_fences_table.c.token), "table_ids", read=True
)


@dataclass(frozen=True, slots=True)
class Fence:
    """A node's claim on a table: the table and the fencing token its claim got."""

    table_id: str
    token: int


@dataclass(frozen=True, slots=True)
class RunningGame:
    """A running game, its table and the node whose claim on that table is the latest."""

    game_id: str
    table_id: str | None
    node: str | None


def check_fence(conn: Connection, fence: Fence | None) -> None:
    """Inside a writing transaction: :class:`FencedError` unless ``fence`` is still its
    table's (no fence: a single server, nothing to check)."""
    if fence is None:
        return
    token = conn.execute(_FENCE_FOR_SHARE, {"table_id": fence.table_id}).scalar_one_or_none()
    if token != fence.token:
        raise FencedError(_fenced_message(fence, token))


def refuse_moved(wanted: dict[str, Fence], found: dict[str, int]) -> None:
    """:class:`FencedError` when a table of ``wanted`` (by id) has another token than its
    fence's in ``found`` (the tokens read, by table id), or none."""
    for table_id, fence in wanted.items():
        if found.get(table_id) != fence.token:
            raise FencedError(_fenced_message(fence, found.get(table_id)))


def _fenced_message(fence: Fence, token: int | None) -> str:
    now = "no longer claimed" if token is None else f"claimed again (token {token})"
    return f"table {fence.table_id} was {now}: this node's claim (token {fence.token}) is over"


class Fences(Database):
    """Claims on tables, and the secrets a cluster's nodes share: the part of
    :class:`~shuangkou.store.Store` that lets several servers share a database."""

    @functools.cached_property
    def _fences_statement(self) -> DriverStatement | None:
        """The batch's fence check compiled for PostgreSQL (None elsewhere: one query per table)."""
        return self.driver_statement(_FENCES_FOR_SHARE) if self.dialect == "postgresql" else None

    def _check_fences(self, cursor: Any, fences: Iterable[Fence]) -> None:
        """:func:`check_fence` for the distinct fences of a group commit, on its driver cursor:
        one statement for the whole batch on PostgreSQL, one per table on SQLite."""
        wanted = {fence.table_id: fence for fence in fences}
        if not wanted:
            return
        ids = sorted(wanted)
        found: dict[str, int] = {}
        statement = self._fences_statement
        if statement is not None:
            cursor.execute(statement.sql, statement.parameters({"table_ids": ids}))
            found = {str(table_id): int(token) for table_id, token in cursor.fetchall()}
        else:
            for table_id in ids:
                cursor.execute("SELECT token FROM table_fences WHERE table_id = ?", (table_id,))
                row = cursor.fetchone()
                if row is not None:
                    found[table_id] = int(row[0])
        refuse_moved(wanted, found)

    def claim_table(self, table_id: str, node: str) -> Fence:
        """Claim ``table_id`` for ``node``: its fencing token is raised (1 for a new table),
        so every write under an earlier claim is refused from now on."""
        table_id = check_text(table_id, "table_id", ID_MAX_LENGTH)
        node = check_text(node, "node", ID_MAX_LENGTH)
        now = utc_now()
        fences = table_fences_table
        insert = (postgresql.insert if self.dialect == "postgresql" else sqlite.insert)(fences)
        upsert = (
            insert.values(table_id=table_id, token=1, node=node, updated_at=now)
            .on_conflict_do_update(
                index_elements=[fences.c.table_id],
                set_={"token": fences.c.token + 1, "node": node, "updated_at": now},
            )
            .returning(fences.c.token)
        )
        with self._transaction(write=True) as conn:
            token = conn.execute(upsert).scalar_one()
        return Fence(table_id, int(token))

    def release_table(self, fence: Fence) -> bool:
        """Forget a closed table's claim, unless another node has claimed it since; True when released."""
        delete = table_fences_table.delete().where(
            table_fences_table.c.table_id == fence.table_id, table_fences_table.c.token == fence.token
        )
        with self._transaction(write=True) as conn:
            return bool(conn.execute(delete).rowcount)

    def fence_tokens(self, table_ids: Iterable[str]) -> dict[str, int]:
        """The current fencing token of each of ``table_ids`` that is claimed."""
        query = select(table_fences_table.c.table_id, table_fences_table.c.token).where(
            table_fences_table.c.table_id.in_(list(table_ids))
        )
        with self._transaction() as conn:
            return {str(row.table_id): int(row.token) for row in conn.execute(query)}

    def running_game_at(self, table_id: str) -> str | None:
        """The running game at ``table_id``, if any."""
        query = select(games_table.c.game_id).where(
            games_table.c.table_id == table_id, games_table.c.status == "running"
        )
        with self._transaction() as conn:
            found = conn.execute(query).first()
        return None if found is None else str(found.game_id)

    def running_game_owners(self, nodes: Iterable[str] | None = None) -> list[RunningGame]:
        """Every running game with its table and that table's node (oldest first); only the
        games at tables of ``nodes`` when given."""
        fences = table_fences_table
        query = (
            select(games_table.c.game_id, games_table.c.table_id, fences.c.node)
            .select_from(games_table.outerjoin(fences, fences.c.table_id == games_table.c.table_id))
            .where(games_table.c.status == "running")
            .order_by(games_table.c.created_at, games_table.c.game_id)
        )
        if nodes is not None:
            query = query.where(fences.c.node.in_(list(nodes)))
        with self._transaction() as conn:
            return [RunningGame(str(row.game_id), row.table_id, row.node) for row in conn.execute(query)]

    def shared_secret(self, name: str) -> str:
        """The secret called ``name``, made (random) by the first node that asks for it."""
        name = check_text(name, "name", ID_MAX_LENGTH)
        insert = (postgresql.insert if self.dialect == "postgresql" else sqlite.insert)(secrets_table)
        with self._transaction(write=True) as conn:
            conn.execute(insert.values(name=name, value=secrets.token_urlsafe(32)).on_conflict_do_nothing())
            return str(conn.execute(select(secrets_table.c.value).where(secrets_table.c.name == name)).scalar_one())
