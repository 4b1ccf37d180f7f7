"""Shuangkou's bots at a server's table, at their room's level (``bot_level``).

Easy and normal bots act at once: a move costs them well under a millisecond. An expert
searches for tens of milliseconds per move (:mod:`.expert`), which would hold up every
table of a server; its search (:func:`expert_action`) is handed to a worker process, from
the bot's own view (:class:`~.bots.Seen`: what its seat may see, nothing more), and it
falls back on the normal bot's move when the search fails.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .bots import Acting, Seen, make_bot
from .config import BotLevel, RoomConfig
from .expert import Budget, ExpertBot
from .game import Action, Game, Pass, Play

__all__ = ["LEVEL_BOTS", "ShuangkouTableBot", "expert_action"]

LEVEL_BOTS: dict[BotLevel, str] = {"easy": "hosting", "normal": "greedy", "expert": "expert"}
"""The bot (:data:`~.bots.BOTS`) that plays at each level."""


def expert_action(config: RoomConfig, seen: Seen, seed: int, rollouts: int) -> Action:
    """In a worker process: the expert's action for ``seen``, searched with ``seed`` and ``rollouts``."""
    move = ExpertBot(config, seed, Budget(rollouts)).choose(seen)
    return Pass(seen.seat) if move is None else Play.move(seen.seat, move)


@dataclass(frozen=True, slots=True)
class ShuangkouTableBot:
    """A bot at the ``level`` of its room (:class:`~shuangkou.games.interface.TableBot`): the
    bot that acts at once (for an expert, the normal bot its search falls back on), and the
    ``rollouts`` an expert spends per move (0: no search)."""

    level: BotLevel
    quick: Acting
    rollouts: int = 0

    @classmethod
    def of(cls, config: RoomConfig) -> ShuangkouTableBot:
        """A bot at the level of the room ``config``."""
        level = config.bot_level
        if level == "expert":
            return cls(level, make_bot(LEVEL_BOTS["normal"]), config.expert_rollouts)
        return cls(level, make_bot(LEVEL_BOTS[level]))

    def act(self, hand: Game, seat: int) -> Action:
        """The quick bot's action for ``seat``."""
        return self.quick.act(hand, seat)

    def search(self, hand: Game, seat: int, seed: int) -> tuple[Callable[..., Any], tuple[Any, ...]] | None:
        """An expert's search for ``seat``, from what that seat may see; None below expert."""
        if not self.rollouts:
            return None
        return expert_action, (hand.settings, Seen.of(hand, seat), seed, self.rollouts)
