"""A slow, obviously-correct reference for reading and legal moves, written from RULES.md
alone: every sub-multiset of the hand, every substitution of its jokers, each natural set
checked against the definitions of §3-§4, and the comparison of §6 spelled out.

It shares nothing with the engine but the Combo value it reports in.
"""

from __future__ import annotations

from itertools import combinations_with_replacement, product

from shuangkou.cards import Counts
from shuangkou.games.shuangkou.combos import Combo, Kind
from shuangkou.games.shuangkou.rules import DEFAULT_RULES, Rules

RANKS_3_TO_2 = range(3, 16)  # what a joker may stand for (R5.2)
ACE, TWO, SJ, BJ = 14, 15, 16, 17


def natural_kind(reading: dict[int, int], rules: Rules) -> tuple[Kind, int, int, int] | None:
    """(kind, length, top, phase) of a set of natural ranks {rank: count}, or None."""
    ranks = sorted(reading)
    counts = [reading[rank] for rank in ranks]
    size = sum(counts)
    consecutive = ranks == list(range(ranks[0], ranks[0] + len(ranks)))
    if len(ranks) == 1:
        if size == 1:
            return (Kind.SINGLE, 1, ranks[0], 0)
        if size == 2:
            return (Kind.PAIR, 1, ranks[0], 0)
        if size == 3:
            return (Kind.TRIPLE, 1, ranks[0], 0)
        return (Kind.BOMB, 1, ranks[0], size)  # R4.1
    if not consecutive:
        return None
    if ranks[-1] <= ACE:
        if len(ranks) >= 5 and set(counts) == {1}:
            return (Kind.STRAIGHT, len(ranks), ranks[-1], 0)
        if len(ranks) >= 3 and set(counts) == {2}:
            return (Kind.PAIR_RUN, len(ranks), ranks[-1], 0)
        if len(ranks) >= 3 and set(counts) == {3}:
            return (Kind.TRIPLE_RUN, len(ranks), ranks[-1], 0)
    last = TWO if rules.serial_bomb_two else ACE
    if len(ranks) >= 3 and min(counts) >= 4 and ranks[-1] <= last:
        return (Kind.SERIAL_BOMB, len(ranks), ranks[-1], min(counts) + len(ranks))  # R4.4
    return None


def bomb_order(kind: Kind, length: int, top: int, phase: int, rules: Rules) -> tuple[int, int, int, int]:
    """R6.3 spelled out: phase, then joker bombs smallest (or the four-joker bomb largest),
    then more cards (serial as X*Y), then top rank."""
    if kind is Kind.JOKER_BOMB:
        special = 2 if (phase == 7 and rules.four_joker_bomb == "largest") else 0
        return (phase, special, 0, 0)
    cards = (phase - length) * length if kind is Kind.SERIAL_BOMB else phase
    return (phase, 1, cards, top)


def ref_beats(a: Combo, b: Combo, rules: Rules = DEFAULT_RULES) -> bool:
    """R6 spelled out."""
    if not b.kind.is_bomb:
        if a.kind.is_bomb:
            return True
        return a.kind is b.kind and a.length == b.length and a.top > b.top
    if not a.kind.is_bomb:
        return False
    if a.kind is b.kind is Kind.SERIAL_BOMB and a.phase == b.phase and a.length == b.length:
        regular_a = sum(a.cards) == (a.phase - a.length) * a.length
        regular_b = sum(b.cards) == (b.phase - b.length) * b.length
        if not (regular_a and regular_b):
            return False  # R6.4
    return bomb_order(a.kind, a.length, a.top, a.phase, rules) > bomb_order(
        b.kind, b.length, b.top, b.phase, rules
    )


def _combo(kind: Kind, length: int, top: int, phase: int, cards: Counts, reading: dict[int, int]) -> Combo:
    counts = [0] * 15
    for rank, count in reading.items():
        counts[rank - 3] = count
    return Combo(kind, length, top, phase, 0, cards, tuple(counts))


def ref_all_readings(cards: Counts, rules: Rules = DEFAULT_RULES) -> list[Combo]:
    """Every reading of the cards under every joker substitution (R5), with only the
    jokers that ``rules.wild_jokers`` makes wild standing for other ranks (C3.1)."""
    naturals = {slot + 3: count for slot, count in enumerate(cards[:13]) if count}
    small, big = cards[13], cards[14]
    jokers = small + big
    if not naturals:  # R5.1: face value
        if jokers == 1:
            return [_combo(Kind.SINGLE, 1, SJ if small else BJ, 0, cards, {SJ if small else BJ: 1})]
        if jokers == 2 and (small == 2 or big == 2):
            rank = SJ if small else BJ
            return [_combo(Kind.PAIR, 1, rank, 0, cards, {rank: 2})]
        if jokers == 4 or (jokers == 3 and rules.three_joker_bomb):  # R4.2, R4.3, C3.1
            reading = {rank: count for rank, count in ((SJ, small), (BJ, big)) if count}
            return [_combo(Kind.JOKER_BOMB, 1, BJ if big else SJ, 6 if jokers == 3 else 7, cards, reading)]
        return []
    face_value = {"all": 0, "big": small, "none": jokers}[rules.wild_jokers]
    if face_value:
        return []  # a joker that is not wild reads only as itself, alone among jokers (C3.1)
    found = []
    for substitution in combinations_with_replacement(RANKS_3_TO_2, jokers):
        reading = dict(naturals)
        for rank in substitution:
            reading[rank] = reading.get(rank, 0) + 1
        shape = natural_kind(reading, rules)
        if shape is not None:
            found.append(_combo(*shape, cards, reading))
    return found


