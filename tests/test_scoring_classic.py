"""Four-seat scoring and settlement (RULES-CLASSIC C3.2, C4–C7), the money step shared
with the two-seat game (R9.5, R9.7, C5.7), and property tests for both."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shuangkou.games.shuangkou.combos import classify
from shuangkou.games.shuangkou.config import RoomConfig, load_config
from shuangkou.games.shuangkou.scoring import (
    TABLE_SEATS,
    BombPlay,
    ScoringError,
    Settlement,
    decided_result,
    partner_of,
    scoring_phase,
    settle_classic,
    settle_escape,
    settle_game,
    settle_nets,
    team_of,
)

CLASSIC = load_config("classic")
QIANBIAN = load_config("qianbian")
SETTLE = load_config("classic", {"escape_mode": "settle"})
WEALTH4 = load_config("wealth", {"seats": 4})  # escape_mode "settle", escape_share 0.7
AT_1000 = (1000, 1000, 1000, 1000)  # level 5, X = 60
NO_BOMBS: tuple[list[BombPlay], ...] = ([], [], [], [])


def played(by_seat: Mapping[int, Sequence[str]]) -> list[list[BombPlay]]:
    """Bombs per seat; seat s plays on plays s+1, s+5, s+9, ... (four seats in turn)."""
    return [
        [BombPlay(seat + 1 + 4 * i, classify(text)) for i, text in enumerate(by_seat.get(seat, ()))]
        for seat in range(TABLE_SEATS)
    ]


def phase_of(config: RoomConfig, *texts: str) -> int:
    return scoring_phase(played({0: texts})[0], config).phase


def refused(call: object, code: str = "bad_settlement") -> str:
    assert callable(call)
    with pytest.raises(ScoringError) as caught:
        call()
    assert caught.value.code == code
    return caught.value.message


# ---------------------------------------------------------------------------
# C7: every worked example


@pytest.mark.parametrize(
    ("order", "bombs", "result", "winners", "a", "b", "nets"),
    [
        ((0, 2), {}, "double", (0, 2), 3, 1, (180, -180, 180, -180)),
        ((1, 2, 3), {}, "single", (1, 3), 2, 1, (-120, 120, -120, 120)),
        ((0, 1, 3), {}, "draw", (0, 2), 1, 1, (60, -60, 60, -60)),
        ((0, 2), {1: ["777777"]}, "double", (0, 2), 3, 1, (60, 180, 60, -300)),
        ((3, 1), {3: ["55555"]}, "double", (1, 3), 3, 2, (-360, 360, -360, 360)),
    ],
)
def test_c7_worked_examples(
    order: tuple[int, ...],
    bombs: dict[int, list[str]],
    result: str,
    winners: tuple[int, int],
    a: int,
    b: int,
    nets: tuple[int, ...],
) -> None:
    s = settle_classic(CLASSIC, order, played(bombs), AT_1000)
    assert (s.result, s.winners, s.match_points, s.a, s.b) == (result, winners, 60, a, b)
    assert s.nets == s.deltas == nets
    assert s.house == 0 and s.levels == (5, 5, 5, 5)
    assert s.balances_after == tuple(1000 + net for net in nets)


def test_c7_row_4_seat_1_receives_x_c_from_each_of_the_other_three() -> None:
    s = settle_classic(CLASSIC, (0, 2), played({1: ["777777"]}), AT_1000)
    assert s.phases[1].phase == 6 and s.team_phases == (0, 6)
    assert s.contribution_multipliers == (0, 2, 0, 0)
    assert s.contributions == (0, 120, 0, 0)
    assert s.transfers == (180, -180, 180, -180)
    assert s.doubling_phase == 0  # team 1+3's phase 6 does not double team 0+2's win


# ---------------------------------------------------------------------------
# C1.1, C3.2: teams and results


def test_c1_1_teams_and_partners() -> None:
    assert [team_of(seat) for seat in range(4)] == [0, 1, 0, 1]
    assert [partner_of(seat) for seat in range(4)] == [2, 3, 0, 1]


@pytest.mark.parametrize(
    ("order", "result"),
    [
        ((), None),
        ((0,), None),
        ((0, 1), None),
        ((0, 2), "double"),
        ((3, 1), "double"),
        ((0, 1, 2), "single"),
        ((1, 0, 3), "single"),
        ((0, 1, 3), "draw"),
        ((0, 1, 3, 2), "draw"),  # C2.2: the fourth may be named
        ((2, 3, 0, 1), "single"),
    ],
)
def test_c3_2_the_finishing_order_decides_the_result(order: tuple[int, ...], result: str | None) -> None:
    assert decided_result(order) == result


def test_c3_2_orders_no_game_produces() -> None:
    assert "ended with a double" in refused(lambda: decided_result((0, 2, 1)))
    assert "goes out once" in refused(lambda: decided_result((0, 0)))
    refused(lambda: decided_result((4,)), "bad_seat")
    refused(lambda: decided_result((True, 2)), "bad_seat")


# ---------------------------------------------------------------------------
# C4: scoring phases


def test_c4_1_connected_pairs_only_when_enabled() -> None:
    assert phase_of(CLASSIC, "4444", "5555") == 4
    assert phase_of(load_config("classic", {"connected_pairs": True}), "4444", "5555") == 5
    assert phase_of(load_config("points"), "4444", "5555") == 5  # two seats: R8.2 always


@pytest.mark.parametrize(
    ("texts", "classic", "qianbian"),
    [
        (("666666", "777777"), 6, 7),  # two 6-phase -> 7 (C8)
        (("33333", "55555", "99999"), 5, 7),  # three 5-phase -> 7
        (("33333", "55555", "99999", "JJJJJ"), 5, 8),  # four 5-phase -> 8
        (("333333", "555555", "999999"), 6, 8),  # three 6-phase -> 8
        (("3333333", "9999999"), 7, 8),  # two 7-phase -> 8
        (("3333", "5555", "9999"), 4, 5),  # R8.3's rows stay
        (("33333", "55555"), 5, 6),
    ],
)
def test_c4_1_unconnected_bombs_with_the_qianbian_table(texts: tuple[str, ...], classic: int, qianbian: int) -> None:
    assert phase_of(CLASSIC, *texts) == classic
    assert phase_of(QIANBIAN, *texts) == qianbian


def test_c4_2_a_teams_phase_is_the_larger_of_its_players() -> None:
    s = settle_classic(CLASSIC, (0, 2), played({0: ["55555"], 2: ["666666"], 3: ["4444"]}), AT_1000)
    assert [p.phase for p in s.phases] == [5, 0, 6, 4]
    assert s.team_phases == (6, 4)
    assert (s.doubling_phase, s.b) == (6, 4)  # C5.3 from the team's phase: seat 2's bomb


# ---------------------------------------------------------------------------
# C5: settlement


def test_c5_1_match_points_from_the_lowest_of_the_four_levels() -> None:
    s = settle_classic(CLASSIC, (0, 2), NO_BOMBS, (1000, 2_000_000, 40, 1000))
    assert s.levels == (5, 16, 0, 5)
    assert s.match_points == 5
    assert s.deltas == (15, -15, 15, -15)


@pytest.mark.parametrize(("order", "amount"), [((0, 2), 240), ((0, 1, 2), 180), ((0, 1, 3), 120)])
def test_c5_2_result_multipliers_are_configured(order: tuple[int, ...], amount: int) -> None:
    config = load_config("classic", {"double_win": 4, "single_win": 3, "draw": 2})
    s = settle_classic(config, order, NO_BOMBS, AT_1000)
    assert s.deltas == (amount, -amount, amount, -amount)
    assert s.result_points == amount


def test_c5_2_the_draw_is_won_by_the_first_player_outs_team() -> None:
    s = settle_classic(CLASSIC, (1, 0, 2, 3), NO_BOMBS, AT_1000)
    assert (s.result, s.winners, s.a) == ("draw", (1, 3), 1)
    assert s.deltas == (-60, 60, -60, 60)


def test_c5_3_doubling_from_the_winning_team_or_the_whole_game() -> None:
    bombs = played({1: ["666666"]})
    s = settle_classic(CLASSIC, (0, 2), bombs, AT_1000)
    assert (s.b, s.result_points) == (1, 180)
    game = settle_classic(load_config("classic", {"doubling_from": "game"}), (0, 2), bombs, AT_1000)
    assert (game.doubling_phase, game.b, game.result_points) == (6, 4, 720)
    assert game.deltas == (720 - 120, -720 + 360, 720 - 120, -720 - 120)


def test_c5_4_every_loser_pays_and_every_winner_receives_x_a_b() -> None:
    s = settle_classic(CLASSIC, (1, 0, 3), played({3: ["777777"]}), AT_1000)
    assert (s.result, s.winners, s.a, s.b) == ("single", (1, 3), 2, 4)
    assert s.transfers == (-480, 480, -480, 480)


def test_c5_5_contributions_from_each_other_seat_partner_included_win_or_lose() -> None:
    bombs = played({0: ["666666", "777777"]})  # both phase 6; not connected in a classic room
    s = settle_classic(CLASSIC, (1, 3), bombs, AT_1000)
    assert s.phases[0].phase == 6 and s.contribution_multipliers == (2, 0, 0, 0)
    assert s.deltas == (-180 + 360, 180 - 120, -180 - 120, 180 - 120)
    summed = settle_classic(load_config("classic", {"contribution": "sum"}), (1, 3), bombs, AT_1000)
    assert summed.contribution_multipliers == (4, 0, 0, 0)
    assert summed.deltas == (-180 + 720, 180 - 240, -180 - 240, 180 - 240)


def test_c5_6_nets_sum_to_zero_then_fees_go_to_the_house() -> None:
    config = load_config("classic", {"table_fee": 10, "win_fee_share": 0.5})
    s = settle_classic(config, (0, 2), played({1: ["777777"]}), AT_1000)
    assert s.nets == (60, 180, 60, -300) and sum(s.nets) == 0
    assert s.table_fees == (10, 10, 10, 10)
    assert s.received == (60, 180, 60, 0)
    assert s.win_fees == (30, 90, 30, 0)  # R9.7: from what each receiver got (C5.7)
    assert s.deltas == (20, 80, 20, -310)
    assert s.house == 190


CAPPED_BOMBS = played({0: ["666666"]})  # wealth: c = 2, b = 2
CAPPED_BALANCES = (5000, 25, 5000, 100)  # X = 5: 25 coins are below the first level


def test_c5_7_what_capped_payers_pay_is_shared_in_proportion() -> None:
    s = settle_classic(WEALTH4, (0, 2), CAPPED_BOMBS, CAPPED_BALANCES)
    assert (s.match_points, s.a, s.b) == (5, 3, 2)
    assert s.nets == (60, -40, 20, -40)
    assert (s.dues, s.paid) == ((0, 40, 0, 40), (0, 25, 0, 40))
    assert s.capped
    # pot 65 over claims 80: 48.75 and 16.25, rounded down; the rest to the house
    assert s.received == (48, 0, 16, 0)
    assert s.deltas == (48, -25, 16, -40) and s.house == 1
    assert s.balances_after == (5048, 0, 5016, 60)


def test_c5_7_the_table_fee_first_then_the_caps_then_the_win_fee() -> None:
    config = WEALTH4.with_overrides({"table_fee": 10, "win_fee_share": 0.5})
    s = settle_classic(config, (0, 2), CAPPED_BOMBS, CAPPED_BALANCES)
    assert s.table_fees == (10, 10, 10, 10)
    assert s.paid == (0, 15, 0, 40)  # seat 1 holds 15 after the fee
    assert s.received == (41, 0, 13, 0)  # pot 55: 41.25 and 13.75
    assert s.win_fees == (20, 0, 6, 0)
    assert s.deltas == (41 - 10 - 20, -25, 13 - 10 - 6, -50)
    assert s.house == 40 + 1 + 26
    assert s.balances_after[1] == 0


def test_c5_7_a_fee_larger_than_a_balance_is_capped() -> None:
    config = WEALTH4.with_overrides({"table_fee": 10})
    s = settle_classic(config, (0, 2), NO_BOMBS, (5000, 3, 5000, 5000))
    assert s.table_fees == (10, 3, 10, 10)
    assert s.paid == (0, 0, 0, 15) and s.received == (7, 0, 7, 0)
    assert s.balances_after[1] == 0


def test_c5_8_breakdown_to_dict() -> None:
    s = settle_classic(CLASSIC, (0, 1, 3, 2), played({1: ["777777"], 3: ["4444"]}), AT_1000)
    data = json.loads(json.dumps(s.to_dict()))
    assert data["finish_order"] == [0, 1, 3, 2]
    assert (data["result"], data["winners"], data["match_points"], data["a"], data["b"]) == (
        "draw",
        [0, 2],
        60,
        1,
        1,
    )
    assert data["phases"][1]["phase"] == 6
    assert data["phases"][1]["bombs"][0]["reading"] == "7 7 7 7 7 7"
    assert data["phases"][3]["bombs"][0]["play_index"] == 4
    assert data["contributions"] == [0, 120, 0, 0]
    assert data["balances_before"] == [1000] * 4
    assert data["balances_after"] == [1000 + 60 - 120, 1000 - 60 + 360, 1000 + 60 - 120, 1000 - 60 - 120]
    assert data["escaper"] is None and data["penalty"] == 0 and data["capped"] is False


# ---------------------------------------------------------------------------
# C6: escape


def test_c6_1_host_mode_settles_normally_plus_the_penalty_half_to_each_opponent() -> None:
    s = settle_classic(CLASSIC, (0, 2), NO_BOMBS, AT_1000, escaper=1)
    assert (s.result, s.escaper, s.penalty) == ("double", 1, 3 * 60 * 3)
    assert s.escape_payments == (270, -540, 270, 0)
    assert s.deltas == (180 + 270, -180 - 540, 180 + 270, -180)
    assert s.house == 0


def test_c6_1_an_odd_penalty_leaves_one_to_the_house() -> None:
    s = settle_classic(CLASSIC, (0, 1, 2), NO_BOMBS, (40, 40, 40, 40), escaper=3)  # X = 5, P = 45
    assert s.escape_payments == (22, 0, 22, -45)
    assert s.deltas == (10 + 22, -10, 10 + 22, -10 - 45)
    assert s.house == 1


def test_c6_1_a_hosted_seat_may_go_out_and_win() -> None:
    s = settle_classic(CLASSIC, (1, 3), NO_BOMBS, AT_1000, escaper=1)
    assert s.winners == (1, 3)
    assert s.deltas == (-180 + 270, 180 - 540, -180 + 270, 180)


def test_c6_2_settle_mode_ends_the_game_with_d_to_both_opponents() -> None:
    # X = 1000; seat 1 escapes after a 7-phase bomb (b = 4 in wealth), seat 3 played 666666 (c = 2)
    bombs = played({1: ["7777777"], 3: ["666666"]})
    s = settle_classic(WEALTH4, (0,), bombs, (600_000,) * 4, escaper=1)
    assert (s.result, s.winners, s.escaper) == ("escape", (0, 2), 1)
    assert (s.match_points, s.a, s.doubling_phase, s.b) == (1000, 3, 7, 4)
    assert s.penalty == 3 * 1000 * 3 * 4 == 36_000
    assert s.escape_payments == (12_600, -36_000, 12_600, 0)  # 0.7 × D / 2 each; the partner none
    assert s.contribution_multipliers == (0, 0, 0, 2)  # the escaper's own is 0
    assert s.result_points == 0 and s.transfers == (0, 0, 0, 0)
    assert s.nets == (10_600, -38_000, 10_600, 6_000)
    assert s.deltas == s.nets and s.house == s.house_claim == 10_800
    assert s.win_fees == (0, 0, 0, 0)


def test_c6_2_points_share_is_whole_and_half_of_an_odd_d_rounds_down() -> None:
    s = settle_classic(SETTLE, (), NO_BOMBS, (40, 40, 40, 40), escaper=0)  # X = 5, b = 1: D = 45
    assert s.deltas == (-45, 22, 0, 22) and s.house == 1


def test_c6_2_b_from_the_highest_phase_any_player_reached() -> None:
    s = settle_classic(SETTLE, (2, 3), played({0: ["55555"]}), AT_1000, escaper=0)
    assert (s.doubling_phase, s.b, s.penalty) == (5, 2, 3 * 60 * 3 * 2)


def test_c6_2_escapes_no_game_produces() -> None:
    assert "no escape" in refused(lambda: settle_classic(SETTLE, (0,), NO_BOMBS, AT_1000, escaper=0))
    assert "was over" in refused(lambda: settle_classic(SETTLE, (0, 2), NO_BOMBS, AT_1000, escaper=1))
    refused(lambda: settle_classic(SETTLE, (), NO_BOMBS, AT_1000, escaper=4), "bad_seat")


def test_c6_3_caps_apply_to_escape_payments() -> None:
    # D = 45 (X = 5), the escaper holds 30: opponents claim 15.75 each, the house 13.5
    s = settle_classic(WEALTH4, (), NO_BOMBS, (600_000, 30, 600_000, 600_000), escaper=1)
    assert (s.dues[1], s.paid[1]) == (45, 30)
    assert s.deltas == (10, -30, 10, 0) and s.house == 10
    assert s.balances_after[1] == 0


# ---------------------------------------------------------------------------
# Bad input


def test_bad_input_is_refused_and_names_the_problem() -> None:
    points = load_config("points")
    assert "four-seat rooms" in refused(lambda: settle_classic(points, (0, 2), NO_BOMBS, AT_1000))
    assert "settle_classic" in refused(
        lambda: settle_game(CLASSIC, winner=0, loser_cards_left=3, bombs=([], []), balances=(0, 0))
    )
    assert "settle_classic" in refused(
        lambda: settle_escape(CLASSIC, escaper=0, escaper_played=True, bombs=([], []), balances=(0, 0))
    )
    assert "no result yet" in refused(lambda: settle_classic(CLASSIC, (0, 1), NO_BOMBS, AT_1000))
    assert "balances" in refused(lambda: settle_classic(CLASSIC, (0, 2), NO_BOMBS, (1000, 1000)))
    assert "bombs" in refused(lambda: settle_classic(CLASSIC, (0, 2), ([], []), AT_1000))
    assert "sum to zero" in refused(lambda: settle_nets(CLASSIC, (0, 0), (5, -4)))
    assert "one per seat" in refused(lambda: settle_nets(CLASSIC, (0, 0), (5, -5, 0)))
    refused(lambda: settle_nets(CLASSIC, (0, 0), (5, -5), win_fee_from=(2,)), "bad_seat")


# ---------------------------------------------------------------------------
# Properties

BOMB_TEXTS = ["4444", "5555", "99999", "666666", "777777", "SJ SJ BJ", "7777777", "444455556666", "88888888"]
COMBOS = {text: classify(text) for text in BOMB_TEXTS}
TABLE_CONFIGS = [
    load_config(
        edition,
        {
            "seats": 4,
            "contribution": contribution,
            "doubling_from": doubling,
            "count_unconnected": unconnected,
            "connected_pairs": unconnected,
            "table_fee": fee,
            "win_fee_share": share,
            "escape_mode": mode,
        },
    )
    for edition in ("points", "wealth")
    for contribution, doubling, unconnected, fee, share, mode in [
        ("max", "winner", False, 0, 0.0, "host"),
        ("sum", "game", True, 10, 0.05, "settle"),
        ("max", "game", True, 3, 0.5, "settle"),
        ("sum", "winner", False, 1000, 1.0, "host"),
    ]
]
balance_st = st.integers(min_value=-10_000, max_value=60_000_000)
bomb_texts = st.lists(st.sampled_from(BOMB_TEXTS), max_size=4)


@st.composite
def table_games(draw: st.DrawFn) -> tuple[RoomConfig, tuple[int, ...], int | None]:
    """A room, a finishing order and an escaper that a four-seat game can produce."""
    config = draw(st.sampled_from(TABLE_CONFIGS))
    seats = draw(st.permutations(range(TABLE_SEATS)))
    escaper = draw(st.one_of(st.none(), st.sampled_from(range(TABLE_SEATS))))
    if escaper is not None and config.escape_mode == "settle":
        before_escape = [seat for seat in seats if seat != escaper]
        order = before_escape[: draw(st.integers(min_value=0, max_value=2))]
        if decided_result(order) is not None:
            order = order[:1]
        return config, tuple(order), escaper
    ends = 2 if team_of(seats[0]) == team_of(seats[1]) else draw(st.sampled_from([3, 4]))
    return config, tuple(seats[:ends]), escaper


@given(
    game=table_games(),
    texts=st.lists(bomb_texts, min_size=4, max_size=4),
    balances=st.lists(balance_st, min_size=4, max_size=4),
)
def test_property_four_seats_zero_sum_and_caps(
    game: tuple[RoomConfig, tuple[int, ...], int | None], texts: list[list[str]], balances: list[int]
) -> None:
    config, order, escaper = game
    if not config.allow_negative:
        balances = [max(0, balance) for balance in balances]
    bombs = [[BombPlay(seat + 1 + 4 * i, COMBOS[t]) for i, t in enumerate(texts[seat])] for seat in range(4)]
    s = settle_classic(config, order, bombs, balances, escaper=escaper)
    assert sum(s.deltas) + s.house == 0  # R9.7: nothing appears or vanishes
    assert sum(s.nets) + s.house_claim == 0 and s.house_claim >= 0  # C5.6
    assert s.house >= 0
    for seat in range(4):
        assert 0 <= s.paid[seat] <= s.dues[seat] == max(0, -s.nets[seat])
        assert 0 <= s.received[seat] <= max(0, s.nets[seat])
        assert s.win_fees[seat] <= s.received[seat]
    if config.allow_negative:
        assert s.paid == s.dues and s.table_fees == (config.table_fee,) * 4
        assert s.deltas == tuple(s.nets[i] - s.table_fees[i] - s.win_fees[i] for i in range(4))
    else:
        assert min(s.balances_after) >= 0  # C5.7: coins never go negative


@given(
    nets=st.lists(st.integers(min_value=-50_000, max_value=50_000), min_size=3, max_size=6),
    balances=st.lists(st.integers(min_value=0, max_value=60_000), min_size=6, max_size=6),
)
def test_property_c5_7_the_pot_is_shared_in_proportion_to_the_nets(nets: list[int], balances: list[int]) -> None:
    nets = [*nets, -sum(nets)]
    balances = balances[: len(nets)] + [0] * (len(nets) - len(balances))
    p = settle_nets(WEALTH4, balances, nets)
    pot, claimed = sum(p.paid), sum(net for net in nets if net > 0)
    for net, got in zip(nets, p.received, strict=True):
        if net > 0:
            assert got == math.floor(Fraction(pot * net, claimed))  # every receiver reduced alike
    assert p.house == pot - sum(p.received) < max(1, sum(1 for net in nets if net > 0))


@given(
    config=st.sampled_from([WEALTH4, CLASSIC]),
    nets=st.lists(st.integers(min_value=-50_000, max_value=50_000), min_size=1, max_size=3),
    claim=st.integers(min_value=0, max_value=50_000),
    balances=st.lists(st.integers(min_value=0, max_value=60_000), min_size=4, max_size=4),
    win_fee_from=st.sets(st.integers(0, 3)),
)
def test_property_c5_7_whole_nets_pay_alike_as_ints_or_fractions(
    config: RoomConfig, nets: list[int], claim: int, balances: list[int], win_fee_from: set[int]
) -> None:
    """C5.7, R10.3: the money step computes exactly whatever the amounts' type: whole nets
    and claim given as ints (the fast path a whole escape share takes) pay what the same
    amounts as fractions pay."""
    nets = [*nets, -sum(nets) - claim]
    balances = balances[: len(nets)] + [0] * (len(nets) - len(balances))
    fees = {seat for seat in win_fee_from if seat < len(nets)}
    as_ints = settle_nets(config, balances, nets, house_claim=claim, win_fee_from=fees)
    as_fractions = settle_nets(
        config, balances, [Fraction(net) for net in nets], house_claim=Fraction(claim), win_fee_from=fees
    )
    assert as_ints == as_fractions


def r9_5_reference(
    balances: tuple[int, int],
    config: RoomConfig,
    payer: int,
    amount: int,
    receiver_share: Fraction,
    win_fee: bool,
) -> tuple[tuple[int, int], int, int, int, tuple[int, int], int]:
    """R9.5, R9.7 and R10.3 for two seats as RULES.md words them: the table fee from each
    (capped), the payer pays at most what it holds, the receiver gets what was paid (an
    escape: ``receiver_share`` of it, the rest to the house), then the winner's win fee."""
    held = list(balances)

    def capped(seat: int, owed: int) -> int:
        return owed if config.allow_negative else max(0, min(owed, held[seat]))

    fees = (capped(0, config.table_fee), capped(1, config.table_fee))
    held[0] -= fees[0]
    held[1] -= fees[1]
    paid = capped(payer, amount)
    got = math.floor(receiver_share * paid)
    fee = math.floor(Fraction(str(config.win_fee_share)) * got) if win_fee else 0
    held[payer] -= paid
    held[1 - payer] += got - fee
    return fees, paid, got, fee, (held[0], held[1]), sum(fees) + paid - got + fee


