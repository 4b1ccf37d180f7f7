"""What a first-time player is told and sees (issue #43), in a real Chromium against a real
server (the fixtures and the player of ``tests/test_web.py``): the lobby names each room's
game, 千变 is explained, the bots have one name each, the direction of play is shown, the
flip card shows whoever leads, a quick match starts at once, a reload says hosting is off
once, the result and the replay speak to players, and the lobby and a long play on the
table are whole at 1280×800 and 390×844."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import test_web
from test_web import CHROMIUM, DESKTOP, HAND_INDEXES, OVERLAPS, PHONE, ROOMS, Player, run_server, settle_hand

from shuangkou.server.process import ServerProcess as Server

browser = test_web.browser

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="the browser tests need Debian's Chromium at /usr/bin/chromium"
)

from playwright.sync_api import Browser  # noqa: E402

# The test rooms, and a 千变 room (C1.4, C8: big jokers wild, the partner by the flip card).
NEWCOMER_ROOMS = {
    **ROOMS,
    "qianbian": 'edition = "points"\nname = "Qianbian room (千变)"\n[rules]\nwild_jokers = "big"\n'
    "three_joker_bomb = true\n[timers]\nturn_seconds = 30\nready_seconds = 120\n[table]\nseats = 4\n"
    "partner_by_flip = true\n",
}


@pytest.fixture(scope="module")
def slow_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The rooms above, bots and hosting waiting a second: a game lasts while the page is read."""
    with run_server(tmp_path_factory.mktemp("newcomer"), NEWCOMER_ROOMS, bot_delay=1.0) as running:
        yield running


# Every message the page shows, in the order shown, kept in window.toldWords from the page's start.
RECORD_MESSAGES = """(() => {
  window.toldWords = [];
  new MutationObserver((changes) => {
    for (const change of changes) {
      for (const node of change.addedNodes) {
        if (node.classList?.contains("toast")) window.toldWords.push(node.textContent);
      }
    }
  }).observe(document, { childList: true, subtree: true });
})()"""


def test_a_reload_says_once_that_the_player_plays_again(slow_server: Server, browser: Browser) -> None:
    """R11.5: a reload hosts the seat while the page is away; back, the page switches hosting off
    and says so in one message, not in two near-identical ones (the page's welcome back and the
    server's hosting-off event)."""
    player = Player(browser, slow_server).sign_in("Reloader").in_lobby()
    page = player.page
    page.add_init_script(RECORD_MESSAGES)
    player.play_bots("points")
    page.reload()
    player.wait_playing()
    page.wait_for_selector("#view-table[data-hosting=off]")
    page.wait_for_function("() => window.toldWords.length > 0 && !document.querySelector('#lane .toast')")
    told = page.evaluate("window.toldWords")
    about_hosting = [words for words in told if "hosting" in words.lower() or "your own cards" in words]
    assert about_hosting == ["Welcome back: you are playing your own cards again."], told
    player.close()


def test_a_quick_match_starts_at_once_when_every_seat_was_filled_by_quick_match(
    slow_server: Server, browser: Browser
) -> None:
    """Both players asked to play by Quick match: once the second sits down each page says
    Ready by itself (R11.4), and the game is dealt with no click on Ready."""
    ana = Player(browser, slow_server).sign_in("Quick Ana").in_lobby()
    bo = Player(browser, slow_server).sign_in("Quick Bo").in_lobby()
    ana.join("points", "quick")
    ana.page.wait_for_selector("[data-testid=waiting]")
    bo.join("points", "quick")
    for player in (ana, bo):
        player.wait_playing()
        assert len(player.hand()) == 27
    ana.page.click("[data-testid=leave]")
    ana.page.click("#dlg-confirm-ok")
    ana.in_lobby()
    bo.page.wait_for_selector("#result-card [data-testid=result-title]")
    for player in (ana, bo):
        player.close()


# The play on the table replaced by a 12-card straight 3–A of seat `seat`, through the page's
# own handling of a table state (the shape the server sends, `game.table`).
SHOW_A_LONG_STRAIGHT = """(seat) => {
  const table = structuredClone(window.shuangkou.state.table);
  const ranks = "3 4 5 6 7 8 9 10 J Q K A";
  const suits = "SHCD";
  const cards = ranks.split(" ").map((rank, index) => rank + suits[index % 4]).join(" ");
  table.game.table = { index: table.game.plays.length, seat, cards, cause: null,
    combo: { kind: "straight", length: 12, top: "A", phase: 0, cards: ranks, reading: ranks, stands_for: [] } };
  window.shuangkou.receive({ type: "state", table, events: [] });
}"""


