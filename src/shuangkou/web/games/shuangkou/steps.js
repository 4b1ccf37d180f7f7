// A finished Shuangkou game step by step, for the replay viewer: no DOM, tested by Node. The
// game is what `GET /api/games/ID` returns (the hands as dealt, every event as the views show
// it, the settlement); the page never reads the rules: a step is an action of the record (a
// play, a pass, an escape), and every hand at a step is the hand as dealt minus the cards its
// seat has played so far.

import { seatsFrom, takeCards } from "../../replay.js";

/** The events that are a step of their own; the others are told with the step they belong to. */
const ACTIONS = new Set(["play", "pass", "escape"]);
/** Told with the next action (they come before it); the others with the action before them. */
const BEFORE = new Set(["timeout", "hosting"]);

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
