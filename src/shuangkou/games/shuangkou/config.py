"""Room configuration: a TOML file per room, validated into a frozen :class:`RoomConfig`.

Every setting marked **[config]** in RULES.md lives here (R9.8). A configuration file is
grouped into tables::

    game = "shuangkou"              # top level: game (optional), name, edition
    edition = "points"
    [rules]    four_joker_bomb, serial_bomb_two, hosting_bombs,
               wild_jokers, three_joker_bomb                          (R4.6, R6.3, R11.2, C3.1)
    [play]     first_player, auto_pass, bot_fill, bot_level,
               expert_rollouts                                        (R2.1, R2.6)
    [timers]   turn_seconds, max_timeouts, ready_seconds,
               bot_fill_seconds                                       (R11.3, R11.4)
    [results]  flat, single, double                                   (R7.1)
    [scoring]  contribution, doubling_from, count_unconnected,
               unconnected, phases                                    (R8, R9.1-R9.3)
    [balance]  starting_balance, allow_negative, levels               (R9.4, R9.5)
    [house]    table_fee, win_fee_share                               (R9.7)
    [escape]   escape_mode, escape_multiplier, escape_share           (R10)
    [table]    seats; four seats only: jiefeng, partner_by_flip,
               connected_pairs, double_win, single_win, draw,
               escape_double_wins                                     (C1-C6)

Every key name is unique across the tables, so a key is named either by its plain name
(``four_joker_bomb``) or by its dotted path (``rules.four_joker_bomb``); both work in
overrides. Keys a file leaves out take the value of the shipped file of the file's edition
(``configs/points.toml`` or ``configs/wealth.toml``), so a room file only needs
``edition`` and what it changes. The four-seat keys of ``[table]`` (RULES-CLASSIC) are
in neither edition file: a two-seat room (``seats = 2``) refuses them, and a four-seat
room that leaves one out takes its RULES-CLASSIC default (what ``configs/classic.toml``
shows). Nested values are merged table by table; arrays
(``phases``, ``unconnected``, ``levels``) are replaced whole.

Errors are :class:`ConfigError`, one line per problem, in the form
``FILE: KEY: expected WHAT, found VALUE``; nothing is ever half-loaded.

>>> config = load_config("wealth", {"four_joker_bomb": "largest"})
>>> config.rules.four_joker_bomb, config.escape_share, config.doubling_for(7)
('largest', 0.7, 4)
"""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, Field, ValidationError, field_validator, model_validator

from ...cards import HAND_SIZE
from ...editions import EDITIONS, MAX_AMOUNT, Edition
from ...roomfiles import ConfigError, Problem, RoomLayout, read_room_file, read_shipped, shipped_source, show_value
from ..interface import DEFAULT_SEARCH_ROLLOUTS
from ..rooms import (
    Amount,
    FrozenModel,
    Invalid,
    LevelRow,
    RoomModel,
    Seconds,
    Share,
    SignedAmount,
    problems_of,
)
from .rules import FourJokerBomb, Rules, WildJokers

__all__ = [
    "CLASSIC_ROOMS",
    "DEFAULT_EXPERT_ROLLOUTS",
    "EDITIONS",
    "FIELD_TABLE",
    "FOUR_SEAT_KEYS",
    "MAX_CARDS_LEFT",
    "MAX_EXPERT_ROLLOUTS",
    "SHIPPED",
    "SHIPPED_NAMES",
    "TABLES",
    "BotFill",
    "BotLevel",
    "ConfigError",
    "ContributionMode",
    "DoublingFrom",
    "Edition",
    "EscapeMode",
    "FirstPlayer",
    "LevelRow",
    "PhaseRow",
    "Problem",
    "ResultBand",
    "ResultName",
    "RoomConfig",
    "Seats",
    "TeamResult",
    "UnconnectedRow",
    "config_from_dict",
    "load_config",
]

FirstPlayer = Literal["flip", "winner"]
BotFill = Literal["offer", "auto"]
BotLevel = Literal["easy", "normal", "expert"]
ContributionMode = Literal["max", "sum"]
DoublingFrom = Literal["winner", "game"]
EscapeMode = Literal["host", "settle"]
ResultName = Literal["flat", "single", "double"]
Seats = Literal[2, 4]
TeamResult = Literal["double", "single", "draw"]

