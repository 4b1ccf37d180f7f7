"""What a table sends: every seat its view and the spectators the public one after each
change, the mover's state held until its legal moves are listed, hints, notices and refusals."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import orjson

from ..errors import ErrorCode
from . import protocol as p
from .connection import Connection
from .metrics import METRICS
from .table_base import TableBase
from .views import TableViews, table_view

__all__ = ["TableSending", "hint_json"]


class TableSending(TableBase):
    """A table's messages to its seats and spectators."""

    def _changed(self, events: list[Mapping[str, Any]], answering: Connection | None = None) -> None:
        """Send every seat and spectator the new state. The state that answers a player's own
        action (``answering``: their connection) is never held for its moves, even when the
        turn comes back to them (the other seat passed for want of a move): the action is
        acknowledged at once, and its moves follow as a ``hint``."""
        self._send_held()
        self.seq += 1
        turn = self.current.game.turn if self.current is not None else None
        if turn != self.turn_key:
            # An action must be made against a state of the current turn: changes that do not
            # pass the turn (hosting switched, a player reconnecting) leave pending moves valid.
            self.turn_key, self.turn_seq = turn, self.seq
        clocked = any(wait.clocked for wait in self._waits())
        if self.turn_seq == self.seq or clocked or self.clocked:  # a clocked wait's timer, or the one after it
            self.wait_seq = self.seq
        self.clocked = clocked
        self._arm_turn()
        encoded = events
        views = TableViews(self)  # what all seats see alike is built once
        mover = self.timed_seat()
        for index, seat in enumerate(self.seats):
            if seat is not None and seat.connection is not None:
                self._send_seat_state(seat.connection, index, mover, {
                    "type": "state", "events": encoded, "table": views.of(index),
                }, hold=seat.connection is not answering)
        if self.spectators:  # one public view, encoded once, for every spectator
            text = orjson.dumps({"type": "state", "events": encoded, "table": views.of(None)}).decode()
            for connection in self.spectators:
                connection.send_json(text)

    def _send_state(self, connection: Connection, index: int | None) -> None:
        message = {"type": "state", "events": [], "table": table_view(self, index)}
        if index is None:
            connection.send(message)
        else:
            self._send_seat_state(connection, index, self.timed_seat(), message)

    def _send_seat_state(
        self, connection: Connection, index: int, mover: int | None, message: dict[str, Any], hold: bool = True
    ) -> None:
        """Send a seat its state; the state of the seat to act (``mover``, when a person plays
        it) is held, with ``hold``, until its legal moves are listed, at a low priority
        (:class:`MovesPusher`), and goes out carrying them (:meth:`send_moves`); without,
        it goes now and the moves follow as a ``hint``."""
        if index == mover:
            self.services.pusher.push(self)
            if hold:
                self._held = (connection, message)
                return
        connection.send(message)

    def _send_held(self) -> None:
        """Send the held state of the seat to act without its moves (they follow as a ``hint``):
        the table is about to send something else, which must not overtake it."""
        if self._held is not None:
            connection, message = self._held
            self._held = None
            connection.send(message)

    def send_moves(self) -> None:
        """Send the seat to act, when a person plays it, its legal moves for the current state:
        in its held state, or else as a ``hint``."""
        index = self.timed_seat()
        current = self.current
        seat = self.seats[index] if index is not None else None
        if index is None or seat is None or seat.connection is None or current is None:
            self._send_held()
            return
        if current.game.turn != self.turn_key:
            return  # an action is being stored: its change pushes the moves of the turn it makes
        moves = self.moves.json(self.room.family, current.game, index, self.wait_seq)
        held, self._held = self._held, None
        if held is not None and held[0] is seat.connection:  # held since the last change: the current state
            held[1]["moves"] = orjson.Fragment(moves)
            seat.connection.send(held[1])
            return
        if held is not None:
            held[0].send(held[1])
        seat.connection.send_json(hint_json(self.seq, moves))

    def _refuse(self, connection: Connection, code: ErrorCode, message: str,
                detail: Mapping[str, str | int] | None = None) -> None:
        METRICS.errors.labels(code).inc()
        connection.send(dict(p.error(code, message, detail)))

    def _notice(self, index: int, count: int) -> None:
        seat = self.seats[index]
        if seat is not None and seat.connection is not None:
            times = "time" if count == 1 else "times"
            seat.connection.send({
                "type": "notice",
                "code": "timed_out",
                "message": f"You have timed out {count} {times}",
                "count": count,
            })

    def _offer_bots(self, connection: Connection) -> None:
        """Send the ``bots_offered`` notice for the free seats."""
        free = self.free_seats
        connection.send({
            "type": "notice",
            "code": "bots_offered",
            "message": f"Nobody has come for {free} seat{'s' if free > 1 else ''}: play with bots?",
            "count": free,
        })


def hint_json(seq: int, moves: str) -> str:
    """A ``hint`` message: the legal moves (JSON text) for state ``seq``."""
    return f'{{"type":"hint","seq":{seq},"moves":{moves}}}'
