"""Re-run a stored game with the rules core and check it against the ledger.

:func:`check_game` replays a game from its record (hands, leader, flip card) and its stored
actions, settles the replayed game on the balances the settlement was computed from, and
compares the result with the game's ledger rows and stored settlement. It is what
``shuangkou replay GAME_ID`` prints.

- A finished game matches when the replay reaches the end, the recomputed settlement
  equals the stored one, and the ledger holds exactly its deltas (one row per player, plus
  the house's when it takes part) with nothing else.
- A running game matches when its actions replay and it has no ledger row; a void game
  when it has no ledger row (nothing was paid; it may be void because it does not replay).
"""

from __future__ import annotations

import json
from typing import Any

from ..errors import Refusal
from ..games.interface import Hand
from ..roomfiles import ConfigError
from ..store import LedgerEntry, Store
from .record import TableRecord, balances_before, restore_game, stored_actions

__all__ = ["check_game", "resolve_game_id"]


def resolve_game_id(store: Store, text: str, account_id: int | None = None) -> str | None:
    """The id of the game ``text`` names: its whole id, or a prefix of exactly one game's id
    (as the result screen shows a short one) — with ``account_id``, of one of the games that
    account played. None when no game matches; ``ValueError`` naming the candidates (the
    account's own, with ``account_id``) when several do."""
    if store.get_game(text) is not None:
        return text
    found = store.game_ids_starting(text, limit=3, account_id=account_id) if text else []
    if len(found) > 1:
        shown = ", ".join(found[:2]) + (", ..." if len(found) > 2 else "")
        raise ValueError(f"{text!r} starts the ids of several games ({shown}): give more of it")
    return found[0] if found else None


def check_game(store: Store, game_id: str) -> dict[str, Any] | None:
    """The replay report of ``game_id``, or None when the store has no such game.

    Keys: ``game``, ``status``, ``matches``, ``problems`` (why not), ``actions`` (how many
    are stored), ``replayed`` and ``replay_error`` (whether the actions replay: a void game
    need not), ``result``, ``settlement`` (the recomputed one, finished games only),
    ``ledger`` (the game's rows, oldest first) and ``void_reason``.
    """
    stored = store.get_game(game_id)
    if stored is None:
        return None
    ledger = sorted(store.ledger(game_id=game_id, limit=1000), key=lambda entry: entry.id)
    problems: list[str] = []
    game: Hand | None = None
    replay_error: str | None = None
    record: TableRecord | None = None
    try:
        record, game = restore_game(stored)
        if stored.status == "finished" and list(record.game.actions) != stored_actions(stored):
            # a finished game's record holds every action and event
            problems.append("the record's actions differ from the stored actions")
    except (Refusal, ConfigError, ValueError, KeyError, TypeError) as problem:
        game = None
        replay_error = f"the game does not replay: {problem}"
        if stored.status != "void":  # a void game may be void because it does not replay
            problems.append(replay_error)
    settlement: dict[str, Any] | None = None
    if stored.status == "finished":
        if game is not None and not game.finished:
            problems.append(f"the replayed game is not finished after {len(stored.actions)} actions")
        elif game is not None and record is not None:
            settlement = _settle(store, game, record, stored.settlement_json, ledger, problems)
        if not ledger:
            problems.append("the finished game has no ledger row")
    elif ledger:
        problems.append(f"a {stored.status} game has {len(ledger)} ledger rows")
    return {
        "game": stored.game_id,
        "status": stored.status,
        "matches": not problems,
        "problems": problems,
        "actions": len(stored.actions),
        "replayed": replay_error is None,
        "replay_error": replay_error,
        "result": game.result if game is not None else None,
        "settlement": settlement,
        "ledger": [entry.to_dict() for entry in ledger],
        "void_reason": stored.void_reason,
    }


def _settle(
    store: Store,
    game: Hand,
    record: TableRecord,
    settlement_json: str | None,
    ledger: list[LedgerEntry],
    problems: list[str],
) -> dict[str, Any] | None:
    """Settle the replayed game and compare with the stored settlement and the ledger."""
    saved = json.loads(settlement_json) if settlement_json else None
    accounts = [seat.account for seat in record.seats if seat is not None]
    if len(accounts) != len(record.seats):
        problems.append("the record does not name every seat")
        return None
    if isinstance(saved, dict) and isinstance(saved.get("balances_before"), list):
        balances = [int(b) for b in saved["balances_before"]]
    else:
        before = balances_before(ledger)
        balances = [before.get(account, 0) for account in accounts]
    try:
        computed = game.settlement(balances)
    except (Refusal, ValueError) as problem:
        problems.append(f"the replayed game does not settle: {problem}")
        return None
    settlement: dict[str, Any] = json.loads(json.dumps(computed.to_dict()))
    if saved is None:
        problems.append("the finished game has no stored settlement")
    elif saved != settlement:
        differing = sorted(key for key in settlement.keys() | saved.keys() if settlement.get(key) != saved.get(key))
        problems.append(f"the stored settlement differs from the replayed one in {', '.join(differing)}")
    expected = {account: delta for account, delta in zip(accounts, computed.deltas, strict=True)}
    edition = record.game.config.edition
    if computed.house:
        expected[store.house_id(edition)] = computed.house
    paid: dict[int, int] = {}
    for entry in ledger:
        paid[entry.account_id] = paid.get(entry.account_id, 0) + entry.delta
        if entry.edition != edition:
            problems.append(f"ledger row {entry.id} is in {entry.edition}, not {edition}")
    if paid != expected:
        problems.append(f"the ledger pays {_by_account(paid)} but the replay settles {_by_account(expected)}")
    return settlement


def _by_account(deltas: dict[int, int]) -> str:
    return "{" + ", ".join(f"account {a}: {d:+d}" for a, d in sorted(deltas.items())) + "}"
