"""Playing games between bots, and many of them for statistics."""

from __future__ import annotations

from collections.abc import Sequence

from .bots import Bot, Seen
from .config import RoomConfig
from .game import Action, Game, Pass, Play

__all__ = ["bot_action", "play_game"]


def bot_action(game: Game, bot: Bot) -> Action:
    """The action ``bot`` takes for the seat to act, from what that seat may see."""
    seat = game.to_act
    seen = Seen(game.counts(seat), game.table_combo, len(game.hands[1 - seat]), game.rules)
    move = bot.choose(seen)
    return Pass(seat) if move is None else Play.move(seat, move)


def play_game(settings: RoomConfig, bots: Sequence[Bot], seed: int | None = None) -> Game:
    """Deal a game (seeded when ``seed`` is given) and play it to the end with one bot per seat."""
    game = Game.deal(settings, seed)
    while not game.finished:
        game.apply(bot_action(game, bots[game.to_act]))
    return game
