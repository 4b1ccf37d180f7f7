"""Property tests: the fast engine against the brute-force reference of ``reference.py``,
and invariants of reading, comparison, legal moves and hosting (RULES §3-§6, R11.2)."""

from __future__ import annotations

import random
from collections import defaultdict

from hypothesis import example, given, settings
from hypothesis import strategies as st
from reference import (
    bomb_order,
    comparable,
    ref_beats,
    ref_legal_moves,
    ref_one_rank_bombs,
    ref_ordinary_follows,
    ref_playable,
)

from shuangkou.cards import DECK, Card, Counts, Rank, counts_of
from shuangkou.games.shuangkou.combos import Combo, Kind, beats, bomb_key, classify, playable_readings
from shuangkou.games.shuangkou.moves import hint_key, hosting_move, legal_move_runs, legal_moves
from shuangkou.games.shuangkou.rules import Rules

EXAMPLES = settings.default.max_examples
# R5.4: among ordinary readings of equal top, triple run > pair run > straight.
PREFERENCE = defaultdict(int, {Kind.PAIR_RUN: 1, Kind.TRIPLE_RUN: 2})


def scaled(fraction: float) -> settings:
    """Settings scaling the active profile's example count: below 1 for slow tests,
    above 1 for fast ones that deserve more examples."""
    return settings(max_examples=max(5, int(EXAMPLES * fraction)))


# ---------------------------------------------------------------------------
# Strategies

rules_strategy = st.builds(
    Rules,
    four_joker_bomb=st.sampled_from(["smallest", "largest"]),
    serial_bomb_two=st.booleans(),
    hosting_bombs=st.booleans(),
    # C3.1: every joker wild (R5.2, the default) half the time, else big jokers or none.
    wild_jokers=st.sampled_from(["all", "all", "big", "none"]),
    three_joker_bomb=st.booleans(),
)


@st.composite
def small_hands(draw: st.DrawFn, max_size: int = 12) -> Counts:
    """Hands of 1..12 cards biased towards jokers and big groups of neighbouring ranks, so
    that bombs, joker bombs, runs and serial bombs all occur. Hands with 3 or 4 jokers keep
    to 9 cards so the brute-force reference stays fast."""
    jokers = draw(st.sampled_from([0, 0, 1, 1, 2, 2, 3, 4]))
    lowest, highest = max(1, jokers), 9 if jokers >= 3 else max_size
    size = draw(st.integers(lowest, highest) | st.integers(max(lowest, highest - 4), highest))
    small = draw(st.integers(max(0, jokers - 2), min(2, jokers)))
    counts = [0] * 15
    counts[13], counts[14] = small, jokers - small
    base = draw(st.integers(0, 12))
    spread = draw(st.integers(0, 5))
    remaining = size - jokers
    if draw(st.booleans()):  # run-shaped: about `width` cards on each of consecutive ranks
        width = draw(st.integers(1, 4))
        slot = draw(st.integers(0, 12))
        while remaining and slot <= 12:
            take = min(remaining, draw(st.integers(max(0, width - 1), width + 1)))
            counts[slot] += take
            remaining -= take
            slot += 1
    while remaining:
        slot = draw(st.integers(max(0, base - 1), min(12, base + spread)))
        room = min(remaining, 8 - counts[slot])
        if room == 0:
            slot = next(index for index in range(13) if counts[index] < 8)
            room = min(remaining, 8 - counts[slot])
        take = draw(st.integers(1, min(room, 5)))
        counts[slot] += take
        remaining -= take
    return tuple(counts)


@st.composite
def deals(draw: st.DrawFn) -> tuple[list[Card], list[Card]]:
    """A 27-card hand and the opponent's cards (R1.3): either a plain deal of the 108
    cards, or a deal from 4-5 neighbouring ranks and the jokers, rich in bombs and serial
    bombs (the opponent then gets the 9-17 cards left)."""
    if draw(st.booleans()):
        pool = list(DECK)
    else:
        start = draw(st.integers(3, 11))  # up to 2, for serial_bomb_two
        ranks = set(range(start, start + draw(st.integers(4, 5)))) | {16, 17}
        pool = [card for card in DECK if card.rank in ranks]
    cards = list(pool)
    random.Random(draw(st.integers(0, 2**32 - 1))).shuffle(cards)
    return cards[:27], cards[27:54]


