"""Table fences (shuangkou.store.fences): a write under a claim that another node has
superseded is refused by the database, in the same transaction, and changes nothing.

On SQLite and, with ``SHUANGKOU_TEST_PG_URL``, PostgreSQL (a fresh schema per test), where
the concurrent case also runs: a claim waits for a write under way, and the write after it
is refused.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from store_fixtures import pg_database_fixture, store_fixture, url_fixture  # noqa: F401 - fixtures

from shuangkou.store import Fence, FencedError, GameStateError, Payout, Store
from shuangkou.store.fences import _FENCES_FOR_SHARE, check_fence
from shuangkou.store.journal import _GAMES_STATUS_FOR_UPDATE

CONFIG = '{"edition": "points"}'


def snapshot(store: Store, game_id: str) -> tuple[Any, ...]:
    stored = store.get_game(game_id)
    assert stored is not None
    return stored.status, [action.seq for action in stored.actions], store.ledger(limit=1000), store.is_settled(game_id)


def test_claims_raise_the_token_and_name_the_node(store: Store) -> None:
    first = store.claim_table("t1", "node-a")
    assert first == Fence("t1", 1)
    assert store.claim_table("t1", "node-b") == Fence("t1", 2)
    assert store.claim_table("t2", "node-b") == Fence("t2", 1)
    store.save_game("g1", "points", CONFIG, "{}", table_id="t1", fence=Fence("t1", 2))
    store.save_game("g2", "points", CONFIG, "{}", table_id="t2", fence=Fence("t2", 1))
    store.save_game("g3", "points", CONFIG, "{}")  # a single server's game: no table claimed
    owners = {game.game_id: (game.table_id, game.node) for game in store.running_game_owners()}
    assert owners == {"g1": ("t1", "node-b"), "g2": ("t2", "node-b"), "g3": (None, None)}
    assert [game.game_id for game in store.running_game_owners(["node-a"])] == []
    assert not store.release_table(first)  # superseded: the claim stays node-b's
    assert store.release_table(Fence("t2", 1))
    assert [game.node for game in store.running_game_owners(["node-b"])] == ["node-b"]


def test_every_write_under_a_superseded_claim_is_refused_and_changes_nothing(store: Store) -> None:
    old = store.claim_table("t1", "node-a")
    alice = store.create_guest("Alice", {"points": 100})
    bob = store.create_guest("Bob", {"points": 100})
    store.save_game("g1", "points", CONFIG, "{}", table_id="t1", fence=old)
    store.append_action("g1", 1, '{"seat": 0}', fence=old)
    new = store.claim_table("t1", "node-b")
    before = snapshot(store, "g1")

    with pytest.raises(FencedError, match=r"table t1 was claimed again \(token 2\).*token 1"):
        store.append_action("g1", 2, '{"seat": 1}', fence=old)
    outcomes = store.append_actions([("g1", 2, '{"seat": 1}')], fences=[old])
    assert isinstance(outcomes[0], FencedError)
    with pytest.raises(FencedError):
        store.apply_settlement("g1", "points", {alice.id: 10, bob.id: -10}, 0, False, "game g1", fence=old)
    with pytest.raises(FencedError):
        store.finish_game("g1", "{}", "{}", fence=old)
    with pytest.raises(FencedError):
        store.settle_game(
            "g1", "points", [alice.id, bob.id], lambda _: (None, Payout((10, -10), 0, "{}")), False, "game g1", "{}",
            fence=old,
        )
    with pytest.raises(FencedError):
        store.void_game("g1", "lost", fence=old)
    with pytest.raises(FencedError):
        store.save_game("g2", "points", CONFIG, "{}", table_id="t1", fence=old)
    assert snapshot(store, "g1") == before
    assert store.get_game("g2") is None

    # The new claim writes as before.
    assert store.append_actions([("g1", 2, '{"seat": 1}')], fences=[new]) == [None]
    assert store.apply_settlement("g1", "points", {alice.id: 10, bob.id: -10}, 0, False, "game g1", fence=new)
    assert store.finish_game("g1", "{}", "{}", fence=new)
    assert store.audit() == []
    with pytest.raises(GameStateError):
        store.append_action("g1", 3, "{}", fence=new)


def test_a_batch_with_one_superseded_table_stores_the_others(store: Store) -> None:
    fences = [store.claim_table(table, "node-a") for table in ("t1", "t2", "t3")]
    for number, fence in enumerate(fences, 1):
        store.save_game(f"g{number}", "points", CONFIG, "{}", table_id=fence.table_id, fence=fence)
    store.claim_table("t2", "node-b")
    actions = [(f"g{number}", 1, "{}") for number in (1, 2, 3)]
    outcomes = store.append_actions(actions, fences=fences)
    assert outcomes[0] is None and outcomes[2] is None
    assert isinstance(outcomes[1], FencedError)
    assert [len(snapshot(store, f"g{n}")[1]) for n in (1, 2, 3)] == [1, 0, 1]


def test_a_forgotten_claim_refuses_writes_too(store: Store) -> None:
    fence = store.claim_table("t1", "node-a")
    store.save_game("g1", "points", CONFIG, "{}", table_id="t1", fence=fence)
    assert store.release_table(fence)
    with pytest.raises(FencedError, match="no longer claimed"):
        store.append_action("g1", 1, "{}", fence=fence)


def test_a_claim_waits_for_a_write_under_way_and_refuses_the_next(store: Store) -> None:
    """PostgreSQL: the write holds the fence row FOR SHARE until it commits; the claim's
    update waits for it; the old claim's next write is refused."""
    if store.dialect != "postgresql":
        pytest.skip("SQLite serializes every writer: one node only")
    old = store.claim_table("t1", "node-a")
    store.save_game("g1", "points", CONFIG, "{}", table_id="t1", fence=old)
    claimed: list[Fence] = []
    with store._transaction(write=True) as conn:
        check_fence(conn, old)  # a write of node A is under way and holds the fence row
        claimer = threading.Thread(target=lambda: claimed.append(store.claim_table("t1", "node-b")))
        claimer.start()
        time.sleep(0.3)
        assert claimed == []  # the claim waits for the write
    claimer.join(10)
    assert claimed == [Fence("t1", 2)]
    with pytest.raises(FencedError):
        store.append_action("g1", 1, "{}", fence=old)


