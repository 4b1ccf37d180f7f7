"""One hand of Tractor as a state machine (docs/RULES-TRACTOR.md T2, T3, T7.7–T7.8,
T8.4–T8.5, T11.1–T11.3, T16.7–T16.9; worked examples X17, X18): the timed deal and its
declarations from every seat, the window, the first hand's dealer and redeals, the third
bottom card, the private bury, timers and hosting, views, records and undo, and properties
of whole hands played by bots."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tractor_support import declare, p, stacked_deck, tractor

from shuangkou.games import family, load_room
from shuangkou.games.interface import GameFamily, Waiting
from shuangkou.games.tractor.bots import make_bot
from shuangkou.games.tractor.config import load_tractor_room
from shuangkou.games.tractor.family import TRACTOR
from shuangkou.games.tractor.hand import (
    Bury,
    Declare,
    Done,
    Draw,
    Escape,
    HostedTurn,
    Hosting,
    Play,
    Start,
    Timeout,
    TractorError,
    TractorHand,
    action_from_dict,
    action_to_dict,
)
from shuangkou.games.tractor.order import faces_of, faces_text, rank_index
from shuangkou.referee import ScenarioError

ROOM = load_tractor_room("tractor")


def stacked(hands: list[str], bottom: str = "", first: int = 0, dealer: int | None = None,
            levels: tuple[str, str] = ("2", "2"), **room: object) -> TractorHand:
    settings_ = load_tractor_room("tractor", room) if room else ROOM
    deck = stacked_deck(hands, bottom, first)
    start = Start((rank_index(levels[0]), rank_index(levels[1])), dealer, (deck,), first if dealer is None else dealer,
                  fallback=2)
    return TractorHand.begin(settings_, start)


def deal_out(hand: TractorHand) -> None:
    while hand.phase == "deal":
        hand.apply(Draw(hand.waiting()[0].seat))


def close(hand: TractorHand) -> None:
    while hand.phase == "declare":
        hand.apply(Done(hand.waiting()[0].seat))


def cards(hand: TractorHand, seat: int) -> int:
    return sum(hand.hands[seat].values())


# ---------------------------------------------------------------------------
# The deal and declaring (T2)


def test_T2_1_the_deal_round_by_round_and_the_bottom() -> None:
    """T2.1: the cards arrive one at a time, seat by seat from the seat dealing; every seat
    still owed its card of the round is waited for under a timer of four intervals; each
    holds 25 at the end, the last 8 cards are the bottom, in deal order; a seed replays."""
    hand = TRACTOR.deal(ROOM, seed=11)
    first = hand.deal_from
    assert hand.phase == "deal" and hand.dealer is None
    assert hand.waiting() == tuple(Waiting((first + k) % 4, "deal", 0.8, clocked=True) for k in range(4))
    hand.apply(Draw((first + 2) % 4))
    assert [cards(hand, seat) for seat in range(4)] == [int(seat == (first + 2) % 4) for seat in range(4)]
    assert [wait.seat for wait in hand.waiting()] == [(first + k) % 4 for k in (0, 1, 3)]
    deal_out(hand)
    assert [cards(hand, seat) for seat in range(4)] == [25] * 4 and hand.phase == "declare"
    assert hand.bottom == hand.start.decks[0][100:] and len(hand.bottom) == 8
    again = TRACTOR.deal(ROOM, seed=11)
    assert again.start == hand.start
    with pytest.raises(TractorError) as refused:
        hand.apply(Draw(0))
    assert refused.value.code == "not_your_turn"


def test_T2_2_T2_4_T2_5_X17_the_declaration_ladder() -> None:
    """T2.2, T2.4, T2.5 (X17, within what two decks hold: X17 shows three BJ and four SJ):
    a first hand at level 2, dealt from seat 3: one 2H declares, the second reinforces, an
    equal pair of another seat is refused, the standing declarer's joker pair is refused,
    another seat's BJ BJ overrides, two level cards of two suits are no declaration. The
    first declarer deals ("final_declarer": the last)."""
    hands = ["3D", "2H 2H SJ SJ", "2C 2C 2D", "BJ BJ"]
    for rule, dealer in (("first_declarer", 1), ("final_declarer", 3)):
        hand = stacked(hands, first=3, first_dealer=rule)
        deal_out(hand)
        hand.apply(Declare(1, tuple(faces_of("2H"))))
        hand.apply(Declare(1, tuple(faces_of("2H 2H"))))
        for seat, text, reason in ((2, "2C 2C", "stronger"), (1, "SJ SJ", "only reinforce")):
            with pytest.raises(TractorError, match=reason) as refused:
                hand.apply(Declare(seat, tuple(faces_of(text))))
            assert refused.value.code == "declaration_refused"
        hand.apply(Declare(3, tuple(faces_of("BJ BJ"))))
        with pytest.raises(TractorError, match="no declaration"):
            hand.apply(Declare(2, tuple(faces_of("2C 2D"))))
        assert [(d.seat, d.kind) for d in hand.declarations] == [(1, "declare"), (1, "reinforce"), (3, "override")]
        close(hand)
        assert hand.dealer == dealer and hand.trump_view() == {"suit": "none", "level": "2"}


def test_T2_4_equal_pairs_by_suit_and_self_override() -> None:
    """T2.4, T2.5: with equal_pair_by_suit a level pair of a higher suit (S > H > C > D)
    overrides a lower one; with self_override the standing declarer may override itself
    (refused without)."""
    hands = ["2S 2S", "2H 2H SJ SJ BJ BJ", "2D 2D", "3C"]
    for allowed in (True, False):
        hand = stacked(hands, equal_pair_by_suit=True, self_override=allowed)
        deal_out(hand)
        hand.apply(Declare(1, tuple(faces_of("2H 2H"))))
        with pytest.raises(TractorError, match="stronger"):
            hand.apply(Declare(2, tuple(faces_of("2D 2D"))))
        hand.apply(Declare(0, tuple(faces_of("2S 2S"))))
        hand.apply(Declare(1, tuple(faces_of("SJ SJ"))))
        if allowed:
            hand.apply(Declare(1, tuple(faces_of("BJ BJ"))))
        else:
            with pytest.raises(TractorError, match="only reinforce"):
                hand.apply(Declare(1, tuple(faces_of("BJ BJ"))))
        assert [d.seat for d in hand.declarations] == [1, 0, 1, 1][: 3 + allowed]


def test_T2_3_declaring_while_the_cards_arrive() -> None:
    """T2.3: a seat declares with cards it holds already, from its first card; shown cards
    stay in the hand; a card it does not hold yet is refused."""
    hand = stacked(["2H 5C", "3C", "4C", "6C"], first=0)
    with pytest.raises(TractorError) as early:
        hand.apply(Declare(0, tuple(faces_of("2H"))))
    assert early.value.code == "cards_not_held"
    hand.apply(Draw(0))
    events = hand.apply(Declare(0, tuple(faces_of("2H"))))
    assert events[0].view() == {"type": "declare", "seat": 0, "cards": "2H", "accepted": True, "kind": "declare",
                                "trump": "H"}
    assert hand.phase == "deal" and hand.hands[0] == {faces_of("2H")[0]: 1}


def test_T2_6_the_window_after_the_deal() -> None:
    """T2.6: after the last card every seat is waited for (declare_window_seconds); each
    says it is done or its timer does; an accepted declaration reopens the window for all
    and passes the turn (the timers start again)."""
    hand = stacked(["2H", "2S 2S", "3C", "4C"], dealer=0)
    deal_out(hand)
    assert hand.waiting() == tuple(Waiting(seat, "declare", 5.0) for seat in range(4))
    turn = hand.turn
    hand.apply(Done(0))
    hand.apply(hand.timeout_action(2))
    assert [wait.seat for wait in hand.waiting()] == [1, 3] and hand.turn == turn
    hand.apply(Declare(1, tuple(faces_of("2S 2S"))))
    assert [wait.seat for wait in hand.waiting()] == [0, 1, 2, 3] and hand.turn != turn
    close(hand)
    assert hand.phase == "bury"


def test_T2_7_declarations_never_change_a_later_hand_s_dealer() -> None:
    """T2.7, T10.5: in a later hand any seat declares with the dealer team's level cards;
    the trump changes, the dealer does not."""
    hand = stacked(["5S", "5H 5H", "3C", "4C"], dealer=0, levels=("5", "3"))
    deal_out(hand)
    hand.apply(Declare(1, tuple(faces_of("5H 5H"))))
    close(hand)
    assert hand.dealer == 0 and hand.trump_view() == {"suit": "H", "level": "5"}


def test_T2_8_the_first_hand_redeals_then_a_drawn_seat_deals() -> None:
    """T2.8: nobody declares in the first hand: the cards are dealt again, one seat later,
    at most max_redeals times; then the seat drawn from the seed deals and T2.9 fixes the
    trump. With first_hand_no_bid = "third_bottom" there is no redeal."""
    hand = TRACTOR.deal(ROOM, seed=5)
    first = hand.deal_from
    for redeal in range(1, 4):
        deal_out(hand)
        close(hand)
        assert hand.phase == "deal" and hand.redeals == redeal and hand.deal_from == (first + redeal) % 4
    deal_out(hand)
    close(hand)
    assert hand.phase == "bury" and hand.dealer == hand.start.fallback
    assert kinds_of(hand).count("redeal") == 3 and "bottom_card" in kinds_of(hand)
    direct = TRACTOR.deal(load_tractor_room("tractor", {"first_hand_no_bid": "third_bottom"}), seed=5)
    deal_out(direct)
    close(direct)
    assert direct.phase == "bury" and direct.redeals == 0


def kinds_of(hand: TractorHand) -> list[str]:
    return [event.type for event in hand.events]


def test_T2_9_X18_the_third_bottom_card() -> None:
    """T2.9 (X18): nobody declares in a later hand: b3 is shown; KH makes ♥ trump at the
    dealer team's level; a joker makes it no-trump; with no_bid_trump = "no_trump" no card
    is shown."""
    bottom = "4C 9D KH 3S SJ 7C 2D QS"
    hand = stacked(["3C", "4C", "5C", "6C"], bottom, dealer=1, levels=("2", "7"))
    deal_out(hand)
    close(hand)
    assert hand.bottom_card == faces_of("KH")[0] and hand.trump_view() == {"suit": "H", "level": "7"}
    assert next(e.view() for e in hand.events if e.type == "bottom_card") == {"type": "bottom_card", "card": "KH"}
    joker = stacked(["3C", "4C", "5C", "6C"], "4C 9D BJ 3S SJ 7C 2D QS", dealer=1, levels=("2", "7"))
    deal_out(joker)
    close(joker)
    assert joker.trump_view() == {"suit": "none", "level": "7"}
    plain = stacked(["3C", "4C", "5C", "6C"], bottom, dealer=1, levels=("2", "7"), no_bid_trump="no_trump")
    deal_out(plain)
    close(plain)
    assert plain.bottom_card is None and plain.trump_view() == {"suit": "none", "level": "7"}


# ---------------------------------------------------------------------------
# The bottom (T3)


def test_T3_1_T3_3_the_dealer_takes_and_buries_the_bottom_and_leads() -> None:
    """T3.1, T3.3: the dealer takes the 8 bottom cards (33), buries any 8 — points and trumps
    too — within bury_seconds, seen by nobody else; then leads the first trick."""
    hand = stacked(["3C", "4C", "5C", "6C"], "KH 10H 5H 2H 2S 3S 4S 5S", dealer=2, levels=("2", "2"))
    deal_out(hand)
    close(hand)
    assert hand.waiting() == (Waiting(2, "bury", 30.0),) and cards(hand, 2) == 33
    assert hand.view(2)["bottom"] == "KH 10H 5H 2H 2S 3S 4S 5S"
    assert all(hand.view(seat)["bottom"] is None for seat in (0, 1, 3, None))
    with pytest.raises(TractorError, match="bury 8 cards"):
        hand.apply(Bury(2, tuple(faces_of("KH 10H"))))
    with pytest.raises(TractorError) as others:
        hand.apply(Bury(1, tuple(faces_of("4C 4C 4C 4C 4C 4C 4C 4C"))))
    assert others.value.code == "not_your_turn"
    buried = tuple(faces_of("KH 10H 5H 2H 2S 3S 4S 5S"))
    hand.apply(Bury(2, buried))
    assert hand.phase == "play" and hand.waiting() == (Waiting(2, "turn", 20.0),) and cards(hand, 2) == 25
    assert hand.view(2)["buried"] == faces_text(buried) and "buried" not in hand.view(0)


def test_T3_2_a_timeout_or_hosting_buries_the_bottom_back() -> None:
    """T3.2: the bury timer, or hosting, buries the 8 cards taken, unchanged."""
    for action in (Timeout(1), HostedTurn(1)):
        hand = stacked(["3C", "4C", "5C", "6C"], "KH 10H 5H 2H 2S 3S 4S 5S", dealer=1)
        deal_out(hand)
        close(hand)
        hand.apply(action)
        assert hand.buried == hand.bottom and hand.phase == "play"
        assert hand.events[-1].view()["cause"] == ("timeout" if isinstance(action, Timeout) else "hosting")


# ---------------------------------------------------------------------------
# Play, timers, hosting, views (T7.7, T7.8, T8.4, T8.5, T11)


def test_T7_7_an_illegal_play_is_refused_and_changes_nothing() -> None:
    """T7.7: the illegal follow is refused; no revoke, no penalty, the state as before."""
    hand = TRACTOR.scenario(ROOM, {"hands": ["AH 2C 4D", "KH 5H 3C", "QH 4C 6D", "JH 5C 7D"], "dealer": 0,
                                   "levels": ["10", "10"], "trump": "S"})
    hand.apply(Play(0, tuple(faces_of("AH"))))
    before = hand.view(1)
    with pytest.raises(TractorError) as refused:
        hand.apply(Play(1, tuple(faces_of("3C"))))
    assert refused.value.code == "illegal_follow" and hand.view(1) == before
    # The refusal names the duty broken and its counts, for a page to word in its language.
    assert refused.value.to_dict()["detail"] == {"rule": "T7.2", "need": 1, "given": 0}
    assert "(T7.2)" in refused.value.message


def test_T7_8_T16_9_forced_plays_are_made_at_once() -> None:
    """T7.8, T16.9: a seat with exactly one legal play plays it at once (cause auto_play);
    with auto_play_forced = false it plays it itself."""
    outcome = tractor(["AH 2C", "KH 3C", "QH 4C", "JH 5C"], [p(0, "AH")], auto=True)
    plays = [(event["seat"], event["cause"]) for event in outcome["events"] if event["type"] == "play"]
    assert plays == [(0, "player"), (1, "auto_play"), (2, "auto_play"), (3, "auto_play"), (0, "auto_play"),
                     (1, "auto_play"), (2, "auto_play"), (3, "auto_play")]
    assert outcome["finished"]
    manual = tractor(["AH 2C", "KH 3C", "QH 4C", "JH 5C"], [p(0, "AH")])
    assert manual["to_act"] == 1


def test_T8_4_T8_5_the_winner_leads_and_the_hand_ends_when_hands_are_empty() -> None:
    """T8.4, T8.5: the winner takes the points and leads the next trick; pairs use several
    cards per trick, so this hand of three cards has two tricks."""
    hands = ["3H 3H 4C", "KH 6H 5D", "2H 7H 6D", "AH AH 7D"]
    outcome = tractor(hands, [p(0, "3H 3H")], auto=True)
    assert [(t["leader"], t["winner"], t["points"]) for t in outcome["tricks"]] == [(0, 3, 10), (3, 3, 5)]
    assert outcome["finished"] and len(outcome["tricks"]) == 2


def test_T11_1_timers_and_timeouts() -> None:
    """T11.1: every phase's timer (deal, window, bury, turn); a turn that times out gets the
    hosting move, counted; at max_timeouts hosting stays on."""
    hand = TRACTOR.scenario(load_tractor_room("tractor", {"max_timeouts": 2}),
                            {"hands": ["3H 4H 5H", "6H 7H 8H", "9H JH QH", "KH AH 2H"], "dealer": 0,
                             "levels": ["10", "10"], "trump": "S"})
    assert hand.waiting() == (Waiting(0, "turn", 20.0),)
    hand.apply(hand.timeout_action(0))
    hand.apply(Timeout(1))
    hand.apply(Play(2, tuple(faces_of("9H"))))
    hand.apply(Timeout(3))
    counted = [event.view() for event in hand.events if event.type in ("timeout", "hosting")]
    assert counted[:2] == [{"type": "timeout", "seat": 0, "count": 1}, {"type": "timeout", "seat": 1, "count": 1}]
    assert hand.timeouts[0] == 1 and not hand.hosted(0)
    hand2 = TRACTOR.scenario(load_tractor_room("tractor", {"max_timeouts": 1}),
                             {"hands": ["3H 4H", "6H 7H", "9H JH", "KH AH"], "dealer": 0, "levels": ["10", "10"],
                              "trump": "S"})
    hand2.apply(Timeout(0))
    assert hand2.hosted(0) and hand2.events[-1].view() == {"type": "hosting", "seat": 0, "cause": "timeout",
                                                           "on": True}


def test_T11_2_hosting_moves_are_deterministic() -> None:
    """T11.2: a hosted seat leads the first single of the ranking (non-trump, non-point,
    lowest, suit S H C D) and never declares; hosting plays the same move every time."""
    hand = TRACTOR.scenario(ROOM, {"hands": ["AH 5C 3D 2S", "3H 4H 5H 6H", "7H 8H 9H JH", "QH KH 2H 3C"],
                                   "dealer": 0, "levels": ["10", "10"], "trump": "S"})
    hand.apply(Hosting(0, True))
    hand.apply(HostedTurn(0))
    assert hand.events[-1].view() == {"type": "play", "seat": 0, "cards": "3D", "cause": "hosting"}
    dealt = TRACTOR.deal(ROOM, seed=2)
    dealt.apply(Hosting(1, True))
    assert dealt.default_action(1) == Draw(1)
    deal_out(dealt)
    assert dealt.default_action(1) == Done(1) and not dealt.declarations


def test_T11_3_views_hide_hands_and_the_bottom() -> None:
    """T11.3: a seat sees its own hand and every seat's count, the declarations, the trump,
    the trick, the attackers' points; no other hand; the bottom to the dealer once taken and
    to all at the end; a spectator sees no hand."""
    hand = TRACTOR.deal(ROOM, seed=9, carried={"levels": ["3", "4"], "dealer": 1})
    deal_out(hand)
    for seat in range(4):
        view = hand.view(seat)
        assert len(view["hand"]) == 25 and view["cards_left"] == [25] * 4 and view["bottom"] is None
    assert "hand" not in hand.view(None) and hand.view(None)["bottom"] is None
    close(hand)
    assert hand.view(1)["bottom"] is not None and all(hand.view(seat)["bottom"] is None for seat in (0, 2, 3))
    while not hand.finished:
        hand.apply(hand.default_action(hand.waiting()[0].seat))
    assert hand.view(None)["bottom"] == faces_text(hand.buried) and hand.view(None)["score"] is not None


def test_T16_7_T16_8_hand_built_scenarios() -> None:
    """T16.7, T16.8: hands need a dealer and levels; the dealer buries as many cards as the
    bottom holds; fewer than 3 bottom cards and no declaration: no trump; a refused
    declaration is an event; a declaration with a fixed trump is bad_scenario."""
    with pytest.raises(ScenarioError, match="'dealer' and 'levels' are required"):
        tractor(["3H", "4H", "5H", "6H"], dealer=None, trump=None)  # type: ignore[arg-type]
    outcome = tractor(["2H 3C", "2S 4C", "5C 6C", "7C 8C"], [declare(0, "2H"), declare(1, "2S"),
                                                                {"seat": 2, "bury": "KH 9D"}], trump=None,
                      level="2", dealer=2, bottom="KH 9D")
    declarations = [event for event in outcome["events"] if event["type"] == "declare"]
    assert declarations[1] == {"type": "declare", "seat": 1, "cards": "2S", "accepted": False,
                               "reason": "an override needs a stronger declaration (T2.4)"}
    assert outcome["trump"] == {"suit": "H", "level": "2"} and outcome["phase"] == "play"
    none = tractor(["3H 3C", "4S 4C", "5C 6C", "7C 8C"], [{"seat": 2, "bury": "KH 9D"}], trump=None, level="2",
                   dealer=2, bottom="KH 9D")
    assert none["trump"] == {"suit": "none", "level": "2"}
    with pytest.raises(ScenarioError) as fixed:
        tractor(["2H 3C", "2S 4C", "5C 6C", "7C 8C"], [declare(0, "2H")])
    assert fixed.value.code == "bad_scenario"


def test_T16_7_a_seeded_scenario_deals_and_declares_itself() -> None:
    """T16.7 (docs/referee.md): with a seed the referee deals the cards itself until the
    declaring seat holds what it shows, and to the end of the window at the first bury or
    play; a seeded first hand draws its first seat from the seed."""
    hand = TRACTOR.deal(ROOM, seed=21)
    deal_out(hand)
    holder, shown = next((seat, (suit * 13,)) for seat in range(4) for suit in range(4)
                         if hand.hands[seat].get(suit * 13))
    outcome = TRACTOR.scenario(ROOM, {"seed": 21})
    outcome.apply(Declare(holder, shown))
    assert outcome.standing is not None and outcome.phase in ("deal", "declare")
    assert outcome.declarations[0].seat == holder


# ---------------------------------------------------------------------------
# The family, records, undo


def test_the_family_fulfils_the_interface() -> None:
    """Registered as "tractor" with its shipped room; actions to and from JSON; a record
    replays to the same hand; carried() holds the levels and the next dealer."""
    game: GameFamily = family("tractor")
    fam, room = load_room("tractor")
    assert fam is game and room.seats == 4 and game.shipped_rooms == ("tractor",)
    actions = [Draw(1), Declare(2, tuple(faces_of("10H 10H"))), Done(3), Bury(0, tuple(faces_of("3C 4C"))),
               Play(1, tuple(faces_of("AH AH KH"))), Timeout(2), HostedTurn(3), Hosting(0, True, "disconnect"),
               Escape(1)]
    for action in actions:
        assert action_from_dict(json.loads(json.dumps(action_to_dict(action)))) == action
    with pytest.raises(TractorError) as bad:
        action_from_dict({"seat": 0, "fly": True})
    assert bad.value.code == "bad_action"
    hand = play_out(5, ["greedy", "hosting", "random", "greedy"])
    record = game.read_record(json.loads(json.dumps(hand.to_record().to_dict())))
    restored = game.restore(record)
    assert restored.view(0) == hand.view(0) and restored.events == hand.events
    carried = hand.carried()
    assert set(carried) == {"levels", "dealer"} or hand.score is None or hand.score.match_over


def play_out(seed: int, bots: list[str], chaos: random.Random | None = None, room: Any = ROOM) -> TractorHand:
    """A whole hand between bots (``chaos``: random hosting, timeouts and an escape)."""
    hand = TRACTOR.deal(room, seed=seed)
    players = [make_bot(name, seed + seat) for seat, name in enumerate(bots)]
    while waits := hand.waiting():
        seat = chaos.choice(waits).seat if chaos else waits[0].seat
        if chaos and chaos.random() < 0.02:
            switched = chaos.randrange(4)
            if switched != hand.escaped:
                hand.apply(Hosting(switched, chaos.random() < 0.5))
            continue
        if chaos and chaos.random() < 0.003 and hand.escape_action(seat):
            hand.apply(Escape(seat))
            continue
        if hand.hosted(seat):
            hand.apply(hand.default_action(seat))
        elif chaos and chaos.random() < 0.05:
            hand.apply(hand.timeout_action(seat))
        else:
            hand.apply(players[seat].act(hand, seat))
    return hand


BOT_NAMES = st.lists(st.sampled_from(["greedy", "hosting", "random"]), min_size=4, max_size=4)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), BOT_NAMES, st.sampled_from(["host", "settle"]), st.booleans())
def test_T11_4_T11_5_whole_hands_settle_to_zero(seed: int, bots: list[str], mode: str, constant: bool) -> None:
    """T11.4, T11.5, T8.5: whole hands between bots, with random hosting, timeouts and
    escapes: the hand ends with every hand empty (or an escape), and the deltas and the
    house sum to zero whatever the balances."""
    room = load_tractor_room("tractor", {"escape_mode": mode, "two_is_constant_trump": constant,
                                         "allow_negative": seed % 2 == 0})
    hand = play_out(seed, bots, random.Random(seed), room)
    assert hand.finished and (not any(hand.hands) or hand.result == "escape")
    balances = [random.Random(seed).randrange(-100, 5000) for _ in range(4)]
    settlement = hand.settlement(balances)
    assert sum(settlement.deltas) + settlement.house == 0
    if hand.result != "escape":
        assert sum(len(trick.plays[0][1]) for trick in hand.tricks) == 25


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10**6), BOT_NAMES, st.integers(0, 400))
def test_undo_restores_the_state(seed: int, bots: list[str], cut: int) -> None:
    """Hand.undo takes the last action back completely (its forced plays too)."""
    hand = TRACTOR.deal(ROOM, seed=seed)
    players = [make_bot(name, seed + seat) for seat, name in enumerate(bots)]
    step = 0
    while (waits := hand.waiting()) and step < cut:
        seat = waits[0].seat
        hand.apply(players[seat].act(hand, seat))
        step += 1
    if hand.finished:
        return
    before = [hand.view(seat) for seat in range(4)], list(hand.events), hand.seq
    seat = hand.waiting()[0].seat
    action = players[seat].act(hand, seat)
    hand.apply(action)
    assert hand.undo() == action
    assert ([hand.view(seat) for seat in range(4)], list(hand.events), hand.seq) == before


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10**6), BOT_NAMES)
def test_T11_3_views_never_show_another_hand_or_the_bottom(seed: int, bots: list[str]) -> None:
    """T11.3: at every step of a whole hand, a seat's view holds its own hand only, the
    bottom only for the dealer after taking it, and a spectator's none of them."""
    hand = TRACTOR.deal(ROOM, seed=seed)
    players = [make_bot(name, seed + seat) for seat, name in enumerate(bots)]
    while waits := hand.waiting():
        for seat in range(4):
            view = hand.view(seat)
            own = sorted(face for face, count in hand.hands[seat].items() for _ in range(count))
            assert sorted(faces_of(" ".join(view["hand"]))) == own
            assert (view["bottom"] is not None) == (seat == hand.dealer and hand.phase in ("bury", "play"))
        public = hand.view(None)
        assert "hand" not in public and public["bottom"] is None
        seat = waits[0].seat
        hand.apply(players[seat].act(hand, seat))
    assert hand.view(None)["bottom"] is not None