@st.composite
def serial_hands(draw: st.DrawFn) -> Counts:
    """3 or 4 neighbouring ranks with many cards each, plus up to 2 jokers: serial bombs,
    long triple runs and big N-bombs (ranks up to 2, for serial_bomb_two)."""
    length = draw(st.integers(3, 4))
    last_start = 13 - length  # the run ends at 2
    start = draw(st.sampled_from([last_start - 1, last_start]) | st.integers(0, last_start))
    counts = [0] * 15
    for slot in range(start, start + length):
        counts[slot] = draw(st.integers(2, 6))
    jokers = draw(st.integers(0, 2))
    counts[13] = draw(st.integers(max(0, jokers - 2), min(2, jokers)))
    counts[14] = jokers - counts[13]
    return tuple(counts)


@st.composite
def run_shaped_sets(draw: st.DrawFn) -> Counts:
    """Sets of up to 27 cards that are nearly straights, runs or serial bombs, possibly
    running into 2 or past A, with up to 4 jokers: the edges of R3.4-R3.6, R4.4 and R5.
    Short ones with many jokers have several readings (R5.4: `345 SJ SJ SJ`)."""
    mode = draw(st.sampled_from(["short", "full", "any"]))
    if mode == "short":  # many jokers, several readings
        width, length = draw(st.integers(1, 2)), draw(st.integers(1, 4))
        start = draw(st.integers(0, 13 - length) | st.just(12 - length))  # or ending at A
        jokers = draw(st.integers(2, 4))
    elif mode == "full":  # every rank from 3 to A (or 2): no room left for jokers to extend
        width, start, length = draw(st.integers(1, 3)), 0, draw(st.integers(12, 13))
        jokers = draw(st.integers(0, 4))
    else:
        width = draw(st.integers(1, 5))
        start = draw(st.integers(0, 12) | st.sampled_from([0, 9, 10]))  # from 3, or ending near A
        length = draw(st.integers(1, 13 - start) | st.sampled_from([max(1, 12 - start), 13 - start]))
        jokers = draw(st.integers(0, 4))
    exact = draw(st.booleans())
    counts = [0] * 15
    for slot in range(start, start + length):
        counts[slot] = width if exact else draw(st.integers(max(0, width - 1), width + 1))
    if draw(st.booleans()):  # a hole for jokers to fill
        counts[draw(st.integers(start, start + length - 1))] = 0
    counts[13] = draw(st.integers(max(0, jokers - 2), min(2, jokers)))
    counts[14] = jokers - counts[13]
    while sum(counts) > 27:
        slot = max(range(13), key=lambda index: counts[index])
        counts[slot] -= 1
    if not sum(counts):
        counts[start] = 1
    return tuple(counts)


@st.composite
def big_serial_sets(draw: st.DrawFn) -> Counts:
    """Sets of 20-27 cards on 3-6 neighbouring ranks with 3-6 cards each and mostly four
    jokers, up to A or 2: sets with several serial-bomb readings (the 5-phase 4-serial
    against the 4-phase 5-serial of R6.5, regular or irregular, R4.5, R5.5). Half are
    tight: 4 or 5 ranks of about four cards and four jokers, which read both ways."""
    tight = draw(st.booleans())
    length = draw(st.integers(4, 5) if tight else st.integers(3, 6))
    last_start = 13 - length  # the window ends at 2
    edges = st.sampled_from([last_start - 1, last_start])  # ending at A or 2
    start = draw(st.integers(0, last_start) if tight else edges | st.integers(0, last_start))
    jokers = draw(st.sampled_from([4, 4, 3] if tight else [4, 4, 4, 3, 2]))
    counts = [0] * 15
    for slot in range(start, start + length):
        counts[slot] = draw(st.sampled_from([4, 4, 4, 5, 3]) if tight else st.integers(3, 6))
    counts[13] = draw(st.integers(max(0, jokers - 2), min(2, jokers)))
    counts[14] = jokers - counts[13]
    window = range(start, start + length)
    while sum(counts) > 27:
        counts[max(window, key=lambda slot: counts[slot])] -= 1
    while sum(counts) < 20:
        counts[min(window, key=lambda slot: counts[slot])] += 1
    return tuple(counts)


