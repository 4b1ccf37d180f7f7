// What every game's glue at the table (its play.js) does alike: send what one of its
// reducers decided, and say a refused action or a turn that timed out under the game.

import { errorOutcome, sent } from "./state.js";

/**
 * The shared part of a game's glue. `game`: `{get, set, send, refusals, renderMessage,
 * renderActions, hand}` — the shell's state read and replaced, the shell's `send` (false
 * when the message could not go), the game's refusal codes, its message under the hand and
 * its buttons redrawn from a state, and its hand's element (whose selected cards shake).
 * Returns `{act, answer}`:
 * - `act({state, send})`: the state a reducer decided, with the message to send or null
 *   (then the state's message says why nothing was sent, and a refusal shakes the cards);
 * - `answer(message, before)`: after the shell has handled `message` (`before`: the state
 *   it found), a refused action of the game is said and its cards shake; the notice that
 *   our turn timed out is said.
 */
export function tableGlue(game) {
  const { get, set, renderMessage, renderActions } = game;
  const act = ({ state: next, send: message }) => {
    set(next);
    if (message && game.send(message)) set(sent(get()));
    renderMessage(get());
    renderActions(get());
    if (!message && get().message?.kind === "error") shake(game.hand());
  };
  const answer = (message, before) => {
    if (message.type === "error" && errorOutcome(before, message, game.refusals) === "play") {
      renderMessage(get());
      shake(game.hand());
      renderActions(get());
    } else if (message.type === "notice" && message.code === "timed_out") {
      renderMessage(get());
    }
  };
  return { act, answer };
}

/** The selected cards of a hand shake (a refused play). */
export function shake(hand) {
  for (const node of hand.querySelectorAll(".card.selected")) {
    node.classList.remove("shake");
    void node.offsetWidth; // restarts the animation
    node.classList.add("shake");
  }
}
