// Shuangkou's part of the client's state: the hand with a stable key per card, its sort
// order, the selection and the card in focus, the legal moves pushed with our turn and where
// the hint cycle is, each seat's pass and last play of the round, 接风, the recent plays'
// switch, the card tracker shown, the deal's animation; and the result screen's data of two
// seats (R9.6) and of four (C5.8). Pure, no DOM: it runs under Node (tests/web/).
//
// The keys live in the page's one state object next to the shell's (state.js), which this
// module re-exports: `initialState`, `receiveState` and `receiveError` here are the shell's
// followed by this game's `reduce`, exactly as the shell runs them with this renderer, so
// one import reads a whole Shuangkou table. Nothing here knows the rules: the legal moves,
// what a combination is, whether it is a bomb, what its jokers stand for, the teams, the
// places and the result all come from the server.

import * as shell from "../../state.js";
import { RANKS, parseCard, sortCards } from "../../deck.js";
import {
  POSITIONS, currentGame, hostingButton, isFourSeat, isMyTurn, isPlaying, mySeat, readiness, say, seatPositions,
} from "../../state.js";

export * from "../../state.js";

/** Whether the table's room plays 千变: the holder of the flip card's other copy partners its holder (C1.4, C8). */
export const partnerByFlip = (state) => state.rooms?.find((room) => room.name === state.table?.room)?.variant === "qianbian";

/** The game's keys of a page's state; `sort` and `trackerShown` are the player's choices the
 * page remembers. */
export function initialGameState({ sort = "rank", trackerShown = false } = {}) {
  return {
    sort: sort === "group" ? "group" : "rank",
    hand: [],
    selected: [],
    focusKey: null,
    moves: null, // {seq, list}: the legal moves the server pushed for state seq
    hintWanted: false, // H was pressed before they arrived
    hintIndex: -1,
    hintApplied: null,
    bubbles: [null, null], // per seat: its pass of this round ({cause}), or null
    lastPlays: [null, null], // per seat: its last play of this round (four seats show it by the seat)
    jiefeng: null, // the seat that took over the lead (接风, C2.3) until it plays
    historyOpen: false, // the recent plays, opened by their switch on narrow screens
    trackerShown: Boolean(trackerShown),
    dealAnimation: false,
  };
}

/** The state of a page that has just loaded, at a Shuangkou table: the shell's and the game's keys. */
export function initialState(options = {}) {
  return { ...shell.initialState(options), ...initialGameState(options) };
}

/** `state`: the shell's part, then the game's. */
export function receiveState(state, message) {
  return reduce(state, shell.receiveState(state, message), message);
}

/** The refusals of a play or a pass that are Shuangkou's (beyond the shell's `ACTION_ERRORS`),
 * said under the hand rather than as a toast (the renderer's `refusals`). */
export const REFUSALS = Object.freeze(["invalid_combination", "does_not_beat", "pass_on_lead", "cards_not_held", "no_cards", "unknown_card"]);

/** What an `error` means for the page at a Shuangkou table: the shell's `errorOutcome` with this game's refusals. */
export function errorOutcome(state, message) {
  return shell.errorOutcome(state, message, REFUSALS);
}

/** `error`: the shell's part, then the game's (a refused play names what it did not beat). */
export function receiveError(state, message) {
  return reduce(state, shell.receiveError(state, message, REFUSALS), message);
}

/**
 * The game's part of a server message, after the shell's reducer: `before` is the state the
 * message found, `after` the shell's state after it. `state` (the hand, passes and plays of
 * the round, 接风, the hint cycle), `hint` (our legal moves) and `error` (a refused play says
 * the combination on the table); other messages change nothing of the game's.
 */
export function reduce(before, after, message) {
  switch (message.type) {
    case "state":
      return tableState(before, after, message);
    case "hint":
      return receiveHint(after, message);
    case "error":
      if (errorOutcome(before, message) !== "play" || !after.message) return after;
      return { ...after, message: { ...after.message, onTable: currentGame(before)?.table?.combo || null } };
    default:
      return after;
  }
}