@st.composite
def serial_tables(draw: st.DrawFn, rules: Rules, like: Combo | None = None) -> Combo:
    """A serial bomb of at most 27 natural cards another player may have led (R4.4), phase
    7-11, regular or with one or two extra cards (irregular, R4.5); often of the shape of
    ``like`` (a serial bomb) and lower, where R6.4 makes the two equal."""
    last = 12 if rules.serial_bomb_two else 11
    if like is not None and like.kind is Kind.SERIAL_BOMB and like.size <= 25 and draw(st.booleans()):
        width, length = like.phase - like.length, like.length
        start = draw(st.integers(0, max(0, like.top - 4 - length)))  # two ranks below ``like``
    else:
        width, length = draw(st.sampled_from([(4, 3), (5, 3), (4, 4), (6, 3), (5, 4), (4, 5), (6, 4),
                                              (5, 5), (4, 6)]))
        start = draw(st.integers(0, last - length + 1))
    counts = [0] * 15
    for slot in range(start, start + length):
        counts[slot] = width
    for _ in range(draw(st.integers(0, min(2, 27 - width * length)))):
        counts[draw(st.integers(start, start + length - 1))] += 1
    table = classify(tuple(counts), rules=rules)
    assert table.kind is Kind.SERIAL_BOMB
    return table


def table_from(draw: st.DrawFn, hand: Counts, rules: Rules, ordinary: bool | None = None) -> Combo | None:
    """A combination another player may have led: a kind first, so rare kinds come up as
    often as singles, then one of the hand's lead moves of that kind."""
    moves = legal_moves(hand, None, rules)
    if ordinary is not None:
        moves = [move for move in moves if move.is_bomb != ordinary]
    if not moves:
        return None
    by_kind: dict[Kind, list[Combo]] = defaultdict(list)
    for move in moves:
        by_kind[move.kind].append(move)
    kind = draw(st.sampled_from(sorted(by_kind)))
    return draw(st.sampled_from(by_kind[kind]))


def physical(counts: Counts, holding: list[Card]) -> list[Card]:
    """Physical cards for ``counts``, taken from the cards ``holding``."""
    by_rank: dict[Rank, list[Card]] = defaultdict(list)
    for card in holding:
        by_rank[card.rank].append(card)
    cards = []
    for slot, count in enumerate(counts):
        cards.extend(by_rank[Rank(slot + 3)][:count])
    assert counts_of(cards) == counts
    return cards


def deal_of(counts: Counts) -> list[Card]:
    """Distinct physical cards of the double deck for a hand's counts."""
    return physical(counts, list(DECK))


def assert_same_moves(moves: list[Combo], expected: set[tuple[object, ...]]) -> None:
    engine = [comparable(move) for move in moves]
    assert len(engine) == len(set(engine)), "a move is listed twice"
    missing = expected - set(engine)
    extra = set(engine) - expected
    assert not missing and not extra, (sorted(map(str, missing))[:5], sorted(map(str, extra))[:5])


def just_below(combo: Combo) -> Combo | None:
    """A natural combination of the same kind and length one rank lower, if there is one."""
    if combo.is_bomb or combo.reading[0] or combo.reading[13:] != (0, 0):
        return None
    lower = classify(combo.reading[1:] + (0,))
    assert (lower.kind, lower.length, lower.top) == (combo.kind, combo.length, combo.top - 1)
    return lower


def assert_each_reading_can_be_played(cards: Counts, readings: list[Combo], rules: Rules) -> None:
    """R5.3, R5.4: on a table that only one of the readings beats, that reading is taken."""
    for reading in readings:
        table = just_below(reading)
        if table is not None:
            assert classify(cards, table, rules) == reading, (str(reading), str(table))


def hint_order(move: Combo, rules: Rules) -> tuple[object, ...]:
    """The documented hint order: ordinary before bombs, then top rank or bomb strength
    (R6.3), then fewer jokers, then fewer big jokers."""
    if move.is_bomb:
        strength: tuple[int, ...] = bomb_order(move.kind, move.length, move.top, move.phase, rules)
    else:
        strength = (move.top,)
    return (move.is_bomb, strength, move.jokers, move.cards[14])


def hosting_choice(moves: list[Combo], rules: Rules) -> Combo | None:
    """R11.2 from the move list: the first move, bombs only when hosting_bombs."""
    allowed = [move for move in moves if rules.hosting_bombs or not move.is_bomb]
    return allowed[0] if allowed else None


# ---------------------------------------------------------------------------
# The engine against the brute-force reference


