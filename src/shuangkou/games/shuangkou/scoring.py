"""Scoring and settlement of a game (RULES §7–§10, RULES-CLASSIC C4–C6): pure functions
over plain values.

- :func:`scoring_phase` — a player's scoring phase from the bombs they played (R8, C4.1).
- :func:`settle_game` — the settlement of a two-seat game that ended normally (R7, R9).
- :func:`settle_escape` — the settlement of a two-seat game ended by an escape (R10.3).
- :func:`settle` — either of the two, as a finished game calls for.
- :func:`settle_classic` — the settlement of a four-seat game, escapes included (C5, C6).
- :func:`settle_nets` — the money step both games share: per-seat nets (and the house's
  claim) to balances, with the table fee, the caps and the win fee (R9.5, R9.7, C5.7).

Every amount is an integer (points or coins). A :class:`Settlement` (two seats) or
:class:`TableSettlement` (four seats) carries the whole breakdown of R9.6 / C5.8 and is
zero-sum: ``sum(deltas) + house == 0``. Input no game can produce (a seat the table does
not have, three balances, a loser without cards, ...) raises :class:`ScoringError`.

The worked example of R10.4 (wealth edition, X = 1000; A played a 6-phase bomb, B a
7-phase bomb; A escapes):

>>> from shuangkou.games.shuangkou.combos import classify
>>> from shuangkou.games.shuangkou.config import load_config
>>> wealth = load_config("wealth")
>>> s = settle_escape(
...     wealth,
...     escaper=0,
...     escaper_played=True,
...     bombs=([BombPlay(1, classify("666666"))], [BombPlay(2, classify("7777777"))]),
...     balances=(600_000, 600_000),
... )
>>> s.match_points, s.penalty, s.due, s.deltas, s.house
(1000, 12000, 20000, (-20000, 14000), 6000)
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal, Protocol, TypeVar

from typing_extensions import TypedDict  # pydantic reads it for the protocol schema on Python < 3.12

from ...payouts import Amount, Payout, PayoutView, SettlementError, exact_share, seat_of, settle_nets, share_of, whole
from .combos import Combo, ComboView, Kind
from .config import RoomConfig, TeamResult

__all__ = [
    "TABLE_SEATS",
    "BombLike",
    "BombPlay",
    "BombView",
    "Payout",
    "PhaseScore",
    "PhaseSource",
    "PhaseView",
    "ResultLevel",
    "ScoringError",
    "Settlement",
    "SettlementView",
    "TableResultLevel",
    "TableSettlement",
    "TableSettlementView",
    "classic_escape_penalty",
    "connected_pair_phase",
    "decided_result",
    "partner_of",
    "scoring_phase",
    "settle",
    "settle_classic",
    "settle_escape",
    "settle_game",
    "settle_nets",
    "team_of",
]

ResultLevel = Literal["flat", "single", "double", "escape"]
TableResultLevel = Literal["double", "single", "draw", "escape"]
PhaseSource = Literal["none", "bomb", "connected", "unconnected"]

TABLE_SEATS = 4
"""Seats of a classic table (C1.1)."""

_CONNECTED_LOW, _CONNECTED_HIGH = 3, 14  # R8.2: adjacent ranks within 3..A


ScoringError = SettlementError
"""Scoring input that no game can produce; nothing is settled (:class:`shuangkou.payouts.SettlementError`)."""


class BombLike(Protocol):
    """Anything with a play number and a bomb combination (``game.BombPlay`` fits)."""

    @property
    def play_index(self) -> int: ...

    @property
    def combo(self) -> Combo: ...


class BombView(ComboView):
    """JSON form of a bomb played: its play number and the combination (:meth:`Combo.view`)."""

    play_index: int


class PhaseView(TypedDict):
    """JSON form of a scoring phase (:class:`PhaseScore`)."""

    phase: int
    source: str
    bombs: list[BombView]
    played: list[BombView]


class SettlementView(TypedDict):
    """JSON form of a two-seat settlement, the whole breakdown of R9.6 (:class:`Settlement`)."""

    result: str
    winner: int
    escaper: int | None
    escaper_played: bool
    loser_cards_left: int | None
    match_points: int
    levels: list[int]
    a: int
    b: int
    doubling_phase: int
    phases: list[PhaseView]
    contribution_multipliers: list[int]
    contributions: list[int]
    result_points: int
    penalty: int
    due: int
    payer: int | None
    paid: int
    received: int
    capped: bool
    table_fees: list[int]
    win_fee: int
    house: int
    deltas: list[int]
    balances_before: list[int]
    balances_after: list[int]


class TableSettlementView(PayoutView):
    """JSON form of a four-seat settlement, the whole breakdown of C5.8
    (:class:`TableSettlement`): one entry per seat in every list; the money step's fields
    are :class:`~shuangkou.payouts.PayoutView`'s."""

    result: str
    finish_order: list[int]
    winners: list[int]
    escaper: int | None
    match_points: int
    levels: list[int]
    a: int
    b: int
    doubling_phase: int
    phases: list[PhaseView]
    team_phases: list[int]
    contribution_multipliers: list[int]
    contributions: list[int]
    result_points: int
    transfers: list[int]
    penalty: int
    escape_payments: list[int]
    nets: list[int]
    house_claim: int


