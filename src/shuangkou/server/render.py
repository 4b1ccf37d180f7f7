"""Fast JSON for the longest part of what the server sends: the mover's legal moves.

The moves of the seat to act travel with its ``state`` and in ``hint`` replies. A hand's
moves number hundreds on a lead (over a thousand readings of a full hand), and the same
moves recur in thousands of hands; turning one into JSON (:meth:`Combo.view`) costs
far more than looking it up. So
:func:`moves_json` keeps the JSON text of each combination (a :class:`Combo` is a
hashable named tuple, and its JSON depends on nothing else). ``tests/test_server_render.py``
checks it against the core.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import orjson

from ..combos import Combo

__all__ = ["moves_json"]

_MOVE_CACHE_LIMIT = 200_000
_moves: dict[Combo, str] = {}


def _dumps(value: Any) -> str:
    return orjson.dumps(value).decode()


def moves_json(moves: Iterable[Combo]) -> str:
    """The JSON list of ``[move.view() for move in moves]``, from a cache."""
    cache = _moves
    parts = []
    for move in moves:
        text = cache.get(move)
        if text is None:
            if len(cache) >= _MOVE_CACHE_LIMIT:
                cache.clear()
            text = cache[move] = _dumps(move.view())
        parts.append(text)
    return "[" + ",".join(parts) + "]"