@scaled(3)
@given(hand=small_hands(), rules=rules_strategy)
def test_R2_2_lead_moves_equal_the_reference(hand: Counts, rules: Rules) -> None:
    """R2.2, R3-R5: every lead move, each (cards, reading) once, as the reference finds them."""
    moves = legal_moves(hand, None, rules)
    assert_same_moves(moves, ref_legal_moves(hand, None, rules))


@scaled(3)
@given(data=st.data(), hand=small_hands(), other=small_hands(), rules=rules_strategy)
def test_R2_3_follow_moves_equal_the_reference(data: st.DataObject, hand: Counts, other: Counts,
                                               rules: Rules) -> None:
    """R2.3, R5.3, R6: the moves that beat a table, as the reference finds them."""
    table = table_from(data.draw, other, rules)
    assert table is not None
    moves = legal_moves(hand, table, rules)
    assert_same_moves(moves, ref_legal_moves(hand, table, rules))
    for move in moves:
        # R5.3: played on this table, the move's cards are read to beat it.
        assert beats(classify(move.cards, table, rules), table, rules)
        assert classify(move.cards, table, rules, kind=move.kind) == move


@scaled(3)
@given(data=st.data(), hand=small_hands(), other=small_hands(), rules=rules_strategy, lead=st.booleans())
def test_legal_move_runs_are_the_legal_moves_by_hint_key(
    data: st.DataObject, hand: Counts, other: Counts, rules: Rules, lead: bool
) -> None:
    """R2.2, R2.3: the runs of ``legal_move_runs``, one after another, are the legal moves;
    the moves of a run share their hint key, and the moves of an ordinary run their kind,
    length, top rank, jokers and size (what the hints value a lead by, once per run)."""
    table = None if lead else table_from(data.draw, other, rules)
    runs = legal_move_runs(hand, table, rules)
    assert [move for run in runs for move in run] == legal_moves(hand, table, rules)
    for run in runs:
        assert run
        first = run[0]
        shared = (first.kind, first.length, first.top, first.jokers, first.size)
        for move in run:
            assert hint_key(move, rules) == hint_key(first, rules)
            if not first.is_bomb:
                assert (move.kind, move.length, move.top, move.jokers, move.size) == shared


@scaled(0.5)
@given(data=st.data(), deal=deals(), rules=rules_strategy)
def test_R2_3_big_hand_follows_equal_the_reference(data: st.DataObject,
                                                   deal: tuple[list[Card], list[Card]],
                                                   rules: Rules) -> None:
    """27-card hands on an ordinary table: the non-bomb moves, and the bombs of one natural
    rank plus jokers (and joker bombs), as the reference finds them among the sets of the
    table's size and among the one-rank sets."""
    hand, other = counts_of(deal[0]), counts_of(deal[1])
    table = table_from(data.draw, other, rules, ordinary=True)
    assert table is not None
    moves = legal_moves(hand, table, rules)
    assert_same_moves([move for move in moves if not move.is_bomb], ref_ordinary_follows(hand, table, rules))
    one_rank = [move for move in moves if move.kind in (Kind.BOMB, Kind.JOKER_BOMB)]
    assert_same_moves(one_rank, ref_one_rank_bombs(hand, table, rules))


@scaled(0.3)
@given(data=st.data(), deal=deals(), rules=rules_strategy)
def test_R6_3_big_hand_bomb_follows_equal_the_reference(data: st.DataObject,
                                                        deal: tuple[list[Card], list[Card]],
                                                        rules: Rules) -> None:
    """27-card hands on a bomb: the N-bombs and joker bombs that beat it, as the reference
    finds them; nothing ordinary is offered."""
    hand, other = counts_of(deal[0]), counts_of(deal[1])
    table = table_from(data.draw, other, rules, ordinary=False)
    if table is None:
        table = classify("4444")
    moves = legal_moves(hand, table, rules)
    assert all(move.is_bomb for move in moves)
    one_rank = [move for move in moves if move.kind in (Kind.BOMB, Kind.JOKER_BOMB)]
    assert_same_moves(one_rank, ref_one_rank_bombs(hand, table, rules))