@dataclass(frozen=True, slots=True)
class BombPlay:
    """A bomb a player played: ``play_index`` is the number of the play in the game."""

    play_index: int
    combo: Combo

    def __post_init__(self) -> None:
        if not self.combo.is_bomb:
            raise ScoringError("bad_settlement", f"{self.combo} is not a bomb")

    def to_dict(self) -> BombView:
        """JSON form: the play number and :meth:`Combo.view`."""
        return {"play_index": self.play_index, **self.combo.view()}


@dataclass(frozen=True, slots=True)
class PhaseScore:
    """A player's scoring phase (R8) and why.

    ``source`` says which rule set it: ``"bomb"`` the highest bomb (R8.1),
    ``"connected"`` a connected pair (R8.2), ``"unconnected"`` several bombs of one phase
    (R8.3), ``"none"`` no bomb (phase 0). ``bombs`` are the bombs behind it; ``played``
    every bomb the player played, in order.
    """

    phase: int
    source: PhaseSource
    bombs: tuple[BombPlay, ...]
    played: tuple[BombPlay, ...]

    def to_dict(self) -> PhaseView:
        """JSON form."""
        return {
            "phase": self.phase,
            "source": self.source,
            "bombs": [bomb.to_dict() for bomb in self.bombs],
            "played": [bomb.to_dict() for bomb in self.played],
        }


def _normalize(bombs: Sequence[BombLike]) -> tuple[BombPlay, ...]:
    played = tuple(
        bomb if isinstance(bomb, BombPlay) else BombPlay(bomb.play_index, bomb.combo) for bomb in bombs
    )
    indexes = [bomb.play_index for bomb in played]
    if len(set(indexes)) != len(indexes):
        raise ScoringError("bad_settlement", f"each bomb is a separate play; play numbers repeat in {indexes}")
    return played


def connected_pair_phase(first: Combo, second: Combo) -> int:
    """R8.2: X + 1 when two single-rank bombs have the same phase X and adjacent ranks
    within 3..A, else 0."""
    if first.kind is not Kind.BOMB or second.kind is not Kind.BOMB or first.phase != second.phase:
        return 0
    low, high = sorted((first.top, second.top))
    if high - low != 1 or low < _CONNECTED_LOW or high > _CONNECTED_HIGH:
        return 0
    return first.phase + 1