def test_a_batchs_checks_look_each_key_up_by_its_index_in_a_table_never_analyzed(store: Store) -> None:
    """PostgreSQL: the fences and the games' status of a group commit are read key by key
    through the primary key, not by reading the whole table (which the planner picks for
    ``key = ANY(array)`` on a table of a thousand rows, analyzed or not, as here in a fresh
    schema; it cost four to five times as much per batch)."""
    if store.dialect != "postgresql":
        pytest.skip("SQLite checks one table at a time")
    for number in range(1000):
        fence = store.claim_table(f"t{number:04}", "node-a")
        store.save_game(f"g{number:04}", "points", CONFIG, table_id=fence.table_id, fence=fence)
    cases = [
        (_FENCES_FOR_SHARE, "table_ids", "t", "table_fences"),
        (_GAMES_STATUS_FOR_UPDATE, "game_ids", "g", "games"),
    ]
    for statement, parameter, prefix, table in cases:
        compiled = store.driver_statement(statement)
        keys = [f"{prefix}{number:04}" for number in (3, 17, 256, 640, 999)] + [f"{prefix}9999"]  # one unknown
        with store._driver_transaction() as cursor:
            cursor.execute("EXPLAIN " + compiled.sql, compiled.parameters({parameter: keys}))
            plan = "\n".join(row[0] for row in cursor.fetchall())
            cursor.execute(compiled.sql, compiled.parameters({parameter: keys}))
            found = [row[0] for row in cursor.fetchall()]
        assert f"Index Scan using pk_{table}" in plan and "Seq Scan" not in plan, plan
        assert found == keys[:-1]  # each known key once, in the order given (the locking order)


def test_the_shared_secret_is_made_once(store: Store) -> None:
    first = store.shared_secret("session")
    assert len(first) >= 32
    assert store.shared_secret("session") == first
    assert store.shared_secret("other") != first