// ---------------------------------------------------------------------------
// Selectors: the table

/** A seat's team as the server says (`game.teams`); null before the first deal. */
export function teamOf(state, seat) {
  const teams = currentGame(state)?.teams;
  return teams && seat !== null && seat !== undefined ? teams[seat] ?? null : null;
}

/** With four seats, "us" (our team) or "them"; null with two seats or before the deal. */
export function sideOf(state, seat) {
  if (!isFourSeat(state)) return null;
  const ours = teamOf(state, seatPositions(state).me);
  const theirs = teamOf(state, seat);
  if (ours === null || theirs === null) return null;
  return ours === theirs ? "us" : "them";
}

/** Our partner's seat (the other seat of our team, from the server's teams), or null. */
export function partnerSeat(state) {
  if (!isFourSeat(state)) return null;
  const me = seatPositions(state).me;
  const teams = currentGame(state)?.teams;
  if (!teams) return null;
  const seat = teams.findIndex((team, index) => index !== me && team === teams[me]);
  return seat < 0 ? null : seat;
}

/** A seat's place in the finishing order (1 = 头游 …), from `finish_order`; null while it holds cards. */
export function placeOf(state, seat) {
  if (!isFourSeat(state)) return null;
  const order = currentGame(state)?.finish_order || [];
  const index = order.indexOf(seat);
  return index < 0 ? null : index + 1;
}

/** The seats the server placed, first out first, each with its place. */
export function finishingOrder(state) {
  return (currentGame(state)?.finish_order || []).map((seat, index) => ({ seat, place: index + 1 }));
}


/**
 * What a seat shows of Shuangkou beside what the shell shows of every seat (its name,
 * balance, connection, Ready, timer): `{side, role, place, cardsLeft}`. `side` is "us" or
 * "them" with four seats once the teams are dealt, else null; `role` the tag of another seat
 * at four ("partner", "opp" or "pos": its place at the table, before the deal), null for our
 * own seat and at two; `place` its finishing place (four seats), or null; `cardsLeft` how many
 * cards it holds, or null between games. `position` is the seat's place at the table ("me",
 * "top", "left", "right").
 */
export function seatFacts(state, seat, position) {
  const game = currentGame(state);
  const side = sideOf(state, seat);
  const role = isFourSeat(state) && position !== "me" ? (side === "us" ? "partner" : side === "them" ? "opp" : "pos") : null;
  const left = game ? game.cards_left?.[seat] : null;
  return { side, role, place: placeOf(state, seat), cardsLeft: left ?? null };
}

/** Whether a combination view is a bomb (the server says so). */
export function isBomb(combo) {
  return Boolean(combo?.bomb);
}

/** Our hints, when it is our turn: a state of our turn carries them (its `moves`), else a
 * `hint` message follows it; each the body of a play, `{cards, as}`, in hint order, and on a
 * follow the pass among them, `{type: "pass"}` (the first when the partner's play stands). */
export function legalMoves(state) {
  const moves = state.moves;
  return moves && state.table && moves.seq === state.table.seq ? moves.list : [];
}

/** Whether our moves for this state are still on their way. */
export function movesPending(state) {
  return isMyTurn(state) && !(state.moves && state.moves.seq === state.table.seq);
}

/** What the action buttons allow now. */
export function actionButtons(state) {
  const active = isMyTurn(state) && !state.busy;
  return {
    shown: isPlaying(state),
    play: active && state.selected.length > 0,
    pass: active && Boolean(currentGame(state)?.table),
    hint: active,
    ...hostingButton(state), // the shell's switch, shown with the game's buttons
  };
}

/** The hint counter: "2/7" while cycling through the moves, else "". */
export function hintCount(state) {
  const list = legalMoves(state);
  return state.hintIndex >= 0 && list.length ? `${state.hintIndex + 1}/${list.length}` : "";
}

// ---------------------------------------------------------------------------
// Selectors: the hand

/** The hand in display order (by rank, or by groups). */
export function displayHand(state) {
  return sortCards(state.hand, state.sort);
}