def test_T11_1_timeouts_of_the_deal_and_the_window() -> None:
    """T11.1: a timeout during the deal brings the seat's card, during the window ends its
    declaring; neither is counted (only turns are)."""
    hand = stacked(["2H", "3C", "4C", "5C"], dealer=0)
    hand.apply(Timeout(0))
    assert cards(hand, 0) == 1 and hand.timeouts == [0, 0, 0, 0]
    deal_out(hand)
    hand.apply(Timeout(2))
    hand.apply(HostedTurn(3))
    assert [wait.seat for wait in hand.waiting()] == [0, 1] and hand.timeouts == [0, 0, 0, 0]


def test_a_refused_scenario_action_changes_nothing() -> None:
    """A seeded scenario's declaration of cards the seat never receives is refused, and the
    cards the referee dealt for it are taken back."""
    hand = TRACTOR.scenario(ROOM, {"seed": 3})
    seat = (hand.deal_from + 1) % 4
    received = {hand.start.decks[0][index] for index in range(1, 100, 4)}
    absent = next(suit * 13 for suit in range(4) if suit * 13 not in received)  # a 2 it never gets
    before = hand.view(None), hand.seq
    with pytest.raises(TractorError) as refused:
        hand.apply(Declare(seat, (absent,)))
    assert refused.value.code == "cards_not_held" and (hand.view(None), hand.seq) == before


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.sampled_from(["2S", "2H", "2C", "2D", "2S 2S", "2H 2H", "2C 2C",
                                                             "2D 2D", "SJ SJ", "BJ BJ", "SJ", "2S 2H"])),
                max_size=30),
       st.booleans(), st.booleans())
