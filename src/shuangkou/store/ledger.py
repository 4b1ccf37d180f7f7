"""Balances and the ledger (RULES §9): reading balances, changing one, operators' grants.

Every change of a balance is one atomic statement and one ledger row holding the change
and the balance after it. Balances are 64-bit integers in the database; every change is
checked to stay in that range.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from sqlalchemy import BigInteger, Row, bindparam, select

from ..editions import MAX_AMOUNT
from .checks import check_edition, check_int, check_page, check_text
from .database import Database, DriverStatement
from .errors import BalanceFloorError, BalanceRangeError, InvalidValueError, UnknownAccountError
from .schema import OPERATOR_MAX_LENGTH, REASON_MAX_LENGTH, balances_table, ledger_table, utc, utc_now

__all__ = ["Ledger", "LedgerEntry"]

_INT64_MIN: Final = -(2**63)
_INT64_MAX: Final = 2**63 - 1
_BALANCE_OF: Final = (balances_table.c.account_id == bindparam("account_id")) & (
    balances_table.c.edition == bindparam("edition")
)
_BALANCE: Final = select(balances_table.c.balance).where(_BALANCE_OF)
# The same, the row locked until the transaction ends (PostgreSQL; SQLite's writing
# transaction holds the whole database already, and SQLAlchemy renders no FOR UPDATE there).
_LOCKED_BALANCE: Final = _BALANCE.with_for_update()
# A balance changed in one atomic statement, the change refused unless the balance is at
# most (or at least) ``limit`` before it (_balance_limit); the new balance returned.
_CHANGE_BALANCE: Final = {
    at_most: balances_table.update()
    .where(
        _BALANCE_OF,
        balances_table.c.balance <= bindparam("limit", type_=BigInteger)
        if at_most
        else balances_table.c.balance >= bindparam("limit", type_=BigInteger),
    )
    .values(balance=balances_table.c.balance + bindparam("delta", type_=BigInteger))
    .returning(balances_table.c.balance)
    for at_most in (True, False)
}
_LEDGER_COLUMNS: Final = (
    "account_id", "edition", "delta", "balance_after", "reason", "operator", "game_id", "seat", "created_at",
)
_INSERT_LEDGER_ROW: Final = (
    ledger_table.insert().values({key: bindparam(key) for key in _LEDGER_COLUMNS}).returning(ledger_table.c.id)
)


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """One balance change: a grant (``game_id is None``) or one account's part of a settlement."""

    id: int
    account_id: int
    edition: str
    delta: int
    balance_after: int
    reason: str
    operator: str | None
    game_id: str | None
    seat: int | None
    created_at: datetime

    def to_dict(self) -> dict[str, object]:
        """JSON form, as the operator API and ``shuangkou replay`` print it."""
        return {
            "id": self.id,
            "account": self.account_id,
            "edition": self.edition,
            "delta": self.delta,
            "balance_after": self.balance_after,
            "reason": self.reason,
            "operator": self.operator,
            "game": self.game_id,
            "seat": self.seat,
            "created_at": self.created_at.isoformat(),
        }


