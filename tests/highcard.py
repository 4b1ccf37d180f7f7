"""High card, a small game of the tests' own that proves the platform needs nothing of a
game but its interface (:mod:`shuangkou.games.interface`).

Three seats, one card each from thirteen (ranks 1 to 13). A hand is one decision that
the three seats answer at once, each unseen by the others until all have answered: stake
1 or 2. Then the cards are shown; the highest card wins, and each other seat pays it the
match points times the larger of the two stakes (capped at its balance when balances may
not go negative, the table fee first). A match score is carried from hand to hand: the
wins of each seat so far, while the same players sit at the table. A room file says
``game = "highcard"``. On the wire a seat answers ``{"type": "stake", "seq": N, "stake": 2}``.
"""

from __future__ import annotations

import json
import os
import random
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from shuangkou.errors import Refusal
from shuangkou.games.interface import HandFacts, Waiting
from shuangkou.roomfiles import ConfigError, Problem, read_room_file

SEATS = 3
RANKS = range(1, 14)


class HighCardError(Refusal, ValueError):
    """A refused high-card action."""


class HighCardRoom(BaseModel):
    """A high-card room: the shared keys and the stake timer."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    game: Literal["highcard"] = "highcard"
    name: str = "High card"
    edition: Literal["points", "wealth"] = "points"
    seats: Literal[3] = 3
    starting_balance: int = Field(default=1000, ge=0, le=10**15)
    allow_negative: bool = False
    match_points: int = Field(default=10, ge=1, le=10**12)
    table_fee: int = Field(default=0, ge=0, le=10**12)
    stake_seconds: float = Field(default=10.0, gt=0)
    turn_seconds: float = Field(default=10.0, gt=0)
    ready_seconds: float = Field(default=30.0, gt=0)
    bot_level: Literal["easy", "normal", "expert"] = "normal"
    bot_fill: Literal["offer", "auto"] = "offer"
    bot_fill_seconds: float = Field(default=0.0, ge=0)
    escape_mode: Literal["host", "settle"] = "host"

    @property
    def entry_balance(self) -> int | None:
        return None

    @property
    def stakes(self) -> tuple[int, int]:
        return self.match_points, 2 * self.match_points

    def stake_level(self, balance: int) -> int:
        return 0

    @property
    def variant(self) -> None:
        """One variant: the lobby names the room by its game alone."""
        return None

    @property
    def most_at_stake(self) -> int:
        """The winner's take: twice the match points from each of two losers, plus the fee."""
        return 2 * 2 * self.match_points + self.table_fee

    def can_sit(self, balance: int) -> bool:
        return balance > 0 or self.allow_negative

    def to_json(self) -> str:
        return self.model_dump_json()


@dataclass(frozen=True, slots=True)
class Stake:
    seat: int
    stake: int


@dataclass(frozen=True, slots=True)
class Hosting:
    seat: int
    on: bool


Action = Stake | Hosting


@dataclass(frozen=True, slots=True)
class Event:
    type: str
    seat: int | None = None
    detail: Mapping[str, object] = field(default_factory=dict)

    def view(self) -> dict[str, object]:
        return {"type": self.type, "seat": self.seat, **self.detail}

    def to_dict(self) -> dict[str, object]:
        return self.view()


class StakeMessage(BaseModel):
    """A seat's answer on the wire."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    type: Literal["stake"]
    seq: int
    stake: int


@dataclass(frozen=True, slots=True)
class HighCardRecord:
    """A hand's record: the room, the cards, the score before it, the actions and events."""

    config: HighCardRoom
    cards: tuple[int, ...]
    score: tuple[int, ...]
    actions: tuple[Mapping[str, object], ...]
    events: tuple[Mapping[str, object], ...] | None

    def to_dict(self) -> dict[str, object]:
        return {"config": json.loads(self.config.to_json()), "cards": list(self.cards), "score": list(self.score),
                "actions": list(self.actions), "events": None if self.events is None else list(self.events)}

    def to_orjson(self) -> dict[str, object]:
        return self.to_dict()

    def with_actions(
        self, actions: Sequence[Mapping[str, object]], events: Sequence[Mapping[str, object]] | None = None
    ) -> HighCardRecord:
        return replace(self, actions=tuple(actions), events=None if events is None else tuple(events))


