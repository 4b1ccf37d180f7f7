"""The game state machine (RULES §1-2, R7.1, R10, R11)."""

from __future__ import annotations

import json
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shuangkou.cards import DECK, Rank, counts_of
from shuangkou.games.shuangkou.bots import GreedyBot, HostingBot, RandomBot, bot_action
from shuangkou.games.shuangkou.config import load_config
from shuangkou.games.shuangkou.game import Escape, Game, GameError, GameRecord, HostedTurn, Hosting, Pass, Play, Timeout
from shuangkou.simulate import play_game

POINTS = load_config("points")


def config(**overrides: object):  # type: ignore[no-untyped-def]
    return load_config("points", overrides)


def test_R1_1_two_players_no_partner_the_opponent_is_the_other() -> None:
    game = Game.from_hands(POINTS, ["3", "4 5"], leader=0)
    assert game.seats == 2 and [game.team(seat) for seat in (0, 1)] == [0, 1]  # each seat its own side
    assert game.view(None)["teams"] == [0, 1]
    with pytest.raises(GameError) as refused:
        Game.from_hands(POINTS, ["3", "4", "5", "6"])
    assert refused.value.code == "bad_hands"
    game.apply(Play.of(0, "3"))
    assert game.winners == (0,)  # the winner alone: no partner shares the win
    settlement = game.settle([1000, 1000])
    assert settlement.payer == 1 and settlement.deltas == (60, -60)  # the one opponent pays


def test_R1_3_deal_27_each_54_unseen_from_108() -> None:
    game = Game.deal(POINTS, seed=7)
    assert [len(hand) for hand in game.hands] == [27, 27]
    assert len(game.unseen) == 54
    everything = sorted(game.hands[0] + game.hands[1] + list(game.unseen))
    assert everything == sorted(DECK)


def test_R1_4_same_seed_same_game_and_secure_default_differs() -> None:
    first, second = Game.deal(POINTS, seed=42), Game.deal(POINTS, seed=42)
    assert first.hands == second.hands and first.flip_card == second.flip_card
    assert Game.deal(POINTS, seed=43).hands != first.hands
    unseeded = [Game.deal(POINTS).hands[0] for _ in range(3)]
    assert unseeded[0] != unseeded[1] or unseeded[1] != unseeded[2]


def test_R2_1_flip_card_holder_leads() -> None:
    for seed in range(20):
        game = Game.deal(POINTS, seed=seed)
        assert game.flip_card in game.hands[game.leader]
        assert game.to_act == game.leader


def test_R2_1_winner_variant_previous_winner_leads() -> None:
    room = config(first_player="winner")
    leaders = {Game.deal(room, seed=seed, previous_winner=1).leader for seed in range(10)}
    assert leaders == {1}
    flipped = Game.deal(room, seed=3)  # a table's first game: flip
    assert flipped.flip_card in flipped.hands[flipped.leader]


def test_R2_2_R2_3_lead_then_follow_must_beat() -> None:
    game = Game.from_hands(POINTS, ["3 4 5 6 7 9 9", "4 5 6 7 8 10 10 K"], leader=0)
    events = game.apply(Play.of(0, "3 4 5 6 7"))
    assert events[0].type == "play" and events[0].combo is not None
    assert game.to_act == 1
    with pytest.raises(GameError) as refused:
        game.apply(Play.of(1, "10 10"))
    assert refused.value.code == "does_not_beat"
    events = game.apply(Play.of(1, "4 5 6 7 8"))
    # seat 0 holds nothing that beats 4-8: auto-pass (R2.6) gives seat 1 the lead
    assert [event.type for event in events] == ["play", "pass"]
    assert game.to_act == 1 and game.table is None


def test_R2_4_pass_gives_the_lead_to_the_last_player_and_no_pass_on_lead() -> None:
    game = Game.from_hands(config(auto_pass=False), ["3 9", "4 5"], leader=0)
    with pytest.raises(GameError) as refused:
        game.apply(Pass(0))
    assert refused.value.code == "pass_on_lead"
    game.apply(Play.of(0, "3"))
    game.apply(Pass(1))
    assert game.table is None and game.to_act == 0


def test_R2_5_empty_hand_wins_and_nothing_after_the_end() -> None:
    game = Game.from_hands(POINTS, ["3", "4 5 6"], leader=0)
    game.apply(Play.of(0, "3"))
    assert game.finished and game.winner == 0 and game.result == "flat"
    with pytest.raises(GameError) as refused:
        game.apply(Play.of(1, "4"))
    assert refused.value.code == "game_over"


