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
} = {}) {
  return {
    id, room: "points", edition: "points", seq, phase, you, seats,
    game: {
      seq: 1, to_act: finished ? null : toAct, leader: 0, flip_card: "10H", cards_left: cardsLeft,
      table: onTable, plays: onTable ? [onTable] : [], timeouts: [0, 0], hosting, finished,
      winner: null, result: null, escaped, played, seat: you, hand,
    },
    game_id: gameId, turn_seconds: 20, turn_deadline: deadline, escape_penalty: 720, escape_mode: escapeMode,
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
