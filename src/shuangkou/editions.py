"""What every game's money shares: the editions a room plays for, and the bound on every
amount, which keeps each settlement within the ledger (RULES §9).

>>> EDITIONS
('points', 'wealth')
"""

from __future__ import annotations

from typing import Final, Literal, get_args

__all__ = ["EDITIONS", "MAX_AMOUNT", "Edition"]

Edition = Literal["points", "wealth"]
"""A balance a room plays for: points (may go negative, R9.5) or coins (wealth)."""

EDITIONS: Final[tuple[Edition, ...]] = get_args(Edition)
"""Every edition, in the order of :data:`Edition`."""

MAX_AMOUNT: Final = 10**15
"""The largest amount of money a room file may name (match points, level thresholds, the
starting balance, the table fee), and the most one seat may pay or receive in one game of
a room with every multiplier at its largest (a room's ``most_at_stake``). It keeps every
settlement thousands of games away from the 64-bit range of the ledger's balances (about
9.2 × 10^18), and below 2^53 (about 9 × 10^15), what a browser shows exactly. Operator
grants are bounded alike."""
