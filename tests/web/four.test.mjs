// The client's state module at a four-seat table (RULES-CLASSIC), without a browser:
// `node --test tests/web/`. Teams, places and results are what the server sends; these
// tests check that the page places, names and tabulates them as it receives them.

import { test } from "node:test";
import assert from "node:assert/strict";

import * as S from "../../src/shuangkou/web/games/shuangkou/state.js";
import { pair, settlement4, single, state4Message, stateMessage, table4 } from "./fixtures.mjs";

const seated4 = (options = {}, events = []) => S.receiveState(S.initialState(), state4Message(options, events));
const play = (seat, combo, cause = "player") => ({ type: "play", seat, cause, cards: combo.cards, combo });
const pass = (seat, cause = "player") => ({ type: "pass", seat, cause });
const onTable = (seat, combo, index = 1) => ({ index, seat, cards: combo.cards, combo, cause: "player" });

// ---------------------------------------------------------------------------
// seats around the table

test("C1.1: play goes counter-clockwise, so the next seat sits on our right, the partner opposite", () => {
  for (const you of [0, 1, 2, 3]) {
    const state = seated4({ you });
    assert.deepEqual(S.seatPositions(state), { me: you, right: (you + 1) % 4, top: (you + 2) % 4, left: (you + 3) % 4 });
    assert.equal(S.positionOf(state, (you + 1) % 4), "right");
    assert.equal(S.positionOf(state, (you + 3) % 4), "left");
    assert.equal(S.seatCount(state), 4);
    assert.equal(S.isFourSeat(state), true);
  }
});

test("two seats keep their two places: us at the bottom, the opponent on top", () => {
  const state = S.receiveState(S.initialState(), stateMessage({ you: 1 }));
  assert.deepEqual(S.seatPositions(state), { me: 1, top: 0 });
  assert.equal(S.isFourSeat(state), false);
  assert.equal(S.sideOf(state, 0), null, "no team colours with two seats");
  assert.equal(S.placeOf(state, 0), null);
  assert.equal(S.partnerSeat(state), null);
});

test("C1.1: teams come from the server's game.teams: our partner is on our side, the others are not", () => {
  const state = seated4({ you: 1 });
  assert.equal(S.teamOf(state, 1), 1);
  assert.equal(S.teamOf(state, 2), 0);
  assert.equal(S.partnerSeat(state), 3);
  assert.deepEqual([0, 1, 2, 3].map((seat) => S.sideOf(state, seat)), ["them", "us", "them", "us"]);
  const before = seated4({ phase: "ready", game: false });
  assert.equal(S.sideOf(before, 2), null, "before the first deal the server has said nothing about teams");
  assert.equal(S.partnerSeat(before), null);
});

test("a seat's team is read, not computed: teams the server sends otherwise are shown as sent", () => {
  const message = state4Message({ you: 0 });
  message.table.game.teams = [0, 0, 1, 1];
  const state = S.receiveState(S.initialState(), message);
  assert.equal(S.partnerSeat(state), 1);
  assert.equal(S.sideOf(state, 1), "us");
  assert.equal(S.sideOf(state, 2), "them");
});

test("C2.2: places are the finishing order the server sends, 1 for the first out", () => {
  const state = seated4({ finishOrder: [2, 3], cardsLeft: [9, 4, 0, 0] });
  assert.equal(S.placeOf(state, 2), 1);
  assert.equal(S.placeOf(state, 3), 2);
  assert.equal(S.placeOf(state, 0), null, "a seat still holding cards has no place");
  assert.deepEqual(S.finishingOrder(state), [{ seat: 2, place: 1 }, { seat: 3, place: 2 }]);
});

// ---------------------------------------------------------------------------
// each seat's last play or pass in the round

test("C2.1: each seat shows its pass and its beaten play; the play to beat is shown in the middle", () => {
  let state = seated4({ toAct: 1 });
  state = S.receiveState(state, state4Message({ seq: 6, toAct: 2, onTable: onTable(1, single("5")) }, [play(1, single("5"))]));
  assert.equal(S.seatAction(state, 1), null, "seat 1's play is the one to beat");
  state = S.receiveState(state, state4Message({ seq: 7, toAct: 3, onTable: onTable(2, single("9"), 2) }, [play(2, single("9"))]));
  assert.deepEqual(S.seatAction(state, 1).play.cards, "5", "beaten, seat 1's play stays by its seat");
  state = S.receiveState(state, state4Message({ seq: 8, toAct: 0, onTable: onTable(2, single("9"), 2) }, [pass(3, "auto_pass")]));
  assert.deepEqual(S.seatAction(state, 3), { pass: { cause: "auto_pass" } });
  assert.equal(S.seatAction(state, 0), null, "the seat to act shows nothing");
});

