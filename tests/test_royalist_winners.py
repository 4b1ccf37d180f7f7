"""Who won a Royalist game, as a player's history (战绩) shows it: the settlement names its
winners (Y6, Y8.4), the same seats the simulator counts."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from test_royalist_properties import ROOMS, step

from shuangkou.games.royalist.bots import make_bot
from shuangkou.games.royalist.family import ROYALIST


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(sorted(ROOMS)))
def test_Y6_Y8_4_the_settlement_names_the_seats_that_won(seed: int, name: str) -> None:
    """Y6: the winners are the seats with units above 0; Y8.4: an escape that ended the game
    leaves every other seat a winner. The breakdown and the simulator's facts agree."""
    room = ROOMS[name]
    rng = random.Random(seed)
    hand = ROYALIST.deal(room, seed)
    bots = [make_bot(rng.choice(["greedy", "random"]), seed + seat) for seat in range(5)]
    while hand.waiting():
        step(hand, rng, bots)
    breakdown = hand.settlement([1000] * 5).to_dict()
    winners = breakdown["winners"]
    assert winners == list(ROYALIST.facts(hand, room).winners)
    if breakdown["result"] == "escape":
        assert winners == [seat for seat in range(5) if seat not in breakdown["escapers"]]
    else:
        units = breakdown["units"]
        assert all(units[seat] > 0 for seat in winners)
        assert all(units[seat] <= 0 for seat in range(5) if seat not in winners)
        assert (winners == []) == (breakdown["result"] == "draw")
