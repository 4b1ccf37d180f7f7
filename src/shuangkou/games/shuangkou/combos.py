"""Combinations: reading a set of cards (jokers wild), strength, and comparison (RULES §3–6).

A :class:`Combo` is one *reading* of a set of cards: what kind it is, its length and top
rank, its bomb phase, and what every card stands for. Reading is done by templates
(kind, start, length, width): the jokers needed are the shortfall of the natural cards
against the template, so no joker substitution is ever enumerated.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from functools import cache, lru_cache
from typing import NamedTuple

from typing_extensions import TypedDict  # pydantic reads it for schemas on Python < 3.12

from ...cards import NUM_SLOTS, Card, Counts, Rank, counts_of, format_counts, parse_cards
from .rules import DEFAULT_RULES, Rules

__all__ = [
    "BOMB_KINDS",
    "KIND_NAMES",
    "Combo",
    "ComboDict",
    "ComboView",
    "InvalidCombination",
    "Kind",
    "beats",
    "bomb_key",
    "classify",
    "readings",
    "to_counts",
    "wild_jokers",
]

SJ_SLOT = 13
BJ_SLOT = 14
TWO_SLOT = 12
ACE_SLOT = 11  # highest slot of straights and runs (R3.4-R3.6)


class Kind(StrEnum):
    """Kinds of combination, with the names used in JSON."""

    SINGLE = "single"
    PAIR = "pair"
    TRIPLE = "triple"
    STRAIGHT = "straight"
    PAIR_RUN = "pair_run"
    TRIPLE_RUN = "triple_run"
    BOMB = "bomb"
    JOKER_BOMB = "joker_bomb"
    SERIAL_BOMB = "serial_bomb"

    @property
    def is_bomb(self) -> bool:
        """True for the three bomb kinds (R4)."""
        return self in BOMB_KINDS


BOMB_KINDS = frozenset({Kind.BOMB, Kind.JOKER_BOMB, Kind.SERIAL_BOMB})
"""The three bomb kinds (R4)."""

KIND_NAMES: tuple[str, ...] = tuple(kind.value for kind in Kind)
"""The JSON names of the kinds, in the order of :class:`Kind`."""

# Runs: kind -> (cards per rank, minimum length) (R3.4-R3.6).
RUN_SHAPES: dict[Kind, tuple[int, int]] = {
    Kind.STRAIGHT: (1, 5),
    Kind.PAIR_RUN: (2, 3),
    Kind.TRIPLE_RUN: (3, 3),
}
# R5.4: among ordinary readings of equal top, triple run > pair run > straight.
_ORDINARY_PREFERENCE = {Kind.STRAIGHT: 0, Kind.PAIR_RUN: 1, Kind.TRIPLE_RUN: 2}

# Bomb strength: phase, then tier (joker bombs are the smallest of their phase, R6.3),
# then cards (serial bombs counted in their regular form X×Y), then top rank.
_PHASE_UNIT = 1_000_000
_TIER_UNIT = 100_000
_SIZE_UNIT = 100


class ComboDict(TypedDict):
    """The JSON form of a combination in records, events and the command line (:meth:`Combo.to_dict`)."""

    kind: str
    length: int
    top: str
    phase: int
    cards: str
    reading: str


class ComboView(ComboDict):
    """The JSON form of a combination on the wire: :meth:`Combo.to_dict` plus ``bomb``
    (:attr:`Combo.is_bomb`), ``width`` (:attr:`Combo.width`) and ``stands_for`` (the rank
    symbols of :attr:`Combo.stands_for`)."""

    bomb: bool
    width: int
    stands_for: list[str]


class Combo(NamedTuple):
    """One reading of a set of cards.

    ``cards`` are the cards played and ``reading`` what they stand for, both as counts
    per rank slot (jokers read as wild appear in ``reading`` as the ranks they replace).
    ``length`` is the number of consecutive ranks (R3.9): 1 for single-rank kinds and
    joker bombs. ``top`` is the highest rank of the reading. ``phase`` is 0 for ordinary
    kinds (R4). ``strength`` orders combinations of one kind and length (the top rank),
    and all bombs among themselves (R6.3, with the four-joker bomb as the smallest of
    phase 7; :func:`bomb_key` applies the other variant).
    """

    kind: Kind
    length: int
    top: int
    phase: int
    strength: int
    cards: Counts
    reading: Counts

    @property
    def is_bomb(self) -> bool:
        """True for bombs of any kind."""
        return self.kind in BOMB_KINDS

    @property
    def size(self) -> int:
        """Number of cards played."""
        return sum(self.cards)

    @property
    def jokers(self) -> int:
        """Number of jokers among the cards played."""
        return self.cards[SJ_SLOT] + self.cards[BJ_SLOT]

    @property
    def top_rank(self) -> Rank:
        """The top rank as a :class:`Rank`."""
        return Rank(self.top)

    @property
    def is_regular(self) -> bool:
        """False only for an irregular serial bomb (R4.5)."""
        return self.kind is not Kind.SERIAL_BOMB or self.size == (self.phase - self.length) * self.length

    @property
    def width(self) -> int:
        """Cards per rank of a bomb, as players name bombs: X of an X-phase Y-serial bomb
        (R4.4; a "4-serial of 5-card bombs" has width 5 and length 4; an irregular one
        counts its smallest rank, R4.5), the cards of an N-bomb or a joker bomb (R4.1–R4.3);
        0 for ordinary kinds.

        >>> classify("55555 66666 77777 88888").width, classify("4444 55555 66666").width
        (5, 4)
        >>> classify("QQQQ BJ").width, classify("SJ SJ BJ").width, classify("3 4 5 6 7").width
        (5, 3, 0)
        """
        if self.kind is Kind.SERIAL_BOMB:
            return self.phase - self.length
        return self.size if self.kind in BOMB_KINDS else 0

    @property
    def stands_for(self) -> tuple[Rank, ...]:
        """The ranks the jokers played stand for in the reading (R5.2), one per joker, in
        the order of the jokers in :attr:`cards` (small jokers first), lowest rank first.
        Empty without a joker, and when every card is a joker (read at face value, R5.1).

        >>> [rank.symbol for rank in classify("5 6 7 8 SJ").stands_for]
        ['9']
        >>> [rank.symbol for rank in classify("3 4 5 SJ SJ BJ", kind="pair_run").stands_for]
        ['3', '4', '5']
        >>> classify("SJ SJ BJ").stands_for
        ()
        """
        jokers = self.jokers
        if not jokers or jokers == self.size:
            return ()
        return tuple(
            Rank(slot + 3)
            for slot in range(SJ_SLOT)
            for _ in range(self.reading[slot] - self.cards[slot])
        )

    def view(self) -> ComboView:
        """The JSON form sent to players (:class:`ComboView`)."""
        view = _view_form(self).copy()
        view["stands_for"] = list(view["stands_for"])
        return view

    def to_dict(self) -> ComboDict:
        """The JSON shape used by the command line, game records and events (:class:`ComboDict`)."""
        return _dict_form(self).copy()

    def __str__(self) -> str:
        phase = f" phase {self.phase}" if self.phase else ""
        return f"{self.kind.value} {format_counts(self.reading)}{phase}"


# A combination's JSON forms depend on nothing else, and the same few thousand recur in
# every game (events, views, records): each is built once, and callers get a copy.
_FORMS_KEPT = 65_536


@lru_cache(maxsize=_FORMS_KEPT)
def _dict_form(combo: Combo) -> ComboDict:
    return {
        "kind": combo.kind.value,
        "length": combo.length,
        "top": Rank(combo.top).symbol,
        "phase": combo.phase,
        "cards": format_counts(combo.cards),
        "reading": format_counts(combo.reading),
    }


@lru_cache(maxsize=_FORMS_KEPT)
def _view_form(combo: Combo) -> ComboView:
    return {
        **_dict_form(combo),
        "bomb": combo.is_bomb,
        "width": combo.width,
        "stands_for": [rank.symbol for rank in combo.stands_for],
    }


class InvalidCombination(ValueError):
    """A set of cards that is no combination (or none of the kind asked for)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


