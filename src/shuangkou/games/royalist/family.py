"""Royalist as a family of the platform (:class:`~shuangkou.games.interface.GameFamily`):
its rooms, its deal and hands, its actions on the wire, its bots, and the referee's start
and report (docs/referee.md#royalist)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from ...cards import CardParseError
from ...errors import first_problem
from ..interface import HandFacts
from .bots import BOTS, RoyalistBot, make_bot
from .config import SHIPPED_ROOMS, RoyalistRoom, load_room, room_from_data
from .deck import draw_hands, parse_hand
from .game import Action, RoyalistError, RoyalistHand, action_from_dict, action_to_dict, deal_hand, hand_from_cards
from .record import RoyalistRecord, read_record, restore
from .scoring import SEATS, winning_seats
from .wire import MESSAGES, message_action, moves_json, schemas

__all__ = ["ROYALIST", "RoyalistFamily"]


class _Start(BaseModel):
    """How a referee scenario starts a Royalist hand: five ``hands`` or a ``seed``, and the
    ``first_taker``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    hands: tuple[str, ...] | None = None
    seed: int | None = None
    first_taker: int | None = Field(default=None, ge=0, le=SEATS - 1)

    @model_validator(mode="after")
    def _hands_or_seed(self) -> _Start:
        if (self.hands is None) == (self.seed is None):
            raise ValueError("give either 'hands' (five card strings) or 'seed' (a dealt game), not both")
        return self


@dataclass(frozen=True, slots=True)
class RoyalistTableBot:
    """A quick bot at a table, at the room's level: ``easy`` hosts, ``normal`` plays greedy."""

    level: str
    quick: RoyalistBot

    def act(self, hand: RoyalistHand, seat: int) -> Action:
        return self.quick.act(hand, seat)

    def search(self, hand: RoyalistHand, seat: int, seed: int) -> tuple[Callable[..., Any], tuple[Any, ...]] | None:
        return None