@dataclass(frozen=True, slots=True)
class Settled:
    deltas: tuple[int, ...]
    house: int
    balances_before: tuple[int, ...]

    @property
    def balances_after(self) -> tuple[int, ...]:
        return tuple(b + d for b, d in zip(self.balances_before, self.deltas, strict=True))

    def to_dict(self) -> dict[str, Any]:
        return {"deltas": list(self.deltas), "house": self.house, "balances_before": list(self.balances_before),
                "balances_after": list(self.balances_after)}


@dataclass
class HighCardHand:
    """One hand: the cards, the stakes answered so far, the match score before it."""

    room: HighCardRoom
    cards: tuple[int, ...]
    score: tuple[int, ...]
    stakes: list[int | None] = field(default_factory=lambda: [None] * SEATS)
    hosting: list[bool] = field(default_factory=lambda: [False] * SEATS)
    actions: list[Action] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)

    seats = SEATS
    swap = None

    @property
    def seq(self) -> int:
        return len(self.actions)

    @property
    def turn(self) -> str | None:
        return None if self.finished else "stake"  # one window, answered by every seat

    @property
    def result(self) -> str | None:
        return None if not self.finished else "doubled" if 2 in self.stakes else "plain"

    @property
    def finished(self) -> bool:
        return all(stake is not None for stake in self.stakes)

    @property
    def winner(self) -> int | None:
        return max(range(SEATS), key=lambda seat: self.cards[seat]) if self.finished else None

    def waiting(self) -> tuple[Waiting, ...]:
        return tuple(Waiting(seat, "stake", self.room.stake_seconds)
                     for seat in range(SEATS) if self.stakes[seat] is None)

    def check(self, action: Action) -> None:
        if action.seat not in range(SEATS):
            raise HighCardError("bad_seat", f"seats are 0 to {SEATS - 1}, not {action.seat}")
        if self.finished:
            raise HighCardError("game_over", "the hand is over")
        if isinstance(action, Stake):
            if self.stakes[action.seat] is not None:
                raise HighCardError("not_your_turn", f"seat {action.seat} has staked already")
            if action.stake not in (1, 2):
                raise HighCardError("bad_action", f"a stake is 1 or 2, not {action.stake}")

    def apply(self, action: Action) -> list[Event]:
        self.check(action)
        before = len(self.events)
        self.actions.append(action)
        if isinstance(action, Hosting):
            self.hosting[action.seat] = action.on
            self.events.append(Event("hosting", action.seat, {"on": action.on}))
        else:
            self.stakes[action.seat] = action.stake
            self.events.append(Event("staked", action.seat))  # public: that it answered, not what
            if self.finished:
                self.events.append(Event("shown", None, {"cards": list(self.cards), "stakes": list(self.stakes)}))
                self.events.append(Event("end", self.winner))
        return self.events[before:]

    def undo(self) -> Action:
        action = self.actions.pop()
        replayed = HIGHCARD._start(self.room, self.cards, self.score)
        for earlier in self.actions:
            replayed.apply(earlier)
        self.stakes, self.hosting, self.events = replayed.stakes, replayed.hosting, replayed.events
        return action

    def default_action(self, seat: int) -> Stake:
        return Stake(seat, 1)

    def timeout_action(self, seat: int) -> Stake:
        return Stake(seat, 1)

    def escape_action(self, seat: int) -> None:
        return None  # leaving high card forfeits nothing: the stake defaults to 1

    def hosted(self, seat: int) -> bool:
        return self.hosting[seat]

    def hosting_action(self, seat: int, on: bool, cause: str | None = None) -> Hosting:
        return Hosting(seat, on)

    def in_play(self, seat: int) -> bool:
        return not self.finished and self.stakes[seat] is None

    def leaving_cost(self, seat: int, balances: Sequence[int]) -> None:
        return None

    def escape_charged(self, settled: Settled) -> None:
        return None

    def to_record(self) -> HighCardRecord:
        actions = tuple(HIGHCARD.action_to_dict(action) for action in self.actions)
        return HighCardRecord(self.room, self.cards, self.score, actions, tuple(e.to_dict() for e in self.events))

    def view(self, seat: int | None = None, public: Any = None) -> dict[str, Any]:
        shown = self.finished
        return {
            "seq": self.seq,
            "finished": shown,
            "answered": [stake is not None for stake in self.stakes],
            "stakes": list(self.stakes) if shown else None,
            "cards": list(self.cards) if shown else None,
            "card": self.cards[seat] if seat is not None else None,
            "score": list(self.score),
            "winner": self.winner,
        }

    def settlement(self, balances: Sequence[int]) -> Settled:
        winner = self.winner
        if winner is None:
            raise HighCardError("not_finished", "only a finished hand is settled")
        fee = self.room.table_fee
        left = [b - (fee if self.room.allow_negative else min(fee, max(b, 0))) for b in balances]
        house = sum(b - after for b, after in zip(balances, left, strict=True))
        deltas = [after - b for b, after in zip(balances, left, strict=True)]
        for seat in range(SEATS):
            if seat == winner:
                continue
            stakes = [s for s in (self.stakes[seat], self.stakes[winner]) if s is not None]
            owed = self.room.match_points * max(stakes)
            paid = owed if self.room.allow_negative else min(owed, max(left[seat], 0))
            deltas[seat] -= paid
            deltas[winner] += paid
        return Settled(tuple(deltas), house, tuple(balances))

    def carried(self) -> dict[str, Any]:
        winner = self.winner
        return {"score": [wins + (seat == winner) for seat, wins in enumerate(self.score)]}


