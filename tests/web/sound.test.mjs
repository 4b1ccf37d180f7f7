// The sound module without a browser: the mute switch is kept by the storage it is given,
// and every tune is short and audible. (Sounding them needs Web Audio: tests/test_web.py.)

import { test } from "node:test";
import assert from "node:assert/strict";

import { Sound, TUNES } from "../../src/shuangkou/web/sound.js";

/** A storage as the browser's localStorage behaves: strings by key. */
class Storage {
  constructor() { this.items = new Map(); }
  getItem(key) { return this.items.has(key) ? this.items.get(key) : null; }
  setItem(key, value) { this.items.set(key, String(value)); }
}

test("the mute switch is remembered by the storage, for the next page too", () => {
  const storage = new Storage();
  const first = new Sound(storage);
  assert.equal(first.muted, false, "sound is on at the first visit");
  first.setMuted(true);
  assert.equal(storage.getItem("shuangkou.sound"), "off");
  assert.equal(new Sound(storage).muted, true, "a reload keeps it");
  new Sound(storage).setMuted(false);
  assert.equal(new Sound(storage).muted, false);
});

test("each moment has a short tune of audible notes", () => {
  assert.deepEqual(Object.keys(TUNES).sort(), ["bomb", "lose", "pass", "play", "tick", "turn", "win"]);
  for (const [name, notes] of Object.entries(TUNES)) {
    for (const [frequency, start, length, wave, slide, loudness] of notes) {
      assert.ok(frequency >= 20 && frequency <= 5000, name);
      assert.ok(slide === null || (slide >= 20 && slide <= 5000), name);
      assert.ok(["sine", "triangle", "square", "sawtooth"].includes(wave), name);
      assert.ok(start >= 0 && length > 0 && start + length <= 0.8, `${name} is short`);
      assert.ok(loudness > 0 && loudness <= 1, name);
    }
  }
});
