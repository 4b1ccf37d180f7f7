"""Players that choose moves through the public move API: the hosting policy (R11.2), a
uniform random player, and a greedy planner, for two seats or four (RULES-CLASSIC).

A bot sees what a player sees (:class:`Seen`): its own hand, the table and who played
it, every seat's card count and team, the finishing order and the plays so far. It
answers with the :class:`~shuangkou.games.shuangkou.combos.Combo` to play, or None to pass;
:func:`bot_action` turns that answer into the game action of the seat to act.
"""

from __future__ import annotations

import operator
import random
from abc import ABC, abstractmethod
from bisect import bisect_left
from itertools import chain, compress, repeat
from operator import itemgetter, le, ne, not_
from typing import TYPE_CHECKING, NamedTuple, Protocol

from ...cards import Counts
from .combos import BJ_SLOT, SJ_SLOT, Combo, Kind, playable_readings
from .config import RoomConfig, load_config
from .game import Action, Game, Pass, Play, PlayRecord
from .moves import hosting_move, legal_move_runs, legal_moves
from .rules import Rules

if TYPE_CHECKING:
    from .expert import Budget

__all__ = [
    "BOTS", "Bot", "GreedyBot", "HintBot", "HostingBot", "RandomBot", "Seen", "bot_action", "hint_moves", "hints",
    "make_bot",
    "whole_hand",
]


class Seen(NamedTuple):
    """What the player to act knows, and nothing more: its seat and hand, the table and
    the seat that played it, every seat's card count and team, the finishing order so
    far, the plays so far (public cards) and the rules. Built by :meth:`of`."""

    seat: int
    hand: Counts
    table: Combo | None
    table_seat: int | None
    cards_left: tuple[int, ...]
    teams: tuple[int, ...]
    finish_order: tuple[int, ...]
    plays: tuple[PlayRecord, ...]
    rules: Rules

    @classmethod
    def of(cls, game: Game, seat: int) -> Seen:
        """What ``seat`` sees of ``game``: its own hand, never another's."""
        table = game.table
        return cls(
            seat=seat,
            hand=game.counts(seat),
            table=table.combo if table else None,
            table_seat=table.seat if table else None,
            cards_left=tuple(map(len, game.hands)),
            teams=tuple(map(game.team, range(game.seats))),
            finish_order=tuple(game.finish_order),
            plays=tuple(game.plays),
            rules=game.rules,
        )

    @property
    def partner(self) -> int | None:
        """The partner's seat (four seats, C1.1), or None with two seats."""
        team = self.teams[self.seat]
        if self.teams.count(team) == 1:
            return None
        return next((other for other, its in enumerate(self.teams) if its == team and other != self.seat), None)

    @property
    def opponents(self) -> tuple[int, ...]:
        """The opponents' seats that still hold cards, in play order after this seat."""
        seats = len(self.cards_left)
        following = ((self.seat + step) % seats for step in range(1, seats))
        team = self.teams[self.seat]
        return tuple(other for other in following if self.teams[other] != team and self.cards_left[other])

    @property
    def opponent_cards(self) -> int:
        """The fewest cards an opponent still in the game holds (the one opponent's count
        with two seats)."""
        others = compress(self.cards_left, map(ne, self.teams, repeat(self.teams[self.seat])))  # of the other team
        return min(filter(None, others), default=0)  # of those still holding cards


class Bot(Protocol):
    """Chooses a move for the player to act, or None to pass (never None on a lead)."""

    def choose(self, seen: Seen) -> Combo | None: ...


class Acting(ABC):
    """A bot that also acts as the platform's player (:class:`~shuangkou.games.interface.Player`)."""

    @abstractmethod
    def choose(self, seen: Seen) -> Combo | None:
        """The move to make (None: pass)."""

    def act(self, hand: Game, seat: int) -> Action:
        """The action for ``seat``, the seat to act (:func:`bot_action`)."""
        return bot_action(hand, self)


class HostingBot(Acting):
    """The hosting policy of R11.2."""

    def choose(self, seen: Seen) -> Combo | None:
        return hosting_move(seen.hand, seen.table, seen.rules)