def scoring_phase(bombs: Sequence[BombLike], config: RoomConfig) -> PhaseScore:
    """A player's scoring phase: the largest of R8.1, R8.2 (always with two seats; with
    four only when ``connected_pairs``, C4.1) and (when ``count_unconnected``) R8.3.
    ``bombs`` are the bombs the player played, each a separate play. At equal phase R8.1
    is named before R8.2, and R8.2 before R8.3."""
    played = _normalize(bombs)
    best = PhaseScore(0, "none", (), played)
    for bomb in played:  # R8.1
        if bomb.combo.phase > best.phase:
            best = PhaseScore(bomb.combo.phase, "bomb", (bomb,), played)
    pairs = played if config.scores_connected_pairs else ()
    for j, later in enumerate(pairs):  # R8.2: pairs in separate plays; chains count as a pair
        for earlier in pairs[:j]:
            phase = connected_pair_phase(earlier.combo, later.combo)
            if phase > best.phase:
                best = PhaseScore(phase, "connected", (earlier, later), played)
    if config.count_unconnected:  # R8.3: every bomb of the phase counts, R8.2 ones included
        counts = Counter(bomb.combo.phase for bomb in played)
        for row in config.unconnected:
            if counts[row.phase] >= row.count and row.counts_as > best.phase:
                behind = tuple(bomb for bomb in played if bomb.combo.phase == row.phase)
                best = PhaseScore(row.counts_as, "unconnected", behind, played)
    return best


# ---------------------------------------------------------------------------
# The money step: nets to balances (R9.5, R9.7, C5.7)

# :func:`settle_nets`, :class:`Payout` and their helpers are the platform's, shared by
# every game (:mod:`shuangkou.payouts`); they are re-exported here under their old names.
_exact, _whole, _share = exact_share, whole, share_of


# ---------------------------------------------------------------------------
# Two seats (R7, R9, R10)


@dataclass(frozen=True, slots=True)
class Settlement:
    """The settlement of one two-seat game, with the breakdown of R9.6. Seats are 0 and 1.

    - ``result``: ``"flat"``, ``"single"``, ``"double"`` (R7.1) or ``"escape"`` (R10.3);
      ``winner`` is the seat that emptied its hand, or the escaper's opponent.
    - ``match_points`` X and both ``levels`` (R9.4); ``a`` (R7.1; 1 for an escape after
      the escaper played a card, 0 before), ``b`` and the ``doubling_phase`` it was read
      from (R9.2).
    - ``phases``: both scoring phases with the bombs behind them (R8).
    - ``contribution_multipliers`` c and ``contributions`` X·c per seat (R9.1; an
      escaper's is 0, R10.3).
    - ``result_points`` X·a·b, ``penalty`` X·escape_multiplier (escapes only).
    - ``due``: what ``payer`` owes after netting (R9.1) or the escape total D; ``paid``
      what it pays after the cap of R9.5; ``received`` what the other seat gets of it.
    - ``table_fees`` per seat and ``win_fee`` (R9.7); ``house`` the house's total change.
    - ``deltas`` per seat, ``balances_before`` and ``balances_after``.

    Invariant: ``sum(deltas) + house == 0``.
    """

    result: ResultLevel
    winner: int
    escaper: int | None
    escaper_played: bool
    loser_cards_left: int | None
    match_points: int
    levels: tuple[int, int]
    a: int
    b: int
    doubling_phase: int
    phases: tuple[PhaseScore, PhaseScore]
    contribution_multipliers: tuple[int, int]
    contributions: tuple[int, int]
    result_points: int
    penalty: int
    due: int
    payer: int | None
    paid: int
    received: int
    table_fees: tuple[int, int]
    win_fee: int
    house: int
    deltas: tuple[int, int]
    balances_before: tuple[int, int]
    balances_after: tuple[int, int]

    @property
    def capped(self) -> bool:
        """True when the payer paid less than was due (R9.5)."""
        return self.paid < self.due

    def to_dict(self) -> SettlementView:
        """JSON form of the whole breakdown."""
        return {
            "result": self.result,
            "winner": self.winner,
            "escaper": self.escaper,
            "escaper_played": self.escaper_played,
            "loser_cards_left": self.loser_cards_left,
            "match_points": self.match_points,
            "levels": list(self.levels),
            "a": self.a,
            "b": self.b,
            "doubling_phase": self.doubling_phase,
            "phases": [phase.to_dict() for phase in self.phases],
            "contribution_multipliers": list(self.contribution_multipliers),
            "contributions": list(self.contributions),
            "result_points": self.result_points,
            "penalty": self.penalty,
            "due": self.due,
            "payer": self.payer,
            "paid": self.paid,
            "received": self.received,
            "capped": self.capped,
            "table_fees": list(self.table_fees),
            "win_fee": self.win_fee,
            "house": self.house,
            "deltas": list(self.deltas),
            "balances_before": list(self.balances_before),
            "balances_after": list(self.balances_after),
        }


