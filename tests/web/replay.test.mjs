// The replay viewer's steps, the page addresses, the history's rows and pages, and the card
// tracker's cells, without a browser: `node --test tests/web/`.

import { test } from "node:test";
import assert from "node:assert/strict";

import * as R from "../../src/shuangkou/web/replay.js";
import { replayState, replaySteps } from "../../src/shuangkou/web/games/shuangkou/steps.js";
import * as S from "../../src/shuangkou/web/games/shuangkou/state.js";
import { combo, settlement, settlement4, stateMessage, table } from "./fixtures.mjs";

const play = (seat, cards, kind = "single", extra = {}) => ({
  type: "play", seat, cause: "player", cards, combo: combo(kind, cards.split(" ").at(-1).replace(/[SHCD]$/, ""), cards), ...extra,
});
const pass = (seat, cause = "player") => ({ type: "pass", seat, cause });

/** A two-seat game as `GET /api/games/ID` returns it: seat 1 goes out. */
function twoSeatReplay() {
  return {
    game_id: "abc123", room: "points", edition: "points", finished_at: "2026-11-30T12:00:00", seats: [{ name: "Ann", bot: false }, { name: "Bot", bot: true }],
    teams: [0, 1], hands: ["3H 3S 9C QD", "4D 4D SJ"], leader: 1, flip_card: "4D", swap: null,
    events: [
      { type: "deal", seat: 1, flip_card: "4D" },
      play(1, "4D 4D", "pair"),
      { type: "timeout", seat: 0, count: 1 },
      pass(0, "timeout"),
      { type: "hosting", seat: 0, cause: "player", on: true },
      play(1, "SJ", "single", { combo: combo("single", "SJ", "SJ") }),
      { type: "end", seat: 1, cards_left: 4 },
    ],
    result: "flat", settlement: settlement({ loser_cards_left: 4 }),
  };
}

/** A four-seat game with a swap, a seat out, 接风 and the end. */
function fourSeatReplay() {
  return {
    game_id: "def456", room: "classic", edition: "points", finished_at: "2026-11-30T12:00:00Z",
    seats: ["Ann", "Bob", "Cy", "Di"].map((name) => ({ name, bot: false })), teams: [0, 1, 0, 1],
    hands: ["3H", "5C 5D", "7S 8S", "9H"], leader: 0, flip_card: "3H", swap: [1, 2],
    events: [
      { type: "deal", seat: 0, flip_card: "3H" }, { type: "swap", seat: 1, with: 2 },
      play(0, "3H"), { type: "out", seat: 0, place: 1 },
      pass(1, "auto_pass"), pass(2), pass(3), { type: "jiefeng", seat: 2 },
      play(2, "7S"), pass(3), play(1, "5C"), play(2, "8S"), { type: "out", seat: 2, place: 2 },
      { type: "end", seat: 0, cards_left: 3 },
    ],
    result: "double", settlement: settlement4({ finish_order: [0, 2], winners: [0, 2] }),
  };
}

test("step 0 is the deal with the hands as dealt, then one step per play, pass or escape", () => {
  const steps = replaySteps(twoSeatReplay());
  assert.deepEqual(steps.map((step) => step.kind), ["deal", "play", "pass", "play"]);
  assert.deepEqual(steps[0].hands, [["3H", "3S", "9C", "QD"], ["4D", "4D", "SJ"]]);
  assert.deepEqual(steps[1].hands, [["3H", "3S", "9C", "QD"], ["SJ"]], "both 4D of the pair leave the hand");
  assert.deepEqual(steps[3].hands, [["3H", "3S", "9C", "QD"], []]);
  assert.deepEqual(steps.map((step) => step.played), [0, 1, 1, 2]);
  assert.deepEqual(steps[0].before.map((event) => event.type), ["deal"]);
});

test("a timeout and hosting are told with the action after them; the end with the action before it", () => {
  const steps = replaySteps(twoSeatReplay());
  assert.deepEqual(steps[2].before.map((event) => event.type), ["timeout"]);
  assert.deepEqual(steps[3].before.map((event) => event.type), ["hosting"]);
  assert.deepEqual(steps[3].after.map((event) => event.type), ["end"]);
});

