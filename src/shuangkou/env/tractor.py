"""Tractor (升级, RULES-TRACTOR.md) for the environment: one hand is an episode.

A play or a burial is chosen card by card, so that one fixed space holds every play:

- 0 … 53: add one card of a face to the selection (faces as :mod:`shuangkou.games.tractor.order`
  numbers them: suit S H C D × 13 + rank index with 2 as 0 and A as 12; 52 ``SJ``, 53
  ``BJ``). A burial is made when the selection holds as many cards as the bottom (T3.1),
  a follow when it holds as many cards as the lead (T7.1);
- 54 done: lead the selection (T6.1: a single, pair, tractor or throw of one effective
  suit; a throw the others can beat is reduced by the game, T6.4);
- 55 pass: during the deal take the next card (T2.1), in the window after it declare no
  more (T2.6);
- 56 … 59: declare one level card of suit S, H, C, D (T2.2); 60 … 63: a pair of them
  (or reinforce a single, T2.5); 64: two ``SJ``; 65: two ``BJ``.

The mask of a selection allows exactly the cards that extend it to a legal play: any card
of the lead's effective suit on a lead, and on a follow the cards of some legal follow
(T7.2–T7.4) that holds the selection.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from itertools import combinations
from typing import Any

import numpy as np

from ..errors import allowed
from ..games.tractor.config import TractorRoom
from ..games.tractor.formats import Counts, Lead, counted, profile_of, tau
from ..games.tractor.hand import Bury, Declare, Done, Draw, Play, TractorHand
from ..games.tractor.order import BJ, FACES, SJ, face_text
from ..games.tractor.scoring import team_of
from .core import IllegalAction, Mask, Vector

__all__ = ["DECLARATIONS", "DONE", "FIRST_DECLARATION", "PASS", "TractorEncoder", "declaration_faces"]

DONE = FACES
"""Lead the selection."""

PASS = FACES + 1
"""Take the next card, or declare no more."""

SEATS = 4
_SUITS = "SHCD"
_PHASES = ("deal", "declare", "bury", "play", "over")
_MOST_CARDS = 33  # a dealer's hand with the bottom (T3.1)
_LEVELS = 13


def declaration_faces(level: int) -> tuple[tuple[int, ...], ...]:
    """The faces each declaring action shows at level rank index ``level``."""
    singles = tuple((suit * 13 + level,) for suit in range(4))
    return (*singles, *((face, face) for (face,) in singles), (SJ, SJ), (BJ, BJ))


DECLARATIONS = ("one level card of S", "of H", "of C", "of D", "a pair of level cards of S", "of H", "of C", "of D",
                "two SJ", "two BJ")
"""Actions 56 … 65."""

FIRST_DECLARATION = FACES + 2


class TractorEncoder:
    """Cards, done, pass and declarations as actions (see the module's docstring); the
    observation of a seat, seats counted from it (itself first, then in play order), card
    faces numbered as the actions:

    =========  ==========================================================================
    entries    what
    =========  ==========================================================================
    54         its hand per face (÷ 2)
    54         its selection (÷ 2)
    4 × 54     the cards each seat has played in finished tricks (÷ 2)
    4 × 54     the current trick, per seat (÷ 2)
    54 + 54    the dealer alone: the bottom it took, the cards it buried (÷ 2)
    4          each seat's cards left (÷ 33)
    5          the phase: deal, declare, bury, play, over
    4 + 1      the dealer, one-hot; no dealer yet
    4          who leads the trick, one-hot
    13 + 2     the hand's level rank, one-hot; its own team's and the others' level (÷ 12)
    5 + 1      the trump suit S H C D or none, one-hot; the trump is fixed
    4 + 2 + 5  the standing declaration: its seat, its strength (single or pair; a joker
               pair is read from the suit "none"), its suit or none
    2          the attackers' points so far (÷ 200); whether it is on the dealer team
    =========  ==========================================================================
    """

    features = 54 * 2 + 4 * 54 * 2 + 54 * 2 + 4 + 5 + 5 + 4 + 13 + 2 + 6 + 11 + 2
    actions = FIRST_DECLARATION + len(DECLARATIONS)

    def __init__(self, room: TractorRoom) -> None:
        self.room = room
        self._hand: TractorHand | None = None
        self._selection: dict[int, int] = {}
        self._selected_in: object = None
        self._follows_in: object = None
        self._doubles: list[frozenset[int]] = []
        self._played = np.zeros((SEATS, FACES), dtype=np.float32)
        self._tricks_counted = 0

    def start(self, hand: Any) -> None:
        """A new hand: nothing selected."""
        self._hand = hand
        self._selection, self._selected_in, self._follows_in = {}, None, None
        self._played[:] = 0.0
        self._tricks_counted = 0

    def _current(self) -> TractorHand:
        if self._hand is None:
            raise RuntimeError("no hand: reset() deals one")
        return self._hand

    def acting(self) -> int | None:
        """The first seat the hand waits for."""
        waiting = self._current().waiting()
        return waiting[0].seat if waiting else None

    def selection(self) -> dict[int, int]:
        """The cards selected so far in this turn (none once the turn has passed)."""
        turn = self._current().turn
        if turn != self._selected_in:
            self._selection, self._selected_in = {}, turn
        return self._selection

    def legal(self, seat: int) -> dict[int, Any]:
        """The legal actions of ``seat`` now: a card action maps to its face, done and the
        decisions to their game actions."""
        hand = self._current()
        if seat != self.acting():
            return {}
        if hand.phase in ("deal", "declare"):
            legal: dict[int, Any] = {PASS: Draw(seat) if hand.phase == "deal" else Done(seat)}
            for action, faces in enumerate(declaration_faces(hand.level), FIRST_DECLARATION):
                declare = Declare(seat, faces)
                if allowed(hand.check, declare) is not None:
                    legal[action] = declare
            return legal
        held = hand.hands[seat]
        chosen = self.selection()
        if hand.phase == "bury":
            return {face: face for face, count in held.items() if count > chosen.get(face, 0)}
        if hand.lead is None:
            return self._lead_actions(hand, held, chosen)
        return {face: face for face in self._follow_faces(hand, held, chosen)}

    def _lead_actions(self, hand: TractorHand, held: Counts, chosen: Mapping[int, int]) -> dict[int, Any]:
        order = hand.order
        assert order is not None
        suits = {order.eff[face] for face in chosen}
        legal: dict[int, Any] = {
            face: face for face, count in held.items()
            if count > chosen.get(face, 0) and (not suits or order.eff[face] in suits)
        }
        if chosen:
            legal[DONE] = Play(hand.to_act, _faces(chosen))
        return legal

    def _follow_faces(self, hand: TractorHand, held: Counts, chosen: Mapping[int, int]) -> Iterator[int]:
        """The faces that extend ``chosen`` towards a legal follow (T7)."""
        order, lead = hand.order, hand.lead
        assert order is not None and lead is not None
        size = lead.size
        suited = {face: count for face, count in held.items() if order.eff[face] == lead.suit}
        in_suit = sum(suited.values())
        if in_suit <= size:  # all of the suit, then anything (T7.2, T7.6)
            others = sum(count for face, count in chosen.items() if face not in suited)
            for face, count in held.items():
                if count > chosen.get(face, 0) and (face in suited or others < size - in_suit):
                    yield face
            return
        pairs = {face for face, count in chosen.items() if count == 2}
        singles = {face for face, count in chosen.items() if count == 1}
        found: set[int] = set()
        for doubled in self._doubled(hand, suited, lead):
            free = size - 2 * len(doubled)
            if not pairs <= doubled or len(singles - doubled) > free:
                continue
            found.update(face for face in doubled if chosen.get(face, 0) < 2)
            if len(singles - doubled) < free:
                found.update(face for face in suited if face not in doubled and face not in chosen)
        yield from sorted(found)

    def _doubled(self, hand: TractorHand, suited: Counts, lead: Lead) -> list[frozenset[int]]:
        """The sets of faces a legal follow may hold twice when the follower holds more of
        the led suit than was led: pairs and runs enough (T7.3, T7.4), and singles enough
        among the other faces (legal_follows' construction)."""
        if self._follows_in != hand.turn:
            order = hand.order
            assert order is not None
            size, exact = lead.size, not self.room.partial_tractor_follow
            doubles = sorted(face for face, count in suited.items() if count >= 2)
            needed = tau(profile_of(suited, order), lead.tractors, exact) if lead.tractors else 0
            found = []
            for count in range(min(lead.pairs, len(doubles)), min(len(doubles), size // 2) + 1):
                for doubled in combinations(doubles, count):
                    if len(suited) - count < size - 2 * count:
                        continue
                    if lead.tractors and tau(profile_of(dict.fromkeys(doubled, 2), order), lead.tractors,
                                             exact) < needed:
                        continue
                    found.append(frozenset(doubled))
            self._doubles, self._follows_in = found, hand.turn
        return self._doubles

    def mask(self, seat: int) -> Mask:
        """1 for each legal action of ``seat``."""
        mask = np.zeros(self.actions, dtype=np.int8)
        mask[list(self.legal(seat))] = 1
        return mask

    def act(self, seat: int, action: int) -> None:
        """A decision or a lead is applied; a card joins the selection, and a full burial
        or follow is applied."""
        legal = self.legal(seat)
        if action not in legal:
            raise IllegalAction(f"seat {seat} may not take action {action} ({self.describe(action)}) now")
        hand = self._current()
        if action >= FACES:
            hand.apply(legal[action])
            return
        chosen = self.selection()
        chosen[action] = chosen.get(action, 0) + 1
        if hand.phase == "bury" and sum(chosen.values()) == len(hand.bottom):
            hand.apply(Bury(seat, _faces(chosen)))
        elif hand.lead is not None and sum(chosen.values()) == hand.lead.size:
            hand.apply(Play(seat, _faces(chosen)))

    def _played_by_seat(self, hand: TractorHand) -> np.ndarray[Any, np.dtype[np.float32]]:
        """The cards each seat has played in finished tricks, added to trick by trick."""
        if len(hand.tricks) < self._tricks_counted:  # an action taken back
            self._played[:] = 0.0
            self._tricks_counted = 0
        for trick in hand.tricks[self._tricks_counted :]:
            for player, faces in trick.plays:
                _add(self._played[player], counted(faces))
        self._tricks_counted = len(hand.tricks)
        return self._played

    def observe(self, seat: int) -> Vector:
        """What ``seat`` sees (the table above)."""
        hand = self._current()
        order = [(seat + step) % SEATS for step in range(SEATS)]
        relative = {other: slot for slot, other in enumerate(order)}
        cards = np.zeros((2 + 2 * SEATS + 2, FACES), dtype=np.float32)
        _add(cards[0], hand.hands[seat])
        if seat == self.acting():
            _add(cards[1], self.selection())
        cards[2 : 2 + SEATS] = self._played_by_seat(hand)[order]
        for player, faces in hand.trick:
            _add(cards[2 + SEATS + relative[player]], counted(faces))
        if seat == hand.dealer and hand.phase in ("bury", "play"):
            _add(cards[-2], counted(hand.bottom))
            _add(cards[-1], counted(hand.buried))
        state = np.zeros(self.features - cards.size, dtype=np.float32)
        for slot, other in enumerate(order):
            state[slot] = sum(hand.hands[other].values()) / _MOST_CARDS
        at = SEATS
        state[at + _PHASES.index(hand.phase)] = 1.0
        at += len(_PHASES)
        state[at + (relative[hand.dealer] if hand.dealer is not None else SEATS)] = 1.0
        at += SEATS + 1
        if hand.phase == "play":
            state[at + relative[hand.leader]] = 1.0
        at += SEATS
        state[at + hand.level] = 1.0
        at += _LEVELS
        state[at : at + 2] = (hand.levels[team_of(seat)] / 12, hand.levels[1 - team_of(seat)] / 12)
        at += 2
        if hand.order is not None:
            state[at + (hand.order.suit if hand.order.suit is not None else 4)] = 1.0
            state[at + 5] = 1.0
        at += 6
        standing = hand.standing
        if standing is not None:
            state[at + relative[standing.seat]] = 1.0
            state[at + 4 + (0 if len(standing.faces) == 1 else 1)] = 1.0
            state[at + 6 + (standing.suit if standing.suit is not None else 4)] = 1.0
        at += 11
        state[at] = min(max(hand.attackers_points, 0), 200) / 200
        state[at + 1] = hand.dealer is not None and team_of(seat) == team_of(hand.dealer)
        return np.concatenate([cards.ravel() / 2.0, state])

    def action_of(self, seat: int, move: Any) -> int:
        """The next action towards a bot's move: pass, a declaration, the next card of its
        burial or play that is not selected yet, or done once its lead is selected."""
        legal = self.legal(seat)
        if isinstance(move, Draw | Done) and PASS in legal:
            return PASS
        if isinstance(move, Declare):
            for action, declare in legal.items():
                if isinstance(declare, Declare) and counted(declare.faces) == counted(move.faces):
                    return action
        if isinstance(move, Bury | Play) and legal:
            wanted, chosen = counted(move.faces), self.selection()
            if any(count > wanted.get(face, 0) for face, count in chosen.items()):
                raise IllegalAction(f"seat {seat}: the selection {_text(chosen)} is not part of {_text(wanted)}")
            missing = [face for face in sorted(wanted) if wanted[face] > chosen.get(face, 0)]
            action = missing[0] if missing else DONE
            if action in legal:
                return action
        raise IllegalAction(f"seat {seat}: {move!r} is no legal action now")

    def describe(self, action: int) -> str:
        """A card's face, ``"done"``, ``"pass"`` or a declaration."""
        if 0 <= action < FACES:
            return f"select {face_text(action)}"
        if action == DONE:
            return "done: lead the selection"
        if action == PASS:
            return "pass: take the next card, or declare no more"
        if FIRST_DECLARATION <= action < self.actions:
            index = action - FIRST_DECLARATION
            if index < 8:
                return f"declare {'one level card' if index < 4 else 'a pair of level cards'} of {_SUITS[index % 4]}"
            return f"declare {DECLARATIONS[index]}"
        return f"no action {action} (the space has {self.actions})"


def _add(row: np.ndarray[Any, np.dtype[np.float32]], counts: Mapping[int, int]) -> None:
    for face, count in counts.items():
        row[face] += count


def _faces(counts: Mapping[int, int]) -> tuple[int, ...]:
    return tuple(face for face in sorted(counts) for _ in range(counts[face]))


def _text(counts: Mapping[int, int]) -> str:
    return " ".join(face_text(face) for face in _faces(counts)) or "nothing"