export function selectedCards(state) {
  const chosen = new Set(state.selected);
  return state.hand.filter((card) => chosen.has(card.key));
}

function selectionKey(keys) {
  return [...keys].sort().join(",");
}

/** The cards of a hand that make up a move: for each rank the move names, the lowest card. */
function cardsForMove(state, move) {
  const wanted = move.cards.split(" ").filter(Boolean);
  const pool = [...displayHand(state)].reverse(); // lowest cards first
  const chosen = [];
  for (const rank of wanted) {
    const card = pool.find((candidate) => candidate.rank === rank && !chosen.includes(candidate.key));
    if (card) chosen.push(card.key);
  }
  return chosen;
}

// ---------------------------------------------------------------------------
// Selectors: the result

/** The result screen's data for two seats, or null when no settlement is shown. */
export function resultSummary(state) {
  const table = state.table;
  const settlement = table?.settlement;
  if (!table || table.phase !== "settled" || !settlement || isFourSeat(state)) return null;
  const you = seatPositions(state).me;
  const other = 1 - you;
  const escape = settlement.result === "escape";
  let title = settlement.winner === you ? "youWin" : "youLose";
  if (escape) title = settlement.escaper === you ? "youEscaped" : "oppEscaped";
  const mine = table.seats[you];
  const theirs = table.seats[other];
  return {
    you,
    other,
    won: settlement.winner === you,
    title,
    level: escape ? "escape" : settlement.result,
    delta: settlement.deltas[you],
    edition: table.edition,
    penaltyRow: settlement.escaper !== null && settlement.escaper !== undefined,
    feeRow: settlement.table_fees.some((fee) => fee),
    cardsLeft: !escape && settlement.loser_cards_left !== null && settlement.loser_cards_left !== undefined
      ? settlement.loser_cards_left : null,
    loserCards: table.game?.revealed?.[settlement.winner === you ? other : you] ?? null, // shown once the game is over
    opponent: !theirs ? "left" : theirs.ready ? "ready" : "notReady",
    ready: Boolean(mine?.ready),
    readyDeadline: mine?.ready_deadline || null,
    gameId: table.game_id || "",
  };
}

/**
 * The result screen's data for four seats (C5.8), or null when no settlement is shown: the
 * title, the result, our change, the columns (our seat, our partner, then the other team
 * as they sit) and the breakdown's rows, each `{key, cells}` with one raw value per column.
 * Every number is the server's; rows that would only hold zeros (fees, escape payments)
 * are left out.
 */
export function classicResult(state) {
  const table = state.table;
  const settlement = table?.settlement;
  if (!table || table.phase !== "settled" || !settlement || !isFourSeat(state)) return null;
  const you = seatPositions(state).me;
  const game = currentGame(state);
  const escaper = settlement.escaper ?? null;
  const won = settlement.winners.includes(you);
  let title = won ? "teamWins" : "teamLoses";
  if (escaper === you) title = "youEscaped";
  else if (settlement.result === "escape") title = "otherEscaped";
  const columns = seatsByTeam(state, settlement);
  const column = (pick) => columns.map((seat) => pick(seat));
  const order = settlement.finish_order;
  const rows = [
    { key: "place", cells: column((seat) => (order.includes(seat) ? order.indexOf(seat) + 1 : null)) },
    { key: "level", cells: column((seat) => settlement.levels[seat]) },
    { key: "phase", cells: column((seat) => settlement.phases[seat] || null) },
    { key: "bombs", cells: column((seat) => settlement.phases[seat] || null) },
    { key: "contribution", cells: column((seat) => ({ c: settlement.contribution_multipliers[seat], v: settlement.contributions[seat] })) },
    { key: "transfer", cells: column((seat) => settlement.transfers[seat]) },
  ];
  if (settlement.penalty) rows.push({ key: "escape", cells: column((seat) => settlement.escape_payments[seat]) });
  rows.push({ key: "net", cells: column((seat) => settlement.nets[seat]) });
  rows.push(...shell.payoutRows(settlement, column));
  if (game?.cards_left) {
    const held = (seat) => ({ count: game.cards_left[seat], cards: game.revealed?.[seat] ?? null }); // 亮牌 (C5.8)
    rows.push({ key: "cardsLeft", cells: column(held) });
  }
  return {
    you,
    won,
    title,
    escaper,
    level: settlement.result,
    delta: settlement.deltas[you],
    edition: table.edition,
    columns,
    sides: column((seat) => (seat === you ? "you" : settlement.winners.includes(seat) === won ? "partner" : "opponent")),
    finishOrder: order.map((seat, index) => ({ seat, place: index + 1 })),
    winners: settlement.winners,
    teamPhases: settlement.team_phases,
    rows,
    capped: settlement.capped,
    others: readiness(state),
    ready: Boolean(table.seats[you]?.ready),
    readyDeadline: table.seats[you]?.ready_deadline || null,
    gameId: table.game_id || "",
  };
}

