"""Scoring and settlement of a game (RULES §7–§10): pure functions over plain values.

- :func:`scoring_phase` — a player's scoring phase from the bombs they played (R8).
- :func:`settle_game` — the settlement of a game that ended normally (R7, R9).
- :func:`settle_escape` — the settlement of a game ended by an escape (R10.3).
- :func:`settle` — either of the two, as a finished game calls for.

Every amount is an integer (points or coins). A :class:`Settlement` carries the whole
breakdown of R9.6 and is zero-sum: ``sum(deltas) + house == 0``. Input no game can produce
(a seat other than 0 or 1, three balances, a loser without cards, ...) raises
:class:`ScoringError`.

The worked example of R10.4 (wealth edition, X = 1000; A played a 6-phase bomb, B a
7-phase bomb; A escapes):

>>> from shuangkou.combos import classify
>>> from shuangkou.config import load_config
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

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal, Protocol

from .combos import Combo, Kind
from .config import RoomConfig
from .errors import Refusal

__all__ = [
    "BombLike",
    "BombPlay",
    "PhaseScore",
    "PhaseSource",
    "ResultLevel",
    "ScoringError",
    "Settlement",
    "connected_pair_phase",
    "scoring_phase",
    "settle",
    "settle_escape",
    "settle_game",
]

ResultLevel = Literal["flat", "single", "double", "escape"]
PhaseSource = Literal["none", "bomb", "connected", "unconnected"]

_CONNECTED_LOW, _CONNECTED_HIGH = 3, 14  # R8.2: adjacent ranks within 3..A


class ScoringError(Refusal, ValueError):
    """Scoring input that no game can produce; nothing is settled."""


class BombLike(Protocol):
    """Anything with a play number and a bomb combination (``game.BombPlay`` fits)."""

    @property
    def play_index(self) -> int: ...

    @property
    def combo(self) -> Combo: ...


@dataclass(frozen=True, slots=True)
class BombPlay:
    """A bomb a player played: ``play_index`` is the number of the play in the game."""

    play_index: int
    combo: Combo

    def __post_init__(self) -> None:
        if not self.combo.is_bomb:
            raise ScoringError("bad_settlement", f"{self.combo} is not a bomb")

    def to_dict(self) -> dict[str, object]:
        """JSON form: the play number and :meth:`Combo.to_dict`."""
        return {"play_index": self.play_index, **self.combo.to_dict()}


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

    def to_dict(self) -> dict[str, object]:
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
    """A player's scoring phase: the largest of R8.1, R8.2 and (when
    ``count_unconnected``) R8.3. ``bombs`` are the bombs the player played, each a
    separate play. At equal phase R8.1 is named before R8.2, and R8.2 before R8.3."""
    played = _normalize(bombs)
    best = PhaseScore(0, "none", (), played)
    for bomb in played:  # R8.1
        if bomb.combo.phase > best.phase:
            best = PhaseScore(bomb.combo.phase, "bomb", (bomb,), played)
    for j, later in enumerate(played):  # R8.2: pairs in separate plays; chains count as a pair
        for earlier in played[:j]:
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


@dataclass(frozen=True, slots=True)
class Settlement:
    """The settlement of one game, with the breakdown of R9.6. Seats are 0 and 1.

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

    def to_dict(self) -> dict[str, object]:
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


# ---------------------------------------------------------------------------
# Settlement


def _pair(values: Sequence[int], what: str) -> tuple[int, int]:
    if len(values) != 2:
        raise ScoringError("bad_settlement", f"{what}: expected two values (seats 0 and 1), got {len(values)}")
    return values[0], values[1]


def _seat(seat: int, what: str) -> int:
    if seat not in (0, 1) or isinstance(seat, bool):
        raise ScoringError("bad_seat", f"{what} must be seat 0 or 1, not {seat!r}")
    return seat


def _contribution(score: PhaseScore, config: RoomConfig) -> int:
    """c of a player (R9.1): of the scoring phase, or summed over every bomb played."""
    if config.contribution == "sum":
        return sum(config.contribution_for(bomb.combo.phase) for bomb in score.played)
    return config.contribution_for(score.phase)


