"""The ``shuangkou`` command line, run as a real process: every output shape and exit
status of ``classify``, ``moves`` and ``demo``, and the examples of docs/cli.md and
docs/library.md. Rule ids refer to RULES.md."""

from __future__ import annotations

import doctest
import json
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
COMMAND = [sys.executable, "-m", "shuangkou"]
CONSOLE_SCRIPT = Path(sys.executable).parent / "shuangkou"
COMBO_KEYS = ["kind", "length", "top", "phase", "cards", "reading", "beats_table"]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*COMMAND, *args], capture_output=True, text=True, check=False, cwd=ROOT)


def run_json(*args: str, status: int = 0) -> Any:
    """Run a command, check its exit status, and return its stdout parsed as JSON."""
    result = run(*args)
    assert result.returncode == status, (result.stdout, result.stderr)
    return json.loads(result.stdout)


def error_of(*args: str) -> str:
    """Run a command that must fail with bad input (exit 2) and return its error text."""
    result = run(*args)
    assert result.returncode == 2, (result.stdout, result.stderr)
    output = json.loads(result.stdout)
    assert list(output) == ["error"]
    assert result.stderr.strip(), "a message on stderr too"
    message: str = output["error"]
    return message


# ---------------------------------------------------------------------------
# classify


def test_classify_prints_the_combo_shape() -> None:  # R5.2: 33445 BJ = 334455
    assert run_json("classify", "3 3 4 4 5 BJ") == {
        "kind": "pair_run",
        "length": 3,
        "top": "5",
        "phase": 0,
        "cards": "3 3 4 4 5 BJ",
        "reading": "3 3 4 4 5 5",
        "beats_table": None,
    }


def test_classify_output_is_one_json_line_with_fixed_key_order() -> None:
    result = run("classify", "7")
    assert result.stdout.count("\n") == 1
    assert list(json.loads(result.stdout)) == COMBO_KEYS


def test_cards_may_be_given_as_several_arguments() -> None:
    assert run_json("classify", "3", "3", "4", "4", "5", "BJ") == run_json("classify", "33445 BJ")


@pytest.mark.parametrize(
    ("rule", "cards", "kind", "length", "top", "phase", "reading"),
    [
        ("R3.1", "BJ", "single", 1, "BJ", 0, "BJ"),
        ("R3.2", "SJ SJ", "pair", 1, "SJ", 0, "SJ SJ"),
        ("R3.3", "QQQ", "triple", 1, "Q", 0, "Q Q Q"),
        ("R3.4", "10JQKA", "straight", 5, "A", 0, "10 J Q K A"),
        ("R3.6", "444555666", "triple_run", 3, "6", 0, "4 4 4 5 5 5 6 6 6"),
        ("R5.2", "BJ 5679", "straight", 5, "9", 0, "5 6 7 8 9"),
        ("R5.2", "BJ 222", "bomb", 1, "2", 4, "2 2 2 2"),
        ("R5.3", "5678 SJ", "straight", 5, "9", 0, "5 6 7 8 9"),
        ("R5.3", "444 BJ", "bomb", 1, "4", 4, "4 4 4 4"),
        ("R5.3", "5 SJ SJ BJ BJ", "bomb", 1, "5", 5, "5 5 5 5 5"),
        ("R5.5", "4444 SJ", "bomb", 1, "4", 5, "4 4 4 4 4"),
        ("R5.5", "33334444555 BJ", "serial_bomb", 3, "5", 7, "3 3 3 3 4 4 4 4 5 5 5 5"),
        ("R4.2", "SJ SJ BJ", "joker_bomb", 1, "BJ", 6, "SJ SJ BJ"),
        ("R4.3", "SJ SJ BJ BJ", "joker_bomb", 1, "BJ", 7, "SJ SJ BJ BJ"),
        ("R4.5", "4444 55555 66666", "serial_bomb", 3, "6", 7, "4 4 4 4 5 5 5 5 5 6 6 6 6 6"),
        ("R4.7", "44444444 SJ SJ BJ BJ", "bomb", 1, "4", 12, "4 4 4 4 4 4 4 4 4 4 4 4"),
    ],
)
def test_classify_readings(
    rule: str, cards: str, kind: str, length: int, top: str, phase: int, reading: str
) -> None:
    output = run_json("classify", cards)
    assert (output["kind"], output["length"], output["top"], output["phase"]) == (kind, length, top, phase)
    assert output["reading"] == reading, rule


