"""Royalist with a called guard card (叫保子, RULES-ROYALIST Y9, ``guard_card = "called"``;
the precisions of Y13.18): the call, the 保子牌 worth 18, the solo of four copies, the
candidate who must abdicate, the redeal, auto-pass and views that keep the guard hidden,
the wire, bots, records and the referee."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_royalist_properties import check_views, step

from shuangkou.games.royalist.bots import make_bot
from shuangkou.games.royalist.config import RoyalistRoom
from shuangkou.games.royalist.deck import GUARD_CARD, callable_cards, deal_cards, deck_of, is_called_card, parse_hand
from shuangkou.games.royalist.family import ROYALIST
from shuangkou.games.royalist.game import (
    Abdicate,
    Ascend,
    Declare,
    Pass,
    Play,
    RoyalistError,
    RoyalistHand,
    Timeout,
    action_from_dict,
    action_to_dict,
    deal_hand,
)
from shuangkou.games.royalist.record import read_record, restore
from shuangkou.games.royalist.wire import CallMessage, message_action, moves
from shuangkou.referee import ScenarioError, referee

CALLED: RoyalistRoom = ROYALIST.load_room("royalist216", {"guard_card": "called"})
CALLED_168: RoyalistRoom = ROYALIST.load_room("royalist", {"guard_card": "called"})
HANDS = ["BJ* 7H 7H 7H 9 9", "8 8 K", "SJ 10 10", "7H Q", "BJ 6 6"]
"""Seat 0 holds the emperor card and three 7H; seat 3 the fourth 7H."""


def start(hands: list[str], room: RoyalistRoom = CALLED, **more: Any) -> RoyalistHand:
    hand: RoyalistHand = ROYALIST.scenario(room, {"hands": hands, **more})
    return hand


def called(hands: list[str] = HANDS, call: str = "7H", room: RoyalistRoom = CALLED) -> RoyalistHand:
    """The hand after seat 0 calls ``call`` and the four others stay hidden."""
    hand = start(hands, room)
    hand.apply(action_from_dict({"seat": 0, "call": call}))
    for seat in list(hand.asked):
        hand.apply(Declare(seat, False))
    return hand


def test_Y9_the_lobby_names_a_called_room_by_its_variant() -> None:
    """A room whose guard card is called is the ``"called"`` variant (the lobby says so); the
    marked guard card is the game's usual rules, no variant."""
    assert ROYALIST.load_room("royalist216", {"guard_card": "called"}).variant == "called"
    assert ROYALIST.load_room("royalist216").variant is None
    assert ROYALIST.load_room("royalist").variant is None


def test_Y9_Y2_4_the_holder_of_the_fourth_copy_is_the_guard() -> None:
    """Y9, Y2.4: the emperor calls 7H, held three times and shown; the fourth 7H becomes the
    marked 保子牌 in its holder's hand, and its holder the guard, known to himself alone."""
    hand = called()
    assert hand.roles is not None and (hand.roles.emperor, hand.roles.guard, hand.roles.solo) == (0, 3, None)
    assert [event.to_dict() for event in hand.events if event.type == "ascend"] == [
        {"type": "ascend", "seat": 0, "cause": "player", "call": "7H"}]
    assert hand.view(3)["hand"] == ["QS", "7H*"] and hand.view(3)["roles"]["guard"] == 3
    assert hand.view(0)["hand"][:3] == ["7H", "7H", "7H"]
    for seat in (None, 0, 1, 2, 4):
        view = hand.view(seat)
        assert view["roles"]["guard"] is None and view["called"] == "7H"
        assert seat is None or view["known_roles"][3] is None
    assert hand.tops(3) == 1 and hand.tops_unplayed == 1 and hand.counts(3)[7 - 3] == 0


