"""What a table's inbox holds: one frozen value per kind of request, handled one at a time.

A request that wants an answer (:class:`Sit`, :class:`Reconnect`, :class:`Rejoin`,
:class:`Restore`) is a :class:`Request` carrying a future of its answer's type, so a
caller of :meth:`Inbox.ask` gets a typed result (or the exception the table raised). The
table dispatches on :data:`Item` with ``match``; ``mypy --strict`` checks that every kind
is handled.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from ..games.interface import Hand, TableBot
from ..store import Account
from .clock import Turn
from .connection import Connection
from .protocol import ClientMessage
from .record import TableRecord

__all__ = [
    "Asked",
    "Decided",
    "Disconnect",
    "FillWaitOver",
    "Inbox",
    "Item",
    "ReadyExpired",
    "Received",
    "Reconnect",
    "Rejoin",
    "Request",
    "Restore",
    "Resume",
    "SendOn",
    "SettleAgain",
    "Sit",
    "Stop",
    "TimerFired",
    "Told",
    "Unwatch",
    "Watch",
    "answer",
    "fail",
]

Answer = TypeVar("Answer")


def _future() -> asyncio.Future[Any]:
    return asyncio.get_running_loop().create_future()


@dataclass(frozen=True, slots=True)
class Request(Generic[Answer]):
    """An item whose sender waits for ``reply`` (made in the running event loop)."""

    reply: asyncio.Future[Answer] = field(default_factory=_future, kw_only=True, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Sit(Request[int]):
    """Seat ``account`` (a person on ``connection``, or a ``bot``) in ``seat``, or the first
    free seat; answers the seat."""

    account: Account
    connection: Connection | None
    bot: TableBot | None = None
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class Reconnect(Request[bool]):
    """A seated account's new connection; answers whether the account is seated here."""

    account: Account
    connection: Connection


@dataclass(frozen=True, slots=True)
class Rejoin(Request[bool]):
    """An escaper whose seat hosting plays takes it back (R10.1); answers whether it could."""

    account: Account
    connection: Connection


@dataclass(frozen=True, slots=True)
class Restore(Request[None]):
    """Go on with a game left running by a stop or a crash, replayed from its record."""

    game_id: str
    record: TableRecord
    game: Hand


@dataclass(frozen=True, slots=True)
class Resume(Request[bool]):
    """Go on with a table's match between hands after a restart: the players of its last
    hand (``record``, finished) seated again, not ready; answers whether anyone sits."""

    record: TableRecord


@dataclass(frozen=True, slots=True)
class SendOn:
    """Send the ``players`` persons who wait here for quick match on with ``redirect`` (the
    message naming a table of their room where players wait on another node of a cluster);
    nobody is sent when the table no longer waits with just them, all connected."""

    players: int
    redirect: dict[str, str]


@dataclass(frozen=True, slots=True)
class SettleAgain:
    """Try again to pay game ``game_id``, whose settlement failed."""

    game_id: str


@dataclass(frozen=True, slots=True)
class Watch:
    """A spectator starts watching."""

    connection: Connection


@dataclass(frozen=True, slots=True)
class Unwatch:
    """A spectator stops watching (to watch another table)."""

    connection: Connection


@dataclass(frozen=True, slots=True)
class Disconnect:
    """A connection (of a seat or a spectator) is gone."""

    connection: Connection


@dataclass(frozen=True, slots=True)
class Received:
    """A client message for the table from ``connection``."""

    connection: Connection
    message: ClientMessage


@dataclass(frozen=True, slots=True)
class TimerFired:
    """The turn clock ran out for ``turn``."""

    turn: Turn


@dataclass(frozen=True, slots=True)
class ReadyExpired:
    """Seat ``seat`` was not ready in time (R11.4); ``token`` names the wait that ran out."""

    seat: int
    token: int


@dataclass(frozen=True, slots=True)
class FillWaitOver:
    """Players have waited ``bot_fill_seconds`` at a quick-match table; ``token`` names the wait."""

    token: int


@dataclass(frozen=True, slots=True)
class Decided:
    """A searching bot's ``action`` for ``seat``, searched for the state ``key`` (the
    game's id and its number of actions)."""

    key: tuple[str, int]
    seat: int
    action: Any


@dataclass(frozen=True, slots=True)
class Stop:
    """Stop the table (server shutdown)."""


Asked = Sit | Reconnect | Rejoin | Restore | Resume
"""The requests that want an answer."""
Told = (
    Watch | Unwatch | Disconnect | Received | TimerFired | ReadyExpired | FillWaitOver | Decided | SendOn | SettleAgain
)
"""The items nobody waits for, but :class:`Stop`."""
Item = Asked | Told | Stop


class Inbox:
    """A queue of :data:`Item`: :meth:`post` without waiting, :meth:`ask` for an answer."""

    def __init__(self) -> None:
        self._queue: asyncio.Queue[Item] = asyncio.Queue()

    def post(self, item: Item) -> None:
        """Queue an item; nobody waits for it."""
        self._queue.put_nowait(item)

    async def ask(self, request: Request[Answer]) -> Answer:
        """Queue a request and wait for its answer (or the exception it raised)."""
        reply = request.reply
        if not isinstance(request, Asked):
            raise TypeError(f"{type(request).__name__} is not a request of the table")
        self._queue.put_nowait(request)
        return await reply

    async def get(self) -> Item:
        """The next item, waiting for one."""
        return await self._queue.get()

    def close(self, problem: Exception) -> None:
        """Drop what is queued: every request still waiting gets ``problem``."""
        while not self._queue.empty():
            item = self._queue.get_nowait()
            if isinstance(item, Asked):
                fail(item, problem)


def answer(request: Request[Answer], result: Answer) -> None:
    """Give the request its answer (unless its sender stopped waiting)."""
    if not request.reply.done():
        request.reply.set_result(result)


def fail(request: Request[Any], problem: BaseException) -> None:
    """Give the request an exception for an answer (unless its sender stopped waiting)."""
    if not request.reply.done():
        request.reply.set_exception(problem)
