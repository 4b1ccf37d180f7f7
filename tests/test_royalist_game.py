"""A Royalist hand as a state machine (RULES-ROYALIST Y1–Y3, Y5–Y8, Y13): the deal, the
throne offer, solos, the declarations, play, the end, scores, money, tribute, timers,
hosting, escapes, records and the views that keep roles secret."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from shuangkou.games import load_room
from shuangkou.games.interface import Waiting
from shuangkou.games.royalist.bots import Seen, hosting_set, make_bot
from shuangkou.games.royalist.config import RoyalistRoom
from shuangkou.games.royalist.deck import EMPEROR_CARD, GUARD_CARD, deal_cards, deck_of
from shuangkou.games.royalist.family import ROYALIST
from shuangkou.games.royalist.game import (
    Abdicate,
    Ascend,
    Declare,
    Escape,
    HostedTurn,
    Hosting,
    Pass,
    RoyalistError,
    RoyalistHand,
    Timeout,
    deal_hand,
)
from shuangkou.games.royalist.scoring import Roles, game_over, scoring_places, settle_royalist, unit_scores
from shuangkou.games.royalist.sets import CardSet
from shuangkou.simulate import play_game

ROOM: RoyalistRoom = ROYALIST.load_room("royalist")


def room(**overrides: Any) -> RoyalistRoom:
    return ROYALIST.load_room("royalist", overrides)


def start(hands: list[str], config: RoyalistRoom = ROOM, first_taker: int = 0) -> RoyalistHand:
    return ROYALIST.scenario(config, {"hands": hands, "first_taker": first_taker})


def act(hand: RoyalistHand, *actions: dict[str, Any]) -> RoyalistHand:
    for data in actions:
        hand.apply(ROYALIST.action_from_dict(data))
    return hand


def no(*seats: int) -> list[dict[str, Any]]:
    return [{"seat": seat, "declare": False} for seat in seats]


def p(seat: int, cards: str) -> dict[str, Any]:
    return {"seat": seat, "play": cards}


HANDS = ["BJ* Q 7", "6 9 K", "7 10 10", "SJ* 8", "8 J A"]


# ---------------------------------------------------------------------------
# Y1: players, deck and deal


def test_Y1_1_five_seats_and_teams_formed_by_the_cards() -> None:
    """Y1.1: five seats; the teams are the cards' (2 against 3, or 1 against 4)."""
    assert ROOM.seats == 5
    two = ROYALIST.teams({"roles": {"emperor": 0, "guard": 3, "solo": None}}, 5)
    solo = ROYALIST.teams({"roles": {"emperor": 2, "guard": None, "solo": "secret"}}, 5)
    assert two == [0, 1, 1, 0, 1] and solo == [1, 1, 0, 1, 1]


def test_Y1_2_the_decks_and_the_marked_cards() -> None:
    """Y1.2: 168 cards (ranks 6..2 sixteen times, four BJ and four SJ), 216 with 3-5, and 165
    (168 less three 6s set aside unseen); one BJ is BJ*, one SJ is SJ*."""
    deck = deck_of("168")
    ranks = Counter(card.rank.symbol for card in deck)
    assert len(deck) == 168 and ranks["6"] == ranks["2"] == 16 and ranks["BJ"] == ranks["SJ"] == 4 and "3" not in ranks
    assert len(set(deck)) == 168 and EMPEROR_CARD in deck and GUARD_CARD in deck
    assert len(deck_of("216")) == 216 and Counter(card.rank.symbol for card in deck_of("216"))["3"] == 16
    import random

    hands, aside = deal_cards("165", 0, random.Random(3))
    assert [len(hand) for hand in hands] == [33] * 5 and len(aside) == 3 and {c.rank.symbol for c in aside} == {"6"}


def test_Y1_3_Y1_4_a_seeded_deal_is_the_same_and_its_sizes() -> None:
    """Y1.3: the same seed deals the same hands (the record keeps it); Y1.4: one card at a time
    from the first taker: 34, 34, 34, 33, 33 from it with 168; 44 then 43 with 216."""
    first, again = deal_hand(ROOM, 11, 2), deal_hand(ROOM, 11, 2)
    assert first.dealt == again.dealt and first.to_record().seed == 11
    assert [len(hand) for hand in first.dealt] == [33, 33, 34, 34, 34]
    wide = deal_hand(room(deck="216"), 11, 4)
    assert [len(hand) for hand in wide.dealt] == [43, 43, 43, 43, 44]
    assert [len(hand) for hand in deal_hand(room(deck="165"), 11, 0).dealt] == [33] * 5


