"""Simulations between bots: determinism, seat swapping, the report's figures, the
command line, replays, and a regression guard on the greedy bot (docs/simulation.md);
two seats (RULES) and four, one team per bot (RULES-CLASSIC)."""

from __future__ import annotations

import json
import math
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from shuangkou.cli import main
from shuangkou.games.shuangkou.bots import make_bot
from shuangkou.games.shuangkou.config import load_config
from shuangkou.games.shuangkou.game import Game
from shuangkou.simulate import Report, bot_of_seat, play_game, simulate, wilson_interval

POINTS = load_config("points")
WEALTH = load_config("wealth")
CLASSIC = load_config("classic")
DOCS = Path(__file__).resolve().parent.parent / "docs"


def test_simulate_is_deterministic_for_a_seed() -> None:  # R1.4
    first = simulate(POINTS, ("greedy", "random"), 12, seed=5, timeout_rate=0.05, escape_rate=0.2)
    second = simulate(POINTS, ("greedy", "random"), 12, seed=5, timeout_rate=0.05, escape_rate=0.2)
    assert first.games == second.games and first.to_dict() == second.to_dict()
    other = simulate(POINTS, ("greedy", "random"), 12, seed=6, timeout_rate=0.05, escape_rate=0.2)
    assert other.games != first.games


def test_seats_swap_every_other_game() -> None:
    report = simulate(POINTS, ("greedy", "random"), 6, seed=10)
    for offset, summary in enumerate(report.games):
        seed = 10 + offset
        swapped = seed % 2 == 1  # bot 0 (greedy) sits in seat 1 on odd seeds
        seats = [make_bot("random", seed), make_bot("greedy")] if swapped else [
            make_bot("greedy"), make_bot("random", seed + 1)
        ]
        game = play_game(POINTS, seats, seed)
        settlement = game.settle((1000, 1000))
        greedy_seat = 1 if swapped else 0
        assert summary.winner == (0 if game.winner == greedy_seat else 1)
        assert summary.deltas == (settlement.deltas[greedy_seat], settlement.deltas[1 - greedy_seat])
        assert summary.result == game.result


def test_report_figures_are_consistent() -> None:
    games = 60
    config = load_config("wealth", {"table_fee": 50, "win_fee_share": 0.1})
    report = simulate(config, ("greedy", "random"), games, seed=3, timeout_rate=0.05, escape_rate=0.3)
    data = report.to_dict()
    assert data["config"] == "Wealth room" and data["games"] == games
    bots = data["bots"]
    assert isinstance(bots, list) and [bot["bot"] for bot in bots] == ["greedy", "random"]
    assert sum(bot["wins"] for bot in bots) == games  # every game has one winner
    for bot in bots:
        assert bot["win_rate"] == bot["wins"] / games
        low, high = bot["win_rate_95"]
        assert low <= bot["win_rate"] <= high
        assert math.isclose(sum(bot["scoring_phases"].values()), 1.0)
    results = data["results"]
    assert isinstance(results, dict) and math.isclose(sum(results.values()), 1.0)
    assert set(results) <= {"flat", "single", "double", "escape"}
    assert data["escapes"] == round(results.get("escape", 0) * games)
    # zero-sum with the house (R9.7): the bots' mean changes and the house's mean cancel out
    house = data["house_total"]
    assert house == sum(game.house for game in report.games) and house > 0
    assert math.isclose(bots[0]["mean_delta"] + bots[1]["mean_delta"] + house / games, 0, abs_tol=1e-9)
    transfers = [abs(game.deltas[0]) for game in report.games]
    assert data["max_transfer"] == max(transfers)
    assert math.isclose(data["mean_transfer"], sum(transfers) / games)
    assert data["timeouts"] > 0 and data["hosting_switched_on"] >= 0
    text = report.to_text()
    assert text.startswith(f"{games} games, room 'Wealth room'") and "greedy" in text and "escapes" in text


