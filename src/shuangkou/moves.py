"""Legal moves, hint order and the hosting choice (RULES R2.2–R2.4, §3–6, R11.2).

A move is a :class:`~shuangkou.combos.Combo`: the cards it takes from the hand and how
they read. Two moves differ when their cards differ (``5678 SJ`` and ``5678 BJ`` are two
moves) or when one set of cards may be named as two kinds (R5.4).

The generator walks templates (kind, start, length, width) over the hand's counts and
spends jokers on the shortfall, emitting each set of cards once, under the reading it is
played as: a run whose lowest rank is all jokers is left to the window one rank higher
(its stronger reading, R5.3), and a set that can also be read as a bomb is a bomb.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import cache, partial

from .cards import Card, Counts
from .combos import (
    ACE_SLOT,
    BJ_SLOT,
    RUN_SHAPES,
    SJ_SLOT,
    TWO_SLOT,
    Combo,
    Kind,
    beats,
    best_serial_bomb,
    bomb_key,
    classify,
    make_bomb,
    make_joker_bomb,
    make_run,
    playable_readings,
    run_reading,
    to_counts,
    wild_jokers,
)
from .rules import DEFAULT_RULES, Rules

__all__ = ["hint_key", "hosting_move", "legal_moves"]

_KIND_ORDER = {kind: index for index, kind in enumerate(Kind)}
_SET_KINDS = (Kind.SINGLE, Kind.PAIR, Kind.TRIPLE)
_BOMB_KINDS = frozenset(kind for kind in Kind if kind.is_bomb)
_ZEROS = tuple((0,) * size for size in range(SJ_SLOT + 1))
_new_combo = tuple.__new__  # builds a Combo without the keyword-handling constructor


def hint_key(move: Combo, rules: Rules = DEFAULT_RULES) -> int:
    """Sort key, weakest first: ordinary moves before bombs, then by strength (top rank,
    or bomb strength under ``rules``), then fewer jokers, fewer big jokers, kind, length.
    Moves equal in all of these keep the generator's order."""
    cards = move.cards
    is_bomb = move.phase > 0  # bombs, and only bombs, have a phase (R4)
    strength = bomb_key(move, rules) if is_bomb else move.top
    return (
        ((is_bomb << 25 | strength) << 16)
        | (cards[SJ_SLOT] + cards[BJ_SLOT]) << 12
        | cards[BJ_SLOT] << 8
        | _KIND_ORDER[move.kind] << 4
        | move.length
    )


def legal_moves(
    hand: str | Counts | Iterable[Card],
    table: Combo | str | None = None,
    rules: Rules = DEFAULT_RULES,
) -> list[Combo]:
    """Every distinct move of ``hand`` on a lead (``table`` None) or that beats ``table``,
    in hint order (weakest first, :func:`hint_key`).

    >>> [str(move) for move in legal_moves("3 3 4", table="3")]
    ['single 4']
    >>> len(legal_moves("5 6 7 8 SJ"))
    10
    """
    counts = to_counts(hand)
    table_combo = classify(table, rules=rules) if isinstance(table, str) else table
    moves = list(_generate(counts, table_combo, rules))
    moves.sort(key=partial(hint_key, rules=rules))
    return moves


def _generate(hand: Counts, table: Combo | None, rules: Rules) -> Iterator[Combo]:
    if table is None:
        for kind in _SET_KINDS:
            yield from _sets(hand, kind, 0, rules)
        for kind in RUN_SHAPES:
            yield from _runs(hand, kind, None, 0, rules)
        yield from _bombs(hand, rules)
        return
    if table.kind.is_bomb:
        for move in _bombs(hand, rules, table):
            if beats(move, table, rules):
                yield move
        return
    if table.kind in RUN_SHAPES:
        yield from _runs(hand, table.kind, table.length, table.top, rules)
    else:
        yield from _sets(hand, table.kind, table.top, rules)
    yield from _bombs(hand, rules, table)


def _joker_splits(hand: Counts, rules: Rules) -> list[list[tuple[int, int]]]:
    """For each number k of wild jokers (C3.1): the (small, big) ways to take k of them
    from the hand, small jokers first (the order hosting prefers)."""
    return _splits(*wild_jokers(hand, rules))


