// The keys every game's hand answers (handkeys.js), without a browser: what each key does to
// the selection and the focus, where it is pressed, and which keys are left to the game.

import { test } from "node:test";
import assert from "node:assert/strict";

import { RANK_KEYS, handKey } from "../../src/shuangkou/web/handkeys.js";

/** A hand of three cards as a game's state module sees it, and a record of what was called. */
function table() {
  let state = { focus: 1, selected: new Set(), played: 0, escaped: 0, focused: 0, changed: 0 };
  const S = {
    focusedKey: (s) => s.focus,
    toggleCard: (s, key) => ({ ...s, selected: new Set(s.selected.has(key) ? [] : [key]) }),
    moveFocus: (s, delta, absolute = null) => ({ ...s, focus: absolute === null ? Math.max(0, Math.min(2, s.focus + delta)) : absolute < 0 ? 2 : absolute }),
    setSelected: (s, keys, on) => ({ ...s, selected: new Set(on ? keys : []) }),
  };
  const hand = {
    selector: "#hand", S, get: () => state, set: (next) => { state = next; },
    focus: () => { state = { ...state, focused: state.focused + 1 }; },
    selectionChanged: () => { state = { ...state, changed: state.changed + 1 }; },
    play: () => { state = { ...state, played: state.played + 1 }; },
    escape: () => { state = { ...state, escaped: state.escaped + 1 }; },
  };
  return { hand, now: () => state };
}

function press(key, where = "hand") {
  const target = where === "button" ? { tagName: "BUTTON", closest: () => null } : { tagName: "DIV", closest: () => (where === "hand" ? {} : null) };
  return { key, target, prevented: false, preventDefault() { this.prevented = true; } };
}

test("the hand's keys move the focus, select, play and start again", () => {
  const { hand, now } = table();
  assert.equal(handKey(press("ArrowRight"), hand), true);
  assert.equal(now().focus, 2);
  handKey(press("Home"), hand);
  assert.equal(now().focus, 0);
  handKey(press("End"), hand);
  assert.equal(now().focus, 2);
  handKey(press(" "), hand);
  assert.deepEqual([...now().selected], [2]);
  handKey(press("ArrowDown"), hand);
  assert.deepEqual([...now().selected], []);
  handKey(press("ArrowUp"), hand);
  assert.deepEqual([...now().selected], [2]);
  assert.equal(now().focused, 3, "the focus follows each move");
  handKey(press("Enter"), hand);
  handKey(press("Escape"), hand);
  assert.deepEqual([now().played, now().escaped], [1, 1]);
});

test("Enter on a button presses the button; Space, Home and ↑ act only in the hand; other keys are the game's", () => {
  const { hand, now } = table();
  const enter = press("Enter", "button");
  assert.equal(handKey(enter, hand), true);
  assert.equal(enter.prevented, false);
  assert.equal(now().played, 0);
  for (const key of [" ", "Home", "ArrowUp"]) handKey(press(key, "elsewhere"), hand);
  assert.deepEqual([now().focus, now().selected.size], [1, 0]);
  assert.equal(handKey(press("h"), hand), false, "a game's own key");
  assert.equal(RANK_KEYS.t, "10");
  assert.equal(RANK_KEYS.d, "BJ");
});