class RoyalistFamily:
    """Royalist (保皇) for five players (RULES-ROYALIST.md)."""

    name = "royalist"
    shipped_rooms: tuple[str, ...] = SHIPPED_ROOMS

    def load_room(self, source: str | os.PathLike[str], overrides: Mapping[str, object] | None = None) -> RoyalistRoom:
        """:func:`~.config.load_room`."""
        return load_room(source, overrides)

    def deal(
        self,
        room: RoyalistRoom,
        seed: int | None = None,
        carried: Mapping[str, Any] | None = None,
        continuing: Sequence[bool] = (),
    ) -> RoyalistHand:
        """A new hand, its first taker the seat after the last one's (Y1.5; random for a
        table's first game); tribute (Y7.4) only while the same five players sit."""
        carried = carried or {}
        first = carried.get("first_taker")
        first_taker = first if isinstance(first, int) and first in range(SEATS) else None
        previous = carried.get("previous") if all(continuing or [True]) else None
        return deal_hand(room, seed, first_taker, previous if isinstance(previous, Mapping) else None)

    def room_from_json(self, text: str, source: str) -> RoyalistRoom:
        """A room from its stored JSON."""
        return room_from_data(json.loads(text), source=source)

    def read_record(self, data: Mapping[str, Any], room: RoyalistRoom | None = None) -> RoyalistRecord:
        """:func:`~.record.read_record`."""
        return read_record(data, room)

    def restore(self, record: RoyalistRecord) -> RoyalistHand:
        """:func:`~.record.restore`."""
        return restore(record)

    def scenario(self, room: RoyalistRoom, data: Mapping[str, Any]) -> RoyalistHand:
        """A hand from a scenario's five ``hands`` (``BJ*`` and ``SJ*`` once each — no ``SJ*``
        when the guard card is called, Y9 — from one deck of the room's kind, Y13.13) or dealt
        from its ``seed``, with ``first_taker``."""
        try:
            start = _Start.model_validate(data)
        except ValidationError as error:
            raise RoyalistError("bad_scenario", first_problem(error, "scenario")) from None
        if start.seed is not None:
            return deal_hand(room, start.seed, start.first_taker if start.first_taker is not None else None)
        assert start.hands is not None
        if len(start.hands) != SEATS:
            raise RoyalistError("bad_scenario", f"hands: Royalist seats five: give five hands, not {len(start.hands)}")
        try:
            parsed = [parse_hand(text) for text in start.hands]
        except CardParseError as error:
            raise RoyalistError("unknown_card", f"hands: {error}") from None
        for seat, cards in enumerate(parsed):
            if not cards:
                raise RoyalistError("bad_hands", f"hands: hand {seat} is empty: each seat starts with cards")
        try:
            hands = draw_hands(room.deck, parsed, room.guard_card)
        except ValueError as error:
            raise RoyalistError("bad_hands", f"hands: {error}") from None
        return hand_from_cards(room, hands, start.first_taker or 0)

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

    def moves_json(self, hand: RoyalistHand, seat: int) -> str:
        """:func:`~.wire.moves_json`."""
        return moves_json(hand, seat)

    def schemas(self) -> dict[str, Any]:
        """:func:`~.wire.schemas`."""
        return schemas()

    def teams(self, settlement: Mapping[str, Any], seats: int) -> list[int]:
        """The teams the cards formed (Y1.1): 0 for the emperor and his guard, 1 for the
        revolutionaries; every seat its own when the game ended before an ascent."""
        roles = settlement.get("roles")
        if not isinstance(roles, Mapping) or not isinstance(roles.get("emperor"), int):
            return list(range(seats))
        royals = {roles["emperor"], roles.get("guard")}
        return [0 if seat in royals else 1 for seat in range(seats)]

    def replay(self, record: RoyalistRecord, hand: RoyalistHand) -> dict[str, Any]:
        """The hands as the throne offer found them (亮牌), the first taker, the tributes,
        the roles, the abdications, the published declarations and *m*."""
        return {
            "hands": list(record.hands),
            "first_taker": record.first_taker,
            "tributes": [dict(tribute) for tribute in record.tributes],
            "roles": None if hand.roles is None else hand.roles.view(),
            "abdications": list(hand.abdications),
            "declarations": None if not hand.published else {
                "open_guard": hand.open_guard, "revolts": list(hand.revolts), "revolt_success": hand.revolt_success},
            "multiplier": hand.multiplier,
        }

    def table_bot(self, room: RoyalistRoom) -> RoyalistTableBot:
        """A quick bot at the room's level."""
        return RoyalistTableBot(room.bot_level, make_bot("hosting" if room.bot_level == "easy" else "greedy"))

    bots: Mapping[str, str] = BOTS
    figure = "units"

    def player(self, name: str, seed: int | None, room: RoyalistRoom, budget: Any = None) -> Any:
        """:func:`~.bots.make_bot`."""
        return make_bot(name, seed)

    def facts(self, hand: RoyalistHand, room: RoyalistRoom) -> HandFacts:
        """The winners (:func:`~.scoring.winning_seats`), the result, each seat's units,
        timeouts, hosting and escapes."""
        units = hand.units()
        result = hand.result or "unfinished"
        return HandFacts(
            winners=winning_seats(result, units, hand.escapers),
            result=result,
            figures=units,
            timeouts=sum(hand.timeouts),
            hosting_on=sum(1 for event in hand.events if event.type == "hosting" and event.detail.get("on")),
            escaped=bool(hand.escapers),
        )

    def outcome(self, hand: RoyalistHand, room: RoyalistRoom, balances: Sequence[int]) -> dict[str, object]:
        """The referee's report (docs/referee.md#royalist)."""
        roles = hand.roles
        outcome: dict[str, object] = {
            "events": [event.to_dict() for event in hand.events],
            "finished": hand.finished,
            "to_act": hand.to_act_now,
            "phase": hand.phase,
            "roles": {"emperor": None, "guard": None, "solo": None} if roles is None else roles.view(),
            "multiplier": hand.multiplier,
            "result": hand.result,
            "finish_order": list(hand.finish_order),
            "places": hand.places(),
            "cards_left": [len(cards) for cards in hand.hands],
            "units": list(hand.units()) if hand.finished else None,
            "match_points": room.match_points_for(*balances),
            "settlement": None,
            "deltas": None,
            "house": None,
            "balances_after": None,
        }
        if hand.finished:
            settlement = hand.settlement(balances)
            outcome.update(settlement=settlement.to_dict(), deltas=list(settlement.deltas), house=settlement.house,
                           balances_after=list(settlement.balances_after))
        return outcome


ROYALIST = RoyalistFamily()
"""The family, as the registry holds it."""
