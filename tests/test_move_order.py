"""The order of :func:`~shuangkou.games.shuangkou.moves.legal_moves` and the hosting choice, move for move,
against the generator they replaced (RULES R2.2, R2.3, R11.2).

The brute-force reference (``reference.py``) checks *which* moves a hand has; it has no
order. Hint order is defined by :func:`~shuangkou.games.shuangkou.moves.hint_key` up to ties (moves equal
in strength, jokers, big jokers, kind and length), which keep the order the generator makes
them in: runs with the same jokers in one window by the natural cards they take, serial
bombs in the order a set of counts iterates. The previous generator, a straightforward walk
over the templates, is kept below as the oracle of that order, so the faster generator
(templates cached and grouped by hint key) is checked to list exactly the same moves in
exactly the same order, under every rule variant, on leads and on follows.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from functools import cache, partial

import pytest

from shuangkou.cards import DECK, Card, Counts, counts_of
from shuangkou.games.shuangkou.combos import (
    ACE_SLOT,
    BJ_SLOT,
    RUN_SHAPES,
    SJ_SLOT,
    TWO_SLOT,
    Combo,
    Kind,
    beats,
    best_serial_bomb,
    classify,
    make_bomb,
    make_joker_bomb,
    make_run,
    playable_readings,
    run_reading,
    to_counts,
    wild_jokers,
)
from shuangkou.games.shuangkou.moves import hint_key, hosting_move, legal_moves
from shuangkou.games.shuangkou.rules import DEFAULT_RULES, Rules

VARIANTS = {
    "default": DEFAULT_RULES,
    "wild_big": Rules(wild_jokers="big"),
    "wild_none": Rules(wild_jokers="none"),
    "no_three_joker_bomb": Rules(three_joker_bomb=False),
    "largest_serial_two": Rules(four_joker_bomb="largest", serial_bomb_two=True),
    "no_hosting_bombs": Rules(hosting_bombs=False),
}
HANDS_PER_VARIANT = 500
TABLES_PER_HAND = 2


def random_hands(seed: int, count: int) -> Iterator[tuple[Counts, Counts]]:
    """A hand and the opponent's cards: 27 cards or fewer (a hand in the middle of a game)
    from the whole double deck, or up to 18 from 3-5 neighbouring ranks and the jokers, rich
    in bombs, runs and serial bombs."""
    rng = random.Random(seed)
    for _ in range(count):
        if rng.random() < 0.6:
            pool = list(DECK)
            size = rng.choice([27, rng.randint(1, 26)])
        else:
            low = rng.randint(3, 12)
            ranks = set(range(low, low + rng.randint(3, 5))) | {16, 17}
            pool = [card for card in DECK if card.rank in ranks]
            size = rng.randint(1, 18)  # more, with four jokers, lists thousands of serial bombs
        rng.shuffle(pool)
        yield counts_of(pool[:size]), counts_of(pool[size : size + 27])


@pytest.mark.parametrize("variant", VARIANTS)
def test_R2_2_R2_3_R11_2_moves_and_hosting_keep_the_previous_order(variant: str) -> None:
    """Leads and follows (ordinary and bomb tables) list the same moves in the same order
    as before, and hosting makes the same move (R2.2, R2.3, R11.2, C3.1)."""
    rules = VARIANTS[variant]
    rng = random.Random(variant)
    compared = 0
    for hand, other in random_hands(len(variant), HANDS_PER_VARIANT):
        moves = legal_moves(hand, None, rules)
        assert moves == legacy_legal_moves(hand, None, rules), hand
        assert hosting_move(hand, None, rules) == legacy_hosting_move(hand, None, rules)
        tables = legacy_legal_moves(other, None, rules) if any(other) else []
        bombs = [table for table in tables if table.is_bomb]
        for table in rng.sample(tables, min(TABLES_PER_HAND, len(tables))) + bombs[:1]:
            follows = legal_moves(hand, table, rules)
            assert follows == legacy_legal_moves(hand, table, rules), (hand, str(table))
            assert hosting_move(hand, table, rules) == legacy_hosting_move(hand, table, rules)
            compared += 1
    assert compared > HANDS_PER_VARIANT * TABLES_PER_HAND // 2


def test_hint_key_orders_every_move_of_a_rich_hand() -> None:
    """The comparison above is not empty-handed: hands with several moves of one hint key
    occur (ties whose order only the generator decides)."""
    rules = DEFAULT_RULES
    ties = 0
    for hand, _ in random_hands(7, 100):
        keys = [hint_key(move, rules) for move in legal_moves(hand, None, rules)]
        ties += len(keys) - len(set(keys))
    assert ties > 100


# ---------------------------------------------------------------------------
# The previous generator, the oracle of the order (unchanged but for its names)

_ZEROS = tuple((0,) * size for size in range(SJ_SLOT + 1))
_SET_KINDS = (Kind.SINGLE, Kind.PAIR, Kind.TRIPLE)
_new_combo = tuple.__new__


def legacy_legal_moves(
    hand: str | Counts | Iterable[Card],
    table: Combo | str | None = None,
    rules: Rules = DEFAULT_RULES,
) -> list[Combo]:
    """The moves as the previous generator listed them."""
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


def legacy_hosting_move(
    hand: str | Counts | Iterable[Card],
    table: Combo | str | None = None,
    rules: Rules = DEFAULT_RULES,
) -> Combo | None:
    """The hosting move as the previous generator made it (R11.2)."""
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
