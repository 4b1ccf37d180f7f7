"""The browser client against a cluster (docs/deployment.md): a page served by one node
follows ``redirect`` to the node that runs its table, and plays on there. Real nodes, on a
throwaway PostgreSQL database and Redis (the fixtures of ``tests/test_cluster.py``), driven
in Debian's Chromium (the player of ``tests/test_web.py``)."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import pytest
import test_cluster
import test_web
from server_processes import run
from test_cluster import wait_for
from test_web import CHROMIUM, Player, check_result_against_ledger, play_out

from shuangkou.server.client import Client
from shuangkou.server.process import ServerProcess

# The fixtures: nodes of a cluster of this test's own, and Chromium.
redis_url = test_cluster.redis_url
database_url = test_cluster.database_url
cluster_name = test_cluster.cluster_name
make_node = test_cluster.make_node
directory = test_cluster.directory
browser = test_web.browser

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="the browser tests need Debian's Chromium at /usr/bin/chromium"
)

from playwright.sync_api import Browser  # noqa: E402


def test_a_page_of_one_node_is_sent_to_the_node_that_runs_its_table_and_plays_on(
    make_node: Callable[..., ServerProcess], browser: Browser, directory: Callable[[str], dict[str, str]]
) -> None:
    a, b = make_node("a", bot_delay=0.05).start(60), make_node("b", bot_delay=0.05).start(60)
    ann = Player(browser, a).sign_in("Ann").in_lobby()  # the page and its socket: node a
    sockets: list[str] = []
    ann.page.on("websocket", lambda socket: sockets.append(socket.url))
    token, account = ann.token, ann.account()

    async def seat_at_b() -> None:
        """The same account sits down on b against a bot (as from another device), then goes."""
        client = Client(b.url, token, account)
        await client.connect()
        await client.join("points", opponent="bot")
        await client.until(lambda table: all(seat is not None for seat in table["seats"]))
        await client.close()

    with ThreadPoolExecutor(1) as thread:  # Playwright's event loop runs in this thread
        thread.submit(run, seat_at_b()).result()
    wait_for(lambda: str(account["id"]) in directory("seats"), 5, "b's directory entry of the seat")
    ann.page.reload()  # the page connects to a, which sends it to b: its table shows
    ann.page.wait_for_selector("#view-table:not([hidden])")
    assert sockets[0].startswith(a.url.replace("http", "ws", 1))
    assert sockets[-1].startswith(b.url.replace("http", "ws", 1))
    ann.ready()
    ann.wait_playing()
    play_out([ann])
    check_result_against_ledger(a, ann)  # one database: any node's operator API shows the ledger
    ann.close()


def test_a_page_waiting_alone_on_one_node_is_brought_to_the_player_waiting_on_another(
    make_node: Callable[..., ServerProcess], browser: Browser
) -> None:
    """Ann's page opens a quick-match table on b; Bob then waits at a table of his own on a
    (his join followed a redirect, so a seats him where he arrives). At a heartbeat b sends
    Ann's page to Bob's table on a (the node whose id sorts first), where they play."""
    a, b = make_node("a", bot_delay=0.05).start(60), make_node("b", bot_delay=0.05).start(60)
    ann = Player(browser, b).sign_in("Ann").in_lobby()
    sockets: list[str] = []
    ann.page.on("websocket", lambda socket: sockets.append(socket.url))
    ann.join("points", "quick")
    ann.page.wait_for_selector("#view-table:not([hidden])")
    wait_for(lambda: [node["tables"] for node in a.get("/api/admin/cluster")["nodes"]] == [0, 1], 5,
             "a to know of Ann's table on b")

    async def bob_plays() -> None:
        """Bob waits on a, is joined by Ann, and lets hosting play his seat to the result."""
        bob = await Client.guest(a.url, "Bob")
        await bob.connect()
        await bob.send({"type": "join", "room": "points", "opponent": "human", "redirected": True})
        await bob.until(lambda table: all(seat is not None for seat in table["seats"]), timeout=20)
        await bob.ready()
        await bob.until(lambda table: table["phase"] == "playing", timeout=20)
        await bob.hosting(True)
        await bob.until(lambda table: table["phase"] == "settled", timeout=90)
        await bob.close()

    with ThreadPoolExecutor(1) as thread:
        bob = thread.submit(run, bob_plays())
        # seated with Bob, and ready: the page says it after a quick match
        ann.page.wait_for_selector("#view-table[data-phase=playing]", timeout=20000)
        assert sockets[-1].startswith(a.url.replace("http", "ws", 1)), sockets
        play_out([ann], limit=90)
        bob.result()
    # Ann alone, to a; a page slower to leave than a heartbeat is sent again at the next one.
    sent_on = {(record["to"], record["players"]) for record in test_cluster.logged(b, "players sent on")}
    assert sent_on == {(a.url, 1)}
    check_result_against_ledger(a, ann)
    ann.close()
