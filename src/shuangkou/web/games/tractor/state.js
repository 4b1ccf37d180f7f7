// Tractor's part of the client's state: the hand sorted by effective suit with trumps apart
// (a stable key per card), the selection and the card in focus, the legal moves pushed with
// our turn and where the hint cycle is, whether the last trick is shown; the selectors of
// the table (the declarations we may make, burying, the trick, the trump, the teams and
// their levels, the attackers' points) and of the result (T9–T11). Pure, no DOM: it runs
// under Node (tests/web/tractor.test.mjs).
//
// The game's keys live under `tractor` in the page's one state object, next to the shell's
// (state.js, re-exported here with `receiveState` and `receiveError` composed as the shell
// runs them with this renderer). What may be declared, what is legal, who won a trick and
// the result all come from the server (a refused follow with the duty it broke, which the
// page words); order.js only sorts the hand.

import * as shell from "../../state.js";
import { parseCard } from "../../deck.js";
import { currentGame, isMyTurn, isPlaying, mySeat, say, seatPositions } from "../../state.js";
import { TRUMP, cardOrder } from "./order.js";

export * from "../../state.js";

/** The game's keys of a page's state. */
export function initialGameState() {
  return {
    tractor: {
      hand: [], // our cards in display order, each {text, rank, suit, key, group, trump}
      selected: [], // keys
      focusKey: null,
      moves: null, // {seq, list}: the legal moves the server pushed for state seq
      hintIndex: -1,
      hintWanted: null, // the seq of a state whose hint was asked before its moves came
      lastTrickShown: false,
    },
  };
}

/** The state of a page that has just loaded, at a Tractor table. */
export function initialState(options = {}) {
  return { ...shell.initialState(options), ...initialGameState() };
}

/** The refusals of a Tractor action, said under the hand (the renderer's `refusals`). */
export const REFUSALS = Object.freeze([
  "illegal_follow", "declaration_refused", "invalid_combination", "cards_not_held", "no_cards", "unknown_card", "bad_action",
]);

/** `state`: the shell's part, then the game's. */
export function receiveState(state, message) {
  return reduce(state, shell.receiveState(state, message), message);
}

/** `error`: the shell's part, then the game's. */
export function receiveError(state, message) {
  return reduce(state, shell.receiveError(state, message, REFUSALS), message);
}

const part = (state) => state.tractor;
const withPart = (state, changes) => ({ ...state, tractor: { ...state.tractor, ...changes } });

/** The game's part of a server message after the shell's: `state` (the hand, the moves of
 * a new state forgotten) and `hint` (our legal moves). */
export function reduce(before, after, message) {
  if (message.type === "state") return tableState(before, after, message);
  if (message.type === "hint") return receiveHint(after, message);
  if (message.type === "error") return explainRefusal(after, message);
  return after;
}

// ---------------------------------------------------------------------------
// The order of the hand's cards

const EFFECTIVE = ["S", "H", "C", "D", TRUMP];
const SUIT_INDEX = { S: 0, H: 1, C: 2, D: 3 };

/** The order of cards of the hand being played (T4): once the trump is fixed, its suit;
 * before, the jokers and the level cards are the only trumps known. */
export function handOrder(game) {
  if (!game) return null;
  return cardOrder({ level: game.level, suit: game.trump?.suit ?? null, twoConstant: Boolean(game.settings?.two_is_constant_trump) });
}

/** Cards (strings) in display order: side suits ♠ ♥ ♣ ♦, then the trumps, high first in each,
 * each with its group (its effective suit) and whether it is a trump. */
export function sortedCards(strings, game) {
  const order = handOrder(game);
  const seen = {};
  const cards = strings.map((text) => {
    seen[text] = (seen[text] || 0) + 1;
    const group = order.eff(text);
    return { ...parseCard(text), key: `${text}#${seen[text]}`, group, trump: group === TRUMP, omega: order.omega(text) };
  });
  return cards.sort((a, b) => EFFECTIVE.indexOf(a.group) - EFFECTIVE.indexOf(b.group) || b.omega - a.omega
    || (SUIT_INDEX[a.suit] ?? 4) - (SUIT_INDEX[b.suit] ?? 4) || a.key.localeCompare(b.key));
}

