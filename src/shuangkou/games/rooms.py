"""What every game's room configuration shares: a frozen, validated model written back in
its file's layout (:class:`RoomModel`), the kinds of values rooms set (amounts, seconds,
shares), and the level table of R9.4 (:class:`LevelRow`, :func:`check_levels`) with what
the platform reads from it: match points X of the lowest level among the players, the entry
balance of a wealth room, the level an account shows (Y7.1 and T11.4 use the same table).

>>> rows = (LevelRow(level=0, needed=0, match_points=5), LevelRow(level=1, needed=100, match_points=10))
>>> check_levels(rows) == rows
True
>>> check_levels(rows[::-1])
Traceback (most recent call last):
...
shuangkou.games.rooms.Invalid: expected 2 (levels strictly increasing), found 0 (an integer)
"""

from __future__ import annotations

import functools
import itertools
import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field

from ..editions import MAX_AMOUNT
from ..payouts import level_index
from ..roomfiles import Problem, RoomLayout, show_value

if TYPE_CHECKING:
    from ..editions import Edition

__all__ = [
    "Amount", "FrozenModel", "Invalid", "LevelRow", "RoomModel", "Seconds", "Share", "SignedAmount",
    "check_levels", "invalid_problem", "plain_value",
]

Amount = Annotated[int, Field(ge=0, le=MAX_AMOUNT)]
SignedAmount = Annotated[int, Field(ge=-MAX_AMOUNT, le=MAX_AMOUNT)]
Seconds = Annotated[float, Field(gt=0)]
Share = Annotated[float, Field(ge=0, le=1)]


class FrozenModel(BaseModel):
    """A part of a room: immutable, no unknown keys, no coercion between types."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)


class Invalid(ValueError):
    """Raised inside a validator: ``loc`` is the path below the validated field (or the
    room), so that the file's key is named exactly (see :func:`invalid_problem`)."""

    def __init__(self, loc: tuple[str | int, ...], expected: str, found: str) -> None:
        super().__init__(f"expected {expected}, found {found}")
        self.loc = loc
        self.expected = expected
        self.found = found


def invalid_problem(item: Mapping[str, Any], source: str, layout: RoomLayout) -> Problem | None:
    """The problem a validation error item states when a validator raised :class:`Invalid`
    (its key as the file names it), else None."""
    cause = (item.get("ctx") or {}).get("error")
    if not isinstance(cause, Invalid):
        return None
    return Problem(source, layout.dotted(tuple(item["loc"]) + cause.loc), cause.expected, cause.found)


class LevelRow(FrozenModel):
    """One level of R9.4: a balance of at least ``needed`` is level ``level`` and plays
    for ``match_points``."""

    level: Annotated[int, Field(ge=0)]
    needed: SignedAmount
    match_points: Amount


def check_levels(rows: tuple[LevelRow, ...]) -> tuple[LevelRow, ...]:
    """R9.4's level table, checked: at least one row, the levels consecutive, the thresholds
    strictly increasing, the match points never falling; :class:`Invalid` names the row."""
    if not rows:
        raise Invalid((), "at least one level row", "an empty array")
    for index, (previous, row) in enumerate(itertools.pairwise(rows), start=1):
        if row.level != previous.level + 1:
            what = ("levels strictly increasing" if row.level <= previous.level
                    else f"missing level row {previous.level + 1}")
            raise Invalid((index, "level"), f"{previous.level + 1} ({what})", show_value(row.level))
        if row.needed <= previous.needed:
            raise Invalid((index, "needed"), f"thresholds strictly increasing: more than {previous.needed}",
                          show_value(row.needed))
        if row.match_points < previous.match_points:
            raise Invalid((index, "match_points"),
                          f"at least {previous.match_points} (match points never fall as the level rises)",
                          show_value(row.match_points))
    return rows


def plain_value(value: Any) -> Any:
    """A value as a room file writes it: whole floats as integers (``20`` not ``20.0``),
    None-valued keys of a table dropped."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, list):
        return [plain_value(item) for item in value]
    if isinstance(value, dict):
        return {key: plain_value(item) for key, item in value.items() if item is not None}
    return value


class RoomModel(FrozenModel):
    """A game's room: its level table read as the platform asks (R9.4), and the room
    written back in its file's layout (:attr:`LAYOUT`) and as the JSON stored with every
    game. A subclass declares ``edition`` and ``levels`` (checked by :func:`check_levels`)."""

    LAYOUT: ClassVar[RoomLayout]

    if TYPE_CHECKING:
        edition: Edition
        levels: tuple[LevelRow, ...]

    # -- the level table (R9.4) ---------------------------------------------------

    @property
    def entry_balance(self) -> int | None:
        """The least balance that may sit down in a wealth room (its first level's
        ``needed``); None in the points edition, which admits every balance."""
        return self.levels[0].needed if self.edition == "wealth" else None

    def can_sit(self, balance: int) -> bool:
        """Whether a player of this balance may sit down (see :attr:`entry_balance`)."""
        entry = self.entry_balance
        return entry is None or balance >= entry

    @property
    def stakes(self) -> tuple[int, int]:
        """The match points of the first and the last level."""
        return self.levels[0].match_points, self.levels[-1].match_points

    def level_for(self, balance: int) -> LevelRow:
        """The level row of a balance: the last whose ``needed`` it reaches (the first row
        for a balance below them all)."""
        return self.levels[level_index(self._thresholds, balance)]

    def stake_level(self, balance: int) -> int:
        """The level of a player of ``balance``, as the account shows it."""
        return self.level_for(balance).level

    def match_points_for(self, *balances: int) -> int:
        """Match points X: those of the lowest of the players' levels (R9.4, C5.1, Y7.1, T11.4)."""
        if not balances:
            raise ValueError("match points need at least one balance")
        return self.levels[min(level_index(self._thresholds, balance) for balance in balances)].match_points

    @functools.cached_property
    def _thresholds(self) -> tuple[int, ...]:
        # The levels' ``needed``, strictly increasing (validated): every settlement reads them.
        return tuple(row.needed for row in self.levels)

    # -- output -------------------------------------------------------------------

    def written(self, key: str) -> bool:
        """Whether the room's file layout has ``key`` (a room may leave out keys it refuses)."""
        return True

    def to_toml_dict(self) -> dict[str, Any]:
        """The room in its file layout (tables), as plain JSON/TOML values."""
        flat = self.model_dump(mode="json")
        grouped: dict[str, Any] = {}
        for table, keys in self.LAYOUT.tables.items():
            target = grouped if not table else grouped.setdefault(table, {})
            for key in keys:
                if self.written(key):
                    target[key] = plain_value(flat[key])
        return grouped

    def to_json(self) -> str:
        """The resolved room as indented JSON: what ``check-config`` prints, stored with
        every game."""
        return self._json

    @functools.cached_property
    def _json(self) -> str:
        # Built once: the server stores it with every game it starts (the model is frozen).
        return json.dumps(self.to_toml_dict(), indent=2, ensure_ascii=False)
