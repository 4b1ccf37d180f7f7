"""Tractor tables at a real server, over real WebSockets: a match runs hand after hand (its
levels and dealer carried, T10), each hand paid in one ledger entry; the timed deal with
declarations from every seat; the dealer's private bury; bots paced by the deal's clock;
the end of a match (T10.4) and an escape that ends it (T11.5); the replay and the history
of each hand; and no message showing another seat's hand, or the bottom to anyone but the
dealer, before the end (T11.3)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from server_fixtures import (
    Player,
    RunningServer,
    check_settlement,
    pg_server_database_fixture,  # noqa: F401 - fixtures
    run,
    start_server_fixture,  # noqa: F401
)
from tractor_support import play_hand, play_until

from shuangkou.games.tractor.family import TRACTOR
from shuangkou.games.tractor.order import face_text

TIMERS = "[timers]\nturn_seconds = 60\nready_seconds = 60\n"
# Every timer the tests wait for is short or their own: the deal's (cards arrive by it), the rest long.
PERSONS = ('game = "tractor"\nname = "Tractor"\n[deal]\ndeal_interval_ms = 20\ndeclare_window_seconds = 60\n'
           "bury_seconds = 60\n" + TIMERS)
QUICK = 'game = "tractor"\nname = "Quick tractor"\n[deal]\ndeal_interval_ms = 0\n' + TIMERS
FINAL = 'game = "tractor"\nname = "Tractor at A"\n[deal]\ndeal_interval_ms = 0\nstart_level = "A"\n' + TIMERS
PACED = 'game = "tractor"\nname = "Paced"\n[deal]\ndeal_interval_ms = 250\n' + TIMERS

# The server's first deal with this seed (checked below): seat 0 is dealt both 2C, seat 3
# a 2S, seat 2 both small jokers and seat 1 both big ones.
DECLARING_SEED = 619


def holds(hand: list[str], cards: str) -> bool:
    """Whether ``hand`` holds ``cards``."""
    return not Counter(cards.split()) - Counter(hand)


def keys(data: Any) -> Iterator[str]:
    """Every key of a JSON value, nested ones included."""
    if isinstance(data, Mapping):
        for key, value in data.items():
            yield key
            yield from keys(value)
    elif isinstance(data, list):
        for value in data:
            yield from keys(value)


def check_secrets(log: list[dict[str, Any]], seat: int | None) -> int:
    """T11.3 over every message ``seat`` (None: a spectator) received: its states show its
    own hand only, the bottom only to the dealer while burying and playing, the buried
    cards only to the dealer, everything to all once the hand is over; no event names a
    hand or the bottom's cards before the end. Returns the states checked."""
    checked = 0
    for message in log:
        assert list(keys(message)).count("hand") <= 1 and "hands" not in keys(message)
        if message["type"] != "state" or message["table"]["game"] is None:
            continue
        game = message["table"]["game"]
        checked += 1
        if seat is None:
            assert "hand" not in game
        else:
            assert len(game["hand"]) == game["cards_left"][seat]
        dealer = seat is not None and game["dealer"] == seat
        if not game["finished"]:
            assert (game["bottom"] is not None) == (dealer and game["phase"] in ("bury", "play"))
        assert ("buried" in game) == (dealer and game["phase"] == "play")
        for event in message["events"]:
            assert event["type"] == "end" or not isinstance(event.get("bottom"), str), event
    return checked


async def seat_four(server: RunningServer, room: str, names: tuple[str, ...]) -> list[Player]:
    """Persons at one invite table of ``room``, seat by seat, and bots in the seats left; not ready yet."""
    players = [await server.player(name) for name in names]
    await players[0].join(room, "invite")
    table = await players[0].until(lambda t: t["you"] == 0)
    for index, player in enumerate(players[1:], 1):
        await player.join(table=table["id"], seat=index)
        await player.until(lambda t, index=index: t["you"] == index)
    if len(players) < 4:
        await players[0].send({"type": "bots"})
    await players[0].until(lambda t: all(seat is not None for seat in t["seats"]))
    return players