function tableState(before, after, message) {
  const table = message.table;
  const game = table.game;
  let next = after;
  if (table.game_id !== before.gameId) next = withPart(next, { selected: [], hintIndex: -1, lastTrickShown: false, moves: null });
  if (before.table && before.table.seq !== table.seq) next = withPart(next, { hintIndex: -1 });
  if (!game) return next;
  const strings = game.hand || [];
  const current = part(next).hand;
  const same = current.length === strings.length && sortedCards(strings, game).every((card, index) => card.key === current[index].key
    && card.group === current[index].group);
  if (same) return next;
  const hand = sortedCards(strings, game);
  const keys = new Set(hand.map((card) => card.key));
  const changed = hand.length !== current.length; // a card played, dealt, taken or buried: a new selection
  const selected = changed ? [] : part(next).selected.filter((key) => keys.has(key));
  return withPart(next, { hand, selected });
}

// ---------------------------------------------------------------------------
// Selectors: the table

/** Our team (0: seats 0 and 2, 1: seats 1 and 3, T1.1). */
export const teamOf = (seat) => seat % 2;

/** "us" or "them", for a seat's colours. */
export function sideOf(state, seat) {
  const me = seatPositions(state).me;
  return teamOf(seat) === teamOf(me) ? "us" : "them";
}

/** The phase of the hand ("deal", "declare", "bury", "play", "over"), or null between hands. */
export function handPhase(state) {
  return isPlaying(state) ? currentGame(state).phase : null;
}

/** What the felt's corner says of the hand: the trump (its suit, or "none", and the level
 * rank), the standing declaration, the dealer, both teams' levels from our side, and the
 * attackers' points with the cards that made them (T11.3). */
export function handFacts(state) {
  const game = currentGame(state);
  if (!game) return null;
  const me = seatPositions(state).me;
  const dealer = game.dealer;
  return {
    level: game.level,
    trump: game.trump,
    standing: game.standing,
    bottomCard: game.bottom_card,
    dealer,
    attackers: dealer === null ? null : 1 - teamOf(dealer),
    ourLevel: game.levels[teamOf(me)],
    theirLevel: game.levels[1 - teamOf(me)],
    weDeal: dealer !== null && teamOf(dealer) === teamOf(me),
    points: game.attackers_points,
    pointCards: game.attackers_cards ? game.attackers_cards.split(" ") : [],
    tricks: game.tricks,
  };
}

/** The declarations we may make now, as the server lists them (`declarable`): each a card string. */
export function declareOptions(state) {
  const phase = handPhase(state);
  if (phase !== "deal" && phase !== "declare") return [];
  return currentGame(state).declarable || [];
}

/** Whether we may say we declare no more (the window after the deal, T2.6). */
export function canSayDone(state) {
  return handPhase(state) === "declare" && currentGame(state).waiting.includes(mySeat(state));
}

/** While we bury (the dealer, T3.1): how many cards to bury and how many are chosen; else null. */
export function burying(state) {
  const game = currentGame(state);
  if (handPhase(state) !== "bury" || game.dealer !== mySeat(state)) return null;
  return { need: game.bottom_count, chosen: part(state).selected.length };
}

/**
 * The trick shown in the middle: the one being played (`done` false), or once it is over
 * and until the next lead, the last one with its winner and points (`done` true). Each
 * play `{seat, cards}`; null when there is none.
 */
export function trickShown(state) {
  const game = currentGame(state);
  if (!game || !["play", "over"].includes(game.phase)) return null;
  if (game.trick.length) {
    return { done: false, leader: game.leader, plays: game.trick.map(([seat, cards]) => ({ seat, cards })), throw: game.throw };
  }
  const last = game.last_trick;
  if (!last) return null;
  return { done: true, leader: last.leader, winner: last.winner, points: last.points, plays: last.plays.map(([seat, cards]) => ({ seat, cards })), throw: null };
}

/** The last finished trick, when asked for while another is being played. */
export function lastTrickPanel(state) {
  const game = currentGame(state);
  if (!part(state).lastTrickShown || !game?.last_trick || !game.trick.length) return null;
  return game.last_trick;
}

/** Whether the last trick may be asked for: one is over and another is being played. */
export function lastTrickAvailable(state) {
  const game = currentGame(state);
  return handPhase(state) === "play" && Boolean(game.last_trick) && game.trick.length > 0;
}

export function toggleLastTrick(state) {
  return withPart(state, { lastTrickShown: !part(state).lastTrickShown });
}

/** The legal moves of our turn, for the state they came with. */
export function legalMoves(state) {
  const moves = part(state).moves;
  return moves && state.table && moves.seq === state.table.seq ? moves.list.filter((move) => move.cards) : [];
}