/** Our seat, our team's other seat, then the other team's seats in the order of play from us. */
function seatsByTeam(state, settlement) {
  const positions = seatPositions(state);
  const around = POSITIONS[4].map((position) => positions[position]);
  const winning = (seat) => settlement.winners.includes(seat);
  const ours = winning(positions.me);
  return [...around.filter((seat) => winning(seat) === ours), ...around.filter((seat) => winning(seat) !== ours)];
}

// ---------------------------------------------------------------------------
// Reducers: the table

/** Hand cards with keys that stay the same from one state to the next ("QH#1", "QH#2"). */
function keyedHand(strings) {
  const seen = {};
  return strings.map((text) => {
    seen[text] = (seen[text] || 0) + 1;
    return { ...parseCard(text), key: `${text}#${seen[text]}` };
  });
}

function sameHand(hand, strings) {
  return hand.length === strings.length && hand.every((card, index) => card.text === strings[index]);
}

/** The game's part of a `state`: the whole table, after the events that led to it. */
function tableState(before, after, message) {
  const table = message.table;
  const events = message.events || [];
  let next = after;
  if (table.game_id !== before.gameId) {
    next = {
      ...next,
      selected: [],
      hintIndex: -1,
      hintApplied: null,
      bubbles: roundPasses(table),
      lastPlays: roundPlays(table),
      jiefeng: null,
      dealAnimation: events.some((event) => event.type === "deal"),
    };
  }
  if (before.table && before.table.seq !== table.seq) next = { ...next, hintIndex: -1 }; // moves are for one state
  const leading = !(table.game_id === before.gameId && before.table?.game?.table); // the next play leads a round
  if (next.hintWanted && !isMyTurn(next)) next = { ...next, hintWanted: false };
  let lead = leading;
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
  return next;
}

/**
 * The passes of the round as the server's view has them (`game.passed`), per seat: what a
 * page that has not followed the game (a reload) shows by each seat, as events would have
 * built it.
 */
function roundPasses(table) {
  const bubbles = table.seats.map(() => null);
  for (const pass of table.game?.passed || []) bubbles[pass.seat] = { cause: pass.cause };
  return bubbles;
}

/** Each seat's last play of the round, from the view's plays since `game.round_start`. */
function roundPlays(table) {
  const lastPlays = table.seats.map(() => null);
  const start = table.game?.round_start;
  for (const play of table.game?.plays || []) {
    if (start !== null && start !== undefined && play.index >= start) {
      lastPlays[play.seat] = { seat: play.seat, cards: play.cards, combo: play.combo, cause: play.cause || "player" };
    }
  }
  return lastPlays;
}

/**
 * What an event changes in the client's own state: the seats' passes and plays of this
 * round (a play that leads a new round, `lead`, clears the others'), 接风, our play
 * clearing the selection, and our pass spending the hint that chose it.
 */
