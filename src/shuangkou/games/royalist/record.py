"""A Royalist hand's record (Y5.4): the room, the seed, the first taker, the hands as the
throne offer found them, the tributes, every action with its cause and the events they
caused. :func:`restore` replays it, comparing the events when the record has them."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

import orjson

from ...cards import CardParseError
from ...roomfiles import ConfigError
from .config import RoyalistRoom, room_from_data
from .deck import cards_text, draw_hands, parse_hand
from .game import RoyalistError, RoyalistHand, Tribute, action_from_dict, action_to_dict, hand_from_cards
from .scoring import SEATS

__all__ = ["RoyalistRecord", "read_record", "record_of", "restore"]


@lru_cache(maxsize=64)
def _config_fragment(config_json: str) -> orjson.Fragment:
    return orjson.Fragment(orjson.dumps(json.loads(config_json)))


@dataclass(frozen=True)
class RoyalistRecord:
    """Everything needed to replay a hand (:func:`record_of`, :func:`restore`)."""

    config: RoyalistRoom
    seed: int | None
    first_taker: int
    hands: tuple[str, ...]
    tributes: tuple[dict[str, object], ...]
    actions: tuple[Mapping[str, object], ...]
    events: tuple[Mapping[str, object], ...] | None

    def to_dict(self) -> dict[str, object]:
        """JSON form, as stored: the room in its file layout."""
        return self._form(json.loads(self.config.to_json()))

    def to_orjson(self) -> dict[str, object]:
        """:meth:`to_dict` as :func:`orjson.dumps` takes it (the room's JSON made once per room)."""
        return self._form(_config_fragment(self.config.to_json()))

    def _form(self, config: object) -> dict[str, object]:
        return {
            "config": config,
            "seed": self.seed,
            "first_taker": self.first_taker,
            "hands": list(self.hands),
            "tributes": [dict(tribute) for tribute in self.tributes],
            "actions": [dict(action) for action in self.actions],
            "events": None if self.events is None else [dict(event) for event in self.events],
        }

    def with_actions(
        self, actions: Sequence[Mapping[str, object]], events: Sequence[Mapping[str, object]] | None = None
    ) -> RoyalistRecord:
        """A copy with other actions (a journal's) and their events (None: not compared)."""
        return replace(self, actions=_objects("actions", actions),
                       events=None if events is None else _objects("events", events))


def record_of(hand: RoyalistHand) -> RoyalistRecord:
    """The record of ``hand`` as it stands."""
    return RoyalistRecord(
        config=hand.room,
        seed=hand.seed,
        first_taker=hand.first_taker,
        hands=tuple(cards_text(cards) for cards in hand.dealt),
        tributes=tuple({"seat": t.seat, "to": t.to, "card": cards_text([t.card])} for t in hand.tributes),
        actions=tuple(action_to_dict(action) for action in hand.actions),
        events=tuple(event.to_dict() for event in hand.events),
    )


def _objects(key: str, items: object) -> tuple[dict[str, object], ...]:
    if isinstance(items, str | bytes | Mapping) or not isinstance(items, Iterable):
        raise RoyalistError("bad_record", f"{key!r} must be a list of objects, not {items!r}")
    result = tuple(items)
    for index, item in enumerate(result):
        if not isinstance(item, Mapping):
            raise RoyalistError("bad_record", f"{key!r}[{index}] must be an object, not {item!r}")
    return tuple(dict(item) for item in result)


def read_record(data: Mapping[str, Any], room: RoyalistRoom | None = None) -> RoyalistRecord:
    """A record from its JSON form, under ``room`` when given (else its own);
    :class:`RoyalistError` ``bad_record`` naming the key at fault."""
    if not isinstance(data, Mapping):
        raise RoyalistError("bad_record", f"a record is a JSON object, not {type(data).__name__}")
    for key in ("hands", "first_taker", "actions"):
        if key not in data:
            raise RoyalistError("bad_record", f"the record has no {key!r}")
    if room is None:
        config = data.get("config")
        if not isinstance(config, Mapping):
            raise RoyalistError("bad_record", f"'config' must be a room object, not {config!r}")
        try:
            room = room_from_data(config, source="the record's config")
        except ConfigError as error:
            raise RoyalistError("bad_record", f"'config': {error}") from None
    hands = data["hands"]
    if not isinstance(hands, list | tuple) or len(hands) != SEATS or not all(isinstance(h, str) for h in hands):
        raise RoyalistError("bad_record", f"'hands' must be five card strings, not {hands!r}")
    first_taker = data["first_taker"]
    if isinstance(first_taker, bool) or first_taker not in range(SEATS):
        raise RoyalistError("bad_record", f"'first_taker' must be a seat 0 to 4, not {first_taker!r}")
    seed = data.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise RoyalistError("bad_record", f"'seed' must be an integer or null, not {seed!r}")
    events = data.get("events")
    return RoyalistRecord(
        config=room,
        seed=seed,
        first_taker=first_taker,
        hands=tuple(hands),
        tributes=_objects("tributes", data.get("tributes", [])),
        actions=_objects("actions", data["actions"]),
        events=None if events is None else _objects("events", events),
    )


def restore(record: RoyalistRecord) -> RoyalistHand:
    """The hand ``record`` describes, its actions replayed; ``replay_mismatch`` when the
    record has events and the replay's differ, or the code of the first action refused."""
    try:
        hands = draw_hands(record.config.deck, [parse_hand(text) for text in record.hands], record.config.guard_card)
        tributes = tuple(
            Tribute(int(str(t["seat"])), int(str(t["to"])), parse_hand(str(t["card"]))[0]) for t in record.tributes
        )
    except (ValueError, KeyError, IndexError, CardParseError) as error:
        raise RoyalistError("bad_record", f"'hands': {error}") from None
    hand = hand_from_cards(record.config, hands, record.first_taker, record.seed, tributes)
    for action in record.actions:
        hand.apply(action_from_dict(action))
    if record.events is not None and [dict(event) for event in record.events] != [e.to_dict() for e in hand.events]:
        raise RoyalistError("replay_mismatch", "replayed events differ from the record")
    return hand