class HighCardFamily:
    name = "highcard"
    shipped_rooms: tuple[str, ...] = ()
    bots: Mapping[str, str] = {"cautious": "always stakes 1", "bold": "stakes 2 on a card of 10 or more"}
    figure = "cards"

    def load_room(self, source: str | os.PathLike[str], overrides: Mapping[str, object] | None = None) -> HighCardRoom:
        data = {**read_room_file(source, "none"), **(overrides or {})}
        try:
            return HighCardRoom.model_validate(data)
        except ValidationError as error:
            first = error.errors()[0]
            key = ".".join(str(part) for part in first["loc"])
            raise ConfigError([Problem(os.fspath(source), key, first["msg"], repr(first.get("input")))]) from None

    def deal(
        self,
        room: HighCardRoom,
        seed: int | None = None,
        carried: Mapping[str, Any] | None = None,
        continuing: Sequence[bool] = (),
    ) -> HighCardHand:
        rng = random.Random(seed) if seed is not None else secrets.SystemRandom()
        cards = tuple(rng.sample(list(RANKS), SEATS))
        match_goes_on = carried is not None and all(continuing or [True])
        score = tuple(carried["score"]) if carried is not None and match_goes_on else (0,) * SEATS
        return self._start(room, cards, score)

    def room_from_json(self, text: str, source: str) -> HighCardRoom:
        return HighCardRoom.model_validate_json(text)

    def read_record(self, data: Mapping[str, Any], room: HighCardRoom | None = None) -> HighCardRecord:
        if "cards" not in data:
            raise HighCardError("bad_record", "the record has no 'cards'")
        config = room or HighCardRoom.model_validate(data["config"])
        events = data.get("events")
        return HighCardRecord(config, tuple(data["cards"]), tuple(data["score"]), tuple(data["actions"]),
                              None if events is None else tuple(events))

    def restore(self, record: HighCardRecord) -> HighCardHand:
        hand = self._start(record.config, record.cards, record.score)
        for action in record.actions:
            hand.apply(self.action_from_dict(action))
        if record.events is not None and list(record.events) != [event.to_dict() for event in hand.events]:
            raise HighCardError("replay_mismatch", "replayed events differ from the record")
        return hand

    messages = (StakeMessage,)

    def message_action(self, seat: int, message: BaseModel) -> Stake:
        assert isinstance(message, StakeMessage)
        return Stake(seat, message.stake)

    def moves_json(self, hand: HighCardHand, seat: int) -> str:
        return '[{"stake":1},{"stake":2}]' if hand.stakes[seat] is None and not hand.finished else "[]"

    def schemas(self) -> dict[str, Any]:
        return {"messages": {"StakeMessage": StakeMessage.model_json_schema()}}

    def table_bot(self, room: HighCardRoom) -> _TableBot:
        return _TableBot(room.bot_level, _Bot(bold=room.bot_level == "expert"))

    def teams(self, settlement: Mapping[str, Any], seats: int) -> list[int]:
        return list(range(seats))

    def replay(self, record: HighCardRecord, hand: HighCardHand) -> dict[str, Any]:
        return {"cards": list(record.cards), "score": list(record.score)}

    def scenario(self, room: HighCardRoom, data: Mapping[str, Any]) -> HighCardHand:
        cards, score = data.get("cards"), data.get("score", [0] * SEATS)
        if "seed" in data:
            return self.deal(room, int(data["seed"]), {"score": score})
        if not isinstance(cards, list) or len(cards) != SEATS or len(set(cards)) != SEATS \
                or not all(card in RANKS for card in cards):
            raise HighCardError("bad_scenario", f"cards: three different ranks from 1 to 13, not {cards!r}")
        return self._start(room, tuple(cards), tuple(score))

    def _start(self, room: HighCardRoom, cards: tuple[int, ...], score: tuple[int, ...]) -> HighCardHand:
        hand = HighCardHand(room, cards, score)
        hand.events.append(Event("deal", None, {"score": list(score)}))
        return hand

    def action_from_dict(self, data: Mapping[str, object]) -> Action:
        seat = data.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise HighCardError("bad_action", f"an action needs an integer 'seat', got {seat!r}")
        if isinstance(data.get("hosting"), bool):
            return Hosting(seat, bool(data["hosting"]))
        stake = data.get("stake")
        if not isinstance(stake, int) or isinstance(stake, bool):
            raise HighCardError("bad_action", f"unknown action {dict(data)!r}")
        return Stake(seat, stake)

    def action_to_dict(self, action: Action) -> dict[str, object]:
        if isinstance(action, Hosting):
            return {"seat": action.seat, "hosting": action.on}
        return {"seat": action.seat, "stake": action.stake}

    def player(self, name: str, seed: int | None, room: HighCardRoom, budget: Any = None) -> Any:
        if name not in self.bots:
            raise ValueError(f"unknown bot {name!r}; choose from {', '.join(self.bots)}")
        return _Bot(bold=name == "bold")

    def facts(self, hand: HighCardHand, room: HighCardRoom) -> HandFacts:
        assert hand.winner is not None
        return HandFacts(
            winners=(hand.winner,),
            result="doubled" if 2 in hand.stakes else "plain",
            figures=hand.cards,
            timeouts=0,
            hosting_on=sum(1 for event in hand.events if event.type == "hosting" and event.detail.get("on")),
            escaped=False,
        )

    def outcome(self, hand: HighCardHand, room: HighCardRoom, balances: Sequence[int]) -> dict[str, object]:
        outcome: dict[str, object] = {
            "events": [event.to_dict() for event in hand.events],
            "finished": hand.finished,
            "waiting": [wait.seat for wait in hand.waiting()],
            "winner": hand.winner,
            "settlement": None,
        }
        if hand.finished:
            outcome["settlement"] = hand.settlement(balances).to_dict()
            outcome["carried"] = hand.carried()
        return outcome


@dataclass(frozen=True, slots=True)
class _Bot:
    bold: bool

    def act(self, hand: HighCardHand, seat: int) -> Stake:
        return Stake(seat, 2 if self.bold and hand.cards[seat] >= 10 else 1)


@dataclass(frozen=True, slots=True)
class _TableBot:
    level: str
    bot: _Bot

    def act(self, hand: HighCardHand, seat: int) -> Stake:
        return self.bot.act(hand, seat)

    def search(self, hand: HighCardHand, seat: int, seed: int) -> tuple[Callable[..., Any], tuple[Any, ...]] | None:
        return None


HIGHCARD = HighCardFamily()
