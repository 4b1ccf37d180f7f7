// The client's state: one plain object, never touched by the DOM. Reducers take a state and
// something that happened (a server message, a key, a click) and return a new state;
// selectors read what the page shows from it. Renderers (render/*.js) draw a state and
// app.js wires events to reducers. Nothing here knows the rules: the legal moves (pushed
// with every state to the seat to act), what a combination is, whether it is a bomb and
// what its jokers stand for, the teams, the finishing places and the result all come from
// the server. Two seats (Rush) or four (classic): the seats are as many as `table.seats`.

import { RANKS, parseCard, sortCards } from "./cards.js";

/** The state of a page that has just loaded. */
export function initialState({ token = null, invite = null, sort = "rank" } = {}) {
  return {
    token,
    account: null,
    levels: {},
    rooms: [],
    view: null,
    table: null,
    invite,
    rematch: null, // a room to join by quick match on the node a redirect named
    redirected: false, // the pending join follows a redirect
    connection: { status: "idle", everOpen: false, reconnectAt: 0 },
    awaitingPong: false,
    gotState: false,
    statesOnConnection: 0,
    sort: sort === "group" ? "group" : "rank",
    hand: [],
    selected: [],
    focusKey: null,
    moves: null, // {seq, list}: the legal moves the server pushed for state seq
    hintWanted: false, // H was pressed before they arrived
    hintIndex: -1,
    hintApplied: null,
    busy: false,
    bubbles: [null, null], // per seat: its pass of this round ({cause}), or null
    lastPlays: [null, null], // per seat: its last play of this round (four seats show it by the seat)
    jiefeng: null, // the seat that took over the lead (接风, C2.3) until it plays
    gameId: null,
    names: {},
    message: null,
    joining: false,
    autoReady: false, // the player asked to play against bots: the page says Ready for them once
    botOffer: null, // {table, count}: the server offers bots for the free seats of a waiting table
    leaving: null,
    escapeReport: null, // what leaving charged, shown in the lobby until dismissed
    historyOpen: false, // the recent plays, opened by their switch on narrow screens
    dealAnimation: false,
  };
}

// ---------------------------------------------------------------------------
// Selectors: the table

export const mySeat = (state) => (state.table ? state.table.you : null);
export const opponentSeat = (state) => (state.table && state.table.you !== null ? 1 - state.table.you : null);
export const currentGame = (state) => (state.table ? state.table.game : null);

/** The number of seats at our table: 2 (Rush) or 4 (classic). */
export const seatCount = (state) => state.table?.seats?.length || 2;
export const isFourSeat = (state) => seatCount(state) === 4;

/** The places around the table, from our seat on in the order of play: with four seats play
 * passes from seat i to i + 1 counter-clockwise (C1.1), so the next seat sits on our right,
 * our partner opposite and the previous seat on our left. */
const POSITIONS = { 2: ["me", "top"], 4: ["me", "right", "top", "left"] };

/** Which seat is at each place: {me, top} or {me, right, top, left} (a spectator sees from
 * seat 0, or from `state.seenFrom`: a replay's result). */
export function seatPositions(state) {
  const count = seatCount(state);
  const base = state.table?.you ?? state.seenFrom ?? 0;
  return Object.fromEntries(POSITIONS[count].map((position, step) => [position, (base + step) % count]));
}

/** The place at the table of a seat: "me", "right", "top" or "left". */
export function positionOf(state, seat) {
  const positions = seatPositions(state);
  return Object.keys(positions).find((position) => positions[position] === seat) ?? null;
}

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

/** A game is being played (not over) at our table. */
export function isPlaying(state) {
  const game = currentGame(state);
  return state.table?.phase === "playing" && Boolean(game) && !game.finished;
}

export function isMyTurn(state) {
  return isPlaying(state) && state.table.game.to_act === mySeat(state);
}

/** Hosting (托管) plays for our seat. */
export function hostingOn(state) {
  const game = currentGame(state);
  return Boolean(game && game.hosting[mySeat(state)]);
}

/** Whether a combination view is a bomb (the server says so). */
export function isBomb(combo) {
  return Boolean(combo?.bomb);
}

