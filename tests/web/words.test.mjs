// A game's words are its renderer's (games/NAME/i18n.js): the shell's dictionaries hold only
// the shell's words until the game's renderer is loaded, then both, in every language.

import { test } from "node:test";
import assert from "node:assert/strict";

test("Shuangkou's words join the shell's dictionaries when its renderer loads", async () => {
  const { dictionaries, t } = await import("../../src/shuangkou/web/i18n.js");
  const shellKeys = new Set(Object.keys(dictionaries.en));
  assert.deepEqual(new Set(Object.keys(dictionaries.zh)), shellKeys, "the shell's words in both languages");
  for (const key of ["kind.straight", "err.invalid_combination", "err.does_not_beat", "help.rule1", "tracker.cell", "result4.net"]) {
    assert.ok(!shellKeys.has(key), `${key} is not the shell's`);
  }
  for (const key of ["err.not_your_turn", "err.generic", "seat.ready", "lobby.rules", "help.title"]) assert.ok(shellKeys.has(key), key);

  const { loadGame } = await import("../../src/shuangkou/web/games/index.js");
  const renderer = await loadGame("shuangkou");
  assert.deepEqual(new Set(Object.keys(renderer.words.zh)), new Set(Object.keys(renderer.words.en)), "the game's words in both languages");
  for (const key of Object.keys(renderer.words.en)) {
    assert.ok(!shellKeys.has(key), `${key} is the game's or the shell's, not both`);
    assert.equal(dictionaries.en[key], renderer.words.en[key]);
    assert.equal(dictionaries.zh[key], renderer.words.zh[key]);
  }
  assert.equal(t("err.invalid_combination"), "These cards are not a valid combination.");
});

test("every game's words are in both languages, and no two games share a key", async () => {
  const { GAMES, loadGame } = await import("../../src/shuangkou/web/games/index.js");
  const owner = new Map(); // key → the game whose word it is
  for (const name of GAMES) {
    const renderer = await loadGame(name);
    assert.deepEqual(new Set(Object.keys(renderer.words.zh)), new Set(Object.keys(renderer.words.en)), `${name}: both languages`);
    for (const key of Object.keys(renderer.words.en)) {
      assert.ok(!owner.has(key), `${key} is a word of ${owner.get(key)} and of ${name}`);
      owner.set(key, name);
    }
  }
});

test("a refusal is said in the game's own words for its code, else the shared words, else the server's text", async () => {
  const { loadGame } = await import("../../src/shuangkou/web/games/index.js");
  await loadGame("royalist");
  const { refusalText } = await import("../../src/shuangkou/web/render/common.js");
  const { t } = await import("../../src/shuangkou/web/i18n.js");
  const refused = (code) => ({ code, text: `server says ${code}` });
  assert.equal(refusalText(refused("does_not_beat"), "roy"), t("roy.err.does_not_beat"));
  assert.equal(refusalText(refused("not_your_turn"), "roy"), t("err.not_your_turn"));
  assert.equal(refusalText(refused("not_your_turn")), t("err.not_your_turn"));
  assert.equal(refusalText(refused("brand_new"), "roy"), t("err.generic", { message: "server says brand_new" }));
  assert.notEqual(t("roy.err.does_not_beat"), t("err.not_your_turn"));
});