def test_Y9_Y2_9_the_called_card_is_worth_18_and_shows_its_holder() -> None:
    """Y9: the 保子牌 beats a BJ (18 > 17) and joins any set like a joker; playing it reveals the
    guard (Y2.9, as ``SJ*``); a plain ``7H`` or ``7`` never takes it."""
    hand = called()
    hand.apply(Play(0, tuple(parse_hand("9 9"))))
    hand.apply(Pass(1))
    hand.apply(Play(2, tuple(parse_hand("10 10"))))
    for written in ("Q 7H", "Q 7"):
        with pytest.raises(RoyalistError) as refused:
            hand.check(Play(3, tuple(parse_hand(written))))
        assert refused.value.code == "cards_not_held"
    with pytest.raises(RoyalistError, match="does not beat"):
        hand.check(Play(3, tuple(parse_hand("Q"))))
    hand.apply(Play(3, tuple(parse_hand("Q 7H*"))))
    play, reveal = (event.to_dict() for event in hand.events if event.type in ("play", "reveal") and event.seat == 3)
    assert play["cards"] == "QS 7H*" and play["set"] == {"cards": "Q *", "naturals": 1, "big": 0, "small": 0,
                                                          "rank": "Q", "bomb": False, "top": 1}
    assert reveal == {"type": "reveal", "seat": 3, "role": "guard"}
    assert hand.guard_shown and hand.view(1)["roles"]["guard"] == 3 and hand.tops_unplayed == 0


def test_Y9_the_called_card_beats_a_big_joker_single() -> None:
    """Y9: above BJ: a single BJ falls to the 保子牌 alone."""
    hand = called(["BJ* 7H 7H 7H 9", "8 8 K", "SJ 10 10", "7H Q", "BJ 6 6"])
    hand.apply(Play(0, tuple(parse_hand("BJ*"))))
    for seat in (1, 2):
        hand.apply(Pass(seat))
    hand.apply(Play(3, tuple(parse_hand("7H*"))))
    assert hand.plays[-1].set.top == 1 and hand.guard_shown and hand.to_act == 3  # nothing beats it


def test_Y13_18_auto_pass_never_shows_who_holds_the_called_card() -> None:
    """Y13.18, Y3.7: while the 保子牌 is unplayed, auto-pass judges every seat as if it held
    it: after a BJ only the 保子牌 could answer, and no seat is passed for it — a skip would
    show who holds it. Once it is played, a set with a BJ passes everyone again (Y13.9)."""
    hand = called(["BJ* 7H 7H 7H 9 BJ", "8 8 K", "SJ 10 10", "7H Q", "6 6 A"])
    hand.apply(Play(0, tuple(parse_hand("BJ"))))
    assert hand.to_act == 1 and not [event for event in hand.events if event.cause == "auto_pass"]
    hand.apply(Pass(1))
    hand.apply(Pass(2))
    assert hand.to_act == 3
    hand.apply(Play(3, tuple(parse_hand("7H*"))))
    hand.apply(Play(3, tuple(parse_hand("Q"))))
    hand.apply(Play(4, tuple(parse_hand("A"))))
    hand.apply(Play(0, tuple(parse_hand("BJ*"))))
    assert [event.seat for event in hand.events[-4:] if event.cause == "auto_pass"] == [1, 2, 4]


def test_Y9_Y2_5_all_four_copies_make_a_secret_solo() -> None:
    """Y9, Y2.5: an emperor holding all four copies of the card he calls plays a secret solo:
    the call looks like any other; the 保子牌 is his fourth copy, and playing it shows the solo."""
    hands = ["BJ* 7H 7H 7H 7H 9", "8 8 K", "SJ 10 10", "7S Q", "BJ 6 6"]
    hand = called(hands)
    assert hand.roles is not None and (hand.roles.guard, hand.roles.solo) == (0, "secret")
    assert next(event.detail for event in hand.events if event.type == "ascend") == {"call": "7H"}
    assert hand.view(0)["hand"][-1] == "7H*" and hand.view(0)["roles"]["solo"] == "secret"
    assert all(hand.view(seat)["roles"]["solo"] is None for seat in (None, 1, 2, 3, 4))
    hand.apply(Play(0, tuple(parse_hand("7H*"))))
    assert hand.solo_shown and [event.detail for event in hand.events if event.type == "reveal"] == [{"role": "solo"}]


