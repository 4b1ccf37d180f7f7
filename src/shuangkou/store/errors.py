"""The errors of the store: every request it refuses raises a :class:`StoreError`.

An error about a bad argument is also a ``ValueError`` (one about a wrong type also a
``TypeError``), an error about a missing row also a ``LookupError``.
"""

from __future__ import annotations

__all__ = [
    "BalanceFloorError",
    "BalanceRangeError",
    "DuplicateActionError",
    "FencedError",
    "GameStateError",
    "InvalidNameError",
    "InvalidTypeError",
    "InvalidValueError",
    "LeaseError",
    "LeaseHeldError",
    "StoreError",
    "UnknownAccountError",
    "UnknownGameError",
    "ZeroSumError",
]


class StoreError(Exception):
    """Base class of the errors the store raises on a request it refuses."""


class InvalidValueError(StoreError, ValueError):
    """An argument the store refuses: an unknown edition or status, an empty reason, bad JSON, a negative limit."""


class InvalidTypeError(InvalidValueError, TypeError):
    """An argument of the wrong type, such as a float amount."""


class InvalidNameError(InvalidValueError):
    """A display name that is empty, too long or holds control characters."""


class UnknownAccountError(StoreError, LookupError):
    """No account with this id (or it has no balance in this edition)."""


class UnknownGameError(StoreError, LookupError):
    """No stored game with this id."""


class BalanceFloorError(StoreError, ValueError):
    """A deduction would take a balance below the floor (0 when negatives are not allowed, R9.5)."""


class BalanceRangeError(StoreError, ValueError):
    """A balance change that would leave the range of the database's 64-bit integers."""


class ZeroSumError(StoreError, ValueError):
    """A settlement whose deltas plus the house's do not sum to zero (R9.1, R9.7)."""


class DuplicateActionError(StoreError):
    """An action with this sequence number is already stored for the game."""


class GameStateError(StoreError):
    """The game is not in a state that allows the request (e.g. appending to a finished game)."""


class FencedError(StoreError):
    """The table was claimed by another node since this one claimed it: its fencing token is
    no longer the table's, and the write is refused (docs/deployment.md)."""


class LeaseError(StoreError):
    """The server's lease on its database cannot be taken."""


class LeaseHeldError(LeaseError):
    """Another server holds the lease on this database."""
