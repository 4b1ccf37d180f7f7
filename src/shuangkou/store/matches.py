"""Matches: what a table carries from one hand to the next (Shuangkou's next leader,
Tractor's levels and dealer), kept so that a table between hands comes back after a restart.

A table's match is its last paid hand (:class:`Matches`): the row is written in the
transaction that pays the hand (:meth:`~shuangkou.store.Store.settle_game` with
``match_table``), and that hand's finished record holds what it carries on and who sat
where. The row goes when the table closes (:meth:`end_match`)."""

from __future__ import annotations

import functools
from typing import Any

from sqlalchemy import bindparam, select

from .checks import check_text
from .database import DriverStatement
from .journal import Journal, StoredGame, _games
from .schema import ID_MAX_LENGTH, games_table, matches_table, utc_now

__all__ = ["Matches"]


class Matches(Journal):
    """The match of each table: :meth:`open_matches`, :meth:`end_match`."""

    def open_matches(self) -> list[StoredGame]:
        """The last hand of every table's match, oldest first (finished games, without their actions)."""
        query = (
            select(games_table)
            .join(matches_table, matches_table.c.game_id == games_table.c.game_id)
            .order_by(matches_table.c.updated_at, matches_table.c.table_id)
        )
        with self._transaction() as conn:
            return _games(conn, query, with_actions=False)

    def end_match(self, table_id: str) -> bool:
        """Forget the match of ``table_id`` (its table closed); True when it had one."""
        delete = matches_table.delete().where(
            matches_table.c.table_id == check_text(table_id, "table_id", ID_MAX_LENGTH)
        )
        with self._transaction(write=True) as conn:
            return bool(conn.execute(delete).rowcount)

    def _keep_match_on(self, cursor: Any, table_id: str, game_id: str) -> None:
        """In the transaction that pays ``game_id``: it is now the last hand of the match of ``table_id``."""
        delete, insert = self._match_statements
        values = {"table_id": check_text(table_id, "table_id", ID_MAX_LENGTH), "game_id": game_id, "now": utc_now()}
        cursor.execute(delete.sql, delete.parameters(values))
        cursor.execute(insert.sql, insert.parameters(values))

    @functools.cached_property
    def _match_statements(self) -> tuple[DriverStatement, DriverStatement]:
        """The match's delete and insert, compiled once."""
        delete = matches_table.delete().where(matches_table.c.table_id == bindparam("table_id"))
        insert = matches_table.insert().values(
            table_id=bindparam("table_id"),
            game_id=bindparam("game_id"),
            updated_at=bindparam("now", type_=matches_table.c.updated_at.type),
        )
        return self.driver_statement(delete), self.driver_statement(insert)