SHIPPED: tuple[str, ...] = EDITIONS
"""Names of the shipped edition files (``configs/NAME.toml``): one per edition, the base
every room file of that edition is read over."""

CLASSIC_ROOMS: tuple[str, ...] = ("classic", "qianbian")
"""Names of the shipped four-seat room files (``configs/NAME.toml``, RULES-CLASSIC):
room files like any other, read over their edition's file."""

SHIPPED_NAMES: tuple[str, ...] = SHIPPED + CLASSIC_ROOMS
"""Every name :func:`load_config` takes instead of a path."""

MAX_CARDS_LEFT = HAND_SIZE
"""The most cards a loser can hold: the whole hand dealt (R1.3)."""

SMALLEST_BOMB_PHASE = 4  # R4.1

DEFAULT_EXPERT_ROLLOUTS = DEFAULT_SEARCH_ROLLOUTS
"""Rollouts per move of an expert bot by default (``expert_rollouts``; :mod:`shuangkou.games.shuangkou.expert`)."""

MAX_MULTIPLIER = 10**6
"""The largest multiplier a room file may name (result, doubling, contribution, escape)."""

MAX_EXPERT_ROLLOUTS = 1000
"""The most rollouts an expert bot of a room may spend on one move (about 0.8 s of one
core with two seats, 2 s with four: docs/simulation.md#the-expert)."""

TABLES: dict[str, tuple[str, ...]] = {
    "": ("game", "name", "edition"),
    "rules": ("four_joker_bomb", "serial_bomb_two", "hosting_bombs", "wild_jokers", "three_joker_bomb"),
    "play": ("first_player", "auto_pass", "bot_fill", "bot_level", "expert_rollouts"),
    "timers": ("turn_seconds", "max_timeouts", "ready_seconds", "bot_fill_seconds"),
    "results": ("flat", "single", "double"),
    "scoring": ("contribution", "doubling_from", "count_unconnected", "unconnected", "phases"),
    "balance": ("starting_balance", "allow_negative", "levels"),
    "house": ("table_fee", "win_fee_share"),
    "escape": ("escape_mode", "escape_multiplier", "escape_share"),
    "table": (
        "seats",
        "jiefeng",
        "partner_by_flip",
        "connected_pairs",
        "double_win",
        "single_win",
        "draw",
        "escape_double_wins",
    ),
}
"""The file layout: table name ("" for the top level) -> the keys it holds."""

LAYOUT = RoomLayout(TABLES)
FIELD_TABLE: dict[str, str] = LAYOUT.field_table
"""Plain key name -> the table it lives in ("" for the top level)."""

FOUR_SEAT_KEYS: tuple[str, ...] = tuple(key for key in TABLES["table"] if key != "seats")
"""The keys only a four-seat room reads (RULES-CLASSIC); a two-seat room refuses them."""


# ---------------------------------------------------------------------------
# The model


NonNegative = Annotated[int, Field(ge=0)]
Positive = Annotated[int, Field(ge=1)]
Multiplier = Annotated[int, Field(ge=0, le=MAX_MULTIPLIER)]


class ResultBand(FrozenModel):
    """One result level of R7.1: the loser holds ``min_cards``..``max_cards`` cards
    (``max_cards`` omitted: or more), and the winner's result multiplier is ``multiplier``
    (*a*)."""

    min_cards: Positive
    max_cards: Positive | None = None
    multiplier: Multiplier


class PhaseRow(FrozenModel):
    """One column of R9.3: contribution *c* and doubling *b* of a scoring phase."""

    phase: NonNegative
    contribution: Multiplier
    doubling: Multiplier


class UnconnectedRow(FrozenModel):
    """One line of R8.3: ``count`` bombs of ``phase`` in a game count as ``counts_as``."""

    phase: Annotated[int, Field(ge=SMALLEST_BOMB_PHASE)]
    count: Annotated[int, Field(ge=2)]
    counts_as: NonNegative

    @model_validator(mode="after")
    def _raises_phase(self) -> UnconnectedRow:
        if self.counts_as <= self.phase:
            raise Invalid(
                ("counts_as",), f"a phase above {self.phase} (the bombs' own phase)", show_value(self.counts_as)
            )
        return self


