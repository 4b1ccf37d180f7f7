"""The actions about a seat rather than its cards, the same in every game: its timer ran
out, hosting (托管) made its move, hosting was switched, the seat left. The table's shell
makes them through a hand's ``timeout_action``, ``default_action``, ``hosting_action`` and
``escape_action``; each game applies them by its own rules (timeouts R11.3, Y8.1, T11.1;
hosting R11.2, Y8.2, T11.2; escapes R10, Y8.4, T11.5).

>>> seat_action_to_dict(Hosting(2, True, "disconnect"))
{'seat': 2, 'hosting': True, 'cause': 'disconnect'}
>>> seat_action_from_dict(2, {"seat": 2, "escape": True}, Refusal)
Escape(seat=2)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from ..errors import Refusal

__all__ = ["Escape", "HostedTurn", "Hosting", "SeatAction", "Timeout", "seat_action_from_dict", "seat_action_to_dict"]


@dataclass(frozen=True, slots=True)
class Timeout:
    """The seat's timer ran out: whatever it was waited for takes its default, and a turn's
    timeout is counted."""

    seat: int


@dataclass(frozen=True, slots=True)
class HostedTurn:
    """Hosting makes the move of a hosted seat."""

    seat: int


@dataclass(frozen=True, slots=True)
class Hosting:
    """Hosting switched on or off for a seat, by the player or because its connection dropped."""

    seat: int
    on: bool
    cause: Literal["player", "disconnect"] = "player"


@dataclass(frozen=True, slots=True)
class Escape:
    """The seat left while the hand was being played."""

    seat: int


SeatAction = Timeout | HostedTurn | Hosting | Escape

_FLAGS: dict[str, type[Timeout | HostedTurn | Escape]] = {
    "timeout": Timeout, "hosted_turn": HostedTurn, "escape": Escape,
}


def seat_action_to_dict(action: SeatAction) -> dict[str, object]:
    """The JSON form of a seat action, as records and the referee write it."""
    if isinstance(action, Hosting):
        cause = {"cause": action.cause} if action.cause != "player" else {}
        return {"seat": action.seat, "hosting": action.on, **cause}
    key = next(key for key, kind in _FLAGS.items() if isinstance(action, kind))
    return {"seat": action.seat, key: True}


def seat_action_from_dict(seat: int, data: Mapping[str, object], error: type[Refusal]) -> SeatAction | None:
    """The seat action ``data`` is the JSON form of (:func:`seat_action_to_dict`), None when
    it is none of them; ``error`` (the game's refusal) ``bad_action`` for a hosting switch
    with an unknown cause."""
    if isinstance(data.get("hosting"), bool):
        cause = data.get("cause", "player")
        if cause not in ("player", "disconnect"):
            raise error("bad_action", f"hosting cause must be 'player' or 'disconnect', not {cause!r}")
        return Hosting(seat, bool(data["hosting"]), "disconnect" if cause == "disconnect" else "player")
    for key, kind in _FLAGS.items():
        if data.get(key) is True:
            return kind(seat)
    return None