test("C2.1: a lead starts a new round and clears the others' plays and passes", () => {
  let state = seated4({ toAct: 1, onTable: onTable(0, pair("3")) }, []);
  state = S.receiveState(state, state4Message({ seq: 6, toAct: 2, onTable: onTable(0, pair("3")) }, [pass(1)]));
  state = S.receiveState(state, state4Message({ seq: 7, toAct: 3, onTable: onTable(2, pair("9"), 2) }, [play(2, pair("9"))]));
  state = S.receiveState(state, state4Message({ seq: 8, toAct: 0, onTable: onTable(2, pair("9"), 2) }, [pass(3)]));
  state = S.receiveState(state, state4Message({ seq: 9, toAct: 1, onTable: onTable(2, pair("9"), 2) }, [pass(0)]));
  state = S.receiveState(state, state4Message({ seq: 10, toAct: 2 }, [pass(1)]));
  assert.deepEqual([0, 1, 3].map((seat) => S.seatAction(state, seat)?.pass?.cause), ["player", "player", "player"]);
  assert.equal(S.seatAction(state, 2), null, "the round's winner is to lead");
  state = S.receiveState(state, state4Message({ seq: 11, toAct: 3, onTable: onTable(2, single("4"), 3) }, [play(2, single("4"))]));
  assert.deepEqual([0, 1, 3].map((seat) => S.seatAction(state, seat)), [null, null, null], "the lead cleared the last round");
});

test("a new game clears every seat's bubble and play, four of each", () => {
  let state = seated4({ toAct: 2, onTable: onTable(1, single("5")) }, [pass(0)]);
  assert.ok(S.seatAction(state, 0));
  state = S.receiveState(state, state4Message({ seq: 9, gameId: "g5" }, [{ type: "deal", seat: 0, flip_card: "QC" }]));
  assert.deepEqual(state.bubbles, [null, null, null, null]);
  assert.deepEqual(state.lastPlays, [null, null, null, null]);
});

// ---------------------------------------------------------------------------
// 接风 and the flip card's swap

test("C2.3: 接风 names the partner who takes over the lead until it plays", () => {
  const out = [play(0, single("2")), { type: "out", seat: 0, place: 1 }];
  let state = seated4({ toAct: 1, onTable: onTable(0, single("2")), finishOrder: [0], cardsLeft: [0, 20, 20, 20] }, out);
  assert.equal(S.jiefengSeat(state), null);
  state = S.receiveState(state, state4Message({ seq: 6, toAct: 2, finishOrder: [0], cardsLeft: [0, 20, 20, 20] },
    [pass(1), pass(2), pass(3), { type: "jiefeng", seat: 2 }]));
  assert.equal(S.jiefengSeat(state), 2);
  state = S.receiveState(state, state4Message({ seq: 7, toAct: 3, onTable: onTable(2, single("6"), 2), finishOrder: [0] },
    [play(2, single("6"))]));
  assert.equal(S.jiefengSeat(state), null, "once the partner has led, the notice is gone");
});

test("C1.4: the seats the flip card swapped are the server's game.swap; seats are placed from our new seat", () => {
  const state = seated4({ you: 2, swap: [1, 2] }, [{ type: "deal", seat: 0, flip_card: "QC" }, { type: "swap", seat: 1, with: 2 }]);
  assert.deepEqual(S.currentGame(state).swap, [1, 2]);
  assert.deepEqual(S.seatPositions(state), { me: 2, right: 3, top: 0, left: 1 });
  assert.equal(S.partnerSeat(state), 0);
});

// ---------------------------------------------------------------------------
// leaving, bots, readiness

test("C6.1: leaving a four-seat game warns with the server's penalty; none when the server prices none", () => {
  assert.deepEqual(S.escapeDialog(seated4()), { mode: "host", penalty: 1080, edition: "points", played: false });
  assert.equal(S.escapeDialog(seated4({ escapeCost: null })), null, "no price from the server, no escape");
  assert.equal(S.escapeDialog(seated4({ phase: "ready" })), null);
  assert.deepEqual(S.escapeCharge(seated4()), { penalty: 1080, rest: null, fee: null, total: null, capped: false, edition: "points", when: "end" },
    "C6.1: the penalty is charged with the game's result");
});

