"""The referee: play a scenario (JSON in) and report the outcome (JSON out).

A conformance interface for other implementations and for rule disputes, for any
registered game (:mod:`shuangkou.games`); the format is documented in ``docs/referee.md``.
A scenario names its room (``config``, whose game decides the rest), ``overrides``,
``balances`` and ``actions``; its other keys say how the hand starts and are the game's
(Shuangkou: ``hands`` and ``leader``, or ``seed``). Automatic actions are the referee's
own: what the game does by itself (auto-pass, R2.6, C2.4) comes from the game, and the
default actions of a hosted seat (R11.2) are made by the referee as soon as the hand waits
for that seat.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .errors import ErrorCode, Refusal, first_problem
from .games import load_room
from .games.interface import Hand
from .roomfiles import ConfigError

__all__ = ["Scenario", "ScenarioError", "referee"]


class ScenarioError(Refusal, ValueError):
    """A scenario that cannot be played; ``action`` is the index of the action at fault."""

    def __init__(self, code: ErrorCode, message: str, action: int | None = None) -> None:
        super().__init__(code, message)
        self.action = action

    def outcome(self) -> dict[str, object]:
        """``{"error": {"action": INDEX, "code": ..., "message": ...}}`` (no action for a bad scenario)."""
        error: dict[str, object] = {"code": self.code, "message": self.message}
        if self.action is not None:
            error = {"action": self.action, **error}
        return {"error": error}


class Scenario(BaseModel):
    """What every scenario has: the room, its overrides, the balances and the actions. The
    other keys are the game's start (:meth:`~shuangkou.games.interface.GameFamily.scenario`);
    the number of ``balances`` is checked once the room is known."""

    model_config = ConfigDict(extra="allow", frozen=True)

    config: str = "points"
    overrides: dict[str, Any] = Field(default_factory=dict)
    balances: tuple[int, ...] | None = None
    actions: list[dict[str, Any]] = Field(default_factory=list)

    @property
    def start(self) -> dict[str, Any]:
        """The keys the game reads to start the hand."""
        return dict(self.model_extra or {})


def referee(data: object) -> dict[str, object]:
    """Play the scenario ``data`` (parsed JSON) and return the outcome.

    Raises :class:`ScenarioError` for an invalid scenario or an illegal action.
    """
    try:
        scenario = Scenario.model_validate(data)
    except ValidationError as error:
        raise ScenarioError("bad_scenario", first_problem(error, "scenario")) from None
    try:
        family, room = load_room(scenario.config, scenario.overrides)
    except (ConfigError, OSError, ValueError, KeyError) as error:
        raise ScenarioError("bad_config", str(error).strip('"')) from None
    seats = room.seats
    if scenario.balances is not None and len(scenario.balances) != seats:
        message = f"balances: this room has {seats} seats: give one per seat, not {len(scenario.balances)}"
        raise ScenarioError("bad_scenario", message)
    try:
        hand = family.scenario(room, scenario.start)
    except Refusal as error:
        raise ScenarioError(error.code, error.message) from None
    _host(hand)
    for index, data_action in enumerate(scenario.actions):
        try:
            hand.apply(family.action_from_dict(data_action))
            _host(hand)
        except Refusal as error:
            raise ScenarioError(error.code, error.message, index) from None
    balances = scenario.balances or tuple(room.starting_balance for _ in range(seats))
    return family.outcome(hand, room, balances)


def _host(hand: Hand) -> None:
    """Make the default actions of hosted seats while the hand waits for them."""
    while waiting := [wait.seat for wait in hand.waiting() if hand.hosted(wait.seat)]:
        hand.apply(hand.default_action(waiting[0]))
