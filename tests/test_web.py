"""The browser client (``src/shuangkou/web``) in a real Chromium against a real server.

Each module run starts ``shuangkou serve`` as a subprocess on a free port, with its own
data directory, rooms with short timers where a test waits for them, a small bot delay
and an operator token, and drives Debian's Chromium through Playwright. The tests act as
a player would: they type a name, click rooms, press keys (H = hint, Enter = play) and
read what the page shows. Balances shown on the result screen are checked against the
server's ledger (operator API).

Skipped, with the reason, only when /usr/bin/chromium is missing (``scripts/test.sh``
installs it on a fresh machine).
"""

from __future__ import annotations

import contextlib
import os
import re
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason="the browser tests need Debian's Chromium at /usr/bin/chromium (apt-get install chromium)",
)

from playwright.sync_api import Browser, Page, sync_playwright  # noqa: E402

from shuangkou.server.process import ServerProcess as Server  # noqa: E402
from shuangkou.server.process import free_port  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
# The README's pictures: rewritten when SHUANGKOU_SCREENSHOTS=1, otherwise taken into a
# temporary folder so a test run leaves the work tree as it was.
README_SCREENSHOTS = ROOT / "docs" / "screenshots"
OPERATOR = "web-test-operator"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}

# Room files: timers a test does not wait for are long; "blitz" has a short turn timer.
ROOMS = {
    "points": 'edition = "points"\n[timers]\nturn_seconds = 30\nready_seconds = 120\n',
    "wealth": 'edition = "wealth"\n[timers]\nturn_seconds = 30\nready_seconds = 120\n',
    "blitz": 'edition = "points"\nname = "Blitz"\n[timers]\nturn_seconds = 0.8\nmax_timeouts = 3\n'
    "ready_seconds = 120\n",
    "hosted": 'edition = "points"\nname = "Hosted"\n[timers]\nturn_seconds = 30\nready_seconds = 120\n'
    '[escape]\nescape_mode = "host"\n',
    # A quick-match table offers bots to a player who waited bot_fill_seconds (R11.3).
    "patient": 'edition = "points"\nname = "Patient"\n[timers]\nturn_seconds = 30\nready_seconds = 120\n'
    "bot_fill_seconds = 0.5\n",
    # RULES-CLASSIC: four seats in two teams (the shipped classic room's rules, long timers).
    "classic": 'edition = "points"\nname = "Classic room"\n[rules]\nwild_jokers = "none"\nthree_joker_bomb = false\n'
    '[timers]\nturn_seconds = 30\nready_seconds = 120\n[escape]\nescape_mode = "host"\n[table]\nseats = 4\n',
    # The same four seats where an escape ends the game at once (C6.2), with a table fee.
    "classic_settle": 'edition = "points"\nname = "Classic, settled at once"\n[rules]\nwild_jokers = "none"\n'
    'three_joker_bomb = false\n[timers]\nturn_seconds = 30\nready_seconds = 120\n[house]\ntable_fee = 10\n'
    '[escape]\nescape_mode = "settle"\n[table]\nseats = 4\n',
}


# ---------------------------------------------------------------------------
# A real server


def ledger(server: Server, game_id: str) -> list[dict[str, Any]]:
    """The ledger rows of one game, from the operator API."""
    entries: list[dict[str, Any]] = server.get(f"/api/admin/ledger?game={game_id}")["entries"]
    return entries


# The replay viewer's step: its index and kind, and every seat's cards then (any game).
REPLAY_NOW = """() => ({
  index: +document.querySelector("#page-replay [data-testid=replay-step]").dataset.index,
  kind: document.querySelector("#page-replay [data-testid=replay-now]").dataset.kind,
  hands: Object.fromEntries([...document.querySelectorAll("#page-replay [data-testid=replay-seat]")]
    .map((node) => [node.dataset.seat, node.dataset.cards])),
})"""


def cards(text: str) -> Counter[str]:
    """A hand's cards, counted."""
    return Counter(text.split())


def seats_cards(hands: dict[str, str]) -> dict[int, Counter[str]]:
    """The cards of each seat of a replay step, counted."""
    return {int(seat): cards(held) for seat, held in hands.items()}


def open_replay_from_result(page: Page) -> None:
    """Click the result's replay link and wait for the replay, loaded afresh, at its first
    step: until the page follows the new address, the DOM still holds the replay last shown
    and the keys still go to the table."""
    page.click("#result-card [data-testid=result-replay]")
    page.wait_for_function("""() => document.body.dataset.page === "replay"
      && document.querySelector("#page-replay [data-testid=replay-step]")?.dataset.index === '0'""")


def step_replay(page: Page, key: str, index: int) -> dict[str, Any]:
    """Press a replay key and wait for step ``index``; returns that step (``REPLAY_NOW``)."""
    page.keyboard.press(key)
    page.wait_for_function(f"""() => document.querySelector("#page-replay [data-testid=replay-step]")
      ?.dataset.index === '{index}'""")
    now: dict[str, Any] = page.evaluate(REPLAY_NOW)
    return now


def check_replay_from_result(server: Server, page: Page, game_id: str, hands_at_end: list[str]) -> dict[str, Any]:
    """Open the game's replay from its result: the deal shows every hand as the record dealt
    it, the last step every hand as ``hands_at_end`` and the settlement with the ledger's
    balances; Back returns to the result. Returns the last step (``REPLAY_NOW``)."""
    record = server.get(f"/api/games/{game_id}")
    open_replay_from_result(page)
    start = page.evaluate(REPLAY_NOW)
    assert start["index"] == 0 and start["kind"] == "deal"
    assert seats_cards(start["hands"]) == dict(enumerate(map(cards, record["hands"])))
    page.click("#page-replay [data-testid=replay-end]")
    page.wait_for_selector("#page-replay [data-testid=replay-result] [data-testid=result-title]")
    end: dict[str, Any] = page.evaluate(REPLAY_NOW)
    assert seats_cards(end["hands"]) == dict(enumerate(map(cards, hands_at_end)))
    for entry in ledger(server, game_id):
        if entry["seat"] is not None:
            shown = page.inner_text(f"#page-replay [data-testid=after-{entry['seat']}]")
            assert amount(shown) == entry["balance_after"]
    page.click("#page-replay [data-page-back]")
    page.wait_for_selector("[data-testid=next-game]")
    return end


def leave_hosted_to_the_end(server: Server, player: Player) -> tuple[int, int, dict[str, Any]]:
    """Leave a game of four or five seats mid-game in a room whose escapes are hosted to the
    end (C6.1, Y8.4, T11.5): the dialog states the penalty, charged when the game ends, and
    the lobby says so; hosting and the bots finish the game, the leaver's ledger change is
    the settlement's, and the lobby then shows the ledger's balance. Returns the seat left,
    the penalty the dialog stated and the game's settlement, for the game's own checks of
    the penalty."""
    page = player.page
    page.wait_for_function("() => Boolean(window.shuangkou.state.table?.escape_cost)")
    view = page.evaluate("window.shuangkou.state.table")
    game_id, seat, cost = view["game_id"], view["you"], view["escape_cost"]
    assert cost["mode"] == "host" and cost["penalty"] > 0, cost
    penalty = f"{cost['penalty']:,} "
    page.click("[data-testid=leave]")
    dialog = page.locator("dialog[data-testid=escape-dialog]")
    dialog.wait_for()
    assert "hosting plays your cards to the end" in dialog.inner_text() and penalty in dialog.inner_text()
    total = page.inner_text("[data-testid=escape-total]")
    assert total.startswith("Charged when the game ends: the escape penalty of") and penalty in total
    page.click("#dlg-confirm-ok")
    player.in_lobby()
    report = page.locator("[data-testid=escape-report]")
    report.wait_for()
    assert "You left the game" in report.inner_text() and penalty in report.inner_text()
    wait_until(lambda: bool(ledger(server, game_id)), 90, "the hosted game's settlement in the ledger")
    account = player.account()["id"]
    entry = next(entry for entry in ledger(server, game_id) if entry["account"] == account)
    assert entry["seat"] == seat
    balance = f"[data-testid=balance-{entry['edition']}]"
    wait_until(lambda: amount(page.inner_text(balance)) == entry["balance_after"], 10, "the lobby's balance after")
    settlement: dict[str, Any] = server.get(f"/api/games/{game_id}")["settlement"]
    assert settlement["deltas"][seat] == entry["delta"]
    return seat, cost["penalty"], settlement


@contextlib.contextmanager
def run_server(
    directory: Path,
    rooms: dict[str, str] | None,
    port: int | None = None,
    seed: int | None = None,
    bot_delay: float = 0.05,
) -> Iterator[Server]:
    """``shuangkou serve`` in a subprocess; rooms None means the shipped rooms; a seed deals
    the n-th game with seed + n. Fails the test if the server logged an error."""
    arguments = ["--bot-delay", str(bot_delay)] + ([] if seed is None else ["--seed", str(seed)])
    if rooms is not None:
        room_dir = directory / "rooms"
        room_dir.mkdir(parents=True, exist_ok=True)
        for name, text in rooms.items():
            (room_dir / f"{name}.toml").write_text(text)
        arguments += ["--rooms", str(room_dir)]
    with Server(directory / "data", operator_token=OPERATOR, extra_args=arguments, port=port) as server:
        yield server
    log = server.log_path.read_text(errors="replace").splitlines()
    problems = [line for line in log if '"level": "ERROR"' in line or "Traceback" in line]
    assert not problems, "the server logged errors:\n" + "\n".join(problems)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with run_server(tmp_path_factory.mktemp("web-server"), ROOMS) as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


# ---------------------------------------------------------------------------
# Acting as a player


# Press H through every hint (the counter says how many), then on to the one that selected
# the most cards. Key presses are dispatched in the page, as the keyboard would.
CYCLE_TO_LARGEST_HINT = """() => {
  const press = () => document.dispatchEvent(new KeyboardEvent("keydown", { key: "h", bubbles: true }));
  const selected = () => document.querySelectorAll("#hand .card.selected").length;
  const total = Number(document.querySelector("#hint-count").textContent.split("/")[1]);
  let best = 1, most = selected();
  for (let index = 2; index <= total; index += 1) {
    press();
    if (selected() > most) { best = index; most = selected(); }
  }
  if (total > 1) press();
  for (let index = 1; index < best; index += 1) press();
}"""


