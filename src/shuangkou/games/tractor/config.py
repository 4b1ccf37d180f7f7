"""A Tractor room: a TOML file validated into a frozen :class:`TractorRoom` (T12).

Every setting of T12 and what every room shares, grouped into tables::

    game = "tractor"          # top level: game, name, edition
    [deal]     start_level, deal_interval_ms, declare_window_seconds, equal_pair_by_suit,
               self_override, first_dealer, first_hand_no_bid, max_redeals, no_bid_trump,
               bury_seconds                                           (T1.2, T2, T3)
    [play]     two_is_constant_trump, failed_throw_forced, reveal_throw_blocker,
               throw_penalty_per_card, partial_tractor_follow, auto_play_forced,
               bot_fill, bot_level                                    (T4.3, T6, T7)
    [scoring]  bottom_multiplier, attacker_levels, must_play_levels, hand_units
                                                                      (T9, T10.3, T11.4)
    [timers]   turn_seconds, max_timeouts, ready_seconds, bot_fill_seconds   (T11.1)
    [balance]  starting_balance, allow_negative, levels               (R9.4, R9.5)
    [house]    table_fee, win_fee_share                               (R9.7)
    [escape]   escape_mode, escape_units                              (T11.5)
    [table]    seats (always 4)

Key names are unique across the tables: a key is named by its plain name or its dotted
path, in files and in overrides. ``[balance]`` and ``[house]`` keys a file leaves out come
from the shipped file of the room's edition (``configs/points.toml`` or
``configs/wealth.toml``: the R9.4 level tables, as C5.1); every other key left out takes
its T12 default. Errors are :class:`~shuangkou.roomfiles.ConfigError`, one line per
problem, ``FILE: KEY: expected WHAT, found VALUE``.

>>> room = load_tractor_room("tractor", {"must_play_levels": ["5", "10", "K", "A"]})
>>> room.start_level, room.must_play, room.match_points_for(1000, 200, 5000, 1000)
('2', (3, 8, 11, 12), 20)
"""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field, ValidationError, field_validator, model_validator

from ...editions import EDITIONS, MAX_AMOUNT, Edition
from ...roomfiles import ConfigError, Problem, RoomLayout, read_room_file, read_shipped, shipped_source, show_value
from ..rooms import Amount, LevelRow, RoomModel, Seconds, Share, SignedAmount, problems_of
from .order import LEVEL_RANKS, rank_index

__all__ = ["SHIPPED_ROOMS", "TABLES", "LevelRow", "TractorRoom", "load_tractor_room", "tractor_room_from_dict"]

SHIPPED_ROOMS: tuple[str, ...] = ("tractor",)
"""The shipped Tractor rooms (``configs/NAME.toml``)."""

TABLES: dict[str, tuple[str, ...]] = {
    "": ("game", "name", "edition"),
    "deal": (
        "start_level", "deal_interval_ms", "declare_window_seconds", "equal_pair_by_suit", "self_override",
        "first_dealer", "first_hand_no_bid", "max_redeals", "no_bid_trump", "bury_seconds",
    ),
    "play": (
        "two_is_constant_trump", "failed_throw_forced", "reveal_throw_blocker", "throw_penalty_per_card",
        "partial_tractor_follow", "auto_play_forced", "bot_fill", "bot_level",
    ),
    "scoring": ("bottom_multiplier", "attacker_levels", "must_play_levels", "hand_units"),
    "timers": ("turn_seconds", "max_timeouts", "ready_seconds", "bot_fill_seconds"),
    "balance": ("starting_balance", "allow_negative", "levels"),
    "house": ("table_fee", "win_fee_share"),
    "escape": ("escape_mode", "escape_units"),
    "table": ("seats",),
}
"""The file layout: table name ("" for the top level) -> its keys."""

LAYOUT = RoomLayout(TABLES)
FIELD_TABLE: dict[str, str] = LAYOUT.field_table

_FROM_EDITION = ("balance", "house")  # tables whose missing keys come from the edition's shipped file

