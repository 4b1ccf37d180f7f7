// The client's state: one plain object, never touched by the DOM. Reducers take a state and
// something that happened (a server message, a key, a click) and return a new state;
// selectors read what the page shows from it. Renderers (render/*.js) draw a state and
// app.js wires events to reducers.
//
// This module is the shell's part, the same for every game: the connection, the account and
// the lobby, the table's seats and names, where each seat sits, timers, hosting, leaving and
// what it charges, Ready, the offer of bots, the notices. A game's renderer (games/NAME/) keeps its own keys in the same object (the hand,
// the selection, hints …) and reduces every server message after the shell has
// (`reduce(before, after, message)`, see games/index.js); what a game's table view holds
// beyond turns, hosting and timeouts (cards, teams, places) is read by its renderer only.
// Nothing here knows the rules: the seats, timers and results all come from the server. Two seats, four or five:
// the seats are as many as `table.seats`.

/** The state of a page that has just loaded (the shell's keys; a game adds its own when its
 * renderer is loaded). */
export function initialState({ token = null, invite = null } = {}) {
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
    busy: false, // an action was sent: the game's buttons wait for the answer
    gameId: null,
    names: {},
    message: null, // the message under the game: a refusal, a notice, or what the game says
    joining: false,
    autoReady: false, // the player asked to play (quick match, bots): the page says Ready for them once
    botOffer: null, // {table, count}: the server offers bots for the free seats of a waiting table
    leaving: null,
    escapeReport: null, // what leaving charged, shown in the lobby until dismissed
    seatLost: false, // the ready timer freed our seat (R11.4): the lobby says so until dismissed
  };
}

// ---------------------------------------------------------------------------
// Selectors: the table

export const mySeat = (state) => (state.table ? state.table.you : null);
export const opponentSeat = (state) => (state.table && state.table.you !== null ? 1 - state.table.you : null);
export const currentGame = (state) => (state.table ? state.table.game : null);

/** The number of seats at our table: 2 (Rush), 4 (classic) or 5 (Royalist). */
export const seatCount = (state) => state.table?.seats?.length || 2;
export const isFourSeat = (state) => seatCount(state) === 4;
/** More than two seats: the others are several (named by where they sit, readied one by one). */
export const isManySeat = (state) => seatCount(state) > 2;

/** The places around the table, from our seat on in the order of play: play passes from seat
 * i to i + 1 counter-clockwise (C1.1), so the next seat sits on our right; with four seats our
 * partner opposite and the previous seat on our left; with five the two after it across the
 * top, right then left, and the previous seat on our left. */
export const POSITIONS = {
  2: ["me", "top"], 4: ["me", "right", "top", "left"], 5: ["me", "right", "topRight", "topLeft", "left"],
};

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

/** A game is being played (not over) at our table. */
export function isPlaying(state) {
  const game = currentGame(state);
  return state.table?.phase === "playing" && Boolean(game) && !game.finished;
}

/** Whether the game waits for `seat`: `to_act` is one seat, or a list while several seats
 * act at once (a decision every seat answers). */
export function actsNow(state, seat) {
  if (!isPlaying(state) || seat === null || seat === undefined) return false;
  const toAct = state.table.game.to_act;
  return Array.isArray(toAct) ? toAct.includes(seat) : toAct === seat;
}

export function isMyTurn(state) {
  return actsNow(state, mySeat(state));
}

/** Hosting (托管) plays for our seat. */
export function hostingOn(state) {
  const game = currentGame(state);
  return Boolean(game && game.hosting[mySeat(state)]);
}

/** Whether the hosting switch may be used, and whether it is on: `{hosting, hostingPressed}`. */
export function hostingButton(state) {
  const live = isPlaying(state);
  return {
    hosting: live && currentGame(state).escaped !== mySeat(state), // an escaped seat stays hosted (R10.1)
    hostingPressed: hostingOn(state),
  };
}

/** A seat's name as the server gave it, remembered for a seat that has left: {name, bot}. */
export function seatInfo(state, index) {
  return state.table?.seats?.[index] || state.names[index] || null;
}

// ---------------------------------------------------------------------------
// Selectors: timers, leaving

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
 * four seats, C6.1, or five, Y8.4: the penalty is charged with the game's result) or "none" (`host` at two
 * seats: no penalty, the game is settled normally, R10.1).
 */
export function costSummary(cost, edition, many) {
  if (!cost) return null;
  if (cost.mode !== "settle") {
    const when = many ? "end" : "none";
    return { penalty: when === "none" ? 0 : cost.penalty, rest: null, fee: null, total: null, capped: false, edition, when };
  }
  return {
    penalty: cost.penalty, rest: cost.owed - cost.penalty, fee: cost.fee, total: cost.charge,
    capped: cost.charge < cost.owed + cost.fee, edition, when: "now",
  };
}

