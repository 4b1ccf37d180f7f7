// The display side of cards.js without a browser: parsing, sorting, naming, joker marks.

import { test } from "node:test";
import assert from "node:assert/strict";

import { heldText, rankText, parseCard, parseCards, sortCards } from "../../src/shuangkou/web/deck.js";
import { describeCombo, describeMove, jokerMarks } from "../../src/shuangkou/web/games/shuangkou/combos.js";
import { combo } from "./fixtures.mjs";

test("card strings parse to rank, suit and colour", () => {
  assert.deepEqual(parseCard("10H"), { text: "10H", rank: "10", suit: "H", value: 10, joker: false, red: true });
  assert.deepEqual(parseCard("BJ"), { text: "BJ", rank: "BJ", suit: null, value: 17, joker: true, red: true });
  assert.deepEqual(parseCards(" 3S  QC ").map((card) => card.text), ["3S", "QC"]);
});

test("sorting by rank puts jokers first; by groups, bigger same-rank groups first", () => {
  const hand = parseCards("3S QH 3H SJ 5C 3D");
  assert.deepEqual(sortCards(hand, "rank").map((card) => card.text), ["SJ", "QH", "5C", "3S", "3H", "3D"]);
  assert.deepEqual(sortCards(hand, "group").map((card) => card.text), ["SJ", "3S", "3H", "3D", "QH", "5C"]);
});

test("jokers are marked with the rank the server says they stand for, in joker order", () => {
  const straight = combo("straight", "9", "5 6 7 8 SJ", { length: 5, reading: "5 6 7 8 9", standsFor: ["9"] });
  assert.deepEqual(jokerMarks(parseCards("5H 6S 7C 8D SJ"), straight), [null, null, null, null, "9"]);
  const run = combo("pair_run", "5", "3 3 BJ 4 4 SJ", { length: 3, reading: "3 3 4 4 5 5", standsFor: ["5", "5"] });
  assert.deepEqual(jokerMarks(parseCards("3H 3S BJ 4C 4D SJ"), run), [null, null, "5", null, null, "5"]);
  const jokers = combo("joker_bomb", "BJ", "SJ SJ BJ", { phase: 6, bomb: true, width: 3 });
  assert.deepEqual(jokerMarks(parseCards("SJ SJ BJ"), jokers), [null, null, null], "jokers read at face value are not marked");
  assert.deepEqual(jokerMarks(parseCards("3H 3S"), combo("pair", "3", "3 3")), [null, null]);
});

test("combinations are named from the server's reading", () => {
  assert.equal(describeCombo(combo("straight", "9", "5 6 7 8 SJ", { length: 5, reading: "5 6 7 8 9" })), "Straight 5–9");
  assert.equal(describeCombo(combo("bomb", "Q", "Q Q Q Q BJ", { phase: 5, reading: "Q Q Q Q Q", bomb: true })), "5-card bomb of Q");
  assert.equal(describeCombo(null), "");
});

test("a pushed move is named by its kind and its cards, jokers as the page names them", () => {
  assert.equal(describeMove({ cards: "5 6 7 8 BJ", as: "straight" }), "Straight · 5 6 7 8 Big joker".replace("Big joker", rankText("BJ")));
  assert.equal(describeMove({ cards: "Q Q Q Q", as: "bomb" }), "Bomb · Q Q Q Q");
});

test("a serial bomb is named by the width the server gives, not by arithmetic on its phase", () => {
  const irregular = combo("serial_bomb", "7", "3 3 3 3 4 4 4 4 5 5 5 5 6 6 6 6 7 7 7 7 7", {
    phase: 9, length: 5, bomb: true, width: 4, reading: "3 3 3 3 4 4 4 4 5 5 5 5 6 6 6 6 7 7 7 7 7",
  });
  assert.equal(describeCombo(irregular), "4-phase 5-serial bomb 3–7");
  assert.equal(describeCombo({ ...irregular, width: 5 }), "5-phase 5-serial bomb 3–7", "the name follows the server's width");
});

test("held cards read as the page names them", () => {
  assert.equal(heldText(["3H", "10S"]), "3♥ 10♠");
  assert.equal(heldText(["BJ"]), rankText("BJ"));
});