def test_without_house_the_bots_mirror_each_other() -> None:
    bots = simulate(POINTS, ("hosting", "greedy"), 20, seed=0).to_dict()["bots"]
    assert isinstance(bots, list)
    assert bots[0]["mean_delta"] == -bots[1]["mean_delta"]
    assert bots[0]["win_rate"] + bots[1]["win_rate"] == 1
    assert bots[0]["win_rate_95"] == pytest.approx((1 - bots[1]["win_rate_95"][1], 1 - bots[1]["win_rate_95"][0]))


def test_no_timeouts_or_escapes_unless_asked() -> None:
    data = simulate(POINTS, ("random", "random"), 10, seed=1).to_dict()
    assert data["timeouts"] == 0 and data["escapes"] == 0 and data["hosting_switched_on"] == 0
    assert "escape" not in data["results"]  # type: ignore[operator]


def test_jobs_2_gives_the_same_report_as_jobs_1() -> None:
    # 120 games are three chunks of 50: the order of the chunks must not depend on the workers
    args = (POINTS, ("greedy", "random"), 120)
    one = simulate(*args, seed=7, jobs=1, timeout_rate=0.02, escape_rate=0.1)
    two = simulate(*args, seed=7, jobs=2, timeout_rate=0.02, escape_rate=0.1)
    assert one.games == two.games and one.to_dict() == two.to_dict()


def test_progress_counts_every_game() -> None:
    steps: list[int] = []
    simulate(POINTS, ("hosting", "hosting"), 55, progress=steps.append)
    assert steps == [50, 5]


def test_unknown_bot_fails_before_playing() -> None:
    with pytest.raises(ValueError, match="unknown bot 'smart'"):
        simulate(POINTS, ("greedy", "smart"), 10)


def test_an_empty_report() -> None:
    data = Report("Points room", ("greedy", "hosting")).to_dict()
    assert data["games"] == 0 and data["results"] == {} and data["mean_transfer"] == 0.0


def test_wilson_interval() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)
    low, high = wilson_interval(0, 20)
    assert low == 0.0 and 0.15 < high < 0.17  # 0.161
    low, high = wilson_interval(50, 100)
    assert math.isclose(low, 1 - high) and 0.40 < low < 0.41  # 0.404 .. 0.596
    for wins in range(0, 31, 5):
        low, high = wilson_interval(wins, 30)
        mirror = wilson_interval(30 - wins, 30)
        assert low <= wins / 30 <= high
        assert math.isclose(low, 1 - mirror[1], abs_tol=1e-12)


@pytest.mark.parametrize(
    ("name", "overrides"),
    [("points", {}), ("wealth", {"table_fee": 20}), ("points", {"escape_mode": "host", "auto_pass": False})],
)
def test_replaying_a_seeded_game_reproduces_its_settlement(name: str, overrides: dict[str, object]) -> None:
    room = load_config(name, overrides)
    balances = [(1000, 1000), (100000, 250), (60, 40_000_000)]
    for seed in range(8):
        bots = [make_bot("random", seed), make_bot("greedy" if seed % 2 else "hosting", seed)]
        game = play_game(room, bots, seed, timeout_rate=0.1, escape_rate=0.3)
        again = Game.replay(room, game.record())
        assert again.finished and again.winner == game.winner and again.result == game.result
        for before in balances:
            assert again.settle(before) == game.settle(before)


def test_greedy_beats_hosting_clearly() -> None:
    # a regression guard, not a benchmark: greedy wins about 87 % (docs/simulation.md)
    report = simulate(POINTS, ("greedy", "hosting"), 200, seed=0)
    greedy = report.bot_stats()[0]
    assert greedy.bot == "greedy" and greedy.win_rate > 0.65


# ---------------------------------------------------------------------------
# Four seats: one team per bot (RULES-CLASSIC)


