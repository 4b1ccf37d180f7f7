"""The environment every game shares: a PettingZoo AEC environment over the platform's
game interface (:mod:`shuangkou.games.interface`), one agent per seat.

What differs per game — the numbers a seat sees and the meaning of each action — is the
game's :class:`Encoder` (``shuangkou.env.shuangkou``, ``.royalist``, ``.tractor``),
registered by family name (:func:`register_encoder`). This module reaches a game only
through the registry and the interface.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Protocol

import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray
from pettingzoo import AECEnv

from ..games import load_room
from ..games.interface import GameFamily, Hand, Player, Room

__all__ = [
    "REWARDS", "Encoder", "IllegalAction", "Mask", "Observation", "RawEnv", "Vector", "encoder_games",
    "register_encoder",
]

Mask = NDArray[np.int8]
"""One 0/1 entry per action of a game's space."""

Vector = NDArray[np.float32]
"""A seat's observation vector, every entry in [0, 1]."""

Observation = dict[str, Any]
"""``{"observation": Vector, "action_mask": Mask}``."""

REWARDS = ("money", "units")
"""What a finished hand pays each agent: its settlement delta, or that delta over X."""


class IllegalAction(ValueError):
    """An action the acting seat's mask does not allow, or a bot's move the space cannot
    express; nothing changed."""


class Encoder(Protocol):
    """One game's encoding: its fixed action space, a seat's observation, the legal actions
    and what they do to the hand. One encoder serves one environment, hand after hand."""

    @property
    def actions(self) -> int:
        """The size of the game's Discrete action space."""
        ...

    @property
    def features(self) -> int:
        """The length of the observation vector."""
        ...

    def start(self, hand: Any) -> None:
        """A new hand begins (forget anything kept of the last one)."""
        ...

    def mask(self, seat: int) -> Mask:
        """The actions ``seat`` may take now (the seat the hand waits for), in an array of
        its own for each state (the encoder never changes one it has returned)."""
        ...

    def act(self, seat: int, action: int) -> None:
        """Take ``action`` for ``seat``: apply its game action to the hand, or (a game
        with card-by-card selection) remember a card; :class:`IllegalAction` when masked out."""
        ...

    def observe(self, seat: int) -> Vector:
        """What ``seat`` may see now, as numbers in [0, 1]."""
        ...

    def acting(self) -> int | None:
        """The seat that acts next (one of the hand's waiting seats), None once over."""
        ...

    def action_of(self, seat: int, move: Any) -> int:
        """The next action of this space towards the game action ``move`` of ``seat`` (a bot's)."""
        ...

    def describe(self, action: int) -> str:
        """What ``action`` means, for people (docs, logs, errors)."""
        ...


_ENCODERS: dict[str, Callable[[Any], Encoder]] = {}


def register_encoder(game: str, make: Callable[[Any], Encoder]) -> None:
    """Make the family ``game`` an environment, encoded by ``make(room)`` (``room``: the
    family's own room type)."""
    _ENCODERS[game] = make


def encoder_games() -> tuple[str, ...]:
    """The families that have an encoder."""
    return tuple(sorted(_ENCODERS))


