"""The persistence layer (shuangkou.store) on SQLite and, when configured, PostgreSQL.

Every test runs on a fresh SQLite file. With ``SHUANGKOU_TEST_PG_URL`` set to a PostgreSQL
server URL whose user may create databases (for example
``postgresql+psycopg://postgres@127.0.0.1:5432/postgres``), every test also runs on
PostgreSQL: each test module (each xdist worker) creates its own database and drops it at
the end, and each test gets a fresh schema in it. Without the variable the PostgreSQL
variants are skipped.
"""

from __future__ import annotations

import ast
import doctest
import json
import math
import random
import re
import threading
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from pg import fresh_schema_url, pg_admin_url
from sqlalchemy import URL, create_engine, text
from sqlalchemy.exc import OperationalError
from store_fixtures import pg_database_fixture, store_fixture, url_fixture  # noqa: F401 - fixtures

from shuangkou.games.shuangkou.config import MAX_AMOUNT
from shuangkou.store import (
    EDITIONS,
    BalanceFloorError,
    BalanceRangeError,
    DuplicateActionError,
    GameStateError,
    InvalidNameError,
    InvalidTypeError,
    InvalidValueError,
    Payout,
    Store,
    StoreError,
    UnknownAccountError,
    UnknownGameError,
    ZeroSumError,
    database,
    metadata,
    validate_name,
)
from shuangkou.store import errors as store_errors
from shuangkou.store.schema import utc_now

STORAGE_DOC = Path(__file__).resolve().parent.parent / "docs" / "storage.md"


def _in_threads(count: int, work: Callable[[int], Any]) -> list[Any]:
    """Run ``work(i)`` for i in range(count) in threads released together; results or exceptions."""
    barrier = threading.Barrier(count)
    results: list[Any] = [None] * count

    def run(i: int) -> None:
        barrier.wait()
        try:
            results[i] = work(i)
        except Exception as error:
            results[i] = error

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


def _snapshot(store: Store) -> tuple[Any, ...]:
    """Everything money-related, to compare before and after a refused request."""
    return (
        [(a.id, a.balances) for a in store.list_accounts(1000)],
        store.ledger(limit=10_000),
        [store.total(e) for e in EDITIONS],
    )


# ------------------------------------------------------------------------------------------
# Migrations


def test_migrates_from_empty_to_the_declared_schema(store: Store) -> None:
    with store._engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        assert context.get_current_revision() == "v0003"  # the newest revision (matches)
        assert compare_metadata(context, metadata) == []


def test_house_accounts_exist_from_the_start_and_reopening_keeps_data(url: str) -> None:
    with Store(url) as store:
        houses = store.list_accounts()
        assert [(h.kind, h.balances) for h in houses] == [("house", {"points": 0}), ("house", {"wealth": 0})]
        assert {store.house_id(e) for e in EDITIONS} == {h.id for h in houses}
        assert all(h.is_house for h in houses)
        guest = store.create_guest("Ann", {"points": 5})
    with Store(url) as again:  # the schema is at head: nothing to migrate, nothing lost
        assert [a.id for a in again.list_accounts()] == [*(h.id for h in houses), guest.id]
        assert again.balance(guest.id, "points") == 5


def test_stores_opened_concurrently_on_one_database_migrate_once(url: str) -> None:
    results = _in_threads(4, lambda _: Store(url))
    try:
        assert all(isinstance(r, Store) for r in results), results
        assert len(results[0].list_accounts()) == 2
    finally:
        for result in results:
            if isinstance(result, Store):
                result.close()


# ------------------------------------------------------------------------------------------
# Accounts and names


@pytest.mark.parametrize("name", ["A", "Zhang San", "张三", "x" * 24, "Ann-Marie O'Neil", "🂡 ace"])
def test_valid_names(name: str) -> None:
    assert validate_name(name) == name


def test_names_are_normalized() -> None:
    assert validate_name("  Bob\u00a0 ") == "Bob"
    assert validate_name("e\u0301") == "\u00e9"  # NFC


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("x" * 25, "at most 24"),
        ("a\tb", "control character (U+0009)"),
        ("line\nbreak", "control character"),
        ("nul\x00", "control character"),
        ("bell\x07", "control character"),
        ("zero\u200bwidth", "control character (U+200B)"),
        ("rtl\u202eoverride", "control character"),
    ],
)
def test_invalid_names(name: str, message: str) -> None:
    with pytest.raises(InvalidNameError, match=re.escape(message)):
        validate_name(name)


def test_create_guest(store: Store) -> None:
    ann = store.create_guest("  Ann ", {"points": 100, "wealth": 2500})
    assert ann.name == "Ann" and ann.kind == "guest" and not ann.is_house
    assert ann.balances == {"points": 100, "wealth": 2500}
    assert store.get_account(ann.id) == ann
    bob = store.create_guest("Bob", {"wealth": 10})
    assert store.get_account(bob.id) is not None
    assert store.get_account(bob.id).balances == {"points": 0, "wealth": 10}  # type: ignore[union-attr]
    same_name = store.create_guest("Bob", {})
    assert same_name.id != bob.id
    entries = store.ledger(account_id=ann.id)
    assert sorted((e.edition, e.delta, e.balance_after, e.reason) for e in entries) == [
        ("points", 100, 100, "initial balance"),
        ("wealth", 2500, 2500, "initial balance"),
    ]
    assert store.ledger(account_id=same_name.id) == []
    assert store.get_account(999_999) is None