@pytest.mark.parametrize("room", ["points", "classic"])
def test_a_twelve_card_straight_on_the_table_shows_every_index_on_a_phone(
    slow_server: Server, browser: Browser, room: str
) -> None:
    """A played 12-card straight at 390×844 keeps every card's corner index in sight: the
    hand's check (tests/test_web.py) on the cards of the play on the felt, two seats and four."""
    player = Player(browser, slow_server, PHONE).sign_in(f"Straight-{room}").in_lobby()
    page = player.page
    player.play_bots(room)
    page.evaluate(SHOW_A_LONG_STRAIGHT, 1)
    page.wait_for_function("() => document.querySelectorAll('#felt-center .play-cards .card').length === 12")
    settle_hand(page)
    seen = page.evaluate(HAND_INDEXES.replace("#hand .card", "#felt-center .play-cards .card"))
    assert seen["cards"] == 12 and seen["problems"] == [], seen
    player.close()


def test_the_lobby_says_which_game_each_room_plays_and_explains_qianbian(slow_server: Server, browser: Browser) -> None:
    """A new player tells from the lobby alone what each room plays (RULES: Rush, two seats;
    RULES-CLASSIC: classic, four; C1.4, C8: 千变), in a line what differs, in both languages;
    the help explains 千变."""
    player = Player(browser, slow_server).sign_in("Newcomer").in_lobby()
    page = player.page
    games = {
        "points": ("Rush (快速双扣), two players", "27 cards each"),
        "classic": ("Classic (双扣), four players", "partners sitting opposite"),
        "qianbian": ("Qianbian (千变双扣), four players", "big jokers are wild, and whoever holds the other copy"),
    }
    for room, (game, about) in games.items():
        assert page.inner_text(f"[data-testid=seats-{room}]") == game
        assert about in page.inner_text(f"[data-testid=about-{room}]")
    page.click("#btn-help")
    assert "the big jokers are wild" in page.inner_text("[data-testid=help-qianbian]")
    page.keyboard.press("Escape")
    page.click("[data-lang=zh]")
    assert page.inner_text("[data-testid=seats-qianbian]") == "千变双扣 · 四人"
    assert "大王百搭" in page.inner_text("[data-testid=about-qianbian]")
    page.click("[data-lang=en]")
    player.close()


# What sticks out of the lobby's cards: a wallet's words outside its card, a room's title cut
# or outside its card.
LOBBY_OVERFLOWS = """() => {
  const outside = (inner, outer) => inner.left < outer.left - 0.5 || inner.right > outer.right + 0.5
    || inner.top < outer.top - 0.5 || inner.bottom > outer.bottom + 0.5;
  const problems = [];
  const box = (node) => node.getBoundingClientRect();
  for (const wallet of document.querySelectorAll(".wallet")) {
    for (const part of wallet.children) {
      if (outside(box(part), box(wallet))) problems.push(`${part.textContent} out of its wallet`);
    }
  }
  for (const title of document.querySelectorAll(".room h3, .room .room-seats")) {
    if (title.scrollWidth > title.clientWidth + 1) problems.push(`${title.textContent} cut`);
    if (outside(box(title), box(title.closest(".room")))) problems.push(`${title.textContent} out of its room`);
  }
  return problems;
}"""

# The largest change of colour between two neighbouring rows of pixels down the page's left
# edge under the top bar, where only the background is painted, in a screenshot (a data URL).
LARGEST_STEP_DOWN_THE_EDGE = """async (url) => {
  const image = new Image();
  image.src = url;
  await image.decode();
  const canvas = document.createElement("canvas");
  canvas.width = image.width;
  canvas.height = image.height;
  const context = canvas.getContext("2d");
  context.drawImage(image, 0, 0);
  const column = context.getImageData(3, 0, 1, image.height).data;
  const below = Math.ceil(document.querySelector(".topbar").getBoundingClientRect().bottom) + 2;
  let largest = 0;
  let at = null;
  for (let y = below + 1; y < image.height; y += 1) {
    const change = (channel) => Math.abs(column[4 * y + channel] - column[4 * (y - 1) + channel]);
    const step = change(0) + change(1) + change(2);
    if (step > largest) [largest, at] = [step, y];
  }
  return { largest, at, height: image.height };
}"""