# ---------------------------------------------------------------------------
# Building combinations


@cache
def run_reading(start: int, length: int, width: int) -> Counts:
    """Counts of a run of ``length`` ranks from slot ``start``, ``width`` cards each."""
    counts = [0] * NUM_SLOTS
    counts[start : start + length] = [width] * length
    return tuple(counts)


def make_run(kind: Kind, start: int, length: int, cards: Counts) -> Combo:
    """A single, pair, triple, straight, pair run or triple run on natural ranks."""
    width = RUN_SHAPES[kind][0] if kind in RUN_SHAPES else _SET_WIDTH[kind]
    top = start + length + 2
    return Combo(kind, length, top, 0, top, cards, run_reading(start, length, width))


_SET_WIDTH = {Kind.SINGLE: 1, Kind.PAIR: 2, Kind.TRIPLE: 3}


def make_bomb(slot: int, size: int, cards: Counts) -> Combo:
    """The N-bomb of ``size`` cards of the rank in ``slot`` (R4.1, R5.5)."""
    top = slot + 3
    strength = size * _PHASE_UNIT + _TIER_UNIT + size * _SIZE_UNIT + top
    reading = [0] * NUM_SLOTS
    reading[slot] = size
    return Combo(Kind.BOMB, 1, top, size, strength, cards, tuple(reading))


