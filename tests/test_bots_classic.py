"""Bots at the four-seat table (RULES-CLASSIC): what a bot sees, hosting and random per
seat, and the team play of the greedy bot, each in a small constructed position."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from shuangkou.cards import Card, counts_of, parse_cards
from shuangkou.games.shuangkou.bots import GreedyBot, HostingBot, RandomBot, Seen, bot_action
from shuangkou.games.shuangkou.combos import Combo
from shuangkou.games.shuangkou.config import load_config
from shuangkou.games.shuangkou.game import Game, HostedTurn, Hosting, Pass, Play
from shuangkou.simulate import play_game

CLASSIC = load_config("classic")
MANUAL = load_config("classic", {"auto_pass": False})  # every pass by hand, to build positions
MANY = "3 4 6 7 8 10 J Q K A"  # an opponent far from going out


def after(hands: list[str], leader: int, *actions: Play | Pass) -> Game:
    """A four-seat game from ``hands`` with ``actions`` applied."""
    game = Game.from_hands(MANUAL, hands, leader)
    for action in actions:
        game.apply(action)
    return game


# ---------------------------------------------------------------------------
# What a bot sees


def test_C1_1_a_seat_sees_its_hand_the_table_the_counts_the_teams_and_the_order() -> None:
    game = after(["9", "3 3 4", "10 J Q K", MANY], 0, Play.of(0, "9"), Pass(1))
    seen = Seen.of(game, 2)
    assert seen.seat == 2 and seen.hand == counts_of(parse_cards("10 J Q K"))
    assert seen.table is not None and str(seen.table) == "single 9" and seen.table_seat == 0
    assert seen.cards_left == (0, 3, 4, 10) and seen.finish_order == (0,)  # seat 0 went out (C2.2)
    assert seen.teams == (0, 1, 0, 1) and seen.partner == 0
    assert seen.opponents == (3, 1)  # in play order after seat 2
    assert seen.opponent_cards == 3  # the opponent closest to going out
    assert [(play.seat, str(play.combo)) for play in seen.plays] == [(0, "single 9")]


def test_R2_two_seats_have_no_partner_and_one_opponent() -> None:
    game = Game.from_hands(load_config("points"), ["3 4", "5 6 7"])
    seen = Seen.of(game, 0)
    assert seen.partner is None and seen.opponents == (1,) and seen.opponent_cards == 3


def _redealt(game: Game, seat: int, rng: random.Random) -> Game:
    """The same game as ``seat`` saw it, with the cards the other seats still hold dealt
    among them again (same counts), and the same actions: each play by its exact cards."""
    played: list[list[Card]] = [[] for _ in range(4)]
    for record in game.plays:
        played[record.seat].extend(record.cards)
    others = [other for other in range(4) if other != seat]
    pool = [card for other in others for card in game.hands[other]]
    rng.shuffle(pool)
    hands = [game.hands[other] + played[other] for other in range(4)]
    for other in others:
        held = len(game.hands[other])
        hands[other], pool = played[other] + pool[:held], pool[held:]
    again = Game.from_hands(game.settings, hands, game.leader)
    plays = iter(game.plays)
    for action in game.actions:
        if isinstance(action, Play):
            record = next(plays)
            action = Play(record.seat, record.cards, record.combo.kind)
        again.apply(action)
    return again


class Recorder:
    """A bot that plays as hosting does and keeps what it was shown."""

    def __init__(self) -> None:
        self.shown: list[object] = []

    def choose(self, seen: Seen) -> Combo | None:
        self.shown.append(seen)
        return HostingBot().choose(seen)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 80), st.integers(0, 3), st.randoms(use_true_random=False))
def test_C1_2_a_bot_is_given_nothing_of_the_other_hands(seed: int, turns: int, seat: int, rng: random.Random) -> None:
    """A bot is given the seat's view alone, and the view is the same whatever the other
    seats hold: two games that differ only in the cards the other three still hold look
    alike to it."""
    game = Game.deal(MANUAL, seed)
    players = [RandomBot(seed + other) for other in range(4)]
    for _ in range(turns):
        if game.finished:
            break
        game.apply(bot_action(game, players[game.to_act]))
    again = _redealt(game, seat, rng)
    assert again.hands[seat] == game.hands[seat] and again.plays == game.plays
    assert Seen.of(again, seat) == Seen.of(game, seat)
    if not game.finished:
        recorder = Recorder()
        bot_action(game, recorder)
        assert recorder.shown == [Seen.of(game, game.to_act)]


# ---------------------------------------------------------------------------
# Hosting and random, per seat


def test_C2_4_hosting_plays_each_seat_as_the_game_hosts_it() -> None:
    """R11.2 for each of the four seats: the hosting bot's action is the move the game
    makes for a hosted seat, turn after turn, to the end."""
    for seed in range(3):
        game = Game.deal(CLASSIC, seed)
        for seat in range(4):
            game.apply(Hosting(seat, True))
        while not game.finished:
            seat = game.to_act
            bot = game.apply(bot_action(game, HostingBot()))
            game.undo()
            hosted = game.apply(HostedTurn(seat))
            assert [(e.type, e.seat, e.cards) for e in bot] == [(e.type, e.seat, e.cards) for e in hosted]
        assert game.result in ("double", "single", "draw")


def test_C2_1_random_bots_play_legal_four_seat_games_to_the_end() -> None:
    for seed in range(10):
        game = play_game(CLASSIC, [RandomBot(seed + seat) for seat in range(4)], seed)
        assert game.finished and game.result in ("double", "single", "draw")
        again = play_game(CLASSIC, [RandomBot(seed + seat) for seat in range(4)], seed)
        assert again.actions == game.actions  # seeded


# ---------------------------------------------------------------------------
# Greedy plays for its team


def test_C2_1_greedy_lets_its_partner_s_play_stand() -> None:
    """Seat 2 could beat its partner's 9 with a 10 (or its bomb) but passes: the next
    opponent is far from going out."""
    game = after(["9 9 K", "3 3 4", "10 J 5 5 5 5", MANY], 0, Play.of(0, "9"), Pass(1))
    assert bot_action(game, GreedyBot()) == Pass(2)


def test_C2_1_greedy_beats_its_partner_s_play_when_the_next_opponent_is_about_to_go_out() -> None:
    game = after(["9 9 K", "3 3 4", "10 J 5 5 5 5", "A A"], 0, Play.of(0, "9"), Pass(1))
    assert bot_action(game, GreedyBot()) == Play.of(2, "10", "single")


def test_C2_1_greedy_beats_an_opponent_s_play_its_partner_passed() -> None:
    game = after(["9 9 K", "3 3 4", "10 J 5 5 5 5", MANY], 3, Play.of(3, "3"), Pass(0), Pass(1))
    assert bot_action(game, GreedyBot()) == Play.of(2, "10", "single")  # the weakest that keeps the bomb


def test_C2_1_greedy_leads_a_low_single_to_a_partner_with_one_card() -> None:
    hand = "3 4 5 6 7 9 9 Q K"
    with_one = Game.from_hands(MANUAL, [hand, MANY, "A", MANY], leader=0)
    assert bot_action(with_one, GreedyBot()) == Play.of(0, "3", "single")
    with_many = Game.from_hands(MANUAL, [hand, MANY, MANY, MANY], leader=0)
    assert bot_action(with_many, GreedyBot()) == Play.of(0, "3 4 5 6 7", "straight")  # sheds most


def test_C2_1_greedy_leads_a_low_pair_to_a_partner_with_two_cards() -> None:
    game = Game.from_hands(MANUAL, ["5 5 6 7 8 9 10 K", MANY, "A A", MANY], leader=0)
    assert bot_action(game, GreedyBot()) == Play.of(0, "5 5", "pair")
    three = Game.from_hands(MANUAL, ["5 5 6 7 8 9 10 K", MANY, "A A A", MANY], leader=0)
    assert bot_action(three, GreedyBot()) == Play.of(0, "5 6 7 8 9 10", "straight")


def test_C2_3_greedy_passes_its_partner_s_last_play_and_takes_the_lead_by_jiefeng() -> None:
    game = after(["9", "3 3 4", "10 J 5 5 5 5", MANY], 0, Play.of(0, "9"), Pass(1))
    action = bot_action(game, GreedyBot())
    assert action == Pass(2)
    game.apply(action)
    events = game.apply(Pass(3))
    assert [(event.type, event.seat) for event in events] == [("pass", 3), ("jiefeng", 2)]
    assert game.to_act == 2 and game.table is None


def test_C2_3_greedy_keeps_its_bomb_to_go_out_on_and_the_lead_goes_to_its_partner() -> None:
    """With a bomb and one card left, greedy leads the card; when an opponent beats it,
    it goes out on the bomb, which nobody can beat, and 接风 gives its partner the lead."""
    game = Game.from_hands(MANUAL, ["9 5 5 5 5", "K 3 4 6", MANY, "7 8 J Q"], leader=0)
    assert bot_action(game, GreedyBot()) == Play.of(0, "9", "single")
    game.apply(Play.of(0, "9"))
    game.apply(Play.of(1, "K"))
    game.apply(Pass(2))
    game.apply(Pass(3))
    out = bot_action(game, GreedyBot())
    assert out == Play.of(0, "5 5 5 5", "bomb")
    game.apply(out)
    game.apply(Pass(1))
    game.apply(Pass(2))
    events = game.apply(Pass(3))
    assert game.finish_order == [0] and ("jiefeng", 2) in [(event.type, event.seat) for event in events]


def test_R8_greedy_keeps_its_bomb_until_an_opponent_is_close_to_going_out() -> None:
    """Nothing but the bomb beats the 2: greedy keeps it while both opponents hold many
    cards, and bombs once either of them (here the one that did not play the 2) is close."""
    hand = "5 5 5 5 3 4 6 7 8 9 J Q K"
    far = after([MANY, "2 " + MANY, hand, MANY], 1, Play.of(1, "2"))
    assert bot_action(far, GreedyBot()) == Pass(2)
    close = after([MANY, "2 " + MANY, hand, "3 4 6 7 8 10"], 1, Play.of(1, "2"))
    assert bot_action(close, GreedyBot()) == Play.of(2, "5 5 5 5", "bomb")


def test_R2_with_two_seats_greedy_has_no_partner_to_feed() -> None:
    """The lead of the partner test with two seats: the one opponent holds one card, so
    greedy leads no single but its straight (as before four seats existed)."""
    game = Game.from_hands(load_config("points"), ["3 4 5 6 7 9 9 Q K", "A"])
    assert bot_action(game, GreedyBot()) == Play.of(0, "3 4 5 6 7", "straight")
