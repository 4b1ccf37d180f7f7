"""What the view carries for a reloaded page (R2.2–R2.4, C2.1): every play of the game, the
play that began the current round, and the passes of the round by seats that have not
played since — against a reference that follows the events as they happen."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from shuangkou.games.shuangkou.bots import RandomBot, bot_action
from shuangkou.games.shuangkou.config import RoomConfig, load_config
from shuangkou.games.shuangkou.game import Game, Pass, Play, Timeout

CONFIGS = [
    load_config("points"),
    load_config("points", {"auto_pass": False}),
    load_config("classic"),
    load_config("classic", {"jiefeng": False}),
]


@settings(max_examples=40, deadline=None)
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 10_000))
def test_R2_C2_1_the_view_keeps_every_play_and_the_passes_of_the_round(config: RoomConfig, seed: int) -> None:
    game = Game.deal(config, seed)
    chance = random.Random(seed)
    bots = [RandomBot(seed + seat) for seat in range(config.seats)]
    passes: dict[int, str] = {}  # the reference: seat -> cause, oldest first
    round_start: int | None = None
    while not game.finished:
        lead = game.table is None  # at most one play per action: it leads when the table is empty
        seat = game.to_act
        action = Timeout(seat) if chance.random() < 0.05 else bot_action(game, bots[seat])
        for event in game.apply(action):
            assert event.seat is not None or event.type not in ("play", "pass")
            if event.type == "play" and event.seat is not None:
                if lead:
                    passes.clear()
                    round_start = len(game.plays)
                passes.pop(event.seat, None)
            elif event.type == "pass" and event.seat is not None:
                passes.pop(event.seat, None)
                passes[event.seat] = event.cause or "player"
        view = game.view(seat)
        assert [play["index"] for play in view["plays"]] == list(range(1, len(game.plays) + 1))
        assert view["round_start"] == round_start
        assert view["passed"] == [{"seat": s, "cause": cause} for s, cause in passes.items()]
        assert game.view(None)["passed"] == view["passed"]


def test_R2_4_two_seats_the_pass_that_ended_the_round_shows_until_the_next_lead() -> None:
    game = Game.from_hands(load_config("points", {"auto_pass": False}), ["3 3 5 9", "4 4 6 K"], leader=0)
    assert (game.view(0)["round_start"], game.view(0)["passed"]) == (None, [])
    game.apply(Play.of(0, "3"))
    game.apply(Pass(1))  # the round is over: seat 0 leads again
    view = game.view(0)
    assert view["table"] is None and view["round_start"] == 1
    assert view["passed"] == [{"seat": 1, "cause": "player"}]
    game.apply(Play.of(0, "5"))  # the next lead clears it
    assert (game.view(1)["round_start"], game.view(1)["passed"]) == (2, [])


def test_C2_1_four_seats_a_pass_stays_until_the_seat_plays_in_the_round() -> None:
    game = Game.from_hands(load_config("classic", {"auto_pass": False}), ["3 9 9", "5 Q", "7 K K", "4 8"], leader=0)
    game.apply(Play.of(0, "3"))
    game.apply(Pass(1))
    game.apply(Play.of(2, "7"))
    game.apply(Pass(3))
    assert [p["seat"] for p in game.view(0)["passed"]] == [1, 3]
    game.apply(Play.of(0, "9"))
    game.apply(Play.of(1, "Q"))  # seat 1 passed earlier in the round, then played
    assert game.view(2)["passed"] == [{"seat": 3, "cause": "player"}]
    assert game.view(2)["round_start"] == 1 and len(game.view(2)["plays"]) == 4


def test_a_view_taken_earlier_keeps_its_plays() -> None:
    """A view is a snapshot: later plays, or taking one back, do not change it."""
    game = Game.from_hands(load_config("points", {"auto_pass": False}), ["3 3 5 9", "4 4 6 K"], leader=0)
    game.apply(Play.of(0, "3"))
    before = game.view(0)
    game.apply(Play.of(1, "4"))
    assert len(before["plays"]) == 1 and len(game.view(0)["plays"]) == 2
    game.undo()
    game.undo()
    assert len(before["plays"]) == 1 and game.view(0)["plays"] == []