def make_serial_bomb(start: int, length: int, width: int, cards: Counts) -> Combo:
    """The serial bomb of ``length`` ranks from ``start``, at least ``width`` each (R4.4).

    Jokers first raise every rank to ``width``; any left over join the top rank, making
    the bomb irregular (R4.5).
    """
    reading = list(cards[:SJ_SLOT]) + [0, 0]
    spare = cards[SJ_SLOT] + cards[BJ_SLOT]
    for slot in range(start, start + length):
        if reading[slot] < width:
            spare -= width - reading[slot]
            reading[slot] = width
    reading[start + length - 1] += spare
    phase = width + length
    top = start + length + 2
    strength = phase * _PHASE_UNIT + _TIER_UNIT + width * length * _SIZE_UNIT + top
    return Combo(Kind.SERIAL_BOMB, length, top, phase, strength, cards, tuple(reading))


def make_joker_bomb(cards: Counts) -> Combo:
    """The three-joker (phase 6) or four-joker (phase 7) bomb (R4.2, R4.3)."""
    size = cards[SJ_SLOT] + cards[BJ_SLOT]
    phase = 6 if size == 3 else 7
    top = 17 if cards[BJ_SLOT] else 16
    strength = phase * _PHASE_UNIT + size * _SIZE_UNIT + top
    return Combo(Kind.JOKER_BOMB, 1, top, phase, strength, cards, cards)


def bomb_key(combo: Combo, rules: Rules = DEFAULT_RULES) -> int:
    """Strength of a bomb under ``rules``: R6.3 with the four-joker variant applied."""
    if combo.kind is Kind.JOKER_BOMB and combo.phase == 7 and rules.four_joker_bomb == "largest":
        return combo.strength + 2 * _TIER_UNIT
    return combo.strength


# ---------------------------------------------------------------------------
# Comparison


def beats(combo: Combo, table: Combo, rules: Rules = DEFAULT_RULES) -> bool:
    """True when ``combo`` may be played on ``table`` (R6).

    >>> beats(classify("4 5 6 7 8"), classify("3 4 5 6 7"))
    True
    >>> beats(classify("7777 88888 99999"), classify("4444 55555 66666"))
    False
    """
    if table.kind in BOMB_KINDS:
        if combo.kind not in BOMB_KINDS:
            return False
        if (
            combo.kind is Kind.SERIAL_BOMB
            and table.kind is Kind.SERIAL_BOMB
            and combo.phase == table.phase
            and combo.length == table.length
            and not (combo.is_regular and table.is_regular)
        ):
            return False  # R6.4
        return bomb_key(combo, rules) > bomb_key(table, rules)
    if combo.kind in BOMB_KINDS:
        return True  # R6.2
    return combo.kind is table.kind and combo.length == table.length and combo.top > table.top


# ---------------------------------------------------------------------------
# Reading a set of cards


def to_counts(cards: str | Counts | Iterable[Card]) -> Counts:
    """Counts for a card string, a counts tuple, or cards."""
    if isinstance(cards, str):
        return counts_of(parse_cards(cards))
    if isinstance(cards, tuple) and len(cards) == NUM_SLOTS and type(cards[0]) is int:
        return cards
    return counts_of(cards)  # type: ignore[arg-type]


def wild_jokers(cards: Counts, rules: Rules = DEFAULT_RULES) -> tuple[int, int]:
    """The small and big jokers among ``cards`` that may stand for other ranks (R5.2, C3.1)."""
    if rules.wild_jokers == "all":
        return cards[SJ_SLOT], cards[BJ_SLOT]
    return 0, cards[BJ_SLOT] if rules.wild_jokers == "big" else 0


def _holds_tame_joker(cards: Counts, rules: Rules) -> bool:
    """True when a joker among ``cards`` may not stand for another rank (C3.1)."""
    return rules.wild_jokers != "all" and sum(wild_jokers(cards, rules)) < cards[SJ_SLOT] + cards[BJ_SLOT]