def test_Y9_Y2_5_Y13_8_an_open_solo_is_called_with_all_four_copies() -> None:
    """Y9, Y2.5: 包 rides on the call of a card held four times (m = 2, no declarations); a
    call of three copies cannot announce it, nor a room without open solos (Y13.8)."""
    hand = start(["BJ* 7H 7H 7H 7H 9S 9S 9S", "8 8 K", "SJ 10 10", "7S Q", "BJ 6 6"])
    with pytest.raises(RoyalistError, match="包 needs all four 9"):
        hand.check(action_from_dict({"seat": 0, "call": "9S", "open_solo": True}))
    hand.apply(action_from_dict({"seat": 0, "call": "7H", "open_solo": True}))
    assert hand.roles is not None and hand.roles.solo == "open" and hand.multiplier == 2 and hand.phase == "play"
    assert action_to_dict(hand.actions[0]) == {"seat": 0, "call": "7H", "open_solo": True}
    no_open = start(["BJ* 7H 7H 7H 7H 9", "8 8 K", "SJ 10 10", "7S Q", "BJ 6 6"],
                    ROYALIST.load_room("royalist216", {"guard_card": "called", "open_solo": False}))
    with pytest.raises(RoyalistError, match="no open solo"):
        no_open.check(Ascend(0, True, parse_hand("7H")[0]))


def test_Y9_a_call_names_a_card_held_three_times() -> None:
    """Y9: the call names rank and suit of a card the candidate holds three or four times;
    anything else is refused, naming the action, and changes nothing."""
    hand = start(HANDS)
    for action, message in [
        ({"seat": 0, "call": "9S"}, "does not hold three 9S"),
        ({"seat": 0, "ascend": True}, 'ascend by a call, as {"call": "7H"}'),
        ({"seat": 0, "call": "7H", "open_solo": True}, "包 needs all four 7H"),
    ]:
        with pytest.raises(RoyalistError, match=message):
            hand.apply(action_from_dict(action))
    for malformed in ("7", "BJ", "7H 7H", 7, "zz"):
        with pytest.raises(RoyalistError, match="one card with its rank and suit") as refused:
            action_from_dict({"seat": 0, "call": malformed})
        assert refused.value.code == "bad_action"
    with pytest.raises(RoyalistError, match="'open_solo' is true or false"):
        action_from_dict({"seat": 0, "call": "7H", "open_solo": "yes"})
    assert hand.actions == [] and hand.phase == "throne" and hand.view(3)["hand"] == ["7H", "QS"]
    marked = ROYALIST.scenario(ROYALIST.load_room("royalist216"), {"hands": ["BJ* 7H 7H 7H", "SJ*", "8", "9", "10"]})
    with pytest.raises(RoyalistError, match="ascend without a call"):
        marked.check(Ascend(0, False, parse_hand("7H")[0]))


def test_Y9_Y2_3_a_candidate_with_nothing_to_call_must_abdicate() -> None:
    """Y9: a candidate holding no three identical cards must abdicate — also when the room has
    no abdication and after five abdications (Y2.3: the first seat that can call must then
    ascend); its timer's default abdicates (Y8.1), a caller's calls the lowest card held
    three times (Y13.18)."""
    hands = ["BJ* 8 8", "KS KS KS 9S 9S 9S 9S", "SJ 10 10", "K Q", "7H 7H 7H 7H 6"]
    hand = start(hands)
    with pytest.raises(RoyalistError, match="no three identical cards to call: abdicate"):
        hand.check(Ascend(0, False, parse_hand("8S")[0]))
    assert moves(hand, 0) == [{"type": "abdicate"}]
    hand.apply(Timeout(0))
    assert hand.abdications == [0] and hand.candidate == 1
    assert moves(hand, 1)[0] == {"type": "call", "card": "KS"}
    assert {"type": "call", "card": "9S", "open_solo": True} in moves(hand, 1)
    for seat in (1, 2, 3, 4):
        hand.apply(Abdicate(seat))
    assert hand.forced and hand.candidate == 0
    hand.apply(Abdicate(0))  # nothing to call, even now
    with pytest.raises(RoyalistError, match="must ascend"):
        hand.check(Abdicate(1))
    hand.apply(Timeout(1))
    assert hand.roles is not None and (hand.roles.emperor, hand.called) == (1, parse_hand("KS")[0])
    strict = start(hands, ROYALIST.load_room("royalist216", {"guard_card": "called", "abdication": False}))
    strict.apply(Abdicate(0))
    with pytest.raises(RoyalistError, match="no abdication"):
        strict.check(Abdicate(1))