@pytest.mark.parametrize(
    ("rule", "table", "played", "beats"),
    [  # RULES §13
        ("R6.3", "AAAA", "2222", True),
        ("R6.1", "34567", "45678", True),
        ("R6.1", "34567", "456789", False),
        ("R6.2", "34567", "4444", True),
        ("R6.3", "88888", "444444", True),
        ("R6.3", "7777777", "444455556666", True),
        ("R6.3", "SJ SJ BJ BJ", "444455556666", True),
        ("R6.4", "4444 55555 66666", "7777 88888 99999", False),
        ("R6.4", "4444 55555 66666", "77777 88888 99999", True),
        ("R6.3", "SJ SJ BJ", "666666", True),
        ("R6.1", "3 3 4 4 5 5", "3 3 4 4 5 BJ", False),
        ("R6.1", "9", "8", False),
        ("R6.1", "2", "SJ", True),
    ],
)
def test_classify_with_table_reports_beats_table(rule: str, table: str, played: str, beats: bool) -> None:
    output = run_json("classify", played, "--table", table)
    assert output["beats_table"] is beats, rule


def test_table_selects_the_strongest_reading_that_beats_it() -> None:  # R5.3 exception, R5.4
    assert run_json("classify", "4 5 6 SJ SJ SJ")["kind"] == "straight"
    output = run_json("classify", "4 5 6 SJ SJ SJ", "--table", "3 3 4 4 5 5")
    assert (output["kind"], output["reading"], output["beats_table"]) == ("pair_run", "4 4 5 5 6 6", True)


def test_as_names_the_reading() -> None:  # R5.4
    assert run_json("classify", "345 SJ SJ SJ")["reading"] == "3 4 5 6 7 8"
    output = run_json("classify", "345 SJ SJ SJ", "--as", "pair_run")
    assert (output["kind"], output["reading"]) == ("pair_run", "3 3 4 4 5 5")


def test_as_a_kind_the_cards_cannot_be_is_invalid() -> None:  # R5.4
    output = run_json("classify", "345 SJ SJ SJ", "--as", "bomb", status=1)
    assert output["kind"] is None
    assert "cannot be played as bomb" in output["reason"]


@pytest.mark.parametrize(
    ("rule", "cards", "reason"),
    [
        ("R5.2", "3344 SJ", "not a combination"),
        ("R3.8", "333 4", "not a combination"),
        ("R3.8", "K A 2 3 4", "not a combination"),
        ("R4.6", "44445555", "not a combination"),
        ("R5.1", "SJ BJ", "SJ and BJ together are not a pair"),
        ("R3.8", "", "no cards"),
    ],
)
def test_invalid_combination_exits_1(rule: str, cards: str, reason: str) -> None:
    output = run_json("classify", cards, status=1)
    assert list(output) == ["kind", "reason"]
    assert output["kind"] is None
    assert reason in output["reason"], rule


def test_rules_four_joker_bomb_largest() -> None:  # R6.3 variant
    args = ("classify", "SJ SJ BJ BJ", "--table", "444455556666")
    assert run_json(*args)["beats_table"] is False
    assert run_json(*args, "--rules", "four_joker_bomb=largest")["beats_table"] is True


def test_rules_serial_bomb_two() -> None:  # R4.6 variant
    run_json("classify", "QQQQ KKKK AAAA 2222", status=1)
    output = run_json("classify", "QQQQ KKKK AAAA 2222", "--rules", "serial_bomb_two=true")
    assert (output["kind"], output["length"], output["top"], output["phase"]) == ("serial_bomb", 4, "2", 8)


def test_several_rules_in_one_or_several_options() -> None:
    one = run_json("classify", "SJ SJ BJ BJ", "--rules", "serial_bomb_two=true", "four_joker_bomb=largest")
    two = run_json(
        "classify", "SJ SJ BJ BJ", "--rules", "serial_bomb_two=true", "--rules", "four_joker_bomb=largest"
    )
    assert one == two


def test_malformed_cards_exit_2() -> None:
    message = error_of("classify", "3 X")
    assert message.startswith("cards: ")
    assert "'X'" in message


def test_joker_with_a_suit_exits_2() -> None:
    assert error_of("classify", "SJH").startswith("cards: ")


@pytest.mark.parametrize(
    ("rules", "needle"),
    [
        ("foo=1", "unknown rule 'foo'"),
        ("hosting_bombs=yes", "hosting_bombs must be true or false"),
        ("four_joker_bomb=middle", "four_joker_bomb must be"),
        ("serial_bomb_two", "expected key=value"),
    ],
)
def test_bad_rules_exit_2(rules: str, needle: str) -> None:
    message = error_of("classify", "3", "--rules", rules)
    assert message.startswith("--rules: ")
    assert needle in message