test("each seat's latest action is kept until that seat acts again", () => {
  const steps = replaySteps(twoSeatReplay());
  assert.equal(steps[0].last[0], null);
  assert.deepEqual(steps[2].last.map((action) => action?.type), ["pass", "play"]);
  assert.equal(steps[2].last[0].cause, "timeout");
  assert.equal(steps[2].last[1].cards, "4D 4D");
  assert.equal(steps[3].last[1].cards, "SJ");
  assert.equal(steps[1].last[0], null, "an earlier step is left as it was");
});

test("four seats: the swap is told at the deal, places follow the out events, 接风 with the pass before it", () => {
  const steps = replaySteps(fourSeatReplay());
  assert.deepEqual(steps[0].before.map((event) => event.type), ["deal", "swap"]);
  assert.deepEqual(steps[1].out, [0]);
  assert.deepEqual(steps[0].out, []);
  assert.deepEqual(steps[4].after.map((event) => event.type), ["jiefeng"]);
  const last = steps.at(-1);
  assert.deepEqual(last.out, [0, 2]);
  assert.deepEqual(last.hands, [[], ["5D"], [], ["9H"]]);
  assert.deepEqual(last.after.map((event) => event.type), ["out", "end"]);
});

test("at every step each hand is the dealt hand minus the cards its seat played so far", () => {
  const replay = fourSeatReplay();
  const steps = replaySteps(replay);
  steps.forEach((step, index) => {
    const plays = replay.events.filter((event) => event.type === "play").slice(0, step.played);
    replay.hands.forEach((dealt, seat) => {
      const played = plays.filter((event) => event.seat === seat).flatMap((event) => event.cards.split(" "));
      assert.equal(step.hands[seat].length + played.length, dealt.split(" ").length, `step ${index} seat ${seat}`);
      assert.deepEqual([...step.hands[seat], ...played].sort(), dealt.split(" ").sort());
    });
  });
});

test("a play of a card the hand no longer holds is refused, naming the event, the seat and the card", () => {
  const replay = twoSeatReplay();
  replay.events.splice(2, 0, play(1, "4D"));
  assert.throws(() => replaySteps(replay), /event 2: seat 1 plays 4D, which its hand no longer holds/);
});

test("keys step forward and back within the game; Home and End jump; other keys do nothing", () => {
  assert.equal(R.stepAfterKey(0, 4, "ArrowRight"), 1);
  assert.equal(R.stepAfterKey(3, 4, "ArrowRight"), 3);
  assert.equal(R.stepAfterKey(0, 4, "ArrowLeft"), 0);
  assert.equal(R.stepAfterKey(2, 4, "ArrowLeft"), 1);
  assert.equal(R.stepAfterKey(2, 4, "Home"), 0);
  assert.equal(R.stepAfterKey(0, 4, "End"), 3);
  assert.equal(R.stepAfterKey(0, 4, "h"), null);
  assert.equal(R.clampStep(9, 4), 3);
  assert.equal(R.clampStep(-2, 4), 0);
  assert.equal(R.clampStep(Number.NaN, 4), 0);
});

test("addresses: a replay with or without a seat, the history and its pages", () => {
  assert.equal(R.replayHash("abc"), "#replay/abc");
  assert.equal(R.replayHash("abc", 2), "#replay/abc/2");
  assert.deepEqual(R.parseRoute("#replay/abc"), { page: "replay", id: "abc", seat: null });
  assert.deepEqual(R.parseRoute(R.replayHash("abc", 3)), { page: "replay", id: "abc", seat: 3 });
  assert.deepEqual(R.parseRoute("#history"), { page: "history", offset: 0, limit: R.HISTORY_SIZE });
  assert.deepEqual(R.parseRoute(R.historyHash(20, 5)), { page: "history", offset: 20, limit: 5 });
  assert.equal(R.historyHash(0), "#history");
  assert.deepEqual(R.parseRoute("#history?limit=999&offset=x"), { page: "history", offset: 0, limit: 50 });
  for (const other of ["", "#", "#lobby", "#replay/", "#replay/a/b/c"]) assert.equal(R.parseRoute(other), null, other);
});

