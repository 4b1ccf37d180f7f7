// The replay viewer's frame, for every game: no DOM, tested by Node. The addresses of a replay
// and of the history's pages, moving between steps, the order of the seats. The steps
// themselves and the table they show are the game's (its renderer's `replay.steps` and
// `replay.state`). Also the helpers of the history page (战绩), whose rows come from
// `GET /api/me/games`.

import { familyOf } from "./games/index.js";

/** A seat's hand at a replay's step: `cards` (a card string) taken out of `hand` (a list of
 * card strings), as event number `index` of seat `seat` plays or buries them; a card the hand
 * does not hold is an error naming the event, the seat and the card (the record and its hands
 * disagree). */
export function takeCards(hand, cards, seat, index) {
  const left = [...hand];
  for (const card of (cards || "").split(/\s+/).filter(Boolean)) {
    const at = left.indexOf(card);
    if (at < 0) throw new Error(`event ${index}: seat ${seat} plays ${card}, which its hand no longer holds`);
    left.splice(at, 1);
  }
  return left;
}

/** Where a shareable replay link points: `#replay/ID` (`#replay/ID/SEAT`: seen from that seat). */
export function replayHash(gameId, seat = null) {
  return `#replay/${encodeURIComponent(gameId)}${seat === null || seat === undefined ? "" : `/${seat}`}`;
}

/** The history page's size when the address does not say. */
export const HISTORY_SIZE = 10;

/** Where a page of the history is: `#history` (the newest), `#history?offset=N` (and `limit`, 1 to 50). */
export function historyHash(offset, limit = HISTORY_SIZE) {
  const query = [offset ? `offset=${offset}` : null, limit !== HISTORY_SIZE ? `limit=${limit}` : null].filter(Boolean).join("&");
  return `#history${query ? `?${query}` : ""}`;
}

/** The page a location's hash asks for: `{page: "history", offset, limit}`, `{page: "replay",
 * id, seat}`, or null (the lobby or the table). */
export function parseRoute(hash) {
  const path = (hash || "").replace(/^#\/?/, "");
  const history = /^history(?:\?(.*))?$/.exec(path);
  if (history) {
    const query = new URLSearchParams(history[1] || "");
    const number = (name, fallback) => (/^\d+$/.test(query.get(name) || "") ? Number(query.get(name)) : fallback);
    return { page: "history", offset: number("offset", 0), limit: Math.max(1, Math.min(50, number("limit", HISTORY_SIZE))) };
  }
  const match = /^replay\/([^/]+)(?:\/(\d+))?$/.exec(path);
  if (!match) return null;
  return { page: "replay", id: decodeURIComponent(match[1]), seat: match[2] === undefined ? null : Number(match[2]) };
}

/** The step index after a key (→ next, ← back, Home the deal, End the end), or null for another key. */
export function stepAfterKey(index, count, key) {
  const last = count - 1;
  switch (key) {
    case "ArrowRight":
      return Math.min(last, index + 1);
    case "ArrowLeft":
      return Math.max(0, index - 1);
    case "Home":
      return 0;
    case "End":
      return last;
    default:
      return null;
  }
}

/** A step index within the steps (a number from a link or a button). */
export function clampStep(index, count) {
  return Math.max(0, Math.min(count - 1, Number.isFinite(index) ? Math.trunc(index) : 0));
}

/** The seats in the order of play from `seat` (the seat the replay is seen from). */
export function seatsFrom(seat, count) {
  const base = seat === null || seat === undefined || seat < 0 || seat >= count ? 0 : seat;
  return Array.from({ length: count }, (unused, step) => (base + step) % count);
}

// ---------------------------------------------------------------------------
// The history page (战绩)

/** One row of the history: the others at the table from the account's seat — its partner
 * (same team, four seats) and its opponents — with the server's figures. */
export function historyRow(game) {
  const teams = game.teams || game.seats.map((unused, index) => index);
  const others = game.seats.map((seat, index) => ({ index, name: seat?.name ?? null, bot: Boolean(seat?.bot), bot_level: seat?.bot_level ?? null }))
    .filter((seat) => seat.index !== game.seat);
  const mine = teams[game.seat];
  return {
    gameId: game.game_id,
    date: game.finished_at,
    family: familyOf(game),
    room: game.room,
    edition: game.edition,
    seat: game.seat,
    seats: game.seats.length,
    partner: others.filter((seat) => teams[seat.index] === mine),
    opponents: others.filter((seat) => teams[seat.index] !== mine),
    result: game.result,
    won: game.won,
    delta: game.delta,
    balanceAfter: game.balance_after,
  };
}

/** A page of the history: `games` as the server answered a request for `size + 1` games
 * from `offset` (one more than shown says whether a next page exists). Returns the rows
 * shown and where the previous and next pages start (null: none). */
export function historyPage(games, offset, size) {
  const shown = games.slice(0, size);
  return {
    rows: shown.map(historyRow),
    offset,
    previous: offset > 0 ? Math.max(0, offset - size) : null,
    next: games.length > size ? offset + size : null,
    from: shown.length ? offset + 1 : 0,
    to: offset + shown.length,
  };
}
