"""Royalist's only combination, the set (一手牌, Y4): X natural cards of one rank plus Y big
and Z small jokers — and, in a room with a called guard (Y9), T top cards: the 保子牌, worth
18, above BJ — compared card by card; and the moves of a hand against the table.

A set is read from counts per rank (:data:`~shuangkou.cards.Counts`, shared with
Shuangkou) and a count of top cards (the 保子牌 has no rank slot: it is counted apart):
the marked cards count as the jokers they are (Y4.1). Two forms of the
comparison are given, as Y4.4 and Y4.5 state it: :func:`beats_card_by_card` sorts both sets
from high to low and compares position by position; :func:`beats` is the closed form the
game uses. The tests check that both agree on every pair of small sets.

>>> nine_nine = read_set(parse_counts("9 9"))
>>> nine_nine, str(nine_nine)
(CardSet(rank=9, naturals=2, big=0, small=0, bomb=False, top=0), '9 9')
>>> beats(read_set(parse_counts("SJ 9 9")), read_set(parse_counts("8 8 8")))
True
>>> beats(read_set(parse_counts("SJ 7")), nine_nine)  # Y13.10: 7 is not above 9
False
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal, NamedTuple

from ...cards import NUM_SLOTS, Counts, Rank, format_counts, parse_counts

__all__ = [
    "BJ_SLOT",
    "SJ_SLOT",
    "Bombs",
    "CardSet",
    "InvalidSet",
    "SetRules",
    "beats",
    "beats_card_by_card",
    "card_values",
    "hint_key",
    "legal_sets",
    "read_set",
    "smallest_beating",
    "unbeatable",
]

SJ_SLOT = Rank.SMALL_JOKER.slot
BJ_SLOT = Rank.BIG_JOKER.slot
SIX = Rank.SIX.value
TOP_VALUE = Rank.BIG_JOKER.value + 1
"""The value of the called guard card (保子牌, Y9): 18, above BJ."""
TOP_SYMBOL = "*"
"""How a set's text writes the called guard card (a play writes the card itself, ``7H*``)."""

Bombs = Literal["none", "four_identical"]


@dataclass(frozen=True, slots=True)
class SetRules:
    """The room settings a set obeys: joker-only sets (Y4.2, Y13.11), sixes last (Y3.8) and
    bombs of four identical cards (Y4.8)."""

    joker_only_sets: bool = True
    sixes_last: bool = False
    bombs: Bombs = "none"


DEFAULT_SET_RULES = SetRules()


class InvalidSet(ValueError):
    """Cards that form no set; ``reason`` says why (for people)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class CardSet(NamedTuple):
    """A set (Y4.2): ``naturals`` (X) cards of ``rank`` (its value, 3..15; 0 when X = 0),
    ``big`` (Y) big jokers and ``small`` (Z) small jokers. ``bomb``: four identical cards
    played as a bomb (Y4.8, only in rooms with ``bombs = "four_identical"``). ``top`` (T):
    the called guard card (保子牌, Y9), which joins any set like a joker, 0 or 1."""

    rank: int
    naturals: int
    big: int
    small: int
    bomb: bool = False
    top: int = 0

    @property
    def size(self) -> int:
        """n = X + Y + Z + T."""
        return self.naturals + self.big + self.small + self.top

    @property
    def jokers(self) -> int:
        """The cards that are no natural card: Y + Z + T."""
        return self.big + self.small + self.top

    @property
    def counts(self) -> Counts:
        """The set's cards per rank slot (the top card has none: see ``top``)."""
        counts = [0] * NUM_SLOTS
        if self.naturals:
            counts[self.rank - 3] = self.naturals
        counts[BJ_SLOT], counts[SJ_SLOT] = self.big, self.small
        return tuple(counts)

    @property
    def key(self) -> tuple[bool, int, int, int, int, int]:
        """The order of Y4.7 — fewest top cards (Y9), then fewest big jokers, then fewest small
        jokers, then the lowest natural rank (a joker-only set counts 0) — then fewest cards;
        bombs after every set."""
        return (self.bomb, self.top, self.big, self.small, self.rank, self.naturals)

    def __str__(self) -> str:
        return " ".join(filter(None, (format_counts(self.counts), *[TOP_SYMBOL] * self.top)))

    def view(self) -> dict[str, object]:
        """JSON form: the cards (lowest first, the top card written ``*``), X, Y, Z, the
        natural rank, whether a bomb, and T when the set holds the top card."""
        data: dict[str, object] = {
            "cards": str(self),
            "naturals": self.naturals,
            "big": self.big,
            "small": self.small,
            "rank": Rank(self.rank).symbol if self.naturals else None,
            "bomb": self.bomb,
        }
        if self.top:
            data["top"] = self.top
        return data