Rank = Literal["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
Units = Annotated[int, Field(ge=-10**6, le=10**6)]


class TractorRoom(RoomModel):
    """A Tractor room (T12), immutable and validated: build it with
    :func:`load_tractor_room`. Fields are flat; :data:`TABLES` says which TOML table holds
    each. ``docs/configuration.md`` describes every key."""

    LAYOUT: ClassVar[RoomLayout] = LAYOUT

    game: Literal["tractor"] = "tractor"
    name: str = "Tractor"
    edition: Edition = "points"
    # [deal]
    start_level: Rank = "2"
    deal_interval_ms: Annotated[int, Field(ge=0, le=60_000)] = 200
    declare_window_seconds: Annotated[float, Field(ge=1)] = 5.0
    equal_pair_by_suit: bool = False
    self_override: bool = False
    first_dealer: Literal["first_declarer", "final_declarer"] = "first_declarer"
    first_hand_no_bid: Literal["redeal", "third_bottom"] = "redeal"
    max_redeals: Annotated[int, Field(ge=0, le=10)] = 3
    no_bid_trump: Literal["third_bottom", "no_trump"] = "third_bottom"
    bury_seconds: Annotated[float, Field(ge=5)] = 30.0
    # [play]
    two_is_constant_trump: bool = False
    failed_throw_forced: Literal["lowest", "smallest"] = "lowest"
    reveal_throw_blocker: bool = False
    throw_penalty_per_card: Annotated[int, Field(ge=0, le=200)] = 0
    partial_tractor_follow: bool = True
    auto_play_forced: bool = True
    bot_fill: Literal["offer", "auto"] = "offer"
    bot_level: Literal["easy", "normal", "expert"] = "normal"
    # [scoring]
    bottom_multiplier: Literal["doubling", "linear", "per_card"] = "doubling"
    attacker_levels: Literal["cap", "every_40"] = "cap"
    must_play_levels: tuple[Rank, ...] = ("A",)
    hand_units: tuple[Units, ...] = (-3, -2, -1, 1, 2, 3, 4)
    # [timers]
    turn_seconds: Seconds = 20.0
    max_timeouts: Annotated[int, Field(ge=1)] = 3
    ready_seconds: Seconds = 30.0
    bot_fill_seconds: Annotated[float, Field(ge=0)] = 0.0
    # [balance]
    starting_balance: SignedAmount = 1000
    allow_negative: bool = True
    levels: tuple[LevelRow, ...] = ()
    # [house]
    table_fee: Amount = 0
    win_fee_share: Share = 0.0
    # [escape]
    escape_mode: Literal["host", "settle"] = "host"
    escape_units: Annotated[int, Field(ge=0, le=10**6)] = 12
    # [table]
    seats: Literal[4] = 4

    @field_validator("hand_units")
    @classmethod
    def _check_units(cls, units: tuple[int, ...]) -> tuple[int, ...]:
        if len(units) != 7:
            raise ValueError("an array of 7 integers (T11.4: A ≤ 0, 5–35, 40–75, 80–115, 120–155, 160–195, ≥ 200)")
        return units

    @field_validator("must_play_levels")
    @classmethod
    def _check_must_play(cls, levels: tuple[str, ...]) -> tuple[str, ...]:
        if "A" not in levels:
            raise ValueError('must-play levels including "A" (T10.3)')
        return levels

    @model_validator(mode="after")
    def _check_stakes(self) -> TractorRoom:
        if self.most_at_stake > MAX_AMOUNT:
            raise ValueError(f"a room whose largest hand stays within {MAX_AMOUNT} (match points × units)")
        return self

    # -- what the rules read ------------------------------------------------------

    @functools.cached_property
    def start(self) -> int:
        """The index of ``start_level`` (0 = ``"2"``)."""
        return rank_index(self.start_level)

    @functools.cached_property
    def must_play(self) -> tuple[int, ...]:
        """The must-play levels as indexes, A always among them (T10.3)."""
        return tuple(sorted({rank_index(level) for level in self.must_play_levels} | {12}))

    @property
    def variant(self) -> None:
        """One variant: the lobby names the room by its game alone."""
        return None

    @property
    def most_at_stake(self) -> int:
        """What one seat can pay or receive in one hand at most: the largest match points
        times the largest units plus the escape units (T11.4–T11.5), and the table fee."""
        if not self.levels:
            return 0
        units = max(abs(unit) for unit in self.hand_units) + self.escape_units
        return self.levels[-1].match_points * units + self.table_fee


# ---------------------------------------------------------------------------
# Loading


def _explain(loc: tuple[str | int, ...], kind: str, expected: str) -> str:
    """A level of the match is a rank (T2)."""
    if loc[-1] == "start_level" and kind == "literal_error":
        return f"a rank: {', '.join(repr(rank) for rank in LEVEL_RANKS)}"
    return expected


def _validate(data: Mapping[str, Any], source: str) -> TractorRoom:
    flat, problems = LAYOUT.flatten(data, source)
    try:
        room = TractorRoom.model_validate(flat)
    except ValidationError as error:
        raise ConfigError(problems + problems_of(error, source, TractorRoom, explain=_explain)) from None
    if problems:
        raise ConfigError(problems)
    return room


@functools.cache
def _edition_defaults(edition: str) -> dict[str, dict[str, Any]]:
    """The ``[balance]`` and ``[house]`` tables of the edition's shipped file."""
    shipped = read_shipped(edition)
    return {table: dict(shipped.get(table, {})) for table in _FROM_EDITION}


def _with_edition(data: Mapping[str, Any], source: str) -> dict[str, Any]:
    edition = data.get("edition", "points")
    if edition not in EDITIONS:
        expected = " or ".join(repr(name) for name in EDITIONS)
        raise ConfigError([Problem(source, "edition", expected, show_value(edition))])
    merged = dict(data)
    for table, defaults in _edition_defaults(str(edition)).items():
        given = merged.get(table, {})
        if isinstance(given, Mapping):
            merged[table] = {**defaults, **given}
    return merged


def tractor_room_from_dict(
    data: Mapping[str, Any], overrides: Mapping[str, object] | None = None, *, source: str = "<data>"
) -> TractorRoom:
    """A room from data in the file layout (missing keys: their defaults), with ``overrides``
    (plain names or dotted paths); :class:`ConfigError` naming ``source`` and the key."""
    room = _validate(_with_edition(data, source), source)
    if not overrides:
        return room
    label = f"overrides (on {source})"
    changed: dict[str, Any] = {key: dict(value) if isinstance(value, Mapping) else value for key, value in data.items()}
    for key, value in overrides.items():
        LAYOUT.set_key(changed, str(key), value, label, "deal.start_level")
    return _validate(_with_edition(changed, label), label)


def load_tractor_room(source: str | os.PathLike[str], overrides: Mapping[str, object] | None = None) -> TractorRoom:
    """A room from a shipped name (:data:`SHIPPED_ROOMS`) or a TOML file, with ``overrides``."""
    if isinstance(source, str) and source in SHIPPED_ROOMS:
        return tractor_room_from_dict(read_shipped(source), overrides, source=shipped_source(source))
    path = os.fspath(source)
    return tractor_room_from_dict(read_room_file(path, ", ".join(SHIPPED_ROOMS)), overrides, source=path)
