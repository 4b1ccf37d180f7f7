"""Tractor as a family of the platform (:class:`~shuangkou.games.interface.GameFamily`):
its rooms, its deal and the match it carries from hand to hand, its actions on the wire,
its bots, and the referee's start and report (docs/referee.md#tractor).
"""

from __future__ import annotations

import json
import os
import random
import secrets
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from ...cards import CardParseError
from ...errors import first_problem
from ..interface import HandFacts
from .bots import BOTS, TractorBot, make_bot
from .config import SHIPPED_ROOMS, TractorRoom, load_tractor_room, tractor_room_from_dict
from .hand import (
    HAND_CARDS,
    SEATS,
    Action,
    Start,
    TractorError,
    TractorHand,
    TractorRecord,
    action_from_dict,
    action_to_dict,
)
from .order import FACES, faces_of, faces_text, rank_index, rank_text
from .scoring import team_of
from .wire import MESSAGES, message_action, moves_json, schemas

__all__ = ["TRACTOR", "TractorFamily", "TractorTableBot", "deal_start"]


def deal_start(
    room: TractorRoom, seed: int | None = None, carried: Mapping[str, Any] | None = None,
    continuing: Sequence[bool] = (),
) -> Start:
    """The start of a dealt hand (T2.1, T2.8): a later hand of the match ``carried`` (its
    levels and dealer) while the same players sit, else the first hand of a new match,
    with a seat drawn from the seed to start the deal, a deck for every redeal and the
    seat that deals when nobody declares. Without ``seed``, the operating system's secure
    source shuffles."""
    rng: random.Random = random.Random(seed) if seed is not None else secrets.SystemRandom()
    levels, dealer = _match(room, carried, continuing)
    first = rng.randrange(SEATS) if dealer is None else dealer
    decks = []
    for _ in range(room.max_redeals + 1 if dealer is None else 1):
        deck = [face for face in range(FACES) for _ in range(2)]
        rng.shuffle(deck)
        decks.append(tuple(deck))
    fallback = rng.randrange(SEATS) if dealer is None else dealer
    return Start(levels, dealer, tuple(decks), first, fallback, seed=seed)


def _match(
    room: TractorRoom, carried: Mapping[str, Any] | None, continuing: Sequence[bool]
) -> tuple[tuple[int, int], int | None]:
    """The levels and the dealer a hand starts from: the carried match's, or a new match's."""
    fresh = (room.start, room.start), None
    if not carried or not all(continuing or [True]):
        return fresh
    try:
        levels = carried["levels"]
        dealer = carried["dealer"]
        if isinstance(dealer, bool) or dealer not in range(SEATS):
            return fresh
        return (rank_index(levels[0]), rank_index(levels[1])), int(dealer)
    except (KeyError, IndexError, TypeError, ValueError):
        return fresh


class _Scenario(BaseModel):
    """A referee scenario's start (docs/referee.md#tractor)."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    hands: list[str] | None = Field(default=None, min_length=4, max_length=4)
    bottom: str | None = None
    trump: Literal["S", "H", "C", "D", "none"] | None = None
    seed: int | None = None
    dealer: int | None = Field(default=None, ge=0, le=3)
    levels: list[str] | None = Field(default=None, min_length=2, max_length=2)

    @model_validator(mode="after")
    def _consistent(self) -> _Scenario:
        if (self.hands is None) == (self.seed is None):
            raise ValueError("give either 'hands' (four card strings) or 'seed' (a dealt hand), not both")
        if self.hands is not None and (self.dealer is None or self.levels is None):
            raise ValueError("a scenario with 'hands' is a later hand: 'dealer' and 'levels' are required (T16.7)")
        if self.seed is not None:
            if self.trump is not None or self.bottom is not None:
                raise ValueError("'trump' and 'bottom' go with 'hands'; a dealt hand declares its trump")
            if self.levels is not None and self.dealer is None:
                raise ValueError("'levels' go with a 'dealer': a first hand starts both teams at start_level (T2.8)")
        return self


@dataclass(frozen=True, slots=True)
class TractorTableBot:
    """A bot at a server's table: hosting at level ``"easy"``, the greedy partner above."""

    level: str
    quick: TractorBot

    def act(self, hand: TractorHand, seat: int) -> Action:
        """The bot's action now."""
        return self.quick.act(hand, seat)

    def search(self, hand: TractorHand, seat: int, seed: int) -> tuple[Callable[..., Any], tuple[Any, ...]] | None:
        """Tractor's bots act at once: no search."""
        return None