def _doubling_phase(phases: tuple[PhaseScore, PhaseScore], winner: int, config: RoomConfig) -> int:
    """The phase b is read from (R9.2): the winner's, or the larger of both."""
    if config.doubling_from == "game":
        return max(phases[0].phase, phases[1].phase)
    return phases[winner].phase


def _share(share: float, amount: int) -> int:
    """``share`` × ``amount`` rounded down, computed exactly (0.7 is 7/10)."""
    return int(Fraction(str(share)) * amount)


class _Ledger:
    """Balances during one settlement; every change moves value between seats and house."""

    def __init__(self, balances: tuple[int, int], config: RoomConfig) -> None:
        self.balances = list(balances)
        self.house = 0
        self.allow_negative = config.allow_negative

    def payable(self, seat: int, amount: int) -> int:
        """What ``seat`` can pay of ``amount`` (R9.5)."""
        if self.allow_negative:
            return amount
        return max(0, min(amount, self.balances[seat]))

    def to_house(self, seat: int, amount: int) -> None:
        self.balances[seat] -= amount
        self.house += amount

    def transfer(self, payer: int, amount: int) -> None:
        self.balances[payer] -= amount
        self.balances[1 - payer] += amount

    def table_fees(self, fee: int) -> tuple[int, int]:
        charged = (self.payable(0, fee), self.payable(1, fee))
        for seat in (0, 1):
            self.to_house(seat, charged[seat])
        return charged


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
    the winner's gain (R9.7).
    """
    winner = _seat(winner, "winner")
    loser = 1 - winner
    before = _pair(balances, "balances")
    bombs_by_seat = _pair_of_bombs(bombs)
    try:
        result, a = config.result_for(loser_cards_left)  # R7.1
    except ValueError as error:
        raise ScoringError("bad_settlement", str(error)) from None
    phases = (scoring_phase(bombs_by_seat[0], config), scoring_phase(bombs_by_seat[1], config))
    x = config.match_points_for(before[0], before[1])  # R9.4
    doubling_phase = _doubling_phase(phases, winner, config)  # R9.2
    b = config.doubling_for(doubling_phase)
    c = (_contribution(phases[0], config), _contribution(phases[1], config))  # R9.1
    contributions = (x * c[0], x * c[1])
    result_points = x * a * b
    net_winner = result_points + contributions[winner] - contributions[loser]  # R9.1

    ledger = _Ledger(before, config)
    fees = ledger.table_fees(config.table_fee)  # R9.7
    payer = None if net_winner == 0 else (loser if net_winner > 0 else winner)
    due = abs(net_winner)
    paid = 0 if payer is None else ledger.payable(payer, due)  # R9.5: netting first
    if payer is not None:
        ledger.transfer(payer, paid)
    win_fee = _share(config.win_fee_share, paid) if payer == loser else 0  # R9.7
    ledger.to_house(winner, win_fee)
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
        due=due,
        payer=payer,
        paid=paid,
        received=paid,
        fees=fees,
        win_fee=win_fee,
        ledger=ledger,
        before=before,
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
    rest goes to the house. No win fee is taken on an escape.
    """
    escaper = _seat(escaper, "escaper")
    opponent = 1 - escaper
    before = _pair(balances, "balances")
    bombs_by_seat = _pair_of_bombs(bombs)
    phases = (scoring_phase(bombs_by_seat[0], config), scoring_phase(bombs_by_seat[1], config))
    x = config.match_points_for(before[0], before[1])  # R9.4
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

    ledger = _Ledger(before, config)
    fees = ledger.table_fees(config.table_fee)
    paid = ledger.payable(escaper, due)
    received = _share(config.escape_share, paid)
    ledger.to_house(escaper, paid - received)
    ledger.transfer(escaper, received)
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
        paid=paid,
        received=received,
        fees=fees,
        win_fee=0,
        ledger=ledger,
        before=before,
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
    fees: tuple[int, int],
    win_fee: int,
    ledger: _Ledger,
    before: tuple[int, int],
) -> Settlement:
    after = (ledger.balances[0], ledger.balances[1])
    deltas = (after[0] - before[0], after[1] - before[1])
    assert deltas[0] + deltas[1] + ledger.house == 0
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
        table_fees=fees,
        win_fee=win_fee,
        house=ledger.house,
        deltas=deltas,
        balances_before=before,
        balances_after=after,
    )
