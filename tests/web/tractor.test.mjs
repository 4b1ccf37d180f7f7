// Tractor's page without a browser: the order it sorts a hand by (games/tractor/order.js,
// checked on the rule book's examples), and its state
// (games/tractor/state.js): the hand sorted by effective suit with trumps apart, the
// declarations offered, burying, the trick, the last trick, the hint cycle, a play and its
// refusal explained, the result's rows and the replay's steps.

import { test } from "node:test";
import assert from "node:assert/strict";

import { TRUMP, cardOrder } from "../../src/shuangkou/web/games/tractor/order.js";

const cards = (text) => text.split(" ").filter(Boolean);
const TEN_SPADES = cardOrder({ level: "10", suit: "S" });

test("T4.3, T4.4: effective suits and the order index at level 10, spades trump", () => {
  assert.deepEqual(cards("BJ SJ 10S 10H 10C AS 2S").map(TEN_SPADES.omega), [16, 15, 14, 13, 13, 12, 1]);
  assert.deepEqual(cards("10H JH 2S SJ AD").map(TEN_SPADES.eff), [TRUMP, "H", TRUMP, TRUMP, "D"]);
  assert.equal(TEN_SPADES.omega("JH"), TEN_SPADES.omega("9H") + 1, "the 10 is removed from the hearts (T4.2)");
  const constant = cardOrder({ level: "10", suit: "S", twoConstant: true });
  assert.deepEqual(cards("10S 10H 2S 2H AS 3S").map(constant.omega), [15, 14, 13, 12, 11, 1]);
  assert.equal(constant.eff("2D"), TRUMP);
  const noTrump = cardOrder({ level: "2", suit: "none" });
  assert.deepEqual(cards("2H 2S SJ AD").map(noTrump.eff), [TRUMP, TRUMP, TRUMP, "D"], "X11: no trump, level 2");
  assert.equal(noTrump.omega("2H"), noTrump.omega("2S"));
});

// ---------------------------------------------------------------------------
// The state: a Tractor table as the server sends it

import * as S from "../../src/shuangkou/web/games/tractor/state.js";
import { replayState, replaySteps } from "../../src/shuangkou/web/games/tractor/steps.js";

const seat = (name) => ({ name, account: name.length, bot: false, connected: true, ready: true, balance: 1000, ready_deadline: null });

/** A Tractor table view: seat `you` holds `hand`; the game's fields as the server writes them. */
function tractorTable({ you = 0, hand = [], phase = "play", game = {}, seq = 9, settlement = null, tablePhase = "playing" } = {}) {
  return {
    id: "T", room: "tractor", family: "tractor", edition: "points", seq, phase: tablePhase, you, game_id: "h1",
    seats: ["Ann", "Bob", "Cy", "Di"].map(seat), turn_seconds: 20, turn_deadline: 1, escape_cost: null, escape_mode: "host", settlement,
    game: {
      phase, dealer: 1, levels: ["10", "5"], level: "5", cards_left: [25, 25, 25, 25], declarations: [], standing: null,
      trump: { suit: "S", level: "5" }, bottom_card: null, bottom_count: 8, waiting: [you], to_act: you, leader: 1, trick: [],
      throw: null, last_trick: null, tricks: 0, attackers_points: 0, attackers_cards: "", timeouts: [0, 0, 0, 0],
      hosting: [false, false, false, false], escaped: null, finished: false, result: null, score: null, bottom: null,
      settings: { two_is_constant_trump: false, partial_tractor_follow: true }, seat: you, hand, declarable: [], ...game,
    },
  };
}
const received = (options, state = S.initialState()) => S.receiveState(state, { type: "state", events: [], table: tractorTable(options) });

test("T4.1: the hand sorted by effective suit, side suits first, the trumps apart, high first", () => {
  const state = received({ hand: ["5H", "AS", "3D", "BJ", "KH", "5C", "2S", "AD"] });
  assert.deepEqual(state.tractor.hand.map((card) => card.text), ["KH", "AD", "3D", "BJ", "5H", "5C", "AS", "2S"]);
  assert.deepEqual(state.tractor.hand.map((card) => card.trump), [false, false, false, true, true, true, true, true]);
  const dealing = received({ phase: "deal", hand: ["5H", "AS", "SJ"], game: { trump: null, dealer: null } });
  assert.deepEqual(dealing.tractor.hand.map((card) => card.text), ["AS", "SJ", "5H"], "before the trump: jokers and level cards apart");
});

