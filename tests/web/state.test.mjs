// The client's state module without a browser: `node --test tests/web/`.

import { test } from "node:test";
import assert from "node:assert/strict";

import * as S from "../../src/shuangkou/web/games/shuangkou/state.js";
import * as Shell from "../../src/shuangkou/web/state.js";
import { bomb, move, pair, settlement, single, stateMessage, table } from "./fixtures.mjs";

const seated = ({ moves = null, ...options } = {}, events = []) => {
  const state = S.receiveState(S.initialState(), stateMessage(options, events));
  return moves ? S.receiveHint(state, { type: "hint", seq: state.table.seq, moves }) : state;
};
const play = (seat, combo, cause = "player") => ({ type: "play", seat, cause, cards: combo.cards, combo });
const onTable = (seat, combo) => ({ index: 1, seat, cards: combo.cards, combo, cause: "player" });

// ---------------------------------------------------------------------------
// welcome, pong, left, closed

test("welcome keeps the account and the rooms and waits for the pong", () => {
  const state = S.receiveWelcome(S.initialState({ token: "tok" }), { type: "welcome", account: { name: "Ann" }, rooms: [{ name: "points" }] });
  assert.deepEqual(state.account, { name: "Ann" });
  assert.deepEqual(state.rooms, [{ name: "points" }]);
  assert.equal(state.awaitingPong, true);
  assert.equal(state.gotState, false);
  assert.equal(state.token, "tok");
});

test("a welcome without rooms keeps the rooms known", () => {
  const before = { ...S.initialState(), rooms: [{ name: "wealth" }], account: { name: "Ann" } };
  const state = S.receiveWelcome(before, { type: "welcome" });
  assert.deepEqual(state.rooms, [{ name: "wealth" }]);
  assert.deepEqual(state.account, { name: "Ann" });
});

test("a pong with no state before it means not seated; with an invitation the page joins", () => {
  const welcomed = S.receiveWelcome(S.initialState({ invite: "T9" }), { type: "welcome", rooms: [] });
  assert.equal(S.isNotSeatedPong(welcomed), true);
  const state = S.receivePong(welcomed);
  assert.equal(state.awaitingPong, false);
  assert.equal(state.table, null);
  assert.equal(state.joining, true);
});

test("a pong after the table's state changes nothing but the wait", () => {
  const welcomed = S.receiveWelcome(S.initialState(), { type: "welcome", rooms: [] });
  const withTable = S.receiveState(welcomed, stateMessage());
  assert.equal(S.isNotSeatedPong(withTable), false);
  const state = S.receivePong(withTable);
  assert.equal(state.table.id, "T1");
  assert.equal(state.awaitingPong, false);
  assert.equal(S.receivePong(state), state, "a second pong is ignored");
});

test("left: back to the lobby without the table", () => {
  const state = S.receiveLeft({ ...seated(), joining: true });
  assert.equal(state.view, "lobby");
  assert.equal(state.table, null);
  assert.equal(state.joining, false);
});

test("a redirect of quick match joins the table named once connected; a plain one changes nothing", () => {
  const lobby = S.initialState();
  const state = S.receiveRedirect(lobby, { type: "redirect", url: "http://node-b:8000", table: "T9" });
  assert.equal(state.invite, "T9");
  assert.equal(state.joining, true);
  assert.equal(S.receiveRedirect(lobby, { type: "redirect", url: "http://node-b:8000" }), lobby);
  const placed = S.receiveRedirect(lobby, { type: "redirect", url: "http://node-b:8000", room: "points" });
  assert.equal(placed.rematch, "points");
  assert.equal(placed.joining, true);
  assert.equal(S.receiveState(placed, stateMessage({ hand: ["3S"] })).rematch, null);
});

