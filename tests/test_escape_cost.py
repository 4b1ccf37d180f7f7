"""What leaving a game now costs (R10, C6): :meth:`Game.escape_cost` announces exactly what
the settlement then charges, in both escape modes, with two seats and four."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from shuangkou.games.shuangkou.bots import RandomBot, bot_action
from shuangkou.games.shuangkou.config import RoomConfig, load_config
from shuangkou.games.shuangkou.game import Escape, EscapeCost, Game, HostedTurn, Play
from shuangkou.games.shuangkou.scoring import Settlement, TableSettlement, scoring_phase

POINTS = load_config("points")  # settle mode, no caps, no fee
POINTS_HOST = load_config("points", {"escape_mode": "host"})
WEALTH = load_config("wealth", {"table_fee": 30})  # caps (allow_negative = false), a fee, escape_share 0.7
CLASSIC_SETTLE = load_config("classic", {"escape_mode": "settle"})
CLASSIC_HOST = load_config("classic")  # host mode (C6.1)
WEALTH4 = load_config("wealth", {"seats": 4, "table_fee": 20})
CONFIGS = [POINTS, POINTS_HOST, WEALTH, CLASSIC_SETTLE, CLASSIC_HOST, WEALTH4]


def observable(game: Game) -> tuple[object, ...]:
    """Everything a caller can see of a game."""
    return (*(game.view(seat) for seat in range(game.seats)), game.view(None), game.record(), game.seq, game.to_act)


def played_game(config: RoomConfig, seed: int, turns: int) -> Game:
    """A dealt game after ``turns`` random turns (or its end, if sooner)."""
    game = Game.deal(config, seed)
    bots = [RandomBot(seed * 7 + seat) for seat in range(config.seats)]
    for _ in range(turns):
        if game.finished:
            break
        game.apply(bot_action(game, bots[game.to_act]))
    return game


def escape_and_settle(game: Game, seat: int, balances: list[int], seed: int) -> Settlement | TableSettlement:
    """Escape for real on a game rebuilt from ``game``'s record, play it to its end in host
    mode (hosting for the escaper, random moves for the others), and settle it."""
    real = Game.restore(game.to_record())
    real.apply(Escape(seat))
    bots = [RandomBot(seed + seat) for seat in range(real.seats)]
    while not real.finished:
        to_act = real.to_act
        real.apply(HostedTurn(to_act) if real.hosting[to_act] else bot_action(real, bots[to_act]))
    return real.settlement(balances)


@settings(max_examples=60, deadline=None)
@given(
    config=st.sampled_from(CONFIGS),
    seed=st.integers(0, 10_000),
    turns=st.integers(0, 70),
    seat=st.integers(0, 3),
    balances=st.lists(st.integers(-200, 700_000), min_size=4, max_size=4),
)
def test_R10_3_C6_the_announced_escape_cost_is_what_the_escape_charges(
    config: RoomConfig, seed: int, turns: int, seat: int, balances: list[int]
) -> None:
    """R10.1–R10.3, C6.1–C6.3: the cost announced before leaving is what the settlement of
    the real escape charges; asking changes nothing."""
    game = played_game(config, seed, turns)
    seat %= game.seats
    balances = balances[: game.seats]
    if not config.allow_negative:
        balances = [abs(balance) for balance in balances]
    before = observable(game)
    cost = game.escape_cost(seat, balances)
    assert observable(game) == before, "asking for the cost changes nothing"
    if game.finished or not game.hands[seat]:
        assert cost is None  # no escape: the game is over or the seat is out (C6)
        return
    assert cost is not None and cost.seat == seat and cost.mode == config.escape_mode
    settlement = escape_and_settle(game, seat, balances, seed)
    if cost.mode == "settle":  # R10.2, C6.2: ends at once; every figure is exact
        assert settlement.result == "escape" and settlement.escaper == seat
        assert cost.charge == -settlement.deltas[seat]
        assert cost.fee == settlement.table_fees[seat]
        assert cost.penalty == settlement.penalty
        assert cost.settlement == settlement
    else:  # R10.1, C6.1: settled at the end; the penalty is known now, the rest is not
        assert cost.charge is None and cost.owed is None and cost.fee is None
        if game.seats == 2:
            assert cost.penalty == 0 and settlement.result != "escape"
        else:
            assert isinstance(settlement, TableSettlement)
            assert settlement.escaper == seat and -settlement.escape_payments[seat] == cost.penalty


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), turns=st.integers(0, 70), balance=st.integers(0, 5000))
def test_R10_3_two_seat_escape_cost_against_the_rule_written_out(seed: int, turns: int, balance: int) -> None:
    """R10.3, written out apart from the settlement code: D = X × escape_multiplier, plus,
    once the escaper has played a card, the normal loss X·b (b of the opponent's phase) and
    the opponent's contribution X·c (points room: no fee, no caps)."""
    game = played_game(POINTS, seed, turns)
    if game.finished:
        return
    seat = game.to_act
    other = 1 - seat
    balances = [balance, 1000]
    cost = game.escape_cost(seat, balances)
    assert cost is not None
    x = POINTS.match_points_for(*balances)
    expected = x * POINTS.escape_multiplier
    if any(play.seat == seat for play in game.plays):
        phase = scoring_phase(game.bombs(other), POINTS).phase
        expected += x * POINTS.doubling_for(phase) + x * POINTS.contribution_for(phase)
    assert (cost.charge, cost.owed, cost.fee, cost.penalty) == (expected, expected, 0, x * POINTS.escape_multiplier)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), turns=st.integers(0, 90), seat=st.integers(0, 3))
