"""Money (RULES §9): accounts, balances, grants, the ledger, settlements and the audit.

Balances are 64-bit integers in the database; every change is checked to stay in that
range, and sums over many balances are computed exactly beyond it.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final, Literal

from sqlalchemy import BigInteger, Connection, Row, bindparam, func, literal_column, select
from sqlalchemy.exc import IntegrityError

from ..editions import EDITIONS, MAX_AMOUNT
from .checks import check_choice, check_int, check_page, check_text
from .database import DriverStatement
from .errors import (
    BalanceFloorError,
    BalanceRangeError,
    InvalidNameError,
    InvalidValueError,
    StoreError,
    UnknownAccountError,
    ZeroSumError,
)
from .fences import Fence, Fences
from .schema import (
    ID_MAX_LENGTH,
    OPERATOR_MAX_LENGTH,
    REASON_MAX_LENGTH,
    accounts_table,
    balances_table,
    ledger_table,
    settlements_table,
    utc,
    utc_now,
)

__all__ = [
    "EDITIONS", "NAME_MAX_LENGTH", "RESERVED_NAMES", "Account", "LedgerEntry", "Money", "Payout", "validate_name",
]


NAME_MAX_LENGTH: Final = 24
"""The longest display name, in characters."""

_INT64_MIN: Final = -(2**63)
_INT64_MAX: Final = 2**63 - 1
_SPLIT: Final = 2**32  # sums of 64-bit columns add quotients and remainders by this (_split_sum)
_BALANCE_OF: Final = (balances_table.c.account_id == bindparam("account_id")) & (
    balances_table.c.edition == bindparam("edition")
)
_BALANCE: Final = select(balances_table.c.balance).where(_BALANCE_OF)
# The same, the row locked until the transaction ends (PostgreSQL; SQLite's writing
# transaction holds the whole database already, and SQLAlchemy renders no FOR UPDATE there).
_LOCKED_BALANCE: Final = _BALANCE.with_for_update()
_PAID_ROWS: Final = select(ledger_table.c.account_id, ledger_table.c.delta, ledger_table.c.balance_after).where(
    ledger_table.c.game_id == bindparam("game_id")
)
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
_SETTLEMENT_COLUMNS: Final = ("game_id", "edition", "house_delta", "reason", "created_at")
_INSERT_SETTLEMENT: Final = settlements_table.insert().values({key: bindparam(key) for key in _SETTLEMENT_COLUMNS})
_SETTLED: Final = select(settlements_table.c.game_id).where(settlements_table.c.game_id == bindparam("game_id"))


@dataclass(frozen=True, slots=True)
class Account:
    """A player (``kind == "guest"``) or the house of one edition (``kind == "house"``)."""

    id: int
    name: str
    kind: Literal["guest", "house"]
    balances: dict[str, int]
    """Balance per edition; a guest has every edition, a house only its own."""
    created_at: datetime

    @property
    def is_house(self) -> bool:
        """Whether this is a house account (R9.7)."""
        return self.kind == "house"


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


@dataclass(frozen=True, slots=True)
class Payout:
    """What a game pays, as its settlement computed it from the seats' balances
    (:meth:`~shuangkou.store.Store.settle_game`): a change per seat, the house's, and the
    breakdown stored with the game (R9.6)."""

    deltas: tuple[int, ...]
    house: int
    breakdown_json: str


_BAD_NAME_CATEGORIES: Final = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
_BLANK_LETTERS: Final = frozenset("\u115f\u1160\u3164\uffa0\u2800")  # Hangul fillers, the braille blank
_MOST_MARKS: Final = 2  # combining marks on one character (Vietnamese stacks two)
RESERVED_NAMES: Final = frozenset({"bot", "house", "house (points)", "house (wealth)", "system", "operator"})
"""Names of the system's own accounts and roles, which no guest may take (compared casefolded)."""


