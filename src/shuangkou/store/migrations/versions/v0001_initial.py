"""Initial schema: accounts, balances, settlements, ledger, games, game actions; one house per edition.

Revision ID: v0001
Revises:
Create Date: 2025-01-01
"""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision: str = "v0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None

# Frozen copies of what this revision needs (later code may change; this revision may not).
_EDITIONS = ("points", "wealth")


def _timestamp(name: str) -> sa.Column[datetime]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=False)


def upgrade() -> None:
    """Create every table and the house account of each edition (R9.7)."""
    accounts = op.create_table(
        "accounts",
        sa.Column("id", sa.Integer(), nullable=False, autoincrement=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("house_edition", sa.String(16), nullable=True),
        _timestamp("created_at"),
        sa.PrimaryKeyConstraint("id", name="pk_accounts"),
        sa.UniqueConstraint("house_edition", name="uq_accounts_house_edition"),
        sa.CheckConstraint("kind IN ('guest', 'house')", name="ck_accounts_kind"),
        sa.CheckConstraint(
            "(kind = 'house' AND house_edition IS NOT NULL) OR (kind = 'guest' AND house_edition IS NULL)",
            name="ck_accounts_house_edition",
        ),
    )
    balances = op.create_table(
        "balances",
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("edition", sa.String(16), nullable=False),
        sa.Column("balance", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("account_id", "edition", name="pk_balances"),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], name="fk_balances_account_id_accounts"),
    )
    op.create_table(
        "settlements",
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("edition", sa.String(16), nullable=False),
        sa.Column("house_delta", sa.BigInteger(), nullable=False),
        sa.Column("reason", sa.String(200), nullable=False),
        _timestamp("created_at"),
        sa.PrimaryKeyConstraint("game_id", name="pk_settlements"),
    )
    op.create_table(
        "ledger",
        sa.Column(
            "id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False, autoincrement=True
        ),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("edition", sa.String(16), nullable=False),
        sa.Column("delta", sa.BigInteger(), nullable=False),
        sa.Column("balance_after", sa.BigInteger(), nullable=False),
        sa.Column("reason", sa.String(200), nullable=False),
        sa.Column("operator", sa.String(64), nullable=True),
        sa.Column("game_id", sa.String(64), nullable=True),
        sa.Column("seat", sa.SmallInteger(), nullable=True),
        _timestamp("created_at"),
        sa.PrimaryKeyConstraint("id", name="pk_ledger"),
        sa.ForeignKeyConstraint(
            ["account_id", "edition"],
            ["balances.account_id", "balances.edition"],
            name="fk_ledger_account_id_balances",
        ),
        sa.ForeignKeyConstraint(["game_id"], ["settlements.game_id"], name="fk_ledger_game_id_settlements"),
        sa.UniqueConstraint("game_id", "account_id", name="uq_ledger_game_id_account_id"),
    )
    op.create_index("ix_ledger_account_id_id", "ledger", ["account_id", "id"])
    op.create_table(
        "games",
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("room", sa.String(64), nullable=False),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("config_json", sa.Text(), nullable=False),
        sa.Column("record_json", sa.Text(), nullable=True),
        sa.Column("settlement_json", sa.Text(), nullable=True),
        sa.Column("void_reason", sa.Text(), nullable=True),
        _timestamp("created_at"),
        _timestamp("updated_at"),
        sa.PrimaryKeyConstraint("game_id", name="pk_games"),
        sa.CheckConstraint("status IN ('running', 'finished', 'void')", name="ck_games_status"),
    )
    op.create_index("ix_games_status", "games", ["status"])
    op.create_index("ix_games_created_at", "games", ["created_at"])
    op.create_table(
        "game_actions",
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("action_json", sa.Text(), nullable=False),
        _timestamp("created_at"),
        sa.PrimaryKeyConstraint("game_id", "seq", name="pk_game_actions"),
        sa.ForeignKeyConstraint(["game_id"], ["games.game_id"], name="fk_game_actions_game_id_games"),
        sa.CheckConstraint("seq >= 0", name="ck_game_actions_seq"),
    )

    connection = op.get_bind()
    now = datetime.now(UTC)
    for edition in _EDITIONS:
        house_id = connection.execute(
            accounts.insert()
            .values(name=f"House ({edition})", kind="house", house_edition=edition, created_at=now)
            .returning(accounts.c.id)
        ).scalar_one()
        connection.execute(balances.insert().values(account_id=house_id, edition=edition, balance=0))


def downgrade() -> None:
    """Drop every table (all data is lost)."""
    for table in ("game_actions", "games", "ledger", "settlements", "balances", "accounts"):
        op.drop_table(table)