/** What the buttons allow now. */
export function actionButtons(state) {
  const mine = isMyTurn(state) && !state.busy;
  const phase = handPhase(state);
  const bury = burying(state);
  return {
    shown: isPlaying(state),
    declare: declareOptions(state).length > 0 && !state.busy,
    done: canSayDone(state) && !state.busy,
    bury: Boolean(bury) && mine,
    play: phase === "play" && mine && part(state).selected.length > 0,
    hint: mine && (phase === "play" || phase === "bury"),
    lastTrick: lastTrickAvailable(state),
    ...shell.hostingButton(state),
  };
}

/** "2/7" while cycling through the moves, else "". */
export function hintCount(state) {
  const list = legalMoves(state);
  const index = part(state).hintIndex;
  return index >= 0 && list.length ? `${index + 1}/${list.length}` : "";
}

// ---------------------------------------------------------------------------
// Reducers: the selection

function selectionChanged(state, selected) {
  const message = state.message && state.message.source === "notice" ? state.message : null;
  return { ...withPart(state, { selected, hintIndex: -1 }), message };
}

/** Select (`on`) or unselect cards by key. */
export function setSelected(state, keys, on) {
  const chosen = new Set(part(state).selected);
  for (const key of keys) {
    if (on) chosen.add(key);
    else chosen.delete(key);
  }
  return selectionChanged(state, [...chosen]);
}

export function toggleCard(state, key) {
  return setSelected(state, [key], !part(state).selected.includes(key));
}

export function clearSelection(state) {
  return selectionChanged(state, []);
}

export function selectedCards(state) {
  const chosen = new Set(part(state).selected);
  return part(state).hand.filter((card) => chosen.has(card.key));
}

export function focusCard(state, key) {
  return withPart(state, { focusKey: key });
}

/** Focus moves by `delta` cards, or to an end (`absolute` 0 or -1). */
export function moveFocus(state, delta, absolute = null) {
  const cards = part(state).hand;
  if (!cards.length) return state;
  let index = cards.findIndex((card) => card.key === part(state).focusKey);
  if (absolute !== null) index = absolute < 0 ? cards.length - 1 : absolute;
  else index = Math.max(0, Math.min(cards.length - 1, (index < 0 ? 0 : index) + delta));
  return focusCard(state, cards[index].key);
}

/** The focused card, kept on a card still in the hand. */
export function focusedKey(state) {
  const cards = part(state).hand;
  if (!cards.length) return null;
  return cards.some((card) => card.key === part(state).focusKey) ? part(state).focusKey : cards[0].key;
}

// ---------------------------------------------------------------------------
// Reducers: hints and actions

/** The server's `hint`: our legal moves for state `seq`. */
export function receiveHint(state, message) {
  if (!state.table || message.seq !== state.table.seq) return state;
  const next = withPart(state, { moves: { seq: message.seq, list: message.moves }, hintWanted: null });
  return part(state).hintWanted === message.seq ? hint(next) : next; // H was pressed before the moves came
}

/** The keys of the hand's cards that make up a move (each card once). */
function cardsForMove(state, move) {
  const chosen = [];
  for (const text of move.cards.split(" ").filter(Boolean)) {
    const card = part(state).hand.find((candidate) => candidate.text === text && !chosen.includes(candidate.key));
    if (card) chosen.push(card.key);
  }
  return chosen;
}

/** H: the next legal move of our turn is selected, round and round (a play, or the bury of
 * the bottom as taken). Asked before the moves came, the hint shows as they come. */
export function hint(state) {
  if (!isMyTurn(state)) return say(state, "tr.msg.noTurn");
  const list = legalMoves(state);
  if (!list.length) return withPart(say(state, "tr.msg.movesComing"), { hintWanted: state.table.seq });
  const index = (part(state).hintIndex + 1) % list.length;
  const next = withPart(state, { selected: cardsForMove(state, list[index]), hintIndex: index });
  return { ...next, message: { kind: "hint", source: "play", key: "tr.msg.hint", vars: { i: index + 1, n: list.length } } };
}

/** A declaration button: `{send}` the declaration of these cards. */
export function declare(state, cards) {
  if (!declareOptions(state).includes(cards) || state.busy) return { state };
  return { state, send: { type: "declare", seq: state.table.seq, cards } };
}

/** Done declaring for this window. */
export function declareDone(state) {
  if (!canSayDone(state) || state.busy) return { state };
  return { state, send: { type: "declare_done", seq: state.table.seq } };
}