def test_table_as_names_the_reading_of_the_table() -> None:  # R5.4
    """An ambiguous table: 345 SJ SJ SJ is the straight 3..8 or the pair run 33 44 55."""
    straight, pair_run = "4 5 6 7 8 9", "4 4 5 5 6 6"
    assert run_json("classify", straight, "--table", "345 SJ SJ SJ")["beats_table"] is True
    assert run_json("classify", straight, "--table", "345 SJ SJ SJ", "--table-as", "pair_run")["beats_table"] is False
    assert run_json("classify", pair_run, "--table", "345 SJ SJ SJ", "--table-as", "pair_run")["beats_table"] is True
    moves = run_json("moves", "4 4 5 5 6 6 7 8 9", "--table", "345 SJ SJ SJ", "--table-as", "pair_run")
    assert {move["kind"] for move in moves} == {"pair_run"}
    message = error_of("classify", straight, "--table", "345 SJ SJ SJ", "--table-as", "bomb")
    assert message.startswith("--table-as: ") and "reads as straight, pair_run" in message
    assert error_of("moves", "3", "--table-as", "pair") == "--table-as: needs --table"


@pytest.mark.parametrize(
    ("table", "needle"),
    [
        ("3 4", "not a combination"),  # R3.8
        ("SJ BJ", "not a pair"),  # R5.1
        ("", "no cards"),
        ("3 X", "cannot read a card"),
    ],
)
def test_invalid_table_exits_2(table: str, needle: str) -> None:
    for command in ("classify", "moves"):
        message = error_of(command, "3", "--table", table)
        assert message.startswith("--table: ")
        assert needle in message


@pytest.mark.parametrize(
    "args",
    [
        (),
        ("classify",),
        ("moves",),
        ("classify", "3", "--as", "quad"),
        ("classify", "3", "--frobnicate"),
        ("nonsense",),
        ("demo", "--seed", "x"),
    ],
)
def test_usage_errors_exit_2_with_usage_on_stderr(args: tuple[str, ...]) -> None:
    error_of(*args)
    assert "usage: shuangkou" in run(*args).stderr


def test_help_exits_0() -> None:
    result = run("--help")
    assert result.returncode == 0
    for name in ("classify", "moves", "demo"):
        assert name in result.stdout


# ---------------------------------------------------------------------------
# moves


def test_moves_on_a_follow_in_hint_order() -> None:  # R6.1, R5.2; ordinary before bombs
    moves = run_json("moves", "4 4 9 9 SJ", "--table", "3 3")
    assert [(move["kind"], move["cards"], move["reading"]) for move in moves] == [
        ("pair", "4 4", "4 4"),
        ("pair", "4 SJ", "4 4"),
        ("pair", "9 9", "9 9"),
        ("pair", "9 SJ", "9 9"),
    ]
    assert all(list(move) == COMBO_KEYS and move["beats_table"] is True for move in moves)


def test_moves_on_a_lead() -> None:  # R2.2, R5.3: 5678 SJ has ten distinct moves
    moves = run_json("moves", "5 6 7 8 SJ")
    assert len(moves) == 10
    assert all(move["beats_table"] is None for move in moves)
    assert (moves[0]["cards"], moves[-1]["cards"]) == ("5", "SJ")  # hint order: weakest first
    assert {
        "kind": "straight",
        "length": 5,
        "top": "9",
        "phase": 0,
        "cards": "5 6 7 8 SJ",
        "reading": "5 6 7 8 9",
        "beats_table": None,
    } in moves


def test_moves_puts_bombs_last() -> None:  # R6.2
    moves = run_json("moves", "4444 9", "--table", "8")
    assert [(move["kind"], move["cards"]) for move in moves] == [("single", "9"), ("bomb", "4 4 4 4")]


def test_moves_on_a_bomb_only_bigger_bombs() -> None:  # R6.3
    moves = run_json("moves", "5555 666666 SJ SJ BJ", "--table", "88888")
    assert moves, "the hand holds bigger bombs"
    assert all(move["phase"] >= 5 and move["beats_table"] for move in moves)


def test_moves_with_nothing_to_play_is_an_empty_list() -> None:  # R2.6
    assert run_json("moves", "3 4", "--table", "2") == []
    assert run_json("moves", "") == []