class Player:
    """One browser context: a person at the page."""

    def __init__(self, browser: Browser, server: Server, viewport: dict[str, int] = DESKTOP) -> None:
        self.context = browser.new_context(viewport=viewport, locale="en-US", device_scale_factor=1)
        self.page: Page = self.context.new_page()
        self.server = server
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("console", self._console)
        self.page.set_default_timeout(15000)

    def _console(self, message: Any) -> None:
        # A refused connection while the server restarts is expected; any other error is not.
        if message.type == "error" and "ERR_CONNECTION_REFUSED" not in message.text:
            self.errors.append(message.text)

    def close(self) -> None:
        assert not self.errors, f"errors in the page: {self.errors}"
        self.context.close()

    # -- lobby --

    def sign_in(self, name: str, path: str = "/") -> Player:
        self.page.goto(self.server.url + path)
        self.page.fill("#login-name", name)
        self.page.click("#login-go")
        return self

    def in_lobby(self) -> Player:
        self.page.wait_for_selector("#view-lobby:not([hidden]) .room")
        return self

    def join(self, room: str, action: str) -> None:
        self.page.click(f".room[data-room={room}] [data-action={action}]")

    def ready(self) -> None:
        self.page.click("[data-testid=ready]")

    def play_bots(self, room: str) -> None:
        """Join by "Play a bot" ("Play with bots" at four seats): the page says Ready by
        itself, and the game starts with no click on Ready."""
        self.join(room, "bot")
        self.wait_playing()

    @property
    def token(self) -> str:
        token: str = self.page.evaluate("localStorage.getItem('shuangkou.token')")
        return token

    def account(self) -> dict[str, Any]:
        account: dict[str, Any] = self.server.get("/api/me", self.token)
        return account

    # -- table --

    def attr(self, name: str) -> str:
        return self.page.get_attribute("#view-table", f"data-{name}") or ""

    def wait_playing(self) -> None:
        self.page.wait_for_selector("#view-table[data-phase=playing]")

    def reload_into_a_game(self) -> None:
        """Reload the page and be back in a game being played. Leaving the page hosts our seat
        at once (R11.5) and the bots move quickly, so the game may end before the page is
        back: then the next one is dealt (the bots are always ready)."""
        self.page.reload()
        self.page.wait_for_selector("#view-table[data-phase=playing], #result-card [data-testid=result-title]")
        if self.attr("phase") != "playing":
            self.page.click("[data-testid=next-game]")
            self.wait_playing()

    def wait_turn(self, timeout: float = 30000) -> None:
        self.page.wait_for_selector("#view-table[data-turn=me]", timeout=timeout)

    def my_turn(self) -> bool:
        return self.attr("turn") == "me" and self.attr("phase") == "playing"

    def seat(self) -> int:
        return int(self.page.get_attribute("#seat-me", "data-seat") or "0")

    def hand(self) -> list[str]:
        cards: list[str] = self.page.eval_on_selector_all("#hand .card", "nodes => nodes.map(n => n.dataset.card)")
        return cards

    def selected(self) -> list[str]:
        cards: list[str] = self.page.eval_on_selector_all(
            "#hand .card[aria-selected=true]", "nodes => nodes.map(n => n.dataset.key)"
        )
        return cards

    def take_turn(self, most: bool = False) -> None:
        """Press H (the first hint: a combination, or the pass when the partner's play
        stands) and Enter (play it, or pass). With ``most``, H is pressed on through the hints
        to the one that plays the most cards (games end sooner)."""
        seq = self.attr("seq")
        self.page.keyboard.press("h")
        self.page.wait_for_function("() => window.shuangkou.state.hintApplied !== null")
        if most:
            self.page.evaluate(CYCLE_TO_LARGEST_HINT)
        self.page.keyboard.press("Enter")
        self.page.wait_for_function(f"() => document.querySelector('#view-table').dataset.seq !== '{seq}'")

    def result_shown(self) -> bool:
        return self.page.is_visible("#result-card [data-testid=result-title]")


def rank_of(card: str) -> str:
    """The rank of a card string: "10H" → "10", "SJ" → "SJ"."""
    return card if card in ("SJ", "BJ") else re.sub(r"[SHCD]$", "", card)


def amount(text: str) -> int:
    """A number as the page prints it: "1,060 points", "−60", "+120 coins"."""
    match = re.search(r"[-−+]?\s?\d[\d,]*", text.replace("\u2212", "-"))
    assert match, f"no amount in {text!r}"
    return int(match.group(0).replace(",", "").replace(" ", "").replace("+", ""))


def play_out(players: list[Player], limit: float = 60.0) -> None:
    """Every player whose turn it is takes it (hint + Enter) until all see the result."""
    deadline = time.monotonic() + limit
    while not all(player.result_shown() for player in players):
        assert time.monotonic() < deadline, "the game did not finish in time"
        acted = False
        for player in players:
            if player.my_turn() and not player.result_shown():
                player.take_turn(most=True)
                acted = True
        if not acted:
            time.sleep(0.03)


def check_result_against_ledger(server: Server, player: Player) -> str:
    """The result screen's numbers for this player equal the ledger's; returns the game id."""
    page = player.page
    game_id = page.get_attribute("#result-card", "data-game-id") or ""
    assert game_id
    account = player.account()
    entries = {entry["account"]: entry for entry in ledger(server, game_id)}
    entry = entries[account["id"]]
    seat = player.seat()
    assert amount(page.inner_text(f"[data-testid=after-{seat}]")) == entry["balance_after"]
    assert amount(page.inner_text(f"[data-testid=delta-{seat}]")) == entry["delta"]
    assert amount(page.inner_text("[data-testid=my-delta]")) == entry["delta"]
    assert account["balances"][entry["edition"]] == entry["balance_after"]
    for other, other_entry in entries.items():
        if other != account["id"] and other_entry["seat"] is not None:  # seat None: the house
            other_seat = other_entry["seat"]
            assert amount(page.inner_text(f"[data-testid=after-{other_seat}]")) == other_entry["balance_after"]
    return game_id


