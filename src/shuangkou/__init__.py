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

A whole game, under a room configuration:

>>> game = Game.from_hands(load_config("points"), ["3 3 9", "4 4 5"], leader=0)
>>> [event.type for event in game.apply(Play.of(0, "3 3"))]
['play']
>>> [event.type for event in game.apply(Play.of(1, "4 4"))]
['play', 'pass']
>>> game.apply(Play.of(1, "5"))[-1].type, game.winner, game.result
('end', 1, 'flat')
>>> game.settle([1000, 1000]).deltas
(-60, 60)
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
from .games.shuangkou.combos import Combo, InvalidCombination, Kind, beats, bomb_key, classify, readings
from .games.shuangkou.config import ConfigError, RoomConfig, load_config
from .games.shuangkou.game import Escape, Game, GameError, HostedTurn, Hosting, Pass, Play, Timeout
from .games.shuangkou.moves import hint_key, hosting_move, legal_moves
from .games.shuangkou.rules import DEFAULT_RULES, Rules, RulesError
from .games.shuangkou.scoring import Settlement, scoring_phase, settle

__all__ = [
    "DECK",
    "DEFAULT_RULES",
    "Card",
    "CardParseError",
    "Combo",
    "ConfigError",
    "Counts",
    "Escape",
    "Game",
    "GameError",
    "HostedTurn",
    "Hosting",
    "InvalidCombination",
    "Kind",
    "Pass",
    "Play",
    "Rank",
    "RoomConfig",
    "Rules",
    "RulesError",
    "Settlement",
    "Suit",
    "Timeout",
    "beats",
    "bomb_key",
    "classify",
    "counts_of",
    "format_cards",
    "format_counts",
    "hint_key",
    "hosting_move",
    "legal_moves",
    "load_config",
    "parse_card",
    "parse_cards",
    "readings",
    "scoring_phase",
    "settle",
]
