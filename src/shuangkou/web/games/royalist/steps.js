// A finished Royalist game step by step, for the replay viewer: no DOM, tested by Node. The
// game is what `GET /api/games/ID` returns (the hands as the throne offer found them, the
// roles, abdications and declarations, every event as the views show it, the settlement); a
// step is an action of the record (an abdication, the ascent, the published declarations, a
// set, a pass, an escape), and every hand at a step is the hand as dealt, the emperor card
// moved by each abdication (Y2.2), the fourth copy of a called card marked by the call
// (7H*, the 保子牌, Y9), less the cards its seat has played so far.

import { seatsFrom, takeCards } from "../../replay.js";
import { CALL_COPIES, EMPEROR_CARD } from "./state.js";

/** The events that are a step of their own; the others are told with the step they belong to. */
const ACTIONS = new Set(["abdicate", "ascend", "declarations", "play", "pass", "escape"]);
/** Told with the next action (they come before it); the others with the action before them. */
const BEFORE = new Set(["timeout", "hosting"]);

/** Y9, Y13.18: the hands once the emperor has called `card`: its fourth copy — his own when
 * he holds all four, else the one another seat holds — is the 保子牌 (`7H*`). */
function markCalled(hands, emperor, card) {
  const order = [emperor, ...hands.map((unused, seat) => seat).filter((seat) => seat !== emperor)];
  const holders = order.flatMap((seat) => hands[seat].filter((text) => text === card).map(() => seat));
  if (holders.length <= CALL_COPIES) return hands;
  const holder = holders[CALL_COPIES];
  const marked = [...hands];
  marked[holder] = [...hands[holder]];
  marked[holder][marked[holder].lastIndexOf(card)] = `${card}*`; // the first three are the ones shown
  return marked;
}

/**
 * The steps of a replay: step 0 the deal (the hands, the holder of the emperor card as its
 * `seat`), then one step per action. Each step: `{kind, seat, event, before, after, hands,
 * last, out}` — `before` the events told with it that came first (a timeout, hosting),
 * `after` those that followed (the offer, the declarations opened, a reveal, a seat out,
 * 接风, the end); `hands` every seat's cards then; `last` per seat its latest action
 * (`{type, cards, set, cause}`); `out` the seats out so far, first out first.
 */
export function replaySteps(replay) {
  const dealt = replay.hands.map((hand) => hand.split(/\s+/).filter(Boolean));
  const holder = dealt.findIndex((hand) => hand.includes(EMPEROR_CARD));
  const steps = [{ kind: "deal", seat: holder, event: null, before: [], after: [], hands: dealt, last: dealt.map(() => null), out: [] }];
  let pending = [];
  replay.events.forEach((event, index) => {
    const previous = steps[steps.length - 1];
    if (ACTIONS.has(event.type)) {
      let hands = [...previous.hands];
      const last = [...previous.last];
      if (event.type === "play") hands[event.seat] = takeCards(hands[event.seat], event.cards, event.seat, index);
      if (event.type === "ascend" && event.call) hands = markCalled(hands, event.seat, event.call);
      if (event.type === "abdicate") {
        hands[event.seat] = takeCards(hands[event.seat], EMPEROR_CARD, event.seat, index);
        hands[event.to] = [...hands[event.to], EMPEROR_CARD];
      }
      if (event.seat !== undefined) last[event.seat] = { type: event.type, cards: event.cards || "", set: event.set || null, cause: event.cause || "player" };
      steps.push({ kind: event.type, seat: event.seat ?? null, event, before: pending, after: [], hands, last, out: [...previous.out] });
      pending = [];
    } else if (BEFORE.has(event.type) && event.cause !== "escape") {
      pending.push(event);
    } else {
      previous.after.push(event);
      if (event.type === "out") previous.out = [...previous.out, event.seat];
    }
  });
  steps[steps.length - 1].after.push(...pending);
  return steps;
}

/**
 * A finished table as the page's selectors and renderers read it (names, roles, the result
 * screen), built from the replay alone: no seat is "you", the table is seen from `seat`, every
 * role is public, and the cards still held are the last step's hands.
 */
export function replayState(replay, steps, seat = null) {
  const end = steps[steps.length - 1].hands;
  const roles = replay.roles || { emperor: null, guard: null, solo: null };
  const call = replay.events.find((event) => event.type === "ascend")?.call ?? null;
  const roleOf = (index) => {
    if (roles.emperor === null || roles.emperor === undefined) return null;
    if (index === roles.emperor) return "emperor";
    return index === roles.guard ? "guard" : "revolutionary";
  };
  return {
    seenFrom: seatsFrom(seat, replay.seats.length)[0],
    names: {},
    passes: [],
    lastPlays: [],
    table: {
      id: null, room: replay.room, edition: replay.edition, phase: "settled", you: null, seq: 0,
      seats: replay.seats, game_id: replay.game_id, settlement: replay.settlement,
      game: {
        phase: "over", finished: true, roles, called: call, guard_card: call ? "called" : "marked", public_roles: replay.seats.map((unused, index) => roleOf(index)),
        abdications: replay.abdications || [], declarations: replay.declarations || null, multiplier: replay.multiplier,
        places: replay.settlement?.places || [], cards_left: end.map((hand) => hand.length), revealed: end.map((hand) => hand.join(" ")),
      },
    },
  };
}
