"""A smoke run of bench/bench_store.py (the benchmark itself is not a test: no timing is asserted)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from pg import PG_URL_VARIABLE, pg_admin_url

BENCH = Path(__file__).resolve().parent.parent / "bench" / "bench_store.py"


def bench_rows(*arguments: str) -> list[list[str]]:
    """The table rows the benchmark prints, split into columns."""
    result = subprocess.run(
        [sys.executable, str(BENCH), "--games", "5", "--actions", "32", *arguments],
        capture_output=True, text=True,
    )
    assert result.returncode == 0, result.stderr
    return [line.split() for line in result.stdout.splitlines() if line[:1].isdigit()]


def test_the_store_benchmark_runs_every_batch_size() -> None:
    rows = bench_rows()
    assert [row[0] for row in rows] == ["1", "2", "4", "8", "16"]
    assert rows[0][3] == "1.0×"
    assert {row[-1] for row in rows} == {"-"}  # SQLite: no database processes to measure


def local_postgresql() -> str:
    """The test PostgreSQL's URL (the benchmark makes and drops a schema of its own in it)."""
    admin_url = pg_admin_url()
    if admin_url is None:
        pytest.skip(f"set {PG_URL_VARIABLE} to run the PostgreSQL variants")
    return admin_url.render_as_string(hide_password=False)


def test_the_store_benchmark_measures_a_local_postgresql_with_fences() -> None:
    rows = bench_rows("--fenced", "--database-url", local_postgresql())
    assert [row[0] for row in rows] == ["1", "2", "4", "8", "16"]
    assert all(float(row[-1].replace(",", "")) >= 0 for row in rows)  # the database's CPU, per action


def test_the_store_benchmark_compares_two_copies_on_postgresql() -> None:
    """``--baseline`` (here this copy against itself, one round): both CPU columns side by
    side, each round in a schema the parent made for it."""
    rows = bench_rows("--fenced", "--database-url", local_postgresql(), "--baseline", sys.executable, "--rounds", "1")
    assert [row[0] for row in rows] == ["1", "2", "4", "8", "16"]
    for row in rows:  # "1  405.8 / 402.1 (0.99)  316.7 / 360.0 (1.14)"
        assert row[2] == "/" and row[6] == "/" and row[4].startswith("(") and row[8].startswith("("), row