test("the replay's table for the result screen: nobody is you, seen from the chosen seat, the last hands revealed", () => {
  const replay = twoSeatReplay();
  const steps = replaySteps(replay);
  const state = replayState(replay, steps, 1);
  assert.equal(S.mySeat(state), null);
  const summary = S.resultSummary(state);
  assert.equal(summary.you, 1);
  assert.equal(summary.other, 0);
  assert.equal(summary.delta, 60);
  assert.deepEqual(summary.loserCards, ["3H", "3S", "9C", "QD"]);
  assert.equal(S.resultSummary(replayState(replay, steps)).you, 0, "seat 0 without a seat in the link");
});

test("four seats: the result's columns from the chosen seat, its partner first, and every seat's cards left", () => {
  const replay = fourSeatReplay();
  const steps = replaySteps(replay);
  const result = S.classicResult(replayState(replay, steps, 3));
  assert.equal(result.you, 3);
  assert.deepEqual(result.columns, [3, 1, 0, 2]);
  const held = result.rows.find((row) => row.key === "cardsLeft").cells;
  assert.deepEqual(held.map((cell) => cell.count), [1, 1, 0, 0]);
  assert.deepEqual(held[1].cards, ["5D"]);
  assert.equal(S.sideOf(replayState(replay, steps, 3), 1), "us");
});

const game = (extra) => ({
  game_id: "g", finished_at: "2026-11-30T12:00:00", room: "points", edition: "points", seat: 0,
  seats: [{ name: "Ann", bot: false }, { name: "Bob", bot: false }], teams: [0, 1], result: "flat", won: true,
  delta: 60, balance_after: 1060, ...extra,
});

test("a history row names the opponents, and with four seats the partner, from the account's seat", () => {
  const two = R.historyRow(game({ seat: 1 }));
  assert.deepEqual(two.opponents.map((seat) => seat.name), ["Ann"]);
  assert.deepEqual(two.partner, []);
  assert.deepEqual([two.delta, two.balanceAfter, two.won, two.seat], [60, 1060, true, 1]);
  const four = R.historyRow(game({
    seat: 3, seats: ["Ann", "Bob", "Cy", "Di"].map((name) => ({ name, bot: name === "Cy", bot_level: name === "Cy" ? "expert" : null })),
    teams: [0, 1, 0, 1],
  }));
  assert.deepEqual(four.partner.map((seat) => seat.name), ["Bob"]);
  assert.deepEqual(four.opponents.map((seat) => [seat.name, seat.bot, seat.bot_level]), [["Ann", false, null], ["Cy", true, "expert"]]);
  assert.equal(two.opponents[0].bot_level, null, "a history of a server before levels: none");
});

test("history pages: one game more than shown says that an older page exists", () => {
  const games = [1, 2, 3].map((n) => game({ game_id: `g${n}` }));
  const first = R.historyPage(games, 0, 2);
  assert.deepEqual(first.rows.map((row) => row.gameId), ["g1", "g2"]);
  assert.deepEqual([first.previous, first.next, first.from, first.to], [null, 2, 1, 2]);
  const second = R.historyPage(games.slice(2), 2, 2);
  assert.deepEqual([second.previous, second.next, second.from, second.to], [0, null, 3, 3]);
  const empty = R.historyPage([], 0, 10);
  assert.deepEqual([empty.rows.length, empty.previous, empty.next, empty.from], [0, null, null, 0]);
});

test("the card tracker shows the server's counts, highest rank first, only while shown and playing", () => {
  const tracker = { 3: 8, 4: 7, 5: 8, 6: 8, 7: 8, 8: 8, 9: 8, 10: 8, J: 8, Q: 6, K: 8, A: 8, 2: 8, SJ: 1, BJ: 2 };
  const message = stateMessage();
  message.table.game.tracker = tracker;
  const seated = S.receiveState(S.initialState(), message);
  assert.equal(S.trackerCells(seated), null, "hidden until switched on");
  const shown = S.toggleTracker(seated);
  const cells = S.trackerCells(shown);
  assert.deepEqual(cells.map((cell) => cell.rank), ["BJ", "SJ", "2", "A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3"]);
  assert.deepEqual(cells.map((cell) => cell.count), cells.map((cell) => tracker[cell.rank]));
  assert.equal(S.trackerCells(S.toggleTracker(shown)), null);
  const settled = S.receiveState(shown, { type: "state", events: [], table: table({ phase: "settled", finished: true }) });
  assert.equal(S.trackerCells(settled), null, "no tracker between games");
});
