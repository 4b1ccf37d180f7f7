"""Timers of a table: one pending timer per clock, which owns its handle.

A :class:`Countdown` runs one timer at a time, armed for a ``token`` (what it times: a
turn, a seat's readiness). Starting it again replaces the pending timer; stopping it
cancels the timer. When the time is up it asks whether its token is still current and
only then hands the token on (to the table's inbox): a timer of a turn that is over does
nothing. The receiver checks again when it handles the expiry, since the table may have
moved on while the expiry waited in the inbox.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Generic, Literal, TypeVar

__all__ = ["Countdown", "Turn", "TurnClock"]

Token = TypeVar("Token", bound=Hashable)


class Countdown(Generic[Token]):
    """One timer at a time, armed for a token; on expiry, ``on_expiry(token)`` if
    ``is_current(token)`` still holds."""

    def __init__(self, on_expiry: Callable[[Token], None], is_current: Callable[[Token], bool]) -> None:
        self._on_expiry = on_expiry
        self._is_current = is_current
        self._handle: asyncio.TimerHandle | None = None
        self.token: Token | None = None
        self.deadline: float | None = None  # epoch seconds of the last start, until stopped
        self.seconds: float | None = None  # how long the last start ran for, until stopped

    def start(self, token: Token, seconds: float) -> None:
        """Arm the timer for ``token``, replacing any pending one."""
        self.stop()
        self._handle = asyncio.get_running_loop().call_later(seconds, self._expire, token)
        self.token = token
        self.deadline = time.time() + seconds
        self.seconds = seconds

    def stop(self) -> None:
        """Cancel the pending timer (if any) and forget its token and deadline."""
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
        self.token = None
        self.deadline = None
        self.seconds = None

    @property
    def pending(self) -> bool:
        """A timer is armed and has not run out."""
        return self._handle is not None

    def _expire(self, token: Token) -> None:
        self._handle = None  # token and deadline stay until the next start or stop
        if self._is_current(token):
            self._on_expiry(token)


@dataclass(frozen=True, slots=True)
class Turn:
    """What a turn clock is armed for: a person's turn (``timed``, R11.3), numbered by the
    first state of the turn, or the next automatic move of a bot or a hosted seat
    (``auto``), numbered by the state it follows."""

    kind: Literal["timed", "auto"]
    number: int


class TurnClock(Countdown[Turn]):
    """The table's turn timer: the turn timer of a person to act, or the delay before an
    automatic move."""

    def runs_for(self, turn: Turn) -> bool:
        """Armed for ``turn`` (pending, or run out and not restarted since)."""
        return self.token == turn

    @property
    def turn_deadline(self) -> float | None:
        """When the person to act runs out of time (epoch seconds); None for automatic moves."""
        return self.deadline if self.token is not None and self.token.kind == "timed" else None

    @property
    def turn_seconds(self) -> float | None:
        """How long the person to act was given (the timer of what the game waits for: a
        turn, a decision, a bury); None for automatic moves."""
        return self.seconds if self.token is not None and self.token.kind == "timed" else None
