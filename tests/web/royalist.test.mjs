// The state of a Royalist table (games/royalist/state.js) and its replay's steps
// (games/royalist/steps.js), without a browser: five seats around us, the roles as each
// seat may know them (Y2.10), the throne offer and the declarations asked of us (Y2.1–Y2.6),
// the calls of a room whose guard card is called and the 保子牌 (Y9, Y13.18),
// the hint over the server's moves (Y3.7, Y4.7) with the marked cards, the round's passes
// and sets, the result's rows (Y7.3) and a replay with an abdication (Y2.2).

import { test } from "node:test";
import assert from "node:assert/strict";

import * as S from "../../src/shuangkou/web/games/royalist/state.js";
import { replayState, replaySteps } from "../../src/shuangkou/web/games/royalist/steps.js";

const seat = (name) => ({ name, account: name.length, bot: false, connected: true, ready: true, balance: 1000, ready_deadline: null });
const NAMES = ["Ann", "Bob", "Cy", "Di", "Eve"];

/** A Royalist `game` as the server's view of seat `you` writes it (game.py's `view`). */
function game({
  you = 0, phase = "play", toAct = 0, hand = ["9H", "9S", "JC", "2D", "SJ", "SJ*", "BJ"], role = "revolutionary", guardCard = "marked", called = null,
  knownRoles = [role, "emperor", null, null, null], roles = { emperor: 1, guard: null, solo: null }, candidate = null,
  onTable = null, cardsLeft = [7, 33, 34, 34, 33], places = [null, null, null, null, null], multiplier = 1,
  answered = [false, false, false, false, false], finished = false, passed = [],
} = {}) {
  return {
    seq: 3, phase, first_taker: 4, emperor_card: phase === "throne" ? candidate : null, candidate, abdications: [], forced: false,
    to_act: toAct, cards_left: cardsLeft, roles, guard_card: guardCard, called, public_roles: knownRoles.map((known, index) => (index === you ? null : known)),
    answered, declarations: null, multiplier, table: onTable, plays: onTable ? [onTable] : [], passed, finish_order: [], places,
    timeouts: [0, 0, 0, 0, 0], hosting: [false, false, false, false, false], escapers: [], finished, result: null, units: null,
    revealed: null, seat: you, hand, role, known_roles: knownRoles, declared: null, tributes: [],
  };
}

function message(options = {}, { events = [], moves = null, seq = 5, settlement = null, tablePhase = "playing" } = {}) {
  const you = options.you ?? 0;
  const table = {
    id: "T5", room: "royalist", family: "royalist", edition: "points", seq, phase: tablePhase, you, seats: NAMES.map(seat),
    game: game(options), game_id: "g5", turn_seconds: 20, turn_deadline: 1_000_000, escape_cost: null, escape_mode: "host", settlement,
  };
  return { type: "state", events, table, ...(moves ? { moves } : {}) };
}

const at = (options, extra) => S.receiveState(S.initialState(), message(options, extra));
const play = (seatIndex, cards, set) => ({ index: 1, seat: seatIndex, cards, set, cause: "player" });
const nines = { cards: "9 9", naturals: 2, big: 0, small: 0, rank: "9", bomb: false };

test("five seats: the next seat on our right, the two after it across the top, the previous on our left", () => {
  assert.deepEqual(S.seatPositions(at({ you: 2 })), { me: 2, right: 3, topRight: 4, topLeft: 0, left: 1 });
  assert.deepEqual(S.seatPositions(at({ you: 0 })), { me: 0, right: 1, topRight: 2, topLeft: 3, left: 4 });
});

test("Y2.10: a revolutionary knows the emperor only; the guard knows the emperor as his teammate", () => {
  const rebel = at({ you: 0 });
  assert.deepEqual([0, 1, 2, 3, 4].map((index) => S.knownRole(rebel, index)), ["revolutionary", "emperor", null, null, null]);
  assert.deepEqual([0, 1, 2, 3, 4].map((index) => S.sideOf(rebel, index)), ["us", "them", null, null, null]);
  assert.deepEqual(S.teammates(rebel), [], "no teammate is known to a hidden revolutionary");
  assert.deepEqual(S.seatFacts(rebel, 1), { side: "them", role: "emperor", candidate: false, teammate: false, place: null, cardsLeft: 33 });

  const guard = at({ you: 3, role: "guard", knownRoles: ["revolutionary", "emperor", "revolutionary", "guard", "revolutionary"], roles: { emperor: 1, guard: 3, solo: null } });
  assert.deepEqual(S.teammates(guard), [1]);
  assert.equal(S.seatFacts(guard, 1).teammate, true);
  assert.equal(S.sideOf(guard, 0), "them");

  const emperor = at({ you: 1, role: "emperor", knownRoles: [null, "emperor", null, null, null] });
  assert.deepEqual(S.teammates(emperor), [], "the emperor does not know his guard (Y2.4)");
  const alone = at({ you: 1, role: "emperor", knownRoles: [null, "emperor", null, null, null], roles: { emperor: 1, guard: null, solo: "secret" } });
  assert.deepEqual([0, 2, 3, 4].map((index) => S.sideOf(alone, index)), ["them", "them", "them", "them"], "alone, every other seat is against him");
});

