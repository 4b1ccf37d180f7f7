"""The Tractor (升级) table in a real Chromium against a real server (docs/web.md, "The
Tractor renderer"): a person with three bots plays whole hands by the page — declaring
with the buttons the deal enables, burying by selection when dealing, following by H and
Enter — to a result checked against the ledger, at desktop and phone sizes, and the next
hand starts with the new levels (T10.5). The bottom is never in a non-dealer's page before
the end (T11.3), no card of the trick covers another's, and every card of the hand shows
its index."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page
from test_web import (
    DESKTOP,
    HAND_INDEXES,
    PHONE,
    Player,
    amount,
    check_replay_from_result,
    leave_hosted_to_the_end,
    ledger,
    open_replay_from_result,
    run_server,
    screenshots,
    step_replay,
)
from test_web import browser as browser  # the Chromium of test_web, a fixture

from shuangkou.server.process import ServerProcess as Server

# A Tractor room whose deal is quick and whose window closes soon; turns wait for the page.
ROOMS = {
    "tractor": 'game = "tractor"\nname = "Tractor"\n[deal]\ndeal_interval_ms = 15\ndeclare_window_seconds = 1\n'
    "bury_seconds = 60\n[timers]\nturn_seconds = 60\nready_seconds = 120\n",
}

# The hand's cards as the page draws them, and the bottom's cards wherever the page shows any.
HAND = "() => [...document.querySelectorAll('#tr-hand .card')].map(card => card.dataset.card)"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with run_server(tmp_path_factory.mktemp("web-tractor"), ROOMS) as running:
        yield running


def table(page: Page) -> dict[str, Any]:
    """The table view the page holds (the server's last state)."""
    view: dict[str, Any] = page.evaluate("window.shuangkou.state.table")
    return view


def phase(page: Page) -> str:
    """The hand's phase, or the table's between hands."""
    return str(page.evaluate("(() => { const t = window.shuangkou.state.table;"
                             " return t && t.phase === 'playing' && t.game ? t.game.phase : t && t.phase; })()"))


# Click the first declaration the page offers, if any (at once: the deal redraws the table).
DECLARE = """() => {
  const button = document.querySelector("[data-testid=tr-declare]:enabled");
  button?.click();
  return Boolean(button);
}"""

# Say we declare no more, if the page offers it (at once: the window closes by itself).
SAY_DONE = """() => {
  const button = document.querySelector("[data-testid=tr-done]");
  const shown = button && !button.hidden && button.offsetParent !== null;
  if (shown) button.click();
  return shown;
}"""

# The cards of the hand whose index is covered by another card (the shell's check of the
# Shuangkou hand, on the Tractor hand), and the trick's plays that meet each other, the
# hand's facts, a seat or the direction of play, or leave the felt.
TR_HAND_INDEXES = HAND_INDEXES.replace("#hand .card", "#tr-hand .card").replace("#hand .hand-row", "#tr-hand .hand-row")
TRICK_OVERLAPS = """() => {
  const meet = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
    && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const plays = [...document.querySelectorAll("[data-testid=tr-trick] [data-testid=tr-play]")];
  const others = [...document.querySelectorAll("#tr-facts, #view-table .seat, #play-direction")]
    .filter((node) => !node.hidden);
  const felt = document.querySelector("#felt").getBoundingClientRect();
  const hits = [];
  // What a play shows: its cards and its seat's name (a play's cell may be wider).
  const shown = (play) => [...play.querySelectorAll(".card, .tr-play-by")].map((node) => node.getBoundingClientRect())
    .filter((box) => box.width && box.height);
  plays.forEach((play, index) => {
    for (const box of shown(play)) {
      for (const other of plays.slice(index + 1)) {
        if (shown(other).some((them) => meet(box, them))) hits.push([play.dataset.seat, other.dataset.seat]);
      }
      for (const other of others) {
        if (meet(box, other.getBoundingClientRect())) hits.push([play.dataset.seat, other.id]);
      }
      const out = box.left < felt.left || box.right > felt.right || box.top < felt.top || box.bottom > felt.bottom;
      if (out) hits.push([play.dataset.seat, "felt"]);
    }
  });
  return { plays: plays.length, hits: [...new Set(hits.map((hit) => hit.join(" ")))] };
}"""


def check_layout(page: Page) -> None:
    """Mid-trick: every card of the hand shows its index, and no play of the trick covers
    another, the hand's facts or a seat."""
    page.mouse.move(1, 1)  # the hand at rest: no card hovered, focused or raised by a selection
    page.evaluate("document.activeElement?.blur()")
    page.keyboard.press("Escape")
    page.wait_for_function("() => !document.querySelector('#tr-hand .card.selected')")
    page.wait_for_function("() => [...document.querySelectorAll('#tr-hand .card, [data-testid=tr-trick]')]"
                           ".every(node => node.getAnimations().length === 0)")
    seen = page.evaluate(TR_HAND_INDEXES)
    assert seen["cards"] == len(page.evaluate(HAND)) and seen["problems"] == [], seen
    trick = page.evaluate(TRICK_OVERLAPS)
    assert trick["plays"] >= 2 and trick["hits"] == [], trick


def refused_follow(page: Page) -> None:
    """T7.1, T7.7: one card too many, selected by clicks and played by Enter, is refused by the
    server and said under the hand by the duty it names; Esc clears the selection."""
    need = len(table(page)["game"]["trick"][0][1].split())
    for index in range(need + 1):
        page.click(f"#tr-hand .card >> nth={index}")
    page.keyboard.press("Enter")
    page.wait_for_selector(f"#tr-message:text-is('Play as many cards as the lead: {need}, not {need + 1}.')")
    page.keyboard.press("Escape")


def play_hand(player: Player, checks: list[str], during: Callable[[Page], None] | None = None) -> None:
    """Play the hand by the page until its result shows: declare the first trump offered,
    say no more in the window, bury by H and Enter, play by H and Enter; on the way, check
    that the page never holds the bottom unless we deal, and run ``during`` once, on our
    turn with two plays or more in the trick."""
    page = player.page
    deadline = time.monotonic() + 180
    declared = False
    while not player.result_shown():
        assert time.monotonic() < deadline, "the hand did not finish in time"
        view = table(page)
        game = view.get("game") or {}
        dealer = game.get("dealer")
        if game and not game.get("finished") and dealer != view["you"]:
            assert game.get("bottom") is None and "buried" not in game, "a non-dealer's view holds the bottom"
        now = phase(page)
        if now in ("deal", "declare") and not declared and page.evaluate(DECLARE):
            declared = True
            checks.append("declared")
        elif now == "declare" and page.evaluate(SAY_DONE):
            checks.append("no more")
        elif now in ("bury", "play") and player.my_turn():
            game = table(page)["game"]  # read again: the view above may be older than our turn
            if during is not None and now == "play" and len(game["trick"]) >= 2:
                during(page)
                checks.append("during")
                during = None
            take_turn(player, now, checks)
        else:
            time.sleep(0.05)


def take_turn(player: Player, now: str, checks: list[str]) -> None:
    """H, then Enter: bury the bottom as taken, or make the hint's first play."""
    page = player.page
    seq = player.attr("seq")
    if now == "bury":
        assert len(page.evaluate(HAND)) == 33, "the dealer holds 33 cards while burying"
        checks.append("buried")
    page.keyboard.press("h")
    page.wait_for_function("() => document.querySelectorAll('#tr-hand .card.selected').length > 0")
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => document.querySelector('#view-table').dataset.seq !== '{seq}'")


def check_result(server: Server, player: Player) -> dict[str, Any]:
    """The result's balances and changes equal the ledger's; the bottom and A shown are the
    settlement's. Returns the settlement."""
    page = player.page
    game_id = page.get_attribute("#result-card", "data-game-id") or ""
    settlement: dict[str, Any] = table(page)["settlement"]
    entries = ledger(server, game_id)
    assert len(entries) >= 4
    for entry in entries:
        if entry["seat"] is None:
            continue
        assert amount(page.inner_text(f"[data-testid=after-{entry['seat']}]")) == entry["balance_after"]
        assert amount(page.inner_text(f"[data-testid=delta-{entry['seat']}]")) == entry["delta"]
    me = table(page)["you"]
    assert amount(page.inner_text("[data-testid=my-delta]")) == settlement["deltas"][me]
    assert page.get_attribute("[data-testid=tr-result-bottom]", "data-cards") == settlement["bottom"]
    assert page.inner_text("[data-testid=tr-result-multiplier]") == f"×{settlement['bottom_multiplier']}"
    levels = page.inner_text("[data-testid=tr-result-levels]")
    for before, after in zip(settlement["levels_before"], settlement["levels_after"], strict=True):
        assert f"{before} → {after}" in levels
    assert str(settlement["attackers_points"]) in page.inner_text("#result-card")
    return settlement


def check_replay(server: Server, page: Page, game_id: str) -> None:
    """The hand's replay, opened from its result: every hand as dealt, then a step for the
    bury and one per play, every hand empty at the end, the ledger's balances; Back returns
    to the result."""
    plays = [event for event in server.get(f"/api/games/{game_id}")["events"] if event["type"] == "play"]
    end = check_replay_from_result(server, page, game_id, ["", "", "", ""])
    assert end["index"] == 1 + len(plays)
    open_replay_from_result(page)
    assert step_replay(page, "ArrowRight", 1)["kind"] == "bury"
    page.click("#page-replay [data-page-back]")
    page.wait_for_selector("[data-testid=next-game]")


def test_T10_5_T11_3_T11_4_a_person_and_three_bots_play_a_hand_then_the_next_starts_from_the_new_levels(
    server: Server, browser: Browser, tmp_path: Path
) -> None:
    """T2.2–T2.6, T3.1, T7, T9–T11: by "Play with bots" the page deals, offers its
    declarations, buries by selection when we deal, says why the server refused a follow of
    one card too many, plays by H and Enter to the result,
    whose every balance is the ledger's; the bottom never reaches a page that does not deal
    before the end. Ready: the next hand's levels are the result's."""
    player = Player(browser, server).sign_in("Lin").in_lobby()
    page = player.page
    assert page.is_visible(".room[data-room=tractor]"), "the tractor room shows in the lobby"
    player.play_bots("tractor")
    checks: list[str] = []
    play_hand(player, checks, during=refused_follow)
    assert "during" in checks
    settlement = check_result(server, player)
    game_id = table(page)["game_id"]
    page.click("[data-testid=next-game]")
    page.wait_for_function("() => { const t = window.shuangkou.state.table;"
                           f" return t.phase === 'playing' && t.game_id !== '{game_id}'; }}")
    page.wait_for_selector("[data-testid=tr-levels]")
    levels = table(page)["game"]["levels"]
    me = table(page)["you"]
    assert levels == settlement["levels_after"]
    assert page.get_attribute("[data-testid=tr-levels]", "data-us") == levels[me % 2]
    assert page.get_attribute("[data-testid=tr-levels]", "data-them") == levels[1 - me % 2]
    player.close()


def test_T11_3_at_phone_size_a_whole_hand_with_every_card_readable(server: Server, browser: Browser) -> None:
    """At 390×844: the hand in two rows, each card's index in sight, the trick's plays
    apart from each other, the facts and the seats; the whole hand to its result, checked
    against the ledger, and its replay from the deal to the end."""
    player = Player(browser, server, PHONE).sign_in("Mei").in_lobby()
    player.play_bots("tractor")
    checks: list[str] = []
    play_hand(player, checks, during=check_layout)
    assert "during" in checks
    check_result(server, player)
    check_replay(server, player.page, table(player.page)["game_id"])
    assert player.page.is_visible("[data-testid=next-game]")
    player.close()


def test_T11_5_leaving_mid_hand_is_hosted_to_the_end_and_charged_the_penalty(server: Server, browser: Browser) -> None:
    """T11.5 (``escape_mode = "host"``): leaving early in the hand warns of the
    penalty ``escape_units`` × X charged at the end; hosting plays the seat to the end of the
    hand; the ledger takes it from the leaver with the hand's result, half to each opponent."""
    player = Player(browser, server).sign_in("Runner").in_lobby()
    player.play_bots("tractor")
    seat, penalty, settlement = leave_hosted_to_the_end(server, player)
    assert settlement["escaper"] == seat and settlement["escape_penalty"] == penalty
    for other in range(4):  # the penalty on top of the hand's result: u·X to each attacker, from each defender
        result = settlement["units"] * settlement["match_points"] * (-1 if other in settlement["dealer_team"] else 1)
        share = -penalty if other == seat else penalty // 2 if other % 2 != seat % 2 else 0
        assert settlement["nets"][other] == result + share, other
    player.close()


def test_screenshots_of_a_tractor_hand(tmp_path: Path, browser: Browser) -> None:
    """A Tractor hand in progress (a trick in the middle, the facts in the felt's corner, the
    trumps apart in the hand) at desktop and phone width, for the README."""
    folder, shoot = screenshots(tmp_path)
    with run_server(tmp_path / "shots", ROOMS) as shots:
        player = Player(browser, shots).sign_in("Xiao Ming").in_lobby()
        player.play_bots("tractor")

        def picture(page: Page) -> None:
            check_layout(page)
            page.keyboard.press("h")
            page.wait_for_selector("#tr-hint-count:text-matches('^1/')")
            shoot(page, "tractor")
            page.set_viewport_size(DESKTOP)
            page.keyboard.press("Escape")

        checks: list[str] = []
        play_hand(player, checks, during=picture)
        player.close()
    for name in ("tractor", "tractor-phone"):
        assert (folder / f"{name}.png").stat().st_size > 10_000