async def next_hand(players: list[Player], after: str | None = None) -> list[dict[str, Any]]:
    """Every person ready; the views of the hand dealt (another than ``after``)."""
    for player in players:
        await player.ready()
    return [await player.until(lambda t: t["phase"] == "playing" and t["game_id"] != after) for player in players]


async def declare(player: Player, cards: str, standing: int) -> None:
    """Declare ``cards`` once the seat holds them and sees the ``standing`` declarations
    made before (so its message is of the current turn); wait until it stands."""
    await player.until(lambda t: holds(t["game"]["hand"], cards) and len(t["game"]["declarations"]) == standing)
    await player.send({"type": "declare", "seq": player.seq, "cards": cards})
    await player.until(lambda t: len(t["game"]["declarations"]) == standing + 1)


async def refused(player: Player, message: dict[str, Any]) -> dict[str, Any]:
    """Send ``message`` against the player's state; the error it brings (states may come
    first: the deal goes on)."""
    await player.send({**message, "seq": player.seq})
    return await player.expect("error")


def test_T2_T3_T10_four_persons_declare_bury_and_play_two_hands_of_a_match(
    start_server: Callable[..., RunningServer],
) -> None:
    """T2.2–T2.5, T2.8: while the cards arrive, seat 0 declares 2C and reinforces it, seat 3's
    2S is refused (an equal single, T2.4), seat 2 overrides with the small jokers, seat 1
    with the big ones; the first declarer deals. T3.1: only the dealer sees the bottom and
    buries (a short burial and another seat's refused, nothing changed). T10, T2.9: the
    second hand starts with the levels and the dealer the first produced, nobody declares
    and the third bottom card fixes the trump. Each hand is paid in one ledger entry for
    four accounts and the house; an illegal follow is refused with its rule and counts
    (T7.7); the replay and the history show each hand once it is over
    (409 before); no message shows another hand, or the bottom to anyone but the dealer
    before the end (T11.3), a spectator included."""
    server = start_server(rooms={"tractor": PERSONS}, seed=DECLARING_SEED)

    async def scenario() -> tuple[list[Player], Player, list[dict[str, Any]]]:
        players = await seat_four(server, "tractor", ("Ana", "Bo", "Cy", "Di"))
        watcher = await server.player("Watcher")
        await watcher.watch(players[0].table["id"] if players[0].table else "")
        first = await next_hand(players)
        game_id = first[0]["game_id"]
        assert first[0]["game"]["dealer"] is None and first[0]["game"]["levels"] == ["2", "2"]
        ana, bo, cy, di = players
        await declare(ana, "2C", 0)
        await di.until(lambda t: holds(t["game"]["hand"], "2S") and len(t["game"]["declarations"]) == 1)
        error = await refused(di, {"type": "declare", "cards": "2S"})
        assert error["code"] == "declaration_refused" and "T2.4" in error["message"]
        await declare(ana, "2C 2C", 1)
        await declare(cy, "SJ SJ", 2)
        await declare(bo, "BJ BJ", 3)
        for player in players:
            await player.until(lambda t: t["game"]["phase"] == "declare" and len(t["game"]["declarations"]) == 4)
            await player.send({"type": "declare_done", "seq": player.seq})
        burying = [await player.until(lambda t: t["game"]["phase"] == "bury") for player in players]
        game = burying[0]["game"]
        assert [(d["seat"], d["cards"], d["kind"]) for d in game["declarations"]] == [
            (0, "2C", "declare"), (0, "2C 2C", "reinforce"), (2, "SJ SJ", "override"), (1, "BJ BJ", "override")]
        assert game["dealer"] == 0 and game["trump"] == {"suit": "none", "level": "2"}
        assert len(game["hand"]) == 33 and len(game["bottom"].split()) == 8
        assert all(view["game"]["bottom"] is None for view in burying[1:])
        status, body = await server.ahttp("GET", f"/api/games/{game_id}")
        assert status == 409 and body["code"] == "not_finished"
        assert (await refused(ana, {"type": "bury", "cards": " ".join(game["hand"][:7])}))["code"] == "bad_action"
        assert (await refused(bo, {"type": "bury", "cards": " ".join(game["hand"][:8])}))["code"] == "not_your_turn"
        assert ana.table is not None and ana.table["game"]["hand"] == game["hand"]  # nothing changed
        buried = " ".join(game["hand"][-8:])
        await ana.send({"type": "bury", "seq": ana.seq, "cards": buried})
        playing = await ana.until(lambda t: t["game"]["phase"] == "play")
        assert Counter(playing["game"]["buried"].split()) == Counter(buried.split())
        # T7.1, T7.7: a follow of one card too many is refused with the rule and its counts.
        follow = await play_until(players, lambda g: len(g["trick"]) == 1)
        need = len(follow["game"]["trick"][0][1].split())
        too_many = " ".join(follow["game"]["hand"][:need + 1])
        error = await refused(players[follow["you"]], {"type": "trick_play", "cards": too_many})
        assert error["code"] == "illegal_follow" and "(T7.1)" in error["message"]
        assert error["detail"] == {"rule": "T7.1", "need": need, "given": need + 1}
        finals = await play_hand(players)
        await check_settlement(server, tuple(players), finals[0])
        score = finals[0]["game"]["score"]
        assert finals[0]["game"]["bottom"] is not None

        second = await next_hand(players, game_id)
        assert second[0]["game"]["levels"] == score["levels_after"]
        assert second[0]["game"]["dealer"] == score["next_dealer"]
        finals2 = await play_hand(players)
        await check_settlement(server, tuple(players), finals2[0])
        assert finals2[0]["game"]["declarations"] == []
        card = finals2[0]["game"]["bottom_card"]
        suit = "none" if card in ("SJ", "BJ") else card[-1]
        assert finals2[0]["game"]["trump"] == {"suit": suit, "level": score["levels_after"][team(score["next_dealer"])]}
        await watcher.until(lambda t: t["game_id"] == finals2[0]["game_id"] and t["phase"] == "settled")
        return players, watcher, [finals[0], finals2[0]]

    players, watcher, hands = run(scenario(), timeout=240)
    for seat, player in enumerate(players):
        assert check_secrets(player.log, seat) > 100
    assert check_secrets(watcher.log, None) > 100
    for seat, player in enumerate(players):
        status, history = server.http("GET", "/api/me/games", token=player.token)
        assert status == 200
        assert [item["game_id"] for item in history["games"]] == [hand["game_id"] for hand in reversed(hands)]
        for item, hand in zip(history["games"], reversed(hands), strict=True):
            assert item["family"] == "tractor" and item["teams"] == [0, 1, 0, 1] and item["seat"] == seat
            assert item["delta"] == hand["settlement"]["deltas"][seat]
            assert item["won"] == (seat in hand["settlement"]["winners"])
    for hand in hands:
        status, replay = server.http("GET", f"/api/games/{hand['game_id']}")
        assert status == 200 and replay["family"] == "tractor"
        game = hand["game"]
        assert replay["trump"] == game["trump"] and replay["dealer"] == game["dealer"]
        assert replay["buried"] == game["bottom"] and replay["settlement"] == hand["settlement"]
        tricks = [event for event in replay["events"] if event["type"] == "trick"]
        assert len(tricks) == game["tricks"] and tricks[-1]["winner"] == game["last_trick"]["winner"]
        end = replay["events"][-1]
        assert end["type"] == "end" and end["attackers_points"] == game["score"]["attackers_points"]
        plays = [event for event in replay["events"] if event["type"] == "play"]
        assert sum(len(event["cards"].split()) for event in plays) == 100