test("Y2.1, Y2.5: the throne offer asks its holder, with the choices the server offers, and sends them against the state", () => {
  const choices = [{ type: "ascend" }, { type: "ascend", open_solo: true }, { type: "abdicate" }];
  const state = at({ phase: "throne", candidate: 0, toAct: 0, role: null, knownRoles: [null, null, null, null, null], roles: { emperor: null, guard: null, solo: null } }, { moves: choices });
  assert.deepEqual(S.question(state), { kind: "throne", choices, forced: false, both: true, called: false, calls: [] });
  assert.equal(S.seatFacts(state, 0).candidate, true);
  assert.deepEqual(S.decide(state, choices[1]).send, { type: "ascend", open_solo: true, seq: 5 });
  assert.equal(S.actionButtons(state).shown, false, "no set is played during the offer");
  const other = at({ phase: "throne", candidate: 2, toAct: 2, role: null, knownRoles: [null, null, null, null, null] });
  assert.equal(S.question(other), null);
  assert.equal(S.decide(other, choices[0]).send, undefined, "nothing is asked of us");
});

test("Y2.6: the declarations ask every seat at once; ours until we have answered", () => {
  const state = at({ phase: "declare", toAct: [0, 2, 3, 4], role: "guard" });
  assert.equal(S.isMyTurn(state), true, "to_act is a list");
  assert.deepEqual(S.question(state), { kind: "declare", role: "guard" });
  assert.deepEqual(S.decide(state, { type: "declaration", declare: true }).send, { type: "declaration", declare: true, seq: 5 });
  const answered = at({ phase: "declare", toAct: [2, 4], answered: [true, false, false, true, false] });
  assert.equal(S.question(answered), null);
  assert.deepEqual(S.declarationsPending(answered), { waiting: [2, 4], answered: 2, asked: 4 });
});

test("Y3.7, Y4.7: H cycles through the server's moves, a marked joker named as such, a pass selecting nothing", () => {
  const moves = [{ type: "play", cards: "9 9" }, { type: "play", cards: "9 9 SJ" }, { type: "play", cards: "SJ* SJ" }, { type: "pass" }];
  let state = at({ onTable: play(1, "8H 8C", { ...nines, cards: "8 8", rank: "8" }), toAct: 0 }, { moves });
  state = S.hint(state);
  assert.deepEqual(state.selected.sort(), ["9H#1", "9S#1"]);
  assert.equal(S.hintCount(state), "1/4");
  state = S.hint(state);
  assert.deepEqual(state.selected.sort(), ["9H#1", "9S#1", "SJ#1"], "a plain SJ is the unmarked one");
  state = S.hint(state);
  assert.deepEqual(state.selected.sort(), ["SJ#1", "SJ*#1"]);
  assert.deepEqual(S.play(state).send.cards.split(" ").sort(), ["SJ", "SJ*"], "the marked card is played as such");
  state = S.hint(state);
  assert.deepEqual(state.selected, []);
  assert.equal(state.message.key, "roy.msg.hintPass");
  assert.deepEqual(S.pass(state).send, { type: "pass", seq: 5 });
  assert.equal(S.hint(state).hintIndex, 0, "round and round");
});

test("a marked card is drawn as the joker it is in play (Y4.1)", () => {
  assert.deepEqual(S.royalCards("AC SJ* BJ").map(({ text, rank, joker, marked }) => [text, rank, joker, marked]),
    [["AC", "A", false, false], ["SJ*", "SJ", true, true], ["BJ", "BJ", true, false]]);
});

