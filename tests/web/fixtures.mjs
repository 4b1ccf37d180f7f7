// Server messages as the client receives them, built small for the state module's tests.

/** A combination view as the server writes it (`bomb`, `width`, `stands_for` included). */
export const combo = (kind, top, cards, { phase = 0, length = 1, reading = cards, bomb = false, width = 0, standsFor = [] } = {}) => ({
  kind, length, top, phase, cards, reading, bomb, width, stands_for: standsFor,
});
export const single = (rank) => combo("single", rank, rank);
export const pair = (rank) => combo("pair", rank, `${rank} ${rank}`);
/** A legal move as the server pushes it: the body of a play. */
export const move = (kind, cards) => ({ cards, as: kind });
export const bomb = (rank, size) => combo("bomb", rank, Array(size).fill(rank).join(" "), { phase: size, bomb: true, width: 1 });

const seat = (name, extra = {}) => ({
  name, account: name.length, bot: false, connected: true, ready: true, balance: 1000, ready_deadline: null, ...extra,
});

/** A `table` in the middle of a game: seat `you` holds `hand`; `toAct` is to act; `onTable` is the play to beat. */
export function table({
  id = "T1", seq = 5, gameId = "g1", you = 0, toAct = 0, hand = ["3H", "3S", "5C", "QH", "QD", "SJ"], onTable = null,
  cardsLeft = [27, 27], phase = "playing", seats = [seat("Ann"), seat("Bob")], escapeMode = "settle", settlement = null,
  hosting = [false, false], finished = false, escaped = null, deadline = 1_000_000, played = [false, false],
  plays = onTable ? [onTable] : [], roundStart = plays.length ? plays[0].index : null, passed = [],
  escapeCost = escapeMode === "settle"
    ? { mode: "settle", penalty: 720, owed: 720, fee: 0, charge: 720 }
    : { mode: "host", penalty: 0, owed: null, fee: null, charge: null },
} = {}) {
  return {
    id, room: "points", edition: "points", seq, phase, you, seats,
    game: {
      seq: 1, to_act: finished ? null : toAct, leader: 0, flip_card: "10H", cards_left: cardsLeft,
      table: onTable, plays, round_start: roundStart, passed, timeouts: [0, 0], hosting, finished,
      winner: null, result: null, escaped, played, seat: you, hand,
    },
    game_id: gameId, turn_seconds: 20, turn_deadline: deadline, escape_cost: phase === "playing" ? escapeCost : null, escape_mode: escapeMode,
    settlement,
  };
}

export const stateMessage = (options = {}, events = []) => ({ type: "state", events, table: table(options) });

/** A settlement as the server sends it after a game (R9.6), seat 1 the winner. */
export function settlement(extra = {}) {
  return {
    result: "flat", winner: 1, escaper: null, escaper_played: false, loser_cards_left: 3, match_points: 60,
    levels: [5, 5], a: 1, b: 1, doubling_phase: 0, phases: [], contribution_multipliers: [0, 0], contributions: [0, 0],
    result_points: 60, penalty: 0, due: 60, payer: 0, paid: 60, received: 60, capped: false, table_fees: [0, 0],
    win_fee: 0, house: 0, deltas: [-60, 60], balances_before: [1000, 1000], balances_after: [940, 1060], ...extra,
  };
}

const FOUR = ["Ann", "Bob", "Cy", "Di"];

/** A four-seat `table` (RULES-CLASSIC) in the middle of a game: teams 0+2 and 1+3 as the server sends them. */
export function table4({
  you = 0, toAct = 0, onTable = null, plays = onTable ? [onTable] : [], cardsLeft = [27, 27, 27, 27], phase = "playing",
  seats = FOUR.map((name) => seat(name)), finishOrder = [], finished = false, swap = null, settlement = null, seq = 5,
  gameId = "g4", hand = ["3H", "5C", "QH"], escapeMode = "host", roundStart = plays.length ? plays[0].index : null, passed = [],
  escapeCost = { mode: escapeMode, penalty: 1080, owed: null, fee: null, charge: null }, game = true,
} = {}) {
  return {
    id: "T4", room: "classic", edition: "points", seq, phase, you, seats,
    game: game ? {
      seq: 1, to_act: finished ? null : toAct, leader: 0, flip_card: "QC", cards_left: cardsLeft, table: onTable, plays,
      round_start: roundStart, passed,
      timeouts: [0, 0, 0, 0], hosting: [false, false, false, false], played: [false, false, false, false], finished,
      winner: finishOrder[0] ?? null, result: null, escaped: null, teams: [0, 1, 0, 1], finish_order: finishOrder,
      winners: [], swap, seat: you, hand,
    } : null,
    game_id: game ? gameId : null, turn_seconds: 20, turn_deadline: 1_000_000,
    escape_cost: phase === "playing" ? escapeCost : null, escape_mode: escapeMode, settlement,
  };
}

export const state4Message = (options = {}, events = []) => ({ type: "state", events, table: table4(options) });

/** A four-seat settlement (C5.8) as the server sends it: seats 1 and 3 out first and third, a single win
 * (a = 2) with seat 3's 6-phase bomb (b = 4, and c = 2 from each of the three others). */
export function settlement4(extra = {}) {
  const phase = (value) => ({ phase: value, source: value ? "bomb" : "none", bombs: [], played: [] });
  return {
    result: "single", finish_order: [1, 0, 3, 2], winners: [1, 3], escaper: null, match_points: 60, levels: [5, 5, 5, 6],
    a: 2, b: 4, doubling_phase: 6, phases: [phase(0), phase(4), phase(0), phase(6)], team_phases: [0, 6],
    contribution_multipliers: [0, 0, 0, 2], contributions: [0, 0, 0, 120], result_points: 480,
    transfers: [-480, 480, -480, 480], penalty: 0, escape_payments: [0, 0, 0, 0], nets: [-600, 360, -600, 840],
    house_claim: 0, table_fees: [0, 0, 0, 0], dues: [600, 0, 600, 0], paid: [600, 0, 600, 0], received: [0, 360, 0, 840],
    capped: false, win_fees: [0, 0, 0, 0], house: 0, deltas: [-600, 360, -600, 840], balances_before: [1000, 1000, 1000, 1000],
    balances_after: [400, 1360, 400, 1840], ...extra,
  };
}
