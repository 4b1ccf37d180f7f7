"""Two players over real WebSockets against a server process (``test_server_restart``,
``test_server_rooms``): seat them, play from hints, finish by hosting, reconnect."""

from __future__ import annotations

import asyncio
from typing import Any

from shuangkou.server.client import Client
from shuangkou.server.process import ServerProcess

__all__ = ["close_all", "finish_by_hosting", "play_turns", "reconnect", "seat_group", "seat_pair"]


async def reconnect(server: ServerProcess, old: Client) -> Client:
    """A new connection with the same session token."""
    client = Client(server.url, old.token, old.account)
    await client.connect()
    return client


async def seat_pair(server: ServerProcess) -> tuple[Client, Client]:
    """Two guests matched at one table, in a game."""
    a, b = await seat_group(server, "points", ("Ann", "Bob"))
    return a, b


async def seat_group(server: ServerProcess, room: str, names: tuple[str, ...]) -> tuple[Client, ...]:
    """Guests matched at one table of ``room`` (one per seat), in a game."""
    clients = tuple([await Client.guest(server.url, name) for name in names])
    for client in clients:
        await client.connect()
        await client.join(room)
        await client.until(lambda table: True)
    await clients[0].until(lambda table: all(seat is not None for seat in table["seats"]))
    for client in clients:
        await client.ready()
    for client in clients:
        await client.until(lambda table: table["phase"] == "playing")
    return clients


async def play_turns(pair: tuple[Client, ...], count: int) -> None:
    """Play ``count`` actions from hints, whoever is to act; both views stay in step."""
    for _ in range(count):
        mover = next((client for client in pair if client.my_turn), None)
        assert mover is not None, f"no seat is to act: {pair[0].table}"
        hints = await mover.hint()
        before = mover.seq
        first = hints[0] if hints else {"type": "pass"}
        if "cards" in first:
            await mover.play(first["cards"], first["as"])
        else:
            await mover.pass_turn()
        await mover.until(lambda table, before=before: table["seq"] > before)
        for client in pair:
            await client.until(lambda table, seq=mover.seq: table["seq"] >= seq)
        await asyncio.sleep(0.06)  # well inside the message rate limit


async def finish_by_hosting(pair: tuple[Client, ...]) -> dict[str, Any]:
    """Every player switches hosting on; the server plays the game to its end."""
    for client in pair:
        await client.hosting(True)
    for client in pair:
        await client.until(lambda table: table["phase"] == "settled", timeout=30)
    assert pair[0].table is not None
    return pair[0].table


async def close_all(*clients: Client) -> None:
    for client in clients:
        await client.close()
