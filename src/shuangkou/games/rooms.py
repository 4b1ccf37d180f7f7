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
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Annotated, Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from ..editions import MAX_AMOUNT
from ..payouts import level_index
from ..roomfiles import Problem, RoomLayout, show_value, suggest

if TYPE_CHECKING:
    from ..editions import Edition

__all__ = [
    "Amount", "FrozenModel", "Invalid", "LevelRow", "RoomModel", "Seconds", "Share", "SignedAmount",
    "check_levels", "plain_value", "problems_of",
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


_EXPECTED = {
    "int_type": "an integer",
    "int_from_float": "an integer",
    "float_type": "a number",
    "bool_type": "true or false",
    "string_type": "a string",
    "tuple_type": "an array",
    "model_type": "a table",
    "dict_type": "a table",
    "model_attributes_type": "a table",
    "missing": "this key (it is required)",
    "greater_than_equal": "a value of at least {ge}",
    "greater_than": "a value above {gt}",
    "less_than_equal": "a value of at most {le}",
}
"""What a room file should hold, by pydantic's error type."""

SHARES = ("win_fee_share", "escape_share")
"""The keys that are a share of an amount, between 0 and 1 (R9.7, R10)."""

Explain = Callable[[tuple[str | int, ...], str, str], str]
"""A game's own wording of what a key expects: (the key's path, pydantic's error type, the
words so far) -> the words."""


def problems_of(
    error: ValidationError, source: str, model: type[RoomModel],
    row_models: Mapping[str, type[BaseModel]] = MappingProxyType({}), explain: Explain | None = None,
) -> list[Problem]:
    """A room's validation errors as the file names them, one :class:`Problem` each: the key
    in its table (``model.LAYOUT``), what it should hold and what it holds. ``row_models``:
    the model of each of the room's tables of rows beside ``levels`` (:class:`LevelRow`),
    whose keys an unknown key is told; ``explain`` words a game's own keys."""
    layout, problems = model.LAYOUT, []
    rows: dict[str, type[BaseModel]] = {"levels": LevelRow, **row_models}
    for item in error.errors():
        loc: tuple[str | int, ...] = tuple(item["loc"])
        kind, ctx, given = item["type"], item.get("ctx") or {}, item.get("input")
        cause = ctx.get("error")
        if isinstance(cause, Invalid):
            problems.append(Problem(source, layout.dotted(loc + cause.loc), cause.expected, cause.found))
            continue
        message = str(item["msg"]).removeprefix("Value error, ")
        key, _, rest = message.partition(": ")
        if not loc and kind == "value_error" and key in layout.field_table:  # a whole-room check names its key
            loc, message = (key,), rest
            given = given.get(key) if isinstance(given, Mapping) else given
        found = "nothing" if kind == "missing" else show_value(given)
        if kind == "extra_forbidden":
            row = rows.get(loc[0]) if len(loc) > 1 and isinstance(loc[0], str) else None
            known = list((row or model).model_fields)
            name = str(loc[-1])
            problems.append(Problem(source, layout.dotted(loc), f"one of {', '.join(known)}",
                                    f"unknown key {name!r}{suggest(name, known)}"))
            continue
        if kind == "literal_error":
            expected = str(ctx.get("expected", "one of the allowed values"))
        elif kind in _EXPECTED:
            expected = _EXPECTED[kind].format(**ctx)
        else:
            expected = message.removeprefix("Input should be ")
        if kind in ("greater_than_equal", "less_than_equal") and loc and loc[-1] in SHARES:
            expected = "a share between 0 and 1"
        if explain is not None and loc:
            expected = explain(loc, kind, expected)
        problems.append(Problem(source, layout.dotted(loc), expected, found))
    return problems


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


def _tuples(value: Any) -> Any:
    """Every array in ``value`` as a tuple, at any depth."""
    if isinstance(value, list | tuple):
        return tuple(_tuples(item) for item in value)
    if isinstance(value, Mapping):
        return {key: _tuples(item) for key, item in value.items()}
    return value


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

    @model_validator(mode="before")
    @classmethod
    def _tuples(cls, data: Any) -> Any:
        """A room file's arrays arrive as lists; the frozen model keeps tuples."""
        return _tuples(data)

    @field_validator("levels", check_fields=False)
    @classmethod
    def _check_levels(cls, rows: tuple[LevelRow, ...]) -> tuple[LevelRow, ...]:
        return check_levels(rows)

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