def test_create_guest_refusals_change_nothing(store: Store) -> None:
    before = _snapshot(store)
    with pytest.raises(InvalidNameError, match="at most 24"):
        store.create_guest("n" * 30, {"points": 1})
    with pytest.raises(InvalidValueError, match="unknown edition 'gold'"):
        store.create_guest("Ann", {"gold": 1})
    with pytest.raises(InvalidValueError, match="must not be negative"):
        store.create_guest("Ann", {"points": -1})
    with pytest.raises(InvalidTypeError):
        store.create_guest("Ann", {"points": 1.5})  # type: ignore[dict-item]
    assert _snapshot(store) == before


def test_list_accounts_pages(store: Store) -> None:
    made = [store.create_guest(f"p{i}", {"points": i}) for i in range(7)]
    everyone = store.list_accounts(limit=100)
    assert [a.id for a in everyone] == sorted(a.id for a in everyone)
    assert [a.id for a in everyone[2:]] == [a.id for a in made]
    assert [a.id for a in store.list_accounts(limit=3, offset=4)] == [a.id for a in made[2:5]]
    assert store.list_accounts(limit=0) == []
    with pytest.raises(InvalidValueError):
        store.list_accounts(limit=-1)


# ------------------------------------------------------------------------------------------
# Grants and floors (R9.5)


def test_grants_and_deductions(store: Store) -> None:
    ann = store.create_guest("Ann", {"wealth": 100})
    entry = store.grant(ann.id, "wealth", 50, "welcome bonus", "op:alice")
    assert (entry.delta, entry.balance_after, entry.operator, entry.game_id) == (50, 150, "op:alice", None)
    assert store.grant(ann.id, "wealth", -150, "correction", "op:alice").balance_after == 0
    assert store.balance(ann.id, "wealth") == 0
    assert store.ledger(account_id=ann.id)[0] == store.ledger(account_id=ann.id, limit=1)[0]
    assert store.total("wealth") == store.granted("wealth") == 0


def test_a_deduction_never_goes_below_the_floor(store: Store) -> None:
    ann = store.create_guest("Ann", {"wealth": 100, "points": 10})
    before = _snapshot(store)
    with pytest.raises(BalanceFloorError, match="has 100 wealth; a change of -101"):
        store.grant(ann.id, "wealth", -101, "fine", "op")
    assert _snapshot(store) == before
    # Points may go negative when the edition allows it (R9.5) ...
    assert store.grant(ann.id, "points", -30, "fine", "op", allow_negative=True).balance_after == -20
    # ... and then a grant without allow_negative may still raise it, but not deduct.
    with pytest.raises(BalanceFloorError):
        store.grant(ann.id, "points", -1, "fine", "op")
    assert store.grant(ann.id, "points", 5, "refund", "op").balance_after == -15


def test_a_balance_never_leaves_the_64_bit_range(store: Store) -> None:
    """SQLite would silently turn an overflowing balance into a float and PostgreSQL would
    fail mid-settlement: the store refuses the change instead, and changes nothing. (Grants
    stop at 10^15; balances reach the edge here through settlements, as endless winnings would.)"""
    top, bottom = 2**63 - 1, -(2**63)
    ann = store.create_guest("Ann", {"wealth": 0, "points": 0})
    bob = store.create_guest("Bob", {"wealth": 100})
    carl = store.create_guest("Carl", {})
    store.apply_settlement("up", "wealth", {ann.id: top - 10, carl.id: -(top - 10)}, 0, True, "jackpot")
    before = _snapshot(store)
    with pytest.raises(BalanceRangeError, match=f"has {top - 10} wealth; a change of 11 would leave"):
        store.grant(ann.id, "wealth", 11, "more", "op")
    with pytest.raises(BalanceRangeError):
        store.apply_settlement("g", "wealth", {ann.id: 20, bob.id: -20}, 0, False, "game")
    with pytest.raises(BalanceRangeError, match="outside the 64-bit range"):
        store.apply_settlement("h", "wealth", {bob.id: 2**63, carl.id: -(2**63)}, 0, True, "too much")
    assert _snapshot(store) == before and not store.is_settled("g")
    assert store.apply_settlement("top", "wealth", {ann.id: 10, carl.id: -10}, 0, True, "to the top")
    assert store.balance(ann.id, "wealth") == top
    # Downwards, where negative balances are allowed.
    store.apply_settlement("debt", "points", {ann.id: bottom + 5, bob.id: 2**62, carl.id: 2**62 - 5}, 0, True, "d")
    with pytest.raises(BalanceRangeError):
        store.apply_settlement("more", "points", {ann.id: -6, carl.id: 6}, 0, True, "more debt")
    assert store.apply_settlement("bottom", "points", {ann.id: -5, carl.id: 5}, 0, True, "to the bottom")
    assert store.balance(ann.id, "points") == bottom
    # Sums of such balances go beyond 64 bits, exactly (settlements sum to zero).
    assert store.total("wealth") == store.granted("wealth") == 100
    assert store.balances([ann.id, bob.id], "wealth") == {ann.id: top, bob.id: 100}
    assert store.audit() == []