def test_Y1_5_the_first_taker_rotates() -> None:
    """Y1.5: the next hand's first taker is the seat after this one's; ``random`` draws it."""
    hand = ROYALIST.deal(ROOM, 5, {"first_taker": 3})
    assert hand.first_taker == 3 and hand.carried()["first_taker"] == 4
    assert ROYALIST.deal(ROOM, 5, {"first_taker": 4}).carried()["first_taker"] == 0
    takers = {ROYALIST.deal(room(first_taker="random"), seed, {"first_taker": 1}).first_taker for seed in range(30)}
    assert len(takers) > 1


def test_Y1_6_the_emperor_card_is_public_from_the_start() -> None:
    """Y1.6: the deal shows every seat who holds BJ*; SJ* is not shown."""
    hand = start(HANDS)
    deal = hand.events[0].to_dict()
    assert deal["emperor_card"] == 0 and "guard" not in str(deal)
    for seat in (None, 1, 4):
        assert hand.view(seat)["emperor_card"] == 0
    assert hand.waiting() == (Waiting(0, "throne", 15.0),)


# ---------------------------------------------------------------------------
# Y2: roles


def test_Y2_1_Y2_2_abdication_moves_the_emperor_card() -> None:
    """Y2.1, Y2.2: the candidate abdicates: BJ* moves to the next seat (counts change by one),
    publicly, and that seat has the same choice."""
    hand = act(start(HANDS), {"seat": 0, "abdicate": True})
    assert [len(cards) for cards in hand.hands] == [2, 4, 3, 2, 3] and EMPEROR_CARD in hand.hands[1]
    assert hand.events[-2].to_dict() == {"type": "abdicate", "seat": 0, "cause": "player", "to": 1}
    assert hand.waiting() == (Waiting(1, "throne", 15.0),) and hand.view(3)["abdications"] == [0]


def test_Y2_1_Y13_2_without_abdication_every_offer_must_be_taken() -> None:
    """Y2.1, Y13.2: with ``abdication = false`` the offer's abdication is refused."""
    hand = start(HANDS, room(abdication=False))
    with pytest.raises(RoyalistError, match="no abdication"):
        hand.apply(Abdicate(0))
    assert ROYALIST.moves_json(hand, 0) == '[{"type":"ascend"}]'


def test_Y2_3_Y13_2_forced_ascent_after_five_abdications() -> None:
    """Y2.3, Y13.2: after five abdications BJ* is back with the seat dealt it, which must
    ascend; its timeout or hosting default is a secret ascent."""
    hand = act(start(HANDS), *({"seat": seat, "abdicate": True} for seat in range(5)))
    assert hand.forced and hand.candidate == 0 and [len(cards) for cards in hand.hands] == [3, 3, 3, 2, 3]
    with pytest.raises(RoyalistError, match="must ascend"):
        hand.apply(Abdicate(0))
    hand.apply(Timeout(0))
    assert hand.roles == Roles(0, 3, None) and hand.events[-2].to_dict()["cause"] == "timeout"


def test_Y2_4_the_guard_knows_the_emperor_who_does_not_know_him() -> None:
    """Y2.4: the guard is SJ*'s holder at the ascent; he knows his role and the emperor; the
    emperor and the revolutionaries do not know the guard."""
    hand = act(start(HANDS), {"seat": 0, "ascend": True})
    assert hand.roles == Roles(0, 3, None)
    guard, emperor, rebel = hand.view(3), hand.view(0), hand.view(1)
    assert guard["role"] == "guard" and guard["roles"]["guard"] == 3 and guard["known_roles"][0] == "emperor"
    assert emperor["role"] == "emperor" and emperor["roles"]["guard"] is None and emperor["known_roles"][3] is None
    assert rebel["role"] == "revolutionary" and rebel["roles"]["guard"] is None and rebel["known_roles"][2] is None


