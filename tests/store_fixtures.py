"""An open store on an empty database, for the tests of the persistence layer
(``test_store``, ``test_store_fences``): a SQLite file, and, with ``SHUANGKOU_TEST_PG_URL``
set, a fresh schema of a PostgreSQL database of the test module's own (each xdist worker's),
dropped at the end. Without the variable the PostgreSQL variants are skipped.

A test module gets the fixtures ``pg_database``, ``url`` and ``store`` by importing their
functions (``pg_database_fixture``, ``url_fixture``, ``store_fixture``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pg import PG_URL_VARIABLE, fresh_schema_url, pg_admin_url, throwaway_database
from sqlalchemy import URL

from shuangkou.store import Store

__all__ = ["pg_database_fixture", "store_fixture", "url_fixture"]


@pytest.fixture(scope="module", name="pg_database")
def pg_database_fixture() -> Iterator[URL]:
    """A PostgreSQL database of its own for the module, dropped at the end."""
    admin_url = pg_admin_url()
    if admin_url is None:
        pytest.skip(f"set {PG_URL_VARIABLE} to run the PostgreSQL variants")
    with throwaway_database(admin_url) as database:
        yield database


@pytest.fixture(params=["sqlite", "postgresql"], name="url")
def url_fixture(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of an empty database: a SQLite file, or a fresh schema of the PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'shuangkou.db'}"
    database: URL = request.getfixturevalue("pg_database")
    return fresh_schema_url(database)


@pytest.fixture(name="store")
def store_fixture(url: str) -> Iterator[Store]:
    """An open store on an empty database."""
    with Store(url) as opened:
        yield opened
