// Royalist's part of the client's state (保皇, RULES-ROYALIST): the hand (the marked cards BJ*
// and SJ* told apart, and in a room with a called guard card the 保子牌, 7H*), the moves pushed with our turn (a throne offer's choices, a
// declaration's two answers, the sets we may play) and where the hint cycle is, each seat's
// pass and last set of the round, and the selectors of a five-seat table: each seat's role as
// we know it and its side, places, the question we are asked, the result's rows. Pure, no
// DOM: it runs under Node (tests/web/royalist.test.mjs).
//
// The hand's keys and reducers (`hand`, `sort`, `selected`, `focusKey`: selecting, focus,
// sorting) are Shuangkou's, imported: a hand is selected the same way in both games. Like
// Shuangkou's state.js it re-exports the shell's, with `initialState`, `receiveState` and
// `receiveError` composed as the shell runs them, so one import reads a whole table. Nothing
// here knows the rules: the roles, the moves, the places, units and money are the server's.

import * as shell from "../../state.js";
import { parseCard } from "../../deck.js";
import { actsNow, currentGame, isMyTurn, isPlaying, mySeat, say, seatPositions } from "../../state.js";
import { clearSelection, displayHand, selectedCards, setSelected } from "../shuangkou/state.js";

export * from "../../state.js";
export {
  clearSelection, displayHand, focusCard, focusedKey, moveFocus, selectRank, setSelected, toggleCard, toggleSort,
} from "../shuangkou/state.js";

/** The marked cards (Y0): the emperor card, a big joker, and the guard card, a small joker. */
export const EMPEROR_CARD = "BJ*";
export const GUARD_CARD = "SJ*";
/** The value of the called guard card (保子牌, Y9): 18, above the big joker. */
const CALLED_VALUE = 18;
/** Identical cards shown by a call (Y9); the fourth is the 保子牌. */
export const CALL_COPIES = 3;

/** The game's keys of a page's state (`sort` is the hand's, shared with Shuangkou: the
 * player's choice stays as it is). */
export function initialGameState() {
  return {
    hand: [],
    selected: [],
    focusKey: null,
    moves: null, // {seq, list}: the moves the server pushed for state seq (the hint first)
    hintIndex: -1,
    hintWanted: null, // the seq of a state whose hint was asked before its moves came
    passes: [], // per seat: its pass of this round ({cause}), or null
    lastPlays: [], // per seat: its last set of this round ({cards, set, cause}), or null
    dealAnimation: false,
  };
}

/** The state of a page that has just loaded, at a Royalist table: the shell's and the game's keys. */
export function initialState(options = {}) {
  return { ...shell.initialState(options), ...initialGameState() };
}

/** `state`: the shell's part, then the game's. */
export function receiveState(state, message) {
  return reduce(state, shell.receiveState(state, message), message);
}

/** The refusals of an action that are Royalist's (beyond the shell's `ACTION_ERRORS`): a set
 * that is none or does not beat the table, a pass on a lead, cards not held, a decision the
 * room does not allow (`bad_action`). */
export const REFUSALS = Object.freeze(["invalid_combination", "does_not_beat", "pass_on_lead", "cards_not_held", "no_cards", "unknown_card", "bad_action"]);

export function receiveError(state, message) {
  return reduce(state, shell.receiveError(state, message, REFUSALS), message);
}

/** The game's part of a server message, after the shell's: `state` (the hand, the round's
 * passes and sets, the moves it carries), `hint` (our moves, when they came after the state). */
export function reduce(before, after, message) {
  switch (message.type) {
    case "state":
      return tableState(before, after, message);
    case "hint":
      return receiveMoves(after, message.seq, message.moves);
    default:
      return after;
  }
}

// ---------------------------------------------------------------------------
// Cards

/** A card string of the server, the marked ones (`BJ*`, `SJ*`) drawn as the jokers they are
 * in play (Y4.1) and marked; the called guard card (`7H*`, the 保子牌, Y9) is `called`,
 * worth 18. */
