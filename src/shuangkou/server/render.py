"""Fast views of the moves the server sends most often: the mover's legal moves.

A hand's legal moves (with every ``state`` to the mover, and in ``hint``) list up to a few
hundred combinations, and the same ones recur in thousands of hands; building a
combination's view (:meth:`Combo.to_dict`) costs far more than looking it up. So
:func:`combo_views` keeps the view of each combination (a :class:`Combo` is a hashable
named tuple, and its view depends on nothing else). ``tests/test_server_render.py``
checks it against the core.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..combos import Combo

__all__ = ["combo_views"]

_MOVE_CACHE_LIMIT = 200_000
_views: dict[Combo, dict[str, object]] = {}


def combo_views(moves: Iterable[Combo]) -> list[dict[str, object]]:
    """``[move.to_dict() for move in moves]``, from a cache: read the views, don't change them."""
    cache = _views
    views = []
    for move in moves:
        view = cache.get(move)
        if view is None:
            if len(cache) >= _MOVE_CACHE_LIMIT:
                cache.clear()
            view = cache[move] = move.to_dict()
        views.append(view)
    return views
