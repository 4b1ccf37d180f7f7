"""Helpers of the Tractor tests: referee scenarios of hand-built hands, and actions."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from shuangkou.referee import referee


def p(seat: int, cards: str) -> dict[str, object]:
    """A play (a lead, a throw or a follow)."""
    return {"seat": seat, "play": cards}


def declare(seat: int, cards: str) -> dict[str, object]:
    """A declaration (declare, override, reinforce)."""
    return {"seat": seat, "declare": cards}


def tractor(
    hands: Sequence[str],
    actions: Sequence[Mapping[str, object]] = (),
    *,
    trump: str | None = "S",
    level: str | Sequence[str] = "10",
    dealer: int = 0,
    bottom: str = "",
    overrides: Mapping[str, object] | None = None,
    auto: bool = False,
    **extra: Any,
) -> dict[str, Any]:
    """The referee's outcome of a Tractor scenario: level 10, ♠ trump, seat 0 dealing, no
    bottom and forced plays made by hand (``auto``: by the referee, T7.8) unless said."""
    levels = [level, level] if isinstance(level, str) else list(level)
    data: dict[str, Any] = {
        "config": "tractor",
        "overrides": {"auto_play_forced": auto, **(overrides or {})},
        "hands": list(hands),
        "bottom": bottom,
        "dealer": dealer,
        "levels": levels,
        "actions": list(actions),
        **extra,
    }
    if trump is not None:
        data["trump"] = trump
    return referee(data)


def trick(outcome: Mapping[str, Any], index: int = 0) -> dict[str, Any]:
    """One trick of an outcome."""
    tricks: list[dict[str, Any]] = outcome["tricks"]
    return tricks[index]


def kinds(outcome: Mapping[str, Any]) -> list[str]:
    """The types of an outcome's events."""
    return [event["type"] for event in outcome["events"]]


def stacked_deck(hands: Sequence[str], bottom: str = "", first: int = 0) -> tuple[int, ...]:
    """A deck that deals ``hands`` (the cards each seat must receive first, in order; the
    rest of the 108 cards fill up) and ends with ``bottom``, dealing from seat ``first``."""
    from shuangkou.games.tractor.order import FACES, faces_of

    wanted = [faces_of(hand) for hand in hands]
    tail = faces_of(bottom)
    left = Counter({face: 2 for face in range(FACES)})
    left.subtract(Counter(face for cards in (*wanted, tail) for face in cards))
    assert all(count >= 0 for count in left.values()), "more than two of a card"
    spare = sorted(left.elements())
    seats = [list(cards) for cards in wanted]
    for cards in seats:
        while len(cards) < 25:
            cards.append(spare.pop())
    while len(tail) < 8:
        tail.insert(0, spare.pop())
    deck = [seats[(first + index) % 4][index // 4] for index in range(100)]
    return (*deck, *tail)