export function royalCard(text) {
  const marked = text.endsWith("*");
  const card = parseCard(marked ? text.slice(0, -1) : text);
  const called = marked && !card.joker;
  return { ...card, text, marked, called, ...(called ? { value: CALLED_VALUE } : {}) };
}

export function royalCards(text) {
  return (text || "").split(/\s+/).filter(Boolean).map(royalCard);
}

/** Hand cards with keys that stay the same from one state to the next ("QH#1", "BJ*#1"). */
function keyedHand(strings) {
  const seen = {};
  return strings.map((text) => {
    seen[text] = (seen[text] || 0) + 1;
    return { ...royalCard(text), key: `${text}#${seen[text]}` };
  });
}

// ---------------------------------------------------------------------------
// Selectors: roles and seats

/** The game's phase: "throne" (the offer), "declare", "play" or "over"; null between games. */
export function phaseOf(state) {
  return currentGame(state)?.phase ?? null;
}

/** A seat's role as we know it (Y2.10): ours, the public ones, the guard's to the guard; in a
 * solo the emperor knows every other seat is against him; everything at the end. */
export function knownRole(state, seat) {
  const game = currentGame(state);
  if (!game || seat === null || seat === undefined) return null;
  const known = (game.known_roles || game.public_roles || [])[seat] ?? null;
  if (known) return known;
  const roles = game.roles || {};
  return roles.solo && roles.emperor !== null && seat !== roles.emperor ? "revolutionary" : null;
}

const royal = (role) => role === "emperor" || role === "guard";

/** A seat's side from ours: "us" (a known teammate, or our own seat once we have a role),
 * "them" (a known opponent), or null while either role is unknown to us. A spectator sees the
 * royals as "us". */
export function sideOf(state, seat) {
  const theirs = knownRole(state, seat);
  if (!theirs) return null;
  const me = mySeat(state);
  const mine = me === null ? "emperor" : knownRole(state, me);
  if (!mine) return null;
  return royal(mine) === royal(theirs) ? "us" : "them";
}

/** The seats we know play with us (not our own). */
export function teammates(state) {
  const seats = currentGame(state)?.cards_left?.map((unused, seat) => seat) || [];
  return seats.filter((seat) => seat !== mySeat(state) && sideOf(state, seat) === "us");
}

/** Whether the emperor plays alone, as we know it (the emperor, or once public): "open", "secret" or null. */
export function soloOf(state) {
  return currentGame(state)?.roles?.solo ?? null;
}

/**
 * What a seat shows of Royalist beside the shell's name, balance and timer: `{side, role,
 * candidate, teammate, place, cardsLeft}`: its side and role as we know them, whether it
 * holds the throne offer now, whether it is a known teammate, its place once out (1–5),
 * how many cards it holds (null between games).
 */
export function seatFacts(state, seat) {
  const game = currentGame(state);
  if (!game) return { side: null, role: null, candidate: false, teammate: false, place: null, cardsLeft: null };
  const side = sideOf(state, seat);
  return {
    side,
    role: knownRole(state, seat),
    candidate: game.phase === "throne" && game.candidate === seat,
    teammate: seat !== mySeat(state) && side === "us" && mySeat(state) !== null,
    place: game.places?.[seat] ?? null,
    cardsLeft: game.cards_left?.[seat] ?? null,
  };
}

// ---------------------------------------------------------------------------
// Selectors: what we are asked, and the moves

/** Our moves for this state, in the server's order (the hint first), or []. */
export function legalMoves(state) {
  const moves = state.moves;
  return moves && state.table && moves.seq === state.table.seq ? moves.list : [];
}

/** Whether the table's room calls its guard card (叫保子, Y9: `guard_card = "called"`). */
export function calledRoom(state) {
  return currentGame(state)?.guard_card === "called";
}

/**
 * The question the game asks us now, or null: `{kind: "throne", choices, forced, both,
 * called, calls}` (the throne offer: ascend, open solo — 包 — when we hold both marked cards,
 * abdicate unless forced; in a called room the calls, `calls` per card, Y9),
 * `{kind: "declare", role}` (the declaration every seat asked answers: declare or stay
 * hidden, Y2.6). `choices` are the moves' bodies as the server offers them (empty until
 * they come).
 */
