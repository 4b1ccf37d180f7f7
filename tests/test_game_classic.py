"""The four-seat classic game in the one state machine (RULES-CLASSIC C1–C3, C6; shared
rules by their R id)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shuangkou.cards import DECK, format_cards
from shuangkou.games.shuangkou.config import RoomConfig, load_config
from shuangkou.games.shuangkou.game import Escape, Game, GameError, GameRecord, HostedTurn, Hosting, Pass, Play, Timeout
from shuangkou.games.shuangkou.scoring import partner_of, team_of

CLASSIC = load_config("classic")
MANUAL = load_config("classic", {"auto_pass": False})  # every pass by hand, to follow C2.1 step by step


def classic(**overrides: object) -> RoomConfig:
    return load_config("classic", overrides)


def kinds(events: list) -> list[tuple[str, int | None]]:  # type: ignore[type-arg]
    return [(event.type, event.seat) for event in events]


# ---------------------------------------------------------------------------
# C1: seats, teams, deal


def test_C1_2_four_hands_of_27_and_nothing_unseen() -> None:
    game = Game.deal(CLASSIC, seed=5)
    assert [len(hand) for hand in game.hands] == [27] * 4
    assert game.unseen == ()
    assert sorted(card for hand in game.hands for card in hand) == sorted(DECK)


def test_C1_3_the_flip_card_is_one_of_the_108_and_its_holder_leads() -> None:
    leaders = set()
    for seed in range(40):
        game = Game.deal(CLASSIC, seed=seed)
        assert game.flip_card in game.hands[game.leader] and game.to_act == game.leader
        leaders.add(game.leader)
    assert leaders == {0, 1, 2, 3}


def test_C1_3_winner_variant_the_previous_first_out_leads() -> None:
    room = classic(first_player="winner")
    assert {Game.deal(room, seed=seed, previous_winner=3).leader for seed in range(10)} == {3}


def test_C1_3_after_a_double_win_or_an_ended_escape_the_flip_card_decides_again() -> None:
    double = _finished(MANUAL, [[0], [2]])  # 0 then 2 out: a double win
    assert double.result == "double" and double.leads_next is None
    single = _finished(MANUAL, [[0], [1], [2]])
    assert single.result == "single" and single.leads_next == 0
    escaped = Game.from_hands(classic(escape_mode="settle"), ["3", "4", "5", "6"])
    escaped.apply(Escape(1))
    assert escaped.leads_next is None


def test_C1_1_teams_and_play_order() -> None:
    game = Game.from_hands(MANUAL, ["3 3", "4 4", "5 5", "6 6"], leader=2)
    assert [game.team(seat) for seat in range(4)] == [0, 1, 0, 1]
    assert game.view(0)["teams"] == [0, 1, 0, 1]
    game.apply(Play.of(2, "5"))
    assert game.to_act == 3  # seat i to seat i + 1 mod 4
    game.apply(Play.of(3, "6"))
    assert game.to_act == 0


@pytest.mark.parametrize("seed", range(60))
def test_C1_4_partner_by_flip_puts_the_other_copy_opposite_the_leader(seed: int) -> None:
    room = classic(partner_by_flip=True)
    plain, swapped = Game.deal(CLASSIC, seed=seed), Game.deal(room, seed=seed)
    assert plain.flip_card == swapped.flip_card and plain.leader == swapped.leader
    flip = swapped.flip_card
    assert flip is not None
    other = next(card for card in DECK if card == flip.__class__(flip.rank, flip.suit, 1 - (flip.deck or 0)))
    holder = next(seat for seat in range(4) if other in plain.hands[seat])
    leader = plain.leader
    if holder in (leader, partner_of(leader)):
        assert swapped.swap is None and swapped.hands == plain.hands
        assert [event.type for event in swapped.events] == ["deal"]
    else:
        assert swapped.swap == (holder, partner_of(leader))
        assert swapped.hands[partner_of(leader)] == plain.hands[holder]
        assert swapped.hands[holder] == plain.hands[partner_of(leader)]
        assert other in swapped.hands[partner_of(leader)]
        assert [event.type for event in swapped.events] == ["deal", "swap"]
        assert swapped.events[1].to_dict() == {"type": "swap", "seat": holder, "with": partner_of(leader)}
        assert swapped.view(None)["swap"] == [holder, partner_of(leader)]


def test_C1_4_some_deals_swap_and_some_do_not() -> None:
    room = classic(partner_by_flip=True)
    swaps = [Game.deal(room, seed=seed).swap for seed in range(60)]
    assert any(swap is None for swap in swaps) and any(swap is not None for swap in swaps)


def test_C1_4_a_game_led_by_the_previous_winner_still_draws_a_flip_card_for_the_swap() -> None:
    room = classic(first_player="winner", partner_by_flip=True)
    swaps = []
    for seed in range(30):
        game = Game.deal(room, seed=seed, previous_winner=1)
        flip = game.flip_card
        assert game.leader == 1 and flip is not None and game.view(None)["flip_card"] == str(flip)
        other = next(card for card in DECK if card.rank == flip.rank and card.suit == flip.suit and card != flip)
        assert other in game.hands[1] or other in game.hands[partner_of(1)]
        swaps.append(game.swap)
    assert any(swap is None for swap in swaps) and any(swap is not None for swap in swaps)


# ---------------------------------------------------------------------------
# C2: rounds, going out, 接风


def test_C2_1_a_pass_does_not_end_the_round_and_a_passer_may_play_again() -> None:
    game = Game.from_hands(MANUAL, ["3 9", "4 10", "5 J", "6 Q"], leader=0)
    game.apply(Play.of(0, "3"))
    game.apply(Pass(1))
    assert game.table is not None and game.to_act == 2  # the round goes on
    game.apply(Play.of(2, "5"))
    game.apply(Pass(3))
    game.apply(Pass(0))
    assert game.to_act == 1 and game.table is not None
    game.apply(Play.of(1, "10"))  # seat 1 passed before and plays again in the same round
    assert game.table is not None and game.table.seat == 1


def test_C2_1_the_round_ends_when_every_other_seat_holding_cards_has_passed() -> None:
    game = Game.from_hands(MANUAL, ["3 9", "4 10", "5 J", "6 Q"], leader=0)
    game.apply(Play.of(0, "9"))
    for seat in (1, 2):
        game.apply(Pass(seat))
        assert game.table is not None
    game.apply(Pass(3))
    assert game.table is None and game.to_act == 0  # the last player leads (R2.4)
    with pytest.raises(GameError) as refused:
        game.apply(Pass(0))
    assert refused.value.code == "pass_on_lead"


def test_C2_2_a_player_out_is_skipped_and_takes_the_next_place() -> None:
    game = Game.from_hands(MANUAL, ["3", "4 4 10", "5 5 J", "6 6 Q"], leader=0)
    events = game.apply(Play.of(0, "3"))
    assert ("out", 0) in kinds(events) and events[-1].to_dict() == {"type": "out", "seat": 0, "place": 1}
    assert game.finish_order == [0] and not game.finished and game.to_act == 1
    game.apply(Play.of(1, "10"))
    game.apply(Pass(2))
    game.apply(Pass(3))
    assert game.to_act == 1  # seat 0 is skipped: 1 leads again, its play stood
    game.apply(Play.of(1, "4"))
    game.apply(Play.of(2, "5"))
    assert game.to_act == 3
    game.apply(Play.of(3, "6"))
    assert game.to_act == 1  # 3 → 0 (out) → 1


@pytest.mark.parametrize("jiefeng", [True, False])
def test_C2_3_jiefeng_the_partner_of_the_player_out_takes_the_lead(jiefeng: bool) -> None:
    room = load_config("classic", {"auto_pass": False, "jiefeng": jiefeng})
    game = Game.from_hands(room, ["A", "4 4", "5 5", "6 6"], leader=0)
    game.apply(Play.of(0, "A"))  # out, first
    game.apply(Pass(1))
    game.apply(Pass(2))
    events = game.apply(Pass(3))
    assert game.table is None
    if jiefeng:
        assert game.to_act == 2 and events[-1].to_dict() == {"type": "jiefeng", "seat": 2}
    else:
        assert game.to_act == 1 and "jiefeng" not in [event.type for event in events]  # next seat after the out player


def test_C2_3_a_beaten_last_play_gives_no_jiefeng() -> None:
    game = Game.from_hands(MANUAL, ["5", "6 4", "3 3", "7 7"], leader=0)
    game.apply(Play.of(0, "5"))  # out
    game.apply(Play.of(1, "6"))
    game.apply(Pass(2))
    game.apply(Pass(3))
    assert game.table is None and game.to_act == 1  # seat 1's play stood: seat 1 leads


def test_R2_6_C2_4_auto_pass_passes_each_seat_that_cannot_beat_in_turn() -> None:
    game = Game.from_hands(CLASSIC, ["A 3", "4 4", "5 5", "6 6"], leader=0)
    events = game.apply(Play.of(0, "A"))
    assert [(event.type, event.seat, event.cause) for event in events[1:]] == [
        ("pass", 1, "auto_pass"), ("pass", 2, "auto_pass"), ("pass", 3, "auto_pass"),
    ]
    assert game.table is None and game.to_act == 0


def test_C2_4_timeouts_and_hosting_count_for_each_seat_apart() -> None:
    """R11.2, R11.3, R11.5 and R11.6 seat by seat: each seat's timeouts are its own, and
    hosting switches on for the seat that reached ``max_timeouts`` only."""
    room = classic(auto_pass=False, max_timeouts=2)
    game = Game.from_hands(room, ["3 5 7 9 J", "4 6 8 10 Q", "3 4", "6 6"], leader=0)
    game.apply(Timeout(0))  # on a lead: the lowest single
    game.apply(Timeout(1))  # on a follow: the weakest single that beats it
    game.apply(Hosting(2, True, "disconnect"))
    game.apply(HostedTurn(2))  # nothing beats the 4: hosting passes
    game.apply(Pass(3))
    events = game.apply(Timeout(0))  # seat 0's second timeout: hosting on for seat 0
    assert game.timeouts == [2, 1, 0, 0] and game.hosting == [True, False, True, False]
    assert [(event.type, event.seat, event.cause) for event in game.events[1:]] == [
        ("timeout", 0, None), ("play", 0, "timeout"),
        ("timeout", 1, None), ("play", 1, "timeout"),
        ("hosting", 2, "disconnect"), ("pass", 2, "hosting"),
        ("pass", 3, "player"),
        ("timeout", 0, None), ("play", 0, "timeout"), ("hosting", 0, "timeout"),
    ]
    assert [str(event.combo) for event in game.events if event.type == "play"] == ["single 3", "single 4", "single 5"]
    assert events[-1].to_dict() == {"type": "hosting", "seat": 0, "cause": "timeout", "on": True}
    assert game.to_act == 1


# ---------------------------------------------------------------------------
# C3.2: the end as soon as the result is decided


def _finished(room: RoomConfig, outs: list[list[int]]) -> Game:
    """Seats go out in the order of ``outs``, each with one single that beats the one
    before (9, 10, J); the others hold low cards and pass."""
    order = [group[0] for group in outs]
    singles = dict(zip(order, ["9", "10", "J"], strict=False))
    hands = [singles.get(seat, "3 3 4 4") for seat in range(4)]
    game = Game.from_hands(room, hands, leader=order[0])
    for seat in order:
        while game.to_act != seat:
            game.apply(Pass(game.to_act) if game.table is not None else Play.of(game.to_act, "3"))
        game.apply(Play.of(seat, singles[seat]))
    return game


@pytest.mark.parametrize(
    ("outs", "result", "order", "winners"),
    [
        ([0, 2], "double", [0, 2], (0, 2)),
        ([1, 3], "double", [1, 3], (1, 3)),
        ([0, 1, 2], "single", [0, 1, 2, 3], (0, 2)),
        ([3, 0, 1], "single", [3, 0, 1, 2], (1, 3)),
        ([0, 1, 3], "draw", [0, 1, 3, 2], (0, 2)),
        ([1, 2, 0], "draw", [1, 2, 0, 3], (1, 3)),
    ],
)
def test_C3_2_C2_2_results_and_finishing_order(
    outs: list[int], result: str, order: list[int], winners: tuple[int, ...]
) -> None:
    game = _finished(MANUAL, [[seat] for seat in outs])
    assert game.finished and game.result == result
    assert game.finish_order == order and game.winners == winners and game.winner == outs[0]
    assert game.events[-1].type == "end" and game.events[-1].seat == outs[0]
    view = game.view(0)
    assert view["finish_order"] == order and view["winners"] == list(winners) and view["result"] == result


def test_C3_2_the_game_goes_on_after_two_players_of_different_teams_are_out() -> None:
    game = Game.from_hands(MANUAL, ["3", "4", "5 5 K", "6 6 K"], leader=0)
    game.apply(Play.of(0, "3"))
    game.apply(Play.of(1, "4"))
    assert game.finish_order == [0, 1] and not game.finished and game.result is None
    with pytest.raises(GameError) as refused:
        game.apply(Play.of(1, "4"))
    assert refused.value.code == "not_your_turn"


def test_C3_1_classic_jokers_are_not_wild_and_three_jokers_are_no_bomb() -> None:
    game = Game.from_hands(CLASSIC, ["4 4 4 BJ 3", "SJ SJ BJ 5", "6 6", "7 7"], leader=0)
    with pytest.raises(GameError) as refused:
        game.check(Play.of(0, "4 4 4 BJ"))
    assert refused.value.code == "invalid_combination"
    with pytest.raises(GameError):
        Game.from_hands(CLASSIC, ["3", "SJ SJ BJ", "6", "7"], leader=1).check(Play.of(1, "SJ SJ BJ"))
    big = Game.from_hands(load_config("qianbian"), ["4 4 4 BJ 3", "5", "6", "7"], leader=0)
    assert big.apply(Play.of(0, "4 4 4 BJ"))[0].combo.is_bomb  # 千变: big jokers wild


# ---------------------------------------------------------------------------
# C6: escape


def test_C6_1_host_mode_the_escaper_is_hosted_and_the_three_play_on() -> None:
    game = Game.from_hands(MANUAL, ["3 3", "4 4", "5 5", "6 6"], leader=0)
    events = game.apply(Escape(2))
    assert kinds(events) == [("escape", 2), ("hosting", 2)]
    assert not game.finished and game.escaped == 2 and game.hosting[2]
    with pytest.raises(GameError) as refused:
        game.apply(Escape(1))
    assert refused.value.code == "escaped"  # one escape per game


def test_C6_2_settle_mode_ends_the_game_at_once() -> None:
    game = Game.from_hands(classic(escape_mode="settle"), ["3 3", "4 4", "5 5", "6 6"], leader=0)
    game.apply(Play.of(0, "3 3"))
    events = game.apply(Escape(3))
    assert game.finished and game.result == "escape" and game.winner is None
    assert game.winners == (0, 2)
    assert events[-1].to_dict() == {"type": "end", "cause": "escape", "cards_left": 6}  # all cards still held
    settlement = game.settle_table([1000] * 4)
    assert settlement.result == "escape" and settlement.escaper == 3


def test_C6_leaving_after_going_out_is_no_escape() -> None:
    game = Game.from_hands(MANUAL, ["3", "4 4", "5 5", "6 6"], leader=0)
    game.apply(Play.of(0, "3"))
    with pytest.raises(GameError) as refused:
        game.apply(Escape(0))
    assert refused.value.code == "escaped"


# ---------------------------------------------------------------------------
# Views, records, undo, settlement


def test_views_show_only_the_own_hand_partner_included() -> None:
    game = Game.deal(CLASSIC, seed=3)
    for seat in range(4):
        view = game.view(seat)
        assert view["hand"] == [str(card) for card in game.hands[seat]]
        assert view["cards_left"] == [27] * 4
        text = repr({key: value for key, value in view.items() if key != "hand"})
        for other in range(4):
            if other != seat:
                assert not set(map(str, game.hands[other])) <= set(view["hand"])
        assert "hand" not in game.view(None) and "'hand'" not in text
        assert view["revealed"] is None  # hands are shown only once the game is over (C5.8)


def test_settle_table_for_a_finished_game_pays_by_the_finishing_order() -> None:  # C5, C7 row 1
    game = _finished(MANUAL, [[0], [2]])
    settlement = game.settle_table([1000] * 4)
    assert settlement.result == "double" and list(settlement.nets) == [180, -180, 180, -180]
    assert sum(settlement.deltas) + settlement.house == 0
    with pytest.raises(GameError) as refused:
        game.settle([1000, 1000])
    assert refused.value.code == "bad_config"


def _shows(data: object, cards: list[str]) -> bool:
    """Whether ``data`` (JSON-like) holds a hand of exactly ``cards``, as a list of card
    strings or one card string, anywhere inside."""
    if data == cards or data == " ".join(cards):
        return True
    if isinstance(data, dict):
        return any(_shows(value, cards) for value in data.values())
    if isinstance(data, list | tuple):
        return any(_shows(item, cards) for item in data)
    return False


def test_C5_8_once_the_game_is_over_every_hand_still_held_is_revealed() -> None:
    game = _finished(MANUAL, [[0], [1], [2]])  # single win; seat 3 and nobody else still holds cards
    assert game.finished and game.hands[3]
    held = [str(card) for card in game.hands[3]]
    result = game.settle_table([1000] * 4).to_dict()
    for seat in (0, 1, 2, None):
        assert _shows(game.view(seat), held) or _shows(result, held), f"seat {seat} is not shown seat 3's hand"


def test_a_record_restores_the_game_swap_included() -> None:
    room = classic(partner_by_flip=True)
    seed = next(seed for seed in range(100) if Game.deal(room, seed=seed).swap is not None)
    game = Game.deal(room, seed=seed)
    chance = random.Random(seed)
    for _ in range(60):
        if game.finished:
            break
        moves = game.legal_moves()
        lead_or_play = moves and (game.table is None or chance.random() < 0.5)
        game.apply(Play.move(game.to_act, chance.choice(moves)) if lead_or_play else Pass(game.to_act))
    record = game.to_record()
    assert record.swap == game.swap and record.to_dict()["swap"] == list(game.swap or ())
    again = Game.restore(GameRecord.from_dict(record.to_dict()))
    assert [format_cards(hand) for hand in again.hands] == [format_cards(hand) for hand in game.hands]
    assert [event.to_dict() for event in again.events] == [event.to_dict() for event in game.events]
    assert again.swap == game.swap
    assert again.finish_order == game.finish_order and again.to_act == game.to_act


def test_records_of_four_seats_are_checked() -> None:
    record = Game.from_hands(CLASSIC, ["3", "4", "5", "6"]).to_record().to_dict()
    for key, value, problem in [
        ("hands", ["3", "4"], "4 card strings"),
        ("leader", 4, "a seat 0 to 3"),
        ("swap", [0, 9], "'swap' must be two seats"),
    ]:
        with pytest.raises(GameError) as refused:
            GameRecord.from_dict({**record, key: value})
        assert refused.value.code == "bad_record" and problem in refused.value.message


def test_from_hands_wants_one_hand_per_seat() -> None:
    with pytest.raises(GameError) as refused:
        Game.from_hands(CLASSIC, ["3", "4"])
    assert refused.value.code == "bad_hands" and "4 hands" in refused.value.message
    with pytest.raises(GameError) as wrong_seat:
        Game.from_hands(CLASSIC, ["3", "4", "5", "6"], leader=4)
    assert wrong_seat.value.code == "bad_seat"
    with pytest.raises(GameError) as wrong_action:
        Game.from_hands(CLASSIC, ["3", "4", "5", "6"]).check(Pass(5))
    assert wrong_action.value.code == "bad_seat"


# ---------------------------------------------------------------------------
# Random games to the end: the invariants


def _random_game(room: RoomConfig, seed: int) -> Game:
    chance = random.Random(seed)
    game = Game.deal(room, seed=seed)
    while not game.finished:
        seat = game.to_act
        roll = chance.random()
        if roll < 0.01 and game.escaped is None:
            game.apply(Escape(chance.choice([other for other in range(4) if game.hands[other]])))
            continue
        if roll < 0.04:
            if game.escaped != seat:
                game.apply(Hosting(seat, not game.hosting[seat]))
            else:
                game.apply(HostedTurn(seat))  # an escaper stays hosted (R10.1)
            continue
        if game.hosting[seat]:
            game.apply(HostedTurn(seat))
        elif roll < 0.06:
            game.apply(Timeout(seat))
        else:
            moves = game.legal_moves()
            if moves and (game.table is None or roll < 0.7):
                game.apply(Play.move(seat, chance.choice(moves)))
            else:
                game.apply(Pass(seat))
    return game


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10**9), room=st.sampled_from(["classic", "qianbian"]), mode=st.sampled_from(["host", "settle"])
)
def test_random_four_seat_games_keep_the_invariants(seed: int, room: str, mode: str) -> None:
    config = load_config(room, {"escape_mode": mode})
    game = _random_game(config, seed)
    dealt = Game.deal(config, seed=seed).hands
    # every card dealt once, every card played at most once and from its holder's hand
    assert sorted(card for hand in dealt for card in hand) == sorted(DECK)
    played = [card for play in game.plays for card in play.cards]
    assert len(played) == len(set(played))
    for play in game.plays:
        assert set(play.cards) <= set(dealt[play.seat])
    # the finishing order matches the hands: exactly the seats out, in the order they went out
    order = game.finish_order
    outs = [event.seat for event in game.events if event.type == "out"]
    assert outs == order[: len(outs)]
    assert all(not game.hands[seat] for seat in outs)
    assert all(game.hands[seat] for seat in range(4) if seat not in outs)
    if game.result != "escape":
        assert game.result in ("double", "single", "draw")
        assert team_of(order[0]) == team_of(game.winners[0])
    # no view shows another hand; each seat's tracker counts exactly the cards the other three hold
    for seat in range(4):
        view = game.view(seat)
        assert view["hand"] == [str(card) for card in game.hands[seat]]
        others = [card.rank.symbol for other in range(4) if other != seat for card in game.hands[other]]
        assert view["tracker"] == {rank: others.count(rank) for rank in view["tracker"]}
    assert "hand" not in game.view(None)
    # the settlement sums to zero with the house; the record replays to the same game
    settlement = game.settle_table([1000, 800, 3000, 20])
    assert sum(settlement.deltas) + settlement.house == 0
    again = Game.restore(game.to_record())
    assert [event.to_dict() for event in again.events] == [event.to_dict() for event in game.events]
    assert again.finish_order == order
    # undo takes everything back to the deal
    while game.actions:
        game.undo()
    assert game.hands == Game.deal(config, seed=seed).hands and game.finish_order == [] and game.passes == 0
