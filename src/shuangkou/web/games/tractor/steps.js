// A finished Tractor hand step by step, for the replay viewer: no DOM, tested by Node. The
// hand is what `GET /api/games/ID` returns (the hands as dealt, the bottom as taken and as
// buried, the trump, the events, the settlement). Step 0 is the deal with its
// declarations; then the dealer's bury; then one step per play or escape. The hands at a
// step are the hands as dealt, the dealer's with the bottom taken and the buried cards
// left out once buried, less the cards each seat has played.

import { seatsFrom, takeCards } from "../../replay.js";

/** Told with the next step (they come before it); the others with the step before them. */
const BEFORE = new Set(["timeout", "hosting", "throw_failed"]);

const split = (cards) => (cards || "").split(/\s+/).filter(Boolean);

/**
 * The steps of a replay, each `{kind, seat, event, before, after, hands, trick, won}`:
 * `kind` "deal", "bury", "play" or "escape"; `before` the events told with it that came
 * first (a timeout, hosting, a failed throw), `after` those that followed (declarations and
 * the trump at the deal, the trick's winner, the end); `hands` every seat's cards then;
 * `trick` the plays of the trick so far (`[seat, cards]`), `won` its winner and points once
 * it is over.
 */
export function replaySteps(replay) {
  const dealt = replay.hands.map(split);
  const steps = [{ kind: "deal", seat: replay.dealer, event: null, before: [], after: [], hands: dealt, trick: [], won: null }];
  let pending = [];
  replay.events.forEach((event, index) => {
    const previous = steps[steps.length - 1];
    const hands = [...previous.hands];
    if (event.type === "bury") {
      hands[event.seat] = takeCards([...hands[event.seat], ...split(replay.bottom)], replay.buried, event.seat, index);
      steps.push({ kind: "bury", seat: event.seat, event, before: pending, after: [], hands, trick: [], won: null });
      pending = [];
    } else if (event.type === "play") {
      hands[event.seat] = takeCards(hands[event.seat], event.cards, event.seat, index);
      const trick = previous.won || previous.kind !== "play" ? [] : previous.trick;
      steps.push({ kind: "play", seat: event.seat, event, before: pending, after: [], hands, trick: [...trick, [event.seat, event.cards]], won: null });
      pending = [];
    } else if (event.type === "escape") {
      steps.push({ kind: "escape", seat: event.seat, event, before: pending, after: [], hands, trick: previous.won ? [] : previous.trick, won: null });
      pending = [];
    } else if (BEFORE.has(event.type) && event.cause !== "escape") {
      pending.push(event);
    } else {
      if (event.type === "trick") previous.won = { winner: event.winner, points: event.points };
      previous.after.push(event);
    }
  });
  steps[steps.length - 1].after.push(...pending);
  return steps;
}

/**
 * A finished hand as the page's selectors and renderers read it (names, sides, the result
 * of render/result.js), from the replay alone: no seat is "you", the table is seen from
 * `seat`.
 */
export function replayState(replay, steps, seat = null) {
  return {
    seenFrom: seatsFrom(seat, replay.seats.length)[0],
    names: {},
    tractor: { hand: [], selected: [], focusKey: null, moves: null, hintIndex: -1, lastTrickShown: false },
    table: {
      id: null, room: replay.room, edition: replay.edition, phase: "settled", you: null, seq: 0,
      seats: replay.seats, game_id: replay.game_id, settlement: replay.settlement,
      game: {
        dealer: replay.dealer, levels: replay.levels, level: replay.trump?.level ?? replay.levels[0], trump: replay.trump,
        settings: replay.settings, // the order of the cards (a replay stored before it: the default, the 2 not constant)
        finished: true, phase: "over", cards_left: steps[steps.length - 1].hands.map((hand) => hand.length),
      },
    },
  };
}
