"""Scoring a hand of Tractor (T9–T11.5): the bottom's multiplier, the result band, the
level changes with must-play levels, the next dealer, the end of the match, and the money
of a hand (units, match points, fees and caps through :mod:`shuangkou.payouts`).

>>> result_of(255, "cap"), result_of(255, "every_40"), result_of(35, "cap")
(('attackers', 3), ('attackers', 4), ('dealer', 2))
>>> rise(1, 3, True, (3, 8, 11, 12)), rise(3, 1, False, (3, 8, 11, 12)), rise(10, 3, True, (12,))
(3, 3, 12)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

from ...payouts import Amount, Payout, settle_nets, whole
from .config import TractorRoom
from .formats import Lead
from .order import rank_text

__all__ = [
    "HandScore",
    "TractorSettlement",
    "bottom_multiplier",
    "next_dealer",
    "result_of",
    "rise",
    "settle_hand",
    "team_of",
    "units_of",
]

Side = Literal["dealer", "attackers"]


def team_of(seat: int) -> int:
    """A seat's team: 0 for seats 0 and 2, 1 for seats 1 and 3 (T1.1)."""
    return seat % 2


def bottom_multiplier(lead: Lead, rule: str) -> int:
    """m of the bottom bonus from the last trick's lead (T9.2): ``"doubling"`` 2^(p+1) with
    p the pairs of its largest component, ``"linear"`` twice the cards of its largest
    component, ``"per_card"`` twice the cards led."""
    if rule == "linear":
        return 2 * lead.largest.size
    if rule == "per_card":
        return 2 * lead.size
    return int(2 ** (lead.shape + 1))