@scaled(1)
@given(data=st.data(), cards=big_serial_sets(), rules=rules_strategy)
def test_R5_3_R6_4_big_serial_sets_read_as_the_reference(data: st.DataObject, cards: Counts,
                                                         rules: Rules) -> None:
    """20-27 cards with up to four jokers: on a lead and on a serial bomb (R6.4), the reading
    is the reference's strongest (that beats, R5.3); the move list and hosting offer the
    whole set exactly when it beats the table (R2.3, R2.6, R11.2)."""
    strongest = ref_playable(cards, None, rules)
    assert {comparable(combo) for combo in playable_readings(cards, None, rules)} == {
        comparable(combo) for combo in strongest}
    table = data.draw(serial_tables(rules, strongest[0] if strongest else None))
    reference = {comparable(combo) for combo in ref_playable(cards, table, rules)}
    assert {comparable(combo) for combo in playable_readings(cards, table, rules)} == reference
    if reference:
        assert beats(classify(cards, table, rules), table, rules)
    moves = legal_moves(cards, table, rules)
    assert {comparable(move) for move in moves if move.size == sum(cards)} == reference
    chosen = hosting_move(cards, table, rules)
    assert chosen == hosting_choice(moves, rules)
    if reference and rules.hosting_bombs:
        assert chosen is not None


@scaled(1)
@given(hand=serial_hands(), rules=rules_strategy)
def test_R4_4_serial_bomb_moves_equal_the_reference(hand: Counts, rules: Rules) -> None:
    """R4.4-R4.6, R5.5: every lead move of 12 cards or more (serial bombs, regular and
    irregular, jokers filling, long triple runs, big N-bombs) as the reference finds them."""
    moves = [move for move in legal_moves(hand, None, rules) if move.size >= 12]
    assert_same_moves(moves, ref_legal_moves(hand, None, rules, sizes=set(range(12, 40))))


@given(data=st.data(), hand=small_hands(max_size=8), other=small_hands(), rules=rules_strategy)
def test_reference_big_hand_helpers_agree_with_the_plain_reference(
    data: st.DataObject, hand: Counts, other: Counts, rules: Rules
) -> None:
    """R2.3, R4.1-R4.3: the shortcuts of ``ref_ordinary_follows`` and ``ref_one_rank_bombs``
    lose nothing: on small hands they equal the plain exhaustive reference."""
    table = table_from(data.draw, other, rules)
    assert table is not None
    plain = ref_legal_moves(hand, table, rules)
    if not table.kind.is_bomb:
        size = sum(table.cards)
        sized = ref_legal_moves(hand, table, rules, sizes={size})
        assert ref_ordinary_follows(hand, table, rules) == {move for move in sized if not move[0].is_bomb}
    one_rank = {move for move in plain if move[0] in (Kind.BOMB, Kind.JOKER_BOMB)}
    assert ref_one_rank_bombs(hand, table, rules) == one_rank


# ---------------------------------------------------------------------------
# Reading


@given(data=st.data(), deal=deals(), rules=rules_strategy, lead=st.booleans())
def test_R5_3_every_move_classifies_back_to_itself(data: st.DataObject,
                                                   deal: tuple[list[Card], list[Card]],
                                                   rules: Rules, lead: bool) -> None:
    """Every generated move, its physical cards in any order, reads back as itself (same
    kind, top, length, phase and reading) when its kind is named, on a lead or on the
    table it was generated for; unnamed, the strongest reading is taken (R5.3, R5.4)."""
    table = None if lead else table_from(data.draw, counts_of(deal[1]), rules)
    shuffler = random.Random(data.draw(st.integers(0, 2**32 - 1)))
    moves = legal_moves(deal[0], table, rules)
    for move in shuffler.sample(moves, min(len(moves), 100)):
        cards = physical(move.cards, deal[0])
        shuffler.shuffle(cards)
        named = classify(cards, table, rules, kind=move.kind)
        assert (named.kind, named.top, named.length, named.phase, named.reading, named.cards) == (
            move.kind, move.top, move.length, move.phase, move.reading, move.cards)
        strongest = classify(cards, table, rules)
        if table is not None:
            assert beats(strongest, table, rules), "R5.3: the reading taken must beat the table"
        if move.is_bomb:
            assert strongest == move
        else:
            assert not strongest.is_bomb
            assert (strongest.top, PREFERENCE[strongest.kind]) >= (move.top, PREFERENCE[move.kind])