def test_the_lobby_is_whole_on_a_phone_and_its_background_has_no_seam(slow_server: Server, browser: Browser) -> None:
    """390×844: the wallets hold their words ("coins", "Level 4") and the rooms their names;
    at both sizes the lobby, taller than the window, is painted without a hard seam."""
    import base64

    player = Player(browser, slow_server, PHONE).sign_in("Phone lobby").in_lobby()
    page = player.page
    assert page.evaluate(LOBBY_OVERFLOWS) == []
    for viewport in (PHONE, DESKTOP):
        page.set_viewport_size(viewport)
        assert page.evaluate("document.documentElement.scrollHeight") > viewport["height"] * 1.5
        page.evaluate(f"window.scrollTo(0, {viewport['height'] // 2})")  # the window's height now mid-screen
        picture = "data:image/png;base64," + base64.b64encode(page.screenshot()).decode()
        edge = page.evaluate(LARGEST_STEP_DOWN_THE_EDGE, picture)
        assert edge["largest"] <= 6, (viewport, edge)
    player.close()


def test_qianbian_a_bot_leads_the_flip_card_is_shown_the_bots_named_and_the_direction_cued(
    tmp_path: Path, browser: Browser
) -> None:
    """C1.3, C1.4, C8: in a 千变 room where a bot holds the flip card (the seed deals it so) the
    page shows the flip card in the message lane, who leads, and that the other copy's holder
    is their partner; every bot is named on its seat as messages name it ("Bot (left)"), and
    a cue says that play goes counter-clockwise (C1.1), covering no card, seat, button or message;
    at 390×844 as at 1280×800 the top bar's room title and every seat's name are whole."""
    with run_server(tmp_path / "flip", NEWCOMER_ROOMS, seed=1, bot_delay=1.0) as seeded:
        player = Player(browser, seeded).sign_in("Flipped").in_lobby()
        page = player.page
        page.add_init_script(RECORD_MESSAGES)
        page.reload()
        player.in_lobby()
        player.play_bots("qianbian")
        page.wait_for_function("() => window.toldWords.some((words) => words.startsWith('Flip card'))")
        told = next(words for words in page.evaluate("window.toldWords") if words.startswith("Flip card"))
        leader = page.evaluate("window.shuangkou.state.table.game.leader")
        assert leader != player.seat(), "a bot leads"
        where = page.evaluate(f"document.querySelector('[data-seat=\"{leader}\"]').id")
        bot = {"seat-left": "Bot (left)", "seat-right": "Bot (right)", "seat-opp": "Bot (opposite)"}[where]
        assert f"{bot} holds the flip card and leads." in told and f"is {bot}'s partner" in told, told
        for seat in range(4):
            if seat != player.seat():
                name = page.inner_text(f"[data-testid=seat-name-{seat}]")
                assert name.startswith("Bot (") and name == page.evaluate(
                    f"import('/render/common.js').then(m => m.seatName(window.shuangkou.state, {seat}))"
                )
        cue = page.locator("[data-testid=play-direction]")
        assert "Play goes counter-clockwise" in cue.inner_text()
        assert "to the seat on your right" in (cue.get_attribute("title") or "")
        player.wait_turn()
        page.keyboard.press("h")  # the hint's words under the game, over the felt's foot
        page.wait_for_selector("#play-message:text-matches('^Hint 1/')")
        for viewport in (DESKTOP, PHONE):
            page.set_viewport_size(viewport)
            hits = page.evaluate(
                OVERLAPS,
                ["#play-direction", "#view-table .card, #view-table .seat, #view-table button, #play-message, #lane"],
            )
            assert hits["mine"] == 1 and hits["hits"] == [], (viewport, hits)
            assert page.evaluate(CUT_WORDS) == [], viewport
        player.close()


# Words of the table cut short: the room's title in the top bar, a seat's name.
CUT_WORDS = """() => [...document.querySelectorAll(".topbar-info .room-title, [data-testid^=seat-name-]")]
  .filter((node) => node.getClientRects().length && node.scrollWidth > node.clientWidth + 1)
  .map((node) => node.textContent)"""