class RandomBot(Acting):
    """Uniformly random among all legal moves, and passing when following."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, seen: Seen) -> Combo | None:
        moves: list[Combo | None] = list(legal_moves(seen.hand, seen.table, seen.rules))
        if seen.table is not None:
            moves.append(None)
        return self.rng.choice(moves)


class GreedyBot(Acting):
    """Plans its hand: leads the combination that sheds the most low cards without
    breaking a bomb or spending jokers, follows with the weakest fitting move, and keeps
    bombs for when an opponent is close to going out or a bomb wins the game. With four
    seats it plays for its team: it lets its partner's play stand and leads what a
    partner about to go out can follow."""

    bomb_when_opponent_has = 8
    stop_opponent_at = 3  # an opponent holding this many cards or fewer is about to go out
    feed_partner_at = 2  # a partner holding this many cards or fewer is fed low singles and pairs

    def choose(self, seen: Seen, moves: list[Combo] | None = None) -> Combo | None:
        """The move to make (None: pass); ``moves`` are the legal moves when already listed."""
        return self._choose(seen, moves)

    def _choose(
        self,
        seen: Seen,
        moves: list[Combo] | None,
        groups: _Groups | None = None,
        lead_values: list[float] | None = None,
    ) -> Combo | None:
        """:meth:`choose`; ``groups``, the moves sorted out (:class:`_Groups`), and on a lead
        ``lead_values``, the value of each of its lead candidates (:meth:`_Groups.leads`), when
        already computed."""
        hand, table = seen.hand, seen.table
        whole = whole_hand(hand, table, seen.rules, moves)
        if whole is not None:
            return whole
        if table is not None and self.partner_stands(seen):
            return None
        if moves is None:
            moves = legal_moves(hand, table, seen.rules)
        if not moves:
            return None
        if groups is None:
            groups = _Groups.of(hand, moves)
        if table is None:
            candidates = groups.leads()
            if lead_values is None:
                lead_values = self.lead_values(seen, candidates)
            return candidates[lead_values.index(max(lead_values))]  # the first of the best, as max() takes
        opponent_cards = seen.opponent_cards
        spend_jokers = opponent_cards <= 6
        # A joker is spent only where no natural move takes the table (every follow that
        # breaks no bomb has the same effect: it takes the table).
        cheap = groups.keeps[0] if groups.keeps else next(iter(groups.keeps_bombs if spend_jokers else ()), None)
        if cheap is not None and (spend_jokers or cheap.top <= 14 or table.top >= 14):
            return cheap
        bombs = groups.bombs
        opponent_close = opponent_cards <= self.bomb_when_opponent_has
        if bombs and (opponent_close or _wins_after(bombs[0], hand, seen)):
            return bombs[0]
        if opponent_cards <= self.stop_opponent_at and groups.ordinary:
            return groups.ordinary[0]
        return None

    def partner_stands(self, seen: Seen) -> bool:
        """The table is the partner's play (its last cards too: passing then lets the lead
        come to this seat by 接风, C2.3), and the one opponent still to act on it, the
        next seat, is not close to going out: beating it would only spend cards."""
        if seen.partner is None or seen.table_seat != seen.partner:
            return False
        next_opponent_cards = seen.cards_left[(seen.seat + 1) % len(seen.cards_left)]
        return not 0 < next_opponent_cards <= self.stop_opponent_at

    def lead_values(self, seen: Seen, moves: list[Combo]) -> list[float]:
        """The value of leading each of ``moves``, for the seat of ``seen``: prefer shedding
        many cards, low ranks, no jokers; avoid leading what an opponent could answer with
        their last cards; lead a partner close to going out the low singles (or pairs, when
        it holds two) it can follow (four seats). All at once: a full hand leads hundreds."""
        opponent_cards = [seen.cards_left[opponent] for opponent in seen.opponents]
        partner_cards = 0 if seen.partner is None else seen.cards_left[seen.partner]
        feeds = 0 < partner_cards <= self.feed_partner_at
        held = list(map(_CARDS, moves))
        sizes = list(map(sum, held))
        tops = list(map(_TOP, moves))
        values = [
            size * 3.0 - top * 0.6 - (cards[SJ_SLOT] + cards[BJ_SLOT]) * 6.0
            for size, top, cards in zip(sizes, tops, held, strict=True)
        ]
        # Only a move of a size an opponent holds (a single, when one holds one card, too) or
        # fed to the partner is valued further.
        answered = set(opponent_cards)
        indices = range(len(moves))
        for index in indices if feeds else compress(indices, map(answered.__contains__, sizes)):
            size, top, kind = sizes[index], tops[index], moves[index].kind
            value = values[index]
            for cards_left in opponent_cards:
                if kind is Kind.SINGLE and cards_left == 1:
                    value -= 40 - top
                if size == cards_left:
                    value -= 10
            if feeds and kind in _FOLLOWABLE and size <= partner_cards:
                value += 40 - top
            values[index] = value
        return values


_FOLLOWABLE = (Kind.SINGLE, Kind.PAIR)
_CARDS = operator.attrgetter("cards")  # a move's cards
_PHASE = operator.attrgetter("phase")
_TOP = operator.attrgetter("top")


def hints(seen: Seen) -> list[Combo | None]:
    """The hints a player cycles through: :func:`hint_moves`, and on a follow the pass
    (None) too — first when the partner's play stands (:meth:`GreedyBot.partner_stands`:
    the next opponent is not about to go out) and the hand cannot go out at once, else
    last."""
    moves, first = _hint_order(seen)
    if seen.table is None:
        return list(moves)
    if first is None and GreedyBot().partner_stands(seen):
        return [None, *moves]
    return [*moves, None]


def hint_moves(seen: Seen) -> list[Combo]:
    """Every legal move in the order a good player would consider them (the hints): the
    greedy planner's choice first; then the moves that keep bombs and jokers, then those
    that spend them, bombs last (of one phase the natural bombs first), each group weakest
    first — except that on a lead the moves that spend nothing go by the greedy lead value
    (long low combinations first). Hosting (R11.2) is another thing and stays as it is."""
    return _hint_order(seen)[0]


def _hint_order(seen: Seen) -> tuple[list[Combo], Combo | None]:
    """:func:`hint_moves`, and the greedy planner's choice among them (None: it passes)."""
    runs = legal_move_runs(seen.hand, seen.table, seen.rules)
    if not runs:
        return [], None
    moves = list(chain.from_iterable(runs))
    planner = GreedyBot()
    groups = _Groups.of(seen.hand, moves)
    keeps = groups.keeps
    if seen.table is None:
        # A lead's value depends on what the moves of a run share: each run is valued once.
        ordinary_runs = runs[: bisect_left(runs, 1, key=_run_phase)]
        run_values = planner.lead_values(seen, list(map(_FIRST, ordinary_runs)))
        values = list(chain.from_iterable(map(repeat, run_values, map(len, ordinary_runs))))  # of the ordinary moves
        first = planner._choose(seen, moves, groups, groups.candidate_values(values, planner, seen))
        if keeps:
            if groups.keeping is not None:
                values = list(compress(values, groups.keeping))
            order = sorted(range(len(keeps)), key=values.__getitem__, reverse=True)  # stable: ties stay weakest first
            keeps = list(map(keeps.__getitem__, order))
    else:
        first = planner._choose(seen, moves, groups)
    ordered = keeps + groups.spends + groups.bombs
    if first is not None and first in ordered:
        ordered.remove(first)
        ordered.insert(0, first)
    return ordered, first


