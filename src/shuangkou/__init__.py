"""shuangkou: rules engine, simulator and game server for Rush Shuangkou (快速双扣).

The rules core is pure and deterministic: cards, combinations, comparison and legal
moves work on immutable values and never do I/O.

>>> from shuangkou import classify, beats, legal_moves, hosting_move
>>> str(classify("3 3 4 4 5 BJ"))
'pair_run 3 3 4 4 5 5'
>>> beats(classify("SJ SJ BJ"), classify("5 5 5 5 5"))
True
>>> str(hosting_move("4 4 9 9 SJ", table="3 3"))
'pair 4 4'
"""

from .cards import (
    DECK,
    Card,
    CardParseError,
    Counts,
    Rank,
    Suit,
    counts_of,
    format_cards,
    format_counts,
    parse_card,
    parse_cards,
)
from .combos import Combo, InvalidCombination, Kind, beats, bomb_key, classify, readings
from .moves import hint_key, hosting_move, legal_moves
from .rules import DEFAULT_RULES, Rules, RulesError

__all__ = [
    "DECK",
    "DEFAULT_RULES",
    "Card",
    "CardParseError",
    "Combo",
    "Counts",
    "InvalidCombination",
    "Kind",
    "Rank",
    "Rules",
    "RulesError",
    "Suit",
    "beats",
    "bomb_key",
    "classify",
    "counts_of",
    "format_cards",
    "format_counts",
    "hint_key",
    "hosting_move",
    "legal_moves",
    "parse_card",
    "parse_cards",
    "readings",
]