/** What leaving now charges, as the escape dialog states it (`costSummary` of the state's `escape_cost`). */
export function escapeCharge(state) {
  return escapeDialog(state) ? costSummary(state.table.escape_cost, state.table.edition, isManySeat(state)) : null;
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
    ? costSummary(message.charged, state.table?.edition ?? state.leaving?.edition, isManySeat(state))
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
  if (TABLE_GOES_ON.has(reason)) return state;
  return { ...state, table: null, seatLost: state.seatLost || reason === "not_ready" };
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

/** A join was sent; by quick match or against bots (`opponent` "human" or "bot") the player
 * has asked to play, so the page will say Ready by itself; invited friends each say it. */
export function joinRequested(state, opponent = null) {
  return { ...state, joining: true, autoReady: opponent === "bot" || opponent === "human", escapeReport: null, seatLost: false };
}

export function joinFailed(state) {
  return { ...state, joining: false, autoReady: false };
}

/** Whether to send `ready` for the player now: they asked to play (a quick match or bots),
 * the seats are all taken and the player is not ready yet. */
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

export function dismissSeatLost(state) {
  return { ...state, seatLost: false };
}

// ---------------------------------------------------------------------------
// Reducers: the table

/** `state`: the whole table (the shell's part: the view, the seats' names, the game's id). A
 * game's renderer then reduces the same message for its own keys (its `reduce`). */
export function receiveState(state, message) {
  const table = message.table;
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
  if (table.game_id !== state.gameId) next = { ...next, gameId: table.game_id, message: null };
  if (next.botOffer && next.botOffer.table !== table.id) next = { ...next, botOffer: null };
  if (next.autoReady && (table.phase === "playing" || table.phase === "settled")) next = { ...next, autoReady: false };
  const names = !state.table || state.table.id !== table.id ? {} : { ...state.names };
  table.seats.forEach((seat, index) => {
    if (seat) names[index] = { name: seat.name, bot: seat.bot };
  });
  return { ...next, names, table };
}

/** `notice`: the timer ran out (the message stays until the next play); bots are offered
 * for the free seats of our waiting table; else a toast only. */
export function receiveNotice(state, message) {
  if (message.code === "bots_offered") return state.table ? { ...state, botOffer: { table: state.table.id, count: message.count } } : state;
  if (message.code !== "timed_out") return state;
  return { ...state, message: { kind: "warn", source: "notice", key: "notice.timedOut", vars: { count: message.count } } };
}

/** The refusals of an action at the table that any game's actions may meet, said under the
 * game rather than as a toast; a game adds its own codes (its renderer's `refusals`). */
export const ACTION_ERRORS = Object.freeze(["unavailable", "not_your_turn", "stale", "not_playing", "game_over"]);

/**
 * What an `error` means for the page: "login" (the token is gone), "invite" (the invited
 * table cannot be joined: back to the lobby), "rejoin" (already seated: reconnect to that
 * seat), "play" (a refused action, said under the game: one of `ACTION_ERRORS` or of the game's
 * `refusals`) or "toast".
 */
export function errorOutcome(state, message, refusals = []) {
  if (message.code === "invalid_token") return "login";
  if (state.joining && state.invite) return "invite";
  if (state.joining && message.code === "already_seated") return "rejoin";
  const refused = ACTION_ERRORS.includes(message.code) || (refusals || []).includes(message.code);
  if (refused && state.view === "table") return "play";
  return "toast";
}

/** `error`: a refusal; nothing changed on the server (`refusals`: the game's own codes of a
 * refused action, as in `errorOutcome`). */
export function receiveError(state, message, refusals = []) {
  const outcome = errorOutcome(state, message, refusals);
  const next = {
    ...state, busy: false, joining: false, rematch: null, autoReady: state.joining ? false : state.autoReady,
  };
  switch (outcome) {
    case "login":
      return forgetToken(next);
    case "invite":
      return { ...next, invite: null };
    case "play":
      return { ...next, message: errorMessage(message) };
    default:
      return next;
  }
}

/** A refused action as the message under the game (a game's `reduce` may add what it needs
 * to word it, such as the combination it did not beat). */
function errorMessage(message) {
  return { kind: "error", source: "play", code: message.code, text: message.message };
}

/** A message under the game (under the hand): a dictionary key with its values. */
export function say(state, key, kind = "info", vars = {}) {
  return { ...state, message: { kind, source: "play", key, vars } };
}

/** An action is on its way: the buttons wait for the answer. */
export function sent(state) {
  return { ...state, busy: true };
}

/** The rows every game's breakdown ends with, from what every settlement carries (the
 * platform's payout): the table and the win fees when any was charged, then each seat's
 * balance before, change and balance after. `column(pick)` gives a row's cells, one per
 * column of the result, from a seat's value. */
export function payoutRows(settlement, column) {
  const fees = [["tableFee", settlement.table_fees], ["winFee", settlement.win_fees]].filter(([, values]) => values.some(Boolean));
  const balances = [["before", settlement.balances_before], ["change", settlement.deltas], ["after", settlement.balances_after]];
  return [...fees, ...balances].map(([key, values]) => ({ key, cells: column((seat) => values[seat]) }));
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
