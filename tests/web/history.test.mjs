// The history page's rows name each game's result in that game's words, without a browser:
// a result both games have (a draw) is said as its own game says it.

import { test } from "node:test";
import assert from "node:assert/strict";

import { loadGame } from "../../src/shuangkou/web/games/index.js";
import { t, setLang } from "../../src/shuangkou/web/i18n.js";
import { historyRow } from "../../src/shuangkou/web/replay.js";

const stored = (family, result) => ({
  game_id: "g", finished_at: "2026-12-05T12:00:00", family, room: family, edition: "points", seat: 0,
  seats: [{ name: "Ann", bot: false }, { name: "Bob", bot: false }], teams: [0, 1], result, won: false, delta: 0, balance_after: 1000,
});

test("a history row carries its game, and each game names its own draw", async () => {
  setLang("en");
  const royalist = await loadGame("royalist");
  await loadGame("shuangkou");
  assert.equal(historyRow(stored("royalist", "draw")).family, "royalist");
  assert.equal(historyRow({ ...stored("x", "flat"), family: undefined }).family, "shuangkou", "a game stored before games had names");
  assert.equal(royalist.resultName("draw"), "A draw");
  assert.equal(t("result.draw"), "Draw (平扣)", "Shuangkou's draw stays Shuangkou's");
  assert.equal(royalist.resultName("royals"), "The royals win (保皇成功)");
});