export function question(state) {
  const game = currentGame(state);
  const me = mySeat(state);
  if (!isPlaying(state) || !actsNow(state, me)) return null;
  if (game.phase === "throne") {
    const choices = legalMoves(state).filter((move) => move.type !== "play" && move.type !== "pass");
    return {
      kind: "throne", choices, forced: Boolean(game.forced), both: (game.hand || []).includes(GUARD_CARD),
      called: calledRoom(state), calls: callChoices(game.hand || [], choices),
    };
  }
  if (game.phase === "declare") return { kind: "declare", role: game.role };
  return null;
}

/**
 * The calls offered (Y9, Y13.18), one per card in the server's order (the default call
 * first): `{card, copies, call, openSolo}` — the card ("7H"), the copies we hold (3, or 4:
 * a solo), the `call` move, and the `call` with 包 when it is offered (all four copies).
 */
export function callChoices(hand, choices) {
  const calls = [];
  for (const move of choices) {
    if (move.type !== "call") continue;
    let entry = calls.find((known) => known.card === move.card);
    if (!entry) {
      entry = { card: move.card, copies: hand.filter((text) => text === move.card).length, call: null, openSolo: null };
      calls.push(entry);
    }
    if (move.open_solo) entry.openSolo = move;
    else entry.call = move;
  }
  return calls;
}

/** The call made, as everyone sees it once the candidate has called (Y9): `{card, shown}`
 * (the card, and the copies the emperor shows), or null. */
export function calledCard(state) {
  const card = currentGame(state)?.called ?? null;
  return card ? { card, shown: Array(CALL_COPIES).fill(card) } : null;
}

/** The seats still owing a declaration, and how many answered (the answers stay secret until all are in). */
export function declarationsPending(state) {
  const game = currentGame(state);
  if (game?.phase !== "declare") return null;
  const waiting = Array.isArray(game.to_act) ? game.to_act : [];
  return { waiting, answered: (game.answered || []).filter(Boolean).length, asked: waiting.length + (game.answered || []).filter(Boolean).length };
}

/** What the action buttons allow now (a set is played only in the play phase). */
export function actionButtons(state) {
  const playing = isPlaying(state) && phaseOf(state) === "play";
  const active = playing && isMyTurn(state) && !state.busy;
  return {
    shown: playing,
    play: active && state.selected.length > 0,
    pass: active && Boolean(currentGame(state)?.table),
    hint: active,
  };
}

/** The hint counter: "2/7" while cycling through the moves, else "". */
export function hintCount(state) {
  const list = legalMoves(state);
  return state.hintIndex >= 0 && list.length ? `${state.hintIndex + 1}/${list.length}` : "";
}

// ---------------------------------------------------------------------------
// Selectors: the round

/** The pass of a seat in this round, shown until that seat is to act again. */
export function passOf(state, seat) {
  const pass = state.passes[seat] ?? null;
  return pass && isPlaying(state) && !actsNow(state, seat) ? pass : null;
}

/** What a seat did last in this round, shown beside it: `{pass}`, `{play}` (a set since beaten,
 * or the last set of a round just over), or null (nothing, or it is to act). */
export function seatAction(state, seat) {
  const pass = passOf(state, seat);
  if (pass) return { pass };
  const last = state.lastPlays[seat] ?? null;
  const game = currentGame(state);
  if (!last || !isPlaying(state) || actsNow(state, seat) || game.table?.seat === seat) return null;
  return { play: last };
}

// ---------------------------------------------------------------------------
// Selectors: the result

/** The result's order of seats: ours first, then the others in the order of play. */
export function resultColumns(state) {
  const positions = seatPositions(state);
  return shell.POSITIONS[5].map((position) => positions[position]);
}