def test_C1_1_four_seat_games_are_played_to_the_end_with_the_teams_rotated() -> None:
    games = 24
    report = simulate(CLASSIC, ("greedy", "hosting"), games, seed=3)
    assert len(report.games) == games
    on_even_seats = 0
    for offset, summary in enumerate(report.games):
        seed = 3 + offset
        bot_at = [bot_of_seat(seat, seed) for seat in range(4)]
        assert bot_at[0] == bot_at[2] != bot_at[1] == bot_at[3]  # a bot holds both seats of a team
        on_even_seats += bot_at[0] == 0
        bots = [make_bot(("greedy", "hosting")[bot_at[seat]], seed + seat) for seat in range(4)]
        game = play_game(CLASSIC, bots, seed)
        assert game.finished and game.result in ("double", "single", "draw")  # C3.2
        settlement = game.settle_table((1000,) * 4)
        assert summary.result == game.result and summary.winner == bot_at[game.finish_order[0]]  # C5.2
        assert summary.deltas == tuple(
            sum(settlement.deltas[seat] for seat in range(4) if bot_at[seat] == bot) for bot in (0, 1)
        )
        assert summary.figures == tuple(settlement.team_phases[bot_at.index(bot) % 2] for bot in (0, 1))  # C4.2
    assert on_even_seats == games // 2  # each bot plays seats 0+2 and 1+3 equally often
    stats = report.bot_stats()
    assert stats[0].wins + stats[1].wins == games


def test_C5_four_seat_report_figures_are_consistent() -> None:
    games = 60
    report = simulate(CLASSIC, ("greedy", "random"), games, seed=1)
    data = report.to_dict()
    assert data["config"] == "Classic room" and data["games"] == games
    bots = data["bots"]
    assert isinstance(bots, list) and [list(bot) for bot in bots] == [[
        "bot", "wins", "win_rate", "win_rate_95", "mean_delta", "stdev_delta", "scoring_phases", "wins_by_result",
    ]] * 2
    results = data["results"]
    assert isinstance(results, dict) and set(results) <= {"double", "single", "draw"}
    for bot in bots:
        assert math.isclose(sum(bot["wins_by_result"].values()), bot["win_rate"])
        low, high = bot["win_rate_95"]
        assert low <= bot["win_rate"] <= high
        assert math.isclose(sum(bot["scoring_phases"].values()), 1.0)
    for result, share in results.items():  # every game is won by one of the two teams
        assert math.isclose(sum(bot["wins_by_result"].get(result, 0) for bot in bots), share)
    assert data["house_total"] == 0 and bots[0]["mean_delta"] == -bots[1]["mean_delta"]  # C5.6: zero-sum
    text = report.to_text()
    assert text.startswith(f"{games} games, room 'Classic room', one team per bot")
    assert "greedy   team wins" in text and "won by" in text and "team scoring phases" in text


def test_C6_four_seat_escapes_and_timeouts() -> None:
    games = 30
    room = load_config("classic", {"escape_mode": "settle"})
    report = simulate(room, ("hosting", "random"), games, seed=2, timeout_rate=0.05, escape_rate=1.0)
    data = report.to_dict()
    assert data["escapes"] > 0 and data["timeouts"] > 0
    escaped = [game for game in report.games if game.result == "escape"]
    assert len(escaped) == data["escapes"]  # C6.2: the game ends at once
    assert sum(bot["wins"] for bot in data["bots"]) == games  # type: ignore[union-attr]
    hosted = simulate(CLASSIC, ("hosting", "random"), games, seed=2, escape_rate=1.0).to_dict()
    assert "escape" not in hosted["results"] and hosted["hosting_switched_on"] == hosted["escapes"] > 0  # C6.1


def test_four_seat_jobs_2_gives_the_same_report_as_jobs_1() -> None:
    one = simulate(CLASSIC, ("greedy", "hosting"), 60, seed=4, jobs=1)
    two = simulate(CLASSIC, ("greedy", "hosting"), 60, seed=4, jobs=2)
    assert one.games == two.games and one.to_dict() == two.to_dict()