def wait_until(condition: Callable[[], bool], timeout: float = 10.0, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


# ---------------------------------------------------------------------------
# Tests


def test_lobby_guest_account_and_language_switch(server: Server, browser: Browser) -> None:
    ana = Player(browser, server).sign_in("Ana").in_lobby()
    page = ana.page
    token = ana.token
    assert token, "the session token is kept in localStorage"
    me = ana.account()
    assert page.inner_text("#lobby-greeting").startswith("Welcome, Ana")
    assert amount(page.inner_text("[data-testid=balance-points]")) == me["balances"]["points"]
    assert amount(page.inner_text("[data-testid=balance-wealth]")) == me["balances"]["wealth"]
    assert page.inner_text("[data-testid=level-points]") == f"Level {me['levels']['points']}"
    rooms = page.eval_on_selector_all(".room", "nodes => nodes.map(n => n.dataset.room)")
    assert sorted(rooms) == sorted(ROOMS)
    assert "5–800 match points" in page.inner_text(".room[data-room=points]")
    assert "100 coins" in page.inner_text(".room[data-room=wealth]")
    # What "Stakes 5–800 match points" and "Level 5" mean, said on the page and as tooltips.
    terms = page.inner_text("[data-testid=lobby-terms]")
    assert "Match points (底分) are the stake of a game" in terms and "Your level (Level N)" in terms
    assert page.get_attribute("[data-testid=stakes-points]", "title") == (
        "Each game here is played for 5 to 800 match points, set by the lowest level at the table."
    )
    assert "from your balance" in (page.get_attribute("[data-testid=level-points]", "title") or "")

    # How the page names combinations the server has read, and what a joker stands for.
    described = page.evaluate(DESCRIBE_COMBOS)
    assert described == [
        "Straight 5–9",
        "Pair run 3–5",
        "5-card bomb of Q",
        "Three-joker bomb",
        "4-phase 3-serial bomb 4–6",
        ["9"],
        ["5"],
    ]
    dictionaries = page.evaluate("import('/i18n.js').then(m => m.dictionaries)")
    assert set(dictionaries["en"]) == set(dictionaries["zh"]), "every string exists in both languages"

    page.click("[data-lang=zh]")
    assert page.inner_text("#lobby-title") == "游戏大厅"
    assert page.inner_text(".room[data-room=points] [data-action=quick]") == "快速匹配"
    assert page.get_attribute("html", "lang") == "zh-CN"
    _assert_no_english(page, dictionaries)
    assert "底分是一局的赌注" in page.inner_text("[data-testid=lobby-terms]")
    assert "5 到 800 分" in (page.get_attribute("[data-testid=stakes-points]", "title") or "")

    page.reload()  # the language and the session survive a reload
    ana.in_lobby()
    assert page.inner_text("#lobby-title") == "游戏大厅"
    assert ana.token == token

    ana.play_bots("points")
    assert page.inner_text("#btn-play").startswith("出牌")
    assert page.inner_text("#btn-pass").startswith("不要")
    assert page.inner_text("#btn-hint").startswith("提示")
    labels = page.eval_on_selector_all("#hand .card", "nodes => nodes.map(n => n.getAttribute('aria-label'))")
    assert len(labels) == 27 and all(label and not re.search(r"[a-z]{3}", label) for label in labels), labels
    _assert_no_english(page, dictionaries)

    page.click("[data-lang=en]")
    assert page.inner_text("#btn-play").startswith("Play")
    assert page.get_attribute("#hand", "aria-label") == "Your hand"
    ana.close()


DESCRIBE_COMBOS = """() => import('/cards.js').then(({ describeCombo, jokerMarks, parseCards }) => {
  const combos = [
    { kind: "straight", length: 5, top: "9", phase: 0, cards: "5 6 7 8 SJ", reading: "5 6 7 8 9", stands_for: ["9"] },
    { kind: "pair_run", length: 3, top: "5", phase: 0, cards: "3 3 4 4 5 BJ", reading: "3 3 4 4 5 5",
      stands_for: ["5"] },
    { kind: "bomb", length: 1, top: "Q", phase: 5, cards: "Q Q Q Q BJ", reading: "Q Q Q Q Q", bomb: true, width: 5,
      stands_for: ["Q"] },
    { kind: "joker_bomb", length: 1, top: "BJ", phase: 6, cards: "SJ SJ BJ", reading: "SJ SJ BJ", bomb: true, width: 3,
      stands_for: [] },
    { kind: "serial_bomb", length: 3, top: "6", phase: 7, cards: "4 4 4 4 5 5 5 5 6 6 6 6",
      reading: "4 4 4 4 5 5 5 5 6 6 6 6", bomb: true, width: 4, stands_for: [] },
  ];
  return [...combos.map(describeCombo),
          jokerMarks(parseCards("5H 6S 7C 8D SJ"), combos[0]).filter(Boolean),
          jokerMarks(parseCards("3H 3S 4C 4D 5S BJ"), combos[1]).filter(Boolean)];
})"""


def _assert_no_english(page: Page, dictionaries: dict[str, dict[str, Any]], root: str = "body") -> None:
    """No English string of the dictionary is visible in Chinese mode (in ``root``)."""
    text = page.inner_text(root)
    english = dictionaries["en"]
    for key, value in english.items():
        values = list(value.values()) if isinstance(value, dict) else [value]
        for item in values:
            fixed = re.sub(r"\{\w+\}", "", item).strip()
            if len(fixed) >= 5 and re.search(r"[a-z]{4}", fixed) and item != dictionaries["zh"][key]:
                assert fixed not in text, f"untranslated {key!r} visible: {fixed!r}"


def test_two_players_by_invite_play_a_whole_game_and_balances_match_the_ledger(
    server: Server, browser: Browser
) -> None:
    host = Player(browser, server).sign_in("Host").in_lobby()
    host.join("points", "invite")
    link = host.page.input_value("[data-testid=invite-link]")
    assert "?table=" in link
    guest = Player(browser, server).sign_in("Guest", link[len(server.url) :])
    for player in (host, guest):
        player.page.wait_for_selector("[data-testid=ready]")
        assert "?table=" not in player.page.url or player is host
    host.ready()
    host.page.wait_for_selector("text=Waiting for Guest to get ready")
    guest.ready()
    for player in (host, guest):
        player.wait_playing()
        assert len(player.hand()) == 27
        assert player.page.inner_text("[data-testid=opp-count]") == "27"
        player.page.wait_for_selector("[data-testid=deal-info]")  # the flip card and who leads
    leader_text = host.page.inner_text("[data-testid=deal-info]")
    assert "lead" in leader_text
    # Both players see the turn timer of the player to act.
    to_act = host if host.my_turn() else guest
    seat = to_act.seat()
    for player in (host, guest):
        timer = player.page.locator(f"[data-testid=timer-{seat}]")
        assert timer.is_visible()
        assert 25 <= int(timer.inner_text()) <= 30

    play_out([host, guest])
    games = {check_result_against_ledger(server, player) for player in (host, guest)}
    assert len(games) == 1
    (game_id,) = games
    for player in (host, guest):
        text = player.page.inner_text("[data-testid=breakdown]")
        for label in ("Scoring phase", "Bombs", "Contribution", "Balance before", "Balance after"):
            assert label in text
        facts = player.page.inner_text(".facts")
        assert "X = " in facts and "b = " in facts and "X·a·b" in facts
    winner = host if "You win" in host.page.inner_text("[data-testid=result-title]") else guest
    assert "You lose" in (guest if winner is host else host).page.inner_text("[data-testid=result-title]")

    # Ready for the next game: a new deal.
    for player in (host, guest):
        player.page.click("[data-testid=next-game]")
    for player in (host, guest):
        player.page.wait_for_function(
            f"() => document.querySelector('#view-table').dataset.gameId !== '{game_id}'"
            " && document.querySelector('#view-table').dataset.phase === 'playing'"
        )
        assert len(player.hand()) == 27
        assert player.page.is_hidden("#result")
    host.close()
    guest.close()


def test_keys_act_on_the_game_whatever_was_clicked_last_and_esc_restarts_the_hints(
    tmp_path: Path, browser: Browser
) -> None:
    """Issue #43: after clicking Hosting (on, then off), the tracker and the sound switch,
    H selects the first hint and Enter plays it: it presses none of those buttons again.
    Esc clears the selection and starts the hint cycle again. (Bots and hosting act after a
    second here, so that the game outlasts hosting's few seconds on a busy machine.)"""
    with run_server(tmp_path / "keys", ROOMS, bot_delay=1.0) as slow:
        check_keys_after_clicks(Player(browser, slow).sign_in("Keys").in_lobby())


def check_keys_after_clicks(player: Player) -> None:
    page = player.page
    player.play_bots("points")
    page.click("#btn-hosting")
    page.wait_for_selector("#btn-hosting[aria-pressed=true]")
    page.click("#btn-hosting")
    page.wait_for_selector("#btn-hosting[aria-pressed=false]")
    page.click("#btn-tracker")
    page.click("#btn-sound")
    clicked = {"tracker": page.is_visible("#tracker"), "sound": page.get_attribute("#btn-sound", "aria-pressed")}
    player.wait_turn()
    page.wait_for_function("() => window.shuangkou.state.moves?.seq === window.shuangkou.state.table.seq")
    for _ in range(2):
        page.keyboard.press("h")
    assert page.inner_text("#hint-count").startswith("2/")
    page.keyboard.press("Escape")
    assert player.selected() == [] and page.inner_text("#hint-count") == ""
    page.keyboard.press("h")
    assert page.inner_text("#hint-count").startswith("1/") and player.selected()
    seq = player.attr("seq")
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => document.querySelector('#view-table').dataset.seq !== '{seq}'")
    assert page.get_attribute("#btn-hosting", "aria-pressed") == "false"
    shown = {"tracker": page.is_visible("#tracker"), "sound": page.get_attribute("#btn-sound", "aria-pressed")}
    assert shown == clicked
    assert not page.evaluate("() => window.shuangkou.state.table.game.hosting.some(Boolean)")
    player.close()


def test_bot_game_hint_cycling_selection_illegal_play_and_a_whole_game(server: Server, browser: Browser) -> None:
    ana = Player(browser, server).sign_in("Solo").in_lobby()
    page = ana.page
    ana.play_bots("points")
    ana.wait_turn()

    # Hint cycles weakest-first through the server's moves (they came with the state of
    # Ana's turn, its ``moves``) and selects their cards.
    page.keyboard.press("h")
    page.wait_for_selector("#hint-count:text-matches('^1/')")
    total = int(page.inner_text("#hint-count").split("/")[1])
    picks = [ana.selected()]
    assert picks[0]
    assert "Hint 1/" in page.inner_text("#play-message")
    for index in range(2, min(total, 3) + 1):
        page.keyboard.press("h")
        page.wait_for_selector(f"#hint-count:text-is('{index}/{total}')")
        picks.append(ana.selected())
    assert len({tuple(sorted(pick)) for pick in picks}) == len(picks), "each hint selects another move"
    page.keyboard.press("Escape")
    assert ana.selected() == []

    # Selection by click, by dragging across cards, and by keyboard.
    cards = page.locator("#hand .card")
    cards.nth(0).click()
    assert len(ana.selected()) == 1
    cards.nth(0).click()
    assert ana.selected() == []
    first, fourth = cards.nth(0).bounding_box(), cards.nth(3).bounding_box()
    assert first and fourth
    page.mouse.move(first["x"] + 6, first["y"] + first["height"] / 2)
    page.mouse.down()
    page.mouse.move(fourth["x"] + 6, fourth["y"] + fourth["height"] / 2, steps=6)
    page.mouse.up()
    assert len(ana.selected()) == 4, "dragging across four cards selects them"
    page.keyboard.press("Escape")
    cards.nth(0).focus()
    page.keyboard.press("Space")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Space")
    assert len(ana.selected()) == 2
    page.keyboard.press("Escape")
    top_rank = page.get_attribute("#hand .card >> nth=-1", "data-card") or ""
    rank = rank_of(top_rank)
    key = {"10": "0", "SJ": "x", "BJ": "d"}.get(rank, rank.lower())
    page.keyboard.press(key)
    assert [rank_of(k.split("#")[0]) for k in ana.selected()] == [rank]
    page.keyboard.press("Escape")

    # Two cards of different ranks (no joker) are no combination: the server says so.
    hand = ana.hand()
    naturals = [(i, c) for i, c in enumerate(hand) if c not in ("SJ", "BJ")]
    low_index, low = naturals[-1]
    high_index = next(i for i, c in naturals if rank_of(c) != rank_of(low))
    cards.nth(high_index).click()
    cards.nth(low_index).click()
    page.keyboard.press("Enter")
    message = page.locator("#play-message.msg-error")
    message.wait_for()
    assert message.inner_text() == "These cards are not a valid combination."
    assert ana.my_turn() and len(ana.hand()) == len(hand), "nothing was played"
    page.keyboard.press("Escape")

    play_out([ana])
    game_id = check_result_against_ledger(server, ana)
    assert "bot" in page.inner_text("[data-testid=breakdown]").lower()
    check_two_seat_result_explained(ana)
    page.click("[data-testid=next-game]")
    page.wait_for_function(
        f"() => document.querySelector('#view-table').dataset.gameId !== '{game_id}'"
        " && document.querySelector('#view-table').dataset.phase === 'playing'"
    )
    ana.close()


def test_quick_match_hosting_reload_restores_hand_table_and_timer_then_escape(server: Server, browser: Browser) -> None:
    ana = Player(browser, server).sign_in("Ana").in_lobby()
    bo = Player(browser, server).sign_in("Bo").in_lobby()
    ana.join("wealth", "quick")
    ana.page.wait_for_selector("[data-testid=waiting]")
    bo.join("wealth", "quick")  # every seat taken by quick match: each page says Ready by itself
    for player in (ana, bo):
        player.wait_playing()
    ana_seat = ana.seat()

    # Hosting: the system makes Ana's move, shown as a hosting move on both pages.
    while not ana.my_turn():
        bo.take_turn()
    ana.page.click("#btn-hosting")
    ana.page.wait_for_selector("#btn-hosting[aria-pressed=true]")
    hosted = "[data-testid=play-cause]:text('hosting'), #bubble-{who}[data-cause=hosting]"
    ana.page.wait_for_selector(hosted.format(who="me"))
    bo.page.wait_for_selector(hosted.format(who="opp"))
    for player in (ana, bo):
        assert player.page.is_visible(f"[data-testid=hosting-{ana_seat}]")
    assert bo.my_turn()
    ana.page.click("#btn-hosting")
    ana.page.wait_for_selector("#btn-hosting[aria-pressed=false]")
    ana.page.wait_for_selector(f"[data-testid=hosting-{ana_seat}]", state="detached")

    # A few plays, then stop on a state where it is Bo's turn and something is on the table.
    deadline = time.monotonic() + 20
    while True:
        assert time.monotonic() < deadline
        if ana.my_turn():
            ana.take_turn()
        elif bo.my_turn():
            if ana.page.is_visible("[data-testid=table-play]") and len(ana.hand()) < 27:
                break
            bo.take_turn()
        else:
            time.sleep(0.03)

    before_hand = ana.hand()
    before_table = ana.page.get_attribute("[data-testid=table-play]", "data-cards")
    before_opp = ana.page.inner_text("[data-testid=opp-count]")
    bo_seat = bo.seat()
    ana.page.reload()
    ana.wait_playing()
    ana.page.wait_for_selector("#view-table[data-hosting=off]")
    assert ana.hand() == before_hand
    assert ana.page.get_attribute("[data-testid=table-play]", "data-cards") == before_table
    assert ana.page.inner_text("[data-testid=opp-count]") == before_opp
    assert ana.attr("turn") == "opp"

    def same_timer() -> bool:
        mine = ana.page.get_attribute(f"[data-testid=timer-{bo_seat}]", "data-deadline")
        theirs = bo.page.get_attribute(f"[data-testid=timer-{bo_seat}]", "data-deadline")
        return mine is not None and mine == theirs

    wait_until(same_timer, 5, "the same turn deadline on both pages")
    shown = int(ana.page.inner_text(f"[data-testid=timer-{bo_seat}]"))
    assert abs(shown - int(bo.page.inner_text(f"[data-testid=timer-{bo_seat}]"))) <= 1
    assert 0 < shown <= 30

    # Leaving mid-game warns with the escape penalty and the exact total; cancelling keeps the game.
    cost = ana.page.evaluate("window.shuangkou.state.table.escape_cost")
    penalty, total = cost["penalty"], cost["charge"]
    ana.page.click("[data-testid=leave]")
    dialog = ana.page.locator("dialog[data-testid=escape-dialog]")
    dialog.wait_for()
    assert f"{penalty:,} coins" in dialog.inner_text()
    assert "already played" in dialog.inner_text()
    # R10.3: the normal loss and Bo's contribution come on top, priced by the server.
    assert total > penalty
    assert ana.page.inner_text("[data-testid=escape-total]") == f"Total charged: {total:,} coins."
    assert ana.page.inner_text("[data-testid=escape-breakdown]") == (
        f"Escape penalty {penalty:,} coins + Normal loss and contributions {total - penalty:,} coins"
    )
    ana.page.click("#dlg-confirm-cancel")
    assert ana.attr("phase") == "playing"
    ana.page.click("[data-testid=leave]")
    dialog.wait_for()
    ana.page.click("#dlg-confirm-ok")
    ana.in_lobby()

    bo.page.wait_for_selector("[data-testid=result-title]:text('Ana left the game')")
    assert "Escape penalty" in bo.page.inner_text("[data-testid=breakdown]")
    game_id = check_result_against_ledger(server, bo)
    ana_entry = next(e for e in ledger(server, game_id) if e["account"] == ana.account()["id"])
    assert ana_entry["delta"] == -total  # the dialog's figure is what the ledger charged
    wait_until(
        lambda: amount(ana.page.inner_text("[data-testid=balance-wealth]")) == ana_entry["balance_after"],
        5,
        "the lobby to show Ana's balance after the escape",
    )
    assert amount(ana.page.inner_text("[data-testid=report-penalty] dd")) == penalty
    assert amount(ana.page.inner_text("[data-testid=report-rest] dd")) == total - penalty
    assert amount(ana.page.inner_text("[data-testid=report-total] dd")) == total
    assert amount(ana.page.inner_text("[data-testid=report-balance] dd").split("→")[1]) == ana_entry["balance_after"]
    ana.close()
    bo.close()


def test_leave_before_playing_a_card_costs_exactly_the_escape_penalty(server: Server, browser: Browser) -> None:
    ana = Player(browser, server).sign_in("Quitter").in_lobby()
    start = ana.account()["balances"]["points"]
    ana.play_bots("points")
    cost = ana.page.evaluate("window.shuangkou.state.table.escape_cost")
    assert cost == {"mode": "settle", "penalty": 60 * 12, "owed": 720, "fee": 0, "charge": 720}
    ana.page.click("[data-testid=leave]")
    dialog = ana.page.locator("dialog[data-testid=escape-dialog]")
    dialog.wait_for()
    assert "escape penalty of 720 points" in dialog.inner_text()
    assert ana.page.inner_text("[data-testid=escape-total]") == "Total charged: 720 points."
    ana.page.keyboard.press("Escape")  # closes the dialog: nothing happens
    assert ana.attr("phase") == "playing"
    ana.page.click("[data-testid=leave]")
    ana.page.click("#dlg-confirm-ok")
    ana.in_lobby()
    wait_until(
        lambda: amount(ana.page.inner_text("[data-testid=balance-points]")) == start - 720,
        5,
        "the lobby balance after the escape",
    )
    assert ana.account()["balances"]["points"] == start - 720
    # What leaving charged, in the lobby: the penalty, the total and the balance before and after.
    report = ana.page.locator("[data-testid=escape-report]")
    assert "You left the table: −720 points." in report.inner_text()
    assert amount(ana.page.inner_text("[data-testid=report-penalty] dd")) == 720
    assert amount(ana.page.inner_text("[data-testid=report-total] dd")) == 720
    assert ana.page.locator("[data-testid=report-rest]").count() == 0, "nothing but the penalty"
    before, after = ana.page.inner_text("[data-testid=report-balance] dd").split("→")
    assert (amount(before), amount(after)) == (start, start - 720)
    ana.page.click("[data-testid=escape-report-close]")
    assert ana.page.is_hidden("[data-testid=escape-report]")
    ana.close()


def test_C6_2_four_seat_escape_dialog_states_what_the_ledger_charges(server: Server, browser: Browser) -> None:
    """C6.2, R9.7: at a four-seat table settled at once, the dialog states the exact total
    (the penalty D, the others' contributions and the table fee), and after leaving the
    ledger's change and the lobby's report are that figure."""
    ana = Player(browser, server).sign_in("Leaver4").in_lobby()
    start = ana.account()["balances"]["points"]
    ana.play_bots("classic_settle")
    for _ in range(2):  # a few plays first: the bots' bombs and contributions count too
        ana.wait_turn(timeout=30000)
        ana.take_turn(most=True)
    ana.wait_turn(timeout=30000)  # on Ana's turn nothing moves until she acts: the cost stands
    game_id = server_table(ana)["game_id"]
    cost = server_table(ana)["escape_cost"]
    assert cost["mode"] == "settle" and cost["fee"] == 10
    total = cost["charge"]
    assert total == cost["owed"] + 10
    ana.page.click("[data-testid=leave]")
    dialog = ana.page.locator("dialog[data-testid=escape-dialog]")
    dialog.wait_for()
    assert ana.page.inner_text("[data-testid=escape-total]") == f"Total charged: {total:,} points."
    assert "Table fee 10 points" in ana.page.inner_text("[data-testid=escape-breakdown]")
    ana.page.click("#dlg-confirm-ok")
    ana.in_lobby()
    entry = next(e for e in ledger(server, game_id) if e["account"] == ana.account()["id"])
    assert entry["delta"] == -total, "the dialog's figure is what the ledger charged"
    charged = start - ana.account()["balances"]["points"]
    assert charged == total
    ana.page.wait_for_selector("[data-testid=escape-report]")
    assert amount(ana.page.inner_text("[data-testid=report-total] dd")) == charged
    assert amount(ana.page.inner_text("[data-testid=report-fee] dd")) == 10
    before, after = ana.page.inner_text("[data-testid=report-balance] dd").split("→")
    assert (amount(before), amount(after)) == (start, start - charged)
    ana.close()


def test_escape_in_host_mode_back_to_the_lobby_then_back_to_the_hosted_seat(server: Server, browser: Browser) -> None:
    """R10.1: leaving a "host" room's game returns to the lobby while hosting plays on;
    opening the room again returns to the seat, where hosting cannot be switched off; the
    game ends and is settled normally, and the balances match the ledger."""
    ana = Player(browser, server).sign_in("Runaway").in_lobby()
    bo = Player(browser, server).sign_in("Stayer").in_lobby()
    ana.join("hosted", "quick")
    ana.page.wait_for_selector("#view-table:not([hidden])")
    bo.join("hosted", "quick")
    for player in (ana, bo):
        player.wait_playing()
    ana.page.click("[data-testid=leave]")
    dialog = ana.page.locator("dialog[data-testid=escape-dialog]")
    dialog.wait_for()
    assert "hosting plays your cards to the end" in dialog.inner_text()
    ana.page.click("#dlg-confirm-ok")
    ana.in_lobby()
    ana.page.wait_for_selector(".toast:text('Open the room again to take your seat back')")
    bo.page.wait_for_selector("#view-table[data-phase=playing]")
    # Back to the seat: the game goes on, hosted, and the hosting switch is locked.
    ana.join("hosted", "quick")
    ana.wait_playing()
    ana.page.wait_for_selector("#btn-hosting[aria-pressed=true][disabled]")
    play_out([bo])
    ana.page.wait_for_selector("#result-card [data-testid=result-title]")
    check_result_against_ledger(server, ana)
    check_result_against_ledger(server, bo)
    assert ana.page.is_visible("[data-testid=next-game]")  # still seated, for the next game
    assert bo.page.is_visible("[data-testid=opp-ready]")  # and Bo sees Ana still at the table
    ana.close()
    bo.close()


def test_turn_timer_runs_out_with_a_notice_and_hosting_after_three_timeouts(server: Server, browser: Browser) -> None:
    ana = Player(browser, server).sign_in("Slow").in_lobby()
    page = ana.page
    ana.play_bots("blitz")
    seat = ana.seat()
    page.wait_for_selector(".toast:text('You have timed out 1 time.')", timeout=10000)
    page.wait_for_selector(f"[data-testid=timeouts-{seat}]")
    # The move made for Ana is shown as a timed-out move.
    page.wait_for_selector(
        "#history .tag-cause:text('timed out'), [data-testid=play-cause]:text('timed out'),"
        " #bubble-me[data-cause=timeout]"
    )
    # The third timeout switches hosting on, which then plays the rest of the game at once.
    page.wait_for_selector(".toast:text('You have timed out 3 times.')", timeout=15000)
    page.wait_for_selector(".toast:text('Hosting switched on after too many timeouts')")
    ana.close()


def test_server_restart_mid_game_the_page_reconnects_by_itself(tmp_path: Path, browser: Browser) -> None:
    directory, port = tmp_path / "restart", free_port()
    with run_server(directory, ROOMS, port) as first:
        ana = Player(browser, first).sign_in("Phoenix").in_lobby()
        ana.play_bots("points")
        for _ in range(2):
            ana.wait_turn()
            ana.take_turn()
        ana.wait_turn()
        hand, game_id = ana.hand(), ana.attr("game-id")
    # The server stopped (SIGTERM): the page says so and keeps trying with backoff.
    ana.page.wait_for_selector("#conn-banner:not([hidden])")
    assert "Reconnecting" in ana.page.inner_text("#conn-banner")
    with run_server(directory, ROOMS, port) as second:
        ana.server = second
        ana.page.wait_for_selector("#conn-banner", state="hidden", timeout=20000)
        ana.wait_turn()
        assert ana.attr("game-id") == game_id
        assert ana.hand() == hand
        ana.take_turn()  # and the game goes on
        assert len(ana.hand()) < len(hand)
        ana.close()


# ---------------------------------------------------------------------------
# Four seats (RULES-CLASSIC)

SEAT_NODES = {"me": "#seat-me", "right": "#seat-right", "top": "#seat-opp", "left": "#seat-left"}


def seats_around(player: Player) -> dict[str, int]:
    """Which seat the page draws at each place of the table."""
    return {
        position: int(player.page.get_attribute(selector, "data-seat") or "-1")
        for position, selector in SEAT_NODES.items()
    }


def four_seat_view(player: Player) -> dict[str, Any]:
    """What a player sees of a four-seat table: places, names, sides, card counts, places
    out, the hand and the play to beat."""
    page = player.page
    view: dict[str, Any] = {"seats": seats_around(player), "hand": player.hand()}
    for position, selector in SEAT_NODES.items():
        view[position] = page.eval_on_selector(
            selector,
            """node => ({side: node.dataset.side, name: node.querySelector('.name')?.textContent,
                        count: node.querySelector('.count-badge')?.textContent ?? null,
                        tags: [...node.querySelectorAll('.tag-role, .tag-place')].map(tag => tag.textContent)})""",
        )
    view["table"] = page.get_attribute("[data-testid=table-play]", "data-cards") if page.is_visible(
        "[data-testid=table-play]"
    ) else None
    return view


def server_table(player: Player) -> dict[str, Any]:
    """The last table view the page received from the server."""
    table: dict[str, Any] = player.page.evaluate("window.shuangkou.state.table")
    return table


def check_four_seat_layout(player: Player) -> int:
    """C1.1: us at the bottom, the next seat (i + 1) on the right, the partner opposite, the
    previous seat on the left; the sides are the server's teams. Returns our seat."""
    seat = player.seat()
    assert seats_around(player) == {"me": seat, "right": (seat + 1) % 4, "top": (seat + 2) % 4, "left": (seat + 3) % 4}
    teams = server_table(player)["game"]["teams"]
    for position, selector in SEAT_NODES.items():
        other = seats_around(player)[position]
        expected = "us" if teams[other] == teams[seat] else "them"
        assert player.page.get_attribute(selector, "data-side") == expected, (position, teams)
    assert player.page.inner_text(f"[data-testid=role-{(seat + 2) % 4}]") == "Partner"
    return seat


def check_four_seat_result(server: Server, player: Player) -> str:
    """The result screen of a four-seat game: finishing order, result and title as the
    server settled it, every balance equal to the ledger. Returns the game id."""
    page = player.page
    page.wait_for_selector("#result-card [data-testid=finish-order]")
    settlement = server_table(player)["settlement"]
    shown = page.eval_on_selector_all("[data-testid=finish-order] li", "nodes => nodes.map(n => +n.dataset.seat)")
    assert shown == settlement["finish_order"]
    level = {"double": "Double (双扣)", "single": "Single (单扣)", "draw": "Draw (平扣)", "escape": "Escape (逃跑)"}
    assert page.inner_text("[data-testid=result-level]") == level[settlement["result"]]
    won = player.seat() in settlement["winners"]
    assert page.inner_text("[data-testid=result-title]") == ("Your team wins!" if won else "Your team loses")
    text = page.inner_text("[data-testid=breakdown]")
    labels = ("Finish", "Scoring phase", "Bombs", "Contribution", "Result ±X·a·b", "Net", "Balance before")
    for label in (*labels, "Balance after", "Cards still held"):
        assert label in text, label
    facts = page.inner_text(".facts")
    assert f"X = {settlement['match_points']}" in facts and f"a = {settlement['a']}" in facts and "b = " in facts
    return check_result_against_ledger(server, player)


def test_four_seats_one_player_and_three_bots_play_a_whole_game_in_both_languages(
    server: Server, browser: Browser
) -> None:
    """C1.1, C2.2, C3.2, C5.8: "Play with bots" in a four-seat room seats three bots; the page
    lays the table out around us, names places as players go out and shows the whole
    settlement; in Chinese too; Ready deals the next game."""
    solo = Player(browser, server).sign_in("Solo4").in_lobby()
    page = solo.page
    assert page.inner_text("[data-testid=seats-classic]") == "Classic (双扣), four players"
    assert page.inner_text("[data-testid=seats-points]") == "Rush (快速双扣), two players"
    assert page.inner_text(".room[data-room=classic] [data-action=bot]") == "Play with bots"
    solo.play_bots("classic")
    assert all(page.is_visible(f"{selector} .seat-info") for selector in SEAT_NODES.values()), "three bots sat down"
    seat = check_four_seat_layout(solo)
    shown, sent = page.evaluate(
        "() => [[0, 1, 2, 3].map(i => document.querySelector(`[data-testid=count-${i}]`)?.textContent ?? null),"
        " window.shuangkou.state.table.game.cards_left]"
    )
    assert shown == [None if other == seat else str(count) for other, count in enumerate(sent)]
    assert len(solo.hand()) == sent[seat]

    # Everyone plays (we press H and Enter); places appear by the seats as players go out.
    placed: dict[int, str] = {}

    def read_places() -> None:
        for node in page.query_selector_all("#view-table .seat [data-testid^=place-]"):
            placed[int((node.get_attribute("data-testid") or "").split("-")[1])] = node.inner_text()

    deadline = time.monotonic() + 120
    while not solo.result_shown():
        assert time.monotonic() < deadline, "the game did not finish in time"
        if solo.my_turn():
            solo.take_turn(most=True)
        else:
            time.sleep(0.03)
        read_places()
    read_places()
    order = server_table(solo)["settlement"]["finish_order"]
    names = ["1st out", "2nd out", "3rd out", "Last"]
    assert placed == {seat: names[index] for index, seat in enumerate(order)}, "every place by its seat"
    game_id = check_four_seat_result(server, solo)

    page.click("[data-lang=zh]")
    assert page.inner_text("[data-testid=result-level]") in ("双扣", "单扣", "平扣")
    assert page.inner_text("[data-testid=finish-order] li >> nth=0").startswith("头游")
    dictionaries = page.evaluate("import('/i18n.js').then(m => m.dictionaries)")
    page.wait_for_function("() => !document.querySelector('#lane .toast')")  # what the lane said in English has gone
    _assert_no_english(page, dictionaries, "#view-table")  # the screen reader's last words were said in English
    page.click("[data-lang=en]")

    page.click("[data-testid=next-game]")  # the bots are always ready
    page.wait_for_function(
        f"() => document.querySelector('#view-table').dataset.gameId !== '{game_id}'"
        " && document.querySelector('#view-table').dataset.phase === 'playing'"
    )
    assert page.is_hidden("#result") and len(solo.hand()) == 27
    solo.close()


def test_four_seats_quick_match_waits_with_free_seats_then_fills_with_bots(server: Server, browser: Browser) -> None:
    """A quick-match table still waiting shows its free seats in the lobby and offers "Fill
    with bots" ({"type": "bots"}); bots take every free seat, and the game starts at once (the
    page says Ready for a player who asked for a quick match)."""
    ana = Player(browser, server).sign_in("Early").in_lobby()
    ana.join("classic", "quick")
    ana.page.wait_for_selector("[data-testid=waiting]")
    assert "1 of 4 seats taken" in ana.page.inner_text("[data-testid=waiting]")
    bo = Player(browser, server).sign_in("Browser").in_lobby()
    assert bo.page.inner_text("[data-testid=free-seats-classic]") == "3 seats free"
    bo.close()
    ana.page.click("[data-testid=fill-bots]")
    ana.wait_playing()
    seats = server_table(ana)["seats"]
    assert [seat["bot"] for seat in seats] == [False, True, True, True]
    assert ana.page.is_hidden("[data-testid=fill-bots]")
    ana.page.click("[data-testid=leave]")
    ana.page.click("#dlg-confirm-ok")
    ana.in_lobby()
    ana.close()


def test_four_seats_partners_by_invite_with_two_bots_and_a_reload_mid_game(server: Server, browser: Browser) -> None:
    """Two friends at one invite table as partners (seats 0 and 2), two bots filled in by
    "Fill with bots": each sees the other opposite, on its side; a reload mid-game brings
    back the same four-seat view; both play to the result, which matches the ledger."""
    host = Player(browser, server).sign_in("Host4").in_lobby()
    host.join("classic", "invite")
    link = host.page.input_value("[data-testid=invite-link]")
    path = link[len(server.url) :]
    # Seats are taken in order: a third friend holds seat 1 until the partner has seat 2.
    filler = Player(browser, server).sign_in("Filler", path)
    filler.page.wait_for_selector("[data-testid=waiting]")
    partner = Player(browser, server).sign_in("Partner", path)
    partner.page.wait_for_selector("[data-testid=waiting]")
    filler.page.click("[data-testid=waiting] >> text=Back to the lobby")
    filler.in_lobby()
    filler.close()
    host.page.wait_for_selector("[data-testid=waiting]:has-text('2 of 4 seats taken')")
    host.page.click("[data-testid=fill-bots]")
    for player in (host, partner):
        player.page.wait_for_selector("[data-testid=ready]")
        player.ready()
    for player in (host, partner):
        player.wait_playing()
    assert (host.seat(), partner.seat()) == (0, 2)
    for player, friend in ((host, "Partner"), (partner, "Host4")):
        check_four_seat_layout(player)
        assert player.page.inner_text("#seat-opp .name") == friend
        assert player.page.get_attribute("#seat-opp", "data-side") == "us"

    # A few plays, then a reload while the host is to act (nothing moves) and a play is on the table.
    deadline = time.monotonic() + 60
    while True:
        assert time.monotonic() < deadline, "no moment to reload"
        assert not partner.result_shown(), "the game ended before a moment to reload"
        if partner.my_turn():
            partner.take_turn()
        elif host.my_turn():
            if partner.page.is_visible("[data-testid=table-play]") and len(partner.hand()) < 27:
                break
            host.take_turn()
        else:
            time.sleep(0.03)
    before = four_seat_view(partner)
    partner.page.reload()
    partner.wait_playing()
    partner.page.wait_for_function("() => document.querySelectorAll('#hand .card').length > 0")
    assert four_seat_view(partner) == before
    assert partner.page.is_visible(f"[data-testid=timer-{host.seat()}]")

    play_out([host, partner], limit=120)
    games = {check_four_seat_result(server, player) for player in (host, partner)}
    assert len(games) == 1
    host.close()
    partner.close()


# ---------------------------------------------------------------------------
# What a new player hit: readable cards, toasts and banners that hide nothing, recent plays,
# help, Ready against bots, what leaving costs, the result explained, sound


def check_two_seat_result_explained(player: Player) -> None:
    """R9.6: X, a, b and c each say what they mean (both languages); the loser's cards are
    shown (亮牌, ``game.revealed``); the whole game id can be copied for ``shuangkou replay``."""
    page = player.page
    table = server_table(player)
    settlement = table["settlement"]
    dictionaries = page.evaluate("import('/i18n.js').then(m => m.dictionaries)")
    en = dictionaries["en"]
    loser = 1 - settlement["winner"]
    revealed = table["game"]["revealed"][loser]
    assert len(revealed) == settlement["loser_cards_left"] > 0
    shown = page.get_attribute("[data-testid=loser-cards]", "data-cards") or ""
    assert shown.split() == revealed
    assert page.locator("[data-testid=loser-cards] .mini").count() == len(revealed)

    figures = dict(
        page.eval_on_selector_all(
            ".facts > div",
            "nodes => nodes.map(n => [n.querySelector('dd').textContent, n.querySelector('.why')?.textContent])",
        )
    )
    level = en[f"result.{settlement['result']}"]
    assert figures[f"X = {settlement['match_points']}"] == en["why.X"]
    assert figures[f"a = {settlement['a']}"] == en["why.a"].replace("{level}", level)
    doubling = next(why for value, why in figures.items() if value.startswith(f"b = {settlement['b']}"))
    phase = settlement["doubling_phase"]
    assert doubling == (en["why.b"].replace("{phase}", f"phase {phase}") if phase else en["why.bNone"])
    assert figures[f"X·a·b = {settlement['result_points']}"] == en["why.abX"]
    assert en["why.c"] in page.inner_text("[data-testid=breakdown]")

    game_id = page.input_value("[data-testid=game-id]")
    assert game_id == table["game_id"] == page.get_attribute("#result-card", "data-game-id") and len(game_id) == 32
    page.click(".game-id button")
    page.wait_for_selector(".toast:text('Game id copied.')")

    page.click("[data-lang=zh]")
    whys = page.eval_on_selector_all(".facts .why", "nodes => nodes.map(n => n.textContent)")
    assert whys[0] == dictionaries["zh"]["why.X"] and all(re.search(r"[\u4e00-\u9fff]", why) for why in whys)
    page.click("[data-lang=en]")


# Every corner index of the hand: the top-left one of each card is its own and covered by no
# other card; a bottom-right one is either the card's own (the last of a row) or hidden
# under the cards drawn after it, never painted over them.
HAND_INDEXES = """() => {
  const cards = [...document.querySelectorAll("#hand .card")];
  const inside = (box, x, y, by = 0) =>
    x >= box.left - by && x <= box.right + by && y >= box.top - by && y <= box.bottom + by;
  // Within a pixel of a card's edge, what the page paints and what it hits are snapped to
  // whole pixels: there the painting is not judged, only whether the index is covered.
  const atEdge = (box, x, y) => inside(box, x, y, 1) && !inside(box, x, y, -1);
  const problems = [];
  cards.forEach((card, index) => {
    for (const corner of card.querySelectorAll(".corner")) {
      const box = corner.getBoundingClientRect();
      const where = corner.classList.contains("tl") ? "top-left" : "bottom-right";
      const points = [
        [(box.left + box.right) / 2, (box.top + box.bottom) / 2],
        [box.right - 1, box.top + 1],
        [box.left + 1, box.bottom - 1],
      ];
      for (const [x, y] of points) {
        const above = cards.slice(index + 1).find((other) => inside(other.getBoundingClientRect(), x, y));
        const hit = document.elementFromPoint(x, y)?.closest(".card");
        const name = `${card.dataset.card} (card ${index})`;
        if (where === "top-left" && above) problems.push(`${name}: its index is under ${above.dataset.card}`);
        else if (cards.slice(index + 1).some((other) => atEdge(other.getBoundingClientRect(), x, y))) continue;
        else if (!above && hit !== card) problems.push(`${name}: ${hit?.dataset.card} shows at its ${where} index`);
        else if (above && hit === card) problems.push(`${name}: its ${where} index painted over ${above.dataset.card}`);
      }
    }
  });
  return { cards: cards.length, rows: document.querySelectorAll("#hand .hand-row").length, problems };
}"""

# Whether the rectangles of two sets of elements meet.
OVERLAPS = """([mine, theirs]) => {
  const meet = (a, b) =>
    a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const boxes = (selector) => [...document.querySelectorAll(selector)]
    .filter((node) => node.getClientRects().length)
    .map((node) => ({ id: node.id || node.className, box: node.getBoundingClientRect() }));
  const hits = [];
  for (const one of boxes(mine)) {
    for (const other of boxes(theirs)) if (meet(one.box, other.box)) hits.push([one.id, other.id]);
  }
  return { mine: boxes(mine).length, theirs: boxes(theirs).length, hits };
}"""


def settle_hand(page: Page) -> None:
    """The hand as it rests: dealt, laid out for the width, no card raised by the mouse."""
    page.mouse.move(1, 1)
    page.wait_for_function(
        "() => document.querySelectorAll('#hand .card').length > 0"
        " && [...document.querySelectorAll('#hand .card')].every(card => card.getAnimations().length === 0)"
    )
    page.wait_for_timeout(150)


def test_every_card_of_the_hand_shows_its_own_index_at_desktop_and_phone_widths(
    server: Server, browser: Browser
) -> None:
    """A 27-card hand at 1280×800 (one row) and 390×844 (two rows), at two and at four
    seats: each card's index is readable, none painted over its neighbour's."""
    for room in ("points", "classic"):
        player = Player(browser, server).sign_in(f"Reader-{room}").in_lobby()
        player.play_bots(room)
        for viewport, rows in ((DESKTOP, 1), (PHONE, 2)):
            player.page.set_viewport_size(viewport)
            settle_hand(player.page)
            seen = player.page.evaluate(HAND_INDEXES)
            assert (seen["cards"], seen["rows"]) == (27, rows), (room, viewport)
            assert seen["problems"] == [], (room, viewport)
        player.close()


# Every kind of passing message, queued in the page's own message lane at once: toasts of
# each kind (the longest words the page says) and the banners of a bomb and of 接风.
MESSAGES = [
    {"kind": "warn", "words": "Hosting switched on after too many timeouts. Switch it off to play again."},
    {"kind": "info", "words": "Welcome back: you are playing your own cards again."},
    {"kind": "error", "words": "The game is over; its settlement is being saved. Please wait."},
    {"kind": "bomb", "banner": True, "words": ["Bomb! phase 8", "Bot (opposite): 8-card bomb of Q"]},
    {"kind": "jiefeng", "banner": True,
     "words": ["Jiefeng (接风)", "Bot (right) leads for their partner, who is out."]},
    {"kind": "info", "words": "超时次数过多，已自动托管。取消托管即可继续自己出牌。"},
]

# Queue MESSAGES and watch the lane on every frame until each has shown: how many showed at
# once, and whether one ever met a card, a seat, a button, a bubble or the play on the felt,
# left the lane or was cut. The outcome is the promise window.laneSeen.
LANE_WATCH = """(messages) => {
  const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  const meet = (a, b) =>
    a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const covered = ["#view-table .card", "#view-table .seat", "#view-table button", "#view-table .bubble",
    "#felt-center > *", ".flip-chip"].join(", ");
  window.laneSeen = (async () => {
    const { banner, toast } = await import("/dom.js");
    for (const message of messages) {
      if (message.banner) banner(message.kind, () => message.words);
      else toast(message.words, message.kind);
    }
    const lane = document.querySelector("#lane");
    const told = messages.map((message) => (message.banner ? message.words.join("") : message.words));
    const seen = []; // the words of every message shown, once per showing
    const nodes = new WeakSet();
    const problems = new Set();
    let most = 0;
    const waited = performance.now() + 30000;
    while (performance.now() < waited) {
      await frame();
      const shown = [...lane.querySelectorAll(".toast.show")];
      if (!shown.length && told.every((words) => seen.includes(words))) break; // all said, none waits
      most = Math.max(most, shown.length);
      for (const node of shown) {
        if (!nodes.has(node)) seen.push(node.textContent);
        nodes.add(node);
        const cut = node.scrollWidth > node.clientWidth + 1 || node.scrollHeight > node.clientHeight + 1;
        if (cut) problems.add(`cut: ${node.textContent}`);
        const box = node.getBoundingClientRect();
        const room = lane.getBoundingClientRect();
        const outside = box.left < room.left - 0.5 || box.right > room.right + 0.5
          || box.top < room.top - 0.5 || box.bottom > room.bottom + 0.5;
        if (outside) problems.add(`outside the lane: ${node.textContent}`);
        for (const other of document.querySelectorAll(covered)) {
          const its = other.getBoundingClientRect();
          if (its.width && its.height && meet(box, its)) problems.add(`${other.className} under ${node.textContent}`);
        }
      }
    }
    return { seen, most, problems: [...problems] };
  })();
}"""


def test_every_message_shows_alone_in_one_lane_that_covers_no_card_seat_or_control(
    tmp_path: Path, browser: Browser
) -> None:
    """Issue #43: toasts of every kind and the banners of a bomb and of 接风, all said at once,
    show one at a time in the one message lane, each whole (not cut), never over a card, a
    seat, a button, a bubble or the play on the felt, at 1280×800 and 390×844, two seats and
    four; the same words twice are said once. The server's own toasts (hosting on, then off)
    go to the same lane. Bots and hosting wait a second here, so the game cannot end meanwhile."""
    with run_server(tmp_path / "lane", ROOMS, bot_delay=1.0) as slow:
        for room in ("points", "classic"):
            player = Player(browser, slow).sign_in(f"Told-{room}").in_lobby()
            page = player.page
            player.play_bots(room)
            for viewport in (DESKTOP, PHONE):
                page.set_viewport_size(viewport)
                page.click("#btn-hosting")
                page.wait_for_selector("#btn-hosting[aria-pressed=true]")
                page.click("#btn-hosting")
                page.wait_for_selector("#btn-hosting[aria-pressed=false]")
                page.wait_for_selector("#lane .toast.show")
                page.evaluate(LANE_WATCH, MESSAGES + MESSAGES[:1])  # the first one twice
                seen = page.evaluate("() => window.laneSeen")
                told = ["".join(m["words"]) if m.get("banner") else m["words"] for m in MESSAGES]
                assert [text for text in seen["seen"] if text in told] == told, (room, viewport, seen)
                assert seen["most"] == 1 and seen["problems"] == [], (room, viewport, seen)
            player.close()


# Watch for the bomb's banner from before the bomb is played, in the page itself (the
# banner shows for 2.2 s, less than a few round trips to the browser take on a busy
# machine): once it shows, switch to 中文 and read its words, then sample it on every frame
# while it shows: whether it ever meets the play on the table (its cards with their joker
# marks, the label, the reading) or "Your lead". The outcome is the promise window.bannerSeen.
BANNER_WATCH = """() => {
  const shown = () => document.querySelector("#lane .banner-bomb.show"); // the bomb's, after what came before
  const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  const meet = (a, b) =>
    a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  window.bannerSeen = (async () => {
    const waited = performance.now() + 30000;
    while (!shown()) {
      if (performance.now() > waited) return null;
      await frame();
    }
    document.querySelector("[data-lang=zh]").click();
    const words = {
      title: shown().querySelector(".banner-title")?.textContent ?? "",
      detail: shown().querySelector(".banner-detail")?.textContent ?? "",
    };
    const hidden = new Set();
    let frames = 0;
    const end = performance.now() + 2500;
    while (performance.now() < end) {
      await frame();
      const banner = shown();
      if (!banner || Number(getComputedStyle(banner).opacity) < 0.05) continue;
      frames += 1;
      const box = banner.getBoundingClientRect();
      const lane = document.querySelector("#lane").getBoundingClientRect();
      if (box.top < lane.top - 0.5 || box.bottom > lane.bottom + 0.5) hidden.add("outside the lane");
      const play = ["card", "play-label", "play-reading", "round-info p"].map((part) => `#felt-center .${part}`);
      for (const node of document.querySelectorAll(play.join(", "))) {
        if (meet(box, node.getBoundingClientRect())) hidden.add(node.className);
      }
    }
    return { ...words, frames, hidden: [...hidden] };
  })();
}"""

# Press H on to the first bomb among the moves the server pushed; returns it (or null).
HINT_TO_A_BOMB = """() => {
  const moves = window.shuangkou.state.moves?.list || [];
  const index = moves.findIndex((move) => ["bomb", "joker_bomb", "serial_bomb"].includes(move.as));
  for (let press = 0; press <= index; press += 1) {
    document.dispatchEvent(new KeyboardEvent("keydown", { key: "h", bubbles: true }));
  }
  return index < 0 ? null : moves[index];
}"""


def test_a_bomb_is_announced_above_the_play_without_hiding_it_and_in_the_chosen_language(
    tmp_path: Path, browser: Browser
) -> None:
    """R4: a bomb's banner and the flash of the felt never cover the cards on the table, the
    label, the joker marks or "Your lead", at desktop and phone widths; switched to 中文
    while it shows, it speaks Chinese. The deals are seeded so that every hand holds a bomb."""
    from shuangkou import Game, legal_moves, load_config

    config = load_config("points")  # the test room "points" has the points edition's rules

    def has_bomb(hand: Any) -> bool:
        return any(move.phase for move in legal_moves(hand, None, config.rules))

    seed = next(
        seed for seed in range(50) if all(has_bomb(hand) for n in (0, 1) for hand in Game.deal(config, seed + n).hands)
    )
    with run_server(tmp_path / "bombs", ROOMS, seed=seed) as seeded:
        for viewport in (DESKTOP, PHONE):
            player = Player(browser, seeded, viewport).sign_in("Bomber").in_lobby()
            page = player.page
            player.play_bots("points")
            player.wait_turn()
            page.wait_for_function("() => window.shuangkou.state.moves?.seq === window.shuangkou.state.table.seq")
            bomb = page.evaluate(HINT_TO_A_BOMB)
            assert bomb, "the seeded hand holds a bomb"
            page.evaluate(BANNER_WATCH)
            page.keyboard.press("Enter")
            seen = page.evaluate("() => window.bannerSeen")
            assert seen is not None, "the bomb's banner showed"
            assert seen["title"].startswith("炸弹！") and "你：" in seen["detail"], seen
            assert seen["frames"] >= 3 and seen["hidden"] == [], seen  # sampled while it showed
            page.click("[data-lang=en]")
            player.close()


def test_recent_plays_scroll_to_the_oldest_and_open_on_a_phone(server: Server, browser: Browser) -> None:
    """The recent plays (every play of the game, as the server's view has them) say when more are below and scroll
    to them; on a phone a switch with their count opens them over the felt."""
    player = Player(browser, server).sign_in("Historian").in_lobby()
    page = player.page
    player.play_bots("points")
    deadline = time.monotonic() + 240
    while True:  # until our turn comes after eight plays of a game (a game that ends sooner: the next one)
        assert time.monotonic() < deadline, "our turn after eight plays"
        page.wait_for_selector("#view-table[data-turn=me], #result-card [data-testid=result-title]", timeout=30000)
        if player.result_shown():
            page.click("[data-testid=next-game]")
            player.wait_playing()
            continue
        if page.evaluate("window.shuangkou.state.table.game.plays.length") >= 8:
            break
        player.take_turn()
    plays = page.evaluate("window.shuangkou.state.table.game.plays.map(play => play.cards)")

    inside = """([outer, inner]) => {
      const a = document.querySelector(outer).getBoundingClientRect();
      const b = document.querySelector(inner).getBoundingClientRect();
      return b.top >= a.top - 1 && b.bottom <= a.bottom + 1 && b.left >= a.left - 1 && b.right <= a.right + 1;
    }"""
    assert page.evaluate(inside, ["#felt", "#history"])
    more = page.locator("#history-more")
    assert more.is_visible() and re.fullmatch(r"▾ \d+ more", more.inner_text()), "the list says more are below"
    more.click()
    page.wait_for_function(
        "() => { const list = document.querySelector('#history-list');"
        " return list.scrollTop + list.clientHeight >= list.scrollHeight - 1; }"
    )
    page.wait_for_selector("#history-more", state="hidden")
    assert page.evaluate(inside, ["#history-list", "#history-list li:last-child"]), "the oldest play in view"
    assert page.locator("#history-list li").count() == len(plays)
    assert page.get_attribute("#history-list li:last-child", "data-cards") == plays[0], "newest first, oldest last"

    page.set_viewport_size(PHONE)
    assert page.is_hidden("#history")
    toggle = page.locator("#btn-history")
    assert toggle.is_visible() and toggle.inner_text().split()[-1] == str(len(plays))
    toggle.click()
    assert page.is_visible("#history") and toggle.get_attribute("aria-expanded") == "true"
    assert page.locator("#history-list li").count() == len(plays)
    assert page.evaluate(inside, ["#felt", "#history"])
    page.eval_on_selector("#history-list", "list => { list.scrollTop = list.scrollHeight; }")
    assert page.evaluate(inside, ["#history-list", "#history-list li:last-child"])
    toggle.click()
    assert page.is_hidden("#history")
    player.close()


def test_a_reload_keeps_every_play_of_the_game_and_the_pass_of_the_round(tmp_path: Path, browser: Browser) -> None:
    """R2.4: after a reload the recent plays list every play of the game (not the last
    eight), and the opponent's pass that ended the round still shows by its seat. Bots and
    hosting wait 4 s here, so that nothing moves while the page reloads (hosting plays for
    a player whose connection dropped, R11.5)."""
    with run_server(tmp_path / "reload", ROOMS, seed=7, bot_delay=4.0) as slow:  # the same deal every run
        player = Player(browser, slow).sign_in("Reloader").in_lobby()
        page = player.page
        player.play_bots("points")
        deadline = time.monotonic() + 480
        while True:  # until, on our turn after more than eight plays, the opponent's pass shows
            assert time.monotonic() < deadline, "a pass after eight plays"
            page.wait_for_selector("#view-table[data-turn=me], #result-card [data-testid=result-title]", timeout=30000)
            if player.result_shown():  # this game ended too soon: the next one
                page.click("[data-testid=next-game]")
                player.wait_playing()
                continue
            if page.evaluate("window.shuangkou.state.table.game.plays.length") > 8 and page.is_visible("#bubble-opp"):
                break
            player.take_turn()
        plays = page.evaluate("window.shuangkou.state.table.game.plays.map(play => play.cards)")
        cause = page.get_attribute("#bubble-opp", "data-cause")
        page.reload()
        player.wait_turn()
        assert len(server_table(player)["game"]["plays"]) == len(plays), "nothing moved during the reload"
        page.wait_for_selector("#bubble-opp:not([hidden])")
        assert page.get_attribute("#bubble-opp", "data-cause") == cause
        assert page.locator("#history-list li").count() == len(plays) > 8
        assert page.get_attribute("#history-list li:last-child", "data-cards") == plays[0], "the first play of the game"
        player.close()


def test_help_keeps_its_button_in_view_and_lists_the_bomb_phases(server: Server, browser: Browser) -> None:
    """The help's button is in view and can be clicked at 1280×800 and 390×844 (the text
    scrolls above it); the help lists what phase each bomb is (R4), in both languages."""
    player = Player(browser, server).sign_in("Curious").in_lobby()
    page = player.page
    dictionaries = page.evaluate("import('/i18n.js').then(m => m.dictionaries)")
    for viewport, lang in ((DESKTOP, "en"), (PHONE, "zh")):
        page.set_viewport_size(viewport)
        page.click(f"[data-lang={lang}]")
        page.click("#btn-help")
        button = page.locator("#dlg-help .dlg-actions button")
        box = button.bounding_box()
        dialog = page.locator("#dlg-help").bounding_box()
        assert box and dialog
        bottom = box["y"] + box["height"]
        assert box["y"] >= 0 and bottom <= viewport["height"], (viewport, box)
        assert dialog["y"] <= box["y"] and bottom <= dialog["y"] + dialog["height"], (viewport, box, dialog)
        on_top = page.evaluate(
            "([x, y]) => document.elementFromPoint(x, y)?.closest('button')"
            " === document.querySelector('#dlg-help .dlg-actions button')",
            [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
        )
        assert on_top, "nothing covers the button"
        rows = page.eval_on_selector_all(
            "[data-testid=bomb-phases] tbody tr",
            "rows => rows.map(row => [row.dataset.bomb, ...[...row.children].map(cell => cell.textContent)])",
        )
        words = dictionaries[lang]
        assert rows == [[key, words[f"help.bomb.{key}"], words[f"help.bombEx.{key}"], words[f"help.bombPhase.{key}"]]
                        for key in ("n4", "n5", "n6", "j3", "j4", "nn", "serial")]
        button.click()
        page.wait_for_selector("#dlg-help", state="hidden")
    assert [row[3] for row in rows] == ["4 相", "5 相", "6 相", "6 相", "7 相", "N 相（最多 12）", "X + Y 相（7、8）"]
    page.click("[data-lang=en]")
    player.close()


def test_play_a_bot_starts_the_game_without_pressing_ready(server: Server, browser: Browser) -> None:
    """R11.4: the player asked to play against a bot, so the page says Ready by itself, once:
    the game is dealt with no click, and after it Ready is the player's to press again."""
    player = Player(browser, server).sign_in("Eager").in_lobby()
    page = player.page
    player.join("points", "bot")
    page.wait_for_selector("#view-table[data-phase=playing]", timeout=10000)  # no click on Ready
    assert page.evaluate("window.shuangkou.state.autoReady") is False, "said once"
    page.click("#btn-hosting")  # hosting plays the game out
    page.wait_for_selector("#result-card [data-testid=next-game]", timeout=60000)
    page.wait_for_timeout(500)
    assert page.is_visible("[data-testid=next-game]"), "the next game waits for Ready"
    assert player.attr("phase") == "settled"
    player.close()


def test_the_bot_level_is_said_in_the_lobby_and_by_the_bots_seat(tmp_path: Path, browser: Browser) -> None:
    """Each room says how well its bots play (its ``bot_level``), and at the table the bot's
    seat says its level, in both languages; an expert bot plays a whole game in the page."""
    rooms = {"points": ROOMS["points"], "expert": ROOMS["points"] + '[play]\nbot_level = "expert"\n'}
    with run_server(tmp_path, rooms) as server:
        ana = Player(browser, server).sign_in("Ana").in_lobby()
        page = ana.page
        assert page.inner_text("[data-testid=bot-level-points]") == "Normal"
        assert page.inner_text("[data-testid=bot-level-expert]") == "Expert"
        page.click("[data-lang=zh]")
        assert page.inner_text("[data-testid=bot-level-expert]") == "高手"
        assert page.inner_text("[data-testid=bot-level-points]") == "普通"
        page.click("[data-lang=en]")
        ana.play_bots("expert")
        bot = 1 - int(page.evaluate("window.shuangkou.state.table.you"))
        label = page.locator(f"[data-testid=bot-level-{bot}]")
        assert label.inner_text() == "Expert"
        assert label.get_attribute("title") == "This bot plays at the Expert level"
        assert page.locator(f"[data-testid=bot-level-{1 - bot}]").count() == 0, "a person's seat has no level"
        page.click("[data-lang=zh]")
        assert label.inner_text() == "高手"
        page.click("[data-lang=en]")
        page.click("#btn-hosting")  # hosting plays our seat against the expert to the end
        page.wait_for_selector("#result-card [data-testid=next-game]", timeout=120000)
        assert ana.attr("phase") == "settled"
        ana.close()


# Our action sounded: a play, a bomb, or a pass (the hint may be to pass).
ACTION_SOUNDED = "() => ['play', 'bomb', 'pass'].some((sound) => window.shuangkou.sound.played.includes(sound))"


def test_sound_switch_is_remembered_and_no_audio_is_downloaded(server: Server, browser: Browser) -> None:
    """Sounds are made in the page (Web Audio): your turn and each play sound, the mute
    switch silences them and is remembered across a reload, and no request fetches audio."""
    player = Player(browser, server).sign_in("Listener").in_lobby()
    page = player.page
    requests: list[tuple[str, str]] = []
    page.on("request", lambda request: requests.append((request.url, request.resource_type)))
    player.play_bots("points")
    player.wait_turn()
    player.take_turn()
    page.wait_for_function(ACTION_SOUNDED)
    assert "turn" in page.evaluate("window.shuangkou.sound.played")
    switch = page.locator("#btn-sound")
    assert switch.get_attribute("aria-pressed") == "true"
    switch.click()
    assert switch.get_attribute("aria-pressed") == "false"
    assert page.evaluate("localStorage.getItem('shuangkou.sound')") == "off"
    player.reload_into_a_game()
    assert page.get_attribute("#btn-sound", "aria-pressed") == "false", "remembered"
    player.wait_turn()
    player.take_turn()
    player.wait_turn()
    assert page.evaluate("window.shuangkou.sound.allowed"), "the keys pressed let the page sound"
    assert page.evaluate("window.shuangkou.sound.played") == [], "muted: nothing sounds"
    page.click("#btn-sound")
    assert page.evaluate("localStorage.getItem('shuangkou.sound')") == "on"
    page.evaluate("document.activeElement.blur()")  # Enter plays, rather than pressing the switch again
    player.take_turn()
    page.wait_for_function(ACTION_SOUNDED)
    audio = [(url, kind) for url, kind in requests
             if kind == "media" or re.search(r"\.(mp3|ogg|oga|wav|m4a|aac|flac|opus|weba)(\?|$)", url)]
    assert audio == []
    assert all(url.startswith((server.url, server.url.replace("http", "ws"))) for url, _ in requests), requests
    player.close()


def test_a_quick_match_that_waited_offers_bots(server: Server, browser: Browser) -> None:
    """A player who waited the room's bot_fill_seconds at a quick-match table is offered bots
    (the server's ``bots_offered`` notice); taking the offer seats them and the game starts."""
    player = Player(browser, server).sign_in("Patient").in_lobby()
    page = player.page
    player.join("patient", "quick")
    page.wait_for_selector("[data-testid=waiting]")
    offer = page.locator("[data-testid=bots-offer]")
    offer.wait_for(timeout=5000)
    assert "Nobody has come for the free seat." in offer.inner_text()
    assert page.is_hidden("[data-testid=fill-bots]"), "one button for the bots"
    page.reload()  # the offer still stands: the reloaded page shows it again
    offer.wait_for(timeout=5000)
    assert "Nobody has come for the free seat." in offer.inner_text()
    page.click("[data-testid=accept-bots]")
    player.wait_playing()
    assert [seat["bot"] for seat in server_table(player)["seats"]] == [False, True]
    page.click("[data-testid=leave]")
    page.click("#dlg-confirm-ok")
    player.in_lobby()
    player.close()


def settle_for_screenshot(page: Page) -> None:
    """Let animations end and clear passing messages (toasts, a bomb banner) before a picture."""
    page.wait_for_function("() => !document.querySelector('#lane .banner')", timeout=5000)
    page.evaluate("document.querySelectorAll('.toast').forEach(node => node.remove())")
    page.wait_for_timeout(250)


def screenshots(tmp_path: Path) -> tuple[Path, Callable[[Page, str], None]]:
    """The folder and ``shoot(page, name)``: the page at phone and desktop width, as ``NAME-phone.png`` and
    ``NAME.png`` in docs/screenshots/ when SHUANGKOU_SCREENSHOTS=1 is set, else in ``tmp_path``."""
    folder = README_SCREENSHOTS if os.environ.get("SHUANGKOU_SCREENSHOTS") == "1" else tmp_path / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)

    def shoot(page: Page, name: str) -> None:
        for viewport, suffix in ((PHONE, "-phone"), (DESKTOP, "")):
            page.set_viewport_size(viewport)
            settle_for_screenshot(page)
            page.screenshot(path=str(folder / f"{name}{suffix}.png"))

    return folder, shoot


def test_screenshots_for_the_readme(tmp_path: Path, browser: Browser) -> None:
    """Lobby, a game in progress and a result, each at desktop and at phone width."""
    folder, shoot = screenshots(tmp_path)

    with run_server(tmp_path / "shots", None) as shots:  # the shipped rooms
        player = Player(browser, shots).sign_in("Xiao Ming").in_lobby()
        page = player.page
        shoot(page, "lobby")
        player.play_bots("points")
        turns = 0
        while True:  # a few plays, until the bot has just played (several cards, if it will) and it is our turn
            page.wait_for_selector("#view-table[data-turn=me], #result-card [data-testid=next-game]")
            if player.result_shown():  # over already: deal again
                page.click("[data-testid=next-game]")
                player.wait_turn()
                turns = 0
            if page.is_visible("[data-testid=table-play].from-opp") and turns >= 2:
                cards = (page.get_attribute("[data-testid=table-play]", "data-cards") or "").split()
                if len(cards) >= 2 or turns >= 6:
                    break
            player.take_turn()
            turns += 1
        page.keyboard.press("h")
        page.wait_for_selector("#hint-count:text-matches('^1/')")
        shoot(page, "game")
        page.keyboard.press("Escape")
        page.click("#btn-hosting")
        page.wait_for_selector("#result-card [data-testid=result-title]", timeout=60000)
        shoot(page, "result")
        player.close()
    for name in ("lobby", "game", "result", "lobby-phone", "game-phone", "result-phone"):
        assert (folder / f"{name}.png").stat().st_size > 10_000


def test_screenshots_of_a_four_seat_game(tmp_path: Path, browser: Browser) -> None:
    """A four-seat game in progress (partner opposite, the seats' plays and passes) and its
    result, at desktop and at phone width, in the shipped classic room."""
    folder, shoot = screenshots(tmp_path)

    with run_server(tmp_path / "shots4", None) as shots:  # the shipped rooms
        player = Player(browser, shots).sign_in("Xiao Ming").in_lobby()
        page = player.page
        player.play_bots("classic")
        turns = 0
        while True:  # our turn, a play to beat from another seat, and the others' moves beside their seats
            page.wait_for_selector("#view-table[data-turn=me], #result-card [data-testid=next-game]")
            if player.result_shown():  # over already: deal again
                page.click("[data-testid=next-game]")
                player.wait_turn()
                turns = 0
            beside = page.locator(".bubble[data-seat]:not([hidden])").count()
            if turns >= 3 and page.is_visible("[data-testid=table-play].from-opp") and beside >= 2:
                break
            player.take_turn()
            turns += 1
        page.keyboard.press("h")
        page.wait_for_selector("#hint-count:text-matches('^1/')")
        shoot(page, "game4")
        page.keyboard.press("Escape")
        page.click("#btn-hosting")
        page.wait_for_selector("#result-card [data-testid=finish-order]", timeout=60000)
        shoot(page, "result4")
        player.close()
    for name in ("game4", "result4", "game4-phone", "result4-phone"):
        assert (folder / f"{name}.png").stat().st_size > 10_000