class _Groups(NamedTuple):
    """A hand's legal moves sorted out for planning and hints, each group in the order of
    the moves: the ordinary moves (not bombs) and the bombs; the ordinary moves that break
    no bomb of the hand (``keeps_bombs``), those that moreover spend no joker (``keeps``),
    and the rest of the ordinary moves (``spends``). ``unbroken`` and ``keeping`` tell, for
    each ordinary move, whether it is among ``keeps_bombs`` and ``keeps`` (None: all are)."""

    ordinary: list[Combo]
    bombs: list[Combo]
    keeps_bombs: list[Combo]
    keeps: list[Combo]
    spends: list[Combo]
    unbroken: list[bool] | None
    keeping: list[bool] | None

    @classmethod
    def of(cls, hand: Counts, moves: list[Combo]) -> _Groups:
        """Sort out ``moves``, the legal moves of ``hand`` in hint order (ordinary moves first,
        bombs after them: :func:`~shuangkou.games.shuangkou.moves.hint_key`)."""
        split = bisect_left(moves, 1, key=_PHASE)  # only bombs have a phase (R4)
        ordinary = moves[:split]
        bombs = sorted(moves[split:], key=_bomb_order)
        ranks = hand[:SJ_SLOT]
        protected = tuple(compress(range(SJ_SLOT), map(le, repeat(4), ranks))) if max(ranks) >= 4 else ()  # bomb ranks
        jokers = bool(hand[SJ_SLOT] or hand[BJ_SLOT])
        if not protected and not jokers:
            return cls(ordinary, bombs, ordinary, ordinary, [], None, None)
        keeping = _taking_none(ordinary, protected + _JOKER_SLOTS if jokers else protected)
        keeps = list(compress(ordinary, keeping))
        spends = list(compress(ordinary, map(not_, keeping)))
        if not protected:
            return cls(ordinary, bombs, ordinary, keeps, spends, None, keeping)
        if not jokers:
            return cls(ordinary, bombs, keeps, keeps, spends, keeping, keeping)
        unbroken = _taking_none(ordinary, protected)
        return cls(ordinary, bombs, list(compress(ordinary, unbroken)), keeps, spends, unbroken, keeping)

    def leads(self) -> list[Combo]:
        """What the planner leads from: the moves that break no bomb, else any ordinary move,
        else the bombs (then the only moves)."""
        return self.keeps_bombs or self.ordinary or self.bombs

    def candidate_values(self, values: list[float], planner: GreedyBot, seen: Seen) -> list[float]:
        """The lead values of :meth:`leads` from ``values``, those of the ordinary moves (the
        bombs' valued by ``planner`` for ``seen``)."""
        if self.keeps_bombs:
            return values if self.unbroken is None else list(compress(values, self.unbroken))
        return values if self.ordinary else planner.lead_values(seen, self.bombs)


