"""Shuangkou as a family of the platform (:class:`~shuangkou.games.interface.GameFamily`):
its rooms (:mod:`.config`), its deal and hands (:class:`~.game.Game`), its actions on the
wire, and the referee's start and report (docs/referee.md)."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from ...errors import Refusal, first_problem
from ..interface import HandFacts
from .bots import BOTS, Acting, Seen, hints, make_bot
from .config import SHIPPED_NAMES, RoomConfig, config_from_dict, load_config
from .expert import Budget
from .game import Action, Game, GameError, GameRecord, action_from_dict, action_to_dict, seat_team
from .scoring import scoring_phase
from .tablebot import ShuangkouTableBot
from .wire import MESSAGES, message_action, moves_json, schemas

__all__ = ["SHUANGKOU", "ShuangkouFamily"]


class _Start(BaseModel):
    """How a referee scenario starts a game: explicit ``hands`` (one card string per seat)
    and the ``leader``, or a ``seed`` to deal from (the flip card then chooses the leader)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    hands: tuple[str, ...] | None = None
    seed: int | None = None
    leader: int = Field(default=0, ge=0)

    @model_validator(mode="after")
    def _hands_or_seed(self) -> _Start:
        if self.hands is None and self.seed is None:
            raise ValueError("give either 'hands' (one card string per seat) or 'seed' (a dealt game)")
        if self.hands is not None and self.seed is not None:
            raise ValueError("give 'hands' or 'seed', not both")
        if self.seed is not None and "leader" in self.model_fields_set:
            raise ValueError("'leader' goes with 'hands'; in a dealt game the flip card chooses it (R2.1)")
        return self