def _two_seat_room(config: RoomConfig) -> None:
    if config.seats != 2:
        raise ScoringError(
            "bad_settlement", f"a room of {config.seats} seats is settled by settle_classic, not as two seats"
        )


def _pair(values: Sequence[int], what: str) -> tuple[int, int]:
    if len(values) != 2:
        raise ScoringError("bad_settlement", f"{what}: expected two values (seats 0 and 1), got {len(values)}")
    return values[0], values[1]


def _seat(seat: int, what: str) -> int:
    if seat not in (0, 1) or isinstance(seat, bool):
        raise ScoringError("bad_seat", f"{what} must be seat 0 or 1, not {seat!r}")
    return seat


def _contribution(score: PhaseScore, config: RoomConfig) -> int:
    """c of a player (R9.1, C5.5): of the scoring phase, or summed over every bomb played."""
    if config.contribution == "sum":
        return sum(config.contribution_for(bomb.combo.phase) for bomb in score.played)
    return config.contribution_for(score.phase)


def _doubling_phase(phases: tuple[PhaseScore, PhaseScore], winner: int, config: RoomConfig) -> int:
    """The phase b is read from (R9.2): the winner's, or the larger of both."""
    if config.doubling_from == "game":
        return max(phases[0].phase, phases[1].phase)
    return phases[winner].phase


def settle_game(
    config: RoomConfig,
    *,
    winner: int,
    loser_cards_left: int,
    bombs: Sequence[Sequence[BombLike]],
    balances: Sequence[int],
) -> Settlement:
    """Settle a game that ended normally (R9): ``winner`` emptied their hand, the loser
    holds ``loser_cards_left`` cards; ``bombs[seat]`` are the bombs each seat played, in
    order; ``balances`` are both balances before the game.

    Order: the table fee from each seat (capped, R9.7); then the one netted transfer of
    R9.1, capped by what the payer holds after the fee (R9.5); then the house's share of
    the winner's gain (R9.7). The money is moved by :func:`settle_nets`.
    """
    _two_seat_room(config)
    winner = _seat(winner, "winner")
    loser = 1 - winner
    before = _pair(balances, "balances")
    bombs_by_seat = _pair_of_bombs(bombs)
    try:
        result, a = config.result_for(loser_cards_left)  # R7.1
    except ValueError as error:
        raise ScoringError("bad_settlement", str(error)) from None
    phases = (scoring_phase(bombs_by_seat[0], config), scoring_phase(bombs_by_seat[1], config))
    x = config.match_points_for(*before)  # R9.4
    doubling_phase = _doubling_phase(phases, winner, config)  # R9.2
    b = config.doubling_for(doubling_phase)
    c = (_contribution(phases[0], config), _contribution(phases[1], config))  # R9.1
    contributions = (x * c[0], x * c[1])
    result_points = x * a * b
    net_winner = result_points + contributions[winner] - contributions[loser]  # R9.1

    nets = [0, 0]
    nets[winner], nets[loser] = net_winner, -net_winner
    payout = settle_nets(config, before, nets, win_fee_from=(winner,))  # R9.5, R9.7
    payer = None if net_winner == 0 else (loser if net_winner > 0 else winner)
    paid = 0 if payer is None else payout.paid[payer]
    return _settlement(
        result=result,
        winner=winner,
        escaper=None,
        escaper_played=False,
        loser_cards_left=loser_cards_left,
        match_points=x,
        config=config,
        a=a,
        b=b,
        doubling_phase=doubling_phase,
        phases=phases,
        c=c,
        contributions=contributions,
        result_points=result_points,
        penalty=0,
        due=abs(net_winner),
        payer=payer,
        paid=paid,
        received=paid,
        win_fee=payout.win_fees[winner],
        payout=payout,
    )