def test_Y9_no_seat_can_call_the_cards_are_dealt_again() -> None:
    """Y9, Y13.18: when no seat holds three identical cards the cards are dealt again, from the
    same first taker and shuffle source; a hand-built deal with no caller is refused."""
    seed = next(seed for seed in range(5000) if not any(
        callable_cards(hand) for hand in first_deal(seed, CALLED_168)))
    hand = deal_hand(CALLED_168, seed, 2)
    assert any(hand.calls(seat) for seat in range(5)) and hand.first_taker == 2
    assert [list(cards) for cards in hand.dealt] != first_deal(seed, CALLED_168)
    assert deal_hand(CALLED_168, seed, 2).dealt == hand.dealt
    with pytest.raises(RoyalistError, match="no seat holds three identical cards") as refused:
        start(["BJ* 8 8", "K K", "SJ 10 10", "K Q", "7H 7H 6"])
    assert refused.value.code == "bad_hands"


def first_deal(seed: int, room: RoyalistRoom) -> list[list[Any]]:
    """The hands of the first shuffle :func:`deal_hand` makes from ``seed`` with first taker 2."""
    return deal_cards(room.deck, 2, random.Random(seed), guard_card=room.guard_card)[0]


def test_Y9_Y13_13_deals_without_SJ_star() -> None:
    """Y9, Y13.13: the deck has no ``SJ*`` (four plain small jokers); a hand-built deal naming
    ``SJ*`` or a marked natural card is refused, naming the hands."""
    deck = deck_of("216", "called")
    assert len(deck) == 216 and GUARD_CARD not in deck and sum(card.rank.value == 16 for card in deck) == 4
    for hands, message in [
        (["BJ* 7H 7H 7H", "SJ*", "8", "9", "10"], 'SJ\\*: there is none with guard_card = "called"'),
        (["BJ* 7H 7H 7H", "7H*", "8", "9", "10"], "7H\\*: a dealt hand holds the called card unmarked"),
    ]:
        with pytest.raises(RoyalistError, match=message) as refused:
            start(hands)
        assert refused.value.code == "bad_hands" and refused.value.message.startswith("hands: ")


def test_Y9_the_wire_carries_the_call_and_the_called_card() -> None:
    """Y9 on the wire: the ``call`` message ascends with a call (包 on it), the hint offers the
    default call first, and a set with the 保子牌 is written with its name, ``7H*``."""
    assert message_action(0, CallMessage(type="call", seq=0, card="7h")) == Ascend(0, False, parse_hand("7H")[0])
    assert message_action(0, CallMessage(type="call", seq=0, card="7H", open_solo=True)).open_solo
    with pytest.raises(RoyalistError, match="one card with its rank and suit"):
        message_action(0, CallMessage(type="call", seq=0, card="SJ"))
    hand = start(HANDS)
    assert moves(hand, 0) == [{"type": "call", "card": "7H"}, {"type": "abdicate"}]
    hand = called()
    hand.apply(Play(0, tuple(parse_hand("9 9"))))
    hand.apply(Pass(1))
    hand.apply(Play(2, tuple(parse_hand("10 10"))))
    assert moves(hand, 3) == [{"type": "play", "cards": "Q 7H*"}, {"type": "pass"}]
    assert ROYALIST.message_action(3, ROYALIST.messages[1].model_validate({"type": "call", "seq": 1, "card": "7H"}))


