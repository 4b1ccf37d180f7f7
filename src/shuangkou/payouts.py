"""The money step every game shares: a room's levels and match points (R9.4, C5.1, Y7.1),
and one game's nets to balances with the table fee, the caps and the win fee (R9.5, R9.7,
C5.7, Y7.3), for any number of seats. Pure functions over plain values; each game builds
its nets (Shuangkou's results and bombs, Royalist's unit scores) and hands them here.

>>> class Room:
...     allow_negative, table_fee, win_fee_share = False, 10, 0.0
>>> payout = settle_nets(Room(), [100, 30, 500, 0, 60], [-120, 60, 60, -60, 60])
>>> payout.paid, payout.received, payout.deltas, payout.house
((90, 0, 0, 0, 0), (0, 30, 30, 0, 30), (-100, 20, 20, 0, 20), 40)
"""

from __future__ import annotations

import functools
import math
from bisect import bisect_right
from collections.abc import Collection, Sequence
from dataclasses import dataclass, fields
from fractions import Fraction
from typing import Any, Protocol

from typing_extensions import TypedDict  # pydantic reads it for the protocol schema on Python < 3.12

from .errors import Refusal

__all__ = [
    "Amount",
    "Fees",
    "Payout",
    "PayoutView",
    "SettlementError",
    "exact_share",
    "level_index",
    "seat_of",
    "settle_nets",
    "share_of",
    "whole",
]

Amount = Fraction | int
"""A net before rounding: an escape's shares may be fractions of the match points."""


class SettlementError(Refusal, ValueError):
    """Settlement input that no game can produce; nothing is settled."""


class Fees(Protocol):
    """What the money step reads of a room: whether balances may go negative (R9.5), the
    table fee from each seat and the house's share of a receiver's gain (R9.7)."""

    @property
    def allow_negative(self) -> bool: ...

    @property
    def table_fee(self) -> int: ...

    @property
    def win_fee_share(self) -> float: ...


@functools.cache  # a room's few shares, read at every settlement and escape cost
def exact_share(share: float) -> Fraction:
    """A configured share as an exact fraction (0.7 is 7/10)."""
    return Fraction(str(share))


def whole(amount: Fraction) -> Amount:
    """``amount`` as an int when it is whole: the same value, much faster to compute with
    (its products with ints stay ints)."""
    return amount.numerator if amount.denominator == 1 else amount


def share_of(share: float, amount: int) -> int:
    """``share`` × ``amount`` rounded down, computed exactly."""
    return math.floor(exact_share(share) * amount)


