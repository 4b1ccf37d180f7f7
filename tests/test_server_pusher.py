"""The moves pusher (shuangkou.server.pusher): tables served in order, once each, within a
budget per turn of the event loop, so that other work runs in between."""

from __future__ import annotations

import asyncio

from shuangkou.server.pusher import MovesPusher


class Recorder:
    def __init__(self, name: str, log: list[str]) -> None:
        self.name = name
        self.log = log

    def send_moves(self) -> None:
        self.log.append(self.name)


def test_tables_are_served_in_order_once_each_with_other_work_between() -> None:
    async def scenario() -> None:
        log: list[str] = []
        pusher = MovesPusher(budget=0)  # one table per turn of the loop
        ann, bob, cat = (Recorder(name, log) for name in ("ann", "bob", "cat"))
        for table in (ann, bob, ann, cat):  # ann asks twice while waiting: served once
            pusher.push(table)
        assert log == []  # nothing is listed while the tables' own work runs

        async def other_work() -> None:
            for _ in range(6):
                log.append("-")
                await asyncio.sleep(0)

        await other_work()
        await asyncio.sleep(0)
        assert [entry for entry in log if entry != "-"] == ["ann", "bob", "cat"]
        first, last = log.index("ann"), log.index("cat")
        assert "-" in log[first:last], "other work runs between two tables"
        pusher.push(bob)  # the worker ended with the queue; a new push starts it again
        for _ in range(3):
            await asyncio.sleep(0)
        assert log.count("bob") == 2

    asyncio.run(scenario())


def test_within_its_budget_one_turn_serves_several_tables() -> None:
    async def scenario() -> None:
        log: list[str] = []
        pusher = MovesPusher(budget=10.0)
        for name in ("ann", "bob", "cat"):
            pusher.push(Recorder(name, log))
        await asyncio.sleep(0)  # the worker's first turn: it yields once
        await asyncio.sleep(0)
        assert log == ["ann", "bob", "cat"]

    asyncio.run(scenario())