test("the join after a redirect says so and names the room for a quick match there; an invitation's does not", () => {
  assert.equal(S.pendingJoin(S.initialState()), null);
  assert.deepEqual(S.pendingJoin(S.initialState({ invite: "T1" })), { type: "join", table: "T1" });
  const lobby = S.initialState();
  const toTable = S.receiveRedirect(lobby, { type: "redirect", url: "http://node-b:8000", table: "T9", room: "points" });
  assert.deepEqual(S.pendingJoin(toTable), { type: "join", table: "T9", room: "points", redirected: true });
  const toRoom = S.receiveRedirect(lobby, { type: "redirect", url: "http://node-b:8000", room: "points" });
  assert.deepEqual(S.pendingJoin(toRoom), { type: "join", room: "points", opponent: "human", redirected: true });
  assert.equal(S.receiveState(toTable, stateMessage({ hand: ["3S"] })).redirected, false);
});

test("closed drops the table except on a shutdown or a move to another node", () => {
  const state = seated();
  assert.equal(S.receiveClosed(state, "not_ready").table, null);
  assert.equal(S.receiveClosed(state, "shutdown").table.id, "T1");
  assert.equal(S.receiveClosed(state, "moved").table.id, "T1");
  assert.equal(S.receiveClosed(state, "moving").table.id, "T1");
});

// ---------------------------------------------------------------------------
// state

test("a state seats us at the table with a keyed hand, the invitation used", () => {
  const state = S.receiveState({ ...S.initialState({ invite: "T1" }), joining: true, busy: true }, stateMessage({ hand: ["QH", "QH", "3S"] }));
  assert.equal(state.view, "table");
  assert.equal(state.invite, null);
  assert.equal(state.joining, false);
  assert.equal(state.busy, false);
  assert.equal(state.statesOnConnection, 1);
  assert.deepEqual(state.hand.map((card) => card.key), ["QH#1", "QH#2", "3S#1"]);
  assert.equal(S.mySeat(state), 0);
  assert.equal(S.opponentSeat(state), 1);
  assert.equal(S.isMyTurn(state), true);
});

test("a pass becomes the seat's bubble until that seat is to act again", () => {
  const state = seated({ toAct: 0, onTable: onTable(0, single("5")) }, [{ type: "pass", seat: 1, cause: "timeout" }]);
  assert.deepEqual(S.bubbleOf(state, 1), { cause: "timeout" });
  assert.equal(S.bubbleOf(state, 0), null);
  const later = S.receiveState(state, stateMessage({ seq: 6, toAct: 1, onTable: onTable(0, single("5")) }));
  assert.equal(S.bubbleOf(later, 1), null, "seat 1 is to act: its old pass is not shown");
});

test("our own play clears the selection and the message; a new game clears the bubbles", () => {
  let state = S.setSelected(seated(), ["3H#1"], true);
  state = S.say(state, "msg.selectFirst");
  state = S.receiveState(state, stateMessage({ seq: 6, toAct: 1, hand: ["3S", "5C"] }, [play(0, single("3"))]));
  assert.deepEqual(state.selected, []);
  assert.equal(state.message, null);
  state = S.receiveState(state, stateMessage({ seq: 7, toAct: 0 }, [{ type: "pass", seat: 1, cause: "player" }]));
  assert.deepEqual(state.bubbles, [null, { cause: "player" }]);
  state = S.receiveState(state, stateMessage({ seq: 8, gameId: "g2" }, [{ type: "deal", seat: 0, flip_card: "4S" }]));
  assert.deepEqual(state.bubbles, [null, null]);
  assert.equal(state.gameId, "g2");
  assert.equal(state.dealAnimation, true);
  assert.equal(S.dealShown(state).dealAnimation, false);
});

test("cards that left the hand leave the selection", () => {
  let state = S.setSelected(seated(), ["3H#1", "QD#1"], true);
  state = S.receiveState(state, stateMessage({ seq: 6, hand: ["3H", "5C"] }));
  assert.deepEqual(state.selected, ["3H#1"]);
});

