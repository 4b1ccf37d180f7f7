"""Legal moves, hint order and the hosting choice (RULES R2.2–R2.4, §3–6, R11.2).

A move is a :class:`~shuangkou.games.shuangkou.combos.Combo`: the cards it takes from the hand and how
they read. Two moves differ when their cards differ (``5678 SJ`` and ``5678 BJ`` are two
moves) or when one set of cards may be named as two kinds (R5.4).

The generator walks templates (kind, start, length, width) over the hand's counts and
spends jokers on the shortfall, emitting each set of cards once, under the reading it is
played as: a run whose lowest rank is all jokers is left to the window one rank higher
(its stronger reading, R5.3), and a set that can also be read as a bomb is a bomb.

What one template yields depends only on the few counts it looks at (the natural cards of
its ranks, capped at its width, and the wild jokers), so each template's moves are built
once and kept (:func:`functools.lru_cache`), already grouped by hint key: listing the moves
of a hand is then looking its templates up and sorting the groups. Hands only shrink in a
game, so consecutive hands share most of their templates.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache, lru_cache
from itertools import accumulate, chain
from operator import itemgetter

from ...cards import Card, Counts
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
    run_reading,
    to_counts,
    wild_jokers,
)
from .rules import DEFAULT_RULES, Rules

__all__ = ["hint_key", "hosting_move", "legal_move_runs", "legal_moves"]

_KIND_ORDER = {kind: index for index, kind in enumerate(Kind)}
_SET_KINDS = (Kind.SINGLE, Kind.PAIR, Kind.TRIPLE)
_SET_WIDTHS = {kind: width for width, kind in enumerate(_SET_KINDS, 1)}
_ZEROS = tuple((0,) * size for size in range(SJ_SLOT + 1))
_new_combo = tuple.__new__  # builds a Combo without the keyword-handling constructor

Entry = tuple[int, tuple[Combo, ...]]
"""Moves that share one hint key, under that key, in the order the generator makes them
(the order :func:`legal_moves` keeps among moves of equal key)."""

_by_key = itemgetter(0)
_moves_of = itemgetter(1)

# Templates kept per process (about 80 MB when every bound is full, most of it run windows):
# run windows and the keys that find them vary with the hand; one rank's moves hardly do.
_WINDOW_CACHE_SIZE = 1 << 14
_KEY_CACHE_SIZE = 1 << 15
_SLOT_CACHE_SIZE = 1 << 12


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
    return list(chain.from_iterable(map(_moves_of, _entries(hand, table, rules))))


def legal_move_runs(
    hand: str | Counts | Iterable[Card],
    table: Combo | str | None = None,
    rules: Rules = DEFAULT_RULES,
) -> list[tuple[Combo, ...]]:
    """The moves of :func:`legal_moves`, in its order, in runs of moves that share their
    hint key: the moves of an ordinary run are of one kind, length, top rank and number of
    jokers, so of one size too. What is judged by these alone is then judged once per run
    (a full hand's hundreds of leads make about a third as many runs).

    >>> from shuangkou.cards import format_counts
    >>> runs = legal_move_runs("5 6 7 8 9 10 SJ", table="3 4 5 6 7 8")
    >>> [[format_counts(move.cards) for move in run] for run in runs][:2]
    [['5 6 7 8 9 10'], ['5 6 7 8 9 SJ', '5 6 7 8 10 SJ', '5 6 7 9 10 SJ', '5 6 8 9 10 SJ', '5 7 8 9 10 SJ']]
    """
    return list(map(_moves_of, _entries(hand, table, rules)))


def _entries(hand: str | Counts | Iterable[Card], table: Combo | str | None, rules: Rules) -> list[Entry]:
    """The legal moves under their hint keys, weakest first."""
    counts = to_counts(hand)
    table_combo = classify(table, rules=rules) if isinstance(table, str) else table
    ranks = bytes(counts[:SJ_SLOT])
    small, big = wild_jokers(counts, rules)
    if table_combo is None:
        ordinary = _leads(counts, ranks, small, big)
        ordinary.sort(key=_by_key)  # ordinary keys are small ints, which sort fast
    elif table_combo.phase:  # a bomb (only bombs have a phase, R4)
        ordinary = []
    else:
        ordinary = _ordinary_follows(counts, ranks, table_combo, small, big)  # made in order
    bombs = _bombs(counts, ranks, small, big, rules, table_combo)
    if bombs:
        bombs.sort(key=_by_key)  # stable: serial bombs of equal key stay in the order made
        ordinary += bombs
    return ordinary


# The generators below take the hand twice: as counts, and its natural ranks 3..2 as
# ``bytes`` (one byte per rank), which the C-level ``bytes.translate`` turns into the
# cheap keys of the cached templates.


def _leads(hand: Counts, ranks: bytes, small: int, big: int) -> list[Entry]:
    """Every ordinary move of the hand on a lead (its bombs are :func:`_bombs`)."""
    entries: list[Entry] = []
    sets = _rank_sets(small, big)
    capped = ranks.translate(_CAPPED[3])
    for slot in _slots_holding(ranks.translate(_AT_LEAST[1])):
        entries += sets[slot][capped[slot]]
    if hand[SJ_SLOT] or hand[BJ_SLOT]:
        for width in (1, 2):
            entries += _face_value_sets(width, hand[SJ_SLOT], hand[BJ_SLOT])
    naturals = ranks[: ACE_SLOT + 1]
    cards = sum(naturals) + small + big
    for kind, (width, minimum) in RUN_SHAPES.items():
        if cards >= width * minimum:  # else too few cards for any run of the kind
            entries += _runs(naturals, kind, None, 0, small, big)
    return entries


def _ordinary_follows(hand: Counts, ranks: bytes, table: Combo, small: int, big: int) -> list[Entry]:
    """The ordinary moves of the table's kind and length with a higher top (R6.1), made
    in hint order (the top rank rises with the template, and each template's groups are
    weakest first)."""
    width = _SET_WIDTHS.get(table.kind)
    if width is None:
        return _runs(ranks[: ACE_SLOT + 1], table.kind, table.length, table.top, small, big)
    lowest = table.top - 2  # the slot above the table's rank
    entries = list(_sets_from(width, lowest, ranks[lowest:].translate(_CAPPED[width]), small, big))
    if width <= 2 and hand[SJ_SLOT] + hand[BJ_SLOT]:
        entries += [
            entry
            for entry in _face_value_sets(width, hand[SJ_SLOT], hand[BJ_SLOT])
            if entry[1][0].top > table.top
        ]
    return entries


def _bombs(
    hand: Counts, ranks: bytes, small: int, big: int, rules: Rules, table: Combo | None
) -> list[Entry]:
    """Every bomb of the hand (R4, R5.5) that beats ``table`` (any bomb beats an ordinary
    table, R6.2); a serial bomb under its strongest reading that beats the table (R5.3)."""
    if max(ranks) + small + big < 4 and hand[SJ_SLOT] + hand[BJ_SLOT] < 3:
        return []  # no rank makes a bomb, too few jokers for a joker bomb (R4)
    entries: list[Entry] = []
    for slot in _slots_holding(ranks.translate(_AT_LEAST[max(1, 4 - small - big)])):
        entries += _n_bombs(slot, hand[slot], small, big)
    entries += _joker_bombs(hand, rules)
    entries += _serial_bombs(hand, ranks, small, big, rules, table)
    if table is not None and table.phase:  # a bomb table
        return [entry for entry in entries if beats(entry[1][0], table, rules)]
    return entries


_AT_LEAST = tuple(bytes(int(count >= least) for count in range(256)) for least in range(5))
"""``bytes.translate`` tables: 1 where a rank holds at least ``least`` cards, else 0."""
_CAPPED = tuple(bytes(min(count, width) for count in range(256)) for width in range(4))
"""``bytes.translate`` tables: the cards of a rank a run of ``width`` may take."""


@cache
def _slots_holding(flags: bytes) -> tuple[int, ...]:
    """The slots flagged 1 (of the 13 natural ranks: 8,192 keys at most)."""
    return tuple(slot for slot, flag in enumerate(flags) if flag)


@cache
def _shortfall_table(width: int, jokers: int) -> bytes:
    """``bytes.translate`` table: the cards a rank lacks for ``width``, counted up to
    ``jokers + 1`` (a rank lacking more than the jokers rules a window out all the same,
    which keeps the keys of :func:`_windows` few)."""
    return bytes(min(max(0, width - count), jokers + 1) for count in range(256))


@lru_cache(maxsize=_KEY_CACHE_SIZE)
def _windows(shortfalls: bytes, jokers: int, shortest: int, only_shortest: bool) -> tuple[tuple[int, int], ...]:
    """The windows of consecutive slots, ``shortest`` long or longer (only that long with
    ``only_shortest``), whose ``shortfalls`` the jokers cover: (start, end) by start."""
    below = list(accumulate(shortfalls, initial=0))  # below[i]: shortfall of the slots below i
    spans = []
    for start in range(len(shortfalls) - shortest + 1):
        longest = shortest if only_shortest else len(shortfalls) - start
        for end in range(start + shortest, start + longest + 1):
            if below[end] - below[start] > jokers:
                break  # longer windows from this start fall short too
            spans.append(_SPANS[start][end])
    return tuple(spans)


_SPANS = tuple(tuple((start, end) for end in range(SJ_SLOT + 1)) for start in range(SJ_SLOT + 1))
"""``_SPANS[start][end]``: one shared (start, end) pair per window (pairs of ints, which
the garbage collector need not follow)."""


@cache
def _splits(small: int, big: int) -> list[list[tuple[int, int]]]:
    """For each number k of wild jokers (C3.1): the (small, big) ways to take k of them,
    small jokers first (fewer big jokers first, as hint order wants)."""
    return [
        [(s, k - s) for s in range(min(k, small), max(0, k - big) - 1, -1)]
        for k in range(small + big + 1)
    ]


def _single_moves(moves: Iterable[Combo], rules: Rules = DEFAULT_RULES) -> list[Entry]:
    """Each move as a group of its own: moves of one template never share a hint key, but
    for serial bombs, which keep the order they are made in."""
    return [(hint_key(move, rules), (move,)) for move in moves]


@lru_cache(maxsize=_SLOT_CACHE_SIZE)
def _sets(width: int, slot: int, have: int, small: int, big: int) -> tuple[Entry, ...]:
    """Singles, pairs or triples (``width`` cards) of the rank in ``slot``, of which the
    hand holds ``have`` (at most ``width``), wild jokers making up the rest (R3.1-R3.3)."""
    kind = _SET_KINDS[width - 1]
    splits = _splits(small, big)
    moves = []
    for used in range(have, 0, -1):
        short = width - used
        if short >= len(splits):
            break
        natural = _ZEROS[slot] + (used,) + _ZEROS[SJ_SLOT - slot - 1]
        moves += [make_run(kind, slot, 1, natural + split) for split in splits[short]]
    return tuple(_single_moves(moves))


@lru_cache(maxsize=_KEY_CACHE_SIZE)
def _sets_from(width: int, lowest: int, capped: bytes, small: int, big: int) -> tuple[Entry, ...]:
    """Singles, pairs or triples of the ranks from slot ``lowest`` on, ``capped`` giving
    the cards at hand per rank (capped at ``width``)."""
    rows = (_sets(width, slot, have, small, big) for slot, have in enumerate(capped, lowest) if have)
    return tuple(chain.from_iterable(rows))


@lru_cache(maxsize=_SLOT_CACHE_SIZE)
def _n_bombs(slot: int, have: int, small: int, big: int) -> tuple[Entry, ...]:
    """The N-bombs of the rank in ``slot`` with ``have`` natural cards and wild jokers
    (R4.1, R5.5)."""
    splits = _splits(small, big)
    moves = []
    for used in range(1, have + 1):
        natural = _ZEROS[slot] + (used,) + _ZEROS[SJ_SLOT - slot - 1]
        for extra in range(max(0, 4 - used), len(splits)):
            moves += [make_bomb(slot, used + extra, natural + split) for split in splits[extra]]
    return tuple(_single_moves(moves))


@cache
def _rank_sets(small: int, big: int) -> tuple[tuple[tuple[Entry, ...], ...], ...]:
    """``[slot][have]``: the singles, pairs and triples of one rank of which the hand holds
    ``have`` cards (0 to 3: a set takes three at most), with wild jokers. A table rather
    than a cache of its own: a lead looks up every rank it holds."""
    return tuple(
        tuple(
            tuple(chain.from_iterable(_sets(width, slot, min(have, width), small, big) for width in (1, 2, 3)))
            for have in range(4)
        )
        for slot in range(TWO_SLOT + 1)
    )


@cache
def _face_value_sets(width: int, small: int, big: int) -> tuple[Entry, ...]:
    """A joker single, or a pair of identical jokers, at face value (R5.1)."""
    moves = []
    for slot, held in ((SJ_SLOT, small), (BJ_SLOT, big)):
        if held >= width:
            cards = [0] * 15
            cards[slot] = width
            moves.append(make_run(_SET_KINDS[width - 1], slot, 1, tuple(cards)))
    return tuple(_single_moves(moves))


def _joker_bombs(hand: Counts, rules: Rules) -> list[Entry]:
    """The three- and four-joker bombs, jokers at face value (R4.2, R4.3, R5.1, C3.1)."""
    if hand[SJ_SLOT] + hand[BJ_SLOT] < 3:
        return []
    all_jokers = _splits(hand[SJ_SLOT], hand[BJ_SLOT])
    sizes = (3, 4) if rules.three_joker_bomb else (4,)
    moves = [
        make_joker_bomb(_ZEROS[SJ_SLOT] + split)
        for size in sizes
        if size < len(all_jokers)
        for split in all_jokers[size]
    ]
    return _single_moves(moves, rules)


def _runs(
    naturals: bytes, kind: Kind, only_length: int | None, above: int, small: int, big: int
) -> list[Entry]:
    """Straights, pair runs or triple runs (R3.4-R3.6, R5.2), of one length when
    following, with a top rank above ``above``: the windows the jokers can fill.
    ``naturals``: the hand's cards of the ranks 3..A."""
    width, minimum = RUN_SHAPES[kind]
    jokers = small + big
    shortest = only_length or minimum
    if sum(naturals) + jokers < width * shortest:
        return []  # too few cards for the shortest run
    spans = _windows(naturals.translate(_shortfall_table(width, jokers)), jokers, shortest, bool(only_length))
    if not spans:
        return []
    capped = naturals.translate(_CAPPED[width])
    entries: list[Entry] = []
    for start, end in spans:
        if end + 2 > above:  # the run's top rank is its end + 2
            entries += _window(kind, start, capped[start:end], small, big)
    return entries


@lru_cache(maxsize=_WINDOW_CACHE_SIZE)
def _window(kind: Kind, start: int, window: bytes, small: int, big: int) -> tuple[Entry, ...]:
    """The runs of ``kind`` over the ranks from ``start``, ``window`` giving the natural
    cards at hand per rank (capped at the width), wild jokers making up the rest.

    A run whose lowest rank is all jokers reads one rank higher (R5.3), so it is only
    made where the window ends at A; jokers and one rank are a bomb or nothing; a triple
    run that also reads as a serial bomb is the bomb (R5.3)."""
    width = RUN_SHAPES[kind][0]
    length = len(window)
    splits = _splits(small, big)
    short = width * length - sum(window)
    spare = len(splits) - 1 - short  # jokers left to stand in for natural cards
    ends_at_ace = start + length - 1 == ACE_SLOT
    before, after = _ZEROS[start], _ZEROS[SJ_SLOT - start - length]
    naturals: list[list[Counts]] = [[] for _ in range(spare + 1)]
    for used, left in _choices(window, spare):
        if (used[0] or ends_at_ace) and length - used.count(0) > 1:
            naturals[left].append(before + used + after)
    top = start + length + 2
    reading = run_reading(start, length, width)
    entries = []
    for left, sets in enumerate(naturals):
        for split in splits[short + left] if sets else ():
            moves = [_new_combo(Combo, (kind, length, top, 0, top, natural + split, reading)) for natural in sets]
            if width == 3 and length >= 4:
                moves = [move for move in moves if not _also_serial_bomb(move.cards)]
            if moves:
                entries.append((hint_key(moves[0]), tuple(moves)))
    return tuple(entries)


@lru_cache(maxsize=_WINDOW_CACHE_SIZE)
def _choices(window: bytes, spare: int) -> tuple[tuple[Counts, int], ...]:
    """The natural cards a run may take per rank of ``window`` (the cards at hand, capped
    at the width) when at most ``spare`` of them may be left out for jokers: each with
    the number left out, most cards first from the lowest rank (the order hint ties keep)."""
    if not window:
        return (((), 0),)
    have = window[-1]
    return tuple(
        (used + (take,), left + have - take)
        for used, left in _choices(window[:-1], spare)
        for take in range(have, (have - spare + left if have > spare - left else 0) - 1, -1)
    )


def _also_serial_bomb(cards: Counts) -> bool:
    """True for a triple run of four ranks or more that can also read as a serial bomb (a
    shorter one, a straight or a pair run would need more than four jokers). The run's
    ranks end at A at most and its jokers are all wild, so the default rules decide this
    for every variant: a serial window holding its natural ranks always fits below 2 (R4.6)."""
    return best_serial_bomb(cards) is not None


def _serial_bombs(
    hand: Counts, ranks: bytes, small: int, big: int, rules: Rules, table: Combo | None
) -> list[Entry]:
    """Every set of cards of the hand that reads as a serial bomb (R4.4, R5.5), under its
    strongest reading; with ``table``, the sets that beat it, under their strongest
    reading that does (R5.3, R6.4)."""
    jokers = small + big
    last = TWO_SLOT if rules.serial_bomb_two else ACE_SLOT
    naturals = ranks[: last + 1]
    if sum(naturals) + jokers < 12:
        return []  # three ranks of four cards at least
    # The starts of three ranks of four cards that the jokers can fill.
    starts = [start for start, _ in _windows(naturals.translate(_shortfall_table(4, jokers)), jokers, 3, True)]
    if not starts:
        return []
    splits = _splits(small, big)
    seen: set[Counts] = set()
    for start in starts:
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
                    for split in splits[extra]:
                        seen.add(natural + split)
    readings = (best_serial_bomb(cards, rules, table) for cards in seen)
    return _single_moves((combo for combo in readings if combo is not None), rules)


def hosting_move(
    hand: str | Counts | Iterable[Card],
    table: Combo | str | None = None,
    rules: Rules = DEFAULT_RULES,
) -> Combo | None:
    """The move hosting makes (R11.2), or None for a pass.

    On a lead: the lowest single card, a non-joker when the hand has one. On a follow:
    the weakest move that beats the table in hint order (ordinary before bombs, fewer
    jokers first), bombs only when ``rules.hosting_bombs``.

    >>> str(hosting_move("3 9 9 SJ", table="8 8"))
    'pair 9 9'
    """
    counts = to_counts(hand)
    table_combo = classify(table, rules=rules) if isinstance(table, str) else table
    if table_combo is None:
        for slot in range(TWO_SLOT + 1):
            if counts[slot]:
                return _sets(1, slot, 1, 0, 0)[0][1][0]
        jokers = _face_value_sets(1, counts[SJ_SLOT], counts[BJ_SLOT])
        return jokers[0][1][0] if jokers else None
    ranks = bytes(counts[:SJ_SLOT])
    small, big = wild_jokers(counts, rules)
    if not table_combo.phase:  # an ordinary table
        ordinary = _ordinary_follows(counts, ranks, table_combo, small, big)
        if ordinary:
            return ordinary[0][1][0]  # made weakest first
    bombs = _bombs(counts, ranks, small, big, rules, table_combo) if rules.hosting_bombs else []
    return min(bombs, key=_by_key)[1][0] if bombs else None