test("T2.2–T2.6: the declarations offered are the server's; no more only in the window", () => {
  const dealing = received({ phase: "deal", hand: ["5H"], game: { trump: null, declarable: ["5H"], waiting: [0, 1, 2, 3], to_act: null } });
  assert.deepEqual(S.declareOptions(dealing), ["5H"]);
  assert.deepEqual(S.declare(dealing, "5H").send, { type: "declare", seq: 9, cards: "5H" });
  assert.equal(S.declare(dealing, "5C").send, undefined, "only what the server lists");
  assert.equal(S.canSayDone(dealing), false);
  const window = received({ phase: "declare", hand: ["5H"], game: { trump: null, waiting: [2, 0], to_act: null } });
  assert.deepEqual(S.declareDone(window).send, { type: "declare_done", seq: 9 });
});

test("T3.1: the dealer buries exactly as many cards as the bottom held", () => {
  const hand = ["AS", "KS", "QS", "JS", "9S", "8S", "7S", "6S", "4S"];
  let state = received({ you: 1, phase: "bury", hand, game: { waiting: [1], to_act: 1 } });
  assert.deepEqual(S.burying(state), { need: 8, chosen: 0 });
  state = S.setSelected(state, state.tractor.hand.slice(0, 3).map((card) => card.key), true);
  assert.equal(S.play(state).send, undefined);
  assert.equal(S.play(state).state.message.key, "tr.msg.buryCount");
  state = S.setSelected(state, state.tractor.hand.slice(0, 8).map((card) => card.key), true);
  assert.deepEqual(S.play(state).send, { type: "bury", seq: 9, cards: "AS KS QS JS 9S 8S 7S 6S" });
  assert.equal(S.burying(received({ you: 0, phase: "bury", game: { waiting: [1], to_act: 1 } })), null, "only the dealer buries");
});

test("T7.4, T7.7: a selection is sent as it is; a refused follow is said by the duty the server names", () => {
  const follow = { hand: ["9H", "9H", "7H", "3H", "4S"], game: { trick: [[3, "QH QH"]], leader: 3 } };
  let state = received(follow);
  const pick = (texts) => state.tractor.hand.filter((card) => texts.includes(card.text)).map((card) => card.key);
  state = S.setSelected(state, pick(["7H", "3H"]), true);
  assert.deepEqual(S.play(state).send, { type: "trick_play", seq: 9, cards: "7H 3H" }, "the server judges it");
  const refusal = { type: "error", code: "illegal_follow", message: "a pair of the led suit must be played: 1 held, 0 played (T7.4)",
    detail: { rule: "T7.4", need: 1, given: 0 } };
  const refused = S.receiveError({ ...state, busy: true }, refusal);
  assert.deepEqual(refused.message, { kind: "error", source: "play", key: "tr.msg.T7.4", vars: { need: 1, given: 0 } });
  assert.equal(refused.busy, false);
  assert.deepEqual(refused.tractor.selected, state.tractor.selected, "the selection stays, to be mended");
  const plain = S.receiveError(state, { type: "error", code: "invalid_combination", message: "a lead is of one effective suit (T6.1)" });
  assert.equal(plain.message.code, "invalid_combination", "a refusal without a detail keeps the shell's words");
  state = S.setSelected(S.clearSelection(state), pick(["9H"]), true);
  assert.deepEqual(S.play(state).send, { type: "trick_play", seq: 9, cards: "9H 9H" });
});

test("the trick in the middle, then the last one with its winner until the next lead", () => {
  const playing = received({ game: { trick: [[1, "AS"], [2, "3S"]], last_trick: { leader: 0, plays: [[0, "KH"], [1, "2H"], [2, "5H"], [3, "3H"]], winner: 0, points: 15 } } });
  assert.deepEqual(S.trickShown(playing).plays, [{ seat: 1, cards: "AS" }, { seat: 2, cards: "3S" }]);
  assert.equal(S.lastTrickPanel(playing), null);
  assert.equal(S.lastTrickPanel(S.toggleLastTrick(playing)).winner, 0);
  const between = received({ game: { trick: [], last_trick: { leader: 0, plays: [[0, "KH"]], winner: 2, points: 10 } } });
  assert.deepEqual([S.trickShown(between).done, S.trickShown(between).winner, S.trickShown(between).points], [true, 2, 10]);
});

