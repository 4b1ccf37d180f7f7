"""The referee: play a scenario (JSON in) and report the outcome (JSON out).

A conformance interface for other implementations and for rule disputes, for two-seat
rooms (RULES) and four-seat ones (RULES-CLASSIC); the format is documented in
``docs/referee.md``. Automatic actions are the referee's own: auto-pass (R2.6, C2.4)
comes from the game, and the moves of a hosted seat (R11.2) are made by the referee as
soon as it is that seat's turn.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from .errors import ErrorCode, Refusal
from .games.shuangkou.config import ConfigError, RoomConfig, load_config
from .games.shuangkou.game import Game, GameError, HostedTurn, action_from_dict
from .games.shuangkou.scoring import scoring_phase

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
    """A scenario: room configuration, balances, hands or seed, leader, actions. The
    numbers of ``balances`` and ``hands`` and the range of ``leader`` depend on the room's
    seats: :meth:`check_seats` checks them once the room is known."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    config: str = "points"
    overrides: dict[str, Any] = Field(default_factory=dict)
    balances: tuple[int, ...] | None = None
    hands: tuple[str, ...] | None = None
    seed: int | None = None
    leader: int = Field(default=0, ge=0)
    actions: list[dict[str, Any]] = Field(default_factory=list)

    @model_validator(mode="after")
    def _hands_or_seed(self) -> Scenario:
        if self.hands is None and self.seed is None:
            raise ValueError("give either 'hands' (one card string per seat) or 'seed' (a dealt game)")
        if self.hands is not None and self.seed is not None:
            raise ValueError("give 'hands' or 'seed', not both")
        if self.seed is not None and "leader" in self.model_fields_set:
            raise ValueError("'leader' goes with 'hands'; in a dealt game the flip card chooses it (R2.1)")
        return self

    def check_seats(self, seats: int) -> None:
        """Raise ``bad_scenario`` unless ``hands`` and ``balances`` have one entry per seat
        of a room of ``seats`` and ``leader`` is one of its seats."""
        for key, values in (("hands", self.hands), ("balances", self.balances)):
            if values is not None and len(values) != seats:
                message = f"{key}: this room has {seats} seats: give one per seat, not {len(values)}"
                raise ScenarioError("bad_scenario", message)
        if self.leader >= seats:
            raise ScenarioError("bad_scenario", f"leader: must be a seat 0 to {seats - 1}, not {self.leader}")


def referee(data: object) -> dict[str, object]:
    """Play the scenario ``data`` (parsed JSON) and return the outcome.

    Raises :class:`ScenarioError` for an invalid scenario or an illegal action.
    """
    try:
        scenario = Scenario.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "scenario"
        message = first["msg"].removeprefix("Value error, ")
        raise ScenarioError("bad_scenario", f"{where}: {message}") from None
    try:
        config = load_config(scenario.config, scenario.overrides)
    except ConfigError as error:
        raise ScenarioError("bad_config", str(error)) from None
    except (OSError, ValueError) as error:
        raise ScenarioError("bad_config", str(error)) from None
    scenario.check_seats(config.seats)
    game = _start(scenario, config)
    _host(game)
    for index, data_action in enumerate(scenario.actions):
        try:
            game.apply(action_from_dict(data_action))
            _host(game)
        except GameError as error:
            raise ScenarioError(error.code, error.message, index) from None
    return _outcome(game, config, scenario)


def _start(scenario: Scenario, config: RoomConfig) -> Game:
    try:
        if scenario.hands is not None:
            return Game.from_hands(config, list(scenario.hands), scenario.leader)
        return Game.deal(config, scenario.seed)
    except GameError as error:
        raise ScenarioError(error.code, error.message) from None
    except ValueError as error:
        raise ScenarioError("unknown_card", f"hands: {error}") from None


def _host(game: Game) -> None:
    """Make the moves of hosted seats while it is their turn."""
    while not game.finished and game.hosting[game.to_act]:
        game.apply(HostedTurn(game.to_act))


def _outcome(game: Game, config: RoomConfig, scenario: Scenario) -> dict[str, object]:
    """The outcome: two-seat games name the ``winner``; four-seat games the ``finish_order``
    and the scoring team, ``winners`` (C2.2, C3.2), instead."""
    seats = range(game.seats)
    balances = scenario.balances or tuple(config.starting_balance for _ in seats)
    outcome: dict[str, object] = {
        "events": [event.to_dict() for event in game.events],
        "finished": game.finished,
        "to_act": None if game.finished else game.to_act,
    }
    if game.seats == 2:
        outcome["winner"] = game.winner
    outcome["result"] = game.result
    if game.seats == 4:
        outcome["finish_order"] = list(game.finish_order)
        outcome["winners"] = list(game.winners) if game.finished else None
    outcome.update(
        cards_left=[len(hand) for hand in game.hands],
        scoring_phase=[scoring_phase(game.bombs(seat), config).phase for seat in seats],
        settlement=None,
        deltas=None,
        house=None,
        balances_after=None,
    )
    if game.finished:
        settlement = game.settlement(balances)
        outcome.update(
            settlement=settlement.to_dict(),
            deltas=list(settlement.deltas),
            house=settlement.house,
            balances_after=list(settlement.balances_after),
        )
    return outcome