def test_r9_8_grants_stay_within_the_bound_on_amounts(store: Store) -> None:
    """A grant moves at most 10^15 and never takes a balance beyond ±10^15 (so that every
    bounded game fits the ledger); a starting balance too. Nothing changes on a refusal."""
    ann = store.create_guest("Ann", {"wealth": 0})
    before = _snapshot(store)
    for delta in (-(2**63), 2**63 - 1, MAX_AMOUNT + 1, -MAX_AMOUNT - 1):
        with pytest.raises(InvalidValueError, match=f"a grant moves at most {MAX_AMOUNT}"):
            store.grant(ann.id, "wealth", delta, "x", "op", allow_negative=True)
    store.grant(ann.id, "wealth", MAX_AMOUNT, "all of it", "op")
    with pytest.raises(BalanceRangeError, match=f"would have {MAX_AMOUNT + 1} wealth; a grant may not"):
        store.grant(ann.id, "wealth", 1, "one more", "op")
    store.grant(ann.id, "points", -MAX_AMOUNT, "debt", "op", allow_negative=True)
    with pytest.raises(BalanceRangeError, match="may not take a balance beyond"):
        store.grant(ann.id, "points", -1, "more debt", "op", allow_negative=True)
    assert store.grant(ann.id, "points", 1, "less debt", "op").balance_after == -MAX_AMOUNT + 1
    with pytest.raises(InvalidValueError, match=f"at most {MAX_AMOUNT}"):
        store.create_guest("Bob", {"wealth": MAX_AMOUNT + 1})
    assert len(store.ledger(account_id=ann.id)) == len(before[1]) + 3
    assert store.audit() == []


def test_balances_read_together_are_each_balance(store: Store) -> None:
    """A table reads its seats' balances in one call: each is what :meth:`Store.balance`
    reads alone, in the edition asked; an unknown account is refused, as alone."""
    ann = store.create_guest("Ann", {"points": 120, "wealth": 5000})
    bob = store.create_guest("Bob", {"points": 10})
    store.grant(bob.id, "points", -35, "fine", "op", allow_negative=True)
    assert store.balances([bob.id, ann.id], "points") == {ann.id: 120, bob.id: -25}
    assert store.balances([ann.id], "wealth") == {ann.id: store.balance(ann.id, "wealth")} == {ann.id: 5000}
    assert store.balances([], "points") == {}
    with pytest.raises(UnknownAccountError):
        store.balances([ann.id, 424242], "wealth")
    with pytest.raises(UnknownAccountError):
        store.balance(424242, "wealth")
    with pytest.raises(InvalidValueError, match="unknown edition"):
        store.balances([ann.id], "coins")


def test_grant_refusals(store: Store) -> None:
    ann = store.create_guest("Ann", {"points": 1})
    with pytest.raises(UnknownAccountError):
        store.grant(424242, "points", 1, "x", "op")
    with pytest.raises(InvalidValueError, match="delta 0"):
        store.grant(ann.id, "points", 0, "x", "op")
    with pytest.raises(InvalidValueError, match="unknown edition"):
        store.grant(ann.id, "coins", 1, "x", "op")
    with pytest.raises(InvalidValueError, match="operator"):
        store.grant(ann.id, "points", 1, "x", "")
    with pytest.raises(InvalidValueError, match="reason"):
        store.grant(ann.id, "points", 1, " ", "op")
    house = store.house_id("points")
    assert store.grant(house, "points", 1000, "float for the house", "op").balance_after == 1000


# ------------------------------------------------------------------------------------------
# Settlement (R9.1, R9.7, R9.9)


def test_settlement_is_applied_exactly_once(store: Store) -> None:
    """R9.9: a settlement is keyed by its game id; a retry of the same game pays nothing."""
    ann = store.create_guest("Ann", {"wealth": 1000})
    bob = store.create_guest("Bob", {"wealth": 1000})
    house = store.house_id("wealth")
    deltas = {ann.id: 300, bob.id: -320}
    seats = {ann.id: 0, bob.id: 1}
    assert store.apply_settlement("game-1", "wealth", deltas, 20, False, "game", seats=seats)
    assert not store.is_settled("game-2")
    assert store.is_settled("game-1")
    after = _snapshot(store)
    assert not store.apply_settlement("game-1", "wealth", deltas, 20, False, "game", seats=seats)
    assert not store.apply_settlement("game-1", "wealth", {ann.id: 5, bob.id: -5}, 0, False, "retry")
    assert _snapshot(store) == after
    assert store.balance(ann.id, "wealth") == 1300
    assert store.balance(bob.id, "wealth") == 680
    assert store.balance(house, "wealth") == 20
    rows = store.ledger(game_id="game-1")
    assert sorted((r.account_id, r.delta, r.balance_after, r.seat) for r in rows) == sorted(
        [(ann.id, 300, 1300, 0), (bob.id, -320, 680, 1), (house, 20, 20, None)]
    )
    assert {r.reason for r in rows} == {"game"}
    assert store.total("wealth") == store.granted("wealth") == 2000
    assert store.audit() == []


def test_settlement_that_is_not_zero_sum_changes_nothing(store: Store) -> None:
    ann = store.create_guest("Ann", {"points": 100})
    bob = store.create_guest("Bob", {"points": 100})
    before = _snapshot(store)
    with pytest.raises(ZeroSumError, match="players \\+10, house \\+0"):
        store.apply_settlement("g", "points", {ann.id: 30, bob.id: -20}, 0, True, "game")
    with pytest.raises(ZeroSumError):
        store.apply_settlement("g", "points", {ann.id: 30, bob.id: -30}, 5, True, "game")
    assert _snapshot(store) == before
    assert not store.is_settled("g")
    assert store.apply_settlement("g", "points", {ann.id: 30, bob.id: -35}, 5, True, "game")


