"""The tables of the store, the widths of their text columns, and their timestamps.

The Alembic revisions in :mod:`shuangkou.store.migrations` create exactly these tables (a
test compares); the declarations here serve the queries.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Final

from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    Column,
    DateTime,
    ForeignKeyConstraint,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    SmallInteger,
    String,
    Table,
    Text,
    UniqueConstraint,
)

__all__ = [
    "ID_MAX_LENGTH",
    "OPERATOR_MAX_LENGTH",
    "REASON_MAX_LENGTH",
    "accounts_table",
    "balances_table",
    "game_actions_table",
    "games_table",
    "ledger_table",
    "matches_table",
    "metadata",
    "secrets_table",
    "settlements_table",
    "table_fences_table",
    "utc",
    "utc_now",
]

ID_MAX_LENGTH: Final = 64
"""The longest game id or room name, in characters."""

REASON_MAX_LENGTH: Final = 200
"""The longest reason of a ledger row."""

OPERATOR_MAX_LENGTH: Final = 64
"""The longest operator name of a grant."""


def utc_now() -> datetime:
    """The current time, as the store timestamps its rows (UTC)."""
    return datetime.now(UTC)


def utc(moment: datetime) -> datetime:
    """``moment`` as an aware UTC datetime (SQLite hands naive UTC datetimes back)."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


metadata = MetaData(
    naming_convention={
        "pk": "pk_%(table_name)s",
        "uq": "uq_%(table_name)s_%(column_0_N_name)s",
        "ix": "ix_%(table_name)s_%(column_0_N_name)s",
        "ck": "ck_%(table_name)s_%(constraint_name)s",
        "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    }
)
"""The tables, for queries; the schema itself is created by the Alembic revisions."""


def _timestamp(name: str) -> Column[datetime]:
    return Column(name, DateTime(timezone=True), nullable=False)


accounts_table = Table(
    "accounts",
    metadata,
    Column("id", Integer, nullable=False, autoincrement=True),
    Column("name", String(64), nullable=False),
    Column("kind", String(8), nullable=False),
    Column("house_edition", String(16), nullable=True),
    _timestamp("created_at"),
    PrimaryKeyConstraint("id"),
    UniqueConstraint("house_edition"),
    CheckConstraint("kind IN ('guest', 'house')", name="kind"),
    CheckConstraint(
        "(kind = 'house' AND house_edition IS NOT NULL) OR (kind = 'guest' AND house_edition IS NULL)",
        name="house_edition",
    ),
)

balances_table = Table(
    "balances",
    metadata,
    Column("account_id", Integer, nullable=False),
    Column("edition", String(16), nullable=False),
    Column("balance", BigInteger, nullable=False),
    PrimaryKeyConstraint("account_id", "edition"),
    ForeignKeyConstraint(["account_id"], ["accounts.id"]),
)

settlements_table = Table(
    "settlements",
    metadata,
    Column("game_id", String(ID_MAX_LENGTH), nullable=False),
    Column("edition", String(16), nullable=False),
    Column("house_delta", BigInteger, nullable=False),
    Column("reason", String(REASON_MAX_LENGTH), nullable=False),
    _timestamp("created_at"),
    PrimaryKeyConstraint("game_id"),
)

ledger_table = Table(
    "ledger",
    metadata,
    Column("id", BigInteger().with_variant(Integer(), "sqlite"), nullable=False, autoincrement=True),
    Column("account_id", Integer, nullable=False),
    Column("edition", String(16), nullable=False),
    Column("delta", BigInteger, nullable=False),
    Column("balance_after", BigInteger, nullable=False),
    Column("reason", String(REASON_MAX_LENGTH), nullable=False),
    Column("operator", String(OPERATOR_MAX_LENGTH), nullable=True),
    Column("game_id", String(ID_MAX_LENGTH), nullable=True),
    Column("seat", SmallInteger, nullable=True),
    _timestamp("created_at"),
    PrimaryKeyConstraint("id"),
    ForeignKeyConstraint(["account_id", "edition"], ["balances.account_id", "balances.edition"]),
    ForeignKeyConstraint(["game_id"], ["settlements.game_id"]),
    UniqueConstraint("game_id", "account_id"),
    Index(None, "account_id", "id"),
)

games_table = Table(
    "games",
    metadata,
    Column("game_id", String(ID_MAX_LENGTH), nullable=False),
    Column("room", String(ID_MAX_LENGTH), nullable=False),
    Column("status", String(8), nullable=False),
    Column("config_json", Text, nullable=False),
    Column("record_json", Text, nullable=True),
    Column("settlement_json", Text, nullable=True),
    Column("void_reason", Text, nullable=True),
    _timestamp("created_at"),
    _timestamp("updated_at"),
    Column("table_id", String(ID_MAX_LENGTH), nullable=True),  # the table it is played at (v0002)
    PrimaryKeyConstraint("game_id"),
    CheckConstraint("status IN ('running', 'finished', 'void')", name="status"),
    Index(None, "status"),
    Index(None, "created_at"),
    Index(None, "table_id"),
)

game_actions_table = Table(
    "game_actions",
    metadata,
    Column("game_id", String(ID_MAX_LENGTH), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("action_json", Text, nullable=False),
    _timestamp("created_at"),
    PrimaryKeyConstraint("game_id", "seq"),
    ForeignKeyConstraint(["game_id"], ["games.game_id"]),
    CheckConstraint("seq >= 0", name="seq"),
)

table_fences_table = Table(
    "table_fences",
    metadata,
    Column("table_id", String(ID_MAX_LENGTH), nullable=False),
    Column("token", BigInteger, nullable=False),  # raised by every claim: the fencing token
    Column("node", String(ID_MAX_LENGTH), nullable=False),  # the node that claimed it last
    _timestamp("updated_at"),
    PrimaryKeyConstraint("table_id"),
    Index(None, "node"),
)
"""Which node of a cluster owns each table, and its fencing token (docs/deployment.md)."""

matches_table = Table(
    "matches",
    metadata,
    Column("table_id", String(ID_MAX_LENGTH), nullable=False),
    Column("game_id", String(ID_MAX_LENGTH), nullable=False),  # its last hand, whose record carries it on
    _timestamp("updated_at"),
    PrimaryKeyConstraint("table_id"),
    ForeignKeyConstraint(["game_id"], ["games.game_id"]),
)
"""The match each table plays (v0003): the last hand paid there, whose finished record holds
what it hands to the next (``carried``) and who sat where; gone when the table closes."""

secrets_table = Table(
    "secrets",
    metadata,
    Column("name", String(ID_MAX_LENGTH), nullable=False),
    Column("value", Text, nullable=False),
    PrimaryKeyConstraint("name"),
)
"""Secrets every node of a cluster shares (the session-token secret)."""