function applyEvent(state, event, lead) {
  if (event.type === "jiefeng") return { ...state, jiefeng: event.seat };
  const clear = (list) => (lead ? list.map(() => null) : [...list]);
  const bubbles = clear(state.bubbles);
  if (event.type === "play") {
    const lastPlays = clear(state.lastPlays);
    bubbles[event.seat] = null;
    lastPlays[event.seat] = { seat: event.seat, cards: event.cards, combo: event.combo, cause: event.cause || "player" };
    const next = { ...state, bubbles, lastPlays, jiefeng: null };
    if (event.seat === mySeat(state)) return { ...next, selected: [], hintApplied: null, message: null };
    return next;
  }
  if (event.type === "pass") {
    bubbles[event.seat] = { cause: event.cause || "player" };
    const next = { ...state, bubbles };
    return event.seat === mySeat(state) ? { ...next, hintApplied: null } : next; // a pass hint is spent once passed
  }
  return state;
}

/** The deal has been drawn: later renders do not animate it again. */
export function dealShown(state) {
  return state.dealAnimation ? { ...state, dealAnimation: false } : state;
}

/** The pass bubble of a seat, shown until that seat is to act again. */
export function bubbleOf(state, index) {
  const bubble = index === null ? null : state.bubbles[index];
  return bubble && isPlaying(state) && state.table.game.to_act !== index ? bubble : null;
}

/**
 * What a seat did last in this round, as four seats show it by the seat: `{pass: {cause}}`,
 * `{play}` (a play since beaten: the play to beat is drawn in the middle), or null (nothing
 * yet, or the seat is to act).
 */
export function seatAction(state, index) {
  const pass = bubbleOf(state, index);
  if (pass) return { pass };
  const last = index === null ? null : state.lastPlays[index];
  const game = currentGame(state);
  if (!last || !isPlaying(state) || game.to_act === index || game.table?.seat === index) return null;
  return { play: last };
}

/** The seat that took over the lead from its partner who went out (接风, C2.3), while it leads. */
export function jiefengSeat(state) {
  const seat = state.jiefeng;
  const game = currentGame(state);
  return seat !== null && isPlaying(state) && !game.table && game.to_act === seat ? seat : null;
}

/** The recent plays' switch (narrow screens). */
export function toggleHistory(state) {
  return { ...state, historyOpen: !state.historyOpen };
}

// ---------------------------------------------------------------------------
// Reducers: selecting cards

function withSelection(state, selected) {
  const message = state.message && state.message.source === "notice" ? state.message : null;
  return { ...state, selected, hintApplied: null, message };
}

/** Select (`on`) or unselect cards by key. */
export function setSelected(state, keys, on) {
  const chosen = new Set(state.selected);
  for (const key of keys) {
    if (on) chosen.add(key);
    else chosen.delete(key);
  }
  return withSelection(state, [...chosen]);
}

export function toggleCard(state, key) {
  return setSelected(state, [key], !state.selected.includes(key));
}

export function clearSelection(state) {
  return withSelection(state, []);
}

/** Esc: the selection cleared and the hint cycle started again (H then shows the first hint). */
export function restartHints(state) {
  return { ...clearSelection(state), hintIndex: -1 };
}

/** A rank key: the next card of that rank is selected (and focused); on a rank fully selected, all unselected.
 * `eligible(card)`: the cards the key may take (all here); none: the message `noRank`. */
export function selectRank(state, rank, { eligible = () => true, noRank = "msg.noRank" } = {}) {
  const cards = displayHand(state).filter((card) => card.rank === rank && eligible(card));
  if (!cards.length) return { ...state, message: { kind: "info", source: "play", key: noRank, rank } };
  const next = cards.find((card) => !state.selected.includes(card.key));
  if (next) return { ...setSelected(state, [next.key], true), focusKey: next.key };
  return setSelected(state, cards.map((card) => card.key), false);
}

/** The card in focus in the hand. */
export function focusCard(state, key) {
  return { ...state, focusKey: key };
}

/** Focus moves by `delta` cards, or to an end (`absolute` 0 or -1). */
export function moveFocus(state, delta, absolute = null) {
  const cards = displayHand(state);
  if (!cards.length) return state;
  let index = cards.findIndex((card) => card.key === state.focusKey);
  if (absolute !== null) index = absolute < 0 ? cards.length - 1 : absolute;
  else index = Math.max(0, Math.min(cards.length - 1, (index < 0 ? 0 : index) + delta));
  return focusCard(state, cards[index].key);
}

