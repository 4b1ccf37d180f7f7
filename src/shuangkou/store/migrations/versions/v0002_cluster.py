"""Several servers on one database: table fences, the table of each game, shared secrets.

Revision ID: v0002
Revises: v0001
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "v0002"
down_revision: str | None = "v0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """The fence of each table (its owner node and fencing token), the table of each game,
    and the secrets the nodes of a cluster share."""
    op.create_table(
        "table_fences",
        sa.Column("table_id", sa.String(64), nullable=False),
        sa.Column("token", sa.BigInteger(), nullable=False),
        sa.Column("node", sa.String(64), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("table_id", name="pk_table_fences"),
    )
    op.create_index("ix_table_fences_node", "table_fences", ["node"])
    op.create_table(
        "secrets",
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("name", name="pk_secrets"),
    )
    op.add_column("games", sa.Column("table_id", sa.String(64), nullable=True))
    op.create_index("ix_games_table_id", "games", ["table_id"])


def downgrade() -> None:
    """Drop what :func:`upgrade` added."""
    with op.batch_alter_table("games") as games:
        games.drop_index("ix_games_table_id")
        games.drop_column("table_id")
    op.drop_table("secrets")
    op.drop_index("ix_table_fences_node", "table_fences")
    op.drop_table("table_fences")
