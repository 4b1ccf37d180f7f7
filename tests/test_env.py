"""shuangkou.env: every shipped room as a PettingZoo environment (docs/env.md).

PettingZoo's own API and seed tests for each room; the masks against the games' legal
moves and their referees, both ways; observations that ignore what a seat may not see
(R1.3, C1.2, Y2.4, Y2.10, T11.3); rewards that are the settlements (R9, C5, Y7, T11.4)."""

from __future__ import annotations

import copy
import random
import warnings
from collections import Counter
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from shuangkou.env import IllegalAction, env, raw_env
from shuangkou.env.royalist import CALLED_SETS, CALLS, DECISIONS, SETS
from shuangkou.env.shuangkou import PASS, SHAPES, shape_of
from shuangkou.env.tractor import DONE, FIRST_DECLARATION, TractorEncoder, declaration_faces
from shuangkou.env.tractor import PASS as PASS_OR_DONE
from shuangkou.errors import Refusal
from shuangkou.games import families
from shuangkou.games.royalist.deck import EMPEROR_CARD, GUARD_CARD, MarkedCard, is_called_card
from shuangkou.games.royalist.game import Abdicate, Ascend
from shuangkou.games.royalist.game import Declare as RoyalistDeclare
from shuangkou.games.royalist.game import Pass as RoyalistPass
from shuangkou.games.royalist.game import Play as RoyalistPlay
from shuangkou.games.shuangkou.game import Pass, Play
from shuangkou.games.tractor.follows import legal_follows
from shuangkou.games.tractor.hand import Declare
from shuangkou.roomfiles import ConfigError

ROOMS = [room for family in families().values() for room in family.shipped_rooms]
VARIANTS = {"royalist216-called": ("royalist216", {"guard_card": "called"})}
"""Rooms of no shipped file: a shipped room with keys overridden (the called guard card, Y9)."""


def make(room: str, raw: bool = False) -> Any:
    """The environment of a shipped room or of one of :data:`VARIANTS`."""
    name, overrides = VARIANTS.get(room, (room, {}))
    return (raw_env if raw else env)(name, **overrides)


def test_every_shipped_room_is_covered() -> None:
    assert set(ROOMS) >= {"points", "wealth", "qianbian", "classic", "royalist", "royalist216", "tractor"}


@pytest.mark.parametrize("room", [*ROOMS, *VARIANTS])
def test_pettingzoo_api_and_seed_tests_pass(room: str) -> None:
    """PettingZoo's own checks, 1000 cycles each, for every shipped room and a called room."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its advice for dict observations, which masks need
        api_test(make(room), num_cycles=1000)
        seed_test(lambda: make(room), num_cycles=1000)


def walk(room: str, seed: int, steps: int) -> Iterator[Any]:
    """The raw environment of ``room`` after 0, 1, … ``steps`` random legal actions of a hand
    dealt with ``seed`` (the same object, moved on between yields)."""
    table = make(room, raw=True)
    table.reset(seed=seed)
    chooser = random.Random(seed)
    for _ in range(steps):
        if table.terminations[table.agent_selection]:
            return
        yield table
        mask = table.observe(table.agent_selection)["action_mask"]
        table.step(chooser.choice(np.flatnonzero(mask).tolist()))


def acting_seat(table: Any) -> int:
    return table.possible_agents.index(table.agent_selection)


@pytest.mark.parametrize("room", [*ROOMS, *VARIANTS])
def test_reset_with_a_seed_deals_the_same_hand(room: str) -> None:
    """R1.4, Y1.3, T2.1: the same seed deals the same game, another seed another one."""
    first, second, other = make(room, raw=True), make(room, raw=True), make(room, raw=True)
    first.reset(seed=11)
    second.reset(seed=11)
    other.reset(seed=12)
    for agent in first.possible_agents:
        assert np.array_equal(first.observe(agent)["observation"], second.observe(agent)["observation"])
    assert first.hand.to_record().to_dict() == second.hand.to_record().to_dict()
    assert first.hand.to_record().to_dict() != other.hand.to_record().to_dict()


# -- masks, both ways --------------------------------------------------------------------


@pytest.mark.parametrize("room", ["points", "qianbian", "classic"])
def test_shuangkou_masks_are_the_shapes_of_the_legal_moves(room: str) -> None:
    """R2.3–R2.4, R3–R6, C2.1: a shape is masked exactly when a legal move reads as it, its
    move passes the game's own check, and a pass only on a follow."""
    checked = 0
    for seed in range(10):
        for table in walk(room, seed, 200):
            game, seat = table.hand, acting_seat(table)
            mask = table.observe(table.agent_selection)["action_mask"]
            expected = {PASS} if game.table is not None else set()
            expected |= {SHAPES.index(shape_of(move)) + 1 for move in game.legal_moves()}
            assert set(np.flatnonzero(mask)) == expected
            for action, move in table.encoder.legal(seat).items():
                game.check(Pass(seat) if move is None else Play.move(seat, move))
                assert move is None or shape_of(move) == SHAPES[action - 1]
            checked += 1
    assert checked > 250


