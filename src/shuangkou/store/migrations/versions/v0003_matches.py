"""A match carried from hand to hand at a table: the table's last hand, kept until it closes.

Revision ID: v0003
Revises: v0002
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "v0003"
down_revision: str | None = "v0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """The match of each table: the last hand paid there."""
    op.create_table(
        "matches",
        sa.Column("table_id", sa.String(64), nullable=False),
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("table_id", name="pk_matches"),
        sa.ForeignKeyConstraint(["game_id"], ["games.game_id"], name="fk_matches_game_id_games"),
    )


def downgrade() -> None:
    """Drop what :func:`upgrade` added."""
    op.drop_table("matches")
