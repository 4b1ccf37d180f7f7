// The geometry of a hand's fan (fan.js), without a browser: rows, the step between cards and
// the gap before a suit's first card, at phone and desktop widths.

import { test } from "node:test";
import assert from "node:assert/strict";

import { MAX_STEP, MIN_STEP, fanRowCount, fanStep } from "../../src/shuangkou/web/fan.js";

const PHONE = { width: 366, cardWidth: 54 };
const DESKTOP = { width: 1256, cardWidth: 74 };

/** `count` cards cut into rows as the renderers cut them, each card's group by `groupOf`. */
function rows(count, rowCount, groupOf = () => "") {
  const perRow = Math.ceil(count / rowCount);
  const cards = Array.from({ length: count }, (_, index) => groupOf(index));
  const cut = [];
  for (let start = 0; start < count; start += perRow) cut.push(cards.slice(start, start + perRow));
  return cut;
}

/** The width a row takes with a step and a gap. */
const rowWidth = (row, cardWidth, { step, gap }) =>
  cardWidth + step * (row.length - 1) + gap * row.filter((group, index) => index > 0 && group !== row[index - 1]).length;

test("up to 12 cards take one row at any width; 27 cards take two on a phone and one on a desktop", () => {
  assert.equal(fanRowCount(12, 200, 54), 1);
  assert.equal(fanRowCount(27, PHONE.width, PHONE.cardWidth), 2);
  assert.equal(fanRowCount(27, DESKTOP.width, DESKTOP.cardWidth), 1);
});

test("one row is kept while its cards stand at least MIN_STEP apart, two rows as soon as they would not", () => {
  for (const { width, cardWidth } of [PHONE, DESKTOP]) {
    for (let count = 13; count <= 33; count += 1) {
      const oneRowStep = (width - cardWidth - 4) / (count - 1);
      assert.equal(fanRowCount(count, width, cardWidth), oneRowStep < MIN_STEP * cardWidth ? 2 : 1, `${count} cards in ${width}px`);
    }
  }
});

test("a few cards stand MAX_STEP apart, with the whole suit gap", () => {
  const fan = fanStep(rows(6, 1, (index) => (index < 3 ? "S" : "H")), DESKTOP.width, DESKTOP.cardWidth, 0.3);
  assert.equal(fan.step, MAX_STEP * DESKTOP.cardWidth);
  assert.equal(fan.gap, 0.3 * DESKTOP.cardWidth);
});

test("the rows fit the width, and the suits' gap gives way before the step falls below MIN_STEP", () => {
  const suits = ["S", "H", "C", "D", "T"];
  for (const { width, cardWidth } of [PHONE, DESKTOP]) {
    for (let count = 1; count <= 33; count += 1) {
      for (const spread of [1, 2, 3, 5, 7]) {
        const groupOf = (index) => suits[Math.min(4, Math.floor(index / spread))];
        const cut = rows(count, fanRowCount(count, width, cardWidth), groupOf);
        const fan = fanStep(cut, width, cardWidth, 0.3);
        for (const row of cut) assert.ok(rowWidth(row, cardWidth, fan) <= width - 4 + 1e-9, `${count} cards, suits of ${spread}`);
        assert.ok(fan.step <= MAX_STEP * cardWidth && fan.gap >= 0 && fan.gap <= 0.3 * cardWidth);
        const roomWithoutGaps = Math.min(...cut.map((row) => (width - cardWidth - 4) / Math.max(1, row.length - 1)));
        if (roomWithoutGaps >= MIN_STEP * cardWidth) assert.ok(fan.step >= MIN_STEP * cardWidth - 1e-9, `${count} cards, suits of ${spread}: step ${fan.step}`);
        if (fan.gap < 0.3 * cardWidth) assert.ok(Math.abs(fan.step - MIN_STEP * cardWidth) < 1e-9 || fan.gap === 0, "a gap shrinks only to keep MIN_STEP");
      }
    }
  }
});

test("a hand without suits set apart is laid out as before the gaps existed", () => {
  const cut = rows(27, 2);
  const fan = fanStep(cut, PHONE.width, PHONE.cardWidth);
  assert.equal(fan.gap, 0);
  assert.equal(fan.step, Math.min(MAX_STEP * PHONE.cardWidth, (PHONE.width - PHONE.cardWidth - 4) / 13));
});