def validate_name(name: str, reserved: bool = False) -> str:
    """The display name to store for ``name``, or :class:`InvalidNameError` saying what is wrong.

    Names are NFKC-normalized (so full-width ``Ｂｏｔ`` is ``Bot``) and stripped of
    surrounding spaces, then must hold 1 to 24 characters, something visible, no control,
    format, private-use, unassigned or blank characters (Hangul fillers, the braille blank),
    at most two combining marks on a character, and (unless ``reserved``: the system's own
    accounts) none of :data:`RESERVED_NAMES`.

    >>> validate_name("  Zhang San ")
    'Zhang San'
    >>> validate_name("a\\tb")
    Traceback (most recent call last):
    ...
    shuangkou.store.errors.InvalidNameError: display name contains a control character (U+0009)
    >>> validate_name("Ｂｏｔ")
    Traceback (most recent call last):
    ...
    shuangkou.store.errors.InvalidNameError: display name 'Bot' is the system's
    """
    if not isinstance(name, str):
        raise InvalidNameError(f"display name must be a string, not {type(name).__name__}")
    name = unicodedata.normalize("NFKC", name).strip()
    if not name:
        raise InvalidNameError("display name is empty")
    if len(name) > NAME_MAX_LENGTH:
        raise InvalidNameError(f"display name is {len(name)} characters long; at most {NAME_MAX_LENGTH}")
    marks = 0
    for char in name:
        category = unicodedata.category(char)
        if category in _BAD_NAME_CATEGORIES:
            raise InvalidNameError(f"display name contains a control character (U+{ord(char):04X})")
        if char in _BLANK_LETTERS:
            raise InvalidNameError(f"display name contains an invisible character (U+{ord(char):04X})")
        marks = marks + 1 if category in ("Mn", "Me") else 0
        if marks > _MOST_MARKS:
            raise InvalidNameError(f"display name stacks more than {_MOST_MARKS} combining marks on one character")
    if all(char.isspace() or unicodedata.category(char) in ("Mn", "Me") for char in name):
        raise InvalidNameError("display name has nothing visible")
    if not reserved and " ".join(name.casefold().split()) in RESERVED_NAMES:
        raise InvalidNameError(f"display name {name!r} is the system's")
    return name


def check_edition(edition: object) -> str:
    """``edition`` if it is one of :data:`EDITIONS`, else :class:`InvalidValueError`."""
    return check_choice(edition, "edition", EDITIONS)


