"""Hints that play well (bots.hint_moves): the greedy planner's choice first, bombs and
jokers kept unless needed, long low combinations first on a lead; and the HintBot that
always takes the first hint."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from shuangkou.games.shuangkou.bots import (
    GreedyBot,
    HintBot,
    Seen,
    _wins_after,
    bot_action,
    hint_moves,
    whole_hand,
)
from shuangkou.games.shuangkou.bots import hints as offered
from shuangkou.games.shuangkou.combos import Combo, Kind, classify
from shuangkou.games.shuangkou.config import load_config
from shuangkou.games.shuangkou.game import Game, Play
from shuangkou.games.shuangkou.moves import legal_moves
from shuangkou.simulate import simulate

POINTS = load_config("points")
CLASSIC = load_config("classic")


def hints(game: Game) -> list[str]:
    return [str(move) for move in hint_moves(Seen.of(game, game.to_act))]


def test_on_a_lead_the_first_hint_sheds_a_long_low_combination_not_a_single_3() -> None:
    game = Game.from_hands(POINTS, ["3 5 6 7 8 9 Q Q K", "4 4"], leader=0)
    assert hints(game)[0] == "straight 5 6 7 8 9"


def test_the_first_hint_to_beat_a_straight_spends_no_joker_when_it_need_not() -> None:
    game = Game.from_hands(POINTS, ["3 4 5 6 7 K", "5 6 7 8 9 10 SJ BJ 2"], leader=0)
    game.apply(Play.of(0, "3 4 5 6 7"))
    first = hint_moves(Seen.of(game, 1))[0]
    assert first.jokers == 0 and str(first) == "straight 5 6 7 8 9"


def test_the_big_joker_is_not_the_first_hint_to_beat_an_ace() -> None:
    game = Game.from_hands(POINTS, ["A K", "BJ 2 5"], leader=0)
    game.apply(Play.of(0, "A"))
    assert hints(game) == ["single 2", "single BJ"]


def partner_led_a_long_straight(right_opponent: str) -> Game:
    """Issue #43's classic position: the partner (seat 2) led the 12-card straight 3–A, the
    left opponent (seat 3) could not beat it, and seat 0 holds a bomb of J and a 9 and a 10."""
    hands = ["J J J J 9 10 6 6", right_opponent, "3 4 5 6 7 8 9 10 J Q K A 5", "4 4 8"]
    game = Game.from_hands(CLASSIC, hands, leader=2)
    game.apply(Play.of(2, "3 4 5 6 7 8 9 10 J Q K A"))
    assert game.to_act == 0
    return game


def test_the_first_hint_lets_the_partners_play_stand_C1_1() -> None:
    """C1.1: the partner holds the table and the next opponent is far from going out: the
    first hint is to pass (None), the bomb comes after it, and the hint player passes."""
    seen = Seen.of(partner_led_a_long_straight("3 3 K 5 7 8"), 0)
    assert [str(move) for move in offered(seen)] == ["None", "bomb J J J J phase 4"]
    assert HintBot().choose(seen) is None


def test_the_first_hint_beats_the_partner_when_the_next_opponent_is_about_to_go_out_C1_1() -> None:
    seen = Seen.of(partner_led_a_long_straight("3 3 K"), 0)
    assert [str(move) for move in offered(seen)] == ["bomb J J J J phase 4", "None"]


def test_pass_is_offered_last_among_the_hints_when_an_opponent_holds_the_table_R2_3() -> None:
    game = Game.from_hands(POINTS, ["8 K", "9 10 5 5 5 5"], leader=0)
    game.apply(Play.of(0, "8"))
    cycle = [str(move) for move in offered(Seen.of(game, 1))]
    assert cycle == ["single 9", "single 10", "bomb 5 5 5 5 phase 4", "None"]
    assert offered(Seen.of(Game.from_hands(POINTS, ["8 K", "9"], leader=0), 0))[-1] is not None  # a lead has no pass


def test_a_bomb_hint_spends_no_joker_where_a_natural_bomb_of_the_same_phase_beats_the_table_R5_5() -> None:
    """Issue #43's Rush position: against the straight 4–A, with five queens and both jokers,
    the first hint is Q Q Q Q, not 5 5 SJ BJ (a 4-bomb too, R5.5), and every bomb of phase 4
    without a joker comes before those with one."""
    game = Game.from_hands(POINTS, ["4 5 6 7 8 9 10 J Q K A 3 3 3", "Q Q Q Q Q SJ BJ 5 5 7 9"], leader=0)
    game.apply(Play.of(0, "4 5 6 7 8 9 10 J Q K A"))
    order = hint_moves(Seen.of(game, 1))
    assert order[0].cards == classify("Q Q Q Q", rules=POINTS.rules).cards
    fours = [move.jokers for move in order if move.phase == 4]
    assert fours == sorted(fours, key=bool) and fours[-1] > 0


def test_a_follow_spends_no_joker_where_a_natural_move_takes_the_table() -> None:
    """Close to the end (the opponent holds five cards) a joker may be spent, yet not where a
    natural move beats the table as well: the pair of Q, not 5 SJ."""
    game = Game.from_hands(POINTS, ["4 4 3 6 8 9 K", "5 SJ Q Q 7"], leader=0)
    game.apply(Play.of(0, "4 4"))
    assert str(hint_moves(Seen.of(game, 1))[0]) == "pair Q Q"


def test_bombs_come_after_every_other_move() -> None:
    game = Game.from_hands(POINTS, ["3", "4 4 4 4 6 7 8 9 10 J"], leader=0)
    game.apply(Play.of(0, "3"))
    order = hint_moves(Seen.of(game, 1))
    bombs = [index for index, move in enumerate(order) if move.is_bomb]
    assert bombs and min(bombs) > max(index for index, move in enumerate(order) if not move.is_bomb)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), turns=st.integers(0, 40))
def test_the_hints_are_every_legal_move_once_with_the_planners_choice_first(seed: int, turns: int) -> None:
    game = Game.deal(POINTS, seed=seed)
    for _ in range(turns):
        if game.finished:
            return
        game.apply(bot_action(game, GreedyBot()))
    seen = Seen.of(game, game.to_act)
    order = hint_moves(seen)
    assert sorted(order) == sorted(game.legal_moves())
    chosen = GreedyBot().choose(seen)
    if chosen is not None:
        assert order[0] == chosen
    cycle = offered(seen)
    assert [move for move in cycle if move is not None] == order
    assert cycle.count(None) == (seen.table is not None)  # the pass, on a follow only
    assert HintBot().choose(seen) == (cycle[0] if cycle else None)


def test_a_player_who_always_takes_the_first_hint_beats_hosting() -> None:
    report = simulate(POINTS, ("hint", "hosting"), games=300, seed=1)
    hint = next(stats for stats in report.bot_stats() if stats.bot == "hint")
    assert hint.win_rate >= 0.7  # 2,000 games: 81.2 % (docs/simulation.md)


# A small hand (up to 4 of a rank: more jokers than two decks hold do not matter here), and a table or none.
small_hands = st.lists(st.integers(0, 4), min_size=15, max_size=15).filter(lambda counts: 0 < sum(counts) <= 12)


@settings(max_examples=300, deadline=None)
@given(hand=small_hands, table=st.sampled_from([None, "3", "9 9", "4 4 4", "5 6 7 8 9", "3 3 4 4 5 5", "7 7 7 7"]))
def test_thewhole_hand_is_found_from_the_listed_moves_as_by_classifying_it(
    hand: list[int], table: str | None
) -> None:
    """R3: with the legal moves at hand the planner's "whole hand as one move" check skips
    classifying a hand none of them plays whole; it finds what classifying finds."""
    rules = POINTS.rules
    counts = tuple(hand)
    table_combo = classify(table, rules=rules) if table else None
    moves = legal_moves(counts, table_combo, rules)
    assert whole_hand(counts, table_combo, rules, moves) == whole_hand(counts, table_combo, rules)


def plain_lead_value(seen: Seen, move: Combo) -> float:
    """The greedy value of leading ``move`` (:meth:`GreedyBot.lead_values`), written plainly,
    move by move."""
    planner = GreedyBot()
    opponent_cards = [seen.cards_left[opponent] for opponent in seen.opponents]
    partner_cards = 0 if seen.partner is None else seen.cards_left[seen.partner]
    value = move.size * 3.0 - move.top * 0.6 - move.jokers * 6.0
    for cards in opponent_cards:
        if move.kind is Kind.SINGLE and cards == 1:
            value -= 40 - move.top
        if move.size == cards:
            value -= 10
    feeds = 0 < partner_cards <= planner.feed_partner_at
    if feeds and move.kind in (Kind.SINGLE, Kind.PAIR) and move.size <= partner_cards:
        value += 40 - move.top
    return value


def plain_greedy_choice(seen: Seen) -> Combo | None:
    """The greedy planner's move (:meth:`GreedyBot.choose`), written plainly: every group by
    its own test, the fewest cards of an opponent counted anew, the best lead by ``max``."""
    planner = GreedyBot()
    hand, table = seen.hand, seen.table
    whole = whole_hand(hand, table, seen.rules)
    if whole is not None:
        return whole
    if table is not None and planner.partner_stands(seen):
        return None
    moves = legal_moves(hand, table, seen.rules)
    if not moves:
        return None
    protected = [slot for slot in range(13) if hand[slot] >= 4]
    ordinary = [move for move in moves if not move.is_bomb]
    keeps_bombs = [move for move in ordinary if not any(move.cards[slot] for slot in protected)]
    if table is None:
        return max(keeps_bombs or ordinary or moves, key=lambda move: plain_lead_value(seen, move))
    opponent_cards = min((seen.cards_left[other] for other in seen.opponents), default=0)
    natural = [move for move in keeps_bombs if not move.jokers]
    cheap = natural or (keeps_bombs if opponent_cards <= 6 else [])
    if cheap and (opponent_cards <= 6 or cheap[0].top <= 14 or table.top >= 14):
        return cheap[0]
    bombs = plain_bombs(moves)
    if bombs and (opponent_cards <= planner.bomb_when_opponent_has or _wins_after(bombs[0], hand, seen)):
        return bombs[0]
    if opponent_cards <= planner.stop_opponent_at and ordinary:
        return ordinary[0]
    return None


def plain_bombs(moves: list[Combo]) -> list[Combo]:
    """The bombs of ``moves`` weakest first, a phase's natural bombs before those with jokers."""
    bombs = [move for move in moves if move.is_bomb]
    return [bomb for phase in sorted({bomb.phase for bomb in bombs}) for natural in (True, False)
            for bomb in bombs if bomb.phase == phase and (bomb.jokers == 0) == natural]


