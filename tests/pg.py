"""Throwaway PostgreSQL databases for the tests that run on PostgreSQL too.

``SHUANGKOU_TEST_PG_URL`` names a server and a user that may create databases (for example
``postgresql+psycopg://postgres@127.0.0.1:5432/postgres``); without it those variants skip.
"""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import Iterator

from sqlalchemy import URL, create_engine, make_url

PG_URL_VARIABLE = "SHUANGKOU_TEST_PG_URL"


def pg_admin_url() -> URL | None:
    """The server URL from the environment (psycopg driver), or None."""
    raw = os.environ.get(PG_URL_VARIABLE)
    if not raw:
        return None
    url = make_url(raw)
    return url.set(drivername="postgresql+psycopg") if url.drivername == "postgresql" else url


@contextlib.contextmanager
def throwaway_database(admin_url: URL, prefix: str = "shuangkou_test") -> Iterator[URL]:
    """Create a database with a unique name, yield its URL, drop it afterwards."""
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    with admin.connect() as conn:
        conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
    try:
        yield admin_url.set(database=name)
    finally:
        with admin.connect() as conn:
            conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.dispose()


def fresh_schema_url(database: URL) -> str:
    """The URL of a new, empty schema in ``database`` (as its search path)."""
    schema = f"test_{uuid.uuid4().hex[:12]}"
    engine = create_engine(database)
    with engine.begin() as conn:
        conn.exec_driver_sql(f'CREATE SCHEMA "{schema}"')
    engine.dispose()
    with_schema = database.update_query_dict({"options": f"-csearch_path={schema}"})
    return with_schema.render_as_string(hide_password=False)