def test_T2_4_T2_5_the_ladder_only_climbs(attempts: list[tuple[int, str]], by_suit: bool, own: bool) -> None:
    """T2.4, T2.5: whatever the requests, each accepted declaration is stronger than the one
    it replaces (by strength, then by suit with equal_pair_by_suit), or the standing
    declarer's second card of its single; so few are ever accepted and declaring ends."""
    hands = ["2S 2S SJ", "2H 2H BJ", "2C 2C SJ", "2D 2D BJ"]
    hand = stacked(hands, equal_pair_by_suit=by_suit, self_override=own)
    deal_out(hand)
    for seat, text in attempts:
        try:
            hand.apply(Declare(seat, tuple(faces_of(text))))
        except TractorError as refused:
            assert refused.code in ("declaration_refused", "cards_not_held")
    for before, after in zip(hand.declarations, hand.declarations[1:], strict=False):
        if after.kind == "reinforce":
            assert (after.seat, after.suit, before.strength, after.strength) == (before.seat, before.suit, 1, 2)
        else:
            stronger = after.strength > before.strength
            by_higher_suit = by_suit and after.strength == before.strength == 2 and \
                after.suit is not None and before.suit is not None and after.suit < before.suit
            assert stronger or by_higher_suit
            assert own or after.seat != before.seat
    assert len(hand.declarations) <= 8
    close(hand)
    assert hand.phase in ("bury", "deal")