/** Our legal moves in hint order, when it is our turn: a state of our turn carries them (its
 * `moves`), else a `hint` message follows it; each `{cards, as}`, the body of a play. */
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
  const live = isPlaying(state);
  const game = currentGame(state);
  return {
    shown: live,
    play: active && state.selected.length > 0,
    pass: active && Boolean(game?.table),
    hint: active,
    hosting: live && game.escaped !== mySeat(state), // an escaped seat stays hosted (R10.1)
    hostingPressed: hostingOn(state),
  };
}

/** The hint counter: "2/7" while cycling through the moves, else "". */
export function hintCount(state) {
  const list = legalMoves(state);
  return state.hintIndex >= 0 && list.length ? `${state.hintIndex + 1}/${list.length}` : "";
}

/** A seat's name as the server gave it, remembered for a seat that has left: {name, bot}. */
export function seatInfo(state, index) {
  return state.table?.seats?.[index] || state.names[index] || null;
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
// Selectors: timers, leaving, the result

/** Milliseconds left before `deadline` (epoch ms), never more than the timer's length. */
export function remainingMs(deadline, totalSeconds, now) {
  if (!deadline) return null;
  return Math.max(0, Math.min(deadline - now, (totalSeconds || 3600) * 1000));
}

/** A turn timer as drawn: whole seconds left, the fraction of the ring, urgent in the last 5 s. */
export function turnTimer(deadline, totalSeconds, now) {
  const total = totalSeconds || 20;
  const left = remainingMs(deadline, total, now);
  return { seconds: Math.ceil(left / 1000), fraction: left / (total * 1000), urgent: left <= 5000 };
}

/** Whole seconds left before a ready deadline. */
export function secondsUntil(deadline, now) {
  return Math.max(0, Math.ceil((deadline - now) / 1000));
}

/** The connection banner: null when hidden, else {status, seconds}. */
export function connectionBanner(state, now) {
  const { status, everOpen, reconnectAt } = state.connection;
  if (!everOpen || (status !== "waiting" && status !== "connecting")) return null;
  return { status, seconds: status === "waiting" ? secondsUntil(reconnectAt, now) : null };
}

/**
 * What the escape dialog says before leaving a game: null when no game is being played or
 * the server prices no escape (`escape_cost` null: leaving now is no escape), else the
 * mode, the penalty and whether a card was played.
 */
export function escapeDialog(state) {
  if (!isPlaying(state) || !state.table.escape_cost) return null;
  const table = state.table;
  return { mode: table.escape_mode, penalty: table.escape_cost.penalty, edition: table.edition, played: Boolean(table.game.played?.[table.you]) };
}

/**
 * What an escape costs, from the server's figures (`escape_cost` in the state before
 * leaving, `charged` in `left` after): `{penalty, rest, fee, total, capped, edition, when}`.
 * `when` is "now" (`settle`: the game ends and is settled at once, `total` is exactly what
 * the balance loses, `rest` the normal loss and contributions owed beyond the penalty,
 * R10.3, C6.2, `capped` when the balance could not pay it all, R9.5, C6.3), "end" (`host` at
 * four seats: the penalty is charged with the game's result, C6.1) or "none" (`host` at two
 * seats: no penalty, the game is settled normally, R10.1).
 */
export function costSummary(cost, edition, four) {
  if (!cost) return null;
  if (cost.mode !== "settle") {
    const when = four ? "end" : "none";
    return { penalty: when === "none" ? 0 : cost.penalty, rest: null, fee: null, total: null, capped: false, edition, when };
  }
  return {
    penalty: cost.penalty, rest: cost.owed - cost.penalty, fee: cost.fee, total: cost.charge,
    capped: cost.charge < cost.owed + cost.fee, edition, when: "now",
  };
}

/** What leaving now charges, as the escape dialog states it (`costSummary` of the state's `escape_cost`). */
export function escapeCharge(state) {
  return escapeDialog(state) ? costSummary(state.table.escape_cost, state.table.edition, isFourSeat(state)) : null;
}

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
  if (settlement.table_fees.some(Boolean)) rows.push({ key: "tableFee", cells: column((seat) => settlement.table_fees[seat]) });
  if (settlement.win_fees.some(Boolean)) rows.push({ key: "winFee", cells: column((seat) => settlement.win_fees[seat]) });
  rows.push(
    { key: "before", cells: column((seat) => settlement.balances_before[seat]) },
    { key: "change", cells: column((seat) => settlement.deltas[seat]) },
    { key: "after", cells: column((seat) => settlement.balances_after[seat]) },
  );
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

/** The other seats between games: each `{seat, status}`, status "ready", "notReady" or "left" (a free seat). */
export function readiness(state) {
  const table = state.table;
  if (!table) return [];
  const me = seatPositions(state).me;
  const positions = POSITIONS[seatCount(state)].map((position) => seatPositions(state)[position]);
  return positions.filter((seat) => seat !== me).map((seat) => {
    const taken = table.seats[seat];
    return { seat, status: !taken ? "left" : taken.ready ? "ready" : "notReady" };
  });
}

/** Whether we may ask for bots in the free seats (`{"type": "bots"}`): seated, no game running, a seat free. */
export function canFillWithBots(state) {
  const table = state.table;
  return Boolean(table) && table.you !== null && !isPlaying(state) && table.seats.some((seat) => seat === null);
}

// ---------------------------------------------------------------------------
// Reducers: the connection and the lobby

/** The link's status changed ("connecting", "open", "waiting" with its delay, "stopped"). */
export function linkStatus(state, status, now, delay = 0) {
  const connection = { ...state.connection, status };
  let next = { ...state, connection };
  if (status === "open") {
    connection.everOpen = true;
    next = { ...next, statesOnConnection: 0 };
  }
  if (status === "waiting") connection.reconnectAt = now + delay;
  return next;
}

/** `welcome`: the account and the rooms; a `ping` follows to learn whether we are seated. */
export function receiveWelcome(state, message) {
  return {
    ...state,
    account: message.account ?? state.account,
    rooms: Array.isArray(message.rooms) ? message.rooms : state.rooms,
    gotState: false,
    awaitingPong: true,
    statesOnConnection: 0,
  };
}

/** The `pong` after `welcome` with no `state` before it: not seated. */
export function isNotSeatedPong(state) {
  return state.awaitingPong && !state.gotState;
}

export function receivePong(state) {
  if (!state.awaitingPong) return state;
  const next = { ...state, awaitingPong: false };
  return state.gotState ? next : { ...next, table: null, joining: Boolean(state.invite || state.rematch) };
}

/** The lobby is shown (joining is over). */
export function showLobby(state) {
  return { ...state, view: "lobby", table: null, joining: false, autoReady: false, botOffer: null };
}

export function showLoginView(state) {
  return { ...state, view: "login" };
}

/**
 * `left`: the connection stays open and the page goes back to the lobby. An escape
 * (`escape`), or a seat that hosting plays on (`hosted`), leaves a report for the lobby:
 * what the server says the escape charged (`charged`, `costSummary`), and the balance
 * before and after it.
 */
export function receiveLeft(state, message = {}) {
  const summary = message.escape || message.hosted
    ? costSummary(message.charged, state.table?.edition ?? state.leaving?.edition, isFourSeat(state))
    : null;
  const before = state.leaving?.balance ?? null;
  const report = summary
    ? { ...summary, hosted: Boolean(message.hosted), before, after: before !== null && summary.total !== null ? before - summary.total : null }
    : null;
  return { ...showLobby(state), escapeReport: report };
}

/**
 * `redirect` (a cluster's node): the link reconnects to the node named; with a `table`
 * (quick match found players waiting there) it joins that table once connected, as an
 * invitation is joined; with a `room` (that node runs fewer tables, or the room of the
 * table, for a quick match there if it has filled) it joins the room by quick match there.
 * The join says it was `redirected`: that node seats us, it does not send us on.
 */
export function receiveRedirect(state, message) {
  if (!message.table && !message.room) return state;
  return { ...state, invite: message.table || null, rematch: message.room || null, redirected: true, joining: true };
}

/** The `join` to send once connected (an invitation or a redirect to follow), or null. */
export function pendingJoin(state) {
  const followed = state.redirected ? { redirected: true } : {};
  if (state.invite) return { type: "join", table: state.invite, ...(state.rematch ? { room: state.rematch } : {}), ...followed };
  if (state.rematch) return { type: "join", room: state.rematch, opponent: "human", ...followed };
  return null;
}

/** Reasons of `closed` after which the table goes on elsewhere or later: the view stays. */
const TABLE_GOES_ON = new Set(["shutdown", "moved", "moving"]);

/**
 * `closed`: the table is gone, unless the server is stopping or (a cluster) the table
 * moves to another node: then it is shown until its state comes again.
 */
export function receiveClosed(state, reason) {
  return TABLE_GOES_ON.has(reason) ? state : { ...state, table: null };
}

/** The session token is no longer good (or the player signs in again). */
export function forgetToken(state) {
  return { ...state, token: null, account: null };
}

export function signedIn(state, { token, account }) {
  return { ...state, token, account };
}

/** `GET /api/me` answered. */
export function receiveAccount(state, account) {
  return { ...state, account, levels: account.levels || {} };
}

export function receiveRooms(state, rooms) {
  return { ...state, rooms: rooms || state.rooms };
}

/** A join was sent; against bots (`opponent` "bot") the page will say Ready by itself. */
export function joinRequested(state, opponent = null) {
  return { ...state, joining: true, autoReady: opponent === "bot", escapeReport: null };
}

export function joinFailed(state) {
  return { ...state, joining: false, autoReady: false };
}

/** Whether to send `ready` for the player now: they asked to play against bots, the seats
 * are all taken and the player is not ready yet. */
export function shouldSendReady(state) {
  const table = state.table;
  return state.autoReady && Boolean(table) && table.phase === "ready" && table.you !== null && !table.seats[table.you]?.ready;
}

/** `ready` was sent for the player: once only. */
export function readySent(state) {
  return { ...state, autoReady: false };
}

/** The bots the server offers for our waiting table (`bots_offered`): the count of free
 * seats, or null once no longer offered (the table filled, or we are elsewhere). */
export function botOffer(state) {
  const offer = state.botOffer;
  const table = state.table;
  if (!offer || !table || table.id !== offer.table || table.phase !== "waiting") return null;
  const free = table.seats.filter((seat) => seat === null).length;
  return free ? free : null;
}

/** The offer is taken: bots sit down, and the page says Ready for the player, who asked to play. */
export function botsAccepted(state) {
  return { ...state, botOffer: null, autoReady: true };
}

/** The recent plays' switch (narrow screens). */
export function toggleHistory(state) {
  return { ...state, historyOpen: !state.historyOpen };
}

/** Leaving: remember the balance before, so that the lobby can show it with what the escape cost. */
export function leaveRequested(state) {
  const table = state.table;
  const seat = table.seats[table.you];
  return { ...state, leaving: isPlaying(state) ? { edition: table.edition, balance: seat?.balance ?? null } : null };
}

export function leavingDone(state) {
  return { ...state, leaving: null };
}

export function dismissEscapeReport(state) {
  return { ...state, escapeReport: null };
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

/** `state`: the whole table, after the events that led to it. */
export function receiveState(state, message) {
  const table = message.table;
  const events = message.events || [];
  let next = {
    ...state,
    view: "table",
    gotState: true,
    statesOnConnection: state.statesOnConnection + 1,
    joining: false,
    busy: false,
    invite: null,
    rematch: null,
    redirected: false,
  };
  if (table.game_id !== state.gameId) {
    next = {
      ...next,
      gameId: table.game_id,
      selected: [],
      hintIndex: -1,
      hintApplied: null,
      bubbles: roundPasses(table),
      lastPlays: roundPlays(table),
      jiefeng: null,
      message: null,
      dealAnimation: events.some((event) => event.type === "deal"),
    };
  }
  if (state.table && state.table.seq !== table.seq) next = { ...next, hintIndex: -1 }; // moves are for one state
  if (next.botOffer && next.botOffer.table !== table.id) next = { ...next, botOffer: null };
  if (next.autoReady && (table.phase === "playing" || table.phase === "settled")) next = { ...next, autoReady: false };
  const names = !state.table || state.table.id !== table.id ? {} : { ...state.names };
  table.seats.forEach((seat, index) => {
    if (seat) names[index] = { name: seat.name, bot: seat.bot };
  });
  const leading = !(table.game_id === state.gameId && state.table?.game?.table); // the next play leads a round
  next = { ...next, names, table };
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
 * round (a play that leads a new round, `lead`, clears the others'), 接风, and our play
 * clearing the selection.
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
    return { ...state, bubbles };
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

/** `notice`: the timer ran out (the message stays until the next play); bots are offered
 * for the free seats of our waiting table; else a toast only. */
export function receiveNotice(state, message) {
  if (message.code === "bots_offered") return state.table ? { ...state, botOffer: { table: state.table.id, count: message.count } } : state;
  if (message.code !== "timed_out") return state;
  return { ...state, message: { kind: "warn", source: "notice", key: "notice.timedOut", vars: { count: message.count } } };
}

const PLAY_ERRORS = new Set([
  "unavailable", "invalid_combination", "does_not_beat", "not_your_turn", "pass_on_lead", "stale", "cards_not_held", "no_cards",
  "not_playing", "game_over", "unknown_card",
]);

/**
 * What an `error` means for the page: "login" (the token is gone), "invite" (the invited
 * table cannot be joined: back to the lobby), "rejoin" (already seated: reconnect to that
 * seat), "play" (a refused action, said under the hand) or "toast".
 */
export function errorOutcome(state, message) {
  if (message.code === "invalid_token") return "login";
  if (state.joining && state.invite) return "invite";
  if (state.joining && message.code === "already_seated") return "rejoin";
  if (PLAY_ERRORS.has(message.code) && state.view === "table") return "play";
  return "toast";
}

/** `error`: a refusal; nothing changed on the server. */
export function receiveError(state, message) {
  const outcome = errorOutcome(state, message);
  const next = {
    ...state, busy: false, joining: false, rematch: null, autoReady: state.joining ? false : state.autoReady,
  };
  switch (outcome) {
    case "login":
      return forgetToken(next);
    case "invite":
      return { ...next, invite: null };
    case "play":
      return { ...next, message: errorMessage(state, message) };
    default:
      return next;
  }
}

/** A refused action as the message under the hand (with the combination it did not beat). */
function errorMessage(state, message) {
  return { kind: "error", source: "play", code: message.code, text: message.message, onTable: currentGame(state)?.table?.combo || null };
}

/** A message under the hand: a dictionary key with its values. */
export function say(state, key, kind = "info", vars = {}) {
  return { ...state, message: { kind, source: "play", key, vars } };
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

/** A rank key: the next card of that rank is selected (and focused); on a rank fully selected, all unselected. */
export function selectRank(state, rank) {
  const cards = displayHand(state).filter((card) => card.rank === rank);
  if (!cards.length) return { ...state, message: { kind: "info", source: "play", key: "msg.noRank", rank } };
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

/** Select the next move of the cycle (or say there is none). */
export function nextHint(state) {
  const list = legalMoves(state);
  if (!list.length) return { ...say(clearSelection(state), "msg.noMoves"), hintIndex: -1 };
  const index = (state.hintIndex + 1) % list.length;
  const move = list[index];
  const chosen = cardsForMove(state, move);
  return {
    ...state,
    hintIndex: index,
    selected: chosen,
    hintApplied: { key: selectionKey(chosen), kind: move.as },
    message: { kind: "hint", source: "play", hint: { index, count: list.length, move } },
  };
}

/** Enter: the `play` message to send, or what to say instead ({send} or {state}). */
export function play(state) {
  if (!isPlaying(state) || state.busy) return { state };
  if (!isMyTurn(state)) return { state: say(state, "msg.notYourTurn") };
  const cards = selectedCards(state);
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

/** A play or pass is on its way: the buttons wait for the answer. */
export function sent(state) {
  return { ...state, busy: true };
}

/** After a reconnect, hosting that the connection loss switched on is switched off again. */
export function shouldResumeControl(state, hostingReason) {
  const table = state.table;
  const game = table?.game;
  if (state.statesOnConnection !== 1 || !game || game.finished || table.phase !== "playing") return false;
  const seat = table.you;
  if (seat === null || !game.hosting[seat] || game.escaped === seat) return false; // an escape stays hosted (R10.1)
  return hostingReason !== "player" && hostingReason !== "timeout";
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
