"""A table's inbox (shuangkou.server.inbox): typed items in order, typed answers, and no
request left waiting when the table closes."""

from __future__ import annotations

import asyncio
import dataclasses
from datetime import UTC, datetime
from typing import Any

import pytest

from shuangkou.server.clock import Turn
from shuangkou.server.connection import Connection
from shuangkou.server.inbox import (
    Disconnect,
    Inbox,
    Item,
    Received,
    Reconnect,
    Request,
    Sit,
    Stop,
    TimerFired,
    Watch,
    answer,
    fail,
)
from shuangkou.server.protocol import PingMessage
from shuangkou.server.room import LobbyError, TableFull
from shuangkou.store import Account

ANN = Account(1, "Ann", "guest", {"points": 1000}, datetime.now(UTC))


class _Unused:
    """The outlet of a connection nothing is sent to."""

    def write_message(self, data: bytes) -> None:
        raise AssertionError("nothing is sent in these tests")

    def unsent(self) -> int:
        return 0

    def end(self, code: int) -> None:
        raise AssertionError("nothing is closed in these tests")


def _connection() -> Connection:
    return Connection(ANN, _Unused())


def test_items_come_out_in_the_order_they_were_posted() -> None:
    async def scenario() -> list[Item]:
        inbox = Inbox()
        connection = _connection()
        posted: list[Item] = [Watch(connection), TimerFired(Turn("timed", 3)), Disconnect(connection), Stop()]
        for item in posted:
            inbox.post(item)
        got = [await inbox.get() for _ in posted]
        assert got == posted
        return got

    kinds = [type(item).__name__ for item in asyncio.run(scenario())]
    assert kinds == ["Watch", "TimerFired", "Disconnect", "Stop"]


def test_a_request_gets_the_answer_its_handler_gives() -> None:
    async def scenario() -> tuple[int, bool]:
        inbox = Inbox()

        async def table() -> None:  # a handler that answers what it is asked, as a table does
            for _ in range(2):
                match await inbox.get():
                    case Sit() as sit:
                        answer(sit, 1)
                    case Reconnect() as reconnect:
                        answer(reconnect, False)
                    case other:
                        raise AssertionError(f"unexpected {other}")

        task = asyncio.create_task(table())
        seat = await inbox.ask(Sit(ANN, _connection()))
        seated = await inbox.ask(Reconnect(ANN, _connection()))
        await task
        return seat, seated

    assert asyncio.run(scenario()) == (1, False)


def test_a_refusal_raised_for_a_request_reaches_its_sender() -> None:
    async def scenario() -> None:
        inbox = Inbox()
        request = Sit(ANN, _connection())
        waiting = asyncio.create_task(inbox.ask(request))
        item = await inbox.get()
        assert item is request
        fail(request, TableFull("the table is full"))
        with pytest.raises(LobbyError) as refused:
            await waiting
        assert refused.value.code == "table_full" and refused.value.message == "the table is full"

    asyncio.run(scenario())


def test_closing_fails_every_request_still_queued_and_drops_the_rest() -> None:
    async def scenario() -> list[Any]:
        inbox = Inbox()
        connection = _connection()
        inbox.post(Watch(connection))
        asked = [asyncio.create_task(inbox.ask(Sit(ANN, connection))) for _ in range(2)]
        await asyncio.sleep(0)  # the requests are queued
        inbox.close(TableFull("the table is closed"))
        results = await asyncio.gather(*asked, return_exceptions=True)
        inbox.post(Stop())
        assert isinstance(await inbox.get(), Stop)  # the Watch was dropped
        return list(results)

    results = asyncio.run(scenario())
    assert [type(result) for result in results] == [TableFull, TableFull]
    assert all(result.code == "table_full" for result in results)


def test_an_answer_to_a_sender_who_stopped_waiting_is_dropped() -> None:
    async def scenario() -> None:
        request = Sit(ANN, _connection())
        request.reply.cancel()
        answer(request, 0)  # no InvalidStateError
        fail(request, TableFull("late"))
        assert request.reply.cancelled()

    asyncio.run(scenario())


@dataclasses.dataclass(frozen=True, slots=True)
class _Stranger(Request[int]):
    """A request no table handles."""


def test_items_are_frozen_and_only_requests_of_the_table_are_asked() -> None:
    async def scenario() -> None:
        inbox = Inbox()
        with pytest.raises(dataclasses.FrozenInstanceError):
            Watch(_connection()).connection = _connection()  # type: ignore[misc]
        with pytest.raises(TypeError, match="not a request of the table"):
            await inbox.ask(_Stranger())

    asyncio.run(scenario())


def test_a_client_message_travels_as_its_parsed_type() -> None:
    async def scenario() -> Item:
        inbox = Inbox()
        inbox.post(Received(_connection(), PingMessage(type="ping")))
        return await inbox.get()

    item = asyncio.run(scenario())
    assert isinstance(item, Received) and isinstance(item.message, PingMessage)