def team(seat: int) -> int:
    """T1.1: seats 0 and 2 against 1 and 3."""
    return seat % 2


def test_T10_a_person_and_three_bots_play_a_match_hand_after_hand(start_server: Callable[..., RunningServer]) -> None:
    """T10.1–T10.2, T10.5, T11.4, T16.12: a person (playing from hints) and three greedy bots (who
    declare and bury on their own) play three hands at one table; each starts with the
    levels and the dealer the last one produced, and each is paid in one ledger entry for
    four accounts and the house, summing to zero."""
    server = start_server(rooms={"tractor": QUICK})

    async def scenario() -> None:
        players = await seat_four(server, "tractor", ("Ana",))
        score: dict[str, Any] | None = None
        game_id: str | None = None
        for _ in range(3):
            (view,) = await next_hand(players, game_id)
            game_id = view["game_id"]
            if score is not None:
                assert view["game"]["levels"] == score["levels_after"]
                assert view["game"]["dealer"] == score["next_dealer"]
            (final,) = await play_hand(players)
            await check_settlement(server, tuple(players), final)
            settlement = final["settlement"]
            assert len(settlement["deltas"]) == 4 and sum(settlement["deltas"]) + settlement["house"] == 0
            score = final["game"]["score"]
            assert not score["match_over"]

    run(scenario(), timeout=180)