def test_settlement_below_the_floor_changes_nothing_and_can_be_retried(store: Store) -> None:
    ann = store.create_guest("Ann", {"wealth": 100})
    bob = store.create_guest("Bob", {"wealth": 50})
    before = _snapshot(store)
    with pytest.raises(BalanceFloorError, match=f"account {bob.id} has 50 wealth"):
        store.apply_settlement("g", "wealth", {ann.id: 80, bob.id: -80}, 0, False, "game")
    assert _snapshot(store) == before
    assert not store.is_settled("g")
    # The caller caps the payment (R9.5) and retries with the same game id.
    assert store.apply_settlement("g", "wealth", {ann.id: 50, bob.id: -50}, 0, False, "game")
    assert store.balance(bob.id, "wealth") == 0
    # With negatives allowed the same shortfall is fine.
    assert store.apply_settlement("h", "wealth", {ann.id: 10, bob.id: -10}, 0, True, "game")
    assert store.balance(bob.id, "wealth") == -10


def test_settlement_refusals_change_nothing(store: Store) -> None:
    """R9.9: a refused settlement changes no balance and no ledger row: never half a game."""
    ann = store.create_guest("Ann", {"points": 10})
    before = _snapshot(store)
    with pytest.raises(UnknownAccountError):
        store.apply_settlement("g", "points", {ann.id: 5, 987_654: -5}, 0, True, "game")
    with pytest.raises(InvalidValueError, match="house_delta"):
        store.apply_settlement("g", "points", {store.house_id("points"): 5, ann.id: -5}, 0, True, "x")
    with pytest.raises(InvalidValueError, match="at least one"):
        store.apply_settlement("g", "points", {}, 0, True, "game")
    with pytest.raises(InvalidValueError, match="unknown edition"):
        store.apply_settlement("g", "gold", {ann.id: 0}, 0, True, "game")
    with pytest.raises(InvalidValueError, match="game_id"):
        store.apply_settlement("", "points", {ann.id: 0}, 0, True, "game")
    assert _snapshot(store) == before
    assert not store.is_settled("g")


def _fixed(deltas: tuple[int, ...], house: int, breakdown: str = '{"x":1}') -> Callable[[list[int]], Any]:
    """A settlement for :meth:`Store.settle_game` that pays ``deltas`` whatever the balances;
    it returns the balances it was given."""
    return lambda balances: (list(balances), Payout(deltas, house, breakdown))


def test_settle_game_pays_and_finishes_in_one_transaction(store: Store) -> None:
    """R9.9: a game's payment and its end are one transaction: the settlement is computed
    on the balances as they stand, the balances after are returned; a retry pays nothing,
    is computed on the balances the payment was made from, and still answers; a game that
    cannot be finished (void) is not paid either."""
    ann = store.create_guest("Ann", {"wealth": 1000})
    bob = store.create_guest("Bob", {"wealth": 1000})
    store.save_game("g", "wealth", CONFIG)
    seen, after = store.settle_game("g", "wealth", [ann.id, bob.id], _fixed((300, -320), 20), False, "game g", "{}")
    assert seen == [1000, 1000] and after == {ann.id: 1300, bob.id: 680}
    game = store.get_game("g")
    assert game is not None and game.status == "finished" and game.settlement_json == '{"x":1}'
    assert sorted((r.account_id, r.delta, r.seat) for r in store.ledger(game_id="g")) == sorted(
        [(ann.id, 300, 0), (bob.id, -320, 1), (store.house_id("wealth"), 20, None)]
    )
    paid = _snapshot(store)
    store.grant(ann.id, "wealth", 5, "later", "op")
    paid = _snapshot(store)
    retry = store.settle_game("g", "wealth", [ann.id, bob.id], _fixed((1, -1), 0), False, "game g", "{}")
    assert retry == ([1000, 1000], {ann.id: 1305, bob.id: 680})  # the balances it was paid from
    assert _snapshot(store) == paid
    store.save_game("v", "wealth", CONFIG)
    store.void_game("v", "abandoned")
    with pytest.raises(GameStateError, match="void"):
        store.settle_game("v", "wealth", [ann.id, bob.id], _fixed((300, -320), 20), False, "game v", "{}")
    assert _snapshot(store) == paid and not store.is_settled("v")
    store.save_game("h", "wealth", CONFIG)
    with pytest.raises(BalanceFloorError):
        store.settle_game("h", "wealth", [ann.id, bob.id], _fixed((5000, -5000), 0), False, "game h", "{}")
    with pytest.raises(InvalidValueError, match="3 deltas for 2 seats"):
        store.settle_game("h", "wealth", [ann.id, bob.id], _fixed((1, -1, 0), 0), False, "game h", "{}")
    with pytest.raises(InvalidValueError, match="two seats"):
        store.settle_game("h", "wealth", [ann.id, ann.id], _fixed((1, -1), 0), False, "game h", "{}")

    def fails(balances: list[int]) -> tuple[None, Payout]:
        raise ValueError("the settlement itself fails")

    with pytest.raises(ValueError, match="itself"):
        store.settle_game("h", "wealth", [ann.id, bob.id], fails, False, "game h", "{}")
    stored = store.get_game("h")
    assert _snapshot(store) == paid and stored is not None and stored.status == "running"