/**
 * The result screen's data (Y7.3), or null when no settlement is shown: the title for us
 * ("royalsWin", "revolutionariesWin", "draw", "escape"), our change, the roles, the card
 * called (Y9, or null), *m*, X, and
 * per seat (ours first) its role, its published declaration, its place, units, money, the
 * fees and escape payments when any, balances, and the cards it still held (亮牌). Every
 * figure is the server's.
 */
export function royalResult(state) {
  const table = state.table;
  const settlement = table?.settlement;
  if (!table || table.phase !== "settled" || !settlement) return null;
  const game = currentGame(state) || {};
  const you = seatPositions(state).me;
  const columns = resultColumns(state);
  const roles = settlement.roles || { emperor: null, guard: null, solo: null };
  const declarations = game.declarations || null;
  const roleOf = (seat) => {
    if (roles.emperor === null || roles.emperor === undefined) return null;
    if (seat === roles.emperor) return "emperor";
    return seat === roles.guard ? "guard" : "revolutionary";
  };
  const declared = (seat) => {
    if (!declarations) return null;
    if (declarations.revolts.includes(seat)) return "revolt";
    if (declarations.open_guard && seat === roles.guard) return "openGuard";
    return null;
  };
  const column = (pick) => columns.map(pick);
  const rows = [
    { key: "role", cells: column(roleOf) },
    { key: "declared", cells: column(declared) },
    { key: "place", cells: column((seat) => settlement.places[seat]) },
    { key: "units", cells: column((seat) => settlement.units[seat]) },
    { key: "net", cells: column((seat) => settlement.nets[seat]) },
  ];
  if (settlement.escape_payments.some(Boolean)) rows.push({ key: "escape", cells: column((seat) => settlement.escape_payments[seat]) });
  rows.push(...shell.payoutRows(settlement, column), { key: "held", cells: column((seat) => game.revealed?.[seat] ?? null) });
  const delta = you === null ? 0 : settlement.deltas[you];
  let title = delta > 0 ? "youWin" : delta < 0 ? "youLose" : "even";
  if (settlement.escapers?.includes(you)) title = "youEscaped";
  return {
    you, title, won: delta > 0, delta, result: settlement.result, edition: table.edition, columns, rows, roles,
    declarations, abdications: game.abdications || [], called: game.called ?? null, multiplier: settlement.multiplier, matchPoints: settlement.match_points,
    finishOrder: settlement.finish_order, escapers: settlement.escapers || [], house: settlement.house, capped: settlement.capped,
    gameId: table.game_id || "",
  };
}

// ---------------------------------------------------------------------------
// Reducers: the table

function sameHand(hand, strings) {
  return hand.length === strings.length && hand.every((card, index) => card.text === strings[index]);
}

/** The game's part of a `state`: the hand, the round's passes and sets after its events, the moves it carries. */
function tableState(before, after, message) {
  const table = message.table;
  const events = message.events || [];
  const seats = table.seats.map(() => null);
  let next = after;
  if (table.game_id !== before.gameId || next.passes.length !== seats.length) {
    const passes = [...seats];
    for (const seat of table.game?.passed || []) passes[seat] = { cause: "player" };
    next = { ...next, selected: [], hintIndex: -1, passes, lastPlays: [...seats], dealAnimation: events.some((event) => event.type === "deal") };
  }
  if (before.table && before.table.seq !== table.seq) next = { ...next, hintIndex: -1 }; // moves are for one state
  let lead = !(table.game_id === before.gameId && before.table?.game?.table); // the next set leads a round
  for (const event of events) {
    next = applyEvent(next, event, lead);
    if (event.type === "play") lead = false;
  }
  const strings = table.game?.hand || [];
  if (!sameHand(next.hand, strings)) {
    const hand = keyedHand(strings);
    const keys = new Set(hand.map((card) => card.key));
    next = { ...next, hand, selected: next.selected.filter((key) => keys.has(key)) };
  }
  return message.moves ? receiveMoves(next, table.seq, message.moves) : next;
}