test("Y3.2–Y3.4: each seat's pass and beaten set of the round beside it, cleared by the next lead", () => {
  let state = at({ toAct: 2, onTable: play(0, "9H 9S", nines) });
  const next = (options, events) => S.receiveState(state, message(options, { events, seq: state.table.seq + 1 }));
  state = next({ toAct: 3, onTable: play(2, "JH JS", { ...nines, rank: "J" }) }, [
    { type: "pass", seat: 1, cause: "auto_pass" }, { type: "play", seat: 2, cause: "player", cards: "JH JS", set: { ...nines, rank: "J" } }]);
  assert.deepEqual(S.seatAction(state, 1), { pass: { cause: "auto_pass" } });
  assert.equal(S.seatAction(state, 2), null, "the set to beat is drawn in the middle");
  state = next({ toAct: 4, onTable: play(3, "QH QS", { ...nines, rank: "Q" }) }, [{ type: "play", seat: 3, cause: "player", cards: "QH QS", set: { ...nines, rank: "Q" } }]);
  assert.equal(S.seatAction(state, 2).play.cards, "JH JS", "a beaten set stays by its seat");
  state = next({ toAct: 2, onTable: null }, [{ type: "pass", seat: 3, cause: "player" }, { type: "pass", seat: 4, cause: "player" },
    { type: "pass", seat: 0, cause: "player" }]);
  assert.deepEqual(S.seatAction(state, 3), { pass: { cause: "player" } }, "the round's passes stay until the lead");
  assert.equal(S.seatAction(state, 2), null, "the seat that leads is to act");
  state = next({ toAct: 3, onTable: play(2, "6H", { ...nines, naturals: 1, rank: "6" }) },
    [{ type: "play", seat: 2, cause: "player", cards: "6H", set: { ...nines, naturals: 1, rank: "6" } }]);
  assert.deepEqual([0, 1, 3, 4].map((index) => S.seatAction(state, index)), [null, null, null, null], "a lead clears the round");
});

test("Y7.3: the result's rows are the settlement's, our seat first, every hand shown", () => {
  const settlement = {
    result: "royals", roles: { emperor: 1, guard: 3, solo: null }, multiplier: 2, finish_order: [4, 1, 3], places: [null, 2, null, 3, 1],
    units: [-2, 4, -2, 2, -2], match_points: 60, levels: [5, 5, 5, 5, 5], escapers: [], escape_payments: [0, 0, 0, 0, 0], nets: [-120, 240, -120, 120, -120],
    table_fees: [0, 0, 0, 0, 0], win_fees: [0, 0, 0, 0, 0], house: 0, capped: false, deltas: [-120, 240, -120, 120, -120],
    balances_before: [1000, 1000, 1000, 1000, 1000], balances_after: [880, 1240, 880, 1120, 880],
  };
  const state = at({ you: 3, finished: true, phase: "over", toAct: null }, { settlement, tablePhase: "settled" });
  state.table.game.revealed = ["6S 6H", "", "JS JD", "", ""];
  state.table.game.declarations = { open_guard: false, revolts: [2, 4], revolt_success: true };
  const result = S.royalResult(state);
  assert.deepEqual(result.columns, [3, 4, 0, 1, 2]);
  assert.equal(result.title, "youWin");
  assert.equal(result.delta, 120);
  const row = (key) => result.rows.find((candidate) => candidate.key === key).cells;
  assert.deepEqual(row("role"), ["guard", "revolutionary", "revolutionary", "emperor", "revolutionary"]);
  assert.deepEqual(row("declared"), [null, "revolt", null, null, "revolt"]);
  assert.deepEqual(row("place"), [3, 1, null, 2, null]);
  assert.deepEqual(row("units"), [2, -2, -2, 4, -2]);
  assert.deepEqual(row("net"), [120, -120, -120, 240, -120]);
  assert.deepEqual(row("after"), [1120, 880, 880, 1240, 880]);
  assert.deepEqual(row("held"), ["", "", "6S 6H", "", "JS JD"]);
  assert.ok(!result.rows.some((candidate) => candidate.key === "tableFee"), "no row of zeros");
});

