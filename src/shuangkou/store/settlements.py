"""Settlements (RULES §9): a game's payment, every balance change and its ledger row at once, at most once."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy import bindparam, select
from sqlalchemy.exc import IntegrityError

from .accounts import Accounts
from .checks import check_edition, check_int, check_text
from .database import DriverStatement
from .errors import InvalidValueError, ZeroSumError
from .fences import Fence, Fences
from .ledger import Ledger, _ledger_row
from .schema import ID_MAX_LENGTH, REASON_MAX_LENGTH, ledger_table, settlements_table, utc_now

__all__ = ["Payout", "Settlements"]

_PAID_ROWS: Final = select(ledger_table.c.account_id, ledger_table.c.delta, ledger_table.c.balance_after).where(
    ledger_table.c.game_id == bindparam("game_id")
)
_SETTLEMENT_COLUMNS: Final = ("game_id", "edition", "house_delta", "reason", "created_at")
_INSERT_SETTLEMENT: Final = settlements_table.insert().values({key: bindparam(key) for key in _SETTLEMENT_COLUMNS})
_SETTLED: Final = select(settlements_table.c.game_id).where(settlements_table.c.game_id == bindparam("game_id"))


@dataclass(frozen=True, slots=True)
class Payout:
    """What a game pays, as its settlement computed it from the seats' balances
    (:meth:`~shuangkou.store.Store.settle_game`): a change per seat, the house's, and the
    breakdown stored with the game (R9.6)."""

    deltas: tuple[int, ...]
    house: int
    breakdown_json: str


class Settlements(Accounts, Ledger, Fences):
    """Games' payments: the part of :class:`~shuangkou.store.Store` that pays a game, under its table's fence."""

    def apply_settlement(
        self,
        game_id: str,
        edition: str,
        deltas: Mapping[int, int],
        house_delta: int,
        allow_negative: bool,
        reason: str,
        seats: Mapping[int, int] | None = None,
        fence: Fence | None = None,
    ) -> bool:
        """Pay a game: every balance change and its ledger row in one transaction (R9.9).

        ``deltas`` maps account ids to their change, ``house_delta`` is the house's
        (fees, escape remainder: R9.7, R10.3); they must sum to zero (:class:`ZeroSumError`).
        ``seats`` optionally maps account ids to their seat, recorded in the ledger.
        Unless ``allow_negative``, no balance may end below 0 (:class:`BalanceFloorError`;
        the caller caps payments beforehand as R9.5 says). ``fence``: the claim of the node
        that runs the game's table, checked in the same transaction (:class:`FencedError`).
        On any error nothing changes.

        Returns True when the game was paid now, False when it had been paid already (by an
        earlier or a concurrent call): then nothing changes, whatever the arguments.
        """
        payment = self._payment(game_id, edition, deltas, house_delta, allow_negative, reason, seats)
        try:
            with self._driver_transaction() as cursor:
                self._check_fences(cursor, [fence] if fence is not None else [])
                if self._settled(cursor, payment.game_id):
                    return False
                self._pay(cursor, payment)
                return True
        except IntegrityError:
            # A concurrent call inserted the same settlement first and has committed.
            if self.is_settled(payment.game_id):
                return False
            raise

    def _payment(
        self,
        game_id: str,
        edition: str,
        deltas: Mapping[int, int],
        house_delta: int,
        allow_negative: bool,
        reason: str,
        seats: Mapping[int, int] | None,
    ) -> _Payment:
        """The arguments of :meth:`apply_settlement`, checked (nothing written yet)."""
        game_id = check_text(game_id, "game_id", ID_MAX_LENGTH)
        edition = check_edition(edition)
        reason = check_text(reason, "reason", REASON_MAX_LENGTH)
        house = self._houses[edition]
        if not deltas:
            raise InvalidValueError("a settlement needs at least one account")
        changes: dict[int, int] = {}
        for account_id, delta in deltas.items():
            if check_int(account_id, "account id") == house:
                raise InvalidValueError("the house takes part through house_delta, not deltas")
            changes[account_id] = check_int(delta, f"delta of account {account_id}")
        if check_int(house_delta, "house_delta"):
            changes[house] = house_delta
        if sum(changes.values()) != 0:
            raise ZeroSumError(
                f"settlement of game {game_id} does not sum to zero: players {sum(deltas.values()):+d}, "
                f"house {house_delta:+d}"
            )
        return _Payment(game_id, edition, house_delta, reason, changes, allow_negative, dict(seats or {}))

    def _pay(self, cursor: Any, payment: _Payment) -> None:
        """Inside a writing transaction (fences checked, the game not paid yet): write ``payment``."""
        now = utc_now()
        game_id, edition, reason = payment.game_id, payment.edition, payment.reason
        values = {
            "game_id": game_id, "edition": edition, "house_delta": payment.house_delta, "reason": reason,
            "created_at": now,
        }
        insert = self._settlement_statements.insert_settlement
        cursor.execute(insert.sql, insert.parameters(values))
        # A fixed order (by account id) so concurrent settlements cannot deadlock.
        for account_id in sorted(payment.changes):
            delta = payment.changes[account_id]
            after = self._change_balance(cursor, account_id, edition, delta, payment.allow_negative)
            seat = payment.seats.get(account_id)
            self._insert_ledger_row(
                cursor, _ledger_row(account_id, edition, delta, after, reason, None, game_id, seat, now)
            )

    def _paid_from(self, cursor: Any, game_id: str) -> dict[int, int]:
        """The balances a paid game's settlement was computed from, by account, read back
        from its ledger rows (each row holds the change and the balance after it)."""
        statement = self._settlement_statements.paid_rows
        cursor.execute(statement.sql, statement.parameters({"game_id": game_id}))
        return {int(account): int(after) - int(delta) for account, delta, after in cursor.fetchall()}

    def is_settled(self, game_id: str) -> bool:
        """Whether a settlement of ``game_id`` has been applied."""
        with self._driver_transaction(write=False) as cursor:
            return self._settled(cursor, game_id)

    @functools.cached_property
    def _settlement_statements(self) -> _SettlementStatements:
        """The statements of settlements, compiled once (the server settles every game)."""
        return _SettlementStatements(
            settled=self.driver_statement(_SETTLED),
            paid_rows=self.driver_statement(_PAID_ROWS),
            insert_settlement=self.driver_statement(_INSERT_SETTLEMENT),
        )

    def _settled(self, cursor: Any, game_id: str) -> bool:
        statement = self._settlement_statements.settled
        cursor.execute(statement.sql, statement.parameters({"game_id": game_id}))
        return cursor.fetchone() is not None


@dataclass(frozen=True, slots=True)
class _Payment:
    """A checked settlement (:meth:`Settlements._payment`): every balance change, the house's
    included, by account id."""

    game_id: str
    edition: str
    house_delta: int
    reason: str
    changes: dict[int, int]
    allow_negative: bool
    seats: dict[int, int]


@dataclass(frozen=True, slots=True)
class _SettlementStatements:
    """The statements :meth:`Settlements.apply_settlement` runs on the driver's cursor, beside the ledger's."""

    settled: DriverStatement
    paid_rows: DriverStatement
    insert_settlement: DriverStatement
