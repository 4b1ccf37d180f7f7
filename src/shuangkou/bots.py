"""Players that choose moves through the public move API: the hosting policy (R11.2), a
uniform random player, and a greedy planner.

A bot sees what a player sees (:class:`Seen`): its own hand, the table, the opponent's
card count. It answers with the :class:`~shuangkou.combos.Combo` to play, or None to pass;
:func:`bot_action` turns that answer into the game action of the seat to act.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Protocol

from .cards import Counts
from .combos import SJ_SLOT, Combo, InvalidCombination, Kind, beats, classify
from .game import Action, Game, Pass, Play
from .moves import hosting_move, legal_moves
from .rules import Rules

__all__ = ["BOTS", "Bot", "GreedyBot", "HostingBot", "RandomBot", "Seen", "bot_action", "make_bot"]


@dataclass(frozen=True, slots=True)
class Seen:
    """What the player to act knows."""

    hand: Counts
    table: Combo | None
    opponent_cards: int
    rules: Rules


class Bot(Protocol):
    """Chooses a move for the player to act, or None to pass (never None on a lead)."""

    def choose(self, seen: Seen) -> Combo | None: ...


class HostingBot:
    """The hosting policy of R11.2."""

    def choose(self, seen: Seen) -> Combo | None:
        return hosting_move(seen.hand, seen.table, seen.rules)


class RandomBot:
    """Uniformly random among all legal moves, and passing when following."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, seen: Seen) -> Combo | None:
        moves: list[Combo | None] = list(legal_moves(seen.hand, seen.table, seen.rules))
        if seen.table is not None:
            moves.append(None)
        return self.rng.choice(moves)


class GreedyBot:
    """Plans its hand: leads the combination that sheds the most low cards without
    breaking a bomb or spending jokers, follows with the weakest fitting move, and keeps
    bombs for when the opponent is close to going out or a bomb wins the game."""

    bomb_when_opponent_has = 8

    def choose(self, seen: Seen) -> Combo | None:
        hand, table = seen.hand, seen.table
        whole = _whole_hand(hand, table, seen.rules)
        if whole is not None:
            return whole
        moves = legal_moves(hand, table, seen.rules)
        if not moves:
            return None
        protected = _bomb_ranks(hand)
        ordinary = [move for move in moves if not move.is_bomb]
        keeps_bombs = [move for move in ordinary if not _breaks(move, protected)]
        if table is None:
            candidates = keeps_bombs or ordinary or moves
            return max(candidates, key=lambda move: _lead_value(move, seen.opponent_cards))
        cheap = [move for move in keeps_bombs if not move.jokers or seen.opponent_cards <= 6]
        if cheap and (seen.opponent_cards <= 6 or cheap[0].top <= 14 or table.top >= 14):
            return cheap[0]
        bombs = [move for move in moves if move.is_bomb]
        opponent_close = seen.opponent_cards <= self.bomb_when_opponent_has
        if bombs and (opponent_close or _wins_after(bombs[0], hand, seen)):
            return bombs[0]
        if seen.opponent_cards <= 3 and ordinary:
            return ordinary[0]
        return None


def _whole_hand(hand: Counts, table: Combo | None, rules: Rules) -> Combo | None:
    """The whole hand as one move, when it is one (and beats the table)."""
    try:
        combo = classify(hand, table, rules)
    except InvalidCombination:
        return None
    return combo if table is None or beats(combo, table, rules) else None


def _bomb_ranks(hand: Counts) -> set[int]:
    return {slot for slot in range(SJ_SLOT) if hand[slot] >= 4}


def _breaks(move: Combo, protected: set[int]) -> bool:
    return any(move.cards[slot] for slot in protected)


def _lead_value(move: Combo, opponent_cards: int) -> float:
    """Prefer shedding many cards, low ranks, no jokers; avoid leading what the opponent
    could answer with their last cards."""
    value = move.size * 3.0 - move.top * 0.6 - move.jokers * 6.0
    if move.kind is Kind.SINGLE and opponent_cards == 1:
        value -= 40 - move.top
    if move.size == opponent_cards:
        value -= 10
    return value


def _wins_after(bomb: Combo, hand: Counts, seen: Seen) -> bool:
    rest = tuple(have - used for have, used in zip(hand, bomb.cards, strict=True))
    return _whole_hand(rest, None, seen.rules) is not None or not any(rest)


BOTS: dict[str, type[HostingBot] | type[GreedyBot] | type[RandomBot]] = {
    "hosting": HostingBot,
    "greedy": GreedyBot,
    "random": RandomBot,
}


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A bot by name: ``hosting``, ``greedy`` or ``random``."""
    if name not in BOTS:
        raise ValueError(f"unknown bot {name!r}; choose from {', '.join(BOTS)}")
    if name == "random":
        return RandomBot(seed)
    return BOTS[name]()


def bot_action(game: Game, bot: Bot) -> Action:
    """The action ``bot`` takes for the seat to act, from what that seat may see."""
    seat = game.to_act
    seen = Seen(game.counts(seat), game.table_combo, len(game.hands[1 - seat]), game.rules)
    move = bot.choose(seen)
    return Pass(seat) if move is None else Play.move(seat, move)