def test_Y2_5_Y13_8_solos_open_and_secret() -> None:
    """Y2.5: a holder of both marked cards plays alone: open (包, announced, m = 2) or secret
    (the plain ascent, which looks like any other); Y13.8: open solo only from a holder of
    both and where the room allows it."""
    both = ["BJ* SJ* 7", "6 9 K", "7 10 10", "8", "8 J A"]
    secret = act(start(both), {"seat": 0, "ascend": True})
    plain = act(start(HANDS), {"seat": 0, "ascend": True})
    assert secret.roles == Roles(0, 0, "secret") and secret.multiplier == 1
    assert [e.to_dict() for e in secret.events[1:]] == [e.to_dict() for e in plain.events[1:]]  # all alike
    assert secret.view(1)["roles"]["solo"] is None and secret.view(0)["roles"]["solo"] == "secret"
    opened = act(start(both), {"seat": 0, "ascend": "open_solo"})
    assert opened.roles == Roles(0, 0, "open") and opened.multiplier == 2 and opened.phase == "play"
    assert opened.events[-1].to_dict() == {"type": "ascend", "seat": 0, "cause": "player", "solo": "open"}
    with pytest.raises(RoyalistError, match="both BJ\\* and SJ\\*"):
        start(HANDS).apply(Ascend(0, True))
    with pytest.raises(RoyalistError, match="no open solo"):
        start(both, room(open_solo=False)).apply(Ascend(0, True))


def test_Y2_5_a_holder_of_both_may_abdicate_and_guard_the_next() -> None:
    """Y2.5: a candidate holding both cards may abdicate (``solo_may_abdicate``): he keeps SJ*
    and guards whoever ascends; a room may forbid it."""
    both = ["BJ* SJ* 7", "6 9 K", "7 10 10", "8", "8 J A"]
    hand = act(start(both), {"seat": 0, "abdicate": True}, {"seat": 1, "ascend": True})
    assert hand.roles == Roles(1, 0, None)
    with pytest.raises(RoyalistError, match="may not abdicate"):
        start(both, room(solo_may_abdicate=False)).apply(Abdicate(0))


def test_Y2_6_the_declarations_are_answered_at_once_and_published_together() -> None:
    """Y2.6, Y13.3: after the ascent four seats answer at once under the decision timer, in
    any order; each answer shows only that the seat answered; the answers are published
    together when the last arrives; every seat has the same two answers."""
    hand = act(start(HANDS), {"seat": 0, "ascend": True})
    assert hand.waiting() == tuple(Waiting(seat, "declare", 15.0) for seat in (1, 2, 3, 4))
    turn = hand.turn
    act(hand, {"seat": 4, "declare": True}, {"seat": 3, "declare": True})
    assert hand.turn == turn and [wait.seat for wait in hand.waiting()] == [1, 2]
    assert hand.events[-1].to_dict() == {"type": "declared", "seat": 3, "cause": "player"}
    assert hand.view(1)["declarations"] is None and hand.view(None)["answered"] == [False, False, False, True, True]
    moves = {ROYALIST.moves_json(hand, seat) for seat in (1, 2)}
    assert moves == {'[{"type":"declaration","declare":false},{"type":"declaration","declare":true}]'}
    with pytest.raises(RoyalistError, match="owes no declaration"):
        hand.apply(Declare(3, False))
    act(hand, *no(2, 1))
    published = hand.events[-1].to_dict()
    assert published == {"type": "declarations", "open_guard": 3, "revolts": [4], "revolt_success": False,
                         "guard": 3, "solo": None, "multiplier": 2}
    assert hand.phase == "play" and hand.to_act == 0  # Y3.1


def test_Y2_6_Y13_5_forbidden_declarations_are_refused_and_no_phase_without_them() -> None:
    """Y13.5: with ``open_guard`` or ``revolt`` false the seats are still asked and a forbidden
    declaration is refused; with both false (or ``declarations = false``) there is no phase."""
    hand = act(start(HANDS, room(open_guard=False)), {"seat": 0, "ascend": True})
    with pytest.raises(RoyalistError, match="no open guard"):
        hand.apply(Declare(3, True))
    hand.apply(Declare(1, True))
    rebels = act(start(HANDS, room(revolt=False)), {"seat": 0, "ascend": True})
    with pytest.raises(RoyalistError, match="no revolt"):
        rebels.apply(Declare(1, True))
    for settings in ({"open_guard": False, "revolt": False}, {"declarations": False}):
        assert act(start(HANDS, room(**settings)), {"seat": 0, "ascend": True}).phase == "play"


