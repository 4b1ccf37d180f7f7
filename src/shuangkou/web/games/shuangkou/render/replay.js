// Shuangkou in the replay viewer: what a step shows (the deal with the flip card and the swap,
// or a play with its cards and the joker reading, a pass, an escape, with the events told
// with it) and every seat at that step (its side, place, latest action and the cards it
// holds). The viewer's frame (controls, list of steps, link, settlement) is the shell's
// (render/replay.js).

import { t } from "../i18n.js";
import { cardFace, cardLabel, heldText, parseCard, parseCards, sortCards } from "../../../deck.js";
import { h } from "../../../dom.js";
import { levelTag, miniCard, seatName } from "../../../render/common.js";
import { describeCombo, jokerMarks, phaseText, readingText } from "../combos.js";
import { seatInfo, sideOf } from "../state.js";

/** What happens at the step: the deal (flip card, swap, leader), or the play, pass or escape
 * with the events told with it. */
export function nowPanel(state, replay, step) {
  const name = (seat) => seatName(state, seat);
  const lines = [...step.before, ...step.after].map((event) => noteText(state, event)).filter(Boolean);
  const parts = [h("p", { class: "now-title", "data-testid": "replay-now-title" }, stepText(state, step))];
  if (step.kind === "deal" && replay.flip_card) {
    parts.push(h("div", { class: "flip" }, h("span", { class: "flip-label" }, t("deal.flip")), cardFace(parseCard(replay.flip_card))));
  }
  if (step.kind === "deal" && replay.swap) parts.push(h("p", { class: "swap-notice", "data-testid": "replay-swap" }, t("deal.swap", { a: name(replay.swap[0]), b: name(replay.swap[1]) })));
  if (step.kind === "play") {
    const event = step.event;
    const cards = parseCards(event.cards);
    const marks = jokerMarks(cards, event.combo);
    parts.push(h("div", { class: "play-cards", "data-testid": "replay-play", "data-cards": event.cards, "data-seat": String(event.seat) },
      ...cards.map((card, at) => cardFace(card, { standsFor: marks[at] }))));
    if (marks.some(Boolean)) parts.push(h("p", { class: "play-reading", "data-testid": "replay-reading" }, t("combo.readsAs", { reading: readingText(event.combo) })));
  }
  return h("div", { class: `replay-now kind-${step.kind}${step.event?.combo?.bomb ? " is-bomb" : ""}`, "data-testid": "replay-now", "data-kind": step.kind },
    ...parts, lines.length ? h("ul", { class: "now-notes", "data-testid": "replay-notes" }, ...lines.map((line) => h("li", {}, line))) : null);
}

/** One line for a step: the deal, or who did what. */
export function stepText(state, step) {
  const name = seatName(state, step.seat);
  const event = step.event;
  switch (step.kind) {
    case "deal":
      return t("replay.deal", { name });
    case "play": {
      const bomb = event.combo?.bomb ? ` · ${phaseText(event.combo.phase)}` : "";
      const how = event.cause && event.cause !== "player" ? ` (${t(`cause.${event.cause}`)})` : "";
      return `${t("ev.played", { name, combo: describeCombo(event.combo) })}${bomb}${how}`;
    }
    case "pass":
      return t("replay.pass", { name, pass: t(`bubble.${event.cause || "player"}`) });
    default:
      return t("replay.escape", { name });
  }
}

/** An event told with a step: the flip card, a timeout, hosting, a seat out, 接风, the end. */
function noteText(state, event) {
  const name = seatName(state, event.seat);
  switch (event.type) {
    case "deal":
      return event.flip_card ? t("replay.flip", { card: cardLabel(parseCard(event.flip_card)), name }) : null;
    case "timeout":
      return t("replay.timeout", { name, count: event.count });
    case "hosting":
      return t(event.on ? "replay.hosting" : "replay.hostingOff", { name });
    case "out":
      return t("ev.out", { name, place: t(`place.${event.place}`) });
    case "jiefeng":
      return t("round.jiefeng", { name });
    case "end":
      return t("replay.over");
    default:
      return null;
  }
}

/** A seat at the step: name, side, place, its latest action and its cards. */
export function seatPanel(state, step, seat) {
  const hand = step.hands[seat];
  const side = sideOf(state, seat);
  const place = step.out.indexOf(seat) + 1;
  const action = step.last[seat];
  const current = step.kind !== "deal" && step.seat === seat;
  const sorted = sortCards(parseCards(hand.join(" ")), "rank");
  let did = null;
  if (action?.type === "play") {
    did = h("span", { class: "r-did", "data-testid": "replay-last" },
      h("span", { class: "b-cards", "aria-hidden": "true" }, ...parseCards(action.cards).map((card) => miniCard(card))),
      " ", describeCombo(action.combo), action.combo?.bomb ? ` · ${phaseText(action.combo.phase)}` : "");
  } else if (action?.type === "pass") {
    did = h("span", { class: "r-did pass", "data-testid": "replay-last" }, t(`bubble.${action.cause}`));
  } else if (action?.type === "escape") {
    did = h("span", { class: "r-did escape", "data-testid": "replay-last" }, t("cause.escape"));
  }
  return h("article", {
    class: `replay-seat${side ? ` side-${side}` : ""}${current ? " current" : ""}`, "data-testid": "replay-seat", "data-seat": String(seat),
    "data-cards": hand.join(" "), "aria-label": t("replay.hand", { name: seatName(state, seat), count: hand.length }),
  },
  h("header", {},
    h("span", { class: "r-name" }, seatName(state, seat)),
    levelTag(seatInfo(state, seat), `replay-bot-level-${seat}`),
    side ? h("span", { class: `tag tag-role tag-${side}` }, t("replay.team", { n: state.table.game.teams[seat] + 1 })) : null,
    place ? h("span", { class: `tag tag-place place-${place}`, "data-testid": `replay-place-${seat}` }, t(`place.${place}`)) : null,
    h("span", { class: "r-count" }, t("replay.cards", { count: hand.length }))),
  did,
  h("div", { class: "r-hand", "aria-label": heldText(hand) }, ...sorted.map((card) => miniCard(card))));
}