def settle_escape(
    config: RoomConfig,
    *,
    escaper: int,
    escaper_played: bool,
    bombs: Sequence[Sequence[BombLike]],
    balances: Sequence[int],
) -> Settlement:
    """Settle a game ended by an escape (R10.2, R10.3).

    The escaper E pays D = X·escape_multiplier, plus, when E had already played a card,
    the normal loss X·b (a = 1, the opponent O counted as the winner for R9.2) and O's
    contribution X·c_O; E's own contribution is 0. D is capped by what E holds after the
    table fee (R9.5); O receives ``escape_share`` of what E paid, rounded down, and the
    rest goes to the house (the house's claim of :func:`settle_nets`). No win fee is
    taken on an escape.
    """
    _two_seat_room(config)
    escaper = _seat(escaper, "escaper")
    opponent = 1 - escaper
    before = _pair(balances, "balances")
    bombs_by_seat = _pair_of_bombs(bombs)
    phases = (scoring_phase(bombs_by_seat[0], config), scoring_phase(bombs_by_seat[1], config))
    x = config.match_points_for(*before)  # R9.4
    doubling_phase = _doubling_phase(phases, opponent, config)
    b = config.doubling_for(doubling_phase)
    a = 1 if escaper_played else 0
    c_list = [0, 0]
    if escaper_played:
        c_list[opponent] = _contribution(phases[opponent], config)
    c = (c_list[0], c_list[1])
    contributions = (x * c[0], x * c[1])
    result_points = x * a * b
    penalty = config.escape_penalty(before[0], before[1])  # X × escape_multiplier
    due = penalty + result_points + contributions[opponent]

    share = _whole(_exact(config.escape_share))  # a whole share pays in ints
    nets: list[Amount] = [0, 0]
    nets[escaper], nets[opponent] = -due, share * due
    payout = settle_nets(config, before, nets, house_claim=(1 - share) * due)  # R9.5, R10.3
    return _settlement(
        result="escape",
        winner=opponent,
        escaper=escaper,
        escaper_played=escaper_played,
        loser_cards_left=None,
        match_points=x,
        config=config,
        a=a,
        b=b,
        doubling_phase=doubling_phase,
        phases=phases,
        c=c,
        contributions=contributions,
        result_points=result_points,
        penalty=penalty,
        due=due,
        payer=escaper if due else None,
        paid=payout.paid[escaper],
        received=payout.received[opponent],
        win_fee=0,
        payout=payout,
    )


def settle(
    config: RoomConfig,
    *,
    winner: int,
    loser_cards_left: int,
    bombs: Sequence[Sequence[BombLike]],
    balances: Sequence[int],
    escaper: int | None = None,
    escaper_played: bool = False,
) -> Settlement:
    """:func:`settle_escape` when ``escaper`` is given (``winner`` must then be the other
    seat), else :func:`settle_game`."""
    if escaper is None:
        return settle_game(
            config, winner=winner, loser_cards_left=loser_cards_left, bombs=bombs, balances=balances
        )
    if winner != 1 - escaper:
        raise ScoringError(
            "bad_settlement", f"the winner of an escape is the escaper's opponent, not seat {winner}"
        )
    return settle_escape(
        config, escaper=escaper, escaper_played=escaper_played, bombs=bombs, balances=balances
    )


def _pair_of_bombs(bombs: Sequence[Sequence[BombLike]]) -> tuple[Sequence[BombLike], Sequence[BombLike]]:
    if len(bombs) != 2:
        raise ScoringError("bad_settlement", f"bombs: expected one list per seat (two), got {len(bombs)}")
    return bombs[0], bombs[1]