def test_C6_2_four_seat_escape_cost_against_the_rule_written_out(seed: int, turns: int, seat: int) -> None:
    """C6.2, written out: D = escape_double_wins × X × a(double) × b (b of the highest phase
    reached), plus X·c to each of the three others who earned a contribution (C5.5)."""
    game = played_game(CLASSIC_SETTLE, seed, turns)
    if game.finished or not game.hands[seat] or game.escaped is not None:
        return
    balances = [1000, 2000, 1500, 1000]
    cost = game.escape_cost(seat, balances)
    assert cost is not None
    config = CLASSIC_SETTLE
    x = config.match_points_for(*balances)
    phases = [scoring_phase(game.bombs(s), config).phase for s in range(4)]
    penalty = config.escape_double_wins * x * config.double_win * config.doubling_for(max(phases))
    contributions = sum(x * config.contribution_for(phases[s]) for s in range(4) if s != seat)
    assert (cost.penalty, cost.owed, cost.charge) == (penalty, penalty + contributions, penalty + contributions)


def test_R10_4_the_worked_example_is_the_cost_announced() -> None:
    """R10.4: A played a 6-phase bomb, B a 7-phase bomb; leaving costs A 20000, shown
    penalty 12000, owed 20000."""
    wealth = load_config("wealth")
    game = Game.from_hands(wealth, ["666666 3", "7777777 4"], leader=0)
    game.apply(Play.of(0, "666666"))
    game.apply(Play.of(1, "7777777"))
    cost = game.escape_cost(0, [700_000, 900_000])
    assert cost == EscapeCost(0, "settle", 12000, cost.settlement if cost else None)
    assert cost is not None
    assert cost.view() == {"mode": "settle", "penalty": 12000, "owed": 20000, "fee": 0, "charge": 20000}


def test_C6_no_escape_no_cost() -> None:
    """C6: a seat that is out, or any seat once another has escaped, is charged nothing for
    leaving; a finished game has no escape."""
    game = Game.from_hands(CLASSIC_HOST, ["3", "4 4", "5 5", "6 6"], leader=0)
    game.apply(Play.of(0, "3"))  # seat 0 is out
    assert game.escape_cost(0, [1000] * 4) is None
    cost = game.escape_cost(1, [1000] * 4)
    assert cost is not None and cost.penalty == 3 * 60 * 3  # P of C6.1
    game.apply(Escape(1))
    assert game.escape_cost(3, [1000] * 4) is None


@settings(max_examples=30, deadline=None)
@given(
    config=st.sampled_from(CONFIGS),
    seed=st.integers(0, 10_000),
    taken_back=st.sets(st.integers(0, 80), max_size=6),
    balances=st.lists(st.lists(st.integers(0, 700_000), min_size=4, max_size=4), min_size=1, max_size=2),
)
def test_R10_C6_a_kept_escape_cost_is_the_one_computed_anew(
    config: RoomConfig, seed: int, taken_back: set[int], balances: list[list[int]]
) -> None:
    """The costs a game keeps from one change to the next (:meth:`Game.escape_cost` is asked
    for every seat on every change) equal those computed anew on a copy of the game that
    keeps none, at every turn of a random game, for several balances, also after a move
    taken back (:meth:`Game.undo`) and another made instead."""
    game = Game.deal(config, seed)
    bots = [RandomBot(seed * 7 + seat) for seat in range(config.seats)]
    turn = 0
    while not game.finished:
        if turn in taken_back:  # a move made, its costs kept, then taken back
            game.apply(bot_action(game, bots[game.to_act]))
            for seat in range(game.seats):
                game.escape_cost(seat, balances[0][: game.seats])
            game.undo()
        fresh = Game.restore(game.to_record())
        for seat in range(game.seats):
            for each in balances:
                assert game.escape_cost(seat, each[: game.seats]) == fresh.escape_cost(seat, each[: game.seats])
                fresh = Game.restore(game.to_record())  # keeps nothing
        game.apply(bot_action(game, bots[game.to_act]))
        turn += 1


def test_R10_3_a_bomb_taken_back_and_another_played_changes_the_kept_cost() -> None:
    """R9.2, R10.3: a 6-card bomb played, its escape costs kept, taken back (:meth:`Game.undo`)
    and a 4-card bomb played instead at the same point: the costs are those of the 4-card
    bomb, as a game that kept none computes them."""
    game = Game.from_hands(POINTS, ["3333 444444 5 6", "7 8 9"], leader=0)
    balances = [1000, 1000]
    game.apply(Play.of(0, "444444"))
    six = [game.escape_cost(seat, balances) for seat in range(2)]
    game.undo()
    game.apply(Play.of(0, "3333"))
    four = [game.escape_cost(seat, balances) for seat in range(2)]
    fresh = Game.restore(game.to_record())
    assert four == [fresh.escape_cost(seat, balances) for seat in range(2)]
    assert four != six  # the bomb's phase counts (R9.2)
