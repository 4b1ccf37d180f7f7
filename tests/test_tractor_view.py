"""What a seat's view tells a client beyond the table (T11.3): the declarations the seat
may make now (T2.2–T2.5), so that a page offers only those, and the room's settings that
order the cards (T4.3) and bind a follow (T7.3), so that a page can sort a hand and explain
a refused follow."""

from __future__ import annotations

from tractor_support import stacked_deck

from shuangkou.games.tractor.config import load_tractor_room
from shuangkou.games.tractor.family import TRACTOR
from shuangkou.games.tractor.hand import Declare, Done, Draw, Start, TractorHand
from shuangkou.games.tractor.order import faces_of, rank_index
from shuangkou.games.tractor.wire import moves


def dealt(hands: list[str], bottom: str = "", **room: object) -> TractorHand:
    """A first hand at level 2 dealt from seat 0, each seat's first cards ``hands`` and the
    bottom ending with ``bottom``, dealt out."""
    start = Start((rank_index("2"), rank_index("2")), None, (stacked_deck(hands, bottom),), 0, fallback=0)
    hand = TractorHand.begin(load_tractor_room("tractor", room), start)
    while hand.phase == "deal":
        hand.apply(Draw(hand.waiting()[0].seat))
    return hand


def declared(hand: TractorHand, seat: int) -> list[str]:
    """The declarations among ``seat``'s legal moves."""
    return [move["cards"] for move in moves(hand, seat) if move["type"] == "declare"]


def test_T2_2_T2_5_a_view_lists_the_declarations_its_seat_may_make() -> None:
    """T2.2: level cards of a suit, one or two, and joker pairs; T2.4: only stronger than
    the standing one; T2.5: the standing declarer only reinforces its single. The view's
    list is the moves' list, and empty once declaring is over."""
    hand = dealt(["2H 2H SJ SJ 3S", "2C 2C 2D 4S", "BJ 2S 5S", "BJ 6S"], bottom="2D 2S")
    assert hand.view(0)["declarable"] == ["2H", "2H 2H", "SJ SJ"]
    assert hand.view(1)["declarable"] == ["2C", "2C 2C", "2D"]
    assert hand.view(2)["declarable"] == ["2S"], "one joker is no declaration"
    assert hand.view(3)["declarable"] == []
    hand.apply(Declare(0, tuple(faces_of("2H"))))
    assert hand.view(0)["declarable"] == ["2H 2H"], "the standing declarer reinforces only"
    assert hand.view(1)["declarable"] == ["2C 2C"], "an override is stronger"
    assert hand.view(2)["declarable"] == []
    for seat in range(4):
        assert hand.view(seat)["declarable"] == declared(hand, seat)
    while hand.phase == "declare":
        hand.apply(Done(hand.waiting()[0].seat))
    assert all(hand.view(seat)["declarable"] == [] for seat in range(4))
    assert "declarable" not in hand.view(None), "a spectator declares nothing"


def test_T4_3_T7_3_a_view_carries_the_settings_that_order_cards_and_bind_follows() -> None:
    """T4.3 (the constant 2) and T7.3 (partial tractor follows), as the room sets them."""
    hand = dealt(["3S", "4S", "5S", "6S"])
    assert hand.view(0)["settings"] == {"two_is_constant_trump": False, "partial_tractor_follow": True}
    other = dealt(["3S", "4S", "5S", "6S"], two_is_constant_trump=True, partial_tractor_follow=False)
    assert other.view(None)["settings"] == {"two_is_constant_trump": True, "partial_tractor_follow": False}


def test_T4_3_a_replay_carries_the_settings_that_order_its_cards() -> None:
    """T4.3: a finished hand's replay sorts its hands as the table did, so it carries the
    room's settings as the views do."""
    hand = dealt(["3S", "4S", "5S", "6S"], two_is_constant_trump=True)
    replay = TRACTOR.replay(hand.to_record(), hand)
    expected = {"two_is_constant_trump": True, "partial_tractor_follow": True}
    assert replay["settings"] == hand.view(None)["settings"] == expected