TWO_SEAT_CONFIGS = [
    load_config(edition, {"table_fee": fee, "win_fee_share": share, "escape_share": escape_share})
    for edition in ("points", "wealth")
    for fee, share, escape_share in [(0, 0.0, 1.0), (10, 0.05, 0.7), (3, 0.5, 0.33), (1000, 1.0, 0.0)]
]


@given(
    config=st.sampled_from(TWO_SEAT_CONFIGS),
    balances=st.tuples(balance_st, balance_st),
    payer=st.sampled_from([0, 1]),
    amount=st.integers(min_value=0, max_value=2_000_000),
    escape=st.booleans(),
    winner_receives=st.booleans(),
)
def test_property_the_shared_money_step_is_r9_5_for_two_seats(
    config: RoomConfig, balances: tuple[int, int], payer: int, amount: int, escape: bool, winner_receives: bool
) -> None:
    """C5.7 with two players is exactly R9.5 (and R9.7, R10.3's share)."""
    if not config.allow_negative:
        balances = (max(0, balances[0]), max(0, balances[1]))
    share = Fraction(str(config.escape_share)) if escape else Fraction(1)
    nets: list[Fraction | int] = [0, 0]
    nets[payer], nets[1 - payer] = -amount, share * amount
    win_fee_from = (1 - payer,) if winner_receives and not escape else ()
    p = settle_nets(config, balances, nets, house_claim=(1 - share) * amount, win_fee_from=win_fee_from)
    fees, paid, got, fee, after, house = r9_5_reference(balances, config, payer, amount, share, bool(win_fee_from))
    assert p.table_fees == fees
    assert p.paid[payer] == paid and p.received[1 - payer] == got
    assert p.win_fees[1 - payer] == fee
    assert p.balances_after == after and p.house == house


