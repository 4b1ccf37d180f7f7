"""The generic server runs a Tractor hand knowing nothing of Tractor (its tables, timed deal
and browser are later work): a person with three bots at a Tractor room file plays a whole
hand to its settlement, paid by the ledger, and no state shows another seat's hand or the
bottom to anyone but the dealer before the end (T11.3)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from server_fixtures import (
    RunningServer,
    pg_server_database_fixture,  # noqa: F401 - fixtures
    run,
    start_server_fixture,  # noqa: F401
)

ROOM = """game = "tractor"
name = "Quick tractor"
[deal]
deal_interval_ms = 0
declare_window_seconds = 1
bury_seconds = 5
[timers]
turn_seconds = 0.05
ready_seconds = 30
"""


def test_T11_3_a_tractor_hand_at_a_server_s_table(start_server: Callable[..., RunningServer]) -> None:
    """T11.3, T11.4: a person (whose timers act for it) and three bots; the settlement sums
    to zero with the house and the ledger pays it; the person's states showed only its own
    hand, and the bottom only once it dealt or the hand was over."""
    server = start_server(rooms={"tractor": ROOM})

    async def scenario() -> tuple[list[dict[str, Any]], dict[str, Any]]:
        ana = await server.player("Ana")
        await ana.join("tractor", "invite")
        table = await ana.until(lambda t: t["seats"][0] is not None)
        assert table["family"] == "tractor"
        await ana.send({"type": "bots"})
        await ana.until(lambda t: all(seat is not None for seat in t["seats"]))
        await ana.ready()
        done = await ana.until(lambda t: t["settlement"] is not None, timeout=90)
        return ana.log, done

    log, done = run(scenario(), timeout=120)
    settlement = done["settlement"]
    assert sum(settlement["deltas"]) + settlement["house"] == 0
    ledger = server.admin("GET", f"ledger?game={done['game_id']}")
    assert sorted(entry["delta"] for entry in ledger["entries"]) == sorted(d for d in settlement["deltas"] if d)
    games = [message["table"]["game"] for message in log
             if message["type"] == "state" and message["table"]["game_id"] == done["game_id"]]
    assert games and games[-1]["finished"] and games[-1]["bottom"] is not None
    for game in games:
        assert "hand" in game and len(game["hand"]) == game["cards_left"][game["seat"]]
        if not game["finished"]:
            shown = game["bottom"] is not None
            assert shown == (game["dealer"] == game["seat"] and game["phase"] in ("bury", "play"))