test("a seat that left is still named by what the server last said", () => {
  let state = seated();
  state = S.receiveState(state, stateMessage({ seq: 6, phase: "settled", seats: [table().seats[0], null], settlement: settlement() }));
  assert.deepEqual(S.seatInfo(state, 1), { name: "Bob", bot: false });
  state = S.receiveState(state, stateMessage({ id: "T2", seq: 1, seats: [table().seats[0], null] }));
  assert.equal(S.seatInfo(state, 1), null, "another table forgets the names");
});

// ---------------------------------------------------------------------------
// error, notice

test("a refused play is said under the hand with the combination it did not beat", () => {
  const state = { ...seated({ onTable: onTable(1, pair("9")) }), busy: true };
  const refused = { type: "error", code: "does_not_beat", message: "3 3 does not beat 9 9" };
  assert.equal(S.errorOutcome(state, refused), "play");
  const next = S.receiveError(state, refused);
  assert.equal(next.busy, false);
  assert.equal(next.message.kind, "error");
  assert.equal(next.message.code, "does_not_beat");
  assert.deepEqual(next.message.onTable, pair("9"));
});

test("errors while joining: an invitation that fails is dropped, already seated rejoins", () => {
  const invited = { ...S.initialState({ invite: "T9" }), joining: true };
  const full = { type: "error", code: "table_full", message: "full" };
  assert.equal(S.errorOutcome(invited, full), "invite");
  const dropped = S.receiveError(invited, full);
  assert.equal(dropped.invite, null);
  assert.equal(dropped.joining, false);
  const joining = { ...S.initialState(), joining: true };
  assert.equal(S.errorOutcome(joining, { code: "already_seated" }), "rejoin");
  assert.equal(S.receiveError(joining, { code: "already_seated" }).joining, false);
});

test("an invalid token signs out; other errors outside the table are toasts", () => {
  const state = { ...S.initialState({ token: "old" }), account: { name: "Ann" } };
  assert.equal(S.errorOutcome(state, { code: "invalid_token" }), "login");
  const out = S.receiveError(state, { code: "invalid_token" });
  assert.equal(out.token, null);
  assert.equal(out.account, null);
  const lobby = { ...state, view: "lobby" };
  assert.equal(S.errorOutcome(lobby, { code: "stale" }), "toast");
  assert.equal(S.receiveError(lobby, { code: "stale" }).message, null);
});

test("the timed-out notice stays under the hand while cards are selected", () => {
  let state = S.receiveNotice(seated(), { type: "notice", code: "timed_out", count: 2, message: "…" });
  assert.deepEqual(state.message, { kind: "warn", source: "notice", key: "notice.timedOut", vars: { count: 2 } });
  state = S.toggleCard(state, "3H#1");
  assert.equal(state.message.source, "notice");
  assert.equal(S.receiveNotice(state, { code: "other" }), state);
});

// ---------------------------------------------------------------------------
// selection and focus

test("selection by card, by rank and clearing", () => {
  let state = seated();
  state = S.toggleCard(state, "QH#1");
  assert.deepEqual(S.selectedCards(state).map((card) => card.text), ["QH"]);
  state = S.toggleCard(state, "QH#1");
  assert.deepEqual(state.selected, []);
  state = S.selectRank(state, "3");
  assert.deepEqual(state.selected, ["3S#1"], "the next card of the rank in display order");
  assert.equal(state.focusKey, "3S#1");
  state = S.selectRank(state, "3");
  assert.deepEqual(state.selected.sort(), ["3H#1", "3S#1"]);
  state = S.selectRank(state, "3");
  assert.deepEqual(state.selected, [], "a rank fully selected is unselected");
  state = S.selectRank(state, "BJ");
  assert.equal(state.message.key, "msg.noRank");
  assert.equal(state.message.rank, "BJ");
  state = S.clearSelection(S.setSelected(state, ["QH#1", "QD#1"], true));
  assert.deepEqual(state.selected, []);
  assert.equal(state.message, null);
});