/** Bury the selected cards (as many as the bottom held), or say how many to choose. */
export function bury(state) {
  const status = burying(state);
  if (!status || state.busy) return { state };
  if (status.chosen !== status.need) return { state: say(state, "tr.msg.buryCount", "error", { need: status.need, chosen: status.chosen }) };
  return { state, send: { type: "bury", seq: state.table.seq, cards: selectedCards(state).map((card) => card.text).join(" ") } };
}

/** Enter: the `trick_play` of the selected cards to send (the server judges it; a refusal
 * comes back and is said). */
export function play(state) {
  if (handPhase(state) === "bury") return bury(state);
  if (handPhase(state) !== "play" || state.busy) return { state };
  if (!isMyTurn(state)) return { state: say(state, "tr.msg.noTurn") };
  const cards = selectedCards(state).map((card) => card.text);
  if (!cards.length) return { state: say(state, "tr.msg.selectFirst", "error") };
  return { state, send: { type: "trick_play", seq: state.table.seq, cards: cards.join(" ") } };
}

/** A refused follow in the page's words: the duty of T7.1–T7.4 it broke, with the counts
 * the server sent (`detail`: `{rule, need, given}`). */
function explainRefusal(state, message) {
  const detail = message.detail;
  if (message.code !== "illegal_follow" || !detail?.rule || state.message?.code !== message.code) return state;
  return say(state, `tr.msg.${detail.rule}`, "error", { need: detail.need, given: detail.given });
}

// ---------------------------------------------------------------------------
// Selectors: the result (T9, T11.4)

/**
 * The result of a settled hand: the title for our team (or a replay's winners), the
 * result, our change, the score's figures (A and where it comes from, the bottom and its
 * multiplier), the level change of each team and who deals next, and the columns of the
 * breakdown (us, our partner, then the other team as they sit) with one row per figure.
 * Null when no settlement is shown. Every number is the server's.
 */
export function tractorResult(state) {
  const table = state.table;
  const settlement = table?.settlement;
  if (!table || table.phase !== "settled" || !settlement) return null;
  const me = seatPositions(state).me;
  const escaper = settlement.escaper ?? null;
  const won = settlement.winners.includes(me);
  const title = escaper === me ? "youEscaped" : escaper !== null ? "otherEscaped" : won ? "teamWins" : "teamLoses";
  const around = ["me", "right", "top", "left"].map((position) => seatPositions(state)[position]);
  const columns = [...around.filter((seat) => teamOf(seat) === teamOf(me)), ...around.filter((seat) => teamOf(seat) !== teamOf(me))];
  const column = (pick) => columns.map(pick);
  const dealerTeam = teamOf(settlement.dealer);
  const rows = [
    { key: "role", cells: column((seat) => (seat === settlement.dealer ? "dealer" : teamOf(seat) === dealerTeam ? "dealerPartner" : "attacker")) },
    { key: "levels", cells: column((seat) => ({ before: settlement.levels_before[teamOf(seat)], after: settlement.levels_after[teamOf(seat)] })) },
    { key: "net", cells: column((seat) => settlement.nets[seat]) },
  ];
  if (settlement.escape_penalty) rows.push({ key: "escape", cells: column((seat) => (seat === escaper ? -settlement.escape_penalty : 0)) });
  rows.push(...shell.payoutRows(settlement, column));
  const teams = [0, 1].map((team) => ({
    team, ours: team === teamOf(me), before: settlement.levels_before[team], after: settlement.levels_after[team],
    seats: [0, 1, 2, 3].filter((seat) => teamOf(seat) === team),
  }));
  return {
    me, won, title, escaper, columns, rows, teams,
    sides: column((seat) => (seat === me ? "you" : teamOf(seat) === teamOf(me) ? "partner" : "opponent")),
    result: settlement.result === "escape" || escaper !== null ? "escape" : settlement.result,
    delta: settlement.deltas[me],
    edition: table.edition,
    dealer: settlement.dealer,
    attackersPoints: settlement.attackers_points,
    trickPoints: settlement.trick_points,
    bottom: settlement.bottom ? settlement.bottom.split(" ") : [],
    bottomPoints: settlement.bottom_points,
    multiplier: settlement.bottom_multiplier,
    bonus: settlement.bottom_bonus,
    penalties: settlement.penalties,
    gained: settlement.levels_gained,
    nextDealer: settlement.next_dealer,
    matchOver: settlement.match_over,
    units: settlement.units,
    matchPoints: settlement.match_points,
    house: settlement.house,
  };
}
