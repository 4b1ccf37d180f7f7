"""The tables' clocks (shuangkou.server.clock) on a real event loop with short delays.

Nothing here asserts how long anything took: each test waits for an event (a later timer
as a sentinel where a timer must not fire) and checks what happened, in which order."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from shuangkou.server.clock import Countdown, Turn, TurnClock

SHORT = 0.01
LATER = 0.05  # a sentinel's delay: every SHORT timer has run out when it does


def _recorder(fired: list[object], current: Callable[[object], bool] = lambda token: True) -> Countdown[object]:
    return Countdown(fired.append, current)


async def _sentinel(seconds: float = LATER) -> None:
    """Wait until a timer armed now for ``seconds`` has run out."""
    done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    Countdown(lambda token: done.set_result(None), lambda token: True).start("sentinel", seconds)
    await done


def test_a_countdown_hands_its_token_on_when_it_runs_out() -> None:
    async def scenario() -> list[object]:
        fired: list[object] = []
        clock = _recorder(fired)
        clock.start("a", SHORT)
        assert clock.pending and clock.token == "a" and clock.deadline is not None
        await _sentinel()
        assert not clock.pending and clock.token == "a"  # run out: the token stays until the next start or stop
        return fired

    assert asyncio.run(scenario()) == ["a"]


def test_a_countdown_whose_token_is_no_longer_current_hands_on_nothing() -> None:
    async def scenario() -> tuple[list[object], list[object]]:
        fired: list[object] = []
        asked: list[object] = []

        def current(token: object) -> bool:
            asked.append(token)
            return False

        _recorder(fired, current).start("over", SHORT)
        await _sentinel()
        return fired, asked

    assert asyncio.run(scenario()) == ([], ["over"])


def test_starting_again_replaces_the_pending_timer() -> None:
    async def scenario() -> list[object]:
        fired: list[object] = []
        clock = _recorder(fired)
        clock.start("first", SHORT)
        clock.start("second", SHORT * 2)
        await _sentinel()
        return fired

    assert asyncio.run(scenario()) == ["second"]


def test_a_stopped_countdown_never_fires_and_forgets_its_deadline() -> None:
    async def scenario() -> tuple[list[object], object, object]:
        fired: list[object] = []
        clock = _recorder(fired)
        clock.start("a", SHORT)
        clock.stop()
        await _sentinel()
        return fired, clock.token, clock.deadline

    assert asyncio.run(scenario()) == ([], None, None)


def test_countdowns_fire_in_the_order_of_their_deadlines() -> None:
    async def scenario() -> list[object]:
        fired: list[object] = []
        for token, seconds in (("late", SHORT * 3), ("early", SHORT), ("middle", SHORT * 2)):
            _recorder(fired).start(token, seconds)
        await _sentinel()
        return fired

    assert asyncio.run(scenario()) == ["early", "middle", "late"]


def test_the_turn_clock_shows_a_deadline_only_for_a_persons_turn() -> None:
    async def scenario() -> None:
        fired: list[Turn] = []
        clock = TurnClock(fired.append, lambda turn: True)
        clock.start(Turn("auto", 7), SHORT)
        assert clock.turn_deadline is None and clock.runs_for(Turn("auto", 7))
        clock.start(Turn("timed", 8), SHORT)
        assert clock.turn_deadline is not None and clock.turn_deadline == clock.deadline
        assert not clock.runs_for(Turn("auto", 7)) and not clock.runs_for(Turn("timed", 9))
        await _sentinel()
        assert fired == [Turn("timed", 8)]
        assert clock.runs_for(Turn("timed", 8))  # run out, still the clock of that turn
        clock.stop()
        assert clock.turn_deadline is None and not clock.runs_for(Turn("timed", 8))

    asyncio.run(scenario())


def test_the_turn_clock_rechecks_its_turn_on_expiry() -> None:
    async def scenario() -> list[Turn]:
        fired: list[Turn] = []
        turn = {"number": 1}
        clock = TurnClock(fired.append, lambda armed: armed.number == turn["number"])
        clock.start(Turn("timed", 1), SHORT)
        turn["number"] = 2  # the turn passed while the timer ran
        await _sentinel()
        clock.start(Turn("timed", 2), SHORT)
        await _sentinel()
        return fired

    assert asyncio.run(scenario()) == [Turn("timed", 2)]