test("Y2.2: a replay's steps move the emperor card with each abdication and take each set from its hand", () => {
  const replay = {
    game_id: "g5", room: "royalist", edition: "points", seats: NAMES.map((name) => ({ name, bot: false, bot_level: null })),
    hands: ["BJ* 9H", "9S 10H", "JC JD", "QH SJ*", "KH KS"], roles: { emperor: 1, guard: 3, solo: null }, abdications: [0],
    declarations: { open_guard: false, revolts: [], revolt_success: false }, multiplier: 1,
    events: [
      { type: "deal", seat: 0, cards: [2, 2, 2, 2, 2], emperor_card: 0 }, { type: "offer", seat: 0, abdications: 0, forced: false },
      { type: "abdicate", seat: 0, cause: "player", to: 1 }, { type: "offer", seat: 1, abdications: 1, forced: false },
      { type: "ascend", seat: 1, cause: "player" }, { type: "declarations_open", seats: [0, 2, 3, 4] },
      { type: "declared", seat: 0, cause: "player" }, { type: "timeout", seat: 2, count: 1 },
      { type: "declarations", open_guard: null, revolts: [], revolt_success: false, guard: null, solo: null, multiplier: 1 },
      { type: "play", seat: 1, cause: "player", cards: "BJ* 9S", set: { cards: "9 BJ", naturals: 1, big: 1, small: 0, rank: "9", bomb: false } },
      { type: "out", seat: 1, place: 1 },
    ],
    settlement: { places: [null, 1, null, null, null], finish_order: [1] },
  };
  const steps = replaySteps(replay);
  assert.deepEqual(steps.map((step) => step.kind), ["deal", "abdicate", "ascend", "declarations", "play"]);
  assert.equal(steps[0].seat, 0, "the deal names the holder of the emperor card");
  assert.deepEqual(steps[1].hands.slice(0, 2), [["9H"], ["9S", "10H", "BJ*"]]);
  assert.deepEqual(steps[3].before.map((event) => event.type), ["timeout"], "a timeout is told with the step it caused");
  assert.deepEqual(steps[4].hands[1], ["10H"]);
  assert.deepEqual(steps[4].out, [1]);
  const table = replayState(replay, steps, 3);
  assert.equal(table.seenFrom, 3);
  assert.deepEqual(table.table.game.public_roles, ["revolutionary", "emperor", "revolutionary", "guard", "revolutionary"]);
  assert.deepEqual(table.table.game.revealed, ["9H", "10H", "JC JD", "QH SJ*", "KH KS"]);
  assert.throws(() => replaySteps({ ...replay, events: [{ type: "play", seat: 2, cards: "2S", set: null }] }), /seat 2 plays 2S/);
});

const CALLER = ["7H", "7H", "7H", "9S", "9S", "9S", "9S", "QC", "BJ*"];
const unknownRoles = { role: null, knownRoles: [null, null, null, null, null], roles: { emperor: null, guard: null, solo: null } };

test("Y9, Y13.18: a called room's throne offer: a call per card held three times, alone in secret with four, 包 only with four", () => {
  const choices = [{ type: "call", card: "7H" }, { type: "call", card: "9S" }, { type: "call", card: "9S", open_solo: true }, { type: "abdicate" }];
  const state = at({ phase: "throne", candidate: 0, toAct: 0, hand: CALLER, guardCard: "called", ...unknownRoles }, { moves: choices });
  const asked = S.question(state);
  assert.equal(asked.called, true);
  assert.equal(asked.both, false, "there is no SJ* in a called room");
  assert.deepEqual(asked.calls, [
    { card: "7H", copies: 3, call: choices[0], openSolo: null },
    { card: "9S", copies: 4, call: choices[1], openSolo: choices[2] },
  ]);
  assert.deepEqual(S.decide(state, choices[2]).send, { type: "call", card: "9S", open_solo: true, seq: 5 });
  assert.equal(S.calledCard(state), null, "nothing called yet");

  const nothing = at({ phase: "throne", candidate: 0, toAct: 0, hand: ["7H", "7S", "BJ*"], guardCard: "called", ...unknownRoles },
    { moves: [{ type: "abdicate" }] });
  assert.deepEqual(S.question(nothing).calls, [], "no three identical cards: abdicate only");
  const watcher = at({ phase: "throne", candidate: 2, toAct: 2, guardCard: "called", ...unknownRoles });
  assert.equal(S.calledRoom(watcher), true);
  assert.equal(S.question(watcher), null);
});

test("Y9: once called, everyone sees the card and the three copies shown, no seat named", () => {
  const state = at({ phase: "declare", toAct: [0, 2, 3, 4], guardCard: "called", called: "7H" });
  assert.deepEqual(S.calledCard(state), { card: "7H", shown: ["7H", "7H", "7H"] });
  assert.equal(S.calledCard(at({})), null, "a marked room calls nothing");
});