def test_greedy_team_beats_hosting_team_clearly() -> None:
    # a regression guard, not a benchmark: the greedy team wins about 92 % (docs/simulation.md)
    for room in (CLASSIC, load_config("qianbian")):
        greedy = simulate(room, ("greedy", "hosting"), 120, seed=0).bot_stats()[0]
        assert greedy.bot == "greedy" and greedy.win_rate > 0.8


# ---------------------------------------------------------------------------
# The command line


def shuangkou(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "shuangkou", *args], capture_output=True, text=True, check=False
    )


def test_cli_simulate_json_shape() -> None:
    run = shuangkou("simulate", "--games", "20", "--json")
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    assert list(data) == [
        "config", "games", "bots", "mean_transfer", "stdev_transfer", "max_transfer",
        "house_total", "results", "escapes", "timeouts", "hosting_switched_on",
    ]
    assert data["config"] == "Points room" and data["games"] == 20
    assert [bot["bot"] for bot in data["bots"]] == ["greedy", "hosting"]  # the defaults
    for bot in data["bots"]:
        assert list(bot) == [
            "bot", "wins", "win_rate", "win_rate_95", "mean_delta", "stdev_delta", "scoring_phases",
        ]
        assert len(bot["win_rate_95"]) == 2
    assert data == simulate(POINTS, ("greedy", "hosting"), 20).to_dict() | {"bots": data["bots"]}


def test_cli_simulate_text_and_options() -> None:
    run = shuangkou(
        "simulate", "--games", "6", "--bots", "random,greedy", "--config", "wealth",
        "--set", "table_fee=10", "--seed", "4", "--escape-rate", "0.5",
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("6 games, room 'Wealth room'")
    assert "random" in run.stdout and "house took" in run.stdout


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("--bots", "greedy,smart"), "--bots"),
        (("--bots", "greedy"), "--bots"),
        (("--bots", "greedy,hosting,random"), "--bots"),
        (("--games", "0"), "--games"),
        (("--jobs", "0"), "--jobs"),
        (("--config", "casino"), "casino"),
        (("--set", "jokers=wild"), "jokers"),
        (("--games", "many"), "--games"),
    ],
)
def test_cli_simulate_bad_input_exits_2(
    args: tuple[str, ...], needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["simulate", *args, "--json"]) == 2
    captured = capsys.readouterr()
    error = json.loads(captured.out)["error"]
    assert isinstance(error, str) and needle in error
    assert needle in captured.err


def test_cli_simulate_a_four_seat_room() -> None:
    run = shuangkou("simulate", "--config", "qianbian", "--games", "10", "--bots", "random,hosting", "--json")
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    assert data == json.loads(json.dumps(simulate(load_config("qianbian"), ("random", "hosting"), 10).to_dict()))
    assert data["config"] == "Qianbian room (千变)" and [bot["bot"] for bot in data["bots"]] == ["random", "hosting"]
    text = shuangkou("simulate", "--config", "classic", "--games", "4")
    assert text.returncode == 0 and text.stdout.startswith("4 games, room 'Classic room', one team per bot\n")


def test_cli_simulate_bad_input_through_the_real_command() -> None:
    run = shuangkou("simulate", "--games", "0")
    assert run.returncode == 2
    assert json.loads(run.stdout) == {"error": "--games and --jobs must be at least 1"}


def test_simulation_doc_examples(capsys: pytest.CaptureFixture[str]) -> None:
    """The examples of docs/simulation.md are real output; the 1000- and 2000-game
    measurements are left to be run by hand (they take a while)."""
    text = (DOCS / "simulation.md").read_text(encoding="utf-8")
    checked = 0
    for block in re.findall(r"```console\n(.*?)```", text, re.DOTALL):
        for chunk in re.split(r"^\$ ", block, flags=re.MULTILINE)[1:]:
            command, _, expected = chunk.partition("\n")
            words = shlex.split(command)
            assert words[:2] == ["shuangkou", "simulate"], command
            if "--games" in words and int(words[words.index("--games") + 1]) > 200:
                continue
            main(words[1:])
            assert capsys.readouterr().out == expected, command
            checked += 1
    assert checked >= 5