/** The focused card, kept on a card still in the hand. */
export function focusedKey(state) {
  const cards = displayHand(state);
  if (!cards.length) return null;
  return cards.some((card) => card.key === state.focusKey) ? state.focusKey : cards[0].key;
}

export function toggleSort(state) {
  return { ...state, sort: state.sort === "rank" ? "group" : "rank" };
}

// ---------------------------------------------------------------------------
// Reducers: hints and actions

/** H: the next legal move is selected, in hint order, round and round (once the moves
 * have arrived: a press before that is answered when they come). */
export function hint(state) {
  if (!isMyTurn(state)) return say(state, isPlaying(state) ? "msg.notYourTurn" : "err.not_playing");
  if (movesPending(state)) return { ...state, hintWanted: true };
  return nextHint(state);
}

/** The server's `hint`: our legal moves for state `seq` (ignored when the state has moved on). */
export function receiveHint(state, message) {
  if (!state.table || message.seq !== state.table.seq) return state;
  const next = { ...state, moves: { seq: message.seq, list: message.moves }, hintWanted: false };
  return state.hintWanted ? nextHint(next) : next;
}

/** Whether a hint is the pass. */
export const isPassHint = (move) => move.type === "pass";

/** Select the next move of the cycle (or say there is none); the pass selects no card, and
 * Enter then passes. */
export function nextHint(state) {
  const list = legalMoves(state);
  if (!list.length) return { ...say(clearSelection(state), "msg.noMoves"), hintIndex: -1 };
  const index = (state.hintIndex + 1) % list.length;
  const move = list[index];
  const passing = isPassHint(move);
  const chosen = passing ? [] : cardsForMove(state, move);
  const hintApplied = { key: selectionKey(chosen), kind: passing ? "pass" : move.as };
  const hinted = { ...state, hintIndex: index, selected: chosen, hintApplied };
  if (list.length === 1 && passing) return say(hinted, "msg.noMoves");
  return { ...hinted, message: { kind: "hint", source: "play", hint: { index, count: list.length, move } } };
}

/** Enter: the `play` message to send (the `pass` when the hint shown is to pass), or what to
 * say instead ({send} or {state}). */
export function play(state) {
  if (!isPlaying(state) || state.busy) return { state };
  if (!isMyTurn(state)) return { state: say(state, "msg.notYourTurn") };
  const cards = selectedCards(state);
  if (!cards.length && state.hintApplied?.kind === "pass") return pass(state);
  if (!cards.length) return { state: say(state, "msg.selectFirst", "error") };
  const send = { type: "play", seq: state.table.seq, cards: cards.map((card) => card.text).join(" ") };
  if (state.hintApplied && state.hintApplied.key === selectionKey(state.selected)) send.as = state.hintApplied.kind;
  return { state, send };
}

/** P: the `pass` message to send, or what to say instead. */
export function pass(state) {
  if (!isPlaying(state) || state.busy) return { state };
  if (!isMyTurn(state)) return { state: say(state, "msg.notYourTurn") };
  if (!currentGame(state).table) return { state: say(state, "msg.leadNoPass") };
  return { state, send: { type: "pass", seq: state.table.seq } };
}

// ---------------------------------------------------------------------------
// The card tracker (记牌器)

/** Whether the card tracker is shown (the page remembers the choice). */
export function showTracker(state, shown) {
  return { ...state, trackerShown: Boolean(shown) };
}

export function toggleTracker(state) {
  return showTracker(state, !state.trackerShown);
}

/** The tracker's cells, highest rank first as the hand is sorted: `{rank, count}` with the
 * server's count of cards of that rank this seat has not seen (`game.tracker`); null when
 * hidden or when the state has none (between games, a spectator). */
export function trackerCells(state) {
  const counts = currentGame(state)?.tracker;
  if (!state.trackerShown || !counts || !isPlaying(state)) return null;
  return [...RANKS].reverse().filter((rank) => rank in counts).map((rank) => ({ rank, count: counts[rank] }));
}
