"""Every game of the platform as a PettingZoo environment, for research (docs/env.md).

>>> from shuangkou.env import env
>>> table = env("classic")
>>> table.reset(seed=7)
>>> table.agent_selection in table.possible_agents, table.possible_agents[-1]
(True, 'seat_3')

:func:`env` wraps :class:`raw_env` in PettingZoo's standard wrappers (an action outside
the space, or a step before ``reset``, is refused at once); the raw environment refuses an
action its mask does not allow with :class:`IllegalAction`.
"""

from __future__ import annotations

from collections.abc import Sequence

from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from . import royalist, shuangkou, tractor
from .core import REWARDS, IllegalAction, RawEnv, encoder_games, register_encoder

__all__ = ["REWARDS", "IllegalAction", "encoder_games", "env", "raw_env", "register_encoder"]

raw_env = RawEnv
"""The unwrapped environment class."""

register_encoder("shuangkou", shuangkou.ShuangkouEncoder)
register_encoder("royalist", royalist.RoyalistEncoder)
register_encoder("tractor", tractor.TractorEncoder)


def env(
    room: str = "points",
    *,
    reward: str = "money",
    balances: Sequence[int] | None = None,
    render_mode: str | None = None,
    **overrides: object,
) -> AECEnv:
    """A table of ``room`` (a shipped room or a room file) as an AEC environment with the
    standard wrappers; the arguments are :class:`raw_env`'s."""
    table: AECEnv = RawEnv(
        room, reward=reward, balances=balances, render_mode=render_mode, **overrides
    )
    table = wrappers.AssertOutOfBoundsWrapper(table)
    return wrappers.OrderEnforcingWrapper(table)
