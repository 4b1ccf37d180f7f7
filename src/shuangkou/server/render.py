"""Fast JSON for the two messages the server sends most: hints and game views.

A hint lists every legal move; a view repeats the last plays. Both are built from
combinations and plays that recur constantly (the same move in thousands of hands, the
same play in every view until it scrolls away), and turning one into JSON
(:meth:`Combo.to_dict`) costs far more than looking it up. So:

- :func:`moves_json` keeps the JSON text of each combination (a :class:`Combo` is a
  hashable named tuple, and its JSON depends on nothing else);
- :class:`ViewCache` builds :meth:`Game.view` with each play's dictionary made once per
  game.

Both produce exactly what the core produces (``tests/test_server_render.py`` compares
them on many games); a change to :meth:`Game.view` must be made here too.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import orjson

from ..cards import format_cards
from ..combos import Combo
from ..game import Game, PlayRecord

__all__ = ["ViewCache", "moves_json"]

_MOVE_CACHE_LIMIT = 200_000
_moves: dict[Combo, str] = {}


def _dumps(value: Any) -> str:
    return orjson.dumps(value).decode()


def moves_json(moves: Iterable[Combo]) -> str:
    """The JSON list of ``[move.to_dict() for move in moves]``, from a cache."""
    cache = _moves
    parts = []
    for move in moves:
        text = cache.get(move)
        if text is None:
            if len(cache) >= _MOVE_CACHE_LIMIT:
                cache.clear()
            text = cache[move] = _dumps(move.to_dict())
        parts.append(text)
    return "[" + ",".join(parts) + "]"


class ViewCache:
    """:meth:`Game.view` for one game at a time, each play's dictionary built once."""

    def __init__(self) -> None:
        self.game: Game | None = None
        self.plays: dict[int, tuple[PlayRecord, dict[str, object]]] = {}

    def _play(self, play: PlayRecord) -> dict[str, object]:
        found = self.plays.get(id(play))
        if found is not None and found[0] is play:
            return found[1]
        data: dict[str, object] = {
            "index": play.index,
            "seat": play.seat,
            "cards": format_cards(play.cards),
            "combo": play.combo.to_dict(),
            "cause": play.cause,
        }
        self.plays[id(play)] = (play, data)
        return data

    def view(self, game: Game, seat: int | None = None) -> dict[str, object]:
        """The same as ``game.view(seat)``; the play dictionaries are shared, not copied."""
        if game is not self.game:
            self.game, self.plays = game, {}
        last = game.table
        data: dict[str, object] = {
            "seq": game.seq,
            "to_act": None if game.finished else game.to_act,
            "leader": game.leader,
            "flip_card": str(game.flip_card) if game.flip_card else None,
            "cards_left": [len(hand) for hand in game.hands],
            "table": self._play(last) if last else None,
            "plays": [self._play(play) for play in game.plays[-8:]],
            "timeouts": list(game.timeouts),
            "hosting": list(game.hosting),
            "finished": game.finished,
            "winner": game.winner,
            "result": game.result,
            "escaped": game.escaped,
        }
        if seat is not None:
            data["seat"] = seat
            data["hand"] = [str(card) for card in game.hands[seat]]
        return data