class Money(Fences):
    """The accounts and their money: the part of :class:`~shuangkou.store.Store` that RULES §9 governs."""

    _houses: dict[str, int]

    # ---------------------------------------------------------------------------------------
    # Accounts.

    def _load_houses(self) -> None:
        """Find the house account of each edition, which the first migration creates (R9.7)."""
        with self._transaction() as conn:
            rows = conn.execute(
                select(accounts_table.c.house_edition, accounts_table.c.id).where(accounts_table.c.kind == "house")
            ).all()
        self._houses = {str(row.house_edition): int(row.id) for row in rows}
        missing = [edition for edition in EDITIONS if edition not in self._houses]
        if missing:
            raise StoreError(f"the database has no house account for {', '.join(missing)}")

    def house_id(self, edition: str) -> int:
        """The id of the house account of ``edition`` (R9.7)."""
        return self._houses[check_edition(edition)]

    def create_guest(self, name: str, balances: Mapping[str, int], bot: bool = False) -> Account:
        """Create a guest account named ``name`` with the given starting balance per edition
        (``bot``: an account the server plays, which may take a reserved name such as "Bot").

        Editions missing from ``balances`` start at 0. Each non-zero starting balance is a
        grant: a ledger row with reason ``"initial balance"``.
        """
        name = validate_name(name, reserved=bot)
        start: dict[str, int] = dict.fromkeys(EDITIONS, 0)
        for edition, amount in balances.items():
            if check_int(amount, f"starting {check_edition(edition)} balance") < 0:
                raise InvalidValueError(f"starting {edition} balance must not be negative")
            if amount > MAX_AMOUNT:
                raise InvalidValueError(f"starting {edition} balance must be at most {MAX_AMOUNT}")
            start[edition] = amount
        now = utc_now()
        with self._transaction(write=True) as conn:
            account_id = conn.execute(
                accounts_table.insert()
                .values(name=name, kind="guest", house_edition=None, created_at=now)
                .returning(accounts_table.c.id)
            ).scalar_one()
            conn.execute(
                balances_table.insert(),
                [{"account_id": account_id, "edition": e, "balance": b} for e, b in start.items()],
            )
            grants = [
                _ledger_row(account_id, e, b, b, "initial balance", None, None, None, now)
                for e, b in start.items()
                if b
            ]
            if grants:
                conn.execute(ledger_table.insert(), grants)
        return Account(account_id, name, "guest", start, now)

    def get_account(self, account_id: int) -> Account | None:
        """The account with this id, or ``None``."""
        with self._transaction() as conn:
            found = _accounts(conn, select(accounts_table).where(accounts_table.c.id == account_id))
        return found[0] if found else None

    def list_accounts(self, limit: int = 100, offset: int = 0) -> list[Account]:
        """Accounts by id (the house accounts first), at most ``limit`` after skipping ``offset``."""
        check_page(limit, offset)
        with self._transaction() as conn:
            return _accounts(
                conn, select(accounts_table).order_by(accounts_table.c.id).limit(limit).offset(offset)
            )

    @functools.cached_property
    def _balance_statement(self) -> DriverStatement:
        """The query of :meth:`balance`, compiled once (the server reads balances at every game's start and end)."""
        return self.driver_statement(_BALANCE)

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

    # ---------------------------------------------------------------------------------------
    # Ledger.

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

    # ---------------------------------------------------------------------------------------
    # Settlement.

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
        insert = self._statements.insert_settlement
        cursor.execute(insert.sql, insert.parameters(values))
        # A fixed order (by account id) so concurrent settlements cannot deadlock.
        for account_id in sorted(payment.changes):
            delta = payment.changes[account_id]
            after = self._change_balance(cursor, account_id, edition, delta, payment.allow_negative)
            seat = payment.seats.get(account_id)
            self._insert_ledger_row(
                cursor, _ledger_row(account_id, edition, delta, after, reason, None, game_id, seat, now)
            )

    def _balances(
        self, cursor: Any, accounts: Iterable[int], edition: str, lock: bool = False
    ) -> dict[int, int]:
        """The balances of ``accounts`` in ``edition``, on a transaction's cursor; with
        ``lock``, each row locked until the transaction ends, so that nothing else changes
        it before the transaction writes (read them in a fixed order: two transactions
        locking the same rows then cannot deadlock)."""
        statement = self._statements.locked_balance if lock else self._balance_statement
        found: dict[int, int] = {}
        for account_id in accounts:
            cursor.execute(statement.sql, statement.parameters({"account_id": account_id, "edition": edition}))
            row = cursor.fetchone()
            if row is None:
                raise UnknownAccountError(f"account {account_id} has no {edition} balance")
            found[account_id] = int(row[0])
        return found

    def _paid_from(self, cursor: Any, game_id: str) -> dict[int, int]:
        """The balances a paid game's settlement was computed from, by account, read back
        from its ledger rows (each row holds the change and the balance after it)."""
        statement = self._statements.paid_rows
        cursor.execute(statement.sql, statement.parameters({"game_id": game_id}))
        return {int(account): int(after) - int(delta) for account, delta, after in cursor.fetchall()}

    def is_settled(self, game_id: str) -> bool:
        """Whether a settlement of ``game_id`` has been applied."""
        with self._driver_transaction(write=False) as cursor:
            return self._settled(cursor, game_id)

    @functools.cached_property
    def _statements(self) -> _MoneyStatements:
        """The statements of settlements and grants, compiled once (the server settles every game)."""
        return _MoneyStatements(
            settled=self.driver_statement(_SETTLED),
            locked_balance=self.driver_statement(_LOCKED_BALANCE),
            paid_rows=self.driver_statement(_PAID_ROWS),
            insert_settlement=self.driver_statement(_INSERT_SETTLEMENT),
            insert_ledger_row=self.driver_statement(_INSERT_LEDGER_ROW),
            change_balance={at_most: self.driver_statement(update) for at_most, update in _CHANGE_BALANCE.items()},
        )

    def _settled(self, cursor: Any, game_id: str) -> bool:
        statement = self._statements.settled
        cursor.execute(statement.sql, statement.parameters({"game_id": game_id}))
        return cursor.fetchone() is not None

    def _insert_ledger_row(self, cursor: Any, row: Mapping[str, Any]) -> int:
        """Insert a ledger row on the driver's cursor; its id."""
        statement = self._statements.insert_ledger_row
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
        update = self._statements.change_balance[at_most]
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
class _Payment:
    """A checked settlement (:meth:`Money._payment`): every balance change, the house's
    included, by account id."""

    game_id: str
    edition: str
    house_delta: int
    reason: str
    changes: dict[int, int]
    allow_negative: bool
    seats: dict[int, int]


@dataclass(frozen=True, slots=True)
class _MoneyStatements:
    """The statements :meth:`Money.apply_settlement` and :meth:`Money.grant` run on the driver's cursor."""

    settled: DriverStatement
    locked_balance: DriverStatement
    paid_rows: DriverStatement
    insert_settlement: DriverStatement
    insert_ledger_row: DriverStatement
    change_balance: Mapping[bool, DriverStatement]  # True: the balance at most the limit before


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


def _accounts(conn: Connection, query: Any) -> list[Account]:
    rows = conn.execute(query).all()
    ids = [int(row.id) for row in rows]
    held: dict[int, dict[str, int]] = {account_id: {} for account_id in ids}
    if ids:
        for b in conn.execute(
            select(balances_table)
            .where(balances_table.c.account_id.in_(ids))
            .order_by(balances_table.c.edition)
        ):
            held[int(b.account_id)][b.edition] = int(b.balance)
    return [Account(int(r.id), r.name, r.kind, held[int(r.id)], utc(r.created_at)) for r in rows]
