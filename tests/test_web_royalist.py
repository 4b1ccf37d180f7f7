"""The Royalist (保皇) renderer in a real Chromium against a real server (RULES-ROYALIST).

A person plays "Play with bots" in a ``royalist`` room (four bots fill the seats), answers
the throne offer and the declarations in their dialogs, plays every turn by H and Enter (or
P when the hint is to pass) and reaches the result, at 1280×800 and at 390×844. At every
turn the hand's cards keep their indexes readable (no card painted over another), no seat
shows a role it may not know (Y2.10), places appear as players go out, and the result's
balances, units and revealed hands are the ledger's and the server's.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import test_web
from royalist_players import room_text
from test_web import (
    CHROMIUM,
    DESKTOP,
    HAND_INDEXES,
    PHONE,
    Player,
    Server,
    check_replay_from_result,
    check_result_against_ledger,
    leave_hosted_to_the_end,
    run_server,
    screenshots,
)

# Debian's Chromium, as the other browser tests launch it.
browser = test_web.browser

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="the browser tests need Debian's Chromium at /usr/bin/chromium"
)

from playwright.sync_api import Browser  # noqa: E402

ROOMS = {"royalist": room_text(decision_seconds=120, turn_seconds=120)}
ROY_HAND_INDEXES = HAND_INDEXES.replace("#hand", "#roy-hand")
# What the page shows of each seat's role, and what the server's view lets this seat know.
SEEN_ROLES = """() => {
  const game = window.shuangkou.state.table.game;
  const shown = {};
  for (const node of document.querySelectorAll("#view-table .seat [data-testid^=role-]")) {
    shown[node.dataset.testid.split("-")[1]] = node.dataset.role;
  }
  return { shown, known: game.known_roles, phase: game.phase, you: window.shuangkou.state.table.you };
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with run_server(tmp_path_factory.mktemp("web-royalist"), ROOMS, seed=41) as running:
        yield running


def answer_or_play(player: Player) -> str:
    """Our move now: a decision's first choice (ascend, stay hidden: the defaults of Y8.1)
    or, in play, the hint (the smallest beating set, Y4.7) by H then Enter, or P when the
    hint is to pass. Returns what it did."""
    page = player.page
    seq = player.attr("seq")
    if page.is_visible("[data-choice]"):
        # Clicked in the page at once: a decision may close by itself (another seat's answer
        # fixed it), and then the table has moved on.
        page.evaluate("() => document.querySelector('[data-choice]')?.click()")
        did = "decided"
    else:
        page.keyboard.press("h")
        # The hint; or the table went on without us since the page said it was our turn (an
        # auto-pass, Y3.7, or a decision whose window closed), or a decision's dialog came
        # up: then the caller looks again.
        came = page.wait_for_function(f"""() => {{
          const visible = (node) => Boolean(node && node.offsetParent !== null);
          if (document.querySelector("#view-table").dataset.seq !== "{seq}") return "moved";
          if (visible(document.querySelector("[data-choice]"))) return "decision";
          return visible(document.querySelector("#roy-message.msg-hint")) ? "hint" : false;
        }}""").json_value()
        if came != "hint":
            return str(came)
        passing = not page.locator("#roy-hand .card.selected").count()
        page.keyboard.press("p" if passing else "Enter")
        did = "passed" if passing else "played"
    page.wait_for_function(f"() => document.querySelector('#view-table').dataset.seq !== '{seq}'")
    return did


def play_to_the_result(player: Player, each_state: Callable[[], None]) -> None:
    """Answer or play our turns until the result shows, calling ``each_state`` before each
    look at the table (the game must end within four minutes)."""
    deadline = time.monotonic() + 240
    while not player.result_shown():
        assert time.monotonic() < deadline, "the game did not finish in time"
        each_state()
        if player.my_turn():
            answer_or_play(player)
        else:
            time.sleep(0.05)


def check_roles_kept_secret(seen: dict[str, Any]) -> None:
    """Y2.10: a seat shows a role only when this seat may know it (the server's view says
    which), and our own role to us."""
    for seat, role in seen["shown"].items():
        assert role == seen["known"][int(seat)], f"seat {seat} shows {role!r}, known: {seen['known']}"


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_Y2_Y3_Y7_3_a_person_with_four_bots_plays_to_the_result_the_ledger_pays(
    server: Server, browser: Browser, viewport: dict[str, int]
) -> None:
    player = Player(browser, server, viewport).sign_in(f"Ana{viewport['width']}").in_lobby()
    page = player.page
    assert page.inner_text("[data-testid=seats-royalist]") == "Royalist (保皇), five players"
    assert page.inner_text(".room[data-room=royalist] [data-action=bot]") == "Play with bots"
    assert page.locator("#rules li[data-game=royalist]").count() == 3
    player.play_bots("royalist")
    me = player.seat()
    assert sorted(int(page.get_attribute(node, "data-seat") or "-1") for node in (
        "#seat-me", "#seat-right", "#seat-top-right", "#seat-top-left", "#seat-left")) == [0, 1, 2, 3, 4]
    assert page.get_attribute("#seat-right", "data-seat") == str((me + 1) % 5), "the next seat on our right"
    assert page.get_attribute("#seat-left", "data-seat") == str((me + 4) % 5), "the previous seat on our left"

    places: dict[int, str] = {}

    def read_places() -> None:
        for node in page.query_selector_all("#view-table .seat [data-testid^=place-]"):
            places[int((node.get_attribute("data-testid") or "").split("-")[1])] = node.inner_text()

    did: list[str] = []
    deadline = time.monotonic() + 240
    while not player.result_shown():
        assert time.monotonic() < deadline, "the game did not finish in time"
        check_roles_kept_secret(page.evaluate(SEEN_ROLES))
        read_places()
        if not player.my_turn():
            time.sleep(0.05)
            continue
        if page.is_visible("#roy-actions") and player.attr("phase") == "playing":
            page.mouse.move(1, 1)  # no card raised by the mouse
            page.wait_for_function(
                "() => [...document.querySelectorAll('#roy-hand .card')].every(card => !card.getAnimations().length)"
            )
            seen = page.evaluate(ROY_HAND_INDEXES)
            assert seen["problems"] == [], seen["problems"]
        did.append(answer_or_play(player))
    read_places()  # the last seat out ended the game
    assert "played" in did

    game_id = check_result_against_ledger(server, player)
    replay = server.get(f"/api/games/{game_id}")
    settlement = replay["settlement"]
    end = next(event for event in replay["events"] if event["type"] == "end")
    names = ["1st out", "2nd out", "3rd out", "4th out", "5th out"]
    order = settlement["finish_order"]
    assert places == {seat: names[index] for index, seat in enumerate(order)}, "places as players went out"
    for seat in range(5):
        held = page.eval_on_selector(
            f"[data-testid=roy-held-{seat}]", "cell => cell.querySelector('.held')?.dataset.cards ?? ''"
        )
        assert held == end["hands"][seat], "every hand revealed at the end (Y2.9)"
        units = page.inner_text(f"[data-testid=roy-units-{seat}]").replace("−", "-").replace("+", "")
        assert int(units) == settlement["units"][seat]
        role = page.inner_text(f"[data-testid=roy-role-{seat}]")
        roles = settlement["roles"]
        truth = "Emperor" if seat == roles["emperor"] else "Guard" if seat == roles["guard"] else "Revolutionary"
        assert role == truth, "every role shown at the end"
    facts = page.inner_text(".facts")
    assert f"m = {settlement['multiplier']}" in facts and f"X = {settlement['match_points']}" in facts
    assert page.locator("[data-testid=roy-finish-order] li").count() == len(settlement["finish_order"])

    page.click("[data-lang=zh]")
    assert page.inner_text("[data-testid=roy-role-0]") in ("皇帝", "侍卫", "革命党")
    page.click("[data-lang=en]")
    # The replay from the result: every hand as dealt, every hand as left at the end.
    check_replay_from_result(server, page, game_id, end["hands"])
    player.close()


def test_Y2_10_the_hidden_roles_stay_out_of_the_page_until_public(server: Server, browser: Browser) -> None:
    """No text or attribute of the page names the guard before the server's view of our seat
    makes it known: checked on the whole document at every state, whatever our role."""
    player = Player(browser, server).sign_in("Watcher").in_lobby()
    page = player.page
    player.play_bots("royalist")
    checked = 0

    def guard_shown_only_when_known() -> None:
        nonlocal checked
        seen = page.evaluate("""() => {
          const game = window.shuangkou.state.table.game;
          const html = document.querySelector("#view-table").outerHTML;
          const guards = (html.match(/data-role="guard"/g) || []).length;
          return { known: game.known_roles, guardShown: guards, finished: game.finished };
        }""")
        if not seen["finished"]:
            assert seen["guardShown"] == seen["known"].count("guard"), seen
            checked += 1

    play_to_the_result(player, guard_shown_only_when_known)
    assert checked > 10
    player.close()


def test_Y8_4_leaving_mid_game_is_hosted_to_the_end_and_charged_the_penalty(server: Server, browser: Browser) -> None:
    """Y8.4 (``escape_mode = "host"``): leaving at once warns of the penalty P =
    ``escape_units`` × X charged at the end; hosting plays the seat through the decisions
    and the play; the ledger takes P from the leaver with the game's result, shared by the
    other four."""
    player = Player(browser, server).sign_in("Leaver5").in_lobby()
    player.play_bots("royalist")
    seat, penalty, settlement = leave_hosted_to_the_end(server, player)
    assert settlement["escapers"] == [seat] and settlement["result"] != "escape", "played to the end"
    assert settlement["escape_payments"][seat] == -penalty
    assert sum(settlement["escape_payments"]) + settlement["house_claim"] == 0, "shared by the other four"
    player.close()


def test_screenshot_of_a_royalist_game_for_the_readme(tmp_path: Path, browser: Browser) -> None:
    """A five-seat game in progress: a set on the table from another seat, the others' passes
    and sets beside them, our hint selected; desktop and phone."""
    folder, shoot = screenshots(tmp_path)
    with run_server(tmp_path / "shots", ROOMS, seed=5) as shots:
        player = Player(browser, shots).sign_in("Xiao Ming").in_lobby()
        page = player.page
        player.play_bots("royalist")
        turns = 0
        while True:
            page.wait_for_selector("#view-table[data-turn=me]", timeout=60000)
            beside = page.locator(".roy-bubble:not([hidden])").count()
            if turns >= 3 and page.is_visible("[data-testid=roy-table-set].from-opp") and beside >= 2:
                break
            answer_or_play(player)
            turns += 1
        page.keyboard.press("h")
        page.wait_for_selector("#roy-message.msg-hint")
        shoot(page, "royalist")
        player.close()
    for name in ("royalist", "royalist-phone"):
        assert (folder / f"{name}.png").stat().st_size > 10_000