class ShuangkouFamily:
    """Rush (two seats, RULES.md) and classic Shuangkou (four seats, RULES-CLASSIC.md)."""

    name = "shuangkou"
    shipped_rooms: tuple[str, ...] = SHIPPED_NAMES

    def load_room(
        self, source: str | os.PathLike[str], overrides: Mapping[str, object] | None = None
    ) -> RoomConfig:
        """:func:`~.config.load_config`."""
        return load_config(source, overrides)

    def deal(
        self,
        room: RoomConfig,
        seed: int | None = None,
        carried: Mapping[str, Any] | None = None,
        continuing: Sequence[bool] = (),
    ) -> Game:
        """:meth:`Game.deal`, led by the last game's winner when the room says so and the
        winner still holds that seat (R2.1, C1.3)."""
        leader = (carried or {}).get("leader")
        if not isinstance(leader, int) or leader not in range(room.seats) or (continuing and not continuing[leader]):
            leader = None
        return Game.deal(room, seed, leader)

    def room_from_json(self, text: str, source: str) -> RoomConfig:
        """:func:`~.config.config_from_dict` of the stored JSON."""
        return config_from_dict(json.loads(text), source=source)

    def read_record(self, data: Mapping[str, Any], room: RoomConfig | None = None) -> GameRecord:
        """:meth:`GameRecord.from_dict`."""
        return GameRecord.from_dict(data, room)

    def restore(self, record: GameRecord) -> Game:
        """:meth:`Game.restore`."""
        return Game.restore(record)

    def scenario(self, room: RoomConfig, data: Mapping[str, Any]) -> Game:
        """A game from a scenario's ``hands`` and ``leader``, or dealt from its ``seed``;
        ``bad_scenario`` naming the key otherwise (the key and the problem, as pydantic
        reads them)."""
        try:
            start = _Start.model_validate(data)
        except ValidationError as error:
            raise GameError("bad_scenario", first_problem(error, "scenario")) from None
        seats = room.seats
        if start.hands is not None and len(start.hands) != seats:
            given = len(start.hands)
            raise GameError("bad_scenario", f"hands: this room has {seats} seats: give one per seat, not {given}")
        if start.leader >= seats:
            raise GameError("bad_scenario", f"leader: must be a seat 0 to {seats - 1}, not {start.leader}")
        try:
            if start.hands is not None:
                return Game.from_hands(room, list(start.hands), start.leader)
            return Game.deal(room, start.seed)
        except ValueError as error:
            if isinstance(error, Refusal):
                raise
            raise GameError("unknown_card", f"hands: {error}") from None

    def action_from_dict(self, data: Mapping[str, object]) -> Action:
        """:func:`~.game.action_from_dict`."""
        return action_from_dict(data)

    def action_to_dict(self, action: Action) -> dict[str, object]:
        """:func:`~.game.action_to_dict`."""
        return action_to_dict(action)

    messages = MESSAGES

    def message_action(self, seat: int, message: BaseModel) -> Action:
        """:func:`~.wire.message_action`."""
        return message_action(seat, message)

    def moves_json(self, hand: Game, seat: int) -> str:
        """The seat's hints (:func:`~.bots.hints`): its legal moves in hint order as ``play``
        bodies, and on a follow the pass among them, ``{"type": "pass"}``."""
        return moves_json(hints(Seen.of(hand, seat)))

    def schemas(self) -> dict[str, Any]:
        """:func:`~.wire.schemas`."""
        return schemas()

    def teams(self, settlement: Mapping[str, Any], seats: int) -> list[int]:
        """Fixed teams: each seat its own with two seats, 0 and 2 against 1 and 3 with four (C1.1)."""
        return [seat_team(seat, seats) for seat in range(seats)]

    def replay(self, record: GameRecord, hand: Game) -> dict[str, Any]:
        """The teams (C1.2), the hands as dealt (亮牌), the leader, the flip card and the
        seat swap (C1.4): no seed, no cards that were never dealt."""
        return {
            "teams": [hand.team(seat) for seat in range(hand.seats)],
            "hands": list(record.hands),
            "leader": hand.leader,
            "flip_card": record.flip_card,
            "swap": list(hand.swap) if hand.swap is not None else None,
        }

    def table_bot(self, room: RoomConfig) -> ShuangkouTableBot:
        """:meth:`ShuangkouTableBot.of`."""
        return ShuangkouTableBot.of(room)

    bots: Mapping[str, str] = BOTS
    figure = "scoring phases"

    def player(self, name: str, seed: int | None, room: RoomConfig, budget: Budget | None = None) -> Acting:
        """:func:`~.bots.make_bot`."""
        return make_bot(name, seed, room, budget)

    def facts(self, hand: Game, room: RoomConfig) -> HandFacts:
        """The winners (with four seats the scoring team, C5.2), the result level, each
        seat's scoring phase (R8), timeouts, hosting switched on and the escape."""
        assert hand.result is not None, "a finished game"
        return HandFacts(
            winners=hand.winners,
            result=hand.result,
            figures=tuple(scoring_phase(hand.bombs(seat), room).phase for seat in range(hand.seats)),
            timeouts=sum(hand.timeouts),
            hosting_on=sum(1 for event in hand.events if event.type == "hosting" and event.on),
            escaped=hand.escaped is not None,
        )

    def outcome(self, hand: Game, room: RoomConfig, balances: Sequence[int]) -> dict[str, object]:
        """The referee's report: two-seat games name the ``winner``; four-seat games the
        ``finish_order`` and the scoring team, ``winners`` (C2.2, C3.2), instead; then the
        cards left, each seat's scoring phase (R8) and, once over, the settlement (R9, C5)."""
        seats = range(hand.seats)
        outcome: dict[str, object] = {
            "events": [event.to_dict() for event in hand.events],
            "finished": hand.finished,
            "to_act": None if hand.finished else hand.to_act,
        }
        if hand.seats == 2:
            outcome["winner"] = hand.winner
        outcome["result"] = hand.result
        if hand.seats == 4:
            outcome["finish_order"] = list(hand.finish_order)
            outcome["winners"] = list(hand.winners) if hand.finished else None
        outcome.update(
            cards_left=[len(cards) for cards in hand.hands],
            scoring_phase=[scoring_phase(hand.bombs(seat), room).phase for seat in seats],
            settlement=None,
            deltas=None,
            house=None,
            balances_after=None,
        )
        if hand.finished:
            settlement = hand.settlement(balances)
            outcome.update(
                settlement=settlement.to_dict(),
                deltas=list(settlement.deltas),
                house=settlement.house,
                balances_after=list(settlement.balances_after),
            )
        return outcome


SHUANGKOU = ShuangkouFamily()
"""The family, as the registry holds it."""