def plain_hint_moves(seen: Seen) -> list[Combo]:
    """The hint order of :func:`hint_moves`, written plainly: each group by its own test,
    leads sorted by :func:`plain_lead_value`, the planner's choice by
    :func:`plain_greedy_choice`."""
    moves = legal_moves(seen.hand, seen.table, seen.rules)
    protected = [slot for slot in range(13) if seen.hand[slot] >= 4]  # the ranks of the hand's bombs
    bombs = plain_bombs(moves)
    spends = [
        move for move in moves
        if not move.is_bomb and (move.jokers or any(move.cards[slot] for slot in protected))
    ]
    keeps = [move for move in moves if not move.is_bomb and move not in spends]
    if seen.table is None:
        keeps.sort(key=lambda move: plain_lead_value(seen, move), reverse=True)
    ordered = keeps + spends + bombs
    first = plain_greedy_choice(seen)
    if first is not None:
        ordered.remove(first)
        ordered.insert(0, first)
    return ordered


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), turns=st.integers(0, 60), seats=st.sampled_from([2, 4]))
def test_hint_moves_is_the_plain_hint_order(seed: int, turns: int, seats: int) -> None:
    """The hint order the server sends (its groups sorted out in one pass, each lead's value
    computed once) is the one written plainly, at positions of greedy self-play with two
    seats and four."""
    config = POINTS if seats == 2 else CLASSIC
    game = Game.deal(config, seed=seed)
    for _ in range(turns):
        if game.finished:
            return
        seen = Seen.of(game, game.to_act)
        assert hint_moves(seen) == plain_hint_moves(seen)
        assert GreedyBot().choose(seen) == plain_greedy_choice(seen)
        game.apply(bot_action(game, GreedyBot()))