def test_r9_5_a_settlement_holds_the_balances_it_is_computed_on(store: Store) -> None:
    """R9.5: the balances a settlement is computed from cannot change before it is paid: a
    deduction from another connection made while the settlement computes waits for it and
    then applies to the balance after it, so a settlement capped at what a balance holds
    never fails for a balance that moved (a race once lost whole settlements on PostgreSQL)."""
    ann = store.create_guest("Ann", {"wealth": 20})
    bob = store.create_guest("Bob", {"wealth": 1000})
    store.save_game("g", "wealth", CONFIG)
    deducted: list[Any] = []

    def settle(balances: list[int]) -> tuple[bool, Payout]:
        deduction = threading.Thread(
            target=lambda: deducted.append(_result(lambda: store.grant(ann.id, "wealth", -15, "race", "op")))
        )
        deduction.start()
        deduction.join(0.5)  # the deduction is waiting for this transaction's locks
        charge = min(balances[0], 500)  # capped at what Ann holds (R9.5)
        return deduction.is_alive(), Payout((-charge, charge), 0, "{}")

    waited, after = store.settle_game("g", "wealth", [ann.id, bob.id], settle, False, "game g", "{}")
    assert waited and after == {ann.id: 0, bob.id: 1020}
    for _ in range(100):
        if deducted:
            break
        threading.Event().wait(0.1)
    assert len(deducted) == 1 and isinstance(deducted[0], BalanceFloorError)  # it came after: Ann has 0
    assert store.audit() == []


def _result(work: Callable[[], Any]) -> Any:
    """``work()``, or the exception it raised."""
    try:
        return work()
    except Exception as error:
        return error


def test_concurrent_duplicate_settlements_pay_once(store: Store) -> None:
    """R9.9: the same game settled from several threads at once is paid exactly once."""
    ann = store.create_guest("Ann", {"wealth": 1000})
    bob = store.create_guest("Bob", {"wealth": 1000})
    for game in range(3):
        game_id = f"dup-{game}"
        results = _in_threads(
            8,
            lambda _, game_id=game_id: store.apply_settlement(
                game_id, "wealth", {ann.id: 100, bob.id: -110}, 10, False, "game"
            ),
        )
        assert sorted(results, key=str) == [False] * 7 + [True], results
    assert store.balance(ann.id, "wealth") == 1300
    assert store.balance(bob.id, "wealth") == 670
    assert store.balance(store.house_id("wealth"), "wealth") == 30
    assert len(store.ledger(limit=1000)) == 2 + 3 * 3
    assert store.audit() == []


def test_concurrent_settlements_lose_no_update(store: Store) -> None:
    players = [store.create_guest(f"p{i}", {"points": 1000}) for i in range(4)]

    def play(thread: int) -> int:
        paid = 0
        rng = random.Random(thread)
        for game in range(8):
            winner, loser = rng.sample(players, 2)
            amount = rng.randint(1, 50)
            paid += store.apply_settlement(
                f"t{thread}-{game}", "points", {winner.id: amount, loser.id: -amount - 1}, 1, True, "game"
            )
        return paid

    results = _in_threads(6, play)
    assert results == [8] * 6
    assert store.balance(store.house_id("points"), "points") == 48
    assert store.total("points") == store.granted("points") == 4000
    assert store.audit() == []


def test_totals_only_change_by_grants(store: Store) -> None:
    rng = random.Random(1234)
    players = [store.create_guest(f"p{i}", {e: rng.randint(0, 500) for e in EDITIONS}) for i in range(5)]
    granted = {e: sum(p.balances[e] for p in players) for e in EDITIONS}
    applied = refused = 0
    for game in range(120):
        edition = rng.choice(EDITIONS)
        allow_negative = edition == "points"
        winner, loser = rng.sample(players, 2)
        amount = rng.randint(0, 300)
        fee = rng.randint(0, 10)
        try:
            applied += store.apply_settlement(
                f"g{game}", edition, {winner.id: amount, loser.id: -amount - fee}, fee, allow_negative, "game"
            )
        except BalanceFloorError:
            refused += 1
        if game % 10 == 0:
            delta = rng.randint(-100, 200) or 1
            try:
                store.grant(rng.choice(players).id, edition, delta, "random grant", "op")
                granted[edition] += delta
            except BalanceFloorError:
                refused += 1
        if game % 40 == 0:  # replaying an earlier game changes nothing
            assert not store.apply_settlement("g0", edition, {winner.id: 1, loser.id: -1}, 0, True, "game")
    assert applied > 60 and refused > 0
    for edition in EDITIONS:
        assert store.total(edition) == store.granted(edition) == granted[edition]
        if edition == "wealth":
            assert all(a.balances.get("wealth", 0) >= 0 for a in store.list_accounts(100))
    assert store.audit() == []


# ------------------------------------------------------------------------------------------
# Ledger listing