def test_moves_respects_rules() -> None:  # R4.6 variant
    hand = "QQQQ KKKK AAAA 2222"
    serials = [move["reading"] for move in run_json("moves", hand) if move["kind"] == "serial_bomb"]
    assert "Q Q Q Q K K K K A A A A" in serials
    assert not any("2" in reading.split() for reading in serials)
    with_two = run_json("moves", hand, "--rules", "serial_bomb_two=true")
    assert "Q Q Q Q K K K K A A A A 2 2 2 2" in [move["reading"] for move in with_two]


def test_hosting_on_a_follow_is_the_weakest_beating_move() -> None:  # R11.2
    assert run_json("moves", "4 4 9 9 SJ", "--table", "3 3", "--hosting") == {
        "kind": "pair",
        "length": 1,
        "top": "4",
        "phase": 0,
        "cards": "4 4",
        "reading": "4 4",
        "beats_table": True,
    }


def test_hosting_on_a_lead_is_the_lowest_non_joker_single() -> None:  # R11.2
    move = run_json("moves", "SJ 9 K 3 3", "--hosting")
    assert (move["kind"], move["cards"], move["beats_table"]) == ("single", "3", None)
    assert run_json("moves", "BJ SJ", "--hosting")["cards"] == "SJ"


def test_hosting_pass_is_null() -> None:  # R11.2
    result = run("moves", "4 4", "--table", "9 9", "--hosting")
    assert (result.returncode, result.stdout) == (0, "null\n")


def test_hosting_bombs_rule() -> None:  # R11.2 [config hosting_bombs]
    args = ("moves", "4444 3", "--table", "9 9", "--hosting")
    assert run_json(*args)["kind"] == "bomb"
    assert run_json(*args, "--rules", "hosting_bombs=false") is None


def test_moves_bad_hand_exits_2() -> None:
    assert error_of("moves", "3 3 Z").startswith("hand: ")
    assert error_of("moves", "3", "--rules", "nope=1").startswith("--rules: ")


# ---------------------------------------------------------------------------
# demo, entry points


def test_demo_deals_a_seeded_hand() -> None:  # R1.2, R1.3, R1.4
    first = run("demo")
    assert first.returncode == 0 and first.stderr == ""
    assert first.stdout == run("demo", "--seed", "1").stdout
    hand_line = first.stdout.splitlines()[3]
    assert len(hand_line.split()) == 27
    assert "lead moves" in first.stdout
    assert "pair_run 3 3 4 4 5 5" in first.stdout  # R5.2
    other = run("demo", "--seed", "2")
    assert other.returncode == 0
    assert other.stdout.splitlines()[3] != hand_line


def test_console_script() -> None:
    if not CONSOLE_SCRIPT.exists():
        pytest.skip("the shuangkou console script is not installed next to this Python")
    result = subprocess.run(
        [str(CONSOLE_SCRIPT), "classify", "SJ SJ BJ"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0
    assert json.loads(result.stdout)["kind"] == "joker_bomb"  # R4.2


def test_main_in_process(capsys: pytest.CaptureFixture[str]) -> None:
    from shuangkou.cli import main

    assert main(["classify", "444 BJ"]) == 0
    assert json.loads(capsys.readouterr().out)["phase"] == 4  # R5.3
    assert main(["classify", "3 X"]) == 2
    assert "error" in json.loads(capsys.readouterr().out)


# ---------------------------------------------------------------------------
# The documentation's examples are real


def console_examples(text: str) -> list[tuple[str, str]]:
    """(command, expected stdout) pairs from the ```console blocks of a Markdown text."""
    examples: list[tuple[str, str]] = []
    for block in re.findall(r"```console\n(.*?)```", text, re.DOTALL):
        for chunk in re.split(r"^\$ ", block, flags=re.MULTILINE)[1:]:
            command, _, output = chunk.partition("\n")
            examples.append((command, output))
    return examples


def test_cli_doc_examples() -> None:
    examples = console_examples((DOCS / "cli.md").read_text(encoding="utf-8"))
    assert len(examples) >= 10
    last: subprocess.CompletedProcess[str] | None = None
    for command, expected in examples:
        if command == "echo $?":
            assert last is not None
            assert f"{last.returncode}\n" == expected, last.args
            continue
        words = shlex.split(command)
        assert words[0] == "shuangkou", command
        last = run(*words[1:])
        assert last.stdout == expected, command


def test_library_doc_examples() -> None:
    failures, tried = doctest.testfile(
        str(DOCS / "library.md"), module_relative=False, optionflags=doctest.ELLIPSIS
    )
    assert tried >= 20
    assert failures == 0