def check_against_reference(s: Settlement, config: RoomConfig) -> None:
    if s.payer is None:
        assert s.paid == s.received == s.win_fee == 0
        return
    share = Fraction(str(config.escape_share)) if s.result == "escape" else Fraction(1)
    fees, paid, got, fee, after, house = r9_5_reference(
        s.balances_before, config, s.payer, s.due, share, s.result != "escape" and s.payer != s.winner
    )
    assert (s.table_fees, s.paid, s.received, s.win_fee, s.balances_after, s.house) == (
        fees,
        paid,
        got,
        fee,
        after,
        house,
    )


@given(
    config=st.sampled_from(TWO_SEAT_CONFIGS),
    winner=st.sampled_from([0, 1]),
    cards_left=st.integers(min_value=1, max_value=27),
    texts=st.tuples(bomb_texts, bomb_texts),
    balances=st.tuples(balance_st, balance_st),
    escape=st.sampled_from([None, False, True]),
)
def test_property_two_seat_settlements_follow_r9_5(
    config: RoomConfig,
    winner: int,
    cards_left: int,
    texts: tuple[list[str], list[str]],
    balances: tuple[int, int],
    escape: bool | None,
) -> None:
    """settle_game and settle_escape, through the shared money step, pay as R9.5 says."""
    if not config.allow_negative:
        balances = (max(0, balances[0]), max(0, balances[1]))
    bombs = [[BombPlay(seat + 1 + 2 * i, COMBOS[t]) for i, t in enumerate(texts[seat])] for seat in (0, 1)]
    if escape is None:
        s = settle_game(config, winner=winner, loser_cards_left=cards_left, bombs=bombs, balances=balances)
    else:
        s = settle_escape(config, escaper=1 - winner, escaper_played=escape, bombs=bombs, balances=balances)
    check_against_reference(s, config)