test("C6.2: leaving a four-seat game settled at once states the server's exact total, contributions included", () => {
  const cost = { mode: "settle", penalty: 2160, owed: 2400, fee: 0, charge: 2400 };
  const state = seated4({ escapeMode: "settle", escapeCost: cost });
  assert.deepEqual(S.escapeCharge(state), { penalty: 2160, rest: 240, fee: 0, total: 2400, capped: false, edition: "points", when: "now" });
  const left = S.receiveLeft(S.leaveRequested(state), { type: "left", escape: true, hosted: false, charged: cost });
  assert.deepEqual([left.escapeReport.total, left.escapeReport.rest, left.escapeReport.before, left.escapeReport.after], [2400, 240, 1000, -1400]);
});

test("Fill with bots is offered between games while a seat is free, and only then", () => {
  const seats = table4().seats;
  assert.equal(S.canFillWithBots(seated4({ phase: "waiting", game: false, seats: [seats[0], null, seats[2], null] })), true);
  assert.equal(S.canFillWithBots(seated4({ phase: "ready", game: false })), false, "every seat taken");
  assert.equal(S.canFillWithBots(seated4({ seats: [seats[0], null, seats[2], seats[3]] })), false, "not during a game");
  const spectator = S.receiveState(S.initialState(), { type: "state", events: [], table: { ...table4({ phase: "waiting", game: false, seats: [seats[0], null, null, null] }), you: null } });
  assert.equal(S.canFillWithBots(spectator), false, "a spectator has no table of its own");
});

test("readiness lists the other three seats in the order of play from us", () => {
  const seats = table4().seats.map((seat, index) => ({ ...seat, ready: index % 2 === 0 }));
  const state = seated4({ you: 1, phase: "settled", finished: true, seats: [seats[0], seats[1], null, seats[3]], settlement: settlement4() });
  assert.deepEqual(S.readiness(state), [{ seat: 2, status: "left" }, { seat: 3, status: "notReady" }, { seat: 0, status: "ready" }]);
});

// ---------------------------------------------------------------------------
// the result (C5.8)

const settled = (options = {}, extra = {}) => seated4({
  phase: "settled", finished: true, finishOrder: [1, 0, 3, 2], cardsLeft: [0, 0, 6, 0], settlement: settlement4(extra), ...options,
});
const row = (summary, key) => summary.rows.find((entry) => entry.key === key)?.cells;

test("C5.8: the four-seat result names the team's result, our change and the server's finishing order", () => {
  assert.equal(S.classicResult(seated4()), null, "no result during the game");
  assert.equal(S.resultSummary(settled()), null, "the two-seat summary is not used at four seats");
  const lost = S.classicResult(settled({ you: 0 }));
  assert.equal(lost.title, "teamLoses");
  assert.equal(lost.won, false);
  assert.equal(lost.level, "single");
  assert.equal(lost.delta, -600);
  assert.deepEqual(lost.finishOrder, [{ seat: 1, place: 1 }, { seat: 0, place: 2 }, { seat: 3, place: 3 }, { seat: 2, place: 4 }]);
  const won = S.classicResult(settled({ you: 3 }));
  assert.equal(won.title, "teamWins");
  assert.equal(won.delta, 840);
});

test("C5.8: the breakdown's columns are us, our partner, then the other team as they sit from us", () => {
  const summary = S.classicResult(settled({ you: 1 }));
  assert.deepEqual(summary.columns, [1, 3, 2, 0]);
  assert.deepEqual(summary.sides, ["you", "partner", "opponent", "opponent"]);
  const first = S.classicResult(settled({ you: 0 }));
  assert.deepEqual(first.columns, [0, 2, 1, 3]);
});

test("C5.8: every row holds the server's number for its column's seat", () => {
  const summary = S.classicResult(settled({ you: 1 }));
  assert.deepEqual(summary.rows.map((entry) => entry.key),
    ["place", "level", "phase", "bombs", "contribution", "transfer", "net", "before", "change", "after", "cardsLeft"]);
  assert.deepEqual(row(summary, "place"), [1, 3, 4, 2]);
  assert.deepEqual(row(summary, "level"), [5, 6, 5, 5]);
  assert.deepEqual(row(summary, "phase").map((phase) => phase.phase), [4, 6, 0, 0]);
  assert.deepEqual(row(summary, "contribution"), [{ c: 0, v: 0 }, { c: 2, v: 120 }, { c: 0, v: 0 }, { c: 0, v: 0 }]);
  assert.deepEqual(row(summary, "transfer"), [480, 480, -480, -480]);
  assert.deepEqual(row(summary, "net"), [360, 840, -600, -600]);
  assert.deepEqual(row(summary, "change"), [360, 840, -600, -600]);
  assert.deepEqual(row(summary, "before"), [1000, 1000, 1000, 1000]);
  assert.deepEqual(row(summary, "after"), [1360, 1840, 400, 400]);
  assert.deepEqual(row(summary, "cardsLeft").map((cell) => cell.count), [0, 0, 6, 0], "as counted by the server");
  assert.deepEqual(summary.teamPhases, [0, 6]);
});