def test_Y2_7_Y13_6_a_revolt_succeeds_at_the_quorum() -> None:
    """Y2.7, Y13.6: at ``revolt_quorum`` revolts the guard's seat is announced and m = 2; the
    guard's 明保 does not count; fewer revolts only make those seats public."""
    one = act(start(HANDS), {"seat": 0, "ascend": True}, {"seat": 1, "declare": True}, *no(2, 4),
              {"seat": 3, "declare": True})
    assert one.revolts == (1,) and not one.revolt_success and one.open_guard and one.multiplier == 2
    few = act(start(HANDS), {"seat": 0, "ascend": True}, {"seat": 1, "declare": True}, *no(2, 3, 4))
    assert few.multiplier == 1 and few.view(2)["public_roles"] == ["emperor", "revolutionary", None, None, None]
    assert few.view(2)["roles"]["guard"] is None
    quorum = act(start(HANDS, room(revolt_quorum=1)), {"seat": 0, "ascend": True}, {"seat": 1, "declare": True},
                 *no(2, 3, 4))
    assert quorum.revolt_success and quorum.view(2)["roles"]["guard"] == 3 and quorum.multiplier == 2


def test_Y2_8_Y13_7_the_multiplier_never_stacks_and_an_unmasked_secret_solo_stays_secret() -> None:
    """Y2.8: 明保 and a successful revolt give m = 2, not 4; Y13.7: a secret solo unmasked by
    a revolt stays secret for scoring, with m = 2."""
    both = act(start(HANDS), {"seat": 0, "ascend": True}, {"seat": 3, "declare": True},
               *({"seat": seat, "declare": True} for seat in (1, 2, 4)))
    assert both.multiplier == 2 and both.revolt_success and both.open_guard
    solo = act(start(["BJ* SJ* 7", "6 9 K", "7 10 10", "8", "8 J A"]), {"seat": 0, "ascend": True},
               {"seat": 1, "declare": True}, {"seat": 2, "declare": True}, *no(3, 4))
    assert solo.roles == Roles(0, 0, "secret") and solo.multiplier == 2
    assert solo.events[-1].to_dict()["solo"] == "secret" and solo.view(3)["roles"]["solo"] == "secret"


def test_Y2_9_playing_the_guard_card_shows_the_role_without_changing_m() -> None:
    """Y2.9: SJ* played shows its holder's role; reveals in play never change m; at the end
    every role and hand is shown."""
    hand = act(start(HANDS), {"seat": 0, "ascend": True}, *no(1, 2, 3, 4), p(0, "7"), p(1, "9"), {"seat": 2,
               "pass": True}, p(3, "SJ*"))
    assert {"type": "reveal", "seat": 3, "role": "guard"} in [event.to_dict() for event in hand.events]
    assert hand.multiplier == 1 and hand.view(1)["roles"]["guard"] == 3 and hand.view(0)["known_roles"][3] == "guard"
    finished = play_game(ROOM, [make_bot("hosting")] * 5, seed=3)
    end = finished.events[-1].to_dict()
    assert end["type"] == "end" and len(end["hands"]) == 5 and finished.view(1)["revealed"] is not None


def test_Y2_10_views_hide_hands_and_hidden_roles() -> None:
    """Y2.10: each seat sees its own hand and every count; no other hand before the end."""
    hand = act(start(HANDS), {"seat": 0, "ascend": True}, *no(1, 2, 3, 4))
    for seat in range(5):
        view = hand.view(seat)
        assert view["hand"] == [card.__str__() + ("*" if card in (EMPEROR_CARD, GUARD_CARD) else "")
                                for card in hand.hands[seat]]
        assert view["cards_left"] == [3, 3, 3, 2, 3] and view["revealed"] is None
    assert "hand" not in hand.view(None) and hand.view(None)["roles"] == {"emperor": 0, "guard": None, "solo": None}


# ---------------------------------------------------------------------------
# Y3: play


def test_Y3_1_Y3_2_the_emperor_leads_and_a_lead_is_never_passed() -> None:
    """Y3.1, Y3.2."""
    hand = act(start(HANDS), {"seat": 0, "ascend": True}, *no(1, 2, 3, 4))
    assert hand.waiting() == (Waiting(0, "turn", 20.0),)
    with pytest.raises(RoyalistError) as error:
        hand.apply(Pass(0))
    assert error.value.code == "pass_on_lead"


