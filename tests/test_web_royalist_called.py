"""The Royalist renderer in a room whose guard card is called (叫保子, RULES-ROYALIST Y9,
Y13.18), in a real Chromium against a real server.

A person with four bots in a ``guard_card = "called"`` room of four full packs is the first
candidate: the throne dialog offers exactly the calls the hand allows (a card held three
times; one held four times alone in secret or with 包), the help says how the guard is
called, the person calls through the dialog, every seat sees the card called and its three
copies shown, the 保子牌 appears nowhere in the page before it is played (nor a role
before its time), and the game is played to the result the ledger pays.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import test_web
from royalist_players import room_text
from test_web import CHROMIUM, Player, Server, check_result_against_ledger, run_server
from test_web_royalist import SEEN_ROLES, check_roles_kept_secret, play_to_the_result

from shuangkou.games.royalist.family import ROYALIST
from shuangkou.games.royalist.game import deal_hand

browser = test_web.browser

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="the browser tests need Debian's Chromium at /usr/bin/chromium"
)

from playwright.sync_api import Browser  # noqa: E402

ROOMS = {"royalist": room_text(decision_seconds=120, turn_seconds=120, deck="216", guard_card="called")}
SEED = 248
"""The server's first deal: seat 0 — the person's — holds the emperor card, three 5D and four 7D."""
CALLED = "5D"
# The page's whole table, and the sets played so far as our seat's view lists them.
TABLE_SEEN = """() => {
  const game = window.shuangkou.state.table.game;
  return { html: document.querySelector("#view-table").outerHTML, finished: game.finished,
           played: game.plays.map((play) => play.cards).join(" ") };
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with run_server(tmp_path_factory.mktemp("web-royalist-called"), ROOMS, seed=SEED) as running:
        yield running


def test_the_seed_deals_the_person_the_throne_and_two_cards_to_call() -> None:
    """The deal the browser test is written for, from the rules core."""
    hand = deal_hand(ROYALIST.load_room("royalist216", {"guard_card": "called"}), SEED)
    assert hand.candidate == 0
    assert {str(card): copies for card, copies in hand.calls(0).items()} == {"5D": 3, "7D": 4}


def test_Y9_Y13_18_a_person_calls_through_the_dialog_and_plays_to_the_result(server: Server, browser: Browser) -> None:
    player = Player(browser, server).sign_in("Caller").in_lobby()
    page = player.page
    about = page.inner_text("[data-testid=about-royalist]")
    assert "calls his hidden guard's card (叫保子)" in about, "the lobby says the room calls"
    page.click("[data-lang=zh]")
    assert "叫保子" in page.inner_text("[data-testid=about-royalist]")
    page.click("[data-lang=en]")
    player.play_bots("royalist")
    assert player.seat() == 0, "the person takes the first seat"

    page.wait_for_selector("[data-testid=roy-throne][role=dialog] [data-testid^=roy-call-]")
    offered = page.eval_on_selector_all(
        "[data-testid=roy-throne] [data-choice]", "nodes => nodes.map(n => n.dataset.testid)")
    assert offered == ["roy-call-5D", "roy-call-7D", "roy-call-open-7D", "roy-abdicate"], "exactly the calls allowed"
    assert page.inner_text("[data-testid=roy-call-7D]").endswith("Call, alone in secret"), "four copies: a solo"
    assert "包" in page.inner_text("[data-testid=roy-call-open-7D]")
    marked = page.locator("#roy-hand .card[data-card='BJ*'].roy-marked .roy-mark")
    assert marked.count() == 1, "the marked cards are marked in the hand"

    for lang, words in (("zh", "第四张成为保子牌"), ("en", "fourth copy becomes the 保子牌")):
        page.click(f"[data-lang={lang}]")
        page.click("#btn-help")
        assert words in page.inner_text("[data-testid=roy-help]")
        page.click("#dlg-help .dlg-actions button")
    assert page.inner_text("[data-testid=roy-call-5D]").endswith("Call")

    seq = player.attr("seq")
    page.click(f"[data-testid=roy-call-{CALLED}]")
    page.wait_for_function(f"() => document.querySelector('#view-table').dataset.seq !== '{seq}'")
    page.wait_for_selector("#roy-called:not([hidden])")
    assert page.get_attribute("#roy-called", "data-card") == CALLED
    assert page.locator("#roy-called .mini").count() == 3, "the three copies shown"
    assert "5 of diamonds" in (page.get_attribute("#roy-called", "aria-label") or "")

    hidden_checked = 0

    def called_card_kept_hidden() -> None:
        nonlocal hidden_checked
        check_roles_kept_secret(page.evaluate(SEEN_ROLES))
        seen = page.evaluate(TABLE_SEEN)
        if not seen["finished"] and f"{CALLED}*" not in seen["played"]:
            assert f"{CALLED}*" not in seen["html"], "the 保子牌 shows its holder: nowhere before it is played"
            hidden_checked += 1

    play_to_the_result(player, called_card_kept_hidden)
    assert hidden_checked > 10

    game_id = check_result_against_ledger(server, player)
    replay = server.get(f"/api/games/{game_id}")
    (ascent,) = [event for event in replay["events"] if event["type"] == "ascend"]
    assert ascent == {"type": "ascend", "seat": 0, "cause": "player", "call": CALLED}
    assert page.get_attribute("[data-testid=roy-result-called]", "data-card") == CALLED
    roles = replay["settlement"]["roles"]
    assert roles["emperor"] == 0 and roles["solo"] is None and roles["guard"] != 0
    end = next(event for event in replay["events"] if event["type"] == "end")
    played = [event["seat"] for event in replay["events"] if f"{CALLED}*" in event.get("cards", "")]
    assert played == [roles["guard"]] or f"{CALLED}*" in end["hands"][roles["guard"]], "the guard held the 保子牌"
    player.close()
