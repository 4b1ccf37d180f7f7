// The members of a game's renderer that the shell reads besides drawing (games/index.js,
// docs/web.md "A renderer per game"): what a seat shows of the game, the game's refusals.

import { test } from "node:test";
import assert from "node:assert/strict";

import { loadGame } from "../../src/shuangkou/web/games/index.js";
import * as shell from "../../src/shuangkou/web/state.js";
import * as S from "../../src/shuangkou/web/games/shuangkou/state.js";
import { state4Message, stateMessage } from "./fixtures.mjs";

test("the renderer says what a seat shows of the game and which refusals are its own", async () => {
  const renderer = await loadGame("shuangkou");
  assert.equal(typeof renderer.seatBadges, "function");
  assert.deepEqual([...renderer.refusals], [...S.REFUSALS]);
  for (const code of ["invalid_combination", "does_not_beat", "pass_on_lead", "cards_not_held", "no_cards", "unknown_card"]) {
    assert.ok(renderer.refusals.includes(code), code);
    assert.ok(!shell.ACTION_ERRORS.includes(code), `${code} is not the shell's`);
  }
});

test("a seat at two seats: its cards only, no side, role or place", () => {
  const state = S.receiveState(S.initialState(), stateMessage({ cardsLeft: [6, 11] }));
  assert.deepEqual(S.seatFacts(state, 0, "me"), { side: null, role: null, place: null, cardsLeft: 6 });
  assert.deepEqual(S.seatFacts(state, 1, "top"), { side: null, role: null, place: null, cardsLeft: 11 });
});

test("a seat at four: its side and role from the server's teams, its place from the finishing order", () => {
  const state = S.receiveState(S.initialState(), state4Message({ you: 1, finishOrder: [3], cardsLeft: [9, 12, 20, 0] }));
  assert.deepEqual(S.seatFacts(state, 1, "me"), { side: "us", role: null, place: null, cardsLeft: 12 });
  assert.deepEqual(S.seatFacts(state, 3, "top"), { side: "us", role: "partner", place: 1, cardsLeft: 0 });
  assert.deepEqual(S.seatFacts(state, 2, "right"), { side: "them", role: "opp", place: null, cardsLeft: 20 });
  const waiting = S.receiveState(S.initialState(), state4Message({ game: false, phase: "ready" }));
  assert.deepEqual(S.seatFacts(waiting, 1, "right"), { side: null, role: "pos", place: null, cardsLeft: null },
    "before the first deal a seat is named by its place");
});

test("a refused action: the shell's codes for every game, the game's own only with its renderer's refusals", () => {
  const state = S.receiveState(S.initialState(), stateMessage());
  assert.equal(shell.errorOutcome(state, { code: "not_your_turn" }), "play");
  assert.equal(shell.errorOutcome(state, { code: "invalid_combination" }), "toast", "not a refusal the shell knows");
  assert.equal(shell.errorOutcome(state, { code: "invalid_combination" }, S.REFUSALS), "play");
  assert.equal(S.errorOutcome(state, { code: "invalid_combination" }), "play", "Shuangkou's state passes its refusals");
  const refused = shell.receiveError(state, { type: "error", code: "pass_on_lead", message: "lead" }, S.REFUSALS);
  assert.equal(refused.message.code, "pass_on_lead");
  assert.equal(shell.receiveError(state, { type: "error", code: "pass_on_lead", message: "lead" }).message, null);
});