def test_T11_5_leaving_costs_and_the_replay() -> None:
    """T11.5: leaving during a hand costs escape_units × X (shown before, charged after);
    the replay shows the teams, the dealer, the hands as dealt, the bottom and the trump."""
    room = load_tractor_room("tractor", {"escape_mode": "settle"})
    hand = TRACTOR.deal(room, seed=8, carried={"levels": ["4", "6"], "dealer": 3})
    deal_out(hand)
    assert hand.leaving_cost(1, [1000] * 4) == {"mode": "settle", "penalty": 720}
    hand.apply(Escape(1))
    assert hand.finished and hand.result == "escape" and hand.escape_action(2) is None
    settled = hand.settlement([1000] * 4)
    assert settled.deltas == (360, -720, 360, 0) and hand.escape_charged(settled) == {
        "mode": "settle", "seat": 1, "penalty": 720, "charge": 720}
    assert hand.carried() == {} and TRACTOR.teams(settled.to_dict(), 4) == [0, 1, 0, 1]
    replay = TRACTOR.replay(hand.to_record(), hand)
    assert replay["dealer"] == 3 and [len(faces_of(cards)) for cards in replay["hands"]] == [25] * 4
    assert len(faces_of(replay["bottom"])) == 8 and replay["levels"] == ["4", "6"]