test("T9, T11.4: the result's figures and columns are the settlement's, us first", () => {
  const settlement = {
    dealer: 1, trick_points: 100, bottom_points: 15, bottom_multiplier: 4, bottom_bonus: 60, penalties: 0, attackers_points: 160,
    result: "attackers", levels_gained: 2, levels_before: ["10", "5"], levels_after: ["Q", "5"], next_dealer: 2, match_over: false,
    winners: [0, 2], units: 3, match_points: 60, nets: [180, -180, 180, -180], escaper: null, escape_penalty: 0,
    table_fees: [0, 0, 0, 0], win_fees: [0, 0, 0, 0], house: 0, deltas: [180, -180, 180, -180],
    balances_before: [1000, 1000, 1000, 1000], balances_after: [1180, 820, 1180, 820], bottom: "KD 5S 3C 4C 6C 7C 8C 9C",
  };
  const state = received({ you: 2, tablePhase: "settled", settlement, game: { finished: true, phase: "over" } });
  const result = S.tractorResult(state);
  assert.deepEqual(result.columns, [2, 0, 3, 1]);
  assert.equal(result.title, "teamWins");
  assert.deepEqual([result.attackersPoints, result.multiplier, result.bonus, result.delta], [160, 4, 60, 180]);
  assert.deepEqual(result.teams.map((team) => [team.before, team.after, team.ours]), [["10", "Q", true], ["5", "5", false]]);
  assert.deepEqual(result.rows.find((row) => row.key === "role").cells, ["attacker", "attacker", "dealerPartner", "dealer"]);
  assert.deepEqual(result.rows.find((row) => row.key === "after").cells, [1180, 1180, 820, 820]);
});

test("a replay's steps: the deal, the bury with the bottom taken, one step per play, tricks closed by their winner", () => {
  const replay = {
    seats: ["A", "B", "C", "D"].map(seat), dealer: 0, hands: ["AS KS", "2H 3H", "4H 5H", "6H 7H"], bottom: "9D 8D", buried: "KS 9D",
    trump: { suit: "S", level: "2" }, levels: ["2", "2"],
    events: [{ type: "deal" }, { type: "trump", suit: "S", level: "2", dealer: 0 }, { type: "take_bottom", seat: 0, count: 2 },
      { type: "bury", seat: 0 }, { type: "play", seat: 0, cards: "AS" }, { type: "play", seat: 1, cards: "2H" },
      { type: "play", seat: 2, cards: "4H" }, { type: "play", seat: 3, cards: "6H" }, { type: "trick", winner: 0, points: 0 },
      { type: "play", seat: 0, cards: "8D" }, { type: "end" }],
  };
  const steps = replaySteps(replay);
  assert.deepEqual(steps.map((step) => step.kind), ["deal", "bury", "play", "play", "play", "play", "play"]);
  assert.deepEqual(steps[1].hands[0], ["AS", "8D"], "dealt, the bottom taken, the buried left out");
  assert.deepEqual(steps[5].won, { winner: 0, points: 0 });
  assert.deepEqual(steps[6].trick, [[0, "8D"]], "a new trick after the winner");
  assert.deepEqual(steps[6].hands[0], [], "every card played");
  assert.equal(steps[6].after[0].type, "end");
  const settings = { two_is_constant_trump: true, partial_tractor_follow: false };
  assert.deepEqual(replayState({ ...replay, settings }, steps).table.game.settings, settings, "the cards ordered as at the table (T4.3)");
});

test("a lobby's Tractor room names its game and says in a line what it is, in both languages", async () => {
  const { loadGame } = await import("../../src/shuangkou/web/games/index.js");
  const { getLang, setLang } = await import("../../src/shuangkou/web/i18n.js");
  const renderer = await loadGame("tractor");
  const room = { name: "tractor", family: "tractor", seats: 4 };
  const before = getLang();
  setLang("en");
  const told = renderer.room(room);
  assert.equal(told.game, "Upgrade / Tractor (升级), four players");
  assert.match(told.about, /level/);
  setLang("zh");
  assert.equal(renderer.room(room).game, "升级（拖拉机）· 四人");
  assert.match(renderer.room(room).about, /级/);
  setLang(before);
});

test("H before the moves came: the page says they are coming, then shows the hint as they come", () => {
  let state = received({ hand: ["9S", "9S", "4H"], game: { leader: 0, to_act: 0 } });
  state = S.hint(state);
  assert.equal(state.message.key, "tr.msg.movesComing");
  assert.deepEqual(state.tractor.selected, []);
  const moves = [{ type: "play", cards: "9S 9S" }, { type: "play", cards: "4H" }];
  const stale = S.reduce(state, state, { type: "hint", seq: 8, moves });
  assert.equal(stale.tractor.moves, null, "moves for another state are not ours");
  state = S.reduce(state, state, { type: "hint", seq: 9, moves });
  assert.equal(state.message.key, "tr.msg.hint");
  assert.equal(state.tractor.selected.length, 2, "the first move, the pair, is selected as the moves come");
  const again = S.reduce(state, state, { type: "hint", seq: 9, moves });
  assert.equal(again.tractor.hintIndex, 0, "moves that come again move the hint on only when asked");
});