def _settlement(
    *,
    result: ResultLevel,
    winner: int,
    escaper: int | None,
    escaper_played: bool,
    loser_cards_left: int | None,
    match_points: int,
    config: RoomConfig,
    a: int,
    b: int,
    doubling_phase: int,
    phases: tuple[PhaseScore, PhaseScore],
    c: tuple[int, int],
    contributions: tuple[int, int],
    result_points: int,
    penalty: int,
    due: int,
    payer: int | None,
    paid: int,
    received: int,
    win_fee: int,
    payout: Payout,
) -> Settlement:
    before, after = _pair(payout.balances_before, "balances"), _pair(payout.balances_after, "balances")
    return Settlement(
        result=result,
        winner=winner,
        escaper=escaper,
        escaper_played=escaper_played,
        loser_cards_left=loser_cards_left,
        match_points=match_points,
        levels=(config.level_for(before[0]).level, config.level_for(before[1]).level),
        a=a,
        b=b,
        doubling_phase=doubling_phase,
        phases=phases,
        contribution_multipliers=c,
        contributions=contributions,
        result_points=result_points,
        penalty=penalty,
        due=due,
        payer=payer,
        paid=paid,
        received=received,
        table_fees=_pair(payout.table_fees, "table fees"),
        win_fee=win_fee,
        house=payout.house,
        deltas=_pair(payout.deltas, "deltas"),
        balances_before=before,
        balances_after=after,
    )


# ---------------------------------------------------------------------------
# Four seats (RULES-CLASSIC C3.2, C4, C5, C6)


def team_of(seat: int) -> int:
    """C1.1: seats 0 and 2 are team 0, seats 1 and 3 team 1."""
    return seat % 2


def partner_of(seat: int) -> int:
    """C1.1: the partner sits opposite."""
    return (seat + 2) % TABLE_SEATS


_seat_of = seat_of


_T = TypeVar("_T")


def _per_seat(values: Sequence[_T], what: str) -> tuple[_T, ...]:
    if len(values) != TABLE_SEATS:
        raise ScoringError(
            "bad_settlement", f"{what}: expected one per seat ({TABLE_SEATS}), got {len(values)}"
        )
    return tuple(values)


def decided_result(finish_order: Sequence[int]) -> TeamResult | None:
    """C3.2: the result a finishing order (the seats out so far, first out first)
    decides — ``"double"``, ``"single"`` or ``"draw"``, won by the team of the first out —
    or None while the game goes on. An order longer than the game (a third player out
    after a double win, a fifth entry) raises :class:`ScoringError`."""
    order = [_seat_of(seat, TABLE_SEATS, "a seat of the finishing order") for seat in finish_order]
    if len(set(order)) != len(order):
        raise ScoringError("bad_settlement", f"finishing order {order}: a seat goes out once")
    result: TeamResult | None = None
    if len(order) >= 2 and team_of(order[0]) == team_of(order[1]):
        result, ends_at = "double", 2
    elif len(order) >= 3:
        result = "single" if team_of(order[0]) == team_of(order[2]) else "draw"
        ends_at = TABLE_SEATS  # C2.2: the fourth may be named
    if result is not None and len(order) > ends_at:
        raise ScoringError(
            "bad_settlement", f"finishing order {order}: the game ended with a {result} result before the last"
        )
    return result