def test_T2_1_bots_take_their_cards_by_the_deal_s_clock(start_server: Callable[..., RunningServer]) -> None:
    """T2.1, T16.11: the deal's clock runs for every seat, bots too (their delay is far shorter than
    a round here): from the first state of the hand a round's deadline is shown, and
    the cards of a round arrive together, one to each seat, before any second card."""
    server = start_server(rooms={"tractor": PACED})

    async def scenario() -> list[dict[str, Any]]:
        players = await seat_four(server, "tractor", ("Ana",))
        (view,) = await next_hand(players)
        assert view["game"]["cards_left"] == [0, 0, 0, 0] and view["turn_deadline"] is not None
        await players[0].until(lambda t: min(t["game"]["cards_left"]) >= 2, timeout=30)
        return players[0].log

    states = [m["table"]["game"] for m in run(scenario()) if m["type"] == "state" and m["table"]["game"]]
    for game in states:
        assert max(game["cards_left"]) - min(game["cards_left"]) <= 1
    assert [game["cards_left"] for game in states if game["cards_left"] != states[0]["cards_left"]][3] == [1, 1, 1, 1]


async def hosted_hand(player: Player, after: str | None) -> tuple[dict[str, Any], dict[str, Any]]:
    """The person readies and switches hosting on; the server plays the hand to its
    settlement. The hand's first view and its last."""
    (view,) = await next_hand([player], after)
    await player.send({"type": "hosting", "on": True})
    final = await player.until(lambda t: t["game_id"] == view["game_id"] and t["phase"] == "settled", timeout=60)
    return view, final


def test_T10_4_the_match_ends_when_the_dealer_team_wins_at_A(start_server: Callable[..., RunningServer]) -> None:
    """T10.3–T10.4: both teams start at A; hands go on (the attackers taking the deal and
    staying at A) until the dealer team wins one at A: the match is over, and the next hand
    is the first of a new match (no dealer yet, both teams at the start level)."""
    server = start_server(rooms={"tractor": FINAL})

    async def scenario() -> None:
        (ana,) = await seat_four(server, "tractor", ("Ana",))
        game_id: str | None = None
        score: dict[str, Any] | None = None
        for _ in range(20):
            view, final = await hosted_hand(ana, game_id)
            if score is not None:
                assert view["game"]["dealer"] == score["next_dealer"] and view["game"]["levels"] == ["A", "A"]
            game_id, score = final["game_id"], final["game"]["score"]
            await check_settlement(server, (ana,), final)
            if score["match_over"]:
                break
            assert score["result"] == "attackers" and score["levels_after"] == ["A", "A"]
        else:
            raise AssertionError("no hand of twenty ended the match")
        assert score["result"] == "dealer" and score["next_dealer"] is None
        (view,) = await next_hand([ana], game_id)
        assert view["game"]["dealer"] is None and view["game"]["levels"] == ["A", "A"]

    run(scenario(), timeout=300)