test("the focus moves along the hand in display order and stays inside it", () => {
  let state = seated(); // display order: SJ QH QD 5C 3S 3H
  assert.equal(S.focusedKey(state), "SJ#1");
  state = S.moveFocus(state, 1);
  assert.equal(state.focusKey, "QH#1");
  state = S.moveFocus(state, -5);
  assert.equal(state.focusKey, "SJ#1");
  state = S.moveFocus(state, 0, -1);
  assert.equal(state.focusKey, "3H#1");
  state = S.toggleSort(state);
  assert.equal(state.sort, "group");
  assert.deepEqual(S.displayHand(state).map((card) => card.text), ["SJ", "QH", "QD", "3S", "3H", "5C"]);
});

// ---------------------------------------------------------------------------
// actions and hints

test("the buttons: no pass on a lead, play once cards are selected, nothing while a play is on its way", () => {
  let state = seated();
  assert.deepEqual(S.actionButtons(state), { shown: true, play: false, pass: false, hint: true, hosting: true, hostingPressed: false });
  state = S.toggleCard(seated({ onTable: onTable(1, single("4")) }), "5C#1");
  assert.equal(S.actionButtons(state).play, true);
  assert.equal(S.actionButtons(state).pass, true);
  assert.equal(S.actionButtons(S.sent(state)).play, false);
  assert.equal(S.actionButtons(seated({ toAct: 1 })).hint, false);
  assert.equal(S.actionButtons(seated({ escaped: 0, hosting: [true, false] })).hosting, false, "an escaped seat stays hosted");
});

test("play and pass: what is sent, or what is said instead", () => {
  const lead = seated();
  assert.equal(S.play(lead).send, undefined);
  assert.equal(S.play(lead).state.message.key, "msg.selectFirst");
  assert.equal(S.pass(lead).state.message.key, "msg.leadNoPass");
  assert.equal(S.play(seated({ toAct: 1 })).state.message.key, "msg.notYourTurn");
  const chosen = S.setSelected(lead, ["QH#1", "QD#1"], true);
  assert.deepEqual(S.play(chosen).send, { type: "play", seq: 5, cards: "QH QD" });
  assert.deepEqual(S.pass(seated({ onTable: onTable(1, single("4")) })).send, { type: "pass", seq: 5 });
  assert.equal(S.play(S.sent(chosen)).send, undefined, "busy: nothing is sent twice");
});

test("hints cycle through the pushed moves in their order and wrap around", () => {
  const moves = [move("single", "3"), move("pair", "3 3"), move("pair", "Q Q")];
  let state = seated({ moves });
  assert.equal(S.hintCount(state), "");
  state = S.hint(state);
  assert.deepEqual(state.selected, ["3H#1"], "the lowest card of the rank");
  assert.equal(S.hintCount(state), "1/3");
  assert.deepEqual(state.message.hint, { index: 0, count: 3, move: move("single", "3") });
  state = S.hint(state);
  assert.deepEqual(state.selected.sort(), ["3H#1", "3S#1"]);
  assert.deepEqual(S.play(state).send, { type: "play", seq: 5, cards: "3H 3S", as: "pair" });
  state = S.hint(S.hint(state));
  assert.equal(S.hintCount(state), "1/3", "after the last move the first again");
  assert.equal(S.play(S.toggleCard(state, "5C#1")).send.as, undefined, "a changed selection is not the hint");
});

test("the cycle starts again with the moves of each new state; not our turn, no hint", () => {
  let state = S.hint(S.hint(seated({ moves: [move("single", "3"), move("single", "5")] })));
  assert.equal(S.hintCount(state), "2/2");
  state = S.receiveState(state, stateMessage({ seq: 6 }));
  assert.equal(S.hintCount(state), "", "moves are for one state");
  state = S.receiveHint(state, { type: "hint", seq: 6, moves: [move("single", "5"), move("single", "Q")] });
  state = S.hint(state);
  assert.deepEqual(state.selected, ["5C#1"]);
  assert.equal(S.hintCount(state), "1/2");
  const waiting = S.hint(seated({ toAct: 1 }));
  assert.equal(waiting.message.key, "msg.notYourTurn");
  assert.deepEqual(waiting.selected, []);
  assert.equal(S.hint(seated({ phase: "settled", finished: true })).message.key, "err.not_playing");
});

