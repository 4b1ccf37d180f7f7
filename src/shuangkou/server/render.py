"""Fast JSON for the longest part of what the server sends: the mover's legal moves.

The moves of the seat to act travel with its ``state`` and in ``hint`` replies. A hand's
moves number hundreds on a lead (a few thousand for a full hand with jokers), and the same
moves recur in thousands of hands. So a move travels in its shortest playable form, the
body of a ``play`` message (``{"cards": "3 3 BJ", "as": "pair"}``: readings that differ only
in what the jokers stand for are one move, the server plays the strongest), and
:func:`moves_json` keeps the JSON text of each, by its kind and cards (all its text depends
on; a card count tuple hashes in about half the time of a whole :class:`Combo`).
``tests/test_server_render.py`` checks it against the core.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import orjson

from ..cards import Counts, format_counts
from ..games.shuangkou.combos import Combo

__all__ = ["move_body", "moves_json"]

_MOVE_CACHE_LIMIT = 200_000  # per kind
_moves: dict[str, dict[Counts, str]] = {}


def _dumps(value: Any) -> str:
    return orjson.dumps(value).decode()


def move_body(move: Combo) -> dict[str, str]:
    """A move as a ``play`` message names it: its cards and its kind (``as``)."""
    return {"cards": format_counts(move.cards), "as": move.kind}


def moves_json(moves: Iterable[Combo]) -> str:
    """The JSON list of the distinct :func:`move_body` of ``moves``, in their order, from a cache."""
    parts = []
    for move in moves:
        cache = _moves.get(move.kind)
        if cache is None:
            cache = _moves[move.kind] = {}
        text = cache.get(move.cards)
        if text is None:
            if len(cache) >= _MOVE_CACHE_LIMIT:
                cache.clear()
            text = cache[move.cards] = _dumps(move_body(move))
        parts.append(text)
    return "[" + ",".join(dict.fromkeys(parts)) + "]"