@given(hand=small_hands(), rules=rules_strategy, seed=st.integers(0, 2**32 - 1))
def test_R5_3_classify_agrees_with_the_reference(hand: Counts, rules: Rules, seed: int) -> None:
    """Any set of cards: valid exactly when the reference finds a reading; the readings
    offered are the reference's; classify takes the first of them (R5.3, R5.4)."""
    cards = deal_of(hand)
    random.Random(seed).shuffle(cards)
    engine = playable_readings(hand, None, rules)
    reference = ref_playable(hand, None, rules)
    assert {comparable(combo) for combo in engine} == {comparable(combo) for combo in reference}
    if engine:
        assert classify(cards, rules=rules) == engine[0]
        if engine[0].is_bomb:
            assert len(engine) == 1
        else:
            ordered = [(combo.top, PREFERENCE[combo.kind]) for combo in engine]
            assert ordered == sorted(ordered, reverse=True)
            assert_each_reading_can_be_played(hand, engine, rules)


@scaled(2)
@given(cards=run_shaped_sets(), rules=rules_strategy)
# QQQQ KKKK AAAA 2222 and four jokers: 5x4 Q-2 and 4x5 J-2 are equal by R6.3 (R5.3 tie).
@example(cards=(0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 4, 4, 4, 2, 2), rules=Rules(serial_bomb_two=True))
def test_R3_R5_run_shaped_sets_read_as_the_reference(cards: Counts, rules: Rules) -> None:
    """Long and broken runs, with jokers at either end or in gaps, up to 27 cards: the
    readings (or their absence) are the reference's, strongest first (R5.3, R5.4)."""
    engine = playable_readings(cards, None, rules)
    assert {comparable(combo) for combo in engine} == {
        comparable(combo) for combo in ref_playable(cards, None, rules)}
    ordered = [(combo.top, PREFERENCE[combo.kind]) for combo in engine if not combo.is_bomb]
    assert ordered == sorted(ordered, reverse=True)
    assert_each_reading_can_be_played(cards, engine, rules)


# ---------------------------------------------------------------------------
# Comparison


