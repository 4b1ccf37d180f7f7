"""Properties of random Royalist games (Y2.10, Y6.4, Y7.3): every view of every seat at every
step hides what it must, every event is public, undo restores the hand, and money always
sums to zero with the house."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from shuangkou.games.royalist.bots import legal_actions, make_bot
from shuangkou.games.royalist.family import ROYALIST
from shuangkou.games.royalist.game import Escape, Hosting, RoyalistHand, Timeout

ROOMS = {
    "plain": ROYALIST.load_room("royalist"),
    "settle": ROYALIST.load_room("royalist", {"escape_mode": "settle", "edition": "wealth", "table_fee": 30}),
    "variants": ROYALIST.load_room("royalist216", {"hard_pass": True, "jiefeng": "partner", "revolt_quorum": 1,
                                                   "open_solo_second": "loss", "auto_pass": False}),
}


def check_views(hand: RoyalistHand) -> None:
    """Y2.10: what each seat (and a spectator) may see of ``hand`` now."""
    roles = hand.roles
    public = hand.view(None)
    assert "hand" not in public and (public["revealed"] is None) is not hand.finished
    for seat in (None, *range(5)):
        view = hand.view(seat, public)
        if seat is not None:
            assert view["hand"] == [card.split()[0] for card in view["hand"]]
            assert len(view["hand"]) == len(hand.hands[seat])
        if roles is None or hand.finished:
            continue
        guard_known = hand.guard_shown or (seat == roles.guard and roles.solo is None)
        assert view["roles"]["guard"] == (roles.guard if guard_known and roles.solo is None else None)
        solo_known = hand.solo_shown or seat == roles.emperor
        assert view["roles"]["solo"] == (roles.solo if solo_known else None)
        if seat is not None:
            for other, known in enumerate(view["known_roles"]):
                if known is not None and other != seat:
                    assert known == hand.role(other)
                    assert hand.public_role(other) == known or hand.role(seat) == "guard"
    for event in hand.events:
        data = event.to_dict()
        if data.get("guard") is not None:
            assert hand.guard_shown or hand.finished
        if data.get("solo") == "secret":
            assert hand.solo_shown or hand.finished
        assert "hand" not in data


def step(hand: RoyalistHand, rng: random.Random, bots: list[Any]) -> None:
    """One action of a random table: a bot's, a random legal one, a timeout, hosting or an escape."""
    seat = rng.choice([wait.seat for wait in hand.waiting()])
    roll = rng.random()
    if roll < 0.02 and hand.escape_action(seat) is not None:
        hand.apply(Escape(seat))
    elif roll < 0.05:
        other = rng.randrange(5)
        hand.apply(Hosting(other, other in hand.escapers or rng.random() < 0.5))
    elif hand.hosted(seat):
        hand.apply(hand.default_action(seat))
    elif roll < 0.12:
        hand.apply(Timeout(seat))
    elif roll < 0.5:
        hand.apply(rng.choice(legal_actions(hand, seat)))
    else:
        hand.apply(bots[seat].act(hand, seat))


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(sorted(ROOMS)))
def test_Y2_10_every_view_of_every_seat_at_every_step_hides_what_it_must(seed: int, name: str) -> None:
    """Y2.10: random games; the views and the events after every action."""
    room = ROOMS[name]
    rng = random.Random(seed)
    hand = ROYALIST.deal(room, seed, {"first_taker": seed % 5})
    bots = [make_bot(rng.choice(["greedy", "hosting", "random"]), seed + seat) for seat in range(5)]
    check_views(hand)
    while hand.waiting():
        step(hand, rng, bots)
        check_views(hand)
    assert hand.finished


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(sorted(ROOMS)))
def test_Y6_4_Y7_3_money_sums_to_zero_with_the_house(seed: int, name: str) -> None:
    """Y6.4: units sum to zero; Y7.3: deltas and the house sum to zero, whatever the balances."""
    room = ROOMS[name]
    rng = random.Random(seed)
    hand = ROYALIST.deal(room, seed)
    bots = [make_bot("random", seed + seat) for seat in range(5)]
    while hand.waiting():
        step(hand, rng, bots)
    balances = [rng.choice([0, 50, 150, 1000, 20000, 600000, -300]) for _ in range(5)]
    if not room.allow_negative:
        balances = [max(balance, 0) for balance in balances]
    settled = hand.settlement(balances)
    assert sum(hand.units()) == 0 and sum(settled.deltas) + settled.house == 0
    assert settled.balances_after == tuple(b + d for b, d in zip(balances, settled.deltas, strict=True))
    if not room.allow_negative:
        assert all(after >= 0 for after in settled.balances_after)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6))
def test_undo_restores_the_hand_at_every_step(seed: int) -> None:
    """Undo takes each action back: the events, the views and the waiting seats are as before."""
    rng = random.Random(seed)
    hand = ROYALIST.deal(ROOMS["plain"], seed)
    bots = [make_bot("random", seed + seat) for seat in range(5)]
    while hand.waiting():
        before = ([e.to_dict() for e in hand.events], hand.view(2), hand.waiting(), hand.turn)
        step(hand, rng, bots)
        action = hand.actions[-1]
        assert hand.undo() == action
        assert ([e.to_dict() for e in hand.events], hand.view(2), hand.waiting(), hand.turn) == before
        hand.apply(action)