class Ledger(Database):
    """Balances and their ledger: the part of :class:`~shuangkou.store.Store` that changes a balance."""

    @functools.cached_property
    def _balance_statement(self) -> DriverStatement:
        """The query of :meth:`balance`, compiled once (the server reads balances at every game's start and end)."""
        return self.driver_statement(_BALANCE)

    @functools.cached_property
    def _ledger_statements(self) -> _LedgerStatements:
        """The statements that lock and change balances and write ledger rows, compiled once
        (the server settles every game)."""
        return _LedgerStatements(
            locked_balance=self.driver_statement(_LOCKED_BALANCE),
            insert_ledger_row=self.driver_statement(_INSERT_LEDGER_ROW),
            change_balance={at_most: self.driver_statement(update) for at_most, update in _CHANGE_BALANCE.items()},
        )

    def balance(self, account_id: int, edition: str) -> int:
        """The balance of one account in one edition (:class:`UnknownAccountError` if none)."""
        return self.balances([account_id], edition)[account_id]

    def balances(self, account_ids: Iterable[int], edition: str) -> dict[int, int]:
        """The balances of accounts in one edition, read together in one transaction (a
        table reads its seats' at a game's end); :class:`UnknownAccountError` if one has none."""
        accounts = [check_int(account_id, "account id") for account_id in account_ids]
        edition = check_edition(edition)
        with self._driver_transaction(write=False) as cursor:
            return self._balances(cursor, accounts, edition)

    def _balances(
        self, cursor: Any, accounts: Iterable[int], edition: str, lock: bool = False
    ) -> dict[int, int]:
        """The balances of ``accounts`` in ``edition``, on a transaction's cursor; with
        ``lock``, each row locked until the transaction ends, so that nothing else changes
        it before the transaction writes (read them in a fixed order: two transactions
        locking the same rows then cannot deadlock)."""
        statement = self._ledger_statements.locked_balance if lock else self._balance_statement
        found: dict[int, int] = {}
        for account_id in accounts:
            cursor.execute(statement.sql, statement.parameters({"account_id": account_id, "edition": edition}))
            row = cursor.fetchone()
            if row is None:
                raise UnknownAccountError(f"account {account_id} has no {edition} balance")
            found[account_id] = int(row[0])
        return found

    def grant(
        self,
        account_id: int,
        edition: str,
        delta: int,
        reason: str,
        operator: str,
        allow_negative: bool = False,
    ) -> LedgerEntry:
        """An operator's grant (``delta > 0``) or deduction (``delta < 0``), as one ledger row.

        A deduction never takes the balance below the floor: 0, unless ``allow_negative``
        (R9.5); it raises :class:`BalanceFloorError` and changes nothing instead. A grant
        moves at most :data:`~shuangkou.editions.MAX_AMOUNT` and never takes a balance beyond
        ±MAX_AMOUNT (:class:`BalanceRangeError`), so that every game's settlement fits the
        ledger's 64-bit balances (games may carry a balance further, one bounded game at a time).
        """
        edition = check_edition(edition)
        if check_int(delta, "delta") == 0:
            raise InvalidValueError("a grant must change the balance (delta 0)")
        if abs(delta) > MAX_AMOUNT:
            raise InvalidValueError(f"a grant moves at most {MAX_AMOUNT}, not {delta}")
        reason = check_text(reason, "reason", REASON_MAX_LENGTH)
        operator = check_text(operator, "operator", OPERATOR_MAX_LENGTH)
        now = utc_now()
        with self._driver_transaction() as cursor:
            after = self._change_balance(cursor, account_id, edition, delta, allow_negative)
            if abs(after) > MAX_AMOUNT:
                raise BalanceRangeError(
                    f"account {account_id} would have {after} {edition}; a grant may not take a balance "
                    f"beyond ±{MAX_AMOUNT}"
                )
            entry_id = self._insert_ledger_row(
                cursor, _ledger_row(account_id, edition, delta, after, reason, operator, None, None, now)
            )
        return LedgerEntry(
            int(entry_id), account_id, edition, delta, after, reason, operator, None, None, now
        )

    def ledger(
        self,
        account_id: int | None = None,
        game_id: str | None = None,
        limit: int = 100,
        offset: int = 0,
    ) -> list[LedgerEntry]:
        """Ledger rows, newest first, of one account and/or one game (all rows when neither)."""
        check_page(limit, offset)
        query = select(ledger_table).order_by(ledger_table.c.id.desc()).limit(limit).offset(offset)
        if account_id is not None:
            query = query.where(ledger_table.c.account_id == account_id)
        if game_id is not None:
            query = query.where(ledger_table.c.game_id == game_id)
        with self._transaction() as conn:
            rows = conn.execute(query).all()
        return [_ledger_entry(row) for row in rows]

    def _insert_ledger_row(self, cursor: Any, row: Mapping[str, Any]) -> int:
        """Insert a ledger row on the driver's cursor; its id."""
        statement = self._ledger_statements.insert_ledger_row
        cursor.execute(statement.sql, statement.parameters(row))
        return int(cursor.fetchone()[0])

    def _change_balance(
        self, cursor: Any, account_id: int, edition: str, delta: int, allow_negative: bool
    ) -> int:
        """Add ``delta`` to a balance in one atomic statement and return the new balance.

        The conditions are written so that nothing overflows while they are checked: SQLite
        would turn an overflowing sum into a float, PostgreSQL would raise."""
        if not _INT64_MIN <= delta <= _INT64_MAX:
            raise BalanceRangeError(f"a change of {delta} is outside the 64-bit range of balances")
        if delta > 0:
            at_most, limit = True, _INT64_MAX - delta
        elif not allow_negative:
            at_most, limit = False, -delta  # the floor, 0 (R9.5)
        else:
            at_most, limit = False, _INT64_MIN - delta
        update = self._ledger_statements.change_balance[at_most]
        values = {"account_id": account_id, "edition": edition, "delta": delta, "limit": limit}
        cursor.execute(update.sql, update.parameters(values))
        found = cursor.fetchone()
        if found is not None:
            return int(found[0])
        balance = self._balance_statement
        cursor.execute(balance.sql, balance.parameters(values))
        found = cursor.fetchone()
        if found is None:
            raise UnknownAccountError(f"account {account_id} has no {edition} balance")
        before = int(found[0])
        if delta < 0 and not allow_negative and before + delta < 0:
            raise BalanceFloorError(
                f"account {account_id} has {before} {edition}; a change of {delta} would take it below 0"
            )
        raise BalanceRangeError(
            f"account {account_id} has {before} {edition}; a change of {delta} would leave the 64-bit range"
        )


@dataclass(frozen=True, slots=True)
class _LedgerStatements:
    """The statements :meth:`Ledger.grant` and the settlements run on the driver's cursor."""

    locked_balance: DriverStatement
    insert_ledger_row: DriverStatement
    change_balance: Mapping[bool, DriverStatement]  # True: the balance at most the limit before


def _ledger_row(
    account_id: int,
    edition: str,
    delta: int,
    after: int,
    reason: str,
    operator: str | None,
    game_id: str | None,
    seat: int | None,
    now: datetime,
) -> dict[str, Any]:
    return {
        "account_id": account_id,
        "edition": edition,
        "delta": delta,
        "balance_after": after,
        "reason": reason,
        "operator": operator,
        "game_id": game_id,
        "seat": seat,
        "created_at": now,
    }


def _ledger_entry(row: Row[Any]) -> LedgerEntry:
    return LedgerEntry(
        id=int(row.id),
        account_id=int(row.account_id),
        edition=row.edition,
        delta=int(row.delta),
        balance_after=int(row.balance_after),
        reason=row.reason,
        operator=row.operator,
        game_id=row.game_id,
        seat=row.seat,
        created_at=utc(row.created_at),
    )
