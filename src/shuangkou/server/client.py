"""A small asynchronous client of the game server, for bots, load tests and tests.

    client = await Client.guest("http://127.0.0.1:8000", "Ana")
    await client.connect()
    await client.join("points", opponent="bot")
    await client.ready()
    state = await client.until(lambda table: table["phase"] == "playing")

It keeps the latest table view (``client.table``) from every ``state`` message, and the
other messages in ``client.inbox`` for inspection. Against a cluster, :meth:`Client.connect`
follows ``redirect`` to the node that runs the player's table (``client.base_url`` then
names it), and waits while that table is being taken over (``closed`` ``moving``, or a
redirect to a node that has just died: it asks the first node again).
"""

from __future__ import annotations

import asyncio
import json
import time
import urllib.request
from collections.abc import Callable
from typing import Any

import websockets
from websockets.asyncio.client import ClientConnection

from ..errors import Refusal, is_error_code

__all__ = ["Client", "ClientError", "join_after"]


_MAX_REDIRECTS = 3


class ClientError(Refusal, RuntimeError):
    """The server answered with an error message, or never answered."""

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"

    @classmethod
    def of(cls, message: dict[str, Any]) -> ClientError:
        """The refusal an ``error`` message carries (``bad_message`` for a code this client does not know)."""
        code = message.get("code", "")
        text = str(message.get("message", ""))
        return cls(code, text) if is_error_code(code) else cls("bad_message", f"{code}: {text}")


def join_after(redirect: dict[str, Any]) -> dict[str, Any] | None:
    """The ``join`` to send on the node a quick match's ``redirect`` names: its table and/or
    room, marked ``redirected`` (seated there, never sent on); None for a redirect that names
    neither (to the player's own table, or from a draining node), which needs no join."""
    join: dict[str, Any] = {key: redirect[key] for key in ("table", "room") if key in redirect}
    return {"type": "join", **join, "redirected": True} if join else None