def all_readings(cards: Counts, rules: Rules = DEFAULT_RULES, table: Combo | None = None) -> list[Combo]:
    """Every kind the cards can be read as, the strongest reading of each kind; with
    ``table``, the serial-bomb reading is the strongest that beats it (R5.3)."""
    naturals = [slot for slot in range(SJ_SLOT) if cards[slot]]
    if not naturals:
        return _joker_readings(cards, rules)
    if _holds_tame_joker(cards, rules):
        return []  # a joker at face value never combines with other ranks (R5.1, C3.1)
    jokers = cards[SJ_SLOT] + cards[BJ_SLOT]
    total = sum(cards[:SJ_SLOT]) + jokers
    low, high = naturals[0], naturals[-1]
    found: list[Combo] = []
    if low == high:
        if total <= 3:
            found.append(make_run((Kind.SINGLE, Kind.PAIR, Kind.TRIPLE)[total - 1], low, 1, cards))
        else:
            found.append(make_bomb(low, total, cards))
    most = max(cards[slot] for slot in naturals)
    for kind, (width, minimum) in RUN_SHAPES.items():
        length, remainder = divmod(total, width)
        if remainder or length < minimum or most > width or high > ACE_SLOT or high - low >= length:
            continue
        if length > ACE_SLOT + 1:
            continue  # longer than the 12 ranks 3..A (R3.4-R3.6)
        top_slot = min(ACE_SLOT, low + length - 1)
        found.append(make_run(kind, top_slot - length + 1, length, cards))
    if total >= 12:
        serial = best_serial_bomb(cards, rules, table)
        if serial is not None:
            found.append(serial)
    return found


def _joker_readings(cards: Counts, rules: Rules) -> list[Combo]:
    """Joker-only sets, read at face value (R5.1); three jokers only where they are a bomb
    (R4.2, C3.1)."""
    small, big = cards[SJ_SLOT], cards[BJ_SLOT]
    total = small + big
    if total == 1:
        slot = SJ_SLOT if small else BJ_SLOT
        return [make_run(Kind.SINGLE, slot, 1, cards)]
    if total == 2 and (small == 2 or big == 2):
        return [make_run(Kind.PAIR, SJ_SLOT if small else BJ_SLOT, 1, cards)]
    if total == 4 or (total == 3 and rules.three_joker_bomb):
        return [make_joker_bomb(cards)]
    return []