def result_of(points: int, attacker_levels: str) -> tuple[Side, int]:
    """Who wins a hand with attackers' points A, and by how many levels (T9.3; A below 0
    counts as 0)."""
    if points <= 0:
        return "dealer", 3
    if points < 40:
        return "dealer", 2
    if points < 80:
        return "dealer", 1
    if attacker_levels == "every_40":
        return "attackers", (points - 80) // 40
    return "attackers", min((points - 80) // 40, 3)


def units_of(points: int, units: Sequence[int]) -> int:
    """u of T11.4 by the band of A (T16.5), whatever ``attacker_levels`` says."""
    bands = (0, 39, 79, 119, 159, 199)
    return units[sum(1 for bound in bands if points > bound)]


def rise(level: int, steps: int, as_dealer: bool, must_play: Sequence[int]) -> int:
    """A team's level after rising ``steps`` (T10.3, T16.6): a rise stops at the next
    must-play level above; a team at a must-play level leaves it only by winning as dealer
    team there. Levels are indexes (12 = A, always must-play)."""
    if steps <= 0 or (level in must_play and not as_dealer):
        return level
    target = level + steps
    return min([m for m in must_play if level < m <= target] + [target, 12])


def next_dealer(dealer: int, side: Side) -> int:
    """The dealer's partner after a dealer-team win, the seat after the dealer after an
    attackers' win (T10.1–T10.2)."""
    return (dealer + 2) % 4 if side == "dealer" else (dealer + 1) % 4


@dataclass(frozen=True, slots=True)
class HandScore:
    """The game facts of a finished hand (T9–T10): the attackers' trick points, the bottom
    (its points and m; the bonus when an attacker won the last trick), the throw
    penalties, A, the result and the levels (indexes) before and after, the next dealer and
    whether the match is over; ``escape``: a hand stopped by an escape (T11.5)."""

    dealer: int
    trick_points: int
    bottom_points: int
    multiplier: int
    bonus: int
    penalties: int
    attackers_points: int
    side: Side | None
    steps: int
    levels_before: tuple[int, int]
    levels_after: tuple[int, int]
    next_dealer: int | None
    match_over: bool
    escape: bool = False

    @staticmethod
    def of(
        room: TractorRoom, dealer: int, levels: tuple[int, int], trick_points: int, bottom_points: int,
        multiplier: int, attackers_last: bool, penalties: int,
    ) -> HandScore:
        """Score a hand played out (T9.1–T9.3, T10)."""
        bonus = bottom_points * multiplier if attackers_last else 0
        points = max(trick_points + bonus + penalties, 0)
        side, steps = result_of(points, room.attacker_levels)
        dealer_team = team_of(dealer)
        winners = dealer_team if side == "dealer" else 1 - dealer_team
        after = list(levels)
        match_over = side == "dealer" and levels[dealer_team] == 12
        after[winners] = rise(levels[winners], steps, side == "dealer", room.must_play)
        return HandScore(
            dealer, trick_points, bottom_points, multiplier, bonus, penalties, points, side, steps, levels,
            (after[0], after[1]), None if match_over else next_dealer(dealer, side), match_over,
        )

    @staticmethod
    def escaped(dealer: int, levels: tuple[int, int], trick_points: int, bottom_points: int) -> HandScore:
        """A hand stopped at once by an escape (T11.5 ``"settle"``): no result, no level change."""
        return HandScore(dealer, trick_points, bottom_points, 0, 0, 0, trick_points, None, 0, levels, levels,
                         None, True, True)

    @property
    def winning_team(self) -> int | None:
        """The team that won the hand."""
        if self.side is None:
            return None
        return team_of(self.dealer) if self.side == "dealer" else 1 - team_of(self.dealer)

    def view(self) -> dict[str, object]:
        """JSON form (levels as rank strings)."""
        return {
            "dealer": self.dealer,
            "trick_points": self.trick_points,
            "bottom_points": self.bottom_points,
            "bottom_multiplier": self.multiplier,
            "bottom_bonus": self.bonus,
            "penalties": self.penalties,
            "attackers_points": self.attackers_points,
            "result": self.side,
            "levels_gained": self.steps,
            "levels_before": [rank_text(level) for level in self.levels_before],
            "levels_after": [rank_text(level) for level in self.levels_after],
            "next_dealer": self.next_dealer,
            "match_over": self.match_over,
        }


@dataclass(frozen=True, slots=True)
class TractorSettlement(Payout):
    """A hand's money (T11.4–T11.5): u and X, each seat's net before fees and caps, the
    escape penalty, and the money step, the fields of :class:`~shuangkou.payouts.Payout` it
    extends. Invariant: ``sum(deltas) + house == 0``."""

    score: HandScore
    units: int
    match_points: int
    nets: tuple[int, ...]
    escaper: int | None
    penalty: int
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def winners(self) -> list[int]:
        """The seats of the team that won the hand; of a hand an escape stopped, the
        escaper's opponents (as a player's history shows them)."""
        team = self.score.winning_team
        if team is None and self.escaper is not None:
            team = 1 - team_of(self.escaper)
        return [seat for seat in range(4) if team is not None and team_of(seat) == team]

    def to_dict(self) -> dict[str, Any]:
        """The whole breakdown, JSON-ready."""
        dealer_team = team_of(self.score.dealer)
        return {
            **self.score.view(),
            "teams": [team_of(seat) for seat in range(4)],
            "dealer_team": [seat for seat in range(4) if team_of(seat) == dealer_team],
            "winners": self.winners,
            "units": self.units,
            "match_points": self.match_points,
            "nets": list(self.nets),
            "escaper": self.escaper,
            "escape_penalty": self.penalty,
            **self.payout_view(),
            **self.extra,
        }


def settle_hand(
    room: TractorRoom, score: HandScore, balances: Sequence[int], escaper: int | None = None,
    extra: Mapping[str, Any] | None = None,
) -> TractorSettlement:
    """The money of a finished hand (T11.4–T11.5): each attacker receives u·X and each
    dealer-team player pays it (u < 0 reverses it); an escaper pays ``escape_units`` × X
    more, half to each opponent (rounded down, the rest to the house); then the table fee,
    the caps and the win fee (C5.6–C5.7)."""
    if len(balances) != 4:
        raise ValueError(f"a Tractor hand settles four balances, not {len(balances)}")
    x = room.match_points_for(*balances)
    dealer_team = team_of(score.dealer)
    units = 0 if score.escape else units_of(score.attackers_points, room.hand_units)
    nets: list[Amount] = [units * x if team_of(seat) != dealer_team else -units * x for seat in range(4)]
    penalty = 0
    if escaper is not None:
        penalty = room.escape_units * x
        nets[escaper] -= penalty
        for seat in range(4):
            if team_of(seat) != team_of(escaper):
                nets[seat] = whole(Fraction(nets[seat]) + Fraction(penalty, 2))
    payout = settle_nets(room, balances, nets, win_fee_from=[seat for seat in range(4) if nets[seat] > 0])
    shown = tuple(int(net) if isinstance(net, int) else int(net.__floor__()) for net in nets)
    return TractorSettlement(
        **payout.parts(), score=score, units=units, match_points=x, nets=shown, escaper=escaper, penalty=penalty,
        extra=dict(extra or {}),
    )
