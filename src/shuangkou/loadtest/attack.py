"""A hostile client beside the load test's players: the soak run of ``shuangkou loadtest
--attack-idle N --attack-flood K``.

From a client address of its own (``127.0.0.2``: every address of ``127.0.0.0/8`` reaches
the loopback, and the server counts it apart from the players' ``127.0.0.1``) the attacker
keeps trying to hold ``idle`` connections that send half a request and then nothing (each
closed by the server within its header deadline, or refused at once past the address's
connection limit, and opened again), and ``flood`` WebSockets of its own guests that send
pings as fast as the socket takes them. What it managed is reported beside the players'
latencies: how many connections it held at most, how many were refused, how many messages
it sent and how many the server answered. It runs in a process of its own
(:func:`attack_for`), so that its work does not slow the players' load generator.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import os
import urllib.request
from dataclasses import asdict, dataclass, field
from typing import Any

import websockets

from .cpubudget import CpuBudget

__all__ = ["ATTACKER_ADDRESS", "Attack", "AttackReport", "attack_for"]

ATTACKER_ADDRESS = "127.0.0.2"
"""The attacker's client address (the players connect from 127.0.0.1)."""


@dataclass
class AttackReport:
    """What the attacker managed during the window."""

    idle_wanted: int = 0
    idle_held_most: int = 0  # idle connections open at once, at most
    idle_opened: int = 0
    idle_refused: int = 0  # closed by the server at once, or not accepted
    flood_connections: int = 0
    flood_sent: int = 0
    flood_answers: dict[str, int] = field(default_factory=dict)  # by type (and error code)

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return asdict(self)

    def to_text(self) -> str:
        """One line for the report."""
        answers = ", ".join(f"{kind} {n}" for kind, n in sorted(self.flood_answers.items())) or "none"
        return (
            f"attacker ({ATTACKER_ADDRESS}): idle connections wanted {self.idle_wanted}, held at most "
            f"{self.idle_held_most} ({self.idle_opened} opened, {self.idle_refused} refused at once); "
            f"{self.flood_connections} flooding WebSockets sent {self.flood_sent} messages, answered: {answers}"
        )


class Attack:
    """The attacker's tasks against the server at ``base_url`` (``http://127.0.0.1:PORT``)."""

    def __init__(self, base_url: str, idle: int, flood: int) -> None:
        self.host, port = base_url.removeprefix("http://").rsplit(":", 1)
        self.port = int(port)
        self.base_url = base_url
        self.report = AttackReport(idle_wanted=idle)
        self.idle = idle
        self.flood = flood
        self._open = 0
        self._tasks: list[asyncio.Task[None]] = []
        self._stopping = False

    async def start(self) -> None:
        """Start holding and flooding (the flooders' guests are made first)."""
        tokens = [await asyncio.to_thread(self._guest, f"Flood{number}") for number in range(self.flood)]
        loop = asyncio.get_running_loop()
        self._tasks += [loop.create_task(self._flood(token)) for token in tokens]
        self._tasks += [loop.create_task(self._hold()) for _ in range(self.idle)]

    async def stop(self) -> AttackReport:
        """Stop, close everything; the report."""
        self._stopping = True
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        return self.report

    def _guest(self, name: str) -> str:
        """A guest account of the attacker's address (made over HTTP from it)."""
        request = urllib.request.Request(
            self.base_url + "/api/guest", data=json.dumps({"name": name}).encode(),
            headers={"Content-Type": "application/json"}, method="POST",
        )
        opener = urllib.request.build_opener(_SourceAddressHandler())
        with opener.open(request, timeout=30) as response:
            return str(json.loads(response.read())["token"])

    async def _hold(self) -> None:
        """Hold one idle connection, opening it again whenever the server closes it."""
        while not self._stopping:
            try:
                reader, writer = await asyncio.open_connection(
                    self.host, self.port, local_addr=(ATTACKER_ADDRESS, 0)
                )
            except OSError:
                self.report.idle_refused += 1
                await asyncio.sleep(0.5)
                continue
            self.report.idle_opened += 1
            self._open += 1
            self.report.idle_held_most = max(self.report.idle_held_most, self._open)
            try:
                writer.write(b"GET /healthz HTTP/1.1\r\n")  # half a request, then nothing
                await writer.drain()
                opened = asyncio.get_running_loop().time()
                await reader.read()  # until the server closes it
                if asyncio.get_running_loop().time() - opened < 0.5:
                    self.report.idle_refused += 1
                    await asyncio.sleep(0.5)  # refused at once: try again in a while
            except OSError:
                self.report.idle_refused += 1
                await asyncio.sleep(0.5)
            finally:
                self._open -= 1
                writer.close()

    async def _flood(self, token: str) -> None:
        """One WebSocket sending pings back to back, reading whatever comes back."""
        url = f"ws://{self.host}:{self.port}/ws?token={token}"
        try:
            async with websockets.connect(url, local_addr=(ATTACKER_ADDRESS, 0), max_size=2**22) as socket:
                self.report.flood_connections += 1
                reader = asyncio.get_running_loop().create_task(self._read(socket))
                try:
                    while not self._stopping:
                        await socket.send('{"type":"ping"}')
                        self.report.flood_sent += 1
                        if self.report.flood_sent % 64 == 0:
                            await asyncio.sleep(0)  # let the reader and the players' bots run
                finally:
                    reader.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await reader
        except (OSError, websockets.exceptions.WebSocketException):
            return

    async def _read(self, socket: Any) -> None:
        answers = self.report.flood_answers
        async for text in socket:
            message = json.loads(text)
            kind = message.get("type", "?")
            if kind == "error":
                kind = f"error:{message.get('code')}"
            answers[kind] = answers.get(kind, 0) + 1


class _SourceAddressHandler(urllib.request.HTTPHandler):
    """HTTP from the attacker's address."""

    def http_open(self, req: urllib.request.Request) -> Any:
        def connection(host: str, **kwargs: Any) -> http.client.HTTPConnection:
            return http.client.HTTPConnection(host, source_address=(ATTACKER_ADDRESS, 0), **kwargs)

        return self.do_open(connection, req)


def attack_for(base_url: str, idle: int, flood: int, seconds: float, cores: float | None = None) -> dict[str, Any]:
    """In a process of its own: attack for ``seconds`` (within ``cores`` of CPU when given,
    as if from a small machine of its own, :class:`~.cpubudget.CpuBudget`); the report's JSON form."""

    async def attack() -> dict[str, Any]:
        attacker = Attack(base_url, idle, flood)
        await attacker.start()
        await asyncio.sleep(seconds)
        return (await attacker.stop()).to_dict()

    budget = CpuBudget(cores, f"shuangkou-attack-{os.getpid()}") if cores is not None else None
    try:
        if budget is not None:
            budget.add(os.getpid())
        return asyncio.run(attack())
    finally:
        if budget is not None:
            budget.release(os.getpid())
            budget.close()