def hint_key(card_set: CardSet) -> tuple[bool, int, int, int, int, int]:
    """:attr:`CardSet.key` (Y4.7): the order of hints and hosting."""
    return card_set.key


def read_set(
    counts: Counts, rules: SetRules = DEFAULT_SET_RULES, hand: Counts | None = None, top: int = 0, hand_top: int = 0
) -> CardSet:
    """The set ``counts`` and ``top`` top cards form (Y4.2, Y9); :class:`InvalidSet`
    otherwise. ``hand`` and ``hand_top`` (the player's whole hand before the play) are
    needed for sixes last (Y3.8)."""
    size = sum(counts) + top
    if size < 1:
        raise InvalidSet("a set has at least one card")
    ranks = [slot + 3 for slot in range(SJ_SLOT) if counts[slot]]
    if len(ranks) > 1:
        names = " and ".join(Rank(rank).symbol for rank in ranks)
        raise InvalidSet(f"a set holds natural cards of one rank, not {names} (Y4.2, Y4.8)")
    rank = ranks[0] if ranks else 0
    naturals = counts[rank - 3] if ranks else 0
    found = CardSet(rank, naturals, counts[BJ_SLOT], counts[SJ_SLOT], top=top)
    if not naturals and size > 1 and not rules.joker_only_sets:
        raise InvalidSet("jokers alone are a set only one at a time in this room (Y4.2, Y13.11)")
    if rules.sixes_last and rank == SIX and hand is not None and not _sixes_allowed(found, hand, hand_top):
        raise InvalidSet("sixes go last: a set with a 6 must be the whole hand, of 6s only (Y3.8)")
    return found


def _sixes_allowed(card_set: CardSet, hand: Counts, hand_top: int) -> bool:
    """Y3.8: a set with a natural 6 is legal only if it is 6s only and the whole hand."""
    return not card_set.jokers and sum(hand) + hand_top == card_set.naturals == hand[SIX - 3]


def as_bomb(card_set: CardSet) -> CardSet:
    """The same four cards read as a bomb (Y4.8)."""
    return card_set._replace(bomb=True)


def beats(follow: CardSet, table: CardSet) -> bool:
    """Whether ``follow`` beats ``table`` — Y4.5's closed form of Y4.4: n_F = n_L, Y_L = 0,
    Y_F ≥ Z_L and (X_F = 0 or r_F > r_L); with top cards (Y9), T_L = 0, T_F ≥ Y_L and
    T_F + Y_F ≥ Y_L + Z_L instead of Y_L = 0 and Y_F ≥ Z_L (the same when T_F = T_L = 0).
    A bomb beats any set, and a lower bomb (Y4.8)."""
    if follow.bomb or table.bomb:
        return follow.bomb and (not table.bomb or follow.rank > table.rank)
    return (
        follow.size == table.size
        and table.top == 0
        and follow.top >= table.big
        and follow.top + follow.big >= table.big + table.small
        and (follow.naturals == 0 or follow.rank > table.rank)
    )


def card_values(card_set: CardSet) -> tuple[int, ...]:
    """The set's card values (Y0, Y4.1; the top card 18, Y9), high to low."""
    big, small = Rank.BIG_JOKER.value, Rank.SMALL_JOKER.value
    return ((TOP_VALUE,) * card_set.top + (big,) * card_set.big + (small,) * card_set.small
            + (card_set.rank,) * card_set.naturals)


def beats_card_by_card(follow: CardSet, table: CardSet) -> bool:
    """Y4.4 as it is written: the same number of cards and, both sorted from high to low,
    every card of ``follow`` strictly higher than the card of ``table`` in its position
    (逐张比较). Bombs aside (they are no set of Y4.4)."""
    ours, theirs = card_values(follow), card_values(table)
    return len(ours) == len(theirs) and all(a > b for a, b in zip(ours, theirs, strict=True))


