// Tractor in the replay viewer: what a step shows (the deal with its declarations and the
// trump, the bury with the bottom taken and the cards buried, a play with the trick so far)
// and every seat at that step (its side, the dealer, its cards sorted with trumps apart).
// The viewer's frame is the shell's (render/replay.js).

import { t } from "../i18n.js";
import { heldText } from "../../../deck.js";
import { h } from "../../../dom.js";
import { levelTag, miniCard, seatName } from "../../../render/common.js";
import { seatInfo, sideOf, sortedCards } from "../state.js";
import { minis, suitName, trickCross } from "./table.js";

/** What happens at the step, with the events told with it. */
export function nowPanel(state, replay, step) {
  const lines = [...step.before, ...step.after].map((event) => noteText(state, event)).filter(Boolean);
  const parts = [h("p", { class: "now-title", "data-testid": "replay-now-title" }, stepText(state, step))];
  if (step.kind === "bury") {
    parts.push(h("p", { class: "tr-replay-bottom", "data-testid": "replay-bottom" }, `${t("tr.result.bottom")}: `, ...minis(replay.bottom)));
  }
  if (step.kind === "play") {
    const trick = { done: Boolean(step.won), leader: step.trick[0][0], winner: step.won?.winner, points: step.won?.points,
      plays: step.trick.map(([seat, cards]) => ({ seat, cards })) };
    parts.push(trickCross(state, trick, { testid: "replay-trick" }));
  }
  return h("div", { class: `replay-now kind-${step.kind}`, "data-testid": "replay-now", "data-kind": step.kind },
    ...parts, lines.length ? h("ul", { class: "now-notes", "data-testid": "replay-notes" }, ...lines.map((line) => h("li", {}, line))) : null);
}

/** One line for a step. */
export function stepText(state, step) {
  const name = seatName(state, step.seat);
  switch (step.kind) {
    case "deal":
      return t("tr.replay.deal", { name });
    case "bury":
      return t("tr.replay.bury", { name, cards: heldText(state.table.settlement?.bottom?.split(" ") || []) });
    case "play": {
      const cause = step.event.cause && step.event.cause !== "player" ? ` (${t(`tr.cause.${step.event.cause}`)})` : "";
      return `${t("tr.replay.play", { name, cards: heldText(step.event.cards.split(" ")) })}${cause}`;
    }
    default:
      return t("tr.replay.escape", { name });
  }
}

/** An event told with a step. */
function noteText(state, event) {
  const name = seatName(state, event.seat);
  switch (event.type) {
    case "declare":
      return t("tr.ev.declare", { name, kind: t(`tr.declaredKind.${event.kind}`), cards: heldText(event.cards.split(" ")) });
    case "trump":
      return t("tr.ev.trump", { suit: suitName(event.suit), level: event.level, name: seatName(state, event.dealer) });
    case "bottom_card":
      return t("tr.bottomCard", { card: heldText([event.card]), suit: suitName(["SJ", "BJ"].includes(event.card) ? "none" : event.card.slice(-1)) });
    case "redeal":
      return t("tr.ev.redeal");
    case "throw_failed":
      return t("tr.throwFailed", { name, attempted: heldText(event.attempted.split(" ")), forced: heldText(event.forced.split(" ")) });
    case "trick":
      return t("tr.ev.trick", { name: seatName(state, event.winner), points: event.points });
    case "timeout":
      return t("tr.replay.timeout", { name });
    case "hosting":
      return t(event.on ? "tr.replay.hosting" : "tr.replay.hostingOff", { name });
    case "end":
      return t("tr.replay.over");
    default:
      return null;
  }
}

/** A seat at the step: name, side, dealer, its cards with trumps apart. */
export function seatPanel(state, step, seat) {
  const hand = step.hands[seat];
  const side = sideOf(state, seat);
  const game = state.table.game;
  const sorted = sortedCards(hand, game);
  return h("article", {
    class: `replay-seat side-${side}${step.kind !== "deal" && step.seat === seat ? " current" : ""}`, "data-testid": "replay-seat",
    "data-seat": String(seat), "data-cards": hand.join(" "),
  },
  h("header", {},
    h("span", { class: "r-name" }, seatName(state, seat)),
    levelTag(seatInfo(state, seat), `replay-bot-level-${seat}`),
    seat === game.dealer ? h("span", { class: "tag tr-tag-dealer" }, t("tr.tag.dealer")) : null,
    h("span", { class: "r-count" }, t("tr.replay.cards", { count: hand.length }))),
  h("div", { class: "r-hand", "aria-label": heldText(hand) }, ...sorted.map((card) => {
    const mini = miniCard(card);
    if (card.trump) mini.classList.add("tr-trump");
    return mini;
  })));
}