class RoomConfig(RoomModel):
    """A room's configuration (RULES [config] items), immutable and fully validated.

    Build one with :func:`load_config` or :func:`config_from_dict`; constructing it
    directly needs every field but the four-seat ones (:data:`FOUR_SEAT_KEYS`), which
    default to RULES-CLASSIC. Fields are flat; :data:`FIELD_TABLE` says which TOML table
    each lives in. See ``docs/configuration.md`` for every key.
    """

    LAYOUT: ClassVar[RoomLayout] = LAYOUT

    game: Literal["shuangkou"] = "shuangkou"  # the game family (shuangkou.games): this one
    name: str
    edition: Edition
    # [rules]
    four_joker_bomb: FourJokerBomb
    serial_bomb_two: bool
    hosting_bombs: bool
    wild_jokers: WildJokers
    three_joker_bomb: bool
    # [play]
    first_player: FirstPlayer
    auto_pass: bool
    bot_fill: BotFill = "offer"
    bot_level: BotLevel = "normal"
    expert_rollouts: Annotated[int, Field(ge=1, le=MAX_EXPERT_ROLLOUTS)] = DEFAULT_EXPERT_ROLLOUTS
    # [timers]
    turn_seconds: Seconds
    max_timeouts: Positive
    ready_seconds: Seconds
    bot_fill_seconds: Annotated[float, Field(ge=0)] = 0.0
    # [results]
    flat: ResultBand
    single: ResultBand
    double: ResultBand
    # [scoring]
    contribution: ContributionMode
    doubling_from: DoublingFrom
    count_unconnected: bool
    unconnected: tuple[UnconnectedRow, ...]
    phases: tuple[PhaseRow, ...]
    # [balance]
    starting_balance: SignedAmount
    allow_negative: bool
    levels: tuple[LevelRow, ...]
    # [house]
    table_fee: Amount
    win_fee_share: Share
    # [escape]
    escape_mode: EscapeMode
    escape_multiplier: Multiplier
    escape_share: Share
    # [table]
    seats: Seats
    jiefeng: bool = True  # C2.3
    partner_by_flip: bool = False  # C1.4
    connected_pairs: bool = False  # C4.1
    double_win: Multiplier = 3  # C5.2
    single_win: Multiplier = 2
    draw: Multiplier = 1
    escape_double_wins: Multiplier = 3  # C6

    @property
    def variant(self) -> Literal["rush", "classic", "qianbian"]:
        """Which game the lobby names the room's: Rush (two seats, RULES), classic (four
        seats, fixed partners, RULES-CLASSIC) or 千变 (the partner by the flip card, C1.4, C8)."""
        if self.seats == 2:
            return "rush"
        return "qianbian" if self.partner_by_flip else "classic"

    @field_validator("phases")
    @classmethod
    def _check_phases(cls, rows: tuple[PhaseRow, ...]) -> tuple[PhaseRow, ...]:
        if not rows:
            raise Invalid((), "at least one phase row", "an empty array")
        if rows[0].phase > SMALLEST_BOMB_PHASE:
            raise Invalid(
                (0, "phase"),
                f"a first row of phase {SMALLEST_BOMB_PHASE} or less (it covers every phase up to it)",
                show_value(rows[0].phase),
            )
        for index in range(1, len(rows)):
            previous, row = rows[index - 1], rows[index]
            if row.phase <= previous.phase:
                raise Invalid(
                    (index, "phase"),
                    f"phases strictly increasing: a phase above {previous.phase}",
                    show_value(row.phase),
                )
            if row.phase > previous.phase + 1:
                missing = ", ".join(str(p) for p in range(previous.phase + 1, row.phase))
                raise Invalid(
                    (index, "phase"),
                    f"{previous.phase + 1} (missing phase row {missing})",
                    show_value(row.phase),
                )
            for column in ("contribution", "doubling"):
                if getattr(row, column) < getattr(previous, column):
                    raise Invalid(
                        (index, column),
                        f"at least {getattr(previous, column)} (multipliers never fall as the phase rises)",
                        show_value(getattr(row, column)),
                    )
        return rows

    @field_validator("unconnected")
    @classmethod
    def _check_unconnected(cls, rows: tuple[UnconnectedRow, ...]) -> tuple[UnconnectedRow, ...]:
        last: dict[int, UnconnectedRow] = {}
        for index, row in enumerate(rows):
            before = last.get(row.phase)
            if before is not None:
                if row.count <= before.count:
                    raise Invalid(
                        (index, "count"),
                        f"counts strictly increasing for phase {row.phase}: more than {before.count}",
                        show_value(row.count),
                    )
                if row.counts_as <= before.counts_as:
                    raise Invalid(
                        (index, "counts_as"),
                        f"strictly increasing for phase {row.phase}: more than {before.counts_as}",
                        show_value(row.counts_as),
                    )
            last[row.phase] = row
        return rows

    @model_validator(mode="after")
    def _check_results_and_balance(self) -> RoomConfig:
        bands = (("flat", self.flat), ("single", self.single), ("double", self.double))
        if self.flat.min_cards != 1:
            raise Invalid(
                ("flat", "min_cards"),
                "1 (a loser holding 1 card needs a result; the ranges leave a gap)",
                show_value(self.flat.min_cards),
            )
        for index, (name, band) in enumerate(bands):
            last = index == len(bands) - 1
            if band.max_cards is None:
                if not last:
                    raise Invalid((name, "max_cards"), "an integer (only double is open-ended)", "nothing")
            elif band.max_cards < band.min_cards:
                raise Invalid(
                    (name, "max_cards"), f"at least min_cards = {band.min_cards}", show_value(band.max_cards)
                )
            elif last and band.max_cards < MAX_CARDS_LEFT:
                raise Invalid(
                    (name, "max_cards"),
                    f"no max_cards, or at least {MAX_CARDS_LEFT} (a loser may hold up to "
                    f"{MAX_CARDS_LEFT} cards; the ranges leave a gap)",
                    show_value(band.max_cards),
                )
            if index:
                previous_name, previous = bands[index - 1]
                assert previous.max_cards is not None
                wanted = previous.max_cards + 1
                if band.min_cards != wanted:
                    how = "overlap" if band.min_cards < wanted else "leave a gap"
                    raise Invalid(
                        (name, "min_cards"),
                        f"{wanted}, right after results.{previous_name}.max_cards = {previous.max_cards} "
                        f"(the ranges {how})",
                        show_value(band.min_cards),
                    )
        if not self.allow_negative and self.starting_balance < 0:
            raise Invalid(
                ("starting_balance",), "at least 0 (allow_negative is false)", show_value(self.starting_balance)
            )
        entry = self.entry_balance
        if entry is not None and self.starting_balance < entry:
            raise Invalid(
                ("starting_balance",),
                f"at least {entry} (the first level: below it a player may not "
                "sit down in a wealth room, R9.4)",
                show_value(self.starting_balance),
            )
        return self

    @model_validator(mode="after")
    def _check_stakes(self) -> RoomConfig:
        if self.most_at_stake > MAX_AMOUNT:
            top = len(self.levels) - 1
            per_point = self._stake_per_match_point
            raise Invalid(
                ("levels", top, "match_points"),
                f"match points of at most {(MAX_AMOUNT - self.table_fee) // per_point}: with this room's "
                f"multipliers one game could move up to {per_point} × the match points (+ the table fee) "
                f"for one seat, and no game may move more than {MAX_AMOUNT}",
                show_value(self.levels[top].match_points),
            )
        return self

    @model_validator(mode="after")
    def _check_seats(self) -> RoomConfig:
        if self.seats == 2:
            for key in FOUR_SEAT_KEYS:
                if key in self.model_fields_set:
                    raise Invalid(
                        (key,),
                        "no four-seat key in a two-seat room (table.seats = 2): "
                        "set seats = 4 or remove the key",
                        show_value(getattr(self, key)),
                    )
        return self

    # -- what the game and the settlement read ---------------------------------

    @functools.cached_property
    def rules(self) -> Rules:
        """The rule variants of the rules engine (R4.6, R6.3, R11.2, C3.1)."""
        return Rules(
            four_joker_bomb=self.four_joker_bomb,
            serial_bomb_two=self.serial_bomb_two,
            hosting_bombs=self.hosting_bombs,
            wild_jokers=self.wild_jokers,
            three_joker_bomb=self.three_joker_bomb,
        )

    def result_for(self, cards_left: int) -> tuple[ResultName, int]:
        """The result level and its multiplier *a* for the loser's cards left (R7.1)."""
        if cards_left < 1:
            raise ValueError(f"a loser holds at least 1 card, not {cards_left}")
        bands: tuple[tuple[ResultName, ResultBand], ...] = (
            ("flat", self.flat),
            ("single", self.single),
            ("double", self.double),
        )
        for name, band in bands:
            if band.max_cards is None or cards_left <= band.max_cards:
                return name, band.multiplier
        return "double", self.double.multiplier  # beyond a closed last band (validation forbids)

    def result_level(self, cards_left: int) -> ResultName:
        """``"flat"``, ``"single"`` or ``"double"`` for the loser's cards left (R7.1)."""
        return self.result_for(cards_left)[0]

    def phase_row(self, phase: int) -> PhaseRow:
        """The R9.3 row of a scoring phase: the first row covers every phase up to it, the
        last every phase above it."""
        first = self.phases[0].phase
        index = min(max(phase - first, 0), len(self.phases) - 1)
        return self.phases[index]

    def contribution_for(self, phase: int) -> int:
        """Contribution multiplier *c* of a phase (R9.3)."""
        return self.phase_row(phase).contribution

    def doubling_for(self, phase: int) -> int:
        """Doubling multiplier *b* of a phase (R9.3)."""
        return self.phase_row(phase).doubling

    @property
    def scores_connected_pairs(self) -> bool:
        """Whether R8.2 raises scoring phases: always with two seats (R8), with four when
        ``connected_pairs`` is true (C4.1)."""
        return self.seats == 2 or self.connected_pairs

    def team_result_multiplier(self, result: TeamResult) -> int:
        """The result multiplier *a* of a four-seat result (C5.2)."""
        multipliers: dict[TeamResult, int] = {
            "double": self.double_win,
            "single": self.single_win,
            "draw": self.draw,
        }
        return multipliers[result]

    def escape_penalty(self, balance_a: int, balance_b: int) -> int:
        """The escape penalty for players of these balances: match points X (R9.4) times the
        escape multiplier (R10.3). Tables show it before a player leaves; every escape's
        settlement (:func:`shuangkou.games.shuangkou.scoring.settle_escape`) charges it."""
        return self.match_points_for(balance_a, balance_b) * self.escape_multiplier

    @property
    def most_at_stake(self) -> int:
        """An upper bound on what one seat can pay or receive in one game of this room: the
        largest match points times :attr:`_stake_per_match_point`, plus the table fee. A
        room whose bound exceeds :data:`MAX_AMOUNT` is refused."""
        return self.levels[-1].match_points * self._stake_per_match_point + self.table_fee

    @property
    def _stake_per_match_point(self) -> int:
        """Every multiplier at its largest, as RULES and RULES-CLASSIC combine them for one
        seat, per match point. Two seats: a result a·b (R9.1) or an escape's penalty and
        normal loss, m + b (R10.3), and the other seat's contribution c. Four seats: a
        result a·b with a hosted escaper's penalty e·a on top (C6.1), or an escape settled
        at once, e·a·b (C6.2), and a contribution c from each of the three others (C5.5).
        With ``contribution = "sum"`` c is summed over every bomb a hand can hold (a bomb
        takes at least three cards)."""
        b = max(row.doubling for row in self.phases)
        c = max(row.contribution for row in self.phases) * (HAND_SIZE // 3 if self.contribution == "sum" else 1)
        if self.seats == 2:
            a = max(self.flat.multiplier, self.single.multiplier, self.double.multiplier)
            return max(a * b, self.escape_multiplier + b) + c
        a, e = max(self.double_win, self.single_win, self.draw), self.escape_double_wins
        return max(a * b + e * self.double_win, e * self.double_win * b) + 3 * c

    def written(self, key: str) -> bool:
        """A two-seat room's file leaves out the four-seat keys (it refuses them)."""
        return self.seats == 4 or key not in FOUR_SEAT_KEYS

    def with_overrides(self, overrides: Mapping[str, object], source: str = "overrides") -> RoomConfig:
        """A validated copy with some keys changed (names as in :func:`load_config`)."""
        return _resolve(self.to_toml_dict(), source, overrides, use_base=False)


# ---------------------------------------------------------------------------
# Loading


def _merge(base: Mapping[str, Any], overlay: Mapping[str, Any]) -> dict[str, Any]:
    """Tables merged key by key; everything else (arrays included) replaced."""
    merged = dict(base)
    for key, value in overlay.items():
        if isinstance(value, Mapping) and isinstance(merged.get(key), Mapping):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = value
    return merged


_ROW_MODELS: dict[str, type[BaseModel]] = {
    "flat": ResultBand,
    "single": ResultBand,
    "double": ResultBand,
    "phases": PhaseRow,
    "unconnected": UnconnectedRow,
}


_MULTIPLIERS = (
    "multiplier", "contribution", "doubling", "escape_multiplier", "double_win", "single_win", "draw",
    "escape_double_wins",
)


def _explain(loc: tuple[str | int, ...], kind: str, expected: str) -> str:
    """A multiplier's lower bound says why."""
    if kind in ("greater_than_equal", "greater_than") and loc[-1] in _MULTIPLIERS:
        return f"{expected} (multipliers are never negative)"
    return expected


def _validate(data: Mapping[str, Any], source: str) -> RoomConfig:
    flat, problems = LAYOUT.flatten(data, source)
    try:
        config = RoomConfig.model_validate(flat)
    except ValidationError as error:
        raise ConfigError(problems + problems_of(error, source, RoomConfig, _ROW_MODELS, _explain)) from None
    if problems:
        raise ConfigError(problems)
    return config


def _edition_of(data: Mapping[str, Any], source: str) -> str:
    edition = data.get("edition")
    if edition not in EDITIONS:
        found = "nothing (the key is required)" if edition is None else show_value(edition)
        expected = " or ".join(repr(name) for name in EDITIONS)
        raise ConfigError([Problem(source, "edition", expected, found)])
    assert isinstance(edition, str)
    return edition


def _resolve(
    data: Mapping[str, Any], source: str, overrides: Mapping[str, object] | None, use_base: bool = True
) -> RoomConfig:
    """Validate ``data`` (merged onto its edition's shipped file), then with ``overrides``."""
    if use_base:
        base = read_shipped(_edition_of(data, source))
        merged = _merge(base, data)
    else:
        merged = dict(data)
    config = _validate(merged, source)
    if not overrides:
        return config
    label = f"overrides (on {source})"
    changed: dict[str, Any] = _merge({}, data)
    for key, value in overrides.items():
        LAYOUT.set_key(changed, str(key), value, label, "rules.four_joker_bomb", _merge)
    edition = _edition_of(changed, label) if use_base else str(changed.get("edition", config.edition))
    changed = _merge(read_shipped(edition), changed) if use_base else _merge(merged, changed)
    return _validate(changed, label)


def config_from_dict(
    data: Mapping[str, Any], overrides: Mapping[str, object] | None = None, *, source: str = "<data>"
) -> RoomConfig:
    """A configuration from data in the file layout (as :meth:`RoomConfig.to_toml_dict`
    returns it, or a partial one: missing keys come from the shipped file of its
    ``edition``). Raises :class:`ConfigError` naming ``source``."""
    return _resolve(data, source, overrides)


def load_config(
    path_or_name: str | os.PathLike[str], overrides: Mapping[str, object] | None = None
) -> RoomConfig:
    """Load a room configuration.

    ``path_or_name`` is a shipped name (:data:`SHIPPED_NAMES`: ``"points"``, ``"wealth"``,
    ``"classic"``, ``"qianbian"``) or the path of a TOML file. ``overrides`` change keys
    after the file, each named by its plain name (``{"four_joker_bomb": "largest"}``) or
    its dotted path (``{"rules.four_joker_bomb": "largest"}``,
    ``{"results.single.multiplier": 4}``); an array or table value replaces the whole
    array or merges into the table. Raises :class:`ConfigError`.
    """
    if isinstance(path_or_name, str) and path_or_name in SHIPPED_NAMES:
        source = shipped_source(path_or_name)
        return _resolve(read_shipped(path_or_name), source, overrides)
    source = os.fspath(path_or_name)
    return _resolve(read_room_file(source, ", ".join(SHIPPED_NAMES)), source, overrides)
