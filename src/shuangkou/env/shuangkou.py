"""Shuangkou (Rush and classic, RULES.md and RULES-CLASSIC.md) for the environment.

Actions are shapes, one space for every Shuangkou room: action 0 is a pass (R2.3, C2.1),
every other action a *shape* ``(kind, top, length, size, width, jokers)`` — the reading's
kind (R3–R4), its top rank, its length (R3.9), the cards played, a bomb's width (R4.1,
R4.4: cards per rank, 0 for ordinary kinds) and the jokers among the cards. A shape is
legal when some legal move of the hand reads as it; taking it plays the first such move
in the game's hint order (:func:`~shuangkou.games.shuangkou.moves.hint_key`): small
jokers spent before big ones, and among runs the most natural cards from the lowest rank.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache, lru_cache
from typing import Any

import numpy as np

from ..cards import NUM_SLOTS, Rank, counts_of
from ..games.shuangkou.combos import Combo, Kind
from ..games.shuangkou.config import RoomConfig
from ..games.shuangkou.game import Game, Pass, Play
from .core import IllegalAction, Mask, Vector

__all__ = ["PASS", "SHAPES", "Shape", "ShuangkouEncoder", "shape_of"]

Shape = tuple[Kind, int, int, int, int, int]
"""(kind, top, length, size, width, jokers) of a move."""

PASS = 0
"""The pass action."""

_HAND = 27  # cards a seat is dealt (R1.3, C1.2): no play has more
_JOKERS = 4
_TWO, _ACE, _SJ, _BJ = 15, 14, 16, 17
_KINDS = tuple(Kind)
_SEAT_SLOTS = 4  # seats encoded: two-seat rooms leave the last two empty


def _shapes() -> Iterator[Shape]:
    """Every shape a 27-card hand may play under any Shuangkou room's rules."""
    for top in range(3, _BJ + 1):
        yield (Kind.SINGLE, top, 1, 1, 0, int(top >= _SJ))
    for top in range(3, _BJ + 1):
        for jokers in ((2,) if top >= _SJ else (0, 1)):
            yield (Kind.PAIR, top, 1, 2, 0, jokers)
    for top in range(3, _TWO + 1):
        for jokers in range(3):
            yield (Kind.TRIPLE, top, 1, 3, 0, jokers)
    for kind, width, shortest in ((Kind.STRAIGHT, 1, 5), (Kind.PAIR_RUN, 2, 3), (Kind.TRIPLE_RUN, 3, 3)):
        for length in range(shortest, min(12, _HAND // width) + 1):
            for top in range(2 + length, _ACE + 1):
                for jokers in range(min(_JOKERS, width * length - 1) + 1):
                    yield (kind, top, length, width * length, 0, jokers)
    for top in range(3, _TWO + 1):
        for size in range(4, 13):
            for jokers in range(max(0, size - 8), min(_JOKERS, size - 1) + 1):
                yield (Kind.BOMB, top, 1, size, size, jokers)
    for size in (3, 4):
        yield (Kind.JOKER_BOMB, _BJ, 1, size, size, size)
    for length in range(3, 7):
        for width in range(4, _HAND // length + 1):
            for top in range(2 + length, _TWO + 1):
                for size in range(width * length, min(_HAND, 12 * length) + 1):
                    for jokers in range(min(_JOKERS, size - 1) + 1):
                        if size - jokers <= 8 * length:
                            yield (Kind.SERIAL_BOMB, top, length, size, width, jokers)


SHAPES: tuple[Shape, ...] = tuple(_shapes())
"""The shape of each action from 1 on (action ``i`` is ``SHAPES[i - 1]``)."""

_INDEX = {shape: action for action, shape in enumerate(SHAPES, 1)}


def shape_of(move: Combo) -> Shape:
    """A move's shape."""
    return (move.kind, move.top, move.length, move.size, move.width, move.jokers)


@lru_cache(maxsize=1 << 16)
def _action(move: Combo) -> int:
    shape = shape_of(move)
    try:
        return _INDEX[shape]
    except KeyError:
        raise IllegalAction(f"the move {move} has no action: shape {shape} is outside the space") from None


@cache
def _kind_index(kind: Kind) -> int:
    return _KINDS.index(kind)


class ShuangkouEncoder:
    """Shapes as actions (see the module's docstring); the observation of a seat, seats
    counted from it (itself first, then in play order):

    ====================  ==================================================================
    entries               what
    ====================  ==================================================================
    15                    its hand, per rank 3 … 2, SJ, BJ (÷ 8)
    4 × 15                the cards each seat has played (÷ 8)
    4                     each seat's cards left (÷ 27)
    4                     each seat's place once out (place ÷ 4; 0 while it holds cards)
    4                     each seat's partner flag (classic: the seat opposite, C1.1)
    4                     which seats exist (two-seat rooms: the first two)
    15 + 15               the table's cards and their reading (÷ 8; zeros on a lead)
    9                     the table's kind, one-hot
    3                     the table's top (÷ 17), length (÷ 12) and phase (÷ 12)
    4                     who played the table, one-hot
    1                     passes since the table's play (÷ 3)
    1                     1 on a lead
    3                     the room's wild jokers: none, big, all (C3.1)
    ====================  ==================================================================
    """

    features = 15 + 4 * 15 + 4 + 4 + 4 + 4 + 15 + 15 + len(_KINDS) + 3 + 4 + 1 + 1 + 3
    actions = len(SHAPES) + 1

    def __init__(self, room: RoomConfig) -> None:
        self.room = room
        self._game: Game | None = None
        self._legal_at = -1
        self._legal: dict[int, Combo | None] = {}
        self._mask: Mask = np.zeros(self.actions, dtype=np.int8)
        self._played = np.zeros((_SEAT_SLOTS, NUM_SLOTS), dtype=np.float32)
        self._played_count = 0
        wild = ("none", "big", "all").index(room.rules.wild_jokers)
        self._wild = np.zeros(3, dtype=np.float32)
        self._wild[wild] = 1.0

    def start(self, hand: Any) -> None:
        """A new game."""
        self._game = hand
        self._legal_at = -1
        self._played[:] = 0.0
        self._played_count = 0

    def _current(self) -> Game:
        if self._game is None:
            raise RuntimeError("no game: reset() deals one")
        return self._game

    def acting(self) -> int | None:
        """The seat to act."""
        game = self._current()
        return None if game.finished else game.to_act

    def legal(self, seat: int) -> dict[int, Combo | None]:
        """The legal actions of ``seat`` now and the move each plays (None: the pass)."""
        game = self._current()
        if game.finished or seat != game.to_act:
            return {}
        if self._legal_at != game.seq:
            legal: dict[int, Combo | None] = {PASS: None} if game.table is not None else {}
            for move in game.legal_moves():
                legal.setdefault(_action(move), move)
            self._legal, self._legal_at = legal, game.seq
            self._mask = np.zeros(self.actions, dtype=np.int8)
            self._mask[list(legal)] = 1
        return self._legal

    def mask(self, seat: int) -> Mask:
        """1 for each legal action of ``seat``."""
        if not self.legal(seat):
            return np.zeros(self.actions, dtype=np.int8)
        return self._mask

    def act(self, seat: int, action: int) -> None:
        """Pass, or play the move the shape stands for."""
        legal = self.legal(seat)
        if action not in legal:
            raise IllegalAction(f"seat {seat} may not take action {action} ({self.describe(action)}) now")
        move = legal[action]
        self._current().apply(Pass(seat) if move is None else Play.move(seat, move))

    def _played_by_seat(self) -> np.ndarray[Any, np.dtype[np.float32]]:
        """The cards each seat has played (÷ 8), added to play by play."""
        plays = self._current().plays
        if len(plays) < self._played_count:  # a play taken back
            self._played[:] = 0.0
            self._played_count = 0
        for play in plays[self._played_count :]:
            self._played[play.seat] += np.asarray(play.combo.cards, dtype=np.float32) / 8.0
        self._played_count = len(plays)
        return self._played

    def observe(self, seat: int) -> Vector:
        """What ``seat`` sees (the table above)."""
        game = self._current()
        seats = game.seats
        order = [(seat + step) % seats for step in range(seats)]
        parts: list[Any] = [np.asarray(game.counts(seat), dtype=np.float32) / 8.0]
        played = np.zeros((_SEAT_SLOTS, NUM_SLOTS), dtype=np.float32)
        played[:seats] = self._played_by_seat()[order]
        parts.append(played.ravel())
        left = np.zeros(_SEAT_SLOTS, dtype=np.float32)
        places = np.zeros(_SEAT_SLOTS, dtype=np.float32)
        partners = np.zeros(_SEAT_SLOTS, dtype=np.float32)
        present = np.zeros(_SEAT_SLOTS, dtype=np.float32)
        for slot, other in enumerate(order):
            left[slot] = len(game.hands[other]) / _HAND
            if other in game.finish_order:
                places[slot] = (game.finish_order.index(other) + 1) / 4
            partners[slot] = float(other != seat and game.team(other) == game.team(seat))
            present[slot] = 1.0
        parts += [left, places, partners, present]
        table = np.zeros(2 * NUM_SLOTS + len(_KINDS) + 3 + _SEAT_SLOTS + 2, dtype=np.float32)
        record = game.table
        if record is None:
            table[-1] = 1.0
        else:
            combo = record.combo
            table[:NUM_SLOTS] = combo.cards
            table[NUM_SLOTS : 2 * NUM_SLOTS] = combo.reading
            table[: 2 * NUM_SLOTS] /= 8.0
            at = 2 * NUM_SLOTS
            table[at + _kind_index(combo.kind)] = 1.0
            at += len(_KINDS)
            table[at : at + 3] = (combo.top / _BJ, combo.length / 12, combo.phase / 12)
            at += 3
            table[at + (record.seat - seat) % seats] = 1.0
            table[at + _SEAT_SLOTS] = min(game.passes, 3) / 3
        parts += [table, self._wild]
        return np.concatenate(parts)

    def action_of(self, seat: int, move: Any) -> int:
        """The action of a bot's :class:`Play` (the shape of the legal move it names) or
        :class:`Pass`."""
        if isinstance(move, Pass) and PASS in self.legal(seat):
            return PASS
        if isinstance(move, Play) and seat == self.acting():
            cards = counts_of(move.cards)
            for combo in self._current().legal_moves():
                if combo.cards == cards and (move.kind is None or combo.kind is move.kind):
                    return _action(combo)
        raise IllegalAction(f"seat {seat}: {move!r} is no legal move now")

    def describe(self, action: int) -> str:
        """``"pass"``, or the shape: ``"straight top 9 length 5 (5 cards, 1 joker)"``."""
        if action == PASS:
            return "pass"
        if not 0 < action < self.actions:
            return f"no action {action} (the space has {self.actions})"
        kind, top, length, size, width, jokers = SHAPES[action - 1]
        wide = f", width {width}" if kind is Kind.SERIAL_BOMB else ""
        return f"{kind.value} top {Rank(top).symbol} length {length} ({size} cards{wide}, {jokers} jokers)"