test("Y9: the 保子牌 is worth 18 and sorted above the jokers; a hint names it, a plain 7 never takes it", () => {
  assert.deepEqual((({ text, rank, suit, marked, called, value }) => ({ text, rank, suit, marked, called, value }))(S.royalCard("7H*")),
    { text: "7H*", rank: "7", suit: "H", marked: true, called: true, value: 18 });
  assert.equal(S.royalCard("SJ*").called, false);
  const moves = [{ type: "play", cards: "7" }, { type: "play", cards: "7 7H*" }];
  let state = at({ hand: ["7S", "9H", "BJ", "7H*"], role: "guard", guardCard: "called", called: "7H" }, { moves });
  assert.deepEqual(S.displayHand(state).map((card) => card.text), ["7H*", "BJ", "9H", "7S"]);
  state = S.hint(state);
  assert.deepEqual(state.selected, ["7S#1"], "a plain 7 is never the 保子牌");
  state = S.hint(state);
  assert.deepEqual(state.selected.sort(), ["7H*#1", "7S#1"]);
  assert.equal(S.play(state).send.cards.split(" ").sort().join(" "), "7H* 7S", "played by its name");
});

test("Y9: the 7 key takes the plain 7s, never the 保子牌; with only the 保子牌 it says there is no 7", () => {
  const guard = { role: "guard", guardCard: "called", called: "7H" };
  const onlyCalled = { eligible: (card) => !card.called, noRank: "roy.msg.noRank" };
  let state = S.selectRank(at({ hand: ["7S", "7D", "9H", "7H*"], ...guard }), "7", onlyCalled);
  assert.deepEqual(state.selected, ["7S#1"]);
  state = S.selectRank(S.selectRank(state, "7", onlyCalled), "7", onlyCalled);
  assert.deepEqual(state.selected, [], "the whole rank selected, then unselected, the 保子牌 never");
  state = S.selectRank(at({ hand: ["9H", "7H*"], ...guard }), "7", onlyCalled);
  assert.deepEqual([state.selected, state.message.key, state.message.rank], [[], "roy.msg.noRank", "7"]);
});

test("Y9: a replay marks the fourth copy at the call, and its table names the card called", () => {
  const replay = {
    game_id: "g6", room: "royalist", edition: "points", seats: NAMES.map((name) => ({ name, bot: false, bot_level: null })),
    hands: ["BJ* 7H 7H 7H", "9S 10H", "7H QD", "QH KS", "KH AS"], roles: { emperor: 0, guard: 2, solo: null }, abdications: [],
    declarations: null, multiplier: 1,
    events: [
      { type: "deal", seat: 0, cards: [4, 2, 2, 2, 2], emperor_card: 0 }, { type: "offer", seat: 0, abdications: 0, forced: false },
      { type: "ascend", seat: 0, cause: "player", call: "7H" },
      { type: "play", seat: 0, cause: "player", cards: "7H 7H", set: { cards: "7 7", naturals: 2, big: 0, small: 0, rank: "7", bomb: false } },
      { type: "play", seat: 2, cause: "player", cards: "QD 7H*", set: { cards: "Q *", naturals: 1, big: 0, small: 0, rank: "Q", bomb: false, top: 1 } },
      { type: "reveal", seat: 2, role: "guard" },
    ],
    settlement: { places: [null, null, null, null, null], finish_order: [] },
  };
  const steps = replaySteps(replay);
  assert.deepEqual(steps.map((step) => step.kind), ["deal", "ascend", "play", "play"]);
  assert.deepEqual(steps[0].hands[2], ["7H", "QD"], "the deal as it was");
  assert.deepEqual(steps[1].hands[2], ["7H*", "QD"], "the fourth copy is the 保子牌 from the call on");
  assert.deepEqual(steps[3].hands[2], []);
  const table = replayState(replay, steps);
  assert.equal(table.table.game.called, "7H");
  assert.equal(S.calledRoom(table), true);
  const alone = replaySteps({ ...replay, hands: ["BJ* 7H 7H 7H 7H", "9S", "QD", "QH", "KH"], events: replay.events.slice(0, 3) });
  assert.deepEqual(alone[1].hands[0], ["BJ*", "7H", "7H", "7H", "7H*"], "all four with the emperor: his own fourth copy");
});

test("Y4.7: H before the moves came: the page says they are coming, then shows the hint as they come", () => {
  const moves = [{ type: "play", cards: "9 9" }, { type: "pass" }];
  let state = at({ onTable: play(1, "8H 8C", { ...nines, cards: "8 8", rank: "8" }), toAct: 0 });
  state = S.hint(state);
  assert.equal(state.message.key, "roy.msg.movesComing");
  assert.deepEqual(state.selected, []);
  state = S.reduce(state, state, { type: "hint", seq: 5, moves });
  assert.equal(state.message.key, "roy.msg.hint");
  assert.deepEqual(state.selected.sort(), ["9H#1", "9S#1"]);
  assert.equal(S.reduce(state, state, { type: "hint", seq: 5, moves }).hintIndex, 0, "moves that come again move the hint on only when asked");
});
