"""Shuangkou's own commands of the ``shuangkou`` command line: ``classify`` (read cards as
a combination), ``moves`` (the legal moves of a hand, or hosting's) and ``demo``. The
command line adds them through the registry (:func:`shuangkou.games.commands`); see
``docs/cli.md``."""

from __future__ import annotations

import argparse
import random

from ...cards import DECK, HAND_SIZE, Card, CardParseError, format_cards, parse_cards
from ...commandline import EXIT_INVALID, EXIT_OK, AddParser, CommandError, Subparsers, emit
from .combos import KIND_NAMES, Combo, InvalidCombination, beats, bomb_key, classify
from .moves import hosting_move, legal_moves
from .rules import Rules, RulesError

__all__ = ["COMMANDS"]


def _add_rules_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--rules",
        nargs="+",
        action="extend",
        default=[],
        metavar="KEY=VALUE",
        help="rule variants, e.g. four_joker_bomb=largest serial_bomb_two=true hosting_bombs=false "
        "wild_jokers=none three_joker_bomb=false",
    )


def _add_table_option(parser: argparse.ArgumentParser, help: str) -> None:
    parser.add_argument("--table", metavar="CARDS", help=help)
    parser.add_argument(
        "--table-as",
        choices=KIND_NAMES,
        metavar="KIND",
        help="name the reading of --table when its cards can be read several ways (R5.4); default: the strongest",
    )


def _rules(args: argparse.Namespace) -> Rules:
    try:
        return Rules.from_strings(args.rules)
    except RulesError as error:
        raise CommandError(f"--rules: {error}") from None


def _cards(text: str, what: str) -> list[Card]:
    try:
        return parse_cards(text)
    except CardParseError as error:
        raise CommandError(f"{what}: {error}") from None


def _table(args: argparse.Namespace, rules: Rules) -> Combo | None:
    """The combination on the table (the reading ``--table-as`` names, else its strongest),
    or None on a lead."""
    if args.table is None:
        if args.table_as is not None:
            raise CommandError("--table-as: needs --table")
        return None
    cards = _cards(args.table, "--table")
    try:
        return classify(cards, rules=rules, kind=args.table_as)
    except InvalidCombination as error:
        raise CommandError(f"{'--table-as' if args.table_as else '--table'}: {error.reason}") from None


def _combo_dict(combo: Combo, table: Combo | None, rules: Rules) -> dict[str, object]:
    """:meth:`Combo.to_dict` plus ``beats_table``: a bool with a table, null without."""
    return {**combo.to_dict(), "beats_table": None if table is None else beats(combo, table, rules)}


# ---------------------------------------------------------------------------
# classify


def add_classify(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "classify",
        help="read a set of cards as a combination (JSON)",
        description="Read CARDS as the combination they are played as (RULES R3-R6) and print it as JSON.",
    )
    parser.add_argument("cards", metavar="CARDS", nargs="+", help='card string, e.g. "3 3 4 4 5 BJ"')
    _add_table_option(parser, "the combination on the table: read CARDS to beat it and report beats_table")
    parser.add_argument(
        "--as",
        dest="kind",
        choices=KIND_NAMES,
        metavar="KIND",
        help="name the reading (R5.4): " + ", ".join(KIND_NAMES),
    )
    _add_rules_option(parser)
    parser.set_defaults(run=run_classify)


def run_classify(args: argparse.Namespace) -> int:
    rules = _rules(args)
    cards = _cards(" ".join(args.cards), "cards")
    table = _table(args, rules)
    try:
        combo = classify(cards, table, rules, args.kind)
    except InvalidCombination as error:
        emit({"kind": None, "reason": error.reason})
        return EXIT_INVALID
    emit(_combo_dict(combo, table, rules))
    return EXIT_OK


# ---------------------------------------------------------------------------
# moves


def add_moves(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "moves",
        help="list the legal moves of a hand (JSON)",
        description="Print every legal move of HAND, weakest first (hint order), as a JSON list.",
    )
    parser.add_argument("hand", metavar="HAND", nargs="+", help='card string, e.g. "3 3 4 4 5 BJ"')
    _add_table_option(parser, "the combination to beat (omit on a lead)")
    parser.add_argument(
        "--hosting",
        action="store_true",
        help="print only the move hosting makes (R11.2), or null for a pass",
    )
    _add_rules_option(parser)
    parser.set_defaults(run=run_moves)


def run_moves(args: argparse.Namespace) -> int:
    rules = _rules(args)
    hand = _cards(" ".join(args.hand), "hand")
    table = _table(args, rules)
    if args.hosting:
        move = hosting_move(hand, table, rules)
        emit(None if move is None else _combo_dict(move, table, rules))
    else:
        emit([_combo_dict(move, table, rules) for move in legal_moves(hand, table, rules)])
    return EXIT_OK


# ---------------------------------------------------------------------------
# demo

_DEMO_READINGS = ("33445 BJ", "BJ 5679", "5678 SJ", "3344 SJ", "444 BJ", "4444 SJ", "SJ SJ BJ")
_DEMO_FIGHTS = (
    ("34567", "45678"),
    ("34567", "456789"),
    ("88888", "444444"),
    ("SJ SJ BJ BJ", "444455556666"),
    ("4444 55555 66666", "7777 88888 99999"),
)


def add_demo(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "demo",
        help="a short demonstration of the rules engine",
        description="Deal a seeded hand and show a few readings and comparisons from RULES section 13.",
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the deal (default 1)")
    parser.set_defaults(run=run_demo)


def run_demo(args: argparse.Namespace) -> int:
    hand = sorted(random.Random(args.seed).sample(DECK, HAND_SIZE))
    moves = legal_moves(hand)
    bombs = [move for move in moves if move.is_bomb]
    print("Rush Shuangkou rules engine")
    print()
    print(f"A {HAND_SIZE}-card hand from the 108-card double deck (seed {args.seed}):")
    print(f"  {format_cards(hand)}")
    print(f"  {len(moves)} different lead moves, {len(bombs)} of them bombs.")
    if bombs:
        print(f"  Strongest bomb: {max(bombs, key=bomb_key)}")
    print(f"  Hosting would lead: {hosting_move(hand)}")
    print()
    print("Reading cards (jokers are wild):")
    for text in _DEMO_READINGS:
        try:
            result = str(classify(text))
        except InvalidCombination:
            result = "not a combination"
        print(f"  {text:<10} {result}")
    print()
    print("Which beats which:")
    for table, played in _DEMO_FIGHTS:
        verdict = "beats" if beats(classify(played), classify(table)) else "does not beat"
        print(f"  {played:<18} {verdict:<13} {table}")
    print()
    print('Try: shuangkou classify "4 5 6 SJ SJ SJ" --table "3 3 4 4 5 5"')
    print('     shuangkou moves "4 4 9 9 SJ" --table "3 3" --hosting')
    print("     shuangkou --help")
    return EXIT_OK


COMMANDS: tuple[AddParser, ...] = (add_classify, add_moves, add_demo)
"""The commands, in the order ``--help`` lists them."""