test("H before the moves arrive is answered when they come; moves for an older state are ignored", () => {
  let state = S.hint(seated());
  assert.equal(state.hintWanted, true);
  assert.deepEqual(state.selected, []);
  state = S.receiveHint(state, { type: "hint", seq: 4, moves: [move("single", "3")] });
  assert.equal(state.hintWanted, true, "seq 4 is not the state shown (5)");
  state = S.receiveHint(state, { type: "hint", seq: 5, moves: [move("single", "5"), move("pair", "Q Q")] });
  assert.equal(state.hintWanted, false);
  assert.deepEqual(state.selected, ["5C#1"], "the press took the first move");
  assert.equal(S.hintCount(state), "1/2");
  const passed = S.receiveState(S.hint(seated()), stateMessage({ seq: 6, toAct: 1 }));
  assert.equal(passed.hintWanted, false, "a press is forgotten once the turn has passed");
});

test("no legal move: the selection is cleared and the page says so", () => {
  const state = S.hint(S.toggleCard(seated({ moves: [] }), "3H#1"));
  assert.deepEqual(state.selected, []);
  assert.equal(state.message.key, "msg.noMoves");
  assert.equal(S.hintCount(state), "");
});

test("bombs are what the server marks as bombs", () => {
  assert.equal(S.isBomb(bomb("Q", 5)), true);
  assert.equal(S.isBomb(pair("Q")), false);
  assert.equal(S.isBomb(null), false);
});

// ---------------------------------------------------------------------------
// timers, connection, leaving, result

test("timers count down from the deadline, capped by the timer's length", () => {
  assert.deepEqual(S.turnTimer(30_000, 20, 10_000), { seconds: 20, fraction: 1, urgent: false });
  assert.deepEqual(S.turnTimer(30_000, 20, 26_500), { seconds: 4, fraction: 3500 / 20000, urgent: true });
  assert.deepEqual(S.turnTimer(30_000, 20, 40_000), { seconds: 0, fraction: 0, urgent: true });
  assert.equal(S.remainingMs(99_000, 20, 0), 20_000);
  assert.equal(S.remainingMs(null, 20, 0), null);
  assert.equal(S.secondsUntil(5_500, 1_000), 5);
  assert.equal(S.secondsUntil(1_000, 5_000), 0);
});

test("the connection banner shows only after the link was once open", () => {
  let state = S.linkStatus(S.initialState(), "connecting", 0);
  assert.equal(S.connectionBanner(state, 0), null);
  state = S.linkStatus(state, "open", 0);
  assert.equal(S.connectionBanner(state, 0), null);
  state = S.linkStatus(state, "waiting", 10_000, 2_000);
  assert.deepEqual(S.connectionBanner(state, 10_500), { status: "waiting", seconds: 2 });
  assert.deepEqual(S.connectionBanner(S.linkStatus(state, "connecting", 0), 0), { status: "connecting", seconds: null });
});

test("the escape dialog: the penalty, and whether a card was played", () => {
  assert.deepEqual(S.escapeDialog(seated()), { mode: "settle", penalty: 720, edition: "points", played: false });
  assert.equal(S.escapeDialog(seated({ played: [true, false] })).played, true);
  assert.equal(S.escapeDialog(seated({ played: [false, true], cardsLeft: [27, 20] })).played, false, "the other seat's plays do not count");
  assert.equal(S.escapeDialog(seated({ escapeMode: "host" })).mode, "host");
  assert.equal(S.escapeDialog(seated({ phase: "ready" })), null, "leaving between games costs nothing");
});

test("leaving remembers the balance before", () => {
  assert.deepEqual(S.leaveRequested(seated()).leaving, { edition: "points", balance: 1000 });
  assert.equal(S.leaveRequested(seated({ phase: "ready" })).leaving, null);
});

