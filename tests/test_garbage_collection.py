"""The server collects garbage on a clock: the young generation often, everything rarely
(CPython's own trigger lets the young generation grow to hundreds of thousands of live
objects in a server whose games replace old objects with new ones)."""

from __future__ import annotations

import asyncio
import gc
import re
import time
import urllib.request
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest

from shuangkou.server.app import _collect_garbage
from shuangkou.server.process import ServerProcess


class Node:
    """A container that can hold itself: a reference cycle only the collector frees."""

    def __init__(self) -> None:
        self.other: object = self


@pytest.fixture
def collector_off() -> Iterator[None]:
    """CPython's own collections off for the test, as the server turns them off."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def a_cycle() -> weakref.ref[Node]:
    """A new reference cycle, already garbage; a weak reference tells when it is freed."""
    return weakref.ref(Node())


def an_old_cycle() -> tuple[weakref.ref[Node], list[Node]]:
    """A cycle that outlived a young collection (so it is no longer young), still held by
    the list returned; emptying the list makes it garbage."""
    holder = [Node()]
    gc.collect(0)
    return weakref.ref(holder[0]), holder


async def collect_for(seconds: float, young_every: float, full_every: float) -> None:
    task = asyncio.get_running_loop().create_task(_collect_garbage(young_every, full_every))
    await asyncio.sleep(seconds)
    task.cancel()


def test_a_young_cycle_is_freed_by_the_next_young_collection(collector_off: None) -> None:
    cycle = a_cycle()
    assert cycle() is not None  # nothing frees it without a collection
    asyncio.run(collect_for(0.2, young_every=0.01, full_every=3600))
    assert cycle() is None


def test_an_old_cycle_waits_for_the_full_collection(collector_off: None) -> None:
    old, holder = an_old_cycle()
    holder.clear()
    asyncio.run(collect_for(0.2, young_every=0.01, full_every=3600))
    assert old() is not None  # young collections leave the older generations alone
    asyncio.run(collect_for(0.2, young_every=0.01, full_every=0.05))
    assert old() is None


def _young_collections(server: ServerProcess) -> float:
    with urllib.request.urlopen(server.url + "/metrics", timeout=10) as response:
        text = response.read().decode()
    found = re.search(r'^shuangkou_gc_pause_seconds_count\{generation="0"\} (\S+)$', text, re.MULTILINE)
    return float(found.group(1)) if found else 0.0


def test_a_server_collects_on_its_clock_while_idle(tmp_path: Path) -> None:
    """An idle server allocates almost nothing, so CPython's trigger would hardly fire; the
    server's clock runs a young collection about ten times a second all the same."""
    with ServerProcess(tmp_path / "data") as server:
        before = _young_collections(server)
        time.sleep(1.0)
        assert _young_collections(server) - before >= 5