def unbeatable(table: CardSet, rules: SetRules = DEFAULT_SET_RULES, tops_unplayed: int = 0) -> bool:
    """Whether no set whatsoever beats ``table`` (Y4.6): it holds the top card, or more big
    jokers than the top cards still unplayed (``tops_unplayed``: 1 while the called guard
    card is in a hand, Y9; else 0) could answer; and no bomb could answer it."""
    return (table.top > 0 or table.big > tops_unplayed) and (
        rules.bombs == "none" or (table.bomb and table.rank == Rank.TWO.value))


def legal_sets(
    hand: Counts,
    table: CardSet | None,
    rules: SetRules = DEFAULT_SET_RULES,
    bomb_ranks: tuple[int, ...] = (),
    tops: int = 0,
) -> list[CardSet]:
    """Every set ``hand`` (with ``tops`` top cards, Y9) may play now — any set on a lead, a
    set that beats ``table`` on a follow — in the order of Y4.7 (:func:`hint_key`).
    ``bomb_ranks``: the natural ranks of which the hand holds four identical cards (rooms
    with bombs, Y4.8)."""
    moves = [move for move in _candidates(hand, table, tops) if _allowed(move, hand, rules, tops)]
    for rank in bomb_ranks:
        bomb = CardSet(rank, 4, 0, 0, True)
        if table is None or beats(bomb, table):
            moves.append(bomb)
    moves.sort(key=hint_key)
    return moves


def _allowed(move: CardSet, hand: Counts, rules: SetRules, tops: int) -> bool:
    if not move.naturals and move.size > 1 and not rules.joker_only_sets:
        return False
    return not (rules.sixes_last and move.rank == SIX and not _sixes_allowed(move, hand, tops))


def _candidates(hand: Counts, table: CardSet | None, tops: int) -> Iterator[CardSet]:
    """Sets of ``hand`` and its ``tops`` top cards that beat ``table`` (every set when
    None), by construction: the top cards first cover the table's big jokers, top cards and
    big jokers its small jokers (Y4.5, Y9), the rest is small jokers and naturals of one
    rank above the table's."""
    big_held, small_held = hand[BJ_SLOT], hand[SJ_SLOT]
    if table is None:
        for top in range(tops + 1):
            for slot in range(SJ_SLOT):
                held = hand[slot]
                for naturals in range(1, held + 1):
                    for big in range(big_held + 1):
                        for small in range(small_held + 1):
                            yield CardSet(slot + 3, naturals, big, small, top=top)
            for big in range(big_held + 1):
                for small in range(small_held + 1):
                    if big + small + top:
                        yield CardSet(0, 0, big, small, top=top)
        return
    if table.bomb or table.top:
        return  # only a bomb beats it (Y4.6, Y4.8)
    size = table.size
    for top in range(table.big, min(tops, size) + 1):
        for big in range(max(table.big + table.small - top, 0), min(big_held, size - top) + 1):
            for small in range(min(small_held, size - top - big) + 1):
                naturals = size - top - big - small
                if not naturals:
                    yield CardSet(0, 0, big, small, top=top)
                    continue
                for slot in range(max(table.rank - 2, 0), SJ_SLOT):  # ranks above the table's
                    if hand[slot] >= naturals:
                        yield CardSet(slot + 3, naturals, big, small, top=top)


def smallest_beating(
    hand: Counts,
    table: CardSet,
    rules: SetRules = DEFAULT_SET_RULES,
    bomb_ranks: tuple[int, ...] = (),
    tops: int = 0,
) -> CardSet | None:
    """The smallest set of ``hand`` (with ``tops`` top cards, Y9) that beats ``table`` by the
    order of Y4.7, or None (the hint of Y3.7 and the follow of hosting, Y8.2)."""
    best: CardSet | None = None
    for move in _candidates(hand, table, tops):
        if _allowed(move, hand, rules, tops) and (best is None or hint_key(move) < hint_key(best)):
            best = move
    if best is None:
        for rank in sorted(bomb_ranks):
            bomb = CardSet(rank, 4, 0, 0, True)
            if beats(bomb, table):
                return bomb
    return best


def counts_text(text: str) -> Counts:
    """Counts of a card string (suits and the marks of Y0 ignored): a test helper."""
    return parse_counts(text.replace("*", ""))