def test_ledger_listing(store: Store) -> None:
    ann = store.create_guest("Ann", {"points": 10})
    bob = store.create_guest("Bob", {"points": 10})
    for i in range(5):
        store.apply_settlement(f"g{i}", "points", {ann.id: i, bob.id: -i}, 0, True, f"game {i}")
    store.grant(bob.id, "points", 7, "gift", "op")
    everything = store.ledger()
    assert len(everything) == 2 + 10 + 1
    assert [e.id for e in everything] == sorted((e.id for e in everything), reverse=True)
    assert everything[0].reason == "gift" and everything[0].operator == "op"
    anns = store.ledger(account_id=ann.id)
    assert [e.balance_after for e in anns] == [20, 16, 13, 11, 10, 10]
    assert [e.game_id for e in store.ledger(account_id=ann.id, limit=2, offset=1)] == ["g3", "g2"]
    assert {e.account_id for e in store.ledger(game_id="g2")} == {ann.id, bob.id}
    assert [e.delta for e in store.ledger(account_id=bob.id, game_id="g4")] == [-4]
    assert store.ledger(game_id="nope") == []
    assert all(e.created_at.tzinfo is not None for e in everything)


# ------------------------------------------------------------------------------------------
# Games


CONFIG = json.dumps({"edition": "points", "turn_seconds": 20})


def test_game_lifecycle_and_restore(url: str) -> None:
    with Store(url) as store:
        store.save_game("g1", "room-a", CONFIG)
        store.save_game("g2", "room-b", CONFIG, json.dumps({"moves": []}))
        for seq in (0, 2, 1):
            store.append_action("g1", seq, json.dumps({"seq": seq}))
        with pytest.raises(DuplicateActionError, match="already has action 1"):
            store.append_action("g1", 1, json.dumps({"seq": "again"}))
        store.append_action("g2", 0, "{}")
        store.save_game("g2", "room-b", CONFIG, json.dumps({"moves": [1]}))
    # A restart: the running games come back with their actions in order.
    with Store(url) as store:
        running = store.running_games()
        assert [g.game_id for g in running] == ["g1", "g2"]
        assert [a.seq for a in running[0].actions] == [0, 1, 2]
        assert [json.loads(a.action_json) for a in running[0].actions] == [{"seq": 0}, {"seq": 1}, {"seq": 2}]
        assert running[1].record_json == json.dumps({"moves": [1]})
        assert running[0].status == "running" and running[0].config_json == CONFIG

        assert store.finish_game("g1", json.dumps({"winner": 0}), json.dumps({"net": [10, -10]}))
        assert not store.finish_game("g1", json.dumps({"winner": 0}), json.dumps({"net": [10, -10]}))
        finished = store.get_game("g1")
        assert finished is not None and finished.status == "finished"
        assert finished.settlement_json == json.dumps({"net": [10, -10]})
        assert len(finished.actions) == 3
        assert finished.updated_at >= finished.created_at
        with pytest.raises(GameStateError, match="g1 is finished; no more actions"):
            store.append_action("g1", 3, "{}")
        with pytest.raises(GameStateError, match="cannot become void"):
            store.void_game("g1", "too late")
        with pytest.raises(GameStateError, match="can no longer be saved"):
            store.save_game("g1", "room-a", CONFIG, status="running")

        assert store.void_game("g2", "server shut down")
        assert not store.void_game("g2", "again")
        voided = store.get_game("g2")
        assert voided is not None and (voided.status, voided.void_reason) == ("void", "server shut down")
        with pytest.raises(GameStateError, match="cannot become finished"):
            store.finish_game("g2", "{}", "{}")
        assert store.running_games() == []


def test_game_refusals(store: Store) -> None:
    with pytest.raises(UnknownGameError):
        store.append_action("ghost", 0, "{}")
    with pytest.raises(UnknownGameError):
        store.finish_game("ghost", "{}", "{}")
    with pytest.raises(UnknownGameError):
        store.void_game("ghost", "x")
    assert store.get_game("ghost") is None
    with pytest.raises(InvalidValueError, match="config_json is not valid JSON"):
        store.save_game("g", "room", "{not json")
    with pytest.raises(InvalidValueError, match="unknown game status"):
        store.save_game("g", "room", CONFIG, status="paused")
    store.save_game("g", "room", CONFIG)
    with pytest.raises(InvalidValueError, match="seq must not be negative"):
        store.append_action("g", -1, "{}")
    with pytest.raises(InvalidValueError, match="action_json"):
        store.append_action("g", 0, "")
    with pytest.raises(InvalidValueError, match="action_json is not valid JSON"):
        store.append_action("g", 0, '{"value": NaN}')  # JSON has no NaN (RFC 8259)
    assert store.get_game("g").actions == ()  # type: ignore[union-attr]


def test_concurrent_duplicate_actions_store_one(store: Store) -> None:
    store.save_game("g", "room", CONFIG)
    results = _in_threads(6, lambda i: store.append_action("g", 0, json.dumps({"thread": i})))
    assert sum(r is None for r in results) == 1
    assert all(isinstance(r, DuplicateActionError) for r in results if r is not None)
    game = store.get_game("g")
    assert game is not None and len(game.actions) == 1


def test_a_batch_of_actions_is_one_commit(store: Store) -> None:
    """Group commit: actions of several games in one call are all stored, in order."""
    for game in ("g1", "g2"):
        store.save_game(game, "room", CONFIG)
    batch = [("g1", 0, '{"a": 0}'), ("g2", 0, '{"b": 0}'), ("g1", 1, '{"a": 1}')]
    assert store.append_actions(batch) == [None, None, None]
    assert store.append_actions([]) == []
    stored = {g.game_id: [(a.seq, a.action_json) for a in g.actions] for g in store.running_games()}
    assert stored == {"g1": [(0, '{"a": 0}'), (1, '{"a": 1}')], "g2": [(0, '{"b": 0}')]}


