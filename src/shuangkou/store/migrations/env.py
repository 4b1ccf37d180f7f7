"""Alembic environment: migrates the connection that :class:`shuangkou.store.Store` passes in.

The store opens a transaction (under a migration lock), stores its connection in
``config.attributes["connection"]`` and calls ``alembic.command.upgrade``; every revision then
runs inside that one transaction, so a failed upgrade leaves the database as it was.
"""

from __future__ import annotations

from alembic import context
from alembic.config import Config
from sqlalchemy.engine import Connection

from shuangkou.store.errors import StoreError


def run_migrations(config: Config) -> None:
    """Run the pending revisions on the connection given in ``config.attributes``."""
    connection = config.attributes.get("connection")
    if not isinstance(connection, Connection):
        raise StoreError(
            "shuangkou migrations run through shuangkou.store.Store, which passes a connection"
        )
    context.configure(connection=connection, target_metadata=None, transaction_per_migration=False)
    with context.begin_transaction():
        context.run_migrations()


# Alembic executes this file with its context established; a plain import (a doctest or
# documentation run) only defines run_migrations.
if hasattr(context, "config"):
    run_migrations(context.config)