class Client:
    """One player's connection to a server."""

    def __init__(self, base_url: str, token: str, account: dict[str, Any]) -> None:
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.account = account
        self.socket: ClientConnection | None = None
        self.table: dict[str, Any] | None = None
        self.events: list[dict[str, Any]] = []
        self.moves: dict[str, Any] | None = None  # the last hint: legal moves for its state seq
        self.inbox: list[dict[str, Any]] = []
        self.room: str | None = None  # the room of the last quick-match join

    @classmethod
    async def guest(cls, base_url: str, name: str) -> Client:
        """Create a guest account and return a client holding its session token."""
        data = await asyncio.to_thread(_post_json, f"{base_url.rstrip('/')}/api/guest", {"name": name})
        return cls(base_url, data["token"], data["account"])

    async def connect(self, timeout: float = 20.0) -> dict[str, Any]:
        """Open the WebSocket and return the welcome message (or raise the refusal),
        following redirects and waiting (up to ``timeout`` seconds) while the player's table
        moves to another node."""
        deadline = time.monotonic() + timeout
        redirects = 0
        origin = self.base_url
        while True:
            url = self.base_url.replace("http", "ws", 1) + f"/ws?token={self.token}"
            try:
                self.socket = await websockets.connect(url, max_size=2**22)
            except OSError:
                if self.base_url == origin or time.monotonic() > deadline:
                    raise
                # Sent to a node that has just died (its liveness not yet expired): ask again.
                self.base_url, redirects = origin, 0
                await asyncio.sleep(0.25)
                continue
            first = await self._receive(timeout=10.0)
            if first["type"] == "error":
                raise ClientError.of(first)
            moving = first["type"] == "closed" and first["reason"] == "moving"
            if first["type"] != "redirect" and not moving:
                return first
            await self.socket.close()
            if moving:
                if time.monotonic() > deadline:
                    raise ClientError("closed", "moving: the table was not taken over in time")
                await asyncio.sleep(0.25)
            elif (redirects := redirects + 1) > _MAX_REDIRECTS:
                raise ClientError("closed", f"more than {_MAX_REDIRECTS} redirects in a row (at {first['url']})")
            else:
                self.base_url = str(first["url"]).rstrip("/")

    async def close(self) -> None:
        """Close the WebSocket."""
        if self.socket is not None:
            await self.socket.close()

    async def send(self, message: dict[str, Any]) -> None:
        """Send one message."""
        assert self.socket is not None, "connect() first"
        await self.socket.send(json.dumps(message))

    async def receive(self, timeout: float = 10.0) -> dict[str, Any]:
        """The next message; ``state`` messages also update :attr:`table`, ``left`` clears it.
        A ``redirect`` (another node of a cluster runs the table) is followed: the client
        connects there and joins the table or room named, as a redirected join (that node
        seats the player: by quick match in the room if the table has filled meanwhile), or
        watches the table named."""
        while True:
            message = await self._receive(timeout)
            if message["type"] == "redirect":
                assert self.socket is not None
                await self.socket.close()
                self.base_url = str(message["url"]).rstrip("/")
                self.inbox.append(await self.connect())
                if "watch" in message:
                    await self.watch(message["watch"])
                elif (join := join_after(message)) is not None:
                    await self.send(join)
            return message

    async def _receive(self, timeout: float) -> dict[str, Any]:
        assert self.socket is not None, "connect() first"
        async with asyncio.timeout(timeout):  # unlike wait_for on Python 3.11, never swallows a cancellation
            text = await self.socket.recv()
        message: dict[str, Any] = json.loads(text)
        if message["type"] == "state":
            self.table = message["table"]
            self.events.extend(message["events"])
            if "moves" in message:  # a state of our turn carries our moves
                self.moves = {"type": "hint", "seq": self.table["seq"], "moves": message["moves"]}
        else:
            if message["type"] == "hint":
                self.moves = message
            elif message["type"] == "left":
                self.table = None  # back in the lobby
            self.inbox.append(message)
        return message

    async def expect(self, kind: str, timeout: float = 10.0) -> dict[str, Any]:
        """Receive until a message of type ``kind``; an error message raises :class:`ClientError`,
        and so does ``closed`` (code ``closed``, the reason as message)."""
        deadline = time.monotonic() + timeout
        while True:
            message = await self.receive(max(0.01, deadline - time.monotonic()))
            if message["type"] == kind:
                return message
            _raise_refusal(message)

    async def until(self, condition: Callable[[dict[str, Any]], bool], timeout: float = 10.0) -> dict[str, Any]:
        """Receive until the table view satisfies ``condition``; returns that view. An error
        or ``closed`` message raises :class:`ClientError`."""
        deadline = time.monotonic() + timeout
        while self.table is None or not condition(self.table):
            _raise_refusal(await self.receive(max(0.01, deadline - time.monotonic())))
        return self.table

    # -- the messages of docs/protocol.md ---------------------------------------------

    async def join(
        self, room: str | None = None, opponent: str = "human", table: str | None = None, seat: int | None = None
    ) -> None:
        """Sit down: quick match, against a bot, a private invite table (in ``seat``, if
        given), or a table by id."""
        message: dict[str, Any] = {"type": "join", "opponent": opponent}
        if room is not None:
            message["room"] = room
            self.room = room if opponent == "human" and table is None else None
        if table is not None:
            message["table"] = table
        if seat is not None:
            message["seat"] = seat
        await self.send(message)

    async def watch(self, table: str) -> None:
        """Watch a table as a spectator (one at a time)."""
        await self.send({"type": "watch", "table": table})

    async def ready(self) -> None:
        """Ready for the next game."""
        await self.send({"type": "ready"})

    async def play(self, cards: str, reading: str | None = None) -> None:
        """Play cards against the current state."""
        message: dict[str, Any] = {"type": "play", "seq": self.seq, "cards": cards}
        if reading is not None:
            message["as"] = reading
        await self.send(message)

    async def pass_turn(self) -> None:
        """Pass against the current state."""
        await self.send({"type": "pass", "seq": self.seq})

    async def hint(self) -> list[dict[str, Any]]:
        """The legal moves for the state shown, in hint order: those its state carried or the
        server pushed after it, or else asked for."""
        def current() -> dict[str, Any] | None:
            fresh = self.moves is not None and self.table is not None and self.moves["seq"] == self.table["seq"]
            return self.moves if fresh else None

        if current() is None:
            await self.send({"type": "hint"})
            while (await self.expect("hint")) is not current():
                pass  # one for an older state (pushed before ours was asked)
        moves: list[dict[str, Any]] = self.moves["moves"] if self.moves is not None else []
        return moves

    async def hosting(self, on: bool) -> None:
        """Switch hosting on or off."""
        await self.send({"type": "hosting", "on": on})

    async def leave(self) -> dict[str, Any]:
        """Leave the table (an escape during a game); returns the server's ``left`` message.
        The connection stays open, back in the lobby."""
        await self.send({"type": "leave"})
        return await self.expect("left")

    @property
    def seq(self) -> int:
        """The state number of the latest view."""
        return int(self.table["seq"]) if self.table else 0

    @property
    def my_turn(self) -> bool:
        """Whether the latest view says it is this client's turn."""
        table = self.table
        return bool(table and table["phase"] == "playing" and table["game"]["to_act"] == table["you"])


def _raise_refusal(message: dict[str, Any]) -> None:
    if message["type"] == "error":
        raise ClientError.of(message)
    if message["type"] == "closed":
        raise ClientError("closed", message["reason"])


def _post_json(url: str, data: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        url, data=json.dumps(data).encode(), headers={"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        result: dict[str, Any] = json.loads(response.read())
    return result