def royalist_candidates(hand: Any, seat: int) -> Iterator[tuple[int, Any]]:
    """Every action of the space a seat's cards could make, with its game action: the
    decisions and calls (Y2, Y9), then the sets, the guard card ``SJ*`` among the small
    jokers or, in a called room, the 保子牌 beside them."""
    called = hand.room.guard_card == "called"
    yield from enumerate([RoyalistPass(seat), Ascend(seat), Ascend(seat, True), Abdicate(seat),
                          RoyalistDeclare(seat, True), RoyalistDeclare(seat, False)])
    if called:
        yield from enumerate((Ascend(seat, open_solo, card) for card, open_solo in CALLS), len(DECISIONS))
    held = hand.hands[seat]
    tops = [card for card in held if is_called_card(card)]
    ranks = Counter(card.rank.value for card in held if not is_called_card(card))
    first = len(DECISIONS) + (len(CALLS) if called else 0)
    for offset, entry in enumerate(CALLED_SETS if called else SETS):
        rank, naturals, big, small, marked, bomb = entry
        if bomb or naturals > (ranks[rank] if rank else 0) or big > ranks[17] or small > ranks[16]:
            continue
        if marked and not (tops if called else GUARD_CARD in held):
            continue
        jokers_big = [card for card in held if card.rank.value == 17 and card != EMPEROR_CARD][:big]
        jokers_big += [EMPEROR_CARD] * (big - len(jokers_big))
        plain_small = [card for card in held if card.rank.value == 16 and card != GUARD_CARD]
        jokers_small = [GUARD_CARD, *plain_small[: small - 1]] if marked and not called else plain_small[:small]
        if len(jokers_small) < small:
            continue
        naturals_held = [card for card in held if card.rank.value == rank and not is_called_card(card)][:naturals]
        top = tops if marked and called else []
        yield first + offset, RoyalistPlay(seat, (*naturals_held, *jokers_big, *jokers_small, *top))


@pytest.mark.parametrize("room", ["royalist", "royalist216", "royalist216-called"])
def test_royalist_masks_are_what_the_game_accepts(room: str) -> None:
    """Y2.1–Y2.6, Y3.2, Y4.2–Y4.5, Y9: every decision, call and set a seat's cards make is
    masked exactly when the game's check accepts it."""
    checked = calls = tops = 0
    for seed in range(4):
        for table in walk(room, seed, 120):
            hand, seat = table.hand, acting_seat(table)
            masked = set(np.flatnonzero(table.observe(table.agent_selection)["action_mask"]).tolist())
            accepted = {a for a, move in royalist_candidates(hand, seat) if accepts(hand, move)}
            assert masked == accepted
            calls += any(isinstance(move, Ascend) and move.call for a, move in royalist_candidates(hand, seat)
                         if a in masked)
            tops += any(is_called_card(card) for a, move in royalist_candidates(hand, seat)
                        if a in masked and isinstance(move, RoyalistPlay) for card in move.cards)
            checked += 1
    assert checked > 200
    assert room != "royalist216-called" or (calls >= 4 and tops >= 5)


def accepts(hand: Any, move: Any) -> bool:
    try:
        hand.check(move)
    except Refusal:
        return False
    return True


def tractor_follows_holding(hand: Any, seat: int, chosen: dict[int, int]) -> list[dict[int, int]]:
    """The game's legal follows of ``seat`` that hold the selection."""
    follows = legal_follows(hand.hands[seat], hand.lead, hand.order, hand.room.partial_tractor_follow)
    return [play for play in follows if all(play.get(face, 0) >= count for face, count in chosen.items())]


