"""The platform's game interface (shuangkou.games): the registry, room files naming their
game, and a game of the tests' own (high card, tests/highcard.py: three seats, a decision
that every seat answers at once, a match score carried from hand to hand) played through
the referee and the simulator, which know no game."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from highcard import HIGHCARD, HighCardHand, Hosting, Stake
from server_fixtures import (
    ROOMS,
    RunningServer,
    pg_server_database_fixture,  # noqa: F401 - fixtures
    run,
    start_server_fixture,  # noqa: F401
)

from shuangkou.games import check_config_main, families, family, game_of, load_room, register, unregister
from shuangkou.games.interface import GameFamily, Waiting
from shuangkou.referee import ScenarioError, referee
from shuangkou.roomfiles import ConfigError
from shuangkou.server.client import ClientError
from shuangkou.simulate import play_game, simulate


@pytest.fixture(name="highcard_room")
def highcard_room_fixture(tmp_path: Path) -> Iterator[Path]:
    """High card registered, and a room file of it; unregistered at the end."""
    register(HIGHCARD)
    room = tmp_path / "highcard.toml"
    room.write_text('game = "highcard"\nname = "High card"\nmatch_points = 10\nallow_negative = true\n')
    try:
        yield room
    finally:
        unregister("highcard")


def test_the_registry_finds_a_room_s_game_by_its_file(highcard_room: Path, tmp_path: Path) -> None:
    """A room file names its game; without the key it is a Shuangkou room; an unknown game
    is refused naming the file and the key."""
    assert {"highcard", "shuangkou"} <= set(families())  # and the other shipped games
    assert game_of(highcard_room) == "highcard" and game_of("qianbian") == "shuangkou"
    plain = tmp_path / "plain.toml"
    plain.write_text('edition = "points"\n')
    assert game_of(plain) == "shuangkou" and load_room(plain)[1].seats == 2
    game, room = load_room(highcard_room, {"match_points": 20})
    assert game is family("highcard") and room.seats == 3 and room.most_at_stake == 80
    other = tmp_path / "other.toml"
    other.write_text('game = "bridge"\n')
    with pytest.raises(ConfigError) as error:
        load_room(other)
    expected = f'game: expected one of {", ".join(sorted(families()))}, found "bridge" (a string)'
    assert str(error.value) == f"{other}: {expected}"
    with pytest.raises(ValueError, match="registered already"):
        register(type(HIGHCARD)())
    with pytest.raises(KeyError, match="no game 'bridge'"):
        family("bridge")


def test_the_shipped_family_fulfils_the_interface() -> None:
    """Every registered family is a GameFamily (mypy checks it statically at register())."""
    shuangkou: GameFamily = family("shuangkou")
    hand = shuangkou.deal(load_room("classic")[1], seed=3)
    assert [wait.seat for wait in hand.waiting()] == [hand.view(None)["to_act"]]
    assert shuangkou.action_from_dict(shuangkou.action_to_dict(hand.default_action(0))) == hand.default_action(0)


def test_a_decision_answered_by_every_seat_at_once_through_the_referee(highcard_room: Path) -> None:
    """The referee plays a game it has never heard of: the three seats are waited for at
    once, each answer is public only as 'staked', the cards and stakes are shown when the
    last answers, and the hand settles and carries its match score."""
    outcome = referee({
        "config": str(highcard_room), "cards": [3, 12, 7], "score": [1, 0, 2],
        "actions": [{"seat": 2, "stake": 2}, {"seat": 0, "stake": 1}, {"seat": 1, "stake": 1}],
    })
    assert outcome["finished"] and outcome["winner"] == 1 and outcome["waiting"] == []
    assert [event["type"] for event in outcome["events"]] == ["deal", "staked", "staked", "staked", "shown", "end"]
    assert outcome["events"][1] == {"type": "staked", "seat": 2}  # no stake in it
    assert outcome["settlement"]["deltas"] == [-10, 30, -20]  # X times the larger stake of loser and winner
    assert outcome["carried"] == {"score": [1, 1, 2]}
    waiting = referee({"config": str(highcard_room), "cards": [3, 12, 7], "actions": [{"seat": 1, "stake": 2}]})
    assert not waiting["finished"] and waiting["waiting"] == [0, 2] and waiting["settlement"] is None
    with pytest.raises(ScenarioError) as error:
        referee({"config": str(highcard_room), "cards": [3, 12, 7],
                 "actions": [{"seat": 1, "stake": 2}, {"seat": 1, "stake": 1}]})
    assert (error.value.code, error.value.action) == ("not_your_turn", 1)
    with pytest.raises(ScenarioError, match="cards: three different ranks"):
        referee({"config": str(highcard_room), "cards": [3, 3, 7]})
    with pytest.raises(ScenarioError, match="balances: this room has 3 seats"):
        referee({"config": str(highcard_room), "cards": [3, 4, 7], "balances": [1, 2]})


def test_the_referee_makes_a_hosted_seat_s_default_action(highcard_room: Path) -> None:
    outcome = referee({
        "config": str(highcard_room), "cards": [13, 2, 5],
        "actions": [{"seat": 1, "hosting": True}, {"seat": 0, "stake": 2}, {"seat": 2, "stake": 2}],
    })
    assert outcome["finished"] and outcome["settlement"]["deltas"] == [40, -20, -20]


def test_views_hide_what_a_seat_may_not_see_until_the_hand_is_over(highcard_room: Path) -> None:
    room = load_room(highcard_room)[1]
    hand: HighCardHand = HIGHCARD.scenario(room, {"cards": [3, 12, 7]})
    assert hand.waiting() == (Waiting(0, "stake", 10.0), Waiting(1, "stake", 10.0), Waiting(2, "stake", 10.0))
    hand.apply(Stake(1, 2))
    for seat in range(3):
        view = hand.view(seat)
        assert view["card"] == (3, 12, 7)[seat] and view["cards"] is None and view["stakes"] is None
    assert hand.view(None)["card"] is None and hand.view(None)["answered"] == [False, True, False]
    hand.apply(Hosting(0, True))
    assert hand.undo() == Hosting(0, True) and hand.seq == 1 and not hand.hosted(0)


def test_the_simulator_plays_a_game_it_has_never_heard_of(highcard_room: Path) -> None:
    """The match of many hands is the table's; here each hand stands alone: the report's
    figures add up, and the bold bot, which doubles on high cards, takes more per game."""
    room = load_room(highcard_room)[1]
    hand = play_game(room, [HIGHCARD.player("bold", None, room)] * 3, seed=5)
    assert hand.finished and hand.seq == 3
    report = simulate(room, ("bold", "cautious"), games=200, seed=1)
    data = report.to_dict()
    assert data["games"] == 200 and sum(bot["wins"] for bot in data["bots"]) == 200
    assert set(data["results"]) <= {"plain", "doubled"} and data["house_total"] == 0
    assert all(abs(sum(bot["cards"].values()) - 1.0) < 1e-9 for bot in data["bots"])
    assert report.to_text().startswith("200 games, room 'High card', one seat against the others")
    bold, cautious = report.bot_stats()
    assert bold.mean_delta + cautious.mean_delta == 0


def test_a_game_the_server_has_never_heard_of_plays_at_its_tables(
    start_server: Callable[..., RunningServer], highcard_room: Path
) -> None:
    """The lobby loads room files through the registry (a file naming an unknown game is
    refused with its key), and the server plays high card over real WebSockets knowing
    nothing of it: two persons and a bot answer one decision at once, the person who does
    not answer times out, nobody sees another seat's card before the hand is over (nor does
    a spectator), the ledger pays the game's settlement, and the next hand carries the match
    score while the same players sit."""
    room = highcard_room.read_text() + "stake_seconds = 1.0\n"
    server = start_server(rooms={**ROOMS, "cards": room, "bridge": 'game = "bridge"\n'})
    reloaded = server.admin("POST", "rooms/reload")
    games = ", ".join(sorted(families()))
    assert f'bridge.toml: game: expected one of {games}, found "bridge"' in reloaded["errors"]["bridge"]
    assert sorted(reloaded["loaded"]) == sorted([*ROOMS, "cards"])

    async def scenario() -> tuple[list[dict[str, Any]], ...]:
        ana, bob, eve = await server.player("Ana"), await server.player("Bob"), await server.player("Eve")
        await ana.join("cards", "invite")
        table = await ana.until(lambda t: t["seats"][0] is not None)
        assert table["family"] == "highcard"
        await bob.join(table=table["id"])
        await ana.until(lambda t: t["seats"][1] is not None)
        await ana.send({"type": "bots"})
        await ana.until(lambda t: t["seats"][2] is not None and t["seats"][2]["bot"])
        await eve.watch(table["id"])
        for player in (ana, bob):
            await player.ready()
        playing = await ana.until(lambda t: t["phase"] == "playing")
        assert playing["game"]["card"] in range(1, 14) and playing["game"]["cards"] is None
        assert await ana.hint() == [{"stake": 1}, {"stake": 2}]
        with pytest.raises(ClientError) as stale:
            await ana.send({"type": "stake", "seq": 0, "stake": 2})
            await ana.expect("state")
        assert stale.value.code == "stale"
        await ana.send({"type": "stake", "seq": ana.seq, "stake": 2})
        await ana.until(lambda t: t["game"]["answered"][0])
        with pytest.raises(ClientError) as again:
            await ana.send({"type": "stake", "seq": ana.seq, "stake": 1})
            await ana.expect("state")
        assert again.value.code == "not_your_turn"
        # Bob never answers: the bot does, and Bob's timer (1 s) answers 1 for him.
        first = await bob.until(lambda t: t["settlement"] is not None, timeout=20)
        await ana.until(lambda t: t["settlement"] is not None)
        await eve.until(lambda t: t["settlement"] is not None)
        for player in (ana, bob):
            await player.ready()
        second = await ana.until(lambda t: t["phase"] == "playing" and t["game_id"] != first["game_id"])
        winner = first["game"]["winner"]
        assert second["game"]["score"] == [int(seat == winner) for seat in range(3)]
        return ana.log, bob.log, eve.log, [first]

    ana_log, bob_log, eve_log, (first,) = run(scenario(), timeout=60)
    game = first["game"]
    assert game["stakes"][0] == 2 and game["stakes"][1] == 1 and game["cards"] is not None
    settlement = first["settlement"]
    assert sum(settlement["deltas"]) + settlement["house"] == 0
    ledger = server.admin("GET", f"ledger?game={first['game_id']}")
    assert sorted(entry["delta"] for entry in ledger["entries"]) == sorted(d for d in settlement["deltas"] if d)
    # Before the cards were shown, nobody saw another seat's card (nor a spectator any).
    for seat, log in ((0, ana_log), (1, bob_log), (None, eve_log)):
        states = [message["table"] for message in log if message["type"] == "state"]
        hidden = [t["game"] for t in states if t["game_id"] == first["game_id"] and not t["game"]["finished"]]
        assert hidden and all(seen["cards"] is None and seen["stakes"] is None for seen in hidden)
        assert all(seen["card"] == (None if seat is None else game["cards"][seat]) for seen in hidden)


def test_check_config_validates_a_room_of_any_registered_game(
    highcard_room: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``shuangkou check-config`` finds the room's game by its file and prints the room as
    that game resolves it; a bad key is named with the file."""
    assert check_config_main(str(highcard_room), {"match_points": 20}) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["game"] == "highcard" and printed["match_points"] == 20
    bad = tmp_path / "bad.toml"
    bad.write_text('game = "highcard"\nmatch_points = 0\n')
    assert check_config_main(str(bad)) == 2
    assert capsys.readouterr().err.startswith(f"{bad}: match_points")