def test_Y3_3_Y3_4_hard_pass_sits_out_the_round() -> None:
    """Y3.3: with ``hard_pass`` a seat that passed sits out the round and counts as passed
    (Y3.4); with soft passes it plays again (Y10.2)."""
    hands = ["BJ* 8 8 9", "K K Q", "J J 10 SJ*", "10 10 6", "BJ A 7"]
    actions = [{"seat": 0, "ascend": True}, *no(1, 2, 3, 4), p(0, "8 8"), {"seat": 1, "pass": True}, p(2, "J J")]
    soft = act(start(hands), *actions, {"seat": 4, "pass": True})
    assert soft.to_act == 1  # seat 1 passed before and may play again
    hard = act(start(hands, room(hard_pass=True)), *actions, {"seat": 4, "pass": True})
    assert hard.table is None and hard.to_act == 2 and hard.events[-1].to_dict()["type"] == "pass"


def test_Y3_5_Y3_6_going_out_and_the_next_seat_leading() -> None:
    """Y3.5: a seat that plays its last card is out and skipped; Y3.6: after the round the
    next seat holding cards leads (接风)."""
    hand = act(start(["BJ* Q", "6 9", "7 10", "SJ* 8", "8 J"]), {"seat": 0, "ascend": True}, *no(1, 2, 3, 4),
               p(0, "BJ* Q"))
    assert hand.finish_order == [0] and hand.to_act == 1 and hand.events[-1].to_dict() == {"type": "jiefeng",
                                                                                            "seat": 1}


def test_Y3_6_Y13_16_jiefeng_to_the_known_partner() -> None:
    """Y3.6, Y13.16: with ``jiefeng = "partner"`` the out seat's publicly known teammate leads
    (the first in play order from it); an unknown partner gives the next seat."""
    hands = ["BJ* Q", "6 9", "7 10", "SJ* 8", "8 J"]
    known = act(start(hands, room(jiefeng="partner")), {"seat": 0, "ascend": True}, {"seat": 3, "declare": True},
                *no(1, 2, 4), p(0, "BJ* Q"))
    assert known.to_act == 3
    hidden = act(start(hands, room(jiefeng="partner")), {"seat": 0, "ascend": True}, *no(1, 2, 3, 4), p(0, "BJ* Q"))
    assert hidden.to_act == 1


def test_Y3_7_Y13_9_auto_pass_and_after_a_big_joker() -> None:
    """Y3.7: a seat without a beating set is passed at once; with ``auto_pass = false`` it
    passes itself, except after a set with a BJ, which nothing beats (Y13.9)."""
    hands = ["BJ* 6 Q", "7 9", "7 10", "SJ* 8", "8 J"]
    manual = act(start(hands, room(auto_pass=False)), {"seat": 0, "ascend": True}, *no(1, 2, 3, 4), p(0, "Q"))
    assert manual.to_act == 1
    after = act(start(hands, room(auto_pass=False)), {"seat": 0, "ascend": True}, *no(1, 2, 3, 4), p(0, "BJ* Q"))
    assert after.to_act == 0 and after.table is None
    auto = act(start(hands), {"seat": 0, "ascend": True}, *no(1, 2, 3, 4), p(0, "Q"))
    assert auto.to_act == 3 and [e.to_dict()["cause"] for e in auto.events[-2:]] == ["auto_pass", "auto_pass"]
    assert ROYALIST.moves_json(auto, 3) == '[{"type":"play","cards":"SJ*"},{"type":"pass"}]'


def test_Y3_8_sixes_last_in_play() -> None:
    """Y3.8: with ``sixes_last`` a 6 is played only as the whole hand, of 6s only."""
    hand = act(start(["BJ* 6 6 9", "7 9", "7 10", "SJ* 8", "8 J"], room(sixes_last=True)), {"seat": 0, "ascend": True},
               *no(1, 2, 3, 4))
    with pytest.raises(RoyalistError, match="sixes go last"):
        hand.apply(ROYALIST.action_from_dict(p(0, "6 6")))
    seen = Seen.of(hand, 0)
    assert hosting_set(seen) == CardSet(9, 1, 0, 0)


# ---------------------------------------------------------------------------
# Y5, Y6: end and scores


def test_Y5_1_Y5_2_the_game_ends_as_soon_as_the_score_is_fixed() -> None:
    """Y5.1: two against three ends when both royals or all three revolutionaries are out;
    Y5.2: a solo when the emperor or two others are out (one in an open solo with ``loss``)."""
    two = Roles(0, 3, None)
    assert not game_over(two, [0]) and game_over(two, [0, 3]) and game_over(two, [1, 2, 4])
    assert not game_over(two, [1, 2, 0])
    solo = Roles(1, 1, "secret")
    assert game_over(solo, [1]) and game_over(solo, [0, 2]) and not game_over(solo, [0])
    assert game_over(Roles(1, 1, "open"), [0], "loss") and not game_over(Roles(1, 1, "secret"), [0], "loss")