def test_tractor_selection_masks_allow_exactly_the_cards_of_some_legal_play() -> None:
    """T2.2–T2.5, T6.1, T7.1–T7.4: declarations are masked when the game accepts them; a
    follow's selection may grow by exactly the cards of the legal follows holding it; a
    lead's by the cards of its effective suit."""
    follows = leads = declarations = 0
    for seed in range(3):
        for table in walk("tractor", seed, 600):
            hand, seat = table.hand, acting_seat(table)
            encoder: TractorEncoder = table.encoder
            masked = set(np.flatnonzero(table.observe(table.agent_selection)["action_mask"]).tolist())
            chosen = encoder.selection()
            if hand.phase in ("deal", "declare"):
                for action, faces in enumerate(declaration_faces(hand.level), FIRST_DECLARATION):
                    assert (action in masked) == accepts(hand, Declare(seat, faces))
                assert PASS_OR_DONE in masked
                declarations += 1
            elif hand.phase == "play" and hand.lead is not None:
                holding = tractor_follows_holding(hand, seat, chosen)
                wanted = {face for play in holding for face, count in play.items() if count > chosen.get(face, 0)}
                assert masked == wanted
                follows += 1
            elif hand.phase == "play":
                suits = {hand.order.eff[face] for face in chosen}
                held = hand.hands[seat]
                cards = {face for face, count in held.items() if count > chosen.get(face, 0)
                         and (not suits or hand.order.eff[face] in suits)}
                assert masked - {DONE} == cards and (DONE in masked) == bool(chosen)
                leads += 1
    assert follows > 100 and leads > 100 and declarations > 100


def test_an_action_outside_the_mask_is_refused_and_changes_nothing() -> None:
    table = raw_env("points")
    table.reset(seed=3)
    before = table.hand.seq
    with pytest.raises(IllegalAction, match="may not take action 0 \\(pass\\)"):
        table.step(PASS)  # a pass on a lead (R2.4)
    assert table.hand.seq == before


def test_bad_arguments_are_named() -> None:
    with pytest.raises(ConfigError):
        env("no-such-room")
    with pytest.raises(ValueError, match="reward must be one of money, units"):
        env("points", reward="score")
    with pytest.raises(ValueError, match="balances: this room has 2 seats, not 3"):
        env("points", balances=[1000, 1000, 1000])


# -- observations ----------------------------------------------------------------------


def shuffled_hidden(hands: list[list[Any]], viewer: int, extra: list[Any], rng: random.Random) -> list[Any]:
    """The cards of every seat but ``viewer`` and ``extra`` (unseen cards), dealt again in
    the same numbers; returns the new ``extra``."""
    others = [seat for seat in range(len(hands)) if seat != viewer]
    pool = [card for seat in others for card in hands[seat]] + list(extra)
    rng.shuffle(pool)
    for seat in others:
        size = len(hands[seat])
        hands[seat][:] = sorted(pool[:size])
        del pool[:size]
    return pool


def same_view(table: Any, twin_hand: Any, seat: int) -> bool:
    """Whether ``seat`` observes the same numbers and mask in the table's hand and its twin."""
    twin = copy.deepcopy(table)
    twin.hand = twin_hand
    twin.encoder.start(twin_hand)  # nothing kept of the original hand
    if isinstance(table.encoder, TractorEncoder):  # but the seat's own selection
        twin.encoder.selection().update(table.encoder.selection())
    agent = table.possible_agents[seat]
    ours, theirs = table.observe(agent), twin.observe(agent)
    return np.array_equal(ours["observation"], theirs["observation"]) and np.array_equal(
        ours["action_mask"], theirs["action_mask"])


@pytest.mark.parametrize("room", ["points", "classic"])
def test_shuangkou_observations_ignore_the_other_hands_and_the_unseen_cards(room: str) -> None:
    """R1.3, C1.2: states that differ only in the other hands and the unseen cards look
    the same to the seat to act."""
    rng, differed = random.Random(5), 0
    for seed in range(3):
        for table in walk(room, seed, 60):
            game, seat = table.hand, acting_seat(table)
            twin = copy.deepcopy(game)
            twin.unseen = tuple(shuffled_hidden(twin.hands, seat, list(twin.unseen), rng))
            twin._counts = [None] * twin.seats
            differed += twin.hands != game.hands
            assert same_view(table, twin, seat)
    assert differed > 50