def test_R2_6_auto_pass_when_nothing_beats() -> None:
    game = Game.from_hands(POINTS, ["2 3", "4 5"], leader=0)
    events = game.apply(Play.of(0, "2"))
    assert [event.type for event in events] == ["play", "pass"]
    assert events[1].cause == "auto_pass" and events[1].seat == 1
    assert game.to_act == 0


def test_R2_6_auto_pass_off_waits_for_the_player() -> None:
    game = Game.from_hands(config(auto_pass=False), ["2 3", "4 5"], leader=0)
    events = game.apply(Play.of(0, "2"))
    assert [event.type for event in events] == ["play"]
    assert game.to_act == 1


@settings(max_examples=20, deadline=None)
@given(st.integers(min_value=0, max_value=2**32), st.booleans())
def test_R2_7_the_two_players_alternate_whoever_leads(seed: int, auto_pass: bool) -> None:
    """Every play and pass is made by the other seat than the one before it: after a play
    the opponent acts, and after a pass the opponent leads (R2.3, R2.4)."""
    game = play_game(config(auto_pass=auto_pass), [RandomBot(seed), RandomBot(seed + 1)], seed)
    turns = [event.seat for event in game.events if event.type in ("play", "pass")]
    assert turns[0] == game.leader
    assert all(seat != previous for previous, seat in pairwise(turns))


def test_R11_1_auto_pass_is_no_timeout_and_switches_no_hosting_on() -> None:
    """The automatic pass is made for the player at once and counts nowhere: a seat that
    cannot beat the table, turn after turn, is never timed out nor hosted (R11.3)."""
    game = Game.from_hands(config(max_timeouts=1), ["2 2 2 BJ 3 3 3", "4 5 6"], leader=0)
    for single in ("2", "2", "2", "BJ"):
        events = game.apply(Play.of(0, single))
        assert [(event.type, event.seat, event.cause) for event in events] == [
            ("play", 0, "player"), ("pass", 1, "auto_pass"),
        ]
    assert game.timeouts == [0, 0] and game.hosting == [False, False]
    assert game.to_act == 0 and game.turn_key == (0, 4, True)


def test_illegal_actions_raise_and_change_nothing() -> None:
    game = Game.from_hands(POINTS, ["3 3 4 SJ", "5 6 7"], leader=0)
    before = (game.view(0), game.view(1), game.seq)
    cases = [
        (Play.of(1, "5"), "not_your_turn"),
        (Play.of(0, "9"), "cards_not_held"),
        (Play.of(0, "3 3 3"), "cards_not_held"),
        (Play.of(0, "3 4"), "invalid_combination"),
        (Play.of(0, "3 3 SJ", "straight"), "invalid_combination"),
        (Pass(0), "pass_on_lead"),
        (HostedTurn(0), "not_hosted"),
        (Play(0, ()), "no_cards"),
    ]
    for action, code in cases:
        with pytest.raises(GameError) as refused:
            game.apply(action)
        assert refused.value.code == code, action
    assert (game.view(0), game.view(1), game.seq) == before


def test_R5_4_named_reading_on_lead() -> None:
    game = Game.from_hands(POINTS, ["3 4 5 SJ SJ BJ 9", "K"], leader=0)
    events = game.apply(Play.of(0, "3 4 5 SJ SJ BJ", "pair_run"))
    assert events[0].combo is not None and events[0].combo.kind == "pair_run"
    assert events[0].combo.top == 5  # not the straight 3-8 it would read as by default


def test_R11_3_timeouts_make_the_hosting_move_and_switch_hosting_on() -> None:
    game = Game.from_hands(config(auto_pass=False), ["3 4 5 6 7 8 9", "10 J Q K A 2 2"], leader=0)
    events = game.apply(Timeout(0))
    assert events[0].type == "timeout" and events[0].count == 1
    assert events[1].type == "play" and events[1].cause == "timeout"
    assert str(events[1].combo) == "single 3"  # R11.2: the lowest single on a lead
    game.apply(Timeout(1))
    game.apply(Timeout(0))
    assert game.timeouts == [2, 1] and game.hosting == [False, False]
    game.apply(Timeout(1))
    events = game.apply(Timeout(0))
    assert game.timeouts[0] == 3 and game.hosting[0] is True
    assert events[-1].type == "hosting" and events[-1].cause == "timeout"
    game.apply(Hosting(0, False))
    assert game.hosting[0] is False


def test_R11_2_hosted_turn_plays_weakest_beating_move() -> None:
    game = Game.from_hands(POINTS, ["8 8 3", "9 9 Q Q 4444"], leader=0)
    game.apply(Play.of(0, "8 8"))
    game.apply(Hosting(1, True))
    events = game.apply(HostedTurn(1))
    assert events[0].cause == "hosting" and str(events[0].combo) == "pair 9 9"