@dataclass(frozen=True, slots=True)
class TableSettlement(Payout):
    """The settlement of one four-seat game, with the breakdown of C5.8. Every tuple has
    one entry per seat 0–3 (seats as they sat for the game, after any C1.4 swap).

    - ``result``: ``"double"``, ``"single"``, ``"draw"`` (C3.2) or ``"escape"`` (C6.2, the
      game ended at once); ``finish_order`` the seats out, first out first; ``winners``
      the two seats of the winning team (the escaper's opponents on an escape), sorted.
    - ``escaper``: the seat that escaped, also when its seat was hosted to the end (C6.1;
      ``result`` is then the game's result).
    - ``match_points`` X (C5.1) and every seat's ``levels``; ``a`` (C5.2; the double
      win's on an escape), ``b`` and the ``doubling_phase`` it was read from (C5.3, C6.2).
    - ``phases`` (C4.1) and ``team_phases`` (C4.2, team 0 = seats 0 and 2).
    - ``contribution_multipliers`` c and ``contributions`` X·c: what each seat receives
      from *each* of the other three (C5.5; an escaper's is 0 when the game ends at once).
    - ``result_points`` X·a·b and ``transfers`` ±X·a·b per seat (C5.4; 0 on an escape).
    - ``penalty``: the escape penalty P (C6.1) or D (C6.2), else 0; ``escape_payments``
      its part per seat (−P or −D for the escaper, each opponent's half, rounded down).
    - ``nets``: each seat's net before fees and caps (C5.6); ``house_claim`` the house's
      part of an escape payment (C6.2's rest).
    - the money step: the fields of :class:`~shuangkou.payouts.Payout` it extends.

    Invariant: ``sum(deltas) + house == 0``.
    """

    result: TableResultLevel
    finish_order: tuple[int, ...]
    winners: tuple[int, int]
    escaper: int | None
    match_points: int
    levels: tuple[int, ...]
    a: int
    b: int
    doubling_phase: int
    phases: tuple[PhaseScore, ...]
    team_phases: tuple[int, int]
    contribution_multipliers: tuple[int, ...]
    contributions: tuple[int, ...]
    result_points: int
    transfers: tuple[int, ...]
    penalty: int
    escape_payments: tuple[int, ...]
    nets: tuple[int, ...]
    house_claim: int

    def to_dict(self) -> TableSettlementView:
        """JSON form of the whole breakdown (C5.8)."""
        return {
            "result": self.result,
            "finish_order": list(self.finish_order),
            "winners": list(self.winners),
            "escaper": self.escaper,
            "match_points": self.match_points,
            "levels": list(self.levels),
            "a": self.a,
            "b": self.b,
            "doubling_phase": self.doubling_phase,
            "phases": [phase.to_dict() for phase in self.phases],
            "team_phases": list(self.team_phases),
            "contribution_multipliers": list(self.contribution_multipliers),
            "contributions": list(self.contributions),
            "result_points": self.result_points,
            "transfers": list(self.transfers),
            "penalty": self.penalty,
            "escape_payments": list(self.escape_payments),
            "nets": list(self.nets),
            "house_claim": self.house_claim,
            **self.payout_view(),
        }


def classic_escape_penalty(config: RoomConfig, match_points: int, phases: Sequence[PhaseScore]) -> int:
    """C6: what a four-seat escaper pays at match points X: P = ``escape_double_wins`` × X ×
    a(double) when hosting plays the seat on (C6.1); with ``escape_mode = "settle"`` D = P ×
    b, b of the highest scoring phase any seat has reached (C6.2)."""
    penalty = config.escape_double_wins * match_points * config.double_win
    if config.escape_mode == "settle":
        penalty *= config.doubling_for(max(phase.phase for phase in phases))
    return penalty


def _escape_payments(escaper: int, penalty: int, share: Fraction) -> tuple[Amount, ...]:
    """Per seat: the escaper pays ``penalty``, each opponent is owed ``share`` of half of
    it, the escaper's partner nothing (C6.1, C6.2)."""
    return tuple(
        -penalty if seat == escaper else share * penalty / 2 if team_of(seat) != team_of(escaper) else 0
        for seat in range(TABLE_SEATS)
    )


