"""Tractor's bots and moves (docs/RULES-TRACTOR.md T11.2; docs/simulation.md): the hosting
bot plays T11.2's moves, the greedy partner plays only legal moves and beats hosting, the
moves a state carries are legal with the hosting move first, and the simulator plays
Tractor's teams."""

from __future__ import annotations

import json

from shuangkou.games import load_room
from shuangkou.games.tractor.bots import GreedyBot, HostingBot, unseen
from shuangkou.games.tractor.family import TRACTOR
from shuangkou.games.tractor.hand import Play, TractorHand
from shuangkou.games.tractor.order import faces_of
from shuangkou.games.tractor.wire import (
    BuryMessage,
    DeclareDoneMessage,
    DeclareMessage,
    TrickPlayMessage,
    message_action,
    moves,
)
from shuangkou.simulate import play_game, simulate

FAMILY, ROOM = load_room("tractor")


def test_T11_2_the_hosting_bot_makes_the_hosting_moves() -> None:
    """T11.2: the hosting bot's play is the hosting move the hand makes for a hosted seat."""
    for seed in range(20):
        hand = TRACTOR.deal(ROOM, seed=seed, carried={"levels": ["2", "2"], "dealer": seed % 4})
        bot = HostingBot()
        while hand.waiting() and hand.phase != "play":
            seat = hand.waiting()[0].seat
            hand.apply(bot.act(hand, seat))
        for _ in range(3):
            seat = hand.waiting()[0].seat
            action = bot.act(hand, seat)
            assert isinstance(action, Play) and action.faces == hand._hosting_play(seat)
            hand.apply(action)


def test_the_greedy_partner_plays_legal_moves_and_sees_only_its_own_cards() -> None:
    """Whole hands of greedy bots: every action accepted; what a bot cannot see is the deck
    less its cards and the cards played."""
    for seed in range(30):
        hand = play_game(ROOM, [FAMILY.player("greedy", seed, ROOM)] * 4, seed=seed)
        assert hand.finished and not any(hand.hands)
    hand = TRACTOR.deal(ROOM, seed=1, carried={"levels": ["2", "2"], "dealer": 0})
    assert sum(unseen(hand, 2).values()) == 108


def test_the_greedy_partner_declares_buries_and_trumps() -> None:
    """It declares a suit its hand supports, buries side cards, and trumps a lead it is
    void in when the trick holds points."""
    bot = GreedyBot()
    declared = 0
    for seed in range(20):
        hand = TRACTOR.deal(ROOM, seed=seed)
        while hand.phase in ("deal", "declare"):
            seat = hand.waiting()[0].seat
            hand.apply(bot.act(hand, seat))
        declared += bool(hand.declarations)
        if hand.phase == "bury":
            order = hand.order
            assert order is not None
            buried = bot.burial(hand, hand.dealer or 0)
            assert sum(order.is_trump(face) for face in buried) <= 1
    assert declared >= 18
    hand = TRACTOR.scenario(ROOM, {"hands": ["KH 2C 3C", "AH 4C 5C", "3S 6D 7D", "5H 8D 9D"], "dealer": 0,
                                   "levels": ["10", "10"], "trump": "S"})
    hand.apply(Play(0, tuple(faces_of("KH"))))  # seat 1 must follow with AH: played at once (T7.8)
    assert bot.act(hand, 2) == Play(2, tuple(faces_of("3S")))


def test_greedy_wins_most_hands_against_hosting() -> None:
    """The simulator plays Tractor's two teams (swapped over the hands): greedy wins at
    least 75 % of the hands against hosting and takes money from it."""
    report = simulate(ROOM, ("greedy", "hosting"), games=120, seed=0)
    greedy, hosting = report.bot_stats()
    assert greedy.win_rate >= 0.75 and greedy.mean_delta > 0 and greedy.mean_delta + hosting.mean_delta == 0
    data = report.to_dict()
    assert data["games"] == 120 and "levels_gained" in json.dumps(data)