/** A set played clears the round's passes and sets when it leads (`lead`); a pass is kept by its seat. */
function applyEvent(state, event, lead) {
  const clear = (list) => (lead ? list.map(() => null) : [...list]);
  if (event.type === "play") {
    const passes = clear(state.passes);
    const lastPlays = clear(state.lastPlays);
    passes[event.seat] = null;
    lastPlays[event.seat] = { seat: event.seat, cards: event.cards, set: event.set, cause: event.cause || "player" };
    const next = { ...state, passes, lastPlays };
    return event.seat === mySeat(state) ? { ...next, selected: [], message: null } : next;
  }
  if (event.type === "pass") {
    const passes = [...state.passes];
    passes[event.seat] = { cause: event.cause || "player" };
    return { ...state, passes };
  }
  return state;
}

/** Our moves for state `seq` (ignored once the state has moved on). */
function receiveMoves(state, seq, list) {
  if (!state.table || seq !== state.table.seq) return state;
  const next = { ...state, moves: { seq, list }, hintWanted: null };
  return state.hintWanted === seq ? hint(next) : next; // H was pressed before the moves came
}

/** The deal has been drawn: later renders do not animate it again. */
export function dealShown(state) {
  return state.dealAnimation ? { ...state, dealAnimation: false } : state;
}

// ---------------------------------------------------------------------------
// Reducers: hints and actions

/** The cards of the hand that make up a set the server offers ("9 9 SJ*": a marked joker
 * named, a plain one an unmarked card). */
export function cardsForMove(state, move) {
  const chosen = [];
  for (const word of (move.cards || "").split(/\s+/).filter(Boolean)) {
    const card = displayHand(state).find((candidate) => !chosen.includes(candidate.key)
      && (word.endsWith("*") ? candidate.text === word : candidate.rank === word && !candidate.marked));
    if (card) chosen.push(card.key);
  }
  return chosen;
}

/** H: the next of our moves in the server's order (the smallest beating set first, Y4.7; a
 * pass selects nothing and says so), round and round. Asked before the moves came, the hint
 * shows as they come. */
export function hint(state) {
  if (!isMyTurn(state) || phaseOf(state) !== "play") return say(state, isPlaying(state) ? "roy.msg.notYourTurn" : "err.not_playing");
  const list = legalMoves(state);
  if (!list.length) return { ...say(clearSelection(state), "roy.msg.movesComing"), hintIndex: -1, hintWanted: state.table.seq };
  const index = (state.hintIndex + 1) % list.length;
  const move = list[index];
  const selected = move.type === "play" ? cardsForMove(state, move) : [];
  const key = move.type === "play" ? "roy.msg.hint" : "roy.msg.hintPass";
  return { ...setSelected({ ...state, selected: [] }, selected, true), hintIndex: index, message: { kind: "hint", source: "play", key, vars: { i: index + 1, n: list.length, cards: move.cards || "" } } };
}

/** Enter: the `play` message of the selected cards, or what to say instead ({send} or {state}). */
export function play(state) {
  if (!isPlaying(state) || state.busy || phaseOf(state) !== "play") return { state };
  if (!isMyTurn(state)) return { state: say(state, "roy.msg.notYourTurn") };
  const cards = selectedCards(state);
  if (!cards.length) return { state: say(state, "roy.msg.selectFirst", "error") };
  return { state, send: { type: "play", seq: state.table.seq, cards: cards.map((card) => card.text).join(" ") } };
}

/** P: the `pass` message, or what to say instead. */
export function pass(state) {
  if (!isPlaying(state) || state.busy || phaseOf(state) !== "play") return { state };
  if (!isMyTurn(state)) return { state: say(state, "roy.msg.notYourTurn") };
  if (!currentGame(state).table) return { state: say(state, "roy.msg.leadNoPass") };
  return { state, send: { type: "pass", seq: state.table.seq } };
}

/** A decision's button: the message for one of the choices offered (`ascend`, `abdicate`,
 * `declaration`), against this state; nothing when we are asked nothing. */
export function decide(state, choice) {
  if (!question(state) || state.busy) return { state };
  return { state, send: { ...choice, seq: state.table.seq } };
}