def settle_classic(
    config: RoomConfig,
    finish_order: Sequence[int],
    bombs: Sequence[Sequence[BombLike]],
    balances: Sequence[int],
    escaper: int | None = None,
) -> TableSettlement:
    """Settle a four-seat game (C5, C6) of a room with ``seats = 4``.

    ``finish_order`` lists the seats out, first out first; ``bombs[seat]`` the bombs each
    seat played, in order; ``balances`` the four balances before the game; ``escaper``
    the seat that left while holding cards, if any.

    Without an escape, or with ``escape_mode = "host"`` (C6.1), the finishing order must
    decide the result (C3.2): each seat's net is the result transfer ±X·a·b (C5.4) plus
    the contributions (C5.5); with an escaper it also pays P = ``escape_double_wins`` × X
    × a(double), half to each opponent. With ``escape_mode = "settle"`` (C6.2) the game
    ends at once, before any result: the escaper pays D = P × b (b of the highest phase
    reached by anyone), each opponent receives ``escape_share`` × D / 2, the house the
    rest, and the three others' contributions are settled. The nets then go through
    :func:`settle_nets` (C5.7, C6.3): the win fee is taken from every receiver, except
    on an escape settled at once.
    """
    if config.seats != TABLE_SEATS:
        raise ScoringError(
            "bad_settlement", f"settle_classic settles four-seat rooms; this room has {config.seats} seats"
        )
    order = tuple(finish_order)
    decided = decided_result(order)
    before = _per_seat(balances, "balances")
    phases = tuple(scoring_phase(played, config) for played in _per_seat(bombs, "bombs"))  # C4.1
    team_phases = (max(phases[0].phase, phases[2].phase), max(phases[1].phase, phases[3].phase))  # C4.2
    x = config.match_points_for(*before)  # C5.1
    if escaper is not None:
        escaper = _seat_of(escaper, TABLE_SEATS, "escaper")
    ends_now = escaper is not None and config.escape_mode == "settle"
    escape: tuple[Amount, ...] = (0,) * TABLE_SEATS
    house_claim: Amount = 0
    if escaper is not None and ends_now:  # C6.2
        if decided is not None:
            raise ScoringError("bad_settlement", f"finishing order {list(order)}: the game was over ({decided})")
        if escaper in order:
            raise ScoringError("bad_settlement", f"seat {escaper} was out: leaving then is no escape (C6)")
        result: TableResultLevel = "escape"
        winning_team = 1 - team_of(escaper)
        a = config.double_win
        doubling_phase = max(phase.phase for phase in phases)
        b = config.doubling_for(doubling_phase)
        result_points = 0
        penalty = classic_escape_penalty(config, x, phases)
        share = _exact(config.escape_share)
        escape, house_claim = _escape_payments(escaper, penalty, share), (1 - share) * penalty
    else:
        if decided is None:
            raise ScoringError("bad_settlement", f"finishing order {list(order)} decides no result yet (C3.2)")
        result = decided
        winning_team = team_of(order[0])  # C5.2: the first out's team
        a = config.team_result_multiplier(decided)
        if config.doubling_from == "winner":  # C5.3
            doubling_phase = team_phases[winning_team]
        else:
            doubling_phase = max(phase.phase for phase in phases)
        b = config.doubling_for(doubling_phase)
        result_points = x * a * b
        penalty = 0
        if escaper is not None:  # C6.1
            penalty = classic_escape_penalty(config, x, phases)
            escape = _escape_payments(escaper, penalty, Fraction(1))
    c = tuple(0 if ends_now and seat == escaper else _contribution(phases[seat], config) for seat in range(TABLE_SEATS))
    contributions = tuple(x * multiplier for multiplier in c)
    transfers = tuple(
        result_points if team_of(seat) == winning_team else -result_points for seat in range(TABLE_SEATS)
    )
    exact_nets = [
        transfers[seat] + TABLE_SEATS * contributions[seat] - sum(contributions) + escape[seat]  # C5.5, C5.6
        for seat in range(TABLE_SEATS)
    ]
    payout = settle_nets(
        config,
        before,
        exact_nets,
        house_claim=house_claim,
        win_fee_from=() if ends_now else range(TABLE_SEATS),
    )
    nets = tuple(math.floor(net) for net in exact_nets)
    return TableSettlement(
        **payout.parts(),
        result=result,
        finish_order=order,
        winners=(winning_team, winning_team + 2),
        escaper=escaper,
        match_points=x,
        levels=tuple(config.level_for(balance).level for balance in before),
        a=a,
        b=b,
        doubling_phase=doubling_phase,
        phases=phases,
        team_phases=team_phases,
        contribution_multipliers=c,
        contributions=contributions,
        result_points=result_points,
        transfers=transfers,
        penalty=penalty,
        escape_payments=tuple(math.floor(part) for part in escape),
        nets=nets,
        house_claim=-sum(nets),
    )