def test_moves_are_legal_with_the_hosting_move_first() -> None:
    """A state's moves (at most 40): declarations now allowed, the bury, the hosting lead or
    follow first; each one the hand accepts."""
    hand = TRACTOR.deal(ROOM, seed=4)
    while hand.phase == "deal":
        seat = hand.waiting()[0].seat
        for move in moves(hand, seat):
            action = message_action(seat, DeclareMessage(type="declare", seq=0, cards=move["cards"]))
            hand.check(action)
        hand.apply(hand.default_action(seat))
    assert {"type": "declare_done"} in moves(hand, 0)
    while not hand.finished:
        seat = hand.waiting()[0].seat
        found = moves(hand, seat)
        assert len(found) <= 40 and (found or hand.phase == "deal")  # a redeal: nothing to declare yet
        for move in found:
            kind = {"declare": DeclareMessage, "bury": BuryMessage, "trick_play": TrickPlayMessage,
                    "declare_done": DeclareDoneMessage}[move["type"]]
            message = kind.model_validate({**move, "seq": 0})
            checked = message_action(seat, message)
            hand.check(checked)
        if hand.phase == "play":
            first = message_action(seat, TrickPlayMessage(type="trick_play", seq=0, cards=found[0]["cards"]))
            assert isinstance(first, Play) and sorted(first.faces) == sorted(hand._hosting_play(seat))
        hand.apply(hand.default_action(seat))
    assert json.loads(FAMILY.moves_json(hand, 0)) == []


def test_table_bots_by_level() -> None:
    """``bot_level``: easy plays hosting, normal and expert the greedy partner (no search)."""
    easy = TRACTOR.table_bot(TRACTOR.load_room("tractor", {"bot_level": "easy"}))
    normal = TRACTOR.table_bot(ROOM)
    assert isinstance(easy.quick, HostingBot) and isinstance(normal.quick, GreedyBot)
    hand: TractorHand = TRACTOR.deal(ROOM, seed=0)
    assert normal.search(hand, 0, 1) is None


def test_views_events_and_moves_match_their_schemas() -> None:
    """The JSON Schemas of the protocol (``schemas()``) describe every view, event and move
    of whole hands (a spectator's and each seat's), failed throws and escapes included."""
    from pydantic import TypeAdapter

    from shuangkou.games.tractor.wire import EventView, MoveView, TractorView

    views, events, found = TypeAdapter(TractorView), TypeAdapter(EventView), TypeAdapter(list[MoveView])
    for seed, bots in ((1, "random"), (2, "greedy")):
        room = TRACTOR.load_room("tractor", {"escape_mode": "settle" if seed == 2 else "host",
                                             "reveal_throw_blocker": True})
        hand = TRACTOR.deal(room, seed=seed)
        players = [TRACTOR.player(bots, seed + seat, room) for seat in range(4)]
        while waits := hand.waiting():
            for seat in (None, 0, 1, 2, 3):
                views.validate_python(hand.view(seat))
            seat = waits[0].seat
            found.validate_json(TRACTOR.moves_json(hand, seat))
            if seed == 2 and hand.phase == "play" and len(hand.tricks) == 5:
                hand.apply(TRACTOR.action_from_dict({"seat": seat, "escape": True}))
                continue
            hand.apply(players[seat].act(hand, seat))
        for event in hand.events:
            events.validate_python(event.view())
        assert hand.finished and set(TRACTOR.schemas()) == {"game", "event", "move", "messages"}


def test_greedy_attackers_beat_a_hosting_dealer_team() -> None:
    """In later hands dealt by the hosting team, the greedy attackers win at least 80 %."""
    won = 0
    for seed in range(60):
        dealer = seed % 4
        players = [TRACTOR.player("hosting" if seat % 2 == dealer % 2 else "greedy", seed, ROOM) for seat in range(4)]
        hand = TRACTOR.deal(ROOM, seed=seed, carried={"levels": ["2", "2"], "dealer": dealer})
        while waits := hand.waiting():
            seat = waits[0].seat
            hand.apply(players[seat].act(hand, seat))
        won += hand.result == "attackers"
    assert won >= 48
