"""Checking apart from applying, taking actions back, the turn key and typed game records
(RULES §2, R10, R11)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shuangkou.cards import counts_of
from shuangkou.games.shuangkou.bots import GreedyBot, HostingBot, RandomBot, bot_action
from shuangkou.games.shuangkou.config import RoomConfig, load_config
from shuangkou.games.shuangkou.game import (
    Action,
    Escape,
    Game,
    GameError,
    GameRecord,
    HostedTurn,
    Hosting,
    Pass,
    Play,
    Timeout,
)
from shuangkou.simulate import play_game

POINTS = load_config("points")
HOST_ON_ESCAPE = load_config("points", {"escape_mode": "host", "max_timeouts": 2})
NO_AUTO_PASS = load_config("points", {"auto_pass": False})
NO_HOSTING_BOMBS = load_config("wealth", {"hosting_bombs": False, "max_timeouts": 1})
CONFIGS = [POINTS, HOST_ON_ESCAPE, NO_AUTO_PASS, NO_HOSTING_BOMBS]


def state(game: Game) -> tuple[object, ...]:
    """Everything observable of a game: the three views, the record, the hands, the turn."""
    for seat in (0, 1):  # the cached counts must follow the hands
        assert game.counts(seat) == counts_of(game.hands[seat])
    return (
        game.view(0),
        game.view(1),
        game.view(None),
        game.record(),
        [list(hand) for hand in game.hands],
        game.turn_key,
        game.seq,
        list(game.actions),
    )


def seen(game: Game) -> tuple[object, ...]:
    """The views and the record: what a replay reproduces (the deck copy a card came from,
    R1.2, is not recorded)."""
    return (game.view(0), game.view(1), game.view(None), game.record())


def refusal(game: Game, action: Action, how: str) -> str | None:
    """The code ``game.check`` or ``game.apply`` refuses ``action`` with, or None."""
    try:
        if how == "check":
            game.check(action)
        else:
            game.apply(action)
    except GameError as error:
        return error.code
    return None


# ---------------------------------------------------------------------------
# check


def test_check_refuses_exactly_as_apply_and_changes_nothing() -> None:
    game = Game.from_hands(POINTS, ["3 3 4 SJ", "5 6 7"], leader=0)
    before = state(game)
    cases: list[tuple[Action, str]] = [
        (Play.of(1, "5"), "not_your_turn"),
        (Play.of(0, "9"), "cards_not_held"),
        (Play.of(0, "3 3 3"), "cards_not_held"),
        (Play.of(0, "3 4"), "invalid_combination"),
        (Play.of(0, "3 3 SJ", "straight"), "invalid_combination"),
        (Pass(0), "pass_on_lead"),  # R2.4
        (HostedTurn(0), "not_hosted"),  # R11.2
        (Play(0, ()), "no_cards"),
        (Pass(2), "bad_seat"),
    ]
    for action, code in cases:
        assert refusal(game, action, "check") == code, action
        assert refusal(game, action, "apply") == code, action
    assert state(game) == before
    with pytest.raises(GameError) as refused:
        game.check("pass")  # type: ignore[arg-type]
    assert refused.value.code == "bad_action"
    assert game.check(Play.of(0, "3 3")) is None
    assert state(game) == before


def test_R10_1_check_refuses_hosting_off_after_an_escape_and_a_second_escape() -> None:
    game = Game.from_hands(HOST_ON_ESCAPE, ["3 4", "5 6"], leader=0)
    game.apply(Escape(1))
    for action, code in [(Hosting(1, False), "escaped"), (Escape(0), "escaped")]:
        assert refusal(game, action, "check") == refusal(game, action, "apply") == code
    assert game.check(Hosting(0, True)) is None


def test_R2_5_check_refuses_everything_after_the_end() -> None:
    game = Game.from_hands(POINTS, ["3", "4 5 6"], leader=0)
    game.apply(Play.of(0, "3"))
    assert refusal(game, Play.of(1, "4"), "check") == "game_over"
    assert refusal(game, Hosting(1, True), "check") == "game_over"


# ---------------------------------------------------------------------------
# undo


def test_undo_with_nothing_applied_is_refused() -> None:
    game = Game.deal(POINTS, seed=3)
    with pytest.raises(GameError) as refused:
        game.undo()
    assert refused.value.code == "nothing_to_undo"


def test_R2_6_undo_takes_back_a_play_with_its_automatic_pass() -> None:
    game = Game.from_hands(POINTS, ["2 3", "4 5"], leader=0)
    before = state(game)
    assert [event.type for event in game.apply(Play.of(0, "2"))] == ["play", "pass"]
    assert game.undo() == Play.of(0, "2")
    assert state(game) == before
    assert game.to_act == 0 and game.table is None and [len(hand) for hand in game.hands] == [2, 2]


def test_R11_3_undo_takes_back_a_timeout_its_count_and_the_hosting_it_switched_on() -> None:
    game = Game.from_hands(NO_HOSTING_BOMBS, ["3 4 5", "6 7 8"], leader=0)
    before = state(game)
    events = game.apply(Timeout(0))
    assert [event.type for event in events] == ["timeout", "play", "hosting"]
    assert game.timeouts == [1, 0] and game.hosting == [True, False]
    assert isinstance(game.undo(), Timeout)
    assert game.timeouts == [0, 0] and game.hosting == [False, False]
    assert state(game) == before


def test_R2_5_undo_reopens_a_finished_game() -> None:
    game = Game.from_hands(POINTS, ["3", "4 5 6"], leader=0)
    before = state(game)
    game.apply(Play.of(0, "3"))
    assert game.finished and game.turn_key is None
    game.undo()
    assert not game.finished and game.winner is None and game.result is None
    assert state(game) == before
    game.apply(Play.of(0, "3"))  # and the same action ends it again
    assert game.finished and game.winner == 0


def test_R10_2_undo_takes_back_an_escape() -> None:
    game = Game.from_hands(POINTS, ["3 4", "5 6"], leader=0)
    before = state(game)
    game.apply(Escape(1))
    assert game.result == "escape"
    assert game.undo() == Escape(1)
    assert game.escaped is None and not game.finished and not game.ended_by_escape
    assert state(game) == before


def test_undo_keeps_the_counts_of_the_hands_true() -> None:
    game = Game.from_hands(NO_AUTO_PASS, ["3 4 9", "5 6"], leader=0)
    game.apply(Play.of(0, "3"))
    assert game.counts(0) == counts_of(game.hands[0])  # counted with 4 and 9 left
    game.undo()
    game.apply(Play.of(0, "4"))  # as many cards left, other ones
    assert game.counts(0) == counts_of(game.hands[0])
    assert [str(move) for move in game.legal_moves(0)] == ["single 9"]  # beats the 4 on the table


def test_undo_keeps_the_hands_in_the_views_true() -> None:
    """The seats' hands as views show them, kept from change to change, after undoing a
    play (its seat's hand grows back) and actions that play nothing (no hand changes)."""
    game = Game.from_hands(NO_AUTO_PASS, ["3 4 9", "5 6"], leader=0)

    def hands_shown() -> list[list[str]]:
        return [[str(text) for text in game.view(seat)["hand"]] for seat in range(game.seats)]

    def hands_held() -> list[list[str]]:
        return [[str(card) for card in game.hands[seat]] for seat in range(game.seats)]

    def ranks(hands: list[list[str]]) -> list[list[str]]:
        return [[text[:-1] for text in hand] for hand in hands]  # the suit left out

    game.apply(Play.of(0, "3"))
    assert hands_shown() == hands_held() and ranks(hands_shown()) == [["4", "9"], ["5", "6"]]
    game.undo()
    game.apply(Play.of(0, "4"))  # as many cards left, other ones
    assert hands_shown() == hands_held() and ranks(hands_shown()) == [["3", "9"], ["5", "6"]]
    game.apply(Pass(1))
    game.apply(Escape(1))
    assert hands_shown() == hands_held()
    game.undo()  # the escape: nothing played, every hand as it was
    game.undo()  # the pass
    assert hands_shown() == hands_held() and ranks(hands_shown()) == [["3", "9"], ["5", "6"]]
    assert game.counts(0) == counts_of(game.hands[0]) and game.counts(1) == counts_of(game.hands[1])
    game.undo()  # the 4
    assert hands_shown() == hands_held() and ranks(hands_shown()) == [["3", "4", "9"], ["5", "6"]]
    assert game.counts(0) == counts_of(game.hands[0])


def test_undo_back_to_the_deal() -> None:
    game = play_game(POINTS, [GreedyBot(), RandomBot(4)], seed=4, timeout_rate=0.2)
    dealt = Game.deal(POINTS, seed=4)
    actions = list(game.actions)
    taken_back = [game.undo() for _ in actions]
    assert taken_back == actions[::-1]
    assert state(game) == state(dealt)
    with pytest.raises(GameError):
        game.undo()


def candidate(game: Game, data: st.DataObject) -> Action:
    """An action for the game, legal or not: a legal play, a pass, a timeout, a hosted
    turn, a hosting switch, an escape, or a play of cards not held or out of turn."""
    seat = game.to_act
    what = data.draw(
        st.sampled_from(["move", "move", "move", "pass", "timeout", "hosted", "hosting", "escape", "wrong"])
    )
    if what == "move":
        moves = game.legal_moves()
        if moves:
            return Play.move(seat, data.draw(st.sampled_from(moves)))
        return Pass(seat)
    if what == "pass":
        return Pass(seat)
    if what == "timeout":
        return Timeout(seat)
    if what == "hosted":
        return HostedTurn(seat)
    if what == "hosting":
        return Hosting(data.draw(st.sampled_from([0, 1])), data.draw(st.booleans()))
    if what == "escape":
        return Escape(data.draw(st.sampled_from([0, 1])))
    return data.draw(st.sampled_from([Play.of(1 - seat, "3"), Play.of(seat, "SJ SJ BJ BJ")]))


@settings(max_examples=40)
@given(st.integers(min_value=0, max_value=2**32), st.sampled_from(CONFIGS), st.data())
def test_apply_then_undo_restores_the_state_and_check_agrees_with_apply(
    seed: int, config: RoomConfig, data: st.DataObject
) -> None:
    game = Game.deal(config, seed)
    for _ in range(120):
        if game.finished:
            break
        action = candidate(game, data)
        before = state(game)
        checked = refusal(game, action, "check")
        assert state(game) == before  # check changes nothing
        applied = refusal(game, action, "apply")
        assert applied == checked
        if applied is not None:
            assert state(game) == before  # a refused action changes nothing
            continue
        after = state(game)
        events = [event.to_dict() for event in game.events]
        assert game.undo() == action
        assert state(game) == before
        game.apply(action)
        assert state(game) == after and [event.to_dict() for event in game.events] == events
        if data.draw(st.booleans()):
            game.undo()  # and go on from the earlier state with another action
            assert state(game) == before


# ---------------------------------------------------------------------------
# turn_key


def test_R2_turn_key_changes_exactly_when_a_turn_passes() -> None:
    game = Game.from_hands(NO_AUTO_PASS, ["3 6 9 9", "4 5 K"], leader=0)
    assert game.turn_key == (0, 0, True)  # seat 0 leads, no play yet
    game.apply(Hosting(1, True))  # R11.2: switching hosting passes no turn
    game.apply(Hosting(1, False))
    assert game.turn_key == (0, 0, True)
    game.apply(Play.of(0, "3"))
    assert game.turn_key == (1, 1, False)
    game.apply(Pass(1))  # R2.4: the lead returns to the last player
    assert game.turn_key == (0, 1, True)
    game.apply(Play.of(0, "9 9"))
    game.apply(Pass(1))
    game.apply(Escape(1))  # R10.2
    assert game.turn_key is None


def test_R2_6_turn_key_sees_an_automatic_pass_as_a_new_turn() -> None:
    game = Game.from_hands(POINTS, ["2 3 3", "4 5"], leader=0)
    game.apply(Play.of(0, "2"))  # seat 1 cannot beat it and passes at once
    assert game.turn_key == (0, 1, True)


# ---------------------------------------------------------------------------
# records


def test_record_round_trip_through_json() -> None:
    game = play_game(POINTS, [GreedyBot(), RandomBot(9)], seed=9, timeout_rate=0.1, escape_rate=0.5)
    record = game.to_record()
    assert record.to_dict() == game.record()
    assert json.loads(json.dumps(record.to_dict())) == record.to_dict()
    assert GameRecord.from_dict(record.to_dict()) == record  # the configuration read back too
    assert GameRecord.from_dict(record.to_dict(), POINTS) == record
    again = Game.restore(record)
    assert seen(again) == seen(game)
    assert again.seed == 9 and again.flip_card is not None and str(again.flip_card) == record.flip_card


def test_record_fields() -> None:
    game = Game.from_hands(POINTS, ["3 3 9", "4 4 5"], leader=0)
    game.apply(Play.of(0, "3 3"))
    record = game.to_record()
    assert record.config == POINTS and record.seed is None and record.flip_card is None
    assert record.hands == ("3S 3S 9S", "4S 4S 5S") and record.leader == 0  # R1.2: physical cards
    assert record.actions == ({"seat": 0, "play": "3 3"},)
    assert record.events is not None and [event["type"] for event in record.events] == ["deal", "play"]
    assert record.events[1]["cards"] == "3S 3S"


def test_restore_with_a_journal_s_actions() -> None:
    game = play_game(POINTS, [GreedyBot(), GreedyBot()], seed=11)
    record = game.to_record()
    earlier = Game.deal(POINTS, seed=11)
    for action in game.actions[:10]:
        earlier.apply(action)
    shortened = record.with_actions(record.actions[:10])
    assert shortened.events is None and shortened.hands == record.hands
    assert seen(Game.restore(shortened)) == seen(earlier)
    with_events = record.with_actions(record.actions[:10], [event.to_dict() for event in earlier.events])
    assert seen(Game.restore(with_events)) == seen(earlier)


def test_restore_refuses_events_that_differ() -> None:
    game = play_game(POINTS, [GreedyBot(), GreedyBot()], seed=12)
    record = game.to_record()
    assert record.events is not None
    altered = record.with_actions(record.actions, [*record.events[:-1], {"type": "end", "seat": 0}])
    with pytest.raises(GameError) as refused:
        Game.restore(altered)
    assert refused.value.code == "replay_mismatch"


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ({"hands": None}, "'hands'"),
        ({"hands": ["3 4"]}, "'hands'"),
        ({"hands": ["3 4", "5 X"]}, "'hands'"),
        ({"leader": 2}, "'leader'"),
        ({"leader": True}, "'leader'"),
        ({"actions": "3 4"}, "'actions'"),
        ({"actions": [{"seat": 0, "pass": True}, 7]}, "'actions'[1]"),
        ({"events": {"type": "deal"}}, "'events'"),
        ({"seed": "7"}, "'seed'"),
        ({"flip_card": "3 4"}, "'flip_card'"),
        ({"config": {"edition": "gold"}}, "'config'"),
        ({"config": []}, "'config'"),
    ],
)
def test_bad_records_are_refused_naming_the_key(change: dict[str, object], named: str) -> None:
    data = {**Game.from_hands(POINTS, ["3 4", "5 6"]).record(), **change}
    with pytest.raises(GameError) as refused:
        GameRecord.from_dict(data)
    assert refused.value.code == "bad_record" and named in refused.value.message


