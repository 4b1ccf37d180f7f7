"""The money's audit (RULES §9): each edition's total and grants, and the check of the invariants.

Sums over many 64-bit balances are computed exactly beyond that range (:func:`_split_sum`).
"""

from __future__ import annotations

from typing import Any, Final

from sqlalchemy import BigInteger, func, literal_column, select

from ..editions import EDITIONS
from .checks import check_edition
from .database import Database
from .schema import balances_table, ledger_table, settlements_table

__all__ = ["Audit"]

_SPLIT: Final = 2**32  # sums of 64-bit columns add quotients and remainders by this (_split_sum)


class Audit(Database):
    """The sums of the money and its invariants: the part of :class:`~shuangkou.store.Store` that audits."""

    def total(self, edition: str) -> int:
        """The sum of every balance of ``edition``, the house's included.

        Settlements are zero-sum, so this changes only by grants: it always equals
        :meth:`granted`.
        """
        query = select(*_split_sum(balances_table.c.balance, "total")).where(
            balances_table.c.edition == check_edition(edition)
        )
        with self._transaction() as conn:
            return _joined(*conn.execute(query).one())

    def granted(self, edition: str) -> int:
        """The sum of every grant of ``edition``: starting balances and operator grants and deductions."""
        query = select(*_split_sum(ledger_table.c.delta, "granted")).where(
            ledger_table.c.edition == check_edition(edition), ledger_table.c.game_id.is_(None)
        )
        with self._transaction() as conn:
            return _joined(*conn.execute(query).one())

    def audit(self) -> list[str]:
        """Check the money invariants; an empty list when they hold, else one line per problem.

        Each balance equals the sum of its ledger rows and its newest row's ``balance_after``;
        each edition's total equals its grants; each settled game sums to zero.
        """
        problems: list[str] = []
        sums = (
            select(
                ledger_table.c.account_id,
                ledger_table.c.edition,
                *_split_sum(ledger_table.c.delta, "total"),
                func.max(ledger_table.c.id).label("last_id"),
            )
            .group_by(ledger_table.c.account_id, ledger_table.c.edition)
            .subquery()
        )
        per_balance = select(
            balances_table.c.account_id,
            balances_table.c.edition,
            balances_table.c.balance,
            func.coalesce(sums.c.total_high, 0).label("total_high"),
            func.coalesce(sums.c.total_low, 0).label("total_low"),
            ledger_table.c.balance_after,
        ).select_from(
            balances_table.outerjoin(
                sums,
                (sums.c.account_id == balances_table.c.account_id)
                & (sums.c.edition == balances_table.c.edition),
            ).outerjoin(ledger_table, ledger_table.c.id == sums.c.last_id)
        )
        per_game = (
            select(
                ledger_table.c.game_id,
                settlements_table.c.house_delta,
                *_split_sum(ledger_table.c.delta, "total"),
            )
            .join(settlements_table, settlements_table.c.game_id == ledger_table.c.game_id)
            .group_by(ledger_table.c.game_id, settlements_table.c.house_delta)
        )
        with self._transaction() as conn:
            for row in conn.execute(per_balance):
                where = f"account {row.account_id} ({row.edition})"
                total = _joined(row.total_high, row.total_low)
                if row.balance != total:
                    problems.append(f"{where}: balance {row.balance} but its ledger sums to {total}")
                if row.balance_after is not None and row.balance != row.balance_after:
                    problems.append(
                        f"{where}: balance {row.balance} but last balance_after {row.balance_after}"
                    )
            for game in conn.execute(per_game):
                total = _joined(game.total_high, game.total_low)
                if total != 0:
                    problems.append(f"game {game.game_id}: ledger rows sum to {total}, not 0")
        for edition in EDITIONS:
            total, granted = self.total(edition), self.granted(edition)
            if total != granted:
                problems.append(f"{edition}: balances sum to {total} but grants to {granted}")
        return problems


def _split_sum(column: Any, label: str) -> tuple[Any, Any]:
    """The exact SUM of a 64-bit column, as two sums that cannot overflow (SQLite's SUM
    raises on overflow): of the quotients and of the remainders by 2**32, both truncated
    toward zero on SQLite and PostgreSQL alike. :func:`_joined` puts them together."""
    split = literal_column(str(_SPLIT), type_=BigInteger)
    return (
        func.coalesce(func.sum(column.op("/")(split)), 0).label(f"{label}_high"),
        func.coalesce(func.sum(column.op("%")(split)), 0).label(f"{label}_low"),
    )


def _joined(high: Any, low: Any) -> int:
    """A sum from the two parts of :func:`_split_sum`."""
    return int(high) * _SPLIT + int(low)