def seat_of(seat: int, seats: int, what: str) -> int:
    """``seat`` when it is one of ``seats``; :class:`SettlementError` ``bad_seat`` naming ``what`` otherwise."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < seats:
        raise SettlementError("bad_seat", f"{what} must be a seat 0 to {seats - 1}, not {seat!r}")
    return seat


def level_index(thresholds: Sequence[int], balance: int) -> int:
    """The index of a balance's level in a room's level table (R9.4): the last row whose
    threshold (``needed``, strictly increasing) it reaches; a balance below the first row
    plays at the first."""
    return max(bisect_right(thresholds, balance) - 1, 0)


@dataclass(frozen=True, slots=True)
class Payout:
    """What :func:`settle_nets` did, per seat in the order of the balances given.

    - ``table_fees``: taken first from each seat (R9.7), capped by R9.5.
    - ``dues``: what a seat with a negative net owes (its net rounded up to a whole
      amount), 0 for the others; ``paid``: what it paid of it after the cap (R9.5).
    - ``received``: what a seat with a positive net got from the pot, before the win fee;
      ``win_fees``: the house's share of it (R9.7).
    - ``house``: the house's total change (fees, the pot's rest, win fees).
    - ``balances_before``, ``balances_after``, ``deltas``.

    Invariant: ``sum(deltas) + house == 0``.
    """

    table_fees: tuple[int, ...]
    dues: tuple[int, ...]
    paid: tuple[int, ...]
    received: tuple[int, ...]
    win_fees: tuple[int, ...]
    house: int
    balances_before: tuple[int, ...]
    balances_after: tuple[int, ...]
    deltas: tuple[int, ...]

    @property
    def capped(self) -> bool:
        """Whether some seat paid less than it owed (R9.5, C5.7, Y7.3)."""
        return self.paid != self.dues

    def parts(self) -> dict[str, Any]:
        """The fields by name: a game's settlement, a subclass, is built from them and its
        own breakdown."""
        return {part.name: getattr(self, part.name) for part in fields(Payout)}

    def payout_view(self) -> PayoutView:
        """The money step's JSON form, part of every game's settlement view."""
        return {
            "table_fees": list(self.table_fees),
            "dues": list(self.dues),
            "paid": list(self.paid),
            "received": list(self.received),
            "capped": self.capped,
            "win_fees": list(self.win_fees),
            "house": self.house,
            "deltas": list(self.deltas),
            "balances_before": list(self.balances_before),
            "balances_after": list(self.balances_after),
        }


class PayoutView(TypedDict):
    """The JSON form of a :class:`Payout`, one entry per seat in every list."""

    table_fees: list[int]
    dues: list[int]
    paid: list[int]
    received: list[int]
    capped: bool
    win_fees: list[int]
    house: int
    deltas: list[int]
    balances_before: list[int]
    balances_after: list[int]


def settle_nets(
    room: Fees,
    balances: Sequence[int],
    nets: Sequence[Amount],
    *,
    house_claim: Amount = 0,
    win_fee_from: Collection[int] = (),
) -> Payout:
    """Apply one game's nets to the balances, for any number of seats (R9.5, R9.7, C5.7, Y7.3).

    ``nets[seat]`` is what the seat wins (> 0) or loses (< 0) before fees and caps, and
    ``house_claim`` (≥ 0) the part of the losses owed to the house (an escape payment's
    rest, R10.3, C6.2, Y8.4); nets and claim sum to zero. Nets may be fractions: a
    receiver gets its net rounded down, a payer owes its loss rounded up, the house gets
    the rest.

    Order: the table fee from each seat, capped by its balance when
    ``allow_negative = false``; then each payer pays what it owes, capped by what it holds
    after the fee; everything paid is one pot, shared among the positive nets and the
    house's claim in proportion, each seat's share rounded down, the rest to the house;
    last, the win fee (``win_fee_share`` of what it received, rounded down) from each seat
    of ``win_fee_from``. With one payer and one receiver the pot goes whole to the
    receiver: exactly R9.5.
    """
    before = tuple(balances)
    if len(nets) != len(before):
        raise SettlementError(
            "bad_settlement", f"nets: expected one per seat ({len(before)}), got {len(nets)}"
        )
    if house_claim < 0 or sum(nets) + house_claim != 0:
        raise SettlementError(
            "bad_settlement",
            f"nets {list(nets)} and the house's claim {house_claim} must sum to zero, the claim at least 0",
        )
    for seat in win_fee_from:
        seat_of(seat, len(before), "a seat paying the win fee")
    balances_now = list(before)

    def payable(seat: int, amount: int) -> int:
        if room.allow_negative:
            return amount
        return max(0, min(amount, balances_now[seat]))

    fees = tuple(payable(seat, room.table_fee) for seat in range(len(before)))  # R9.7
    for seat, fee in enumerate(fees):
        balances_now[seat] -= fee
    dues = tuple(-math.floor(net) if net < 0 else 0 for net in nets)
    paid = tuple(payable(seat, due) for seat, due in enumerate(dues))  # R9.5: netting first
    pot = sum(paid)
    claimed = sum((net for net in nets if net > 0), house_claim)
    shared = min(pot, claimed)
    received = tuple(shared * net // claimed if net > 0 else 0 for net in nets)  # floor, exact
    win_fees = tuple(
        share_of(room.win_fee_share, got) if seat in win_fee_from else 0 for seat, got in enumerate(received)
    )
    after = tuple(
        balance - paid[seat] + received[seat] - win_fees[seat] for seat, balance in enumerate(balances_now)
    )
    house = sum(fees) + pot - sum(received) + sum(win_fees)
    deltas = tuple(end - start for start, end in zip(before, after, strict=True))
    assert sum(deltas) + house == 0
    return Payout(
        table_fees=fees,
        dues=dues,
        paid=paid,
        received=received,
        win_fees=win_fees,
        house=house,
        balances_before=before,
        balances_after=after,
        deltas=deltas,
    )