def test_T11_5_an_escape_ends_the_match(start_server: Callable[..., RunningServer]) -> None:
    """T11.5 (``escape_mode = "host"``): Bo leaves during the hand (an escape), hosting plays
    his seat to the end and he takes it back; the hand is settled with his penalty of
    ``escape_units`` × X, half to each opponent; the next hand, with the same players, is
    the first of a new match."""
    server = start_server(rooms={"tractor": QUICK})

    async def scenario() -> None:
        players = await seat_four(server, "tractor", ("Ana", "Bo"))
        ana, bo = players
        views = await next_hand(players)
        table_id, game_id = views[0]["id"], views[0]["game_id"]
        await bo.until(lambda t: t["game"]["phase"] == "play" or t["phase"] != "playing", timeout=30)
        left = await bo.leave()
        assert left["escape"] is True and left["hosted"] is True
        await bo.join(table=table_id)
        await bo.until(lambda t: t["game_id"] == game_id)
        await ana.send({"type": "hosting", "on": True})
        finals = [await player.until(lambda t: t["phase"] == "settled", timeout=60) for player in players]
        settlement = finals[0]["settlement"]
        assert settlement["escaper"] == 1 and settlement["escape_penalty"] == 12 * settlement["match_points"]
        assert finals[0]["game"]["escaped"] == 1
        await check_settlement(server, tuple(players), finals[0])
        second = await next_hand(players, game_id)
        assert second[0]["game"]["dealer"] is None and second[0]["game"]["levels"] == ["2", "2"]

    run(scenario(), timeout=120)


def test_the_declaring_seed_deals_what_the_test_declares() -> None:
    """The first deal of :data:`DECLARING_SEED` holds the cards the four persons declare."""
    hand = TRACTOR.deal(TRACTOR.load_room("tractor"), seed=DECLARING_SEED)
    deck, first = hand.start.decks[0], hand.deal_from
    dealt = [Counter(face_text(deck[r * 4 + (seat - first) % 4]) for r in range(25)) for seat in range(4)]
    assert dealt[0]["2C"] == 2 and dealt[3]["2S"] >= 1 and dealt[2]["SJ"] == 2 and dealt[1]["BJ"] == 2



IDLE = ('game = "tractor"\nname = "Idle"\n[deal]\ndeal_interval_ms = 0\ndeclare_window_seconds = 1\n'
        'first_hand_no_bid = "third_bottom"\nbury_seconds = 5\n[timers]\nturn_seconds = 0.05\nready_seconds = 60\n')


def test_T11_1_T11_2_every_phase_s_timer_acts_for_an_idle_table(start_server: Callable[..., RunningServer]) -> None:
    """T11.1–T11.2 with four persons who never act: the deal's clock brings their cards, the
    declaring window's timer closes it (nobody declared: T2.8's third bottom card fixes the
    trump and a seat drawn from the seed deals), the bury timer buries the bottom back
    (T3.2), each turn's timer makes the hosting play and counts it, and the third timeout
    switches hosting on for good; the hand is settled and paid."""
    server = start_server(rooms={"tractor": IDLE})

    async def scenario() -> list[Player]:
        players = await seat_four(server, "tractor", ("Ana", "Bo", "Cy", "Di"))
        await next_hand(players)
        finals = [await player.until(lambda t: t["phase"] == "settled", timeout=60) for player in players]
        await check_settlement(server, tuple(players), finals[0])
        return players

    players = run(scenario(), timeout=120)
    events = [event for message in players[0].log if message["type"] == "state" for event in message["events"]]
    by = {event["type"]: event for event in events if event["type"] in ("trump", "bury", "end")}
    assert by["trump"]["by"] == "third_bottom" and not [e for e in events if e["type"] == "declare"]
    assert by["bury"]["cause"] == "timeout"
    dealer = by["bury"]["seat"]
    shown = [m["table"]["game"]["bottom"] for m in players[dealer].log
             if m["type"] == "state" and m["table"]["game"] and m["table"]["game"]["phase"] == "bury"]
    assert shown and Counter(shown[-1].split()) == Counter(by["end"]["bottom"].split())  # buried back, T3.2
    for seat, player in enumerate(players):
        counts = [e["count"] for e in events if e["type"] == "timeout" and e["seat"] == seat]
        assert counts == [1, 2, 3]
        assert [e["cause"] for e in events if e["type"] == "hosting" and e["seat"] == seat] == ["timeout"]
        notices = [m["count"] for m in player.log if m["type"] == "notice" and m["code"] == "timed_out"]
        assert notices == [1, 2, 3]