def test_Y5_3_places_of_unplaced_seats() -> None:
    """Y5.3: an unplaced royal takes 5 (both: 4 and 5, E + G = 9); an unplaced solo emperor
    counts as third or worse."""
    assert scoring_places(Roles(0, 3, None), [1, 0, 2, 4]) == (2, 5)
    assert scoring_places(Roles(0, 3, None), [1, 2, 4]) == (4, 5)
    assert scoring_places(Roles(2, 2, "secret"), [0, 1]) == (3, 3)


@pytest.mark.parametrize(
    ("places", "guard"),
    [((1, 2), 3), ((2, 1), 3), ((1, 3), 2), ((3, 1), 2), ((1, 4), 1), ((2, 3), 1), ((1, 5), 0), ((2, 4), 0),
     ((2, 5), -1), ((3, 4), -1), ((3, 5), -2), ((5, 3), -2), ((4, 5), -3)],
)
def test_Y6_1_Y6_4_two_against_three(places: tuple[int, int], guard: int) -> None:
    """Y6.1's table: s = 6 − (E + G): the guard s, the emperor 2s, each revolutionary −s; Y6.4:
    zero-sum; with m = 2 doubled."""
    emperor_place, guard_place = places
    order = [None] * 5
    order[emperor_place - 1], order[guard_place - 1] = 0, 3
    rest = iter((1, 2, 4))
    finish = [seat if seat is not None else next(rest) for seat in order]
    units = unit_scores(Roles(0, 3, None), finish, 1)
    assert units == (2 * guard, -guard, -guard, guard, -guard) and sum(units) == 0
    assert unit_scores(Roles(0, 3, None), finish, 2) == tuple(2 * unit for unit in units)