test("C5.8: a double win leaves the two players left unplaced", () => {
  const summary = S.classicResult(settled({ you: 0, finishOrder: [1, 3], cardsLeft: [7, 0, 12, 0] },
    { result: "double", finish_order: [1, 3], a: 3 }));
  assert.equal(summary.level, "double");
  assert.deepEqual(row(summary, "place"), [null, null, 1, 2]);
});

test("C6: escape and fee rows appear when the server charged them; an escaper is named", () => {
  const escape = {
    result: "escape", escaper: 2, winners: [1, 3], penalty: 1080, escape_payments: [0, 540, -1080, 540],
    table_fees: [5, 5, 5, 5], win_fees: [0, 10, 0, 10],
  };
  const mine = S.classicResult(settled({ you: 2 }, escape));
  assert.equal(mine.title, "youEscaped");
  assert.equal(mine.escaper, 2);
  assert.deepEqual(row(mine, "escape"), [-1080, 0, 540, 540]);
  assert.deepEqual(row(mine, "tableFee"), [5, 5, 5, 5]);
  assert.deepEqual(row(mine, "winFee"), [0, 0, 10, 10]);
  const theirs = S.classicResult(settled({ you: 1 }, escape));
  assert.equal(theirs.title, "otherEscaped");
  assert.equal(theirs.level, "escape");
  const hosted = S.classicResult(settled({ you: 1 }, { escaper: 2, penalty: 1080, escape_payments: [0, 540, -1080, 540] }));
  assert.equal(hosted.title, "teamWins", "C6.1: an escaper's game was played to its end; its result stands");
  assert.equal(hosted.escaper, 2);
});

test("C5.8 亮牌: the result shows the cards each seat still held when the server reveals them", () => {
  const state = settled({ you: 0 });
  const game = { ...state.table.game, revealed: [[], [], ["3H", "3S", "9C", "QD", "BJ", "SJ"], []] };
  const shown = { ...state, table: { ...state.table, game } };
  const held = row(S.classicResult(shown), "cardsLeft");
  const third = held.find((cell) => cell.count === 6);
  assert.deepEqual(third.cards, ["3H", "3S", "9C", "QD", "BJ", "SJ"]);
  assert.equal(row(S.classicResult(state), "cardsLeft").find((cell) => cell.count === 6).cards, null, "not revealed: counts only");
});

test("C6.1: leaving a four-seat host table: the penalty comes with the game's result; a seat that is out leaves freely", () => {
  const cost = table4().escape_cost;
  const hosted = S.receiveLeft(S.leaveRequested(seated4()), { type: "left", escape: true, hosted: true, charged: cost });
  assert.deepEqual([hosted.escapeReport.hosted, hosted.escapeReport.when, hosted.escapeReport.penalty], [true, "end", 1080]);
  const out = S.receiveLeft(S.leaveRequested(seated4({ escapeCost: null })), { type: "left", escape: false, hosted: false, charged: null });
  assert.equal(out.escapeReport, null, "a seat that is out leaves without an escape");
});

test("C2.1: a reloaded page shows each seat's pass and beaten play of the round from the view", () => {
  const plays = [onTable(0, single("3"), 1), onTable(2, single("9"), 2), onTable(3, single("K"), 3)];
  const state = S.receiveState(S.initialState(), state4Message({
    toAct: 1, plays, onTable: plays[2], roundStart: 1, passed: [{ seat: 1, cause: "timeout" }],
  }));
  assert.deepEqual(S.seatAction(state, 0).play.cards, "3", "seat 0's beaten lead");
  assert.deepEqual(S.seatAction(state, 2).play.cards, "9");
  assert.equal(S.seatAction(state, 3), null, "seat 3's play is the one to beat");
  assert.equal(S.seatAction(state, 1), null, "seat 1 is to act");
  const later = S.receiveState(state, state4Message({
    seq: 6, toAct: 0, plays, onTable: plays[2], roundStart: 1, passed: [{ seat: 1, cause: "timeout" }],
  }, [pass(1, "timeout")]));
  assert.deepEqual(S.seatAction(later, 1), { pass: { cause: "timeout" } }, "the events go on from the view");
});