def _strength(combo: Combo, rules: Rules) -> tuple[int, ...]:
    """R5.3: the strongest reading by R6. Two serial readings of one set can be equal by
    R6.3 (`QQQQ KKKK AAAA 2222` and four jokers: 5-phase 4-serial Q-2 or 4-phase 5-serial
    J-2, both phase 9, 20 cards, top 2); then the one with more cards per rank, as R5.4
    prefers triple runs to pair runs to straights."""
    if combo.kind.is_bomb:
        per_rank = combo.phase - combo.length if combo.kind is Kind.SERIAL_BOMB else 0
        return (1, *bomb_order(combo.kind, combo.length, combo.top, combo.phase, rules), per_rank)
    return (0, combo.top)


def ref_playable(cards: Counts, table: Combo | None, rules: Rules = DEFAULT_RULES) -> list[Combo]:
    """The readings a player may play: the strongest bomb if any, else the strongest of
    each ordinary kind (R5.3, R5.4); only those beating the table when following."""
    found = ref_all_readings(cards, rules)
    if table is not None:
        found = [combo for combo in found if ref_beats(combo, table, rules)]
    bombs = [combo for combo in found if combo.kind.is_bomb]
    if bombs:
        return [max(bombs, key=lambda combo: _strength(combo, rules))]
    best: dict[Kind, Combo] = {}
    for combo in found:
        if combo.kind not in best or combo.top > best[combo.kind].top:
            best[combo.kind] = combo
    return list(best.values())


def sub_multisets(hand: Counts, sizes: set[int] | None = None) -> list[Counts]:
    """Every non-empty sub-multiset of the hand (of the given sizes)."""
    result = []
    for choice in product(*(range(count + 1) for count in hand)):
        size = sum(choice)
        if size and (sizes is None or size in sizes):
            result.append(tuple(choice))
    return result


def comparable(combo: Combo) -> tuple[object, ...]:
    """What the engine and the reference must agree on. The reading of an irregular serial
    bomb is free where its spare jokers sit, so only its shape is compared there."""
    reading: object = combo.reading
    if combo.kind is Kind.SERIAL_BOMB:
        reading = None
    return (combo.kind, combo.cards, combo.length, combo.top, combo.phase, reading)


def ref_legal_moves(
    hand: Counts, table: Combo | None = None, rules: Rules = DEFAULT_RULES, sizes: set[int] | None = None
) -> set[tuple[object, ...]]:
    """Every (cards, reading) a hand may play, by exhaustion."""
    moves = set()
    for cards in sub_multisets(hand, sizes):
        for combo in ref_playable(cards, table, rules):
            moves.add(comparable(combo))
    return moves


def _bounded_sets(limits: list[int], size: int) -> list[tuple[int, ...]]:
    """Every choice of ``0..limits[i]`` items per slot that adds up to exactly ``size``."""
    if not limits:
        return [()] if size == 0 else []
    head, rest = limits[0], limits[1:]
    room = sum(rest)
    result = []
    for take in range(min(head, size) + 1):
        if size - take <= room:
            result.extend((take, *tail) for tail in _bounded_sets(rest, size - take))
    return result


def ref_ordinary_follows(hand: Counts, table: Combo, rules: Rules = DEFAULT_RULES) -> set[tuple[object, ...]]:
    """The moves of ``ref_legal_moves(hand, table, rules, sizes={size of table})`` that are
    not bombs, for an ordinary ``table``, without walking every sub-multiset of a big hand.

    Only a combination of the table's kind and length can beat it without being a bomb
    (R6.1, R6.2). Such a reading has ``table.length`` consecutive ranks with the same number
    of cards ``w`` each, and jokers only add cards to the ranks they stand for (R5.2), so the
    natural cards of a candidate set lie within ``table.length`` consecutive ranks, with at
    most ``w`` of any rank. Every such set is then read by the brute force of ``ref_playable``.
    """
    size = sum(table.cards)
    width = size // table.length
    naturals = 13  # ranks 3..2
    moves = set()
    seen = set()
    for start in range(naturals - table.length + 1):
        window = range(start, start + table.length)
        limits = [min(hand[slot], width) for slot in window] + [hand[13], hand[14]]
        for choice in _bounded_sets(limits, size):
            cards = [0] * 15
            for slot, take in zip(window, choice[:-2], strict=True):
                cards[slot] = take
            cards[13], cards[14] = choice[-2], choice[-1]
            key = tuple(cards)
            if key in seen:
                continue
            seen.add(key)
            for combo in ref_playable(key, table, rules):
                if not combo.kind.is_bomb:
                    moves.add(comparable(combo))
    return moves


def ref_one_rank_bombs(
    hand: Counts, table: Combo | None = None, rules: Rules = DEFAULT_RULES
) -> set[tuple[object, ...]]:
    """Every bomb move of the hand whose cards hold at most one natural rank (N-bombs and
    joker bombs, R4.1-R4.3, R5.5), by exhaustion over those sub-multisets."""
    naturals = [(0, 0)] + [(slot, count) for slot in range(13) for count in range(1, hand[slot] + 1)]
    moves = set()
    for slot, count in naturals:
        for small in range(hand[13] + 1):
            for big in range(hand[14] + 1):
                cards = [0] * 15
                cards[slot] = count
                cards[13], cards[14] = small, big
                if not sum(cards):
                    continue
                for combo in ref_playable(tuple(cards), table, rules):
                    if combo.kind.is_bomb:
                        moves.add(comparable(combo))
    return moves
