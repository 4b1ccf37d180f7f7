// The registry of the games' renderers (games/index.js), without a browser: a game's renderer
// is loaded by its name, and a name the page has no renderer for is refused clearly.

import { test } from "node:test";
import assert from "node:assert/strict";

import { DEFAULT_GAME, GAMES, familyOf, loadGame, loadedGame } from "../../src/shuangkou/web/games/index.js";
import * as shell from "../../src/shuangkou/web/state.js";
import { stateMessage } from "./fixtures.mjs";

test("the Shuangkou renderer is loaded by its name, once, with the whole interface", async () => {
  assert.ok(GAMES.includes("shuangkou"));
  const renderer = await loadGame("shuangkou");
  assert.equal(renderer.name, "shuangkou");
  for (const member of ["initialState", "reduce", "start", "render", "after", "tell", "key", "settlement", "rules", "help"]) {
    assert.equal(typeof renderer[member], "function", member);
  }
  for (const member of ["now", "seat", "text"]) assert.equal(typeof renderer.replay[member], "function", `replay.${member}`);
  assert.equal(await loadGame("shuangkou"), renderer, "loaded once");
  assert.equal(loadedGame("shuangkou"), renderer);
});

test("an unknown game is refused with its name and the games the page shows", async () => {
  const shown = GAMES.map((name) => `"${name}"`).join(", ");
  assert.ok(shown.startsWith('"shuangkou"'));
  await assert.rejects(loadGame("chess"), { message: `unknown game "chess": this page shows ${shown}` });
  await assert.rejects(loadGame("../state"), /unknown game "\.\.\/state"/);
  assert.equal(loadedGame("chess"), null);
});

test("a table, room or stored game without a family is Shuangkou's", () => {
  assert.equal(DEFAULT_GAME, "shuangkou");
  assert.equal(familyOf({ family: "shuangkou" }), "shuangkou");
  assert.equal(familyOf({ family: "royalist" }), "royalist");
  assert.equal(familyOf({ name: "points" }), "shuangkou");
  assert.equal(familyOf(undefined), "shuangkou");
});

test("the renderer's state: its keys from the remembered choices, and its part of a server message after the shell's", async () => {
  const renderer = await loadGame("shuangkou");
  const stored = new Map([["shuangkou.sort", "group"], ["shuangkou.tracker", "1"]]);
  const part = renderer.initialState({ getItem: (key) => stored.get(key) ?? null });
  assert.equal(part.sort, "group");
  assert.equal(part.trackerShown, true);
  assert.deepEqual(part.selected, []);
  const before = { ...shell.initialState(), ...part };
  const message = stateMessage({ hand: ["QH", "QH", "3S"] });
  const after = shell.receiveState(before, message);
  assert.equal(after.view, "table");
  assert.deepEqual(after.hand, [], "the shell does not touch the hand");
  const state = renderer.reduce(before, after, message);
  assert.equal(state.view, "table", "the shell's part kept");
  assert.deepEqual(state.hand.map((card) => card.key), ["QH#1", "QH#2", "3S#1"], "the hand is the game's");
  assert.equal(renderer.reduce(state, state, { type: "pong" }), state, "a message of the shell's only changes nothing of the game's");
});