test("the result: who won, the level, the opponent's readiness", () => {
  const over = { phase: "settled", finished: true, settlement: settlement() };
  assert.equal(S.resultSummary(seated()), null);
  const lost = S.resultSummary(seated(over));
  assert.equal(lost.title, "youLose");
  assert.equal(lost.won, false);
  assert.equal(lost.level, "flat");
  assert.equal(lost.delta, -60);
  assert.equal(lost.cardsLeft, 3);
  assert.equal(lost.opponent, "ready");
  assert.equal(lost.penaltyRow, false);
  const won = S.resultSummary(seated({ ...over, you: 1 }));
  assert.equal(won.title, "youWin");
  assert.equal(won.delta, 60);
  const escape = settlement({ result: "escape", escaper: 1, winner: 0, penalty: 720, deltas: [720, -720] });
  const escaped = S.resultSummary(seated({ ...over, settlement: escape, seats: [table().seats[0], null] }));
  assert.equal(escaped.title, "oppEscaped");
  assert.equal(escaped.level, "escape");
  assert.equal(escaped.cardsLeft, null);
  assert.equal(escaped.penaltyRow, true);
  assert.equal(escaped.opponent, "left");
});

test("hosting switched on by a lost connection is switched off on the first state after it", () => {
  const hosted = seated({ hosting: [true, false] });
  assert.equal(S.shouldResumeControl(hosted, null), true);
  assert.equal(S.shouldResumeControl(hosted, "player"), false, "the player switched it on");
  assert.equal(S.shouldResumeControl(hosted, "timeout"), false);
  assert.equal(S.shouldResumeControl(seated({ hosting: [true, false], escaped: 0 }), null), false);
  assert.equal(S.shouldResumeControl(S.receiveState(hosted, stateMessage({ hosting: [true, false], seq: 6 })), null), false);
});

// ---------------------------------------------------------------------------
// Ready against bots, the offer of bots, what leaving charges, the recent plays' switch

const readyTable = (options = {}) => stateMessage({ phase: "ready", seats: table().seats.map((seat) => ({ ...seat, ready: false })), ...options });

test("R11.4: after Play a bot or a quick match the page says Ready once, by itself; not at an invitation", () => {
  let state = S.receiveState(S.joinRequested(S.initialState(), "bot"), readyTable());
  assert.equal(S.shouldSendReady(state), true);
  state = S.readySent(state);
  assert.equal(S.shouldSendReady(state), false, "once");
  assert.equal(S.shouldSendReady(S.receiveState(state, readyTable({ seq: 6 }))), false);
  assert.equal(S.shouldSendReady(S.receiveState(S.joinRequested(S.initialState(), "human"), readyTable())), true, "quick match");
  assert.equal(S.shouldSendReady(S.receiveState(S.joinRequested(S.initialState(), "invite"), readyTable())), false, "invited");
  const mine = readyTable();
  mine.table.seats[0].ready = true;
  assert.equal(S.shouldSendReady(S.receiveState(S.joinRequested(S.initialState(), "bot"), mine)), false, "already ready");
  const waiting = S.receiveState(S.joinRequested(S.initialState(), "bot"), stateMessage({ phase: "waiting", seats: [table().seats[0], null] }));
  assert.equal(S.shouldSendReady(waiting), false, "the bot is not seated yet");
  assert.equal(S.shouldSendReady(S.receiveState(waiting, readyTable({ seq: 6 }))), true, "then it is");
  const refused = S.receiveError(S.joinRequested(S.initialState(), "bot"), { type: "error", code: "below_entry" });
  assert.equal(refused.autoReady, false, "a refused join says nothing");
  assert.equal(S.receiveState(S.joinRequested(S.initialState(), "bot"), stateMessage()).autoReady, false, "a game already playing");
});

