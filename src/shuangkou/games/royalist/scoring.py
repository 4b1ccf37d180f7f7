"""Royalist's scores and settlement (Y5.3, Y6, Y7, Y8.4): pure functions over plain values.

- :func:`game_over` — whether the seats out so far fix the score (Y5.1, Y5.2).
- :func:`unit_scores` — each seat's units (Y6), the multiplier *m* included.
- :func:`settle_royalist` — money (Y7): units × X, escapes (Y8.4), then the shared money
  step (:func:`shuangkou.payouts.settle_nets`: fees, caps, the house, Y7.3).

Row 1 of Y10.3: the emperor (seat 0) first and the guard (seat 3) second, *s* = 3:

>>> roles = Roles(emperor=0, guard=3, solo=None)
>>> unit_scores(roles, finish_order=(0, 3), multiplier=1)
(6, -3, -3, 3, -3)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal, NamedTuple

from ...payouts import Amount, Payout, SettlementError, exact_share, settle_nets
from .config import RoyalistRoom

__all__ = [
    "SEATS",
    "Result",
    "Roles",
    "RoyalistSettlement",
    "game_over",
    "result_of",
    "scoring_places",
    "settle_royalist",
    "unit_scores",
]

SEATS = 5
Solo = Literal["open", "secret"]
Result = Literal["royals", "draw", "revolutionaries", "escape"]


class Roles(NamedTuple):
    """Who plays which part (Y2): the emperor's seat, the guard's (the emperor's own in a
    solo), and ``solo``: ``"open"`` (包), ``"secret"`` or None (two against three)."""

    emperor: int
    guard: int
    solo: Solo | None

    def royal(self, seat: int) -> bool:
        """Whether ``seat`` is the emperor or his guard."""
        return seat in (self.emperor, self.guard)

    def view(self) -> dict[str, object]:
        """JSON form (the referee's ``roles``): the guard is null in a solo."""
        return {"emperor": self.emperor, "guard": None if self.solo else self.guard, "solo": self.solo}


def game_over(roles: Roles, finish_order: Sequence[int], open_solo_second: str = "draw") -> bool:
    """Whether the seats out so far fix the score (Y5): both royals out or all three
    revolutionaries out (Y5.1); in a solo, the emperor out or two others out (Y5.2), or
    one other out in an open solo with ``open_solo_second = "loss"``."""
    out = set(finish_order)
    if roles.solo is None:
        royals = {roles.emperor, roles.guard}
        return royals <= out or len(out - royals) == SEATS - 2
    others = len(out - {roles.emperor})
    needed = 1 if roles.solo == "open" and open_solo_second == "loss" else 2
    return roles.emperor in out or others >= needed


def scoring_places(roles: Roles, finish_order: Sequence[int]) -> tuple[int, int]:
    """The places scoring reads (Y5.3): (E, G) in two against three — an unplaced royal
    takes place 5, or both take 4 and 5 (E + G = 9 either way); in a solo (E, E), an
    unplaced emperor counting as third or worse (3)."""
    place = {seat: index + 1 for index, seat in enumerate(finish_order)}
    if roles.solo is not None:
        emperor = place.get(roles.emperor, 3)
        return emperor, emperor
    emperor_place, guard_place = place.get(roles.emperor), place.get(roles.guard)
    if emperor_place is None and guard_place is None:
        return 4, 5
    return emperor_place or 5, guard_place or 5


def unit_scores(roles: Roles, finish_order: Sequence[int], multiplier: int) -> tuple[int, ...]:
    """Each seat's units (Y6), *m* included: two against three, *s* = 6 − (E + G), the guard
    *s*, the emperor 2*s*, each revolutionary −*s* (Y6.1); a solo by the emperor's place,
    +12/−3 first, 0 second, −12/+3 otherwise (Y6.2, Y6.3: an open solo has *m* = 2)."""
    emperor_place, guard_place = scoring_places(roles, finish_order)
    if roles.solo is None:
        s = 6 - (emperor_place + guard_place)
        units = [-s * multiplier] * SEATS
        units[roles.emperor], units[roles.guard] = 2 * s * multiplier, s * multiplier
        return tuple(units)
    other = {1: -3, 2: 0}.get(emperor_place, 3) * multiplier
    units = [other] * SEATS
    units[roles.emperor] = -4 * other
    return tuple(units)


def result_of(units: Sequence[int], roles: Roles) -> Result:
    """The result's name: the royals' or the revolutionaries' win, or a draw (Y6.4)."""
    emperor = units[roles.emperor]
    return "royals" if emperor > 0 else "revolutionaries" if emperor < 0 else "draw"


def winning_seats(result: str, units: Sequence[int], escapers: Sequence[int]) -> tuple[int, ...]:
    """The seats that won: those with units above 0 (Y6); when an escape ended the game
    (Y8.4), every seat but the escapers."""
    if result == "escape":
        return tuple(seat for seat in range(len(units)) if seat not in escapers)
    return tuple(seat for seat, unit in enumerate(units) if unit > 0)


@dataclass(frozen=True, slots=True)
class RoyalistSettlement(Payout):
    """One game's settlement, with the breakdown of Y7.3 (every tuple one entry per seat).

    - ``result`` (:data:`Result`; ``"escape"`` when an escape ended the game, Y8.4),
      ``roles`` (None when the game ended before an ascent), ``multiplier`` *m*,
      ``finish_order`` and ``places`` (None for a seat still holding cards, Y13.1).
    - ``units`` (Y6, *m* included; 0 when an escape ended the game), ``match_points`` X
      and every seat's ``levels`` (Y7.1).
    - ``escapers`` and ``escape_payments``: per seat, −P (or −D) for an escaper and what
      each other seat receives of it (Y8.4, Y13.12); ``house_claim``: the rounding rest.
    - ``nets`` (units × X + escape payments, Y7.2), and the money step of Y7.3, the
      fields of :class:`~shuangkou.payouts.Payout` it extends.

    Invariant: ``sum(deltas) + house == 0``.
    """

    result: Result
    roles: Roles | None
    multiplier: int
    finish_order: tuple[int, ...]
    places: tuple[int | None, ...]
    units: tuple[int, ...]
    match_points: int
    levels: tuple[int, ...]
    escapers: tuple[int, ...]
    escape_payments: tuple[int, ...]
    house_claim: int
    nets: tuple[int, ...]

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats that won (:func:`winning_seats`), as a player's history shows them."""
        return winning_seats(self.result, self.units, self.escapers)

    def to_dict(self) -> dict[str, Any]:
        """The whole breakdown, JSON-ready."""
        return {
            "result": self.result,
            "roles": None if self.roles is None else self.roles.view(),
            "multiplier": self.multiplier,
            "finish_order": list(self.finish_order),
            "places": list(self.places),
            "units": list(self.units),
            "winners": list(self.winners),
            "match_points": self.match_points,
            "levels": list(self.levels),
            "escapers": list(self.escapers),
            "escape_payments": list(self.escape_payments),
            "house_claim": self.house_claim,
            "nets": list(self.nets),
            **self.payout_view(),
        }


def escape_amount(room: RoyalistRoom, match_points: int, multiplier: int) -> int:
    """What an escaper pays (Y8.4): P = ``escape_units`` × X when hosting plays the seat
    on, D = P × *m* when the game ends at once."""
    amount = room.escape_units * match_points
    return amount * multiplier if room.escape_mode == "settle" else amount


def settle_royalist(
    room: RoyalistRoom,
    balances: Sequence[int],
    *,
    roles: Roles | None,
    finish_order: Sequence[int],
    multiplier: int,
    escapers: Sequence[int] = (),
    ended_by_escape: bool = False,
) -> RoyalistSettlement:
    """Settle one game (Y7, Y8.4). Without an escape that ended it, ``finish_order`` must
    fix the score (:func:`game_over`); each seat's net is its units × X. An escaper pays
    P (host mode, on top of the game's nets) or D (settle mode, the game ended at once
    with no role scores): each other seat receives ⌊P / 4⌋ or ⌊share × D / 4⌋, the house
    the rest (Y13.12). The nets then go through the shared money step, the win fee taken
    from every receiver except when an escape ended the game."""
    before = tuple(balances)
    if len(before) != SEATS:
        raise SettlementError("bad_settlement", f"balances: expected one per seat ({SEATS}), got {len(before)}")
    order = tuple(finish_order)
    x = room.match_points_for(*before)
    if ended_by_escape:
        units: tuple[int, ...] = (0,) * SEATS
        result: Result = "escape"
    else:
        if roles is None or not game_over(roles, order, room.open_solo_second):
            raise SettlementError("bad_settlement", f"the seats out {list(order)} fix no score yet (Y5)")
        units = unit_scores(roles, order, multiplier)
        result = result_of(units, roles)
    share = exact_share(room.escape_share) if ended_by_escape else Fraction(1)
    escape: list[Amount] = [0] * SEATS
    claim: Amount = 0
    for escaper in escapers:
        amount = escape_amount(room, x, multiplier)
        each = (share * amount) // (SEATS - 1)  # whole units of money (Y13.12)
        for seat in range(SEATS):
            escape[seat] += -amount if seat == escaper else each
        claim += amount - (SEATS - 1) * each
    exact = [units[seat] * x + escape[seat] for seat in range(SEATS)]
    payout = settle_nets(room, before, exact, house_claim=claim,
                         win_fee_from=() if ended_by_escape else range(SEATS))
    place = {seat: index + 1 for index, seat in enumerate(order)}
    return RoyalistSettlement(
        **payout.parts(),
        result=result,
        roles=roles,
        multiplier=multiplier,
        finish_order=order,
        places=tuple(place.get(seat) for seat in range(SEATS)),
        units=units,
        match_points=x,
        levels=tuple(room.level_for(balance).level for balance in before),
        escapers=tuple(escapers),
        escape_payments=tuple(int(part) for part in escape),
        house_claim=int(claim),
        nets=tuple(int(net) for net in exact),
    )