_JOKER_SLOTS = (SJ_SLOT, BJ_SLOT)


def _bomb_order(bomb: Combo) -> tuple[int, bool]:
    """By phase, and of one phase the bombs that spend no joker first."""
    return bomb.phase, bomb.jokers > 0
_FIRST = itemgetter(0)  # a run's first move


def _run_phase(run: tuple[Combo, ...]) -> int:
    return run[0].phase


def _taking_none(moves: list[Combo], slots: tuple[int, ...]) -> list[bool]:
    """Whether each of ``moves`` takes no card of ``slots`` (one slot at least)."""
    taken = itemgetter(*slots)
    none: int | tuple[int, ...] = 0 if len(slots) == 1 else (0,) * len(slots)  # what ``taken`` gives for none
    return [taken(cards) == none for cards in map(_CARDS, moves)]


class HintBot(Acting):
    """A player who always takes the first hint (:func:`hints`): it lets its partner's play
    stand as the hints do, and otherwise passes only when nothing can be played."""

    def choose(self, seen: Seen) -> Combo | None:
        options = hints(seen)
        return options[0] if options else None


def whole_hand(hand: Counts, table: Combo | None, rules: Rules, moves: list[Combo] | None = None) -> Combo | None:
    """The whole hand as one move, when it is one (and beats the table): its strongest
    reading that may be played now (R5.3), as :func:`~shuangkou.games.shuangkou.combos.classify` reads it.
    ``moves``, the legal moves when listed, hold it when it is one: without it among them
    the hand is not classified (a failed classification costs more than listing the moves)."""
    if moves is not None and hand not in map(_CARDS, moves):
        return None
    options = playable_readings(hand, table, rules)
    return options[0] if options else None


def _wins_after(bomb: Combo, hand: Counts, seen: Seen) -> bool:
    rest = tuple(have - used for have, used in zip(hand, bomb.cards, strict=True))
    return whole_hand(rest, None, seen.rules) is not None or not any(rest)


BOTS: dict[str, str] = {
    "hosting": "the hosting policy of R11.2",
    "greedy": "the greedy planner",
    "random": "uniformly random among the legal moves",
    "hint": "always the first hint",
    "expert": "determinized Monte Carlo search (shuangkou.games.shuangkou.expert)",
}


def make_bot(
    name: str, seed: int | None = None, config: RoomConfig | None = None, budget: Budget | None = None
) -> Acting:
    """A bot by name (:data:`BOTS`). ``seed`` seeds the random and expert bots; the expert
    plays for the room ``config`` (the shipped points room when None) within ``budget``."""
    if name not in BOTS:
        raise ValueError(f"unknown bot {name!r}; choose from {', '.join(BOTS)}")
    if name == "random":
        return RandomBot(seed)
    if name == "expert":
        from .expert import ExpertBot  # the expert searches with this module's bots

        return ExpertBot(config or load_config("points"), seed, budget)
    plain: dict[str, type[HostingBot] | type[GreedyBot] | type[HintBot]] = {
        "hosting": HostingBot, "greedy": GreedyBot, "hint": HintBot,
    }
    return plain[name]()


def bot_action(game: Game, bot: Bot) -> Action:
    """The action ``bot`` takes for the seat to act, from what that seat may see."""
    seat = game.to_act
    move = bot.choose(Seen.of(game, seat))
    return Pass(seat) if move is None else Play.move(seat, move)