@pytest.mark.parametrize("key", ["config", "hands", "leader", "actions"])
def test_a_record_without_a_required_key_is_refused_naming_it(key: str) -> None:
    data = Game.from_hands(POINTS, ["3 4", "5 6"]).record()
    del data[key]
    with pytest.raises(GameError) as refused:
        GameRecord.from_dict(data)
    assert refused.value.code == "bad_record" and repr(key) in refused.value.message


def test_the_configuration_given_wins_over_the_record_s() -> None:
    data = {**Game.from_hands(POINTS, ["3 4", "5 6"]).record(), "config": "unread"}
    assert GameRecord.from_dict(data, NO_AUTO_PASS).config == NO_AUTO_PASS


def test_R10_3_views_say_who_has_played() -> None:
    game = Game.from_hands(POINTS, ["3 9", "4 5"], leader=0)
    assert game.view(None)["played"] == [False, False]
    game.apply(Play.of(0, "3"))
    assert game.view(0)["played"] == [True, False] and not game.has_played(1)
    game.apply(Play.of(1, "4"))
    assert game.view(1)["played"] == [True, True] and game.has_played(1)


def test_R11_2_bot_action_is_the_bot_s_move_for_the_seat_to_act() -> None:
    game = Game.from_hands(NO_AUTO_PASS, ["3 9", "4 5 10"], leader=0)
    assert bot_action(game, HostingBot()) == Play.of(0, "3", "single")  # the lowest single
    game.apply(Play.of(0, "9"))
    assert bot_action(game, HostingBot()) == Play.of(1, "10", "single")
    game.apply(Play.of(1, "10"))
    assert bot_action(game, HostingBot()) == Pass(0)