class RawEnv(AECEnv):  # type: ignore[misc]  # PettingZoo is untyped
    """One table of any room as an AEC environment (docs/env.md): agents ``seat_0`` …,
    the seat the hand waits for acts, each hand is an episode ending in its settlement.

    ``room``: a shipped room's name or a room file; ``reward``: ``"money"`` (each seat's
    settlement delta) or ``"units"`` (the delta over the hand's match points X);
    ``balances``: each seat's balance before the hand (default: the room's starting
    balance, which sets X and any caps); ``overrides``: room keys, as for
    :func:`shuangkou.games.load_room`."""

    metadata: ClassVar[dict[str, Any]] = {"name": "shuangkou_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(
        self,
        room: str = "points",
        *,
        reward: str = "money",
        balances: Sequence[int] | None = None,
        render_mode: str | None = None,
        **overrides: object,
    ) -> None:
        super().__init__()
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.family: GameFamily
        self.room: Room
        self.family, self.room = load_room(room, overrides or None)
        if self.family.name not in _ENCODERS:
            raise ValueError(f"no environment for the game {self.family.name!r}; there is one for "
                             f"{', '.join(encoder_games())}")
        seats = self.room.seats
        if balances is None:
            balances = [self.room.starting_balance] * seats
        if len(balances) != seats:
            raise ValueError(f"balances: this room has {seats} seats, not {len(balances)}")
        self.balances = tuple(int(balance) for balance in balances)
        self.reward_kind = reward
        self.render_mode = render_mode
        self.encoder = _ENCODERS[self.family.name](self.room)
        self.possible_agents = [f"seat_{seat}" for seat in range(seats)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        observation = spaces.Box(0.0, 1.0, (self.encoder.features,), dtype=np.float32)
        mask = spaces.Box(0, 1, (self.encoder.actions,), dtype=np.int8)
        self.observation_spaces = {
            agent: spaces.Dict({"observation": observation, "action_mask": mask}) for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(self.encoder.actions) for agent in self.possible_agents}
        self._seeds: random.Random | None = None
        self._players: dict[str, Player] = {}
        self.hand: Hand | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The same Dict space for every seat."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The game's Discrete space (docs/env.md)."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: Mapping[str, Any] | None = None) -> None:
        """Deal a new hand: with ``seed``, the hand :meth:`GameFamily.deal` deals for that
        seed; without, the next of the seeds drawn from the last one given (a secure
        source when none was ever given)."""
        if seed is not None:
            self._seeds = random.Random(seed)
            deal_seed = seed
        elif self._seeds is not None:
            deal_seed = self._seeds.getrandbits(63)
        else:
            deal_seed = secrets.randbits(63)
        self.deal_seed = deal_seed
        self._players = {}
        self.hand = self.family.deal(self.room, deal_seed)
        self.encoder.start(self.hand)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self._acting_agent()

    def _acting_agent(self) -> str:
        seat = self.encoder.acting()
        return self.possible_agents[seat] if seat is not None else self.agents[0]

    def observe(self, agent: str) -> Observation:
        """The seat's observation and its mask (all zeros unless it is the seat to act)."""
        seat = self._seat[agent]
        acting = agent == self.agent_selection and not self.terminations.get(agent, True)
        mask = self.encoder.mask(seat) if acting else np.zeros(self.encoder.actions, dtype=np.int8)
        return {"observation": self.encoder.observe(seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """The selected seat takes ``action``; a finished hand pays every seat and ends the
        episode for all (a finished agent's step takes None)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalAction(f"{agent} is to act: None is only for a finished agent")
        self.encoder.act(self._seat[agent], int(action))
        self._cumulative_rewards[agent] = 0.0
        hand = self._hand()
        if hand.finished:
            self.rewards = dict(zip(self.agents, self._payout(hand), strict=True))
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self._clear_rewards()
            self.agent_selection = self._acting_agent()
        self._accumulate_rewards()

    def _payout(self, hand: Hand) -> list[float]:
        settled = hand.settlement(self.balances)
        deltas = [float(delta) for delta in settled.deltas]
        if self.reward_kind == "units":
            points = int(settled.to_dict()["match_points"])
            deltas = [delta / points for delta in deltas]
        return deltas

    def _hand(self) -> Hand:
        if self.hand is None:
            raise RuntimeError("reset() deals the first hand")
        return self.hand

    def bot_action(self, agent: str, level: str = "hosting") -> int:
        """The action the platform's bot ``level`` (:attr:`GameFamily.bots`: ``hosting``,
        ``greedy``, ``expert`` …) takes for ``agent`` now, from what that seat may see."""
        seat = self._seat[agent]
        if agent != self.agent_selection or self.terminations[agent]:
            raise IllegalAction(f"{agent} is not to act now; {self.agent_selection} is")
        player = self._players.get(level)
        if player is None:
            player = self._players[level] = self.family.player(level, self.deal_seed, self.room)
        return self.encoder.action_of(seat, player.act(self._hand(), seat))

    def describe(self, action: int) -> str:
        """What ``action`` of this game's space means."""
        return self.encoder.describe(action)

    def render(self) -> str | None:
        """``"ansi"``: the public view of the hand, as text."""
        if self.render_mode != "ansi":
            return None
        return str(dict(self._hand().view(None)))

    def close(self) -> None:
        """Nothing to release."""