@settings(max_examples=max(10, EXAMPLES // 2))
@given(deal=deals(), rules=rules_strategy, seed=st.integers(0, 2**32 - 1))
def test_R6_beats_is_irreflexive_antisymmetric_and_matches_the_reference(
    deal: tuple[list[Card], list[Card]], rules: Rules, seed: int
) -> None:
    """R6: no combination beats itself; of two, at most one beats the other; the engine
    agrees with the rule book's comparison spelled out in the reference."""
    sample = random.Random(seed)
    mine, theirs = legal_moves(deal[0], None, rules), legal_moves(deal[1], None, rules)
    left = sample.sample(mine, min(40, len(mine)))
    right = sample.sample(theirs, min(40, len(theirs)))
    for a in left + right:
        assert not beats(a, a, rules)
        assert not ref_beats(a, a, rules)
    for a in left:
        for b in right:
            forward, backward = beats(a, b, rules), beats(b, a, rules)
            assert not (forward and backward), (str(a), str(b))
            assert forward == ref_beats(a, b, rules), (str(a), str(b))
            assert backward == ref_beats(b, a, rules), (str(b), str(a))


@settings(max_examples=max(10, EXAMPLES // 2))
@given(deal=deals(), rules=rules_strategy, seed=st.integers(0, 2**32 - 1))
def test_R6_3_bomb_order_is_transitive_and_total_up_to_equality(
    deal: tuple[list[Card], list[Card]], rules: Rules, seed: int
) -> None:
    """R6.3-R6.5: among bombs, beating is transitive, and two bombs neither of which beats
    the other have equal strength (or are R6.4 serial bombs of the same X and Y)."""
    bombs = [move for move in legal_moves(deal[0], None, rules) + legal_moves(deal[1], None, rules)
             if move.is_bomb]
    bombs = random.Random(seed).sample(bombs, min(25, len(bombs)))
    for a in bombs:
        for b in bombs:
            if not beats(a, b, rules) and not beats(b, a, rules):
                same_serial_shape = (a.kind is b.kind is Kind.SERIAL_BOMB and a.phase == b.phase
                                     and a.length == b.length)
                assert same_serial_shape or bomb_key(a, rules) == bomb_key(b, rules), (str(a), str(b))
            for c in bombs:
                if beats(a, b, rules) and beats(b, c, rules):
                    assert beats(a, c, rules), (str(a), str(b), str(c))


# ---------------------------------------------------------------------------
# Legal moves


@given(data=st.data(), deal=deals(), rules=rules_strategy)
def test_R2_3_follow_moves_are_the_lead_moves_that_beat(data: st.DataObject,
                                                        deal: tuple[list[Card], list[Card]],
                                                        rules: Rules) -> None:
    """On a table, the moves are exactly the lead moves that beat it (R5.3: the strongest
    reading of each kind beats whenever a weaker one of that kind does), and the serial
    bombs whose strongest reading does not beat a serial bomb but a weaker one does, under
    the reference's strongest reading that beats (R5.3's follow exception, R6.4)."""
    table = table_from(data.draw, counts_of(deal[1]), rules)
    assert table is not None
    follows = legal_moves(deal[0], table, rules)
    leads = legal_moves(deal[0], None, rules)
    expected = {comparable(move) for move in leads if beats(move, table, rules)}
    for move in leads:
        if move.kind is table.kind is Kind.SERIAL_BOMB and not beats(move, table, rules):
            expected |= {comparable(combo) for combo in ref_playable(move.cards, table, rules)}
    assert_same_moves(follows, expected)


@given(data=st.data(), deal=deals(), rules=rules_strategy, lead=st.booleans())
def test_moves_use_only_held_cards_and_are_hint_ordered(data: st.DataObject,
                                                       deal: tuple[list[Card], list[Card]],
                                                       rules: Rules, lead: bool) -> None:
    """A move never uses a card the hand does not hold; every follow beats the table;
    the list is in hint order; no phase above 12 (R4.7)."""
    hand = counts_of(deal[0])
    table = None if lead else table_from(data.draw, counts_of(deal[1]), rules)
    moves = legal_moves(deal[0], table, rules)
    for move in moves:
        assert move.size >= 1
        assert all(used <= held for used, held in zip(move.cards, hand, strict=True)), str(move)
        assert sum(move.reading) == move.size
        assert move.phase <= 12
        if table is not None:
            assert beats(move, table, rules)
    keys = [hint_key(move, rules) for move in moves]
    assert keys == sorted(keys)
    # Hint order as documented, with bomb strength from the reference's R6.3.
    documented = [hint_order(move, rules) for move in moves]
    assert documented == sorted(documented)
    if lead:
        assert moves, "R2.4: a lead always has a move"


@given(data=st.data(), hand=small_hands(), other=small_hands(), rules=rules_strategy, lead=st.booleans())
def test_R11_2_hosting_is_the_first_legal_move_small_hands(data: st.DataObject, hand: Counts,
                                                           other: Counts, rules: Rules, lead: bool) -> None:
    """R11.2: hosting plays the first move in hint order (bombs only when hosting_bombs)."""
    table = None if lead else table_from(data.draw, other, rules)
    moves = legal_moves(hand, table, rules)
    expected = moves[0] if table is None else hosting_choice(moves, rules)
    assert hosting_move(hand, table, rules) == expected


@given(data=st.data(), deal=deals(), rules=rules_strategy, lead=st.booleans())
def test_R11_2_hosting_is_the_first_legal_move_big_hands(data: st.DataObject,
                                                         deal: tuple[list[Card], list[Card]],
                                                         rules: Rules, lead: bool) -> None:
    """R11.2 on 27-card hands; on a lead the lowest single card, a non-joker if any."""
    table = None if lead else table_from(data.draw, counts_of(deal[1]), rules)
    moves = legal_moves(deal[0], table, rules)
    chosen = hosting_move(deal[0], table, rules)
    if table is None:
        lowest = min(deal[0], key=lambda card: card.rank)
        assert chosen is not None and chosen.kind is Kind.SINGLE and chosen.top == lowest.rank
        assert chosen == moves[0]
    else:
        assert chosen == hosting_choice(moves, rules)


@scaled(3)
@given(hand=small_hands(), rules=rules_strategy)
def test_R5_2_jokers_stand_for_what_the_reading_adds_to_the_natural_cards(hand: Counts, rules: Rules) -> None:
    """R5.1, R5.2: one stand-in rank (3..2) per wild joker; with the natural cards they make
    the reading; joker-only sets stand for nothing."""
    for combo in playable_readings(hand, None, rules):
        jokers_only = combo.jokers == combo.size
        stands_for = combo.view()["stands_for"]
        assert len(stands_for) == (0 if jokers_only else combo.jokers)
        if not jokers_only:
            natural = list(combo.cards[:13]) + [0, 0]
            assert counts_of([*[Rank(slot + 3) for slot, n in enumerate(natural) for _ in range(n)],
                              *combo.stands_for]) == combo.reading
            assert all(not rank.is_joker for rank in combo.stands_for)