def test_R11_6_every_automatic_action_is_recorded_with_its_cause() -> None:
    game = Game.from_hands(config(escape_mode="host"), ["2 3 9 K", "4 5 6 7"], leader=0)
    game.apply(Play.of(0, "2"))  # seat 1 cannot beat it: auto-pass
    game.apply(Timeout(0))  # the hosting move for seat 0: its lowest single
    game.apply(Hosting(1, True, "disconnect"))
    game.apply(HostedTurn(1))
    game.apply(Escape(0))  # host mode: hosting plays the escaper on
    game.apply(HostedTurn(0))
    record = GameRecord.from_dict(json.loads(json.dumps(game.record())))
    caused = [(event["type"], event.get("seat"), event.get("cause"), event.get("cards")) for event in record.events]
    assert caused == [
        ("deal", 0, None, None),
        ("play", 0, "player", "2S"),
        ("pass", 1, "auto_pass", None),
        ("timeout", 0, None, None),
        ("play", 0, "timeout", "3S"),
        ("hosting", 1, "disconnect", None),
        ("play", 1, "hosting", "4S"),
        ("escape", 0, "escape", None),
        ("hosting", 0, "escape", None),
        ("play", 0, "hosting", "9S"),
        ("pass", 1, "auto_pass", None),
    ]
    again = Game.restore(record)  # the replay causes the same events, causes included
    assert [event.to_dict() for event in again.events] == list(record.events)


def test_R10_2_escape_settle_mode_ends_the_game() -> None:
    game = Game.from_hands(POINTS, ["3 4", "5 6"], leader=0)
    events = game.apply(Escape(1))
    assert [event.type for event in events] == ["escape", "end"]
    assert game.finished and game.result == "escape" and game.winner == 0 and game.escaped == 1


def test_R10_1_escape_host_mode_hosts_to_the_end() -> None:
    game = Game.from_hands(config(escape_mode="host"), ["3 4", "5 6"], leader=0)
    game.apply(Escape(1))
    assert not game.finished and game.hosting[1] is True
    with pytest.raises(GameError) as refused:
        game.apply(Hosting(1, False))
    assert refused.value.code == "escaped"


def test_views_never_show_the_other_hand() -> None:
    game = Game.deal(POINTS, seed=5)
    for seat in (0, 1):
        view = game.view(seat)
        assert view["hand"] == [str(card) for card in game.hands[seat]]
        assert view["cards_left"] == [27, 27]
        other = [str(card) for card in game.hands[1 - seat]]
        assert "hand" in view and view["hand"] != other
        assert all(key != "hands" for key in view)
    assert "hand" not in game.view(None)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6), turns=st.integers(0, 80), classic=st.booleans())
def test_a_seats_view_built_on_the_public_view_is_its_own_view(seed: int, turns: int, classic: bool) -> None:
    """One moment shown to every seat: each seat's view made from the spectators' view is
    the one made alone, and the spectators' view does not change (C5.8 at the end too)."""
    game = Game.deal(load_config("classic") if classic else POINTS, seed=seed)
    for _ in range(turns):
        if game.finished:
            break
        game.apply(bot_action(game, GreedyBot()))
    public = game.view()
    before = json.dumps(public)
    for seat in range(game.seats):
        assert game.view(seat, public) == game.view(seat)
    assert json.dumps(public) == before == json.dumps(game.view())


def _tracker_card_by_card(game: Game, seat: int) -> dict[str, int]:
    """The card tracker as its definition says: the 108 cards less the seat's hand and every card played."""
    unseen = {rank.symbol: 0 for rank in Rank}
    for card in DECK:
        unseen[card.rank.symbol] += 1
    for card in [*game.hands[seat], *(card for play in game.plays for card in play.cards)]:
        unseen[card.rank.symbol] -= 1
    return unseen


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6), turns=st.integers(0, 80), undo=st.integers(0, 5), classic=st.booleans())
def test_the_tracker_counts_the_cards_not_seen_after_plays_and_undos(
    seed: int, turns: int, undo: int, classic: bool
) -> None:
    """The card tracker (记牌器), kept from play to play, against counting card by card;
    undone actions (a store that fails) take their cards out of it again."""
    game = Game.deal(load_config("classic") if classic else POINTS, seed=seed)
    for turn in range(turns):
        if game.finished:
            break
        game.apply(bot_action(game, GreedyBot()))
        if turn % 7 == 0:
            assert all(game.tracker(seat) == _tracker_card_by_card(game, seat) for seat in range(game.seats))
    for _ in range(min(undo, len(game.actions))):
        game.undo()
        assert all(game.tracker(seat) == _tracker_card_by_card(game, seat) for seat in range(game.seats))