def test_a_bad_action_in_a_batch_holds_back_no_other(store: Store) -> None:
    """Each action of a batch gets the answer append_action gives it; the good ones are stored."""
    for game in ("g1", "done"):
        store.save_game(game, "room", CONFIG)
    store.append_action("g1", 0, "{}")
    store.finish_game("done", "{}", "{}")
    batch = [
        ("g1", 1, '{"ok": 1}'),
        ("g1", 0, '{"again": 0}'),  # a duplicate
        ("ghost", 0, "{}"),  # no such game
        ("done", 0, "{}"),  # finished
        ("g1", 2, "not json"),
        ("g1", -1, "{}"),
        ("g1", 3, '{"ok": 3}'),
        ("g1", 3, '{"twice": 3}'),  # a duplicate inside the batch
    ]
    outcomes = store.append_actions(batch)
    assert [type(o).__name__ for o in outcomes] == [
        "NoneType", "DuplicateActionError", "UnknownGameError", "GameStateError",
        "InvalidValueError", "InvalidValueError", "NoneType", "DuplicateActionError",
    ]
    game = store.get_game("g1")
    assert game is not None and [(a.seq, a.action_json) for a in game.actions] == [
        (0, "{}"), (1, '{"ok": 1}'), (3, '{"ok": 3}')
    ]


@pytest.mark.parametrize("ending", ["unknown", "finished", "void"])
def test_a_batch_of_valid_actions_with_one_game_not_running_stores_the_others(store: Store, ending: str) -> None:
    """Every action of the batch is well formed and new, but one's game is not running (no
    such game, finished or void): that one gets append_action's error, the others are stored,
    and the game that is not running gets no row."""
    for game in ("g1", "g2", "over"):
        store.save_game(game, "room", CONFIG)
    if ending == "finished":
        store.finish_game("over", "{}", "{}")
    elif ending == "void":
        store.void_game("over", "abandoned")
    other = "ghost" if ending == "unknown" else "over"
    outcomes = store.append_actions([("g1", 0, "{}"), (other, 0, "{}"), ("g2", 0, "{}"), ("g1", 1, "{}")])
    expected = UnknownGameError if ending == "unknown" else GameStateError
    assert outcomes[0] is None and isinstance(outcomes[1], expected) and outcomes[2:] == [None, None]
    found = {game: store.get_game(game) for game in ("g1", "g2", "over")}
    assert {game: [a.seq for a in stored.actions] for game, stored in found.items() if stored is not None} == {
        "g1": [0, 1], "g2": [0], "over": [],
    }


def test_list_games(store: Store) -> None:
    for i in range(6):
        store.save_game(f"g{i}", "room", CONFIG)
    store.finish_game("g1", "{}", "{}")
    store.void_game("g2", "abandoned")
    newest_first = [g.game_id for g in store.list_games()]
    assert newest_first == ["g5", "g4", "g3", "g2", "g1", "g0"]
    assert [g.game_id for g in store.list_games(limit=2, offset=1)] == ["g4", "g3"]
    assert [g.game_id for g in store.list_games(status="finished")] == ["g1"]
    assert all(g.actions == () for g in store.list_games())
    assert [g.game_id for g in store.running_games()] == ["g0", "g3", "g4", "g5"]
    assert store.save_game("g6", "room", CONFIG, "{}", status="finished") is None
    assert store.get_game("g6").status == "finished"  # type: ignore[union-attr]


def test_bad_game_arguments_are_refused(store: Store) -> None:
    store.save_game("g", "room", CONFIG)
    with pytest.raises(InvalidValueError, match="unknown game status 'paused'"):
        store.list_games(status="paused")
    with pytest.raises(InvalidTypeError, match="game_id must be a string, not int"):
        store.append_action(7, 0, "{}")  # type: ignore[arg-type]
    outcomes = store.append_actions([("g", 0, "{}"), ("", 1, "{}"), ("g" * 65, 0, "{}"), ("g", 1, "{}")])
    assert [type(o).__name__ for o in outcomes] == ["NoneType", "InvalidValueError", "InvalidValueError", "NoneType"]
    assert [a.seq for a in store.get_game("g").actions] == [0, 1]  # type: ignore[union-attr]


# ------------------------------------------------------------------------------------------
# Errors


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("mysql://root@localhost/db", "unsupported database 'mysql'"),
        ("sqlite+nosuchdriver://", "not a usable database URL"),
        ("not a url", "not a usable database URL"),
    ],
)
def test_a_bad_database_url_is_refused(url: str, message: str) -> None:
    with pytest.raises(InvalidValueError, match=message):
        Store(url)


def test_bad_arguments_are_store_errors_and_keep_their_builtin_base(store: Store) -> None:
    with pytest.raises(InvalidTypeError) as wrong_type:
        store.grant(store.house_id("points"), "points", 1.5, "x", "op")  # type: ignore[arg-type]
    with pytest.raises(InvalidValueError) as wrong_value:
        store.ledger(limit=-1)
    with pytest.raises(InvalidNameError) as wrong_name:
        store.create_guest("", {})
    assert isinstance(wrong_type.value, StoreError) and isinstance(wrong_type.value, TypeError)
    assert isinstance(wrong_type.value, ValueError)
    for refused in (wrong_value.value, wrong_name.value):
        assert isinstance(refused, StoreError) and isinstance(refused, ValueError)


