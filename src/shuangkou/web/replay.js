// A finished game step by step, for the replay viewer: no DOM, tested by Node. The game is
// what `GET /api/games/ID` returns (the hands as dealt, every event as the views show it,
// the settlement); the page never reads the rules: a step is an action of the record (a
// play, a pass, an escape), and every hand at a step is the hand as dealt minus the cards
// its seat has played so far. Also the helpers of the history page (战绩), whose rows come
// from `GET /api/me/games`.

/** The events that are a step of their own; the others are told with the step they belong to. */
const ACTIONS = new Set(["play", "pass", "escape"]);
/** Told with the next action (they come before it); the others with the action before them. */
const BEFORE = new Set(["timeout", "hosting"]);

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

/** Take `cards` (a card string) out of `hand` (a list of card strings); a card the hand does
 * not hold is an error naming it (the record and its hands disagree). */
function takeCards(hand, cards, seat, index) {
  const left = [...hand];
  for (const card of cards.split(/\s+/).filter(Boolean)) {
    const at = left.indexOf(card);
    if (at < 0) throw new Error(`event ${index}: seat ${seat} plays ${card}, which its hand no longer holds`);
    left.splice(at, 1);
  }
  return left;
}

/**
 * The steps of a replay: step 0 is the deal (the hands as dealt, the leader, the flip card
 * and the swap), then one step per action. Each step: `{kind, seat, event, before, after,
 * hands, last, out, played}` — `before` the events told with it that came first (a
 * timeout, hosting switched), `after` those that followed (a seat out, 接风, the end);
 * `hands` every seat's cards at that point; `last` per seat its latest action so far
 * (`{type, cards, combo, cause}`); `out` the seats out so far, first out first; `played`
 * how many plays so far.
 */
export function replaySteps(replay) {
  const dealt = replay.hands.map((hand) => hand.split(/\s+/).filter(Boolean));
  const deal = {
    kind: "deal", seat: replay.leader, event: null, before: [], after: [],
    hands: dealt, last: dealt.map(() => null), out: [], played: 0,
  };
  const steps = [deal];
  let pending = [];
  replay.events.forEach((event, index) => {
    const previous = steps[steps.length - 1];
    if (event.type === "deal" || event.type === "swap") {
      previous.before.push(event);
    } else if (ACTIONS.has(event.type)) {
      const hands = [...previous.hands];
      const last = [...previous.last];
      let played = previous.played;
      if (event.type === "play") {
        hands[event.seat] = takeCards(hands[event.seat], event.cards, event.seat, index);
        played += 1;
      }
      last[event.seat] = { type: event.type, cards: event.cards || "", combo: event.combo || null, cause: event.cause || "player" };
      steps.push({ kind: event.type, seat: event.seat, event, before: pending, after: [], hands, last, out: [...previous.out], played });
      pending = [];
    } else if (BEFORE.has(event.type) && event.cause !== "escape") {
      pending.push(event);
    } else {
      previous.after.push(event);
      if (event.type === "out") previous.out = [...previous.out, event.seat];
    }
  });
  const end = steps[steps.length - 1];
  end.after.push(...pending);
  // The places the game ended with: a seat left last is placed without an `out` event (C2.2).
  const order = replay.settlement?.finish_order;
  if (Array.isArray(order) && order.length > end.out.length) end.out = [...order];
  return steps;
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

/**
 * A finished table as the page's selectors and renderers read it (seat names, sides, the
 * result screen of render/result.js), built from the replay alone: no seat is "you" (`you`
 * null: every seat is named), the table is seen from `seat` (its column first), and the
 * cards still held are the last step's hands.
 */
export function replayState(replay, steps, seat = null) {
  const end = steps[steps.length - 1].hands;
  return {
    seenFrom: seatsFrom(seat, replay.seats.length)[0],
    names: {},
    table: {
      id: null, room: replay.room, edition: replay.edition, phase: "settled", you: null, seq: 0,
      seats: replay.seats, game_id: replay.game_id, settlement: replay.settlement,
      game: {
        teams: replay.teams, finish_order: replay.settlement?.finish_order || [], finished: true,
        cards_left: end.map((hand) => hand.length), revealed: end,
      },
    },
  };
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