@pytest.mark.parametrize("room", ["royalist", "royalist216-called"])
def test_royalist_observations_ignore_other_hands_hidden_roles_and_answers(room: str) -> None:
    """Y2.4, Y2.6, Y2.10, Y9: other hands, the guard's seat while hidden (the holder of
    ``SJ*`` or of the 保子牌) and answers not yet published leave a seat's observation
    unchanged."""
    rng, differed, roles_moved = random.Random(6), 0, 0
    for seed in range(4):
        for table in walk(room, seed, 80):
            hand, seat = table.hand, acting_seat(table)
            twin = copy.deepcopy(hand)
            hidden = [[card for card in cards if not isinstance(card, MarkedCard)] for cards in twin.hands]
            shuffled_hidden(hidden, seat, [], rng)
            for cards, new in zip(twin.hands, hidden, strict=True):
                cards[:] = sorted([card for card in cards if isinstance(card, MarkedCard)] + new)
            roles = twin.roles
            if twin.phase == "declare" and roles is not None and roles.solo is None and seat != roles.guard:
                others = [other for other in range(5) if other not in (seat, roles.emperor, roles.guard)]
                moved = rng.choice(others)
                guard_hand = twin.hands[roles.guard]
                mover = next(index for index, card in enumerate(guard_hand)
                             if card == GUARD_CARD or is_called_card(card))
                guard_hand[mover], twin.hands[moved][0] = twin.hands[moved][0], guard_hand[mover]
                twin.roles = roles._replace(guard=moved)
                twin.answers = [None if answer is None or other == seat else not answer
                                for other, answer in enumerate(twin.answers)]
                roles_moved += 1
            differed += twin.hands != hand.hands
            assert same_view(table, twin, seat)
    assert differed > 100 and roles_moved > 3


def test_tractor_observations_ignore_the_other_hands_and_a_hidden_bottom() -> None:
    """T2.1, T3.1, T11.3: the other hands, and the bottom of a hand the seat does not deal,
    leave its observation unchanged."""
    rng, differed = random.Random(7), 0
    for seed in range(2):
        for table in walk("tractor", seed, 400):
            hand, seat = table.hand, acting_seat(table)
            twin = copy.deepcopy(hand)
            lists = [[face for face, count in cards.items() for _ in range(count)] for cards in twin.hands]
            sees_bottom = seat == twin.dealer and twin.phase in ("bury", "play")
            bottom = [] if sees_bottom or twin.phase == "play" else list(twin.bottom)
            bottom = shuffled_hidden(lists, seat, bottom, rng)
            twin.hands = [dict(Counter(cards)) for cards in lists]
            if not sees_bottom and twin.phase != "play":
                twin.bottom = tuple(bottom)
            differed += twin.hands != hand.hands
            assert same_view(table, twin, seat)
    assert differed > 100


# -- rewards and bots --------------------------------------------------------------------


@pytest.mark.parametrize("room", ["points", "wealth", "classic", "royalist", "tractor"])
@pytest.mark.parametrize("reward", ["money", "units"])
def test_a_finished_hand_pays_each_seat_its_settlement(room: str, reward: str) -> None:
    """R9.1, C5.6, Y7.2, T11.4: the rewards are the settlement's deltas (or deltas over X),
    given at the end only; nothing is ever truncated."""
    table = env(room, reward=reward)
    seed = {"royalist": 23}.get(room, 21)  # a hand that is no draw
    table.reset(seed=seed)
    chooser = random.Random(seed)
    paid = dict.fromkeys(table.possible_agents, 0.0)
    for agent in table.agent_iter():
        observation, earned, terminated, truncated, _ = table.last()
        assert not truncated
        paid[agent] += earned
        if terminated:
            table.step(None)
            continue
        assert earned == 0
        table.step(chooser.choice(np.flatnonzero(observation["action_mask"]).tolist()))
    raw = table.unwrapped
    settled = raw.hand.settlement(raw.balances)
    scale = settled.to_dict()["match_points"] if reward == "units" else 1
    assert [paid[agent] for agent in raw.possible_agents] == [delta / scale for delta in settled.deltas]
    assert any(paid.values())


@pytest.mark.parametrize(("room", "level"), [("points", "greedy"), ("classic", "hosting"),
                                              ("royalist", "greedy"), ("royalist216-called", "greedy"),
                                              ("tractor", "greedy")])
def test_the_platform_bots_play_whole_hands_through_the_environment(room: str, level: str) -> None:
    """R11.2, Y8.2, Y9, T11.2: a bot's move is one masked action (card by card in Tractor; a
    call in a called room)."""
    table = make(room)
    table.reset(seed=4)
    for agent in table.agent_iter():
        observation, _, terminated, _, _ = table.last()
        if terminated:
            table.step(None)
            continue
        action = table.unwrapped.bot_action(agent, level)
        assert observation["action_mask"][action] == 1
        table.step(action)
    assert table.unwrapped.hand.finished


def test_a_bot_may_act_only_for_the_seat_to_act() -> None:
    table = raw_env("points")
    table.reset(seed=2)
    idle = next(agent for agent in table.possible_agents if agent != table.agent_selection)
    with pytest.raises(IllegalAction, match=f"{idle} is not to act now"):
        table.bot_action(idle)