def test_the_store_raises_only_its_own_errors() -> None:
    """Every ``raise SomeError(...)`` in the store's code and migrations names a StoreError
    (re-raises aside), but the ``DisconnectionError`` that tells SQLAlchemy's pool to connect
    anew: the pool catches it, no caller sees it."""
    package = Path(store_errors.__file__).parent
    raised = {
        (path.name, node.exc.func.id)
        for path in package.rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and isinstance(node.exc.func, ast.Name)
    }
    assert {"InvalidValueError", "UnknownGameError", "BalanceFloorError"} <= {name for _, name in raised}
    assert all(issubclass(getattr(store_errors, name), StoreError) for name in store_errors.__all__)
    assert {(module, name) for module, name in raised if name not in store_errors.__all__} == {
        ("database.py", "DisconnectionError")
    }


# ------------------------------------------------------------------------------------------
# Documentation


def test_storage_doc_examples() -> None:
    failures, tried = doctest.testfile(
        str(STORAGE_DOC), module_relative=False, optionflags=doctest.ELLIPSIS, verbose=False
    )
    assert tried > 5 and failures == 0


def test_the_group_commit_writes_the_rows_a_single_append_writes(store: Store) -> None:
    """append_actions runs on the driver's cursor: its rows read back as append_action's do
    (the timestamp converted the same way), and a duplicate is refused the same way."""
    store.save_game("g", "points", CONFIG)
    before = utc_now()
    store.append_action("g", 1, '{"seat": 0, "pass": true}')
    assert store.append_actions([("g", 2, '{"seat": 1, "pass": true}'), ("g", 3, "{}")]) == [None, None]
    game = store.get_game("g")
    assert game is not None
    assert [(a.seq, a.action_json) for a in game.actions] == [
        (1, '{"seat": 0, "pass": true}'), (2, '{"seat": 1, "pass": true}'), (3, "{}"),
    ]
    for action in game.actions:
        assert action.created_at.tzinfo is not None and action.created_at >= before - timedelta(seconds=1)
    outcomes = store.append_actions([("g", 3, "{}"), ("g", 4, "{}")])
    assert isinstance(outcomes[0], DuplicateActionError) and outcomes[1] is None


def test_a_connection_postgresql_dropped_is_replaced(pg_database: URL, monkeypatch: pytest.MonkeyPatch) -> None:
    """A pooled connection the database dropped (a restart, say) fails the one call that
    meets it while in steady use, and is not pooled again; one that rested longer than
    ``IDLE_PING`` is pinged before its next use and replaced without a failure."""
    admin_url = pg_admin_url()
    assert admin_url is not None
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")

    def drop_connections() -> None:
        with admin.connect() as conn:
            conn.execute(
                text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = :name"),
                {"name": pg_database.database},
            )

    try:
        with Store(fresh_schema_url(pg_database)) as store:
            store.save_game("g", "room", CONFIG)
            monkeypatch.setattr(database, "IDLE_PING", math.inf)  # never pinged: the call meets the lost connection
            drop_connections()
            with pytest.raises(OperationalError):
                store.append_actions([("g", 0, "{}")])
            assert store.append_actions([("g", 0, "{}")]) == [None]  # on a new connection
            monkeypatch.setattr(database, "IDLE_PING", -1.0)  # always pinged
            drop_connections()
            assert store.append_actions([("g", 1, "{}")]) == [None]
            assert [action.seq for action in store.running_games()[0].actions] == [0, 1]
    finally:
        admin.dispose()


def test_a_table_s_match_is_its_last_paid_hand_until_the_table_closes(store: Store) -> None:
    """The hand paid with ``match_table`` becomes that table's match (in the paying
    transaction, so a match is never ahead of or behind its payments); a later hand there
    replaces it, a hand that fails to pay changes nothing, and closing the table forgets it."""
    ann = store.create_guest("Ann", {"points": 100})
    bob = store.create_guest("Bob", {"points": 100})

    def even(balances: list[int]) -> tuple[None, Payout]:
        return None, Payout((0, 0), 0, "{}")

    def fails(balances: list[int]) -> tuple[None, Payout]:
        raise ValueError("no settlement")

    for game in ("g1", "g2", "g3"):
        store.save_game(game, "points", CONFIG, table_id="T1")
    assert store.open_matches() == []
    store.settle_game("g1", "points", [ann.id, bob.id], even, False, "game g1", '{"carried": 1}', match_table="T1")
    assert [(game.game_id, game.record_json) for game in store.open_matches()] == [("g1", '{"carried": 1}')]
    with pytest.raises(ValueError, match="no settlement"):
        store.settle_game("g3", "points", [ann.id, bob.id], fails, False, "game g3", "{}", match_table="T1")
    assert [game.game_id for game in store.open_matches()] == ["g1"]
    store.settle_game("g2", "points", [ann.id, bob.id], even, False, "game g2", "{}", match_table="T1")
    assert [game.game_id for game in store.open_matches()] == ["g2"]
    assert store.end_match("T1") and not store.end_match("T1")
    assert store.open_matches() == []