@cache
def _splits(small: int, big: int) -> list[list[tuple[int, int]]]:
    return [
        [(s, k - s) for s in range(min(k, small), max(0, k - big) - 1, -1)]
        for k in range(small + big + 1)
    ]


def _sets(hand: Counts, kind: Kind, above: int, rules: Rules) -> Iterator[Combo]:
    """Singles, pairs or triples with a top rank above ``above`` (R3.1-R3.3)."""
    width = _SET_KINDS.index(kind) + 1
    splits = _joker_splits(hand, rules)
    jokers = len(splits) - 1
    for slot in range(max(0, above - 2), TWO_SLOT + 1):
        have = hand[slot]
        for used in range(min(have, width), 0, -1):
            short = width - used
            if short > jokers:
                break
            natural = _ZEROS[slot] + (used,) + _ZEROS[SJ_SLOT - slot - 1]
            for small, big in splits[short]:
                yield make_run(kind, slot, 1, natural + (small, big))
    if width <= 2:  # a joker single, or a pair of identical jokers (R5.1)
        for slot in (SJ_SLOT, BJ_SLOT):
            if hand[slot] >= width and slot + 3 > above:
                cards = [0] * 15
                cards[slot] = width
                yield make_run(kind, slot, 1, tuple(cards))


def _runs(
    hand: Counts, kind: Kind, only_length: int | None, above: int, rules: Rules
) -> Iterator[Combo]:
    """Straights, pair runs or triple runs (R3.4-R3.6, R5.2), of one length when
    following, with a top rank above ``above``."""
    width, minimum = RUN_SHAPES[kind]
    splits = _joker_splits(hand, rules)
    jokers = len(splits) - 1
    shortest = only_length or minimum
    for start in range(0, ACE_SLOT - shortest + 2):
        longest = min(only_length or 99, ACE_SLOT - start + 1)
        # Partial runs from ``start``: (naturals used per rank, jokers needed, ranks
        # with naturals). A run whose lowest rank is all jokers reads one rank higher
        # (R5.3), so such runs are grown only when they can end at A.
        partial: list[tuple[tuple[int, ...], int, int]] = [((), 0, 0)]
        floating = start + longest - 1 == ACE_SLOT
        for length in range(1, longest + 1):
            have = min(hand[start + length - 1], width)
            grown = []
            for used, short, ranks in partial:
                for take in range(have, -1, -1):
                    need = short + width - take
                    if need > jokers:
                        break
                    if take:
                        grown.append((used + (take,), need, ranks + 1))
                    elif length > 1 or floating:
                        grown.append((used + (0,), need, ranks))
            if not grown:
                break  # too few cards and jokers for this window: longer ones fail too
            partial = grown
            top = start + length + 2
            if length < shortest or top <= above:
                continue
            ends_at_ace = start + length - 1 == ACE_SLOT
            reading = run_reading(start, length, width)
            before, after = _ZEROS[start], _ZEROS[SJ_SLOT - start - length]
            for used, short, ranks in partial:
                if ranks <= 1 or not (used[0] or ends_at_ace):
                    continue  # jokers and one rank are a bomb (R5.3) or nothing
                natural = before + used + after
                for small, big in splits[short]:
                    cards = natural + (small, big)
                    # Only a triple run can also read as a serial bomb (a straight or pair
                    # run would need more than four jokers); the bomb is stronger (R5.3).
                    if width == 3 and length >= 4 and best_serial_bomb(cards, rules) is not None:
                        continue
                    yield _new_combo(Combo, (kind, length, top, 0, top, cards, reading))


def _bombs(hand: Counts, rules: Rules, table: Combo | None = None) -> Iterator[Combo]:
    """Every bomb of the hand of phase at least the table's (R4, R5.5); a serial bomb under
    its strongest reading that beats the table (R5.3), and only when one does."""
    min_phase = 0 if table is None else table.phase
    splits = _joker_splits(hand, rules)
    jokers = len(splits) - 1
    for slot in range(TWO_SLOT + 1):
        have = hand[slot]
        for used in range(1, have + 1):
            natural = _ZEROS[slot] + (used,) + _ZEROS[SJ_SLOT - slot - 1]
            for extra in range(max(0, 4 - used, min_phase - used), jokers + 1):
                for small, big in splits[extra]:
                    yield make_bomb(slot, used + extra, natural + (small, big))
    if min_phase <= 7:
        all_jokers = _splits(hand[SJ_SLOT], hand[BJ_SLOT])  # at face value (R5.1)
        for size in (3, 4) if rules.three_joker_bomb else (4,):
            if size < len(all_jokers):
                for small, big in all_jokers[size]:
                    yield make_joker_bomb(_ZEROS[SJ_SLOT] + (small, big))
    yield from _serial_bombs(hand, splits, rules, table)