class TractorFamily:
    """Upgrade / Tractor (docs/RULES-TRACTOR.md)."""

    name = "tractor"
    shipped_rooms: tuple[str, ...] = SHIPPED_ROOMS
    bots: Mapping[str, str] = BOTS
    figure = "levels gained"
    messages = MESSAGES

    def load_room(self, source: str | os.PathLike[str], overrides: Mapping[str, object] | None = None) -> TractorRoom:
        """:func:`~.config.load_tractor_room`."""
        return load_tractor_room(source, overrides)

    def room_from_json(self, text: str, source: str) -> TractorRoom:
        """A room from its stored JSON."""
        return tractor_room_from_dict(json.loads(text), source=source)

    def deal(
        self, room: TractorRoom, seed: int | None = None, carried: Mapping[str, Any] | None = None,
        continuing: Sequence[bool] = (),
    ) -> TractorHand:
        """A new hand: the next of the match ``carried`` while the same players sit (its
        levels and dealer, T10), else the first of a new match (T2.8)."""
        return TractorHand.begin(room, deal_start(room, seed, carried, continuing))

    def read_record(self, data: Mapping[str, Any], room: TractorRoom | None = None) -> TractorRecord:
        """:meth:`~.hand.TractorRecord.from_dict`."""
        return TractorRecord.from_dict(data, room)

    def restore(self, record: TractorRecord) -> TractorHand:
        """The hand of ``record``, its actions replayed (their events compared)."""
        hand = TractorHand.begin(record.config, record.start)
        for action in record.actions:
            hand.apply(action_from_dict(action))
        if record.events is not None and list(record.events) != [event.to_dict() for event in hand.events]:
            raise TractorError("replay_mismatch", "replayed events differ from the record")
        return hand

    def scenario(self, room: TractorRoom, data: Mapping[str, Any]) -> TractorHand:
        """A hand from a referee scenario (docs/referee.md#tractor): ``hands`` with
        ``bottom``, ``dealer``, ``levels`` and optionally ``trump``, or a ``seed`` (with a
        ``dealer`` and ``levels`` for a later hand)."""
        try:
            given = _Scenario.model_validate(data)
        except ValidationError as error:
            raise TractorError("bad_scenario", first_problem(error, "scenario")) from None
        try:
            levels = (room.start, room.start) if given.levels is None else \
                (rank_index(given.levels[0]), rank_index(given.levels[1]))
        except ValueError as error:
            raise TractorError("bad_scenario", f"levels: {error}") from None
        if given.seed is not None:
            start = deal_start(room, given.seed, None)
            if given.dealer is not None:
                start = deal_start(room, given.seed, {"levels": [rank_text(level) for level in levels],
                                                      "dealer": given.dealer})
            return TractorHand.begin(room, _scripted(start))
        assert given.hands is not None
        try:
            hands = tuple(tuple(faces_of(hand)) for hand in given.hands)
            bottom = tuple(faces_of(given.bottom or ""))
        except CardParseError as error:
            raise TractorError("unknown_card", f"hands: {error}") from None
        sizes = {len(hand) for hand in hands}
        if len(sizes) != 1 or not 1 <= len(hands[0]) <= HAND_CARDS:
            raise TractorError("bad_hands", f"hands: four hands of one size, 1 to 25 cards, not {sorted(sizes)}")
        if len(bottom) > 8:
            raise TractorError("bad_hands", f"bottom: 0 to 8 cards, not {len(bottom)}")
        counts = Counter(face for hand in (*hands, bottom) for face in hand)
        extra = [face for face, count in counts.items() if count > 2]
        if extra:
            raise TractorError("bad_hands", f"hands: more than two decks hold of {faces_text(sorted(extra))}")
        return TractorHand.begin(room, Start(levels, given.dealer, hands=hands, bottom=bottom, trump=given.trump,
                                             scripted=True))

    def action_from_dict(self, data: Mapping[str, object]) -> Action:
        """:func:`~.hand.action_from_dict`."""
        return action_from_dict(data)

    def action_to_dict(self, action: Action) -> dict[str, object]:
        """:func:`~.hand.action_to_dict`."""
        return action_to_dict(action)

    def message_action(self, seat: int, message: BaseModel) -> Action:
        """:func:`~.wire.message_action`."""
        return message_action(seat, message)

    def moves_json(self, hand: TractorHand, seat: int) -> str:
        """:func:`~.wire.moves_json`."""
        return moves_json(hand, seat)

    def schemas(self) -> dict[str, Any]:
        """:func:`~.wire.schemas`."""
        return schemas()

    def teams(self, settlement: Mapping[str, Any], seats: int) -> list[int]:
        """Fixed partnerships: 0 and 2 against 1 and 3 (T1.1)."""
        return [team_of(seat) for seat in range(seats)]

    def replay(self, record: TractorRecord, hand: TractorHand) -> dict[str, Any]:
        """The teams, the dealer, the hands as dealt (the last deal's), the bottom as taken
        and as buried, the trump, the levels and the settings that order the cards."""
        return {
            "teams": [team_of(seat) for seat in range(SEATS)],
            "dealer": hand.dealer,
            "hands": [faces_text(hand_cards) for hand_cards in dealt_hands(hand)],
            "bottom": faces_text(hand.bottom),
            "buried": faces_text(hand.buried),
            "trump": hand.trump_view(),
            "levels": [rank_text(level) for level in hand.levels],
            "settings": hand.settings_view(),
        }

    def table_bot(self, room: TractorRoom) -> TractorTableBot:
        """Hosting at ``bot_level = "easy"``, the greedy partner above."""
        return TractorTableBot(room.bot_level, make_bot("hosting" if room.bot_level == "easy" else "greedy"))

    def player(self, name: str, seed: int | None, room: TractorRoom, budget: Any = None) -> TractorBot:
        """:func:`~.bots.make_bot`."""
        return make_bot(name, seed)

    def facts(self, hand: TractorHand, room: TractorRoom) -> HandFacts:
        """The winning team's seats, the result, each seat's levels gained, the timeouts,
        hosting switched on and the escape."""
        score = hand.score
        assert score is not None and hand.result is not None, "a finished hand"
        team = score.winning_team
        if team is None:  # an escape stopped the hand: the escaper's opponents
            assert hand.escaped is not None
            team = 1 - team_of(hand.escaped)
        gained = [score.levels_after[t] - score.levels_before[t] for t in (0, 1)]
        return HandFacts(
            winners=tuple(seat for seat in range(SEATS) if team_of(seat) == team),
            result=hand.result,
            figures=tuple(gained[team_of(seat)] for seat in range(SEATS)),
            timeouts=sum(hand.timeouts),
            hosting_on=sum(1 for event in hand.events if event.type == "hosting" and event.fields.get("on")),
            escaped=hand.escaped is not None,
        )

    def outcome(self, hand: TractorHand, room: TractorRoom, balances: Sequence[int]) -> dict[str, object]:
        """The referee's report (docs/referee.md#tractor)."""
        waits = hand.waiting()
        score = hand.score
        outcome: dict[str, object] = {
            "events": [event.to_dict() for event in hand.events],
            "finished": hand.finished,
            "to_act": waits[0].seat if len(waits) == 1 else None,
            "waiting": [wait.seat for wait in waits],
            "phase": hand.phase,
            "dealer": hand.dealer,
            "trump": hand.trump_view(),
            "tricks": [trick.view() for trick in hand.tricks],
            "attackers_points": score.attackers_points if score is not None else hand.attackers_points,
            "bottom_points": score.bottom_points if score is not None else None,
            "bottom_multiplier": score.multiplier if score is not None and not score.escape else None,
            "result": hand.result,
            "levels_after": [rank_text(level) for level in score.levels_after] if score is not None else None,
            "next_dealer": score.next_dealer if score is not None else None,
            "match_over": score.match_over if score is not None else None,
            "units": None,
            "match_points": None,
            "deltas": None,
            "house": None,
            "balances_after": None,
            "settlement": None,
        }
        if hand.finished:
            settlement = hand.settlement(balances)
            outcome.update(
                units=settlement.units,
                match_points=settlement.match_points,
                deltas=list(settlement.deltas),
                house=settlement.house,
                balances_after=list(settlement.balances_after),
                settlement=settlement.to_dict(),
            )
        return outcome


def dealt_hands(hand: TractorHand) -> list[list[int]]:
    """The cards each seat was dealt (the last deal's; the hands of a scenario)."""
    start = hand.start
    if start.hands is not None:
        return [sorted(cards, reverse=True) for cards in start.hands]
    deck = start.decks[hand.redeals]
    return [sorted((deck[round_ * SEATS + (seat - hand.deal_from) % SEATS] for round_ in range(hand.drawn[seat])),
                   reverse=True) for seat in range(SEATS)]


def _scripted(start: Start) -> Start:
    return replace(start, scripted=True)


TRACTOR = TractorFamily()
"""The family, as the registry holds it."""