test("bots_offered: the offer shows while our table waits with free seats, and taking it says Ready", () => {
  const waiting = stateMessage({ phase: "waiting", seats: [table().seats[0], null] });
  let state = S.receiveState(S.initialState(), waiting);
  state = S.receiveNotice(state, { type: "notice", code: "bots_offered", count: 1, message: "…" });
  assert.equal(S.botOffer(state), 1);
  assert.equal(state.message, null, "no message under the hand");
  const taken = S.botsAccepted(state);
  assert.equal(S.botOffer(taken), null);
  assert.equal(S.shouldSendReady(S.receiveState(taken, readyTable({ seq: 6 }))), true);
  assert.equal(S.botOffer(S.receiveState(state, readyTable({ seq: 6 }))), null, "someone sat down: no offer");
  assert.equal(S.botOffer(S.receiveState(state, { ...waiting, table: { ...waiting.table, id: "T2" } })), null, "another table");
  assert.equal(S.botOffer(S.showLobby(state)), null);
  assert.equal(S.receiveNotice(S.initialState(), { code: "bots_offered", count: 1 }).botOffer, null, "not seated: nothing offered");
});

test("R10.3: what leaving charges in all, as the dialog states it: the server's exact total", () => {
  assert.deepEqual(S.escapeCharge(seated()), { penalty: 720, rest: 0, fee: 0, total: 720, capped: false, edition: "points", when: "now" });
  const played = { mode: "settle", penalty: 720, owed: 840, fee: 30, charge: 870 };
  assert.deepEqual(S.escapeCharge(seated({ played: [true, false], escapeCost: played })),
    { penalty: 720, rest: 120, fee: 30, total: 870, capped: false, edition: "points", when: "now" },
    "after a card the normal loss and the opponent's contribution come on top, and the table fee");
  const capped = { mode: "settle", penalty: 720, owed: 840, fee: 0, charge: 500 };
  assert.equal(S.escapeCharge(seated({ escapeCost: capped })).capped, true, "R9.5: a balance pays what it holds");
  assert.deepEqual(S.escapeCharge(seated({ escapeMode: "host" })), { penalty: 0, rest: null, fee: null, total: null, capped: false, edition: "points", when: "none" },
    "R10.1: hosting plays on and the game is settled normally");
  assert.equal(S.escapeCharge(seated({ phase: "ready" })), null);
});

test("after leaving, the lobby shows what the server says the escape charged", () => {
  const charged = { mode: "settle", penalty: 720, owed: 840, fee: 0, charge: 840 };
  const played = S.leaveRequested(seated({ played: [true, false], escapeCost: { ...charged, charge: 800, owed: 800 } }));
  const state = S.receiveLeft(played, { type: "left", escape: true, hosted: false, charged });
  assert.equal(state.view, "lobby");
  const report = state.escapeReport;
  assert.deepEqual(
    { penalty: report.penalty, rest: report.rest, fee: report.fee, total: report.total, before: report.before, after: report.after },
    { penalty: 720, rest: 120, fee: 0, total: 840, before: 1000, after: 160 },
    "the figures of `left`, not of the last state",
  );
  assert.equal(S.dismissEscapeReport(state).escapeReport, null);
  assert.equal(S.joinRequested(state, "human").escapeReport, null, "gone with the next game");
  const hostCost = { mode: "host", penalty: 0, owed: null, fee: null, charge: null };
  const hosted = S.receiveLeft(S.leaveRequested(seated({ escapeMode: "host" })), { type: "left", escape: true, hosted: true, charged: hostCost });
  assert.equal(hosted.escapeReport.hosted, true);
  assert.equal(hosted.escapeReport.total, null, "settled only when hosting has played it out");
  const between = S.receiveLeft(S.leaveRequested(seated({ phase: "ready" })), { type: "left", escape: false, hosted: false, charged: null });
  assert.equal(between.escapeReport, null, "leaving between games charges nothing");
});

test("the recent plays' switch opens and closes them", () => {
  const state = S.toggleHistory(seated());
  assert.equal(state.historyOpen, true);
  assert.equal(S.toggleHistory(state).historyOpen, false);
});