@pytest.mark.parametrize(("order", "emperor"), [([2], 12), ([0, 2], 0), ([0, 1], -12), ([0, 1, 2], -12)])
def test_Y6_2_Y6_3_solos(order: list[int], emperor: int) -> None:
    """Y6.2: a secret solo scores +12/−3, 0, −12/+3 by the emperor's place; Y6.3: open, ×2."""
    secret = unit_scores(Roles(2, 2, "secret"), order, 1)
    assert secret[2] == emperor and all(unit == -emperor // 4 for seat, unit in enumerate(secret) if seat != 2)
    assert unit_scores(Roles(2, 2, "open"), order, 2)[2] == 2 * emperor


# ---------------------------------------------------------------------------
# Y7: money


def test_Y7_1_Y7_2_match_points_from_the_lowest_level() -> None:
    """Y7.1: X from the lowest level among the five (R9.4's table of the room's edition);
    Y7.2: nets are units × X and sum to zero."""
    settled = settle_royalist(ROOM, [1000, 1000, 100, 5000, 1000], roles=Roles(0, 3, None), finish_order=[0, 3],
                              multiplier=1)
    assert settled.match_points == 10 and settled.levels == (5, 5, 2, 7, 5)
    assert settled.nets == (60, -30, -30, 30, -30) and sum(settled.nets) == 0


def test_Y7_3_fees_caps_and_the_house() -> None:
    """Y7.3: the table fee from each of the five; payers pay at most their balance when
    balances may not go negative; the pot shared in proportion, rounded down, the rest to
    the house."""
    wealth = room(edition="wealth", table_fee=100)
    settled = settle_royalist(wealth, [100000, 100000, 10000, 100000, 100000], roles=Roles(0, 3, None),
                              finish_order=[0, 3], multiplier=1)
    assert settled.match_points == 100 and settled.table_fees == (100,) * 5
    assert settled.dues == (0, 300, 300, 0, 300) and settled.paid == (0, 300, 300, 0, 300)
    assert sum(settled.deltas) + settled.house == 0 and settled.house == 500
    poor = settle_royalist(room(edition="wealth", table_fee=140), [100000, 100000, 150, 100000, 100000],
                           roles=Roles(0, 3, None), finish_order=[0, 3], multiplier=1)
    assert poor.match_points == 5 and poor.dues[2] == 15 and poor.paid[2] == 10 and poor.capped
    assert sum(poor.deltas) + poor.house == 0


def test_Y7_4_Y13_14_tribute_from_the_losers() -> None:
    """Y7.4, Y13.14: from the second game, after a royal win two revolutionaries (in play order
    from the emperor) give their highest non-joker card to the emperor and one to the guard;
    after a loss the royals give; after a draw nothing; only the two seats see the card."""
    tribute = room(tribute=True)
    won = ROYALIST.deal(tribute, 4, {"first_taker": 0, "previous": {"emperor": 1, "guard": 3, "solo": None,
                                                                    "result": "royals"}})
    assert [(t.seat, t.to) for t in won.tributes] == [(2, 1), (4, 1), (0, 3)]
    for given in won.tributes:
        giver_hand = [card for card in won.dealt[given.seat] if not card.rank.is_joker]
        assert all(card.rank <= given.card.rank for card in giver_hand)
    assert len(won.view(1)["tributes"]) == 2 and len(won.view(2)["tributes"]) == 1 and won.view(3)["tributes"]
    assert won.view(None).get("tributes") is None
    assert all(set(e.to_dict()) == {"type", "seat", "to"} for e in won.events if e.type == "tribute")
    lost = ROYALIST.deal(tribute, 4, {"previous": {"emperor": 1, "guard": 3, "solo": None,
                                                   "result": "revolutionaries"}})
    assert [(t.seat, t.to) for t in lost.tributes] == [(1, 2), (1, 4), (3, 0)]
    solo = ROYALIST.deal(tribute, 4, {"previous": {"emperor": 1, "guard": None, "solo": "open", "result": "royals"}})
    assert [(t.seat, t.to) for t in solo.tributes] == [(2, 1), (3, 1), (4, 1), (0, 1)]
    assert ROYALIST.deal(tribute, 4, {"previous": {"emperor": 1, "guard": 3, "result": "draw"}}).tributes == ()
    assert ROYALIST.deal(ROOM, 4, won.carried() | {"previous": {"emperor": 1, "guard": 3, "result": "royals"}}
                         ).tributes == ()
    changed = ROYALIST.deal(tribute, 4, {"previous": {"emperor": 1, "guard": 3, "result": "royals"}},
                            [True, True, False, True, True])
    assert changed.tributes == ()


# ---------------------------------------------------------------------------
# Y8: timers, hosting, escape


def test_Y8_1_Y13_4_decision_timeouts_take_the_default_and_are_not_counted() -> None:
    """Y8.1: a timed-out decision takes its default (ascend, secret solo, stay hidden); Y13.4:
    for that seat only, and not toward ``max_timeouts``; a turn's timeout is counted."""
    both = ["BJ* SJ* 7", "6 9 K", "7 10 10", "8", "8 J A"]
    hand = act(start(both), {"seat": 0, "timeout": True}, {"seat": 2, "timeout": True})
    assert hand.roles == Roles(0, 0, "secret") and hand.answers == [None, None, False, None, None]
    assert hand.timeouts == [0] * 5
    act(hand, *no(1, 3, 4), {"seat": 0, "timeout": True})
    assert hand.timeouts[0] == 1 and len(hand.plays) == 1


def test_Y8_2_Y13_15_hosting_in_its_order() -> None:
    """Y8.2, Y13.15: the whole hand when it is one legal set; then a pass on a known
    teammate's set; then the smallest beating set, or on a lead every card of the lowest
    natural rank."""
    hand = act(start(["BJ* 7 7 9", "6 9", "J J", "SJ* K K", "Q Q A"]), {"seat": 0, "ascend": True},
               {"seat": 3, "declare": True}, *no(1, 2, 4))
    assert hosting_set(Seen.of(hand, 0)) == CardSet(7, 2, 0, 0)
    act(hand, p(0, "7 7"))
    assert hosting_set(Seen.of(hand, 2)) == CardSet(11, 2, 0, 0)  # the whole hand
    act(hand, {"seat": 2, "pass": True})
    assert hosting_set(Seen.of(hand, 3)) is None  # the emperor's set, known to the guard
    assert hosting_set(Seen.of(hand, 4)) == CardSet(12, 2, 0, 0)
    spared = room(hosting_spares_partner=False)
    other = act(start(["BJ* 7 7 9", "6 9", "J J", "SJ* K K", "Q Q A"], spared), {"seat": 0, "ascend": True},
                *no(1, 2, 3, 4), p(0, "7 7"), {"seat": 2, "pass": True})
    assert hosting_set(Seen.of(other, 3)) == CardSet(13, 2, 0, 0)


def test_Y8_3_disconnection_switches_hosting_on_with_its_cause() -> None:
    """Y8.3: hosting takes over at once (cause ``disconnect``); the seat may switch it off; a
    hosted seat's default is made with cause ``hosting``."""
    hand = act(start(HANDS), {"seat": 0, "hosting": True, "cause": "disconnect"})
    assert hand.hosted(0) and hand.events[-1].to_dict() == {"type": "hosting", "seat": 0, "cause": "disconnect",
                                                            "on": True}
    hand.apply(hand.default_action(0))
    assert hand.events[-2].to_dict() == {"type": "ascend", "seat": 0, "cause": "hosting"}
    hand.apply(Hosting(0, False))
    with pytest.raises(RoyalistError):
        hand.apply(HostedTurn(0))


def test_Y8_4_Y13_12_escapes_in_both_modes() -> None:
    """Y8.4, Y13.12: in host mode the escaper is hosted on and pays P = 12 × X, ⌊P / 4⌋ to
    each other seat; in settle mode the game ends at once with no role scores and it pays
    D = P × m, ``escape_share`` × D / 4 to each, the rest to the house; a seat out cannot
    escape."""
    hand = act(start(HANDS), {"seat": 0, "ascend": True}, {"seat": 3, "declare": True}, *no(1, 2, 4))
    host_cost = hand.leaving_cost(2, [1000] * 5)
    assert host_cost == {"mode": "host", "penalty": 720, "owed": None, "fee": None, "charge": None}
    settle = room(escape_mode="settle", edition="wealth")
    ended = act(start(HANDS, settle), {"seat": 0, "ascend": True}, {"seat": 3, "declare": True}, *no(1, 2, 4))
    cost = ended.leaving_cost(2, [100000] * 5)
    ended.apply(Escape(2))
    settled = ended.settlement([100000] * 5)
    assert ended.finished and ended.result == "escape" and settled.units == (0,) * 5
    assert settled.escape_payments == (2100, 2100, -2 * 12 * 500, 2100, 2100) and settled.house == 12000 - 8400
    assert cost is not None and cost["charge"] == 12000 and ended.escape_charged(settled) == cost
    out = act(start(["BJ* Q", "6 9", "7 10", "SJ* 8", "8 J"]), {"seat": 0, "ascend": True}, *no(1, 2, 3, 4),
              p(0, "BJ* Q"))
    assert out.escape_action(0) is None and out.escape_action(1) == Escape(1)


def test_Y5_4_the_record_replays_with_every_action_and_its_cause() -> None:
    """Y5.4: the record keeps the seed, the room, every action with its cause (R11.6), and
    replays to the same events; an altered record is refused."""
    bots = [make_bot("greedy"), make_bot("random", 1), make_bot("hosting"), make_bot("random", 2), make_bot("greedy")]
    hand = play_game(ROOM, bots, seed=21, timeout_rate=0.1)
    record = hand.to_record()
    data = record.to_dict()
    assert data["seed"] == 21 and data["config"]["game"] == "royalist"
    again = ROYALIST.restore(ROYALIST.read_record(data))
    assert [e.to_dict() for e in again.events] == [e.to_dict() for e in hand.events]
    assert again.roles == hand.roles and again.settlement([1000] * 5) == hand.settlement([1000] * 5)
    broken = dict(data, events=[*data["events"][:-1], {"type": "end"}])
    with pytest.raises(RoyalistError) as error:
        ROYALIST.restore(ROYALIST.read_record(broken))
    assert error.value.code == "replay_mismatch"
    with pytest.raises(RoyalistError, match="first_taker"):
        ROYALIST.read_record({k: v for k, v in data.items() if k != "first_taker"})


def test_the_family_s_rooms_actions_and_moves() -> None:
    """Actions to JSON and back; ``message_action``; a room's ``most_at_stake`` bounds a game."""
    from shuangkou.games.royalist.wire import AscendMessage, DeclareMessage

    for action in (Ascend(1), Ascend(1, True), Abdicate(2), Declare(3, True), Pass(4), Timeout(0), HostedTurn(1),
                   Hosting(2, True, "disconnect"), Escape(3)):
        assert ROYALIST.action_from_dict(ROYALIST.action_to_dict(action)) == action
    assert ROYALIST.message_action(2, AscendMessage(type="ascend", seq=1, open_solo=True)) == Ascend(2, True)
    assert ROYALIST.message_action(2, DeclareMessage(type="declaration", seq=1, declare=False)) == Declare(2, False)
    family, loaded = load_room("royalist216")
    assert family is ROYALIST and loaded.deck == "216" and loaded.most_at_stake == 48 * 800