def best_serial_bomb(
    cards: Counts, rules: Rules = DEFAULT_RULES, table: Combo | None = None
) -> Combo | None:
    """The strongest serial-bomb reading of the cards (R4.4, R5.5), or None; with
    ``table``, the strongest reading that beats it (R5.3), or None.

    A set may have several serial readings, one per window of ranks (the widest the
    jokers allow in it): ``8888 9999 10101010 JJJJ`` with four jokers reads as the 5-phase
    4-serial 8–J or the 4-phase 5-serial 7–J or 8–Q. Of readings equally strong by R6.3
    (a 4-phase 5-serial and a 5-phase 4-serial with one top) the one with more cards per
    rank is taken, as R5.4 prefers a triple run to a pair run to a straight. A weaker
    reading may beat a table that the strongest does not (R6.4).
    """
    naturals = [slot for slot in range(SJ_SLOT) if cards[slot]]
    if not naturals or _holds_tame_joker(cards, rules):
        return None
    jokers = cards[SJ_SLOT] + cards[BJ_SLOT]
    total = sum(cards[:SJ_SLOT]) + jokers
    low, high = naturals[0], naturals[-1]
    last = TWO_SLOT if rules.serial_bomb_two else ACE_SLOT
    if high > last:
        return None
    best: Combo | None = None
    # Shorter windows first, and only a strictly stronger reading replaces the best: of two
    # equally strong readings the one with more cards per rank stays.
    for length in range(max(3, high - low + 1), total // 4 + 1):
        for start in range(max(0, high - length + 1), min(low, last - length + 1) + 1):
            width = _widest(cards, start, length, jokers)
            if width >= 4:
                candidate = make_serial_bomb(start, length, width, cards)
                if (best is None or candidate.strength > best.strength) and (
                    table is None or beats(candidate, table, rules)
                ):
                    best = candidate
    return best


def _widest(cards: Counts, start: int, length: int, jokers: int) -> int:
    """The largest x such that jokers can raise every rank of the window to x."""
    window = cards[start : start + length]
    width = min(window)
    while True:
        needed = sum(width + 1 - count for count in window if count <= width)
        if needed > jokers:
            return width
        width += 1


def playable_readings(
    cards: Counts, table: Combo | None = None, rules: Rules = DEFAULT_RULES
) -> list[Combo]:
    """The readings a player may play the cards as, strongest first (R5.3, R5.4).

    On a follow only readings that beat ``table`` count. A bomb reading, when there is
    one, is the only reading (it is stronger than every ordinary reading); otherwise
    there is one reading per ordinary kind, the strongest of that kind.
    """
    found = all_readings(cards, rules, table)
    if table is not None:
        found = [combo for combo in found if beats(combo, table, rules)]
    bombs = [combo for combo in found if combo.kind in BOMB_KINDS]
    if bombs:
        return [max(bombs, key=lambda combo: bomb_key(combo, rules))]
    return sorted(found, key=_ordinary_order, reverse=True)


def _ordinary_order(combo: Combo) -> tuple[int, int]:
    return combo.top, _ORDINARY_PREFERENCE.get(combo.kind, 0)


def readings(
    cards: str | Counts | Iterable[Card], table: Combo | str | None = None, rules: Rules = DEFAULT_RULES
) -> list[Combo]:
    """Public form of :func:`playable_readings` taking card strings or cards.

    >>> [str(combo) for combo in readings("3 4 5 SJ SJ SJ")]
    ['straight 3 4 5 6 7 8', 'pair_run 3 3 4 4 5 5']
    >>> [str(combo) for combo in readings("4 5 6 SJ SJ SJ", table="3 3 4 4 5 5")]
    ['pair_run 4 4 5 5 6 6']
    """
    table_combo = classify(table, rules=rules) if isinstance(table, str) else table
    return playable_readings(to_counts(cards), table_combo, rules)


def classify(
    cards: str | Counts | Iterable[Card],
    table: Combo | str | None = None,
    rules: Rules = DEFAULT_RULES,
    kind: Kind | str | None = None,
) -> Combo:
    """Read cards as the combination they are played as (R3–R5).

    Without ``table`` this is the strongest reading (R5.3, R5.4). With a table it is the
    strongest reading that beats it, or, when none does, the strongest reading (check
    with :func:`beats`). ``kind`` names the reading (R5.4). Raises
    :class:`InvalidCombination` with the reason when the cards are no combination.

    >>> classify("3 3 4 4 5 BJ").reading
    (2, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    >>> str(classify("5678 SJ"))
    'straight 5 6 7 8 9'
    >>> classify("444 BJ").phase
    4
    """
    counts = to_counts(cards)
    table_combo = classify(table, rules=rules) if isinstance(table, str) else table
    return _classify(counts, table_combo, rules, kind)


@lru_cache(maxsize=1 << 13)
def _classify(counts: Counts, table_combo: Combo | None, rules: Rules, kind: Kind | str | None) -> Combo:
    """:func:`classify` on counts, kept for the sets played most (a pure function of its
    arguments; an invalid set raises each time)."""
    options = playable_readings(counts, None, rules)
    if not options:
        raise InvalidCombination(_why_invalid(counts, rules))
    if table_combo is not None:
        beating = playable_readings(counts, table_combo, rules)
        options = beating or options
    if kind is None:
        return options[0]
    wanted = Kind(kind)
    for combo in options:
        if combo.kind is wanted:
            return combo
    choices = ", ".join(combo.kind.value for combo in options)
    raise InvalidCombination(
        f"{format_counts(counts)} cannot be played as {wanted.value}; it reads as {choices}"
    )


def _why_invalid(counts: Counts, rules: Rules) -> str:
    text = format_counts(counts)
    if not text:
        return "no cards"
    jokers = counts[SJ_SLOT] + counts[BJ_SLOT]
    if counts[SJ_SLOT] == 1 and counts[BJ_SLOT] == 1 and sum(counts) == 2:
        return "SJ and BJ together are not a pair (R3.8, R5.1)"
    if jokers == 3 and sum(counts) == 3 and not rules.three_joker_bomb:
        return f"{text} is not a combination: three jokers are no bomb here (three_joker_bomb = false, C3.1)"
    if jokers < sum(counts) and _holds_tame_joker(counts, rules):
        wild = {"none": "no joker stands", "big": "only big jokers stand"}[rules.wild_jokers]
        return (
            f"{text} is not a combination: {wild} for another rank here "
            f'(wild_jokers = "{rules.wild_jokers}", C3.1)'
        )
    return f"{text} is not a combination (R3.8): no reading as single, pair, triple, straight, run or bomb"
