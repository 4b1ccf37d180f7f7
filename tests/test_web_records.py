"""The card tracker (记牌器), the history page (战绩) and the replay viewer of the browser
client, in a real Chromium against a real server (the fixtures and the player of
``tests/test_web.py``).

What the pages show is checked against the server: the tracker against the table state it
sent, the history against ``/api/me/games`` and the ledger, the replay's hands and plays at
each step against the game record replayed by the rules core, and its settlement against
the ledger.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import test_web
from test_web import (
    CHROMIUM,
    DESKTOP,
    OVERLAPS,
    PHONE,
    Player,
    amount,
    ledger,
    run_server,
    settle_hand,
)

from shuangkou.cards import DECK
from shuangkou.games.shuangkou.config import config_from_dict
from shuangkou.games.shuangkou.game import Game
from shuangkou.server.process import ServerProcess as Server
from shuangkou.server.record import TableRecord

# The browser tests' fixtures: a server of the test rooms and Debian's Chromium, for this module too.
server = test_web.server
browser = test_web.browser

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="the browser tests need Debian's Chromium at /usr/bin/chromium"
)

from playwright.sync_api import Browser, Page  # noqa: E402

# What the tracker must not cover: the cards (hand, table, the seats' plays), every seat, the buttons.
NOT_UNDER_THE_TRACKER = (
    "#hand .card, #felt-center .card, #view-table .seat, .bubble, #actions .btn, #tools .btn, #play-message"
)


def play_hosted(player: Player) -> str:
    """Switch hosting on and let it play our seat to the result; returns the game id."""
    page = player.page
    player.wait_playing()
    page.click("#btn-hosting")
    page.wait_for_selector("#result-card [data-testid=result-title]", timeout=90000)
    return page.get_attribute("#result-card", "data-game-id") or ""


def next_game(player: Player, game_id: str) -> None:
    """Ready for the next game (the bots are always ready)."""
    player.page.click("[data-testid=next-game]")
    player.page.wait_for_function(
        f"() => document.querySelector('#view-table').dataset.gameId !== '{game_id}'"
        " && document.querySelector('#view-table').dataset.phase === 'playing'"
    )


def core_game(server: Server, game_id: str) -> tuple[list[list[str]], Game]:
    """The game as its record stands (operator API), replayed by the rules core: the hands
    as dealt and the game after every stored action."""
    stored = server.get(f"/api/admin/games/{game_id}")
    config = config_from_dict(stored["config"], source=f"game {game_id}")
    record = TableRecord.from_dict(stored["record"], config)
    dealt = [hand.split() for hand in record.game.hands]
    return dealt, Game.restore(record.game.with_actions(stored["actions"]))


def rank_count(cards: list[str]) -> Counter[str]:
    return Counter(card if card in ("SJ", "BJ") else card[:-1] for card in cards)


def tracker_shown(page: Page) -> dict[str, int]:
    cells: list[list[Any]] = page.eval_on_selector_all(
        "#tracker .tk", "nodes => nodes.map(n => [n.dataset.rank, +n.dataset.count])"
    )
    return {rank: count for rank, count in cells}


# ---------------------------------------------------------------------------
# The card tracker


def test_the_card_tracker_shows_the_servers_counts_persists_and_covers_nothing(
    server: Server, browser: Browser
) -> None:
    """记牌器: C (or its button) shows the counts of the table state the server sent — equal
    to the deck less our hand and every card played, from the game record — remembered over
    a reload, never over a card, a seat or a button, two seats and four, desktop and phone."""
    for room in ("points", "classic"):
        player = Player(browser, server).sign_in(f"Counter-{room}").in_lobby()
        page = player.page
        player.play_bots(room)
        assert page.is_hidden("#tracker")
        page.keyboard.press("c")
        page.wait_for_selector("#tracker:not([hidden])")
        assert page.get_attribute("#btn-tracker", "aria-pressed") == "true"
        for turn in range(3):  # at our turn (nothing moves until we act), then after a few plays
            player.wait_turn(30000)
            shown, game = page.evaluate(
                "[Object.fromEntries([...document.querySelectorAll('#tracker .tk')]"
                ".map(n => [n.dataset.rank, +n.dataset.count])), window.shuangkou.state.table.game]"
            )
            assert shown == game["tracker"], "the server's numbers"
            assert " ".join(tracker_shown(page)) == "BJ SJ 2 A K Q J 10 9 8 7 6 5 4 3", "highest first"
            _, core = core_game(server, page.evaluate("window.shuangkou.state.table.game_id"))
            unseen = rank_count([str(card) for card in DECK])
            unseen.subtract(rank_count(player.hand()))
            unseen.subtract(rank_count([str(card) for play in core.plays for card in play.cards]))
            assert shown == dict(unseen), f"the deck less our hand and the cards played (turn {turn})"
            player.take_turn()
        player.wait_turn(30000)
        for viewport in (DESKTOP, PHONE):
            page.set_viewport_size(viewport)
            settle_hand(page)
            seen = page.evaluate(OVERLAPS, ["#tracker", NOT_UNDER_THE_TRACKER])
            seats = 4 if room == "classic" else 2
            assert seen["mine"] == 1 and seen["theirs"] >= len(player.hand()) + seats + 3, (room, viewport, seen)
            assert seen["hits"] == [], (room, viewport)
            assert page.evaluate(
                "(() => { const r = document.querySelector('#tracker').getBoundingClientRect();"
                " return r.left >= 0 && r.right <= innerWidth && r.bottom <= innerHeight; })()"
            ), (room, viewport)
        player.reload_into_a_game()
        page.wait_for_selector("#tracker:not([hidden]) .tk")  # remembered by the browser
        page.click("#btn-tracker")
        assert page.is_hidden("#tracker")
        player.reload_into_a_game()
        assert page.is_hidden("#tracker") and page.get_attribute("#btn-tracker", "aria-pressed") == "false"
        player.close()


# ---------------------------------------------------------------------------
# The history page (战绩)


def history_rows(page: Page) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = page.eval_on_selector_all(
        "[data-testid=history-row]",
        """nodes => nodes.map(n => ({id: n.dataset.gameId,
            delta: n.querySelector('[data-testid=history-delta]').textContent,
            after: n.querySelector('[data-testid=history-after]').textContent, href: n.getAttribute('href'),
            against: n.querySelector('[data-testid=history-against]').textContent,
            partner: n.querySelector('[data-testid=history-partner]')?.textContent ?? null}))""",
    )
    return rows


def test_history_lists_the_games_just_played_newest_first_paged_with_links_to_their_replays(
    server: Server, browser: Browser
) -> None:
    """战绩: an account with no games sees an empty history; after three games against a bot
    the history lists them newest first, the bot named with its level, each change and
    balance after as the ledger has them; a page of two leads to an older page and back; a row opens its replay."""
    player = Player(browser, server).sign_in("Historian").in_lobby()
    page = player.page
    page.click("[data-testid=my-games]")
    page.wait_for_selector("[data-testid=history-empty]")
    assert page.is_hidden("#view-lobby")
    page.click("#page-history [data-page-back]")
    player.in_lobby()
    assert page.evaluate("location.hash") == ""

    player.play_bots("points")
    played = []
    for index in range(3):
        game_id = play_hosted(player)
        played.append(game_id)
        if index < 2:
            next_game(player, game_id)
    page.click("[data-testid=result-leave]")
    player.in_lobby()
    account = player.account()

    page.click("[data-testid=my-games]")
    page.wait_for_selector("[data-testid=history-row]")
    rows = history_rows(page)
    assert [row["id"] for row in rows] == played[::-1], "newest first"
    for row in rows:
        (entry,) = [entry for entry in ledger(server, row["id"]) if entry["account"] == account["id"]]
        assert amount(row["delta"]) == entry["delta"] and amount(row["after"]) == entry["balance_after"], row
        assert row["against"] == "Against: Bot (Normal)" and row["partner"] is None  # the room's bots: normal
    assert amount(rows[0]["after"]) == account["balances"]["points"]
    assert page.inner_text("[data-testid=history-range]") == "Games 1–3"
    assert page.get_attribute("[data-testid=history-next]", "aria-disabled") == "true"

    page.evaluate("location.hash = '#history?limit=2'")  # pages of two
    page.wait_for_function("document.querySelectorAll('[data-testid=history-row]').length === 2")
    assert [row["id"] for row in history_rows(page)] == played[:0:-1]
    assert page.get_attribute("[data-testid=history-previous]", "aria-disabled") == "true"
    page.click("[data-testid=history-next]")
    page.wait_for_function("document.querySelectorAll('[data-testid=history-row]').length === 1")
    assert [row["id"] for row in history_rows(page)] == played[:1]
    assert page.inner_text("[data-testid=history-range]") == "Games 3–3"
    assert page.evaluate("location.hash") == "#history?offset=2&limit=2"
    page.click("[data-testid=history-previous]")
    page.wait_for_function("document.querySelectorAll('[data-testid=history-row]').length === 2")
    assert [row["id"] for row in history_rows(page)] == played[:0:-1]

    page.click("[data-lang=zh]")
    assert page.inner_text("#history-page-title") == "我的战绩"
    assert page.inner_text("[data-testid=history-against] >> nth=0") == "对手：电脑（普通）"
    page.click("[data-lang=en]")

    page.focus("[data-testid=history-row] >> nth=0")
    page.keyboard.press("Enter")  # a row is a link: the keyboard opens it
    page.wait_for_selector("#page-replay [data-testid=replay-now]")
    assert page.evaluate("location.hash").startswith(f"#replay/{played[2]}/")
    player.close()


# ---------------------------------------------------------------------------
# The replay viewer

REPLAY_AT = """() => {
  const now = document.querySelector('#page-replay [data-testid=replay-now]');
  const play = now.querySelector('[data-testid=replay-play]');
  return {
    index: +document.querySelector('#page-replay [data-testid=replay-step]').dataset.index,
    kind: now.dataset.kind,
    play: play ? play.dataset.cards : null,
    playSeat: play ? +play.dataset.seat : null,
    reading: Boolean(now.querySelector('[data-testid=replay-reading]')),
    hands: Object.fromEntries([...document.querySelectorAll('#page-replay [data-testid=replay-seat]')]
      .map(n => [n.dataset.seat, n.dataset.cards])),
    places: Object.fromEntries([...document.querySelectorAll('#page-replay [data-testid^=replay-place-]')]
      .map(n => [n.dataset.testid.split('-')[2], n.textContent])),
  };
}"""


def check_replay(server: Server, page: Page, game_id: str) -> None:
    """Walk the replay from the deal to the end and back: at every step the action shown is
    the record's, every hand is the hand as dealt less the cards its seat has played (the
    rules core's hands at the end), and the settlement at the end is the ledger's."""
    dealt, core = core_game(server, game_id)
    actions = [event for event in core.events if event.type in ("play", "pass", "escape")]
    page.wait_for_selector("#page-replay [data-testid=replay-now]")
    page.keyboard.press("Home")
    left = [Counter(hand) for hand in dealt]
    for index in range(len(actions) + 1):
        if index:
            page.keyboard.press("ArrowRight")
            event = actions[index - 1]
            if event.type == "play":
                left[event.seat].subtract(str(card) for card in event.cards)
        seen = page.evaluate(REPLAY_AT)
        assert seen["index"] == index
        assert {int(seat): Counter(cards.split()) for seat, cards in seen["hands"].items()} == {
            seat: +hand for seat, hand in enumerate(left)
        }, f"the hands at step {index}"
        if not index:
            assert seen["kind"] == "deal"
            continue
        assert seen["kind"] == event.type, index
        if event.type == "play":
            assert (sorted(seen["play"].split()), seen["playSeat"]) == (
                sorted(str(card) for card in event.cards),
                event.seat,
            )
            assert seen["reading"] == bool(event.combo and event.combo.stands_for), f"a joker's reading at step {index}"
    assert [+hand for hand in left] == [Counter(str(card) for card in hand) for hand in core.hands], (
        "the core's hands at the end"
    )
    page.keyboard.press("ArrowRight")  # already at the end
    assert page.evaluate(REPLAY_AT)["index"] == len(actions)
    if core.seats == 4:
        places = ["1st out", "2nd out", "3rd out", "Last"]
        assert page.evaluate(REPLAY_AT)["places"] == {
            str(seat): places[at] for at, seat in enumerate(core.finish_order)
        }
    for entry in ledger(server, game_id):
        if entry["seat"] is None:  # the house
            continue
        assert amount(page.inner_text(f"#page-replay [data-testid=after-{entry['seat']}]")) == entry["balance_after"]
        assert amount(page.inner_text(f"#page-replay [data-testid=delta-{entry['seat']}]")) == entry["delta"]
    page.keyboard.press("ArrowLeft")
    back = page.evaluate(REPLAY_AT)
    assert back["index"] == len(actions) - 1 and page.is_hidden("#page-replay [data-testid=replay-result]")
    page.click("#page-replay [data-testid=replay-start]")
    start = page.evaluate(REPLAY_AT)
    assert start["index"] == 0 and {int(seat): sorted(cards.split()) for seat, cards in start["hands"].items()} == {
        seat: sorted(hand) for seat, hand in enumerate(dealt)
    }
    page.click("#page-replay [data-testid=replay-end]")
    page.wait_for_selector("#page-replay [data-testid=replay-result] [data-testid=result-title]")


def test_replays_of_a_two_seat_and_a_four_seat_game_step_through_the_record(server: Server, browser: Browser) -> None:
    """The result screen's Replay opens the viewer of the game just played, two seats and four:
    every step as the record has it, forward and back, and the settlement of the ledger; each
    bot's seat names its level; the four-seat game's history row names the partner; the flip
    card and a swap at the deal."""
    for room in ("points", "classic"):
        player = Player(browser, server).sign_in(f"Replayer-{room}").in_lobby()
        page = player.page
        player.play_bots(room)
        for _ in range(2):  # two plays of our own (the others by hosting)
            player.wait_turn(30000)
            player.take_turn()
        game_id = play_hosted(player)
        player_seat = player.seat()
        page.click("#result-card [data-testid=result-replay]")
        assert page.evaluate("location.hash") == f"#replay/{game_id}"
        check_replay(server, page, game_id)
        levels = page.eval_on_selector_all(
            "#page-replay [data-testid^=replay-bot-level-]",
            "nodes => nodes.map(n => [n.dataset.testid, n.textContent])",
        )
        bots = sorted(seat for seat in range(4 if room == "classic" else 2) if seat != player_seat)
        assert sorted(levels) == [[f"replay-bot-level-{seat}", "Normal"] for seat in bots], "bots' levels, no person's"
        _, core = core_game(server, game_id)
        page.keyboard.press("Home")
        flip = page.get_attribute("#page-replay [data-testid=replay-now] .flip .card", "data-card")
        assert flip == str(core.flip_card)
        assert page.is_visible("#page-replay [data-testid=replay-swap]") == (core.swap is not None)
        page.click("#page-replay [data-page-back]")
        page.wait_for_selector("#result-card [data-testid=result-title]")  # back at the table's result
        if room == "classic":
            page.click("[data-testid=result-leave]")
            player.in_lobby()
            page.click("[data-testid=my-games]")
            page.wait_for_selector("[data-testid=history-row]")
            (row,) = history_rows(page)
            assert row["id"] == game_id and row["href"] == f"#replay/{game_id}/{player_seat}"
            assert row["partner"] == "Partner: Bot (Normal)" and row["against"] == "Against: Bot (Normal), Bot (Normal)"
        player.close()


# The contrast ratio (WCAG) of an element's text against its own background colour.
CONTRAST = """(selector) => {
  const node = document.querySelector(selector);
  const style = getComputedStyle(node);
  const channels = (colour) => colour.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const luminance = (colour) => {
    const [r, g, b] = channels(colour).map((value) => {
      const c = value / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [light, dark] = [luminance(style.color), luminance(style.backgroundColor)].sort((a, b) => b - a);
  return (light + 0.05) / (dark + 0.05);
}"""


def test_the_replay_of_the_game_just_played_keeps_the_seat_and_a_freed_seat_is_said(
    tmp_path: Path, browser: Browser
) -> None:
    """R11.4: opening Replay from the result tells the server (``replaying``), which gives the
    ready timer two more minutes, so the seat outlasts the room's short ready timer while the
    player watches; a seat the ready timer does free is said in the lobby until dismissed."""
    rooms = {**test_web.ROOMS, "brief": 'edition = "points"\nname = "Brief"\n[timers]\nturn_seconds = 30\n'
             "ready_seconds = 6\n"}
    with run_server(tmp_path / "brief", rooms) as brief:
        watcher = Player(browser, brief).sign_in("Watcher").in_lobby()
        page = watcher.page
        watcher.play_bots("brief")
        play_hosted(watcher)
        deadline = "window.shuangkou.state.table.seats[window.shuangkou.state.table.you].ready_deadline"
        before = page.evaluate(deadline)
        page.click("#result-card [data-testid=result-replay]")
        page.wait_for_function(f"() => {deadline} >= {before} + 120000 - 50")
        page.wait_for_function(f"() => Date.now() > {before} + 1000")  # the room's own timer is over
        page.click("#page-replay [data-page-back]")
        page.wait_for_selector("#result-card [data-testid=next-game]")
        assert page.is_hidden("#seat-lost")

        idle = Player(browser, brief).sign_in("Idle").in_lobby()
        idle.join("brief", "invite")  # seated, never ready
        idle.page.wait_for_selector("#view-lobby:not([hidden]) [data-testid=seat-lost]")
        assert "not ready in time" in idle.page.inner_text("[data-testid=seat-lost]")
        idle.page.click("[data-testid=seat-lost] button")
        assert idle.page.is_hidden("#seat-lost")
        for player in (watcher, idle):
            player.close()


def test_a_shared_replay_link_opens_without_signing_in_and_an_unknown_game_says_so(
    server: Server, browser: Browser
) -> None:
    """The replay's link, opened in a fresh browser with no account, shows the same game, its
    room by its title and its date in the language chosen; an id that names no game says so
    plainly. The result screen names the game's id for players ("Game id", with Copy) and its
    Replay button reads clearly (contrast 4.5:1 at least)."""
    player = Player(browser, server).sign_in("Sharer").in_lobby()
    page = player.page
    player.play_bots("points")
    game_id = play_hosted(player)
    assert page.inner_text("#result-card .game-id label") == "Game id"
    assert page.evaluate(CONTRAST, "#result-card [data-testid=result-replay]") >= 4.5
    page.click("#result-card [data-testid=result-replay]")
    page.wait_for_selector("#page-replay [data-testid=replay-link]")
    link = page.input_value("#page-replay [data-testid=replay-link]")
    assert link == f"{server.url}/#replay/{game_id}"
    page.click("#page-replay [data-testid=replay-copy]")
    page.wait_for_selector(".toast:has-text('Link to the replay copied.')")
    player.close()

    stranger = Player(browser, server)
    fresh = stranger.page
    fresh.goto(link)
    check_replay(server, fresh, game_id)
    assert fresh.evaluate("localStorage.getItem('shuangkou.token')") is None, "no account was made"
    assert fresh.is_hidden("#view-login") and fresh.is_hidden("#view-table")
    assert fresh.inner_text("#replay-meta").startswith("Points room · ")
    fresh.click("[data-lang=zh]")
    assert fresh.inner_text("#page-replay h1") == "回放"
    assert fresh.inner_text("#replay-meta").startswith("积分房 · ")
    fresh.click("[data-lang=en]")
    assert not re.search(r"[\u4e00-\u9fff]", fresh.inner_text("#replay-meta")), "the date in English again"
    assert fresh.locator("#page-replay button:text-is('Back'), #page-replay a:text-is('Back')").count() == 1
    fresh.click("#page-replay [data-page-back]")  # without an account: the name screen
    fresh.wait_for_selector("#view-login:not([hidden])")

    fresh.goto(f"{server.url}/#replay/ffffffffffff")
    status = fresh.wait_for_selector("#page-replay [data-testid=replay-status].unknown")
    assert status.inner_text() == "There is no game ffffffffffff. Check the link."
    stranger.errors = [error for error in stranger.errors if "404" not in error]  # the browser logs the refused request
    stranger.close()


def test_screenshots_of_the_tracker_the_history_and_a_replay(tmp_path: Path, browser: Browser) -> None:
    """The README's pictures of the card tracker at the table, the history page and the
    replay viewer, at desktop and at phone width (docs/screenshots/ when
    SHUANGKOU_SCREENSHOTS=1 is set, a temporary folder otherwise)."""
    folder, shoot = test_web.screenshots(tmp_path)

    with run_server(tmp_path / "shots", None) as shots:  # the shipped rooms
        player = Player(browser, shots).sign_in("Xiao Ming").in_lobby()
        page = player.page
        player.play_bots("classic")
        page.keyboard.press("c")
        for _ in range(3):  # a few plays: the tracker has counted them
            player.wait_turn(30000)
            player.take_turn()
        player.wait_turn(30000)
        settle_hand(page)
        shoot(page, "tracker")
        page.keyboard.press("c")
        classic = play_hosted(player)
        page.click("[data-testid=result-leave]")
        player.in_lobby()
        player.play_bots("points")
        game_id = play_hosted(player)
        for _ in range(2):
            next_game(player, game_id)
            game_id = play_hosted(player)
        page.click("[data-testid=result-leave]")
        player.in_lobby()
        page.click("[data-testid=my-games]")
        page.wait_for_selector("[data-testid=history-row]")
        shoot(page, "history")

        page.goto(f"{shots.url}/#replay/{classic}")
        page.wait_for_selector("#page-replay [data-testid=replay-now]")
        steps = int(page.get_attribute("#page-replay [data-testid=replay-step]", "data-index") or "0")
        page.keyboard.press("End")
        last = int(page.get_attribute("#page-replay [data-testid=replay-step]", "data-index") or "0")
        page.keyboard.press("Home")
        for _ in range(last // 3):  # a third of the way: hands played down, the seats' plays and passes
            page.keyboard.press("ArrowRight")
        while page.get_attribute("#page-replay [data-testid=replay-now]", "data-kind") != "play":
            page.keyboard.press("ArrowRight")
        assert steps == 0 and last > 0
        shoot(page, "replay")
        player.close()
    for name in ("tracker", "history", "replay"):
        for suffix in ("", "-phone"):
            assert (folder / f"{name}{suffix}.png").stat().st_size > 10_000