def test_from_hands_must_be_drawable_from_one_deck() -> None:
    with pytest.raises(GameError) as refused:
        Game.from_hands(POINTS, ["SJ SJ SJ", "3"])
    assert refused.value.code == "bad_hands"
    with pytest.raises(GameError):
        Game.from_hands(POINTS, ["3 3 3 3 3", "3 3 3 3"])  # nine 3s


@settings(max_examples=15, deadline=None)
@given(st.integers(min_value=0, max_value=2**32), st.sampled_from(["hosting", "random", "greedy"]))
def test_replay_reproduces_the_game(seed: int, bot: str) -> None:
    bots = {"hosting": HostingBot, "greedy": GreedyBot}
    players = [RandomBot(seed), RandomBot(seed + 1)] if bot == "random" else [bots[bot](), bots[bot]()]
    game = play_game(POINTS, players, seed)
    assert game.finished and game.winner is not None
    again = Game.replay(POINTS, game.record())
    assert again.view(0) == game.view(0) and again.view(1) == game.view(1)
    assert [event.to_dict() for event in again.events] == [event.to_dict() for event in game.events]


@settings(max_examples=20, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_cards_are_conserved_through_a_game(seed: int) -> None:
    game = play_game(POINTS, [RandomBot(seed), GreedyBot()], seed)
    played = [card for play in game.plays for card in play.cards]
    held = game.hands[0] + game.hands[1]
    assert sorted(played + held + list(game.unseen)) == sorted(DECK)
    assert counts_of(played)[13] + counts_of(held)[13] + counts_of(game.unseen)[13] == 2


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), turns=st.integers(0, 60))
def test_the_card_tracker_counts_what_the_seat_has_not_seen(seed: int, turns: int) -> None:
    """记牌器: per rank, the cards neither in the seat's hand nor played — the other hand and
    the 54 cards not dealt (R1.3); in every view of the seat, never in a spectator's."""
    game = Game.deal(POINTS, seed=seed)
    bots = [GreedyBot(), RandomBot(seed)]
    for _ in range(turns):
        if game.finished:
            break
        game.apply(bot_action(game, bots[game.to_act]))
    for seat in (0, 1):
        hidden = [card.rank.symbol for card in game.hands[1 - seat] + list(game.unseen)]
        tracker = game.view(seat)["tracker"]
        assert list(tracker) == ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "SJ", "BJ"]
        assert tracker == {rank: hidden.count(rank) for rank in tracker}
    assert "tracker" not in game.view(None)


@settings(max_examples=40, deadline=None)
@given(
    room=st.sampled_from(["points", "classic"]),
    seed=st.integers(0, 10_000),
    first_record=st.integers(0, 60),
    taken_back=st.sets(st.integers(0, 80), max_size=8),
)
def test_the_record_keeps_the_hands_as_dealt(
    room: str, seed: int, first_record: int, taken_back: set[int]
) -> None:
    """A record (what a replay starts from) names the hands as dealt however far the game has gone, whether it was
    first recorded at the deal or later, and after actions taken back (:meth:`Game.undo`)."""
    game = Game.deal(load_config(room), seed)
    dealt = tuple(" ".join(str(card) for card in hand) for hand in game.hands)
    bots = [RandomBot(seed + seat) for seat in range(game.seats)]
    turn = 0
    while not game.finished:
        if turn >= first_record:
            assert game.to_record().hands == dealt
        game.apply(bot_action(game, bots[game.to_act]))
        if turn in taken_back:
            game.undo()
            game.apply(bot_action(game, bots[game.to_act]))
        turn += 1
    assert game.to_record().hands == dealt
    assert Game.restore(game.to_record()).to_record() == game.to_record()


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), room=st.sampled_from(["points", "classic"]), taken_back=st.sets(st.integers(0, 80)))
def test_a_seat_sees_its_hand_as_it_is_after_plays_and_undos(seed: int, room: str, taken_back: set[int]) -> None:
    """A seat's view shows the cards it holds (its text kept while the hand stays), at every
    turn, after an action taken back (:meth:`Game.undo`) and another made instead, and as a
    game replayed from the record shows them."""
    game = Game.deal(load_config(room), seed)
    bots = [RandomBot(seed + seat) for seat in range(game.seats)]
    turn = 0
    while not game.finished:
        views = [game.view(seat) for seat in range(game.seats)]
        assert [view.get("hand") for view in views] == [[str(card) for card in hand] for hand in game.hands]
        game.apply(bot_action(game, bots[game.to_act]))
        if turn in taken_back:
            [game.view(seat) for seat in range(game.seats)]  # kept for the action taken back
            game.undo()
            game.apply(bot_action(game, bots[game.to_act]))
        turn += 1
    replayed = Game.restore(game.to_record())
    assert [game.view(seat) for seat in range(game.seats)] == [replayed.view(seat) for seat in range(game.seats)]
