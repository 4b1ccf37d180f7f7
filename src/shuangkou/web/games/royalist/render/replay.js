// Royalist in the replay viewer: what a step shows (the deal and the emperor card, an
// abdication, the ascent, the declarations, a set with its cards, a pass, an escape, with the
// events told with it) and every seat at that step (its role, place, latest action and the
// cards it holds). The viewer's frame is the shell's (render/replay.js).

import { t } from "../i18n.js";
import { cardLabel, sortCards } from "../../../deck.js";
import { h } from "../../../dom.js";
import { levelTag, seatName } from "../../../render/common.js";
import { calledRoom, knownRole, royalCard, royalCards, seatInfo, sideOf } from "../state.js";
import { declarationWords, miniCards, revealKey, royalFace, royalMini, setText } from "./cards.js";

/** What happens at the step, with the events told with it. */
export function nowPanel(state, replay, step) {
  const lines = [...step.before, ...step.after].map((event) => noteText(state, event)).filter(Boolean);
  const parts = [h("p", { class: "now-title", "data-testid": "replay-now-title" }, stepText(state, step))];
  if (step.kind === "play") {
    parts.push(h("div", { class: "play-cards", "data-testid": "replay-play", "data-cards": step.event.cards, "data-seat": String(step.seat) },
      ...royalCards(step.event.cards).map(royalFace)));
  }
  return h("div", { class: `replay-now kind-${step.kind}`, "data-testid": "replay-now", "data-kind": step.kind },
    ...parts, lines.length ? h("ul", { class: "now-notes", "data-testid": "replay-notes" }, ...lines.map((line) => h("li", {}, line))) : null);
}

/** One line for a step: the deal, or who did what. */
export function stepText(state, step) {
  const name = seatName(state, step.seat);
  const event = step.event;
  switch (step.kind) {
    case "deal":
      return t("roy.replay.deal", { name });
    case "abdicate":
      return t("roy.replay.abdicate", { name });
    case "ascend":
      if (event.call) return t(event.solo === "open" ? "roy.replay.callOpen" : "roy.replay.call", { name, card: cardLabel(royalCard(event.call)) });
      return t(event.solo === "open" ? "roy.replay.ascendOpen" : "roy.replay.ascend", { name });
    case "declarations":
      return `${t("roy.replay.declarations")}: ${declarationWords(state, event)}`;
    case "play": {
      const how = event.cause && event.cause !== "player" ? ` (${t(`roy.cause.${event.cause}`)})` : "";
      return `${t("roy.ev.played", { name, set: setText(event.set) })}${how}`;
    }
    case "pass":
      return t("roy.replay.pass", { name, pass: t(`roy.pass.${event.cause || "player"}`) });
    default:
      return t("roy.replay.escape", { name });
  }
}

/** An event told with a step: a timeout, hosting, a reveal, a seat out, 接风, the end. */
function noteText(state, event) {
  const name = seatName(state, event.seat);
  switch (event.type) {
    case "timeout":
      return t("roy.replay.timeout", { name });
    case "hosting":
      return t(event.on ? "roy.replay.hostingOn" : "roy.replay.hostingOff", { name });
    case "reveal":
      return t(revealKey(event, calledRoom(state)), { name });
    case "out":
      return t("roy.ev.out", { name, place: t(`roy.place.${event.place}`) });
    case "jiefeng":
      return t("roy.ev.jiefeng", { name });
    case "end":
      return t("roy.replay.end");
    default:
      return null;
  }
}

/** A seat at the step: name, role, place, its latest action and its cards. */
export function seatPanel(state, step, seat) {
  const hand = step.hands[seat];
  const role = knownRole(state, seat);
  const side = sideOf(state, seat);
  const place = step.out.indexOf(seat) + 1;
  const action = step.last[seat];
  let did = null;
  if (action?.type === "play") {
    did = h("span", { class: "r-did", "data-testid": "replay-last" }, h("span", { class: "b-cards", "aria-hidden": "true" }, ...miniCards(action.cards)),
      " ", setText(action.set));
  } else if (action?.type === "pass") {
    did = h("span", { class: "r-did pass", "data-testid": "replay-last" }, t(`roy.pass.${action.cause}`));
  } else if (action && action.type !== "declarations") {
    did = h("span", { class: "r-did", "data-testid": "replay-last" }, stepText(state, { kind: action.type, seat, event: { ...action, solo: null } }));
  }
  return h("article", {
    class: `replay-seat${side ? ` side-${side}` : ""}${step.kind !== "deal" && step.seat === seat ? " current" : ""}`, "data-testid": "replay-seat",
    "data-seat": String(seat), "data-cards": hand.join(" "),
  },
  h("header", {},
    h("span", { class: "r-name" }, seatName(state, seat)),
    levelTag(seatInfo(state, seat), `replay-bot-level-${seat}`),
    role ? h("span", { class: `tag tag-role roy-role roy-${role}` }, t(`roy.role.${role}`)) : null,
    place ? h("span", { class: `tag tag-place place-${place}`, "data-testid": `replay-place-${seat}` }, t(`roy.place.${place}`)) : null,
    h("span", { class: "r-count" }, t("roy.myCards", { count: hand.length }))),
  did,
  h("div", { class: "r-hand" }, ...sortCards(royalCards(hand.join(" ")), "rank").map(royalMini)));
}
