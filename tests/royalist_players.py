"""Royalist over real WebSockets, for the server tests (``test_royalist_server``,
``test_royalist_tables``, ``test_royalist_restart``): the shipped ``royalist`` room with
chosen keys, and a person who answers the throne offer, its declaration and its turns
from the moves the server offers (the hint), a chooser picking among them."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import shuangkou
from shuangkou.server.client import Client, ClientError

__all__ = ["SHIPPED", "Choice", "act", "first_choice", "play_until", "room_text", "take_actions", "waits_for"]

SHIPPED = Path(shuangkou.__file__).parent / "configs" / "royalist.toml"

Choice = Callable[[dict[str, Any], list[dict[str, Any]]], dict[str, Any]]
"""(the game's view, the moves offered) -> the move to send."""


def room_text(**keys: object) -> str:
    """The shipped ``royalist`` room file with ``keys`` (each already in it) set to new
    values: numbers and booleans as written, strings quoted."""
    text = SHIPPED.read_text()
    for key, value in keys.items():
        written = f'"{value}"' if isinstance(value, str) else str(value).lower() if isinstance(value, bool) else value
        text, found = re.subn(rf"^{key} = \S+", f"{key} = {written}", text, flags=re.MULTILINE)
        assert found == 1, key
    return text


def waits_for(table: dict[str, Any], seat: int | None) -> bool:
    """The game waits for ``seat``: its turn, its throne offer or its declaration."""
    if table["phase"] != "playing" or seat is None:
        return False
    to_act = table["game"]["to_act"]
    return seat in to_act if isinstance(to_act, list) else to_act == seat


def first_choice(game: dict[str, Any], moves: list[dict[str, Any]]) -> dict[str, Any]:
    """The hint's own choice for a decision (ascend, stay hidden: the defaults of Y8.1);
    in play the set with the most cards on a lead, the smallest beating set (or pass) on a
    follow (Y4.7)."""
    if game["phase"] == "play" and game["table"] is None:
        return max(moves, key=lambda move: len(str(move["cards"]).split()))
    return moves[0]


async def act(client: Client, choose: Choice = first_choice, timeout: float = 30.0) -> bool:
    """One move of the client's seat for the state shown (which must wait for it), chosen
    among the moves offered; False when the state moved on first (a timer, or hosting)."""
    table = client.table
    assert table is not None and waits_for(table, table["you"])
    seq = table["seq"]
    moves = await client.hint()
    if client.seq != seq:
        return False
    await client.send({**choose(table["game"], moves), "seq": seq})
    try:
        await client.until(lambda t: t["seq"] > seq, timeout)
    except ClientError as refusal:  # the turn passed to a timer or hosting meanwhile
        if refusal.code not in ("stale", "not_your_turn"):
            raise
        return False
    return True


async def play_until(
    client: Client,
    game_id: str,
    choose: Choice = first_choice,
    stop: Callable[[dict[str, Any]], bool] = lambda table: False,
    timeout: float = 60.0,
) -> dict[str, Any]:
    """Act whenever game ``game_id`` waits for the client's seat until it is over or
    ``stop`` holds for a view; that view."""
    while True:
        table = await client.until(
            lambda t: t["game_id"] == game_id and (t["phase"] != "playing" or stop(t) or waits_for(t, t["you"])),
            timeout,
        )
        if table["phase"] != "playing" or stop(table):
            return table
        await act(client, choose, timeout)


async def take_actions(clients: tuple[Client, ...], count: int, choose: Choice = first_choice) -> None:
    """``count`` actions of the seats of one table, one at a time, whichever seat the game
    waits for (the lowest first); every client sees each action before the next."""
    for _ in range(count):
        mover = next((c for c in clients if c.table is not None and waits_for(c.table, c.table["you"])), None)
        assert mover is not None, f"the game waits for none of the clients: {clients[0].table}"
        assert await act(mover, choose)
        for client in clients:
            await client.until(lambda table, seq=mover.seq: table["seq"] >= seq)
        await asyncio.sleep(0.06)  # well inside the message rate limit
