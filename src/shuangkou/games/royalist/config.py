"""Royalist rooms: a TOML file per room, validated into a frozen :class:`RoyalistRoom`.

Every setting of Y9 lives here, grouped into tables::

    game = "royalist"                 # top level: game (required), name, edition
    [deal]     deck, first_taker, guard_card, tribute                      (Y1.2, Y1.5, Y2.4, Y7.4)
    [roles]    abdication, solo_may_abdicate, open_solo, declarations,
               open_guard, revolt, revolt_quorum, open_solo_second         (Y2, Y5.2)
    [play]     hard_pass, jiefeng, auto_pass, hosting_spares_partner,
               sixes_last, joker_only_sets, bombs, bot_fill, bot_level     (Y3, Y4, Y8.2)
    [timers]   decision_seconds, turn_seconds, max_timeouts,
               ready_seconds, bot_fill_seconds                             (Y8.1)
    [balance]  starting_balance, allow_negative, levels                    (Y7.1, R9.4, R9.5)
    [house]    table_fee, win_fee_share                                    (Y7.3, R9.7)
    [escape]   escape_mode, escape_units, escape_share                     (Y8.4)

A key is named by its plain name (``deck``) or its dotted path (``deal.deck``), in a file's
overrides alike. Keys a file leaves out take the defaults of RULES-ROYALIST (the shipped
``royalist`` room writes them all out), and the money keys (``[balance]``, ``[house]``,
``escape_share``) those of the shipped file of the room's edition (``configs/points.toml``
or ``configs/wealth.toml``): Royalist plays for the same levels as every room of its
edition (Y7.1). Errors are :class:`~shuangkou.roomfiles.ConfigError`, one line per problem,
``FILE: KEY: expected WHAT, found VALUE``.

>>> room = load_room("royalist216", {"revolt_quorum": 3})
>>> room.deck, room.revolt_quorum, room.seats, room.match_points_for(1000, 1000, 50, 1000, 1000)
('216', 3, 5, 5)
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
from .deck import DeckKind, GuardCard
from .sets import Bombs, SetRules

__all__ = [
    "FIELD_TABLE",
    "SHIPPED_ROOMS",
    "TABLES",
    "LevelRow",
    "RoyalistRoom",
    "load_room",
    "room_from_data",
]

SHIPPED_ROOMS: tuple[str, ...] = ("royalist", "royalist216")
"""The shipped rooms (``configs/NAME.toml``)."""

SEATS = 5
MOST_UNITS = 24
"""The largest unit score of one seat in one game (Y6.3: an open solo's emperor)."""

TABLES: dict[str, tuple[str, ...]] = {
    "": ("game", "name", "edition"),
    "deal": ("deck", "first_taker", "guard_card", "tribute"),
    "roles": (
        "abdication", "solo_may_abdicate", "open_solo", "declarations", "open_guard", "revolt", "revolt_quorum",
        "open_solo_second",
    ),
    "play": (
        "hard_pass", "jiefeng", "auto_pass", "hosting_spares_partner", "sixes_last", "joker_only_sets", "bombs",
        "bot_fill", "bot_level",
    ),
    "timers": ("decision_seconds", "turn_seconds", "max_timeouts", "ready_seconds", "bot_fill_seconds"),
    "balance": ("starting_balance", "allow_negative", "levels"),
    "house": ("table_fee", "win_fee_share"),
    "escape": ("escape_mode", "escape_units", "escape_share"),
}
"""The file layout: table name ("" for the top level) -> the keys it holds."""

LAYOUT = RoomLayout(TABLES)
FIELD_TABLE: dict[str, str] = LAYOUT.field_table
"""Plain key name -> its table."""

_EDITION_KEYS = {"balance": ("starting_balance", "allow_negative", "levels"), "house": ("table_fee", "win_fee_share"),
                 "escape": ("escape_share",)}
"""The keys a room takes from its edition's shipped file when it leaves them out."""


class RoyalistRoom(RoomModel):
    """A Royalist room (every **[config]** of RULES-ROYALIST, Y9), immutable and validated.
    Build one with :func:`load_room` or :func:`room_from_data`. Its levels (Y7.1) are
    R9.4's, read as :class:`~shuangkou.games.rooms.RoomModel` reads them."""

    LAYOUT: ClassVar[RoomLayout] = LAYOUT

    game: Literal["royalist"] = "royalist"
    name: str = "Royalist room"
    edition: Edition = "points"
    # [deal]
    deck: DeckKind = "168"
    first_taker: Literal["rotate", "random"] = "rotate"
    guard_card: GuardCard = "marked"
    tribute: bool = False
    # [roles]
    abdication: bool = True
    solo_may_abdicate: bool = True
    open_solo: bool = True
    declarations: bool = True
    open_guard: bool = True
    revolt: bool = True
    revolt_quorum: Literal[1, 2, 3] = 2
    open_solo_second: Literal["draw", "loss"] = "draw"
    # [play]
    hard_pass: bool = False
    jiefeng: Literal["next", "partner"] = "next"
    auto_pass: bool = True
    hosting_spares_partner: bool = True
    sixes_last: bool = False
    joker_only_sets: bool = True
    bombs: Bombs = "none"
    bot_fill: Literal["offer", "auto"] = "offer"
    bot_level: Literal["easy", "normal"] = "normal"
    # [timers]
    decision_seconds: Seconds = 15.0
    turn_seconds: Seconds = 20.0
    max_timeouts: Annotated[int, Field(ge=1)] = 3
    ready_seconds: Seconds = 30.0
    bot_fill_seconds: Annotated[float, Field(ge=0)] = 0.0
    # [balance], [house]: from the edition's file when left out
    starting_balance: SignedAmount
    allow_negative: bool
    levels: tuple[LevelRow, ...]
    table_fee: Amount
    win_fee_share: Share
    # [escape]
    escape_mode: Literal["host", "settle"] = "host"
    escape_units: Annotated[int, Field(ge=0, le=10**6)] = 12
    escape_share: Share

    @field_validator("deck", mode="before")
    @classmethod
    def _deck_as_text(cls, value: Any) -> Any:
        """``deck = 216`` reads as ``"216"``."""
        return str(value) if isinstance(value, int) and not isinstance(value, bool) else value

    @model_validator(mode="after")
    def _check_room(self) -> RoyalistRoom:
        if not self.allow_negative and self.starting_balance < 0:
            raise ValueError("starting_balance: at least 0 when allow_negative is false")
        if self.guard_card == "called" and self.deck == "165":
            raise ValueError('guard_card: "marked" with deck "165" (its three 6s set aside unseen could hold the '
                             'fourth copy of a called card, Y9)')
        if self.most_at_stake > MAX_AMOUNT:
            raise ValueError(f"levels: match points so small that one game moves at most {MAX_AMOUNT}")
        return self

    # -- the platform's questions (shuangkou.games.interface.Room) ----------------

    @property
    def seats(self) -> int:
        """Five (Y1.1)."""
        return SEATS

    @property
    def most_at_stake(self) -> int:
        """An upper bound on what one seat pays or receives in one game: the open solo's 24
        units (Y6.3) and two escapes' units (Y8.4, m = 2 at most) per match point, plus the fee."""
        return (MOST_UNITS + 2 * self.escape_units) * self.levels[-1].match_points + self.table_fee

    @property
    def variant(self) -> Literal["called"] | None:
        """``"called"`` when the emperor calls his guard's card (Y9 ``guard_card``), which
        the lobby says of the room; None with the marked guard card."""
        return "called" if self.guard_card == "called" else None

    @functools.cached_property
    def set_rules(self) -> SetRules:
        """The settings sets obey (Y3.8, Y4.2, Y4.8)."""
        return SetRules(self.joker_only_sets, self.sixes_last, self.bombs)


# ---------------------------------------------------------------------------
# Loading


def room_from_data(
    data: Mapping[str, Any], overrides: Mapping[str, object] | None = None, *, source: str = "<data>"
) -> RoyalistRoom:
    """A room from data in the file layout (missing keys take the defaults; the money keys
    those of the edition's file) and ``overrides``; :class:`ConfigError` naming ``source``."""
    layout: dict[str, Any] = {key: dict(value) if isinstance(value, Mapping) else value for key, value in data.items()}
    where = source
    if overrides:
        where = f"overrides (on {source})"
        for key, value in overrides.items():
            LAYOUT.set_key(layout, str(key), value, where, "deal.deck")
    flat, problems = LAYOUT.flatten(layout, where)
    edition = flat.get("edition", "points")
    if edition not in EDITIONS:
        problems.append(Problem(where, "edition", " or ".join(repr(name) for name in EDITIONS), show_value(edition)))
        edition = "points"
    base = read_shipped(str(edition))
    for table, keys in _EDITION_KEYS.items():
        for key in keys:
            flat.setdefault(key, base[table][key])
    if "game" not in flat:
        problems.append(Problem(where, "game", '"royalist"', "nothing (a Royalist room names its game)"))
    try:
        room = RoyalistRoom.model_validate(flat)
    except ValidationError as error:
        raise ConfigError(problems + problems_of(error, where, RoyalistRoom)) from None
    if problems:
        raise ConfigError(problems)
    return room


def load_room(source: str | os.PathLike[str], overrides: Mapping[str, object] | None = None) -> RoyalistRoom:
    """A shipped room (:data:`SHIPPED_ROOMS`) or the room file at ``source``, with
    ``overrides`` (plain names or dotted paths); :class:`ConfigError` naming the file and key."""
    if isinstance(source, str) and source in SHIPPED_ROOMS:
        return room_from_data(read_shipped(source), overrides, source=shipped_source(source))
    path = os.fspath(source)
    return room_from_data(read_room_file(path, ", ".join(SHIPPED_ROOMS)), overrides, source=path)