TABLES = [None, "3", "9 9", "4 4 4", "5 6 7 8 9", "3 3 4 4 5 5", "7 7 7 7"]


def counts_of_hand(ranks: dict[int, int], small: int, big: int) -> tuple[int, ...]:
    return tuple(ranks.get(slot, 0) for slot in range(13)) + (small, big)


# A hand of a few ranks, up to six cards of each (bombs to keep), and up to two of each joker.
few_ranks = st.builds(
    counts_of_hand,
    st.dictionaries(st.integers(0, 12), st.integers(1, 6), max_size=5),
    st.integers(0, 2),
    st.integers(0, 2),
).filter(any)


@settings(max_examples=400, deadline=None)
@given(
    hand=few_ranks,
    table=st.sampled_from(TABLES),
    others=st.lists(st.integers(0, 12), min_size=3, max_size=3).filter(any),
    seats=st.sampled_from([2, 4]),
)
def test_hint_moves_is_the_plain_hint_order_for_any_hand(
    hand: tuple[int, ...], table: str | None, others: list[int], seats: int
) -> None:
    """The same for any small hand, on a lead or a follow, whatever the other seats hold:
    hands with bombs to keep and jokers to spend, leads an opponent holding as many cards
    answers, a partner holding one or two cards fed (four seats, C1.1)."""
    rules = (POINTS if seats == 2 else CLASSIC).rules
    cards_left = (sum(hand), *others[: seats - 1])
    seen = Seen(
        seat=0, hand=hand, table=classify(table, rules=rules) if table else None, table_seat=1 if table else None,
        cards_left=cards_left, teams=(0, 1) if seats == 2 else (0, 1, 0, 1), finish_order=(), plays=(), rules=rules,
    )
    assert hint_moves(seen) == plain_hint_moves(seen)
    assert GreedyBot().choose(seen) == plain_greedy_choice(seen)
