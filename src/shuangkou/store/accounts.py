"""Accounts (RULES §9): guests and the houses, their display names and starting balances."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final, Literal

from sqlalchemy import Connection, select

from ..editions import EDITIONS, MAX_AMOUNT
from .checks import check_edition, check_int, check_page
from .database import Database
from .errors import InvalidNameError, InvalidValueError, StoreError
from .ledger import _ledger_row
from .schema import accounts_table, balances_table, ledger_table, utc, utc_now

__all__ = ["NAME_MAX_LENGTH", "RESERVED_NAMES", "Account", "Accounts", "validate_name"]


NAME_MAX_LENGTH: Final = 24
"""The longest display name, in characters."""


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


class Accounts(Database):
    """The accounts: the part of :class:`~shuangkou.store.Store` that creates and lists them."""

    _houses: dict[str, int]

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