test("R2.4: a reloaded page shows the pass that ended the round, and every play of the game", () => {
  const plays = Array.from({ length: 12 }, (_, i) => ({ index: i + 1, seat: i % 2, cards: "3H", combo: single("3"), cause: "player" }));
  const state = S.receiveState(S.initialState(), stateMessage({ toAct: 1, plays, roundStart: 12, passed: [{ seat: 0, cause: "auto_pass" }] }));
  assert.deepEqual(S.bubbleOf(state, 0), { cause: "auto_pass" });
  assert.equal(S.currentGame(state).plays.length, 12);
});

test("the pass is one of the hints: selected, it selects no card and Enter passes (issue #43)", () => {
  const passHint = { type: "pass" };
  let state = seated({ onTable: onTable(1, single("4")), moves: [passHint, move("single", "5")] });
  state = S.hint(S.toggleCard(state, "3H#1"));
  assert.deepEqual(state.selected, [], "the first hint is to pass: nothing selected");
  assert.deepEqual(state.message.hint, { index: 0, count: 2, move: passHint });
  assert.deepEqual(S.play(state).send, { type: "pass", seq: 5 }, "Enter passes");
  state = S.hint(state);
  assert.deepEqual(state.selected, ["5C#1"]);
  assert.equal(S.play(state).send.type, "play");
  assert.equal(S.play(S.toggleCard(S.hint(state), "3H#1")).send.type, "play", "cards chosen after the pass hint are played");
  const only = S.hint(seated({ onTable: onTable(1, single("2")), moves: [passHint] }));
  assert.equal(only.message.key, "msg.noMoves");
  assert.deepEqual(S.play(only).send, { type: "pass", seq: 5 });
});

test("a pass made by the pass hint is over once sent: at our next turn Enter with no card selected passes no more", () => {
  let state = S.hint(seated({ onTable: onTable(1, single("4")), moves: [{ type: "pass" }, move("single", "5")] }));
  assert.equal(S.play(state).send.type, "pass");
  state = S.receiveState(state, stateMessage({ seq: 7, toAct: 0 }, [{ type: "pass", seat: 0, cause: "player" }]));
  assert.equal(state.hintApplied, null);
  const enter = S.play(state);
  assert.equal(enter.send, undefined, "nothing is sent");
  assert.equal(enter.state.message.key, "msg.selectFirst");
});

test("Esc clears the selection and starts the hint cycle again", () => {
  const moves = [move("single", "3"), move("pair", "3 3"), move("pair", "Q Q")];
  let state = S.hint(S.hint(seated({ moves })));
  assert.equal(S.hintCount(state), "2/3");
  state = S.restartHints(state);
  assert.deepEqual(state.selected, []);
  assert.equal(S.hintCount(state), "");
  assert.deepEqual(S.hint(state).selected, ["3H#1"], "H shows the first hint again");
});

test("R11.4: a seat the ready timer freed is said in the lobby until dismissed or the next join", () => {
  const seated = S.receiveState(S.initialState(), readyTable());
  const lost = S.receiveClosed(seated, "not_ready");
  assert.equal(lost.table, null);
  assert.equal(lost.seatLost, true);
  assert.equal(S.showLobby(lost).seatLost, true, "the lobby keeps it");
  assert.equal(S.dismissSeatLost(lost).seatLost, false);
  assert.equal(S.joinRequested(lost, "human").seatLost, false, "gone with the next join");
  assert.equal(S.receiveClosed(seated, "table_closed").seatLost, false, "only the ready timer frees a seat so");
});

test("every game's breakdown ends with the payout's rows: fees when charged, then the balances", () => {
  const payout = {
    table_fees: [5, 5], win_fees: [0, 0], deltas: [-105, 95], balances_before: [1000, 1000], balances_after: [895, 1095],
  };
  const rows = Shell.payoutRows(payout, (pick) => [1, 0].map(pick)); // the columns: seat 1, then seat 0
  assert.deepEqual(rows, [
    { key: "tableFee", cells: [5, 5] },
    { key: "before", cells: [1000, 1000] },
    { key: "change", cells: [95, -105] },
    { key: "after", cells: [1095, 895] },
  ]);
});
