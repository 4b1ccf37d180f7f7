"""Helpers of the Tractor tests: referee scenarios of hand-built hands, actions, and
clients playing a hand through a server."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from shuangkou.referee import referee
from shuangkou.server.client import Client


def p(seat: int, cards: str) -> dict[str, object]:
    """A play (a lead, a throw or a follow)."""
    return {"seat": seat, "play": cards}


def declare(seat: int, cards: str) -> dict[str, object]:
    """A declaration (declare, override, reinforce)."""
    return {"seat": seat, "declare": cards}


def tractor(
    hands: Sequence[str],
    actions: Sequence[Mapping[str, object]] = (),
    *,
    trump: str | None = "S",
    level: str | Sequence[str] = "10",
    dealer: int = 0,
    bottom: str = "",
    overrides: Mapping[str, object] | None = None,
    auto: bool = False,
    **extra: Any,
) -> dict[str, Any]:
    """The referee's outcome of a Tractor scenario: level 10, ♠ trump, seat 0 dealing, no
    bottom and forced plays made by hand (``auto``: by the referee, T7.8) unless said."""
    levels = [level, level] if isinstance(level, str) else list(level)
    data: dict[str, Any] = {
        "config": "tractor",
        "overrides": {"auto_play_forced": auto, **(overrides or {})},
        "hands": list(hands),
        "bottom": bottom,
        "dealer": dealer,
        "levels": levels,
        "actions": list(actions),
        **extra,
    }
    if trump is not None:
        data["trump"] = trump
    return referee(data)


def trick(outcome: Mapping[str, Any], index: int = 0) -> dict[str, Any]:
    """One trick of an outcome."""
    tricks: list[dict[str, Any]] = outcome["tricks"]
    return tricks[index]


def kinds(outcome: Mapping[str, Any]) -> list[str]:
    """The types of an outcome's events."""
    return [event["type"] for event in outcome["events"]]


def stacked_deck(hands: Sequence[str], bottom: str = "", first: int = 0) -> tuple[int, ...]:
    """A deck that deals ``hands`` (the cards each seat must receive first, in order; the
    rest of the 108 cards fill up) and ends with ``bottom``, dealing from seat ``first``."""
    from shuangkou.games.tractor.order import FACES, faces_of

    wanted = [faces_of(hand) for hand in hands]
    tail = faces_of(bottom)
    left = Counter({face: 2 for face in range(FACES)})
    left.subtract(Counter(face for cards in (*wanted, tail) for face in cards))
    assert all(count >= 0 for count in left.values()), "more than two of a card"
    spare = sorted(left.elements())
    seats = [list(cards) for cards in wanted]
    for cards in seats:
        while len(cards) < 25:
            cards.append(spare.pop())
    while len(tail) < 8:
        tail.insert(0, spare.pop())
    deck = [seats[(first + index) % 4][index // 4] for index in range(100)]
    return (*deck, *tail)


# ---------------------------------------------------------------------------
# Playing through a server: each client acts when its seat is waited for


Move = dict[str, str]
Choose = Callable[[dict[str, Any], list[Move]], Move]  # (game view, legal moves) -> move


def waited(table: Mapping[str, Any]) -> bool:
    """The view says its seat may act now: in the declaring window, burying or playing
    (the deal's cards arrive by the clock, not by the seat)."""
    game = table["game"]
    return (table["phase"] == "playing" and game["phase"] in ("declare", "bury", "play")
            and table["you"] in game["waiting"])


def no_declaring(game: Mapping[str, Any], moves: list[Move]) -> Move:
    """Say done in the window (declare nothing), bury the bottom back, make the hint's first play."""
    if game["phase"] == "declare":
        return {"type": "declare_done"}
    return moves[0]


async def send_move(client: Client, move: Move) -> None:
    """Send ``move`` (a legal move as the hint names it) against the client's state."""
    await client.send({**move, "seq": client.seq})


async def caught_up(client: Client) -> None:
    """Ping and wait for the pong: every state sent before has been received."""
    await client.send({"type": "ping"})
    await client.expect("pong")


async def tractor_turns(client: Client, game_id: str, choose: Choose = no_declaring,
                        timeout: float = 60.0) -> dict[str, Any]:
    """Make the client's moves in hand ``game_id`` with ``choose`` until it is over;
    returns the last view."""
    while True:
        table = await client.until(lambda t: t["game_id"] != game_id or t["phase"] != "playing" or waited(t), timeout)
        if table["game_id"] != game_id or table["phase"] != "playing":
            return table
        await caught_up(client)
        moves = await client.hint()
        table = client.table or table
        if table["game_id"] != game_id or not waited(table) or not moves:
            continue  # the state moved on meanwhile
        seq = table["seq"]
        await send_move(client, choose(table["game"], moves))
        await client.until(lambda t, seq=seq: t["seq"] > seq, timeout)


async def play_hand(clients: Sequence[Client], choose: Choose = no_declaring,
                    timeout: float = 60.0) -> list[dict[str, Any]]:
    """The clients play the hand in progress to its settlement; returns their last views."""
    tables = [client.table for client in clients]
    game_id = next(table["game_id"] for table in tables if table is not None and table["phase"] == "playing")
    await asyncio.gather(*(tractor_turns(client, game_id, choose, timeout) for client in clients))
    return list(await asyncio.gather(*(client.until(lambda t: t["phase"] == "settled", timeout)
                                       for client in clients)))


async def play_until(clients: Sequence[Client], stop: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """Play the hint's first move of whichever seat is to lead or follow until the game
    view satisfies ``stop``; every client sees each state before the next move. The last view."""
    while True:
        mover = next(client for client in clients
                     if client.table is not None and client.table["game"]["to_act"] == client.table["you"])
        assert mover.table is not None
        if stop(mover.table["game"]):
            return mover.table
        moves = await mover.hint()
        seq = mover.seq
        await send_move(mover, moves[0])
        await mover.until(lambda t, seq=seq: t["seq"] > seq)
        for client in clients:
            await client.until(lambda t, seq=mover.seq: t["seq"] >= seq)