def test_Y9_Y5_4_a_called_game_is_recorded_and_restored() -> None:
    """Y5.4: the record keeps the hands as dealt (no mark but ``BJ*``) and the call; replayed,
    the events agree; undo takes the call back."""
    hand = called()
    hand.apply(Play(0, tuple(parse_hand("9 9"))))
    record = hand.to_record()
    assert record.hands[3] == "7H QS" and record.actions[0] == {"seat": 0, "call": "7H"}
    again = restore(read_record(record.to_dict()))
    assert [event.to_dict() for event in again.events] == [event.to_dict() for event in hand.events]
    assert again.view(3) == hand.view(3)
    while hand.actions:
        hand.undo()
    assert hand.view(3)["hand"] == ["7H", "QS"] and hand.called is None and hand.roles is None


def test_Y9_Y10_3_the_referee_plays_a_called_game() -> None:
    """Y9 through the referee (docs/referee.md#royalist): a called game played to its end."""
    actions = [{"seat": 0, "call": "7H"}, *({"seat": seat, "declare": False} for seat in (1, 2, 3, 4)),
               {"seat": 0, "play": "9 9"}, {"seat": 1, "pass": True}, {"seat": 2, "play": "10 10"},
               {"seat": 3, "play": "Q 7H*"}, {"seat": 4, "play": "6 6"}, {"seat": 0, "play": "BJ* 7H"},
               {"seat": 0, "play": "7H 7H"}]
    outcome = referee({"config": "royalist216", "overrides": {"guard_card": "called"}, "hands": HANDS,
                       "actions": actions})
    assert outcome["roles"] == {"emperor": 0, "guard": 3, "solo": None} and outcome["finish_order"] == [3, 0]
    assert outcome["units"] == [6, -3, -3, 3, -3] and sum(outcome["deltas"]) + outcome["house"] == 0
    with pytest.raises(ScenarioError) as refused:
        referee({"config": "royalist216", "overrides": {"guard_card": "called"}, "hands": HANDS,
                 "actions": [{"seat": 0, "call": "9S"}]})
    assert (refused.value.action, refused.value.code) == (0, "bad_action") and "9S" in refused.value.message


CALLED_ROOMS = {
    "216": CALLED,
    "168 variants": ROYALIST.load_room("royalist", {"guard_card": "called", "auto_pass": False, "hard_pass": True,
                                                    "jiefeng": "partner", "bombs": "four_identical"}),
}


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(sorted(CALLED_ROOMS)))
def test_Y9_Y2_10_random_called_games_keep_the_guard_hidden_until_it_is_revealed(seed: int, name: str) -> None:
    """Y9, Y2.10: random called games (bots, random legal actions, timeouts, hosting, escapes);
    after every action no view but the guard's own names the guard's seat, and no event shows
    the 保子牌 but its play, until the guard is public. Who holds the 保子牌 and whether it
    is unplayed, read from the guard's hand alone, are the counts over every hand."""
    room = CALLED_ROOMS[name]
    rng = random.Random(seed)
    hand = ROYALIST.deal(room, seed, {"first_taker": seed % 5})
    bots = [make_bot(rng.choice(["greedy", "hosting", "random"]), seed + seat) for seat in range(5)]
    while hand.waiting():
        step(hand, rng, bots)
        check_views(hand)
        assert [hand.tops(seat) for seat in range(5)] == [sum(map(is_called_card, held)) for held in hand.hands]
        assert hand.tops_unplayed == sum(map(is_called_card, itertools.chain(*hand.hands)))
        roles = hand.roles
        if roles is None or roles.solo is not None or hand.guard_shown or hand.finished:
            continue
        for seat in (None, *range(5)):
            if seat != roles.guard:
                view = hand.view(seat)
                assert view["roles"]["guard"] is None
                assert seat is None or view["known_roles"][roles.guard] is None
        assert all("*" not in str(event.to_dict()).replace("BJ*", "") for event in hand.events)
    assert hand.finished