def _serial_bombs(
    hand: Counts, splits: list[list[tuple[int, int]]], rules: Rules, table: Combo | None
) -> Iterator[Combo]:
    """Every set of cards of the hand that reads as a serial bomb (R4.4, R5.5), under its
    strongest reading; with ``table``, the sets that beat it, under their strongest
    reading that does (R5.3, R6.4)."""
    jokers = len(splits) - 1
    last = TWO_SLOT if rules.serial_bomb_two else ACE_SLOT
    shortfall = [max(0, 4 - count) for count in hand[: last + 1]]
    seen: set[Counts] = set()
    for start in range(last - 1):
        if sum(shortfall[start : start + 3]) > jokers:
            continue
        partial: list[tuple[tuple[int, ...], int]] = [((), 0)]
        for length in range(1, last - start + 2):
            slot = start + length - 1
            grown = [
                (used + (take,), short + max(0, 4 - take))
                for used, short in partial
                for take in range(hand[slot] + 1)
                if short + max(0, 4 - take) <= jokers
            ]
            if not grown:
                break
            partial = grown
            if length < 3:
                continue
            for used, short in partial:
                natural = _ZEROS[start] + used + _ZEROS[SJ_SLOT - start - length]
                for extra in range(short, jokers + 1):
                    for small, big in splits[extra]:
                        seen.add(natural + (small, big))
    for cards in seen:
        combo = best_serial_bomb(cards, rules, table)
        if combo is not None:
            yield combo


def hosting_move(
    hand: str | Counts | Iterable[Card],
    table: Combo | str | None = None,
    rules: Rules = DEFAULT_RULES,
) -> Combo | None:
    """The move hosting makes (R11.2), or None for a pass.

    On a lead: the lowest single card, a non-joker when the hand has one. On a follow:
    the weakest move that beats the table in hint order (ordinary before bombs, fewer
    jokers first), bombs only when ``rules.hosting_bombs``. Computed directly from the
    templates, without listing every move.

    >>> str(hosting_move("3 9 9 SJ", table="8 8"))
    'pair 9 9'
    """
    counts = to_counts(hand)
    table_combo = classify(table, rules=rules) if isinstance(table, str) else table
    if table_combo is None:
        for slot in range(BJ_SLOT + 1):
            if counts[slot]:
                cards = [0] * 15
                cards[slot] = 1
                return make_run(Kind.SINGLE, slot, 1, tuple(cards))
        return None
    best: Combo | None = None
    if not table_combo.kind.is_bomb:
        best = _weakest_ordinary(counts, table_combo, rules)
    if best is None and rules.hosting_bombs:
        beating = (
            move
            for move in _bombs(counts, rules, table_combo)
            if beats(move, table_combo, rules)
        )
        best = min(beating, key=lambda move: hint_key(move, rules), default=None)
    return best


def _weakest_ordinary(hand: Counts, table: Combo, rules: Rules) -> Combo | None:
    """The weakest ordinary move of the table's kind and length that beats it."""
    if table.kind in _SET_KINDS:
        return next(_sets(hand, table.kind, table.top, rules), None)
    width = RUN_SHAPES[table.kind][0]
    length = table.length
    wild_small, wild_big = wild_jokers(hand, rules)
    best: Combo | None = None
    for start in range(max(0, table.top - 3 - length + 2), ACE_SLOT - length + 2):
        used = tuple(min(count, width) for count in hand[start : start + length])
        short = width * length - sum(used)
        if short > wild_small + wild_big:
            continue
        small = min(short, wild_small)
        cards = _ZEROS[start] + used + _ZEROS[SJ_SLOT - start - length] + (small, short - small)
        for move in playable_readings(cards, table, rules):
            if not move.kind.is_bomb and (best is None or hint_key(move, rules) < hint_key(best, rules)):
                best = move
    return best
