// The replay viewer: a finished game step by step, every hand revealed (the hands as dealt
// minus the cards played so far), the action of the step with its reading, each seat's
// latest action and place, and at the end the settlement drawn by the result screen's
// renderer. The steps come from replay.js; every figure from `GET /api/games/ID`.

import { t, formatNumber } from "../i18n.js";
import { cardFace, cardLabel, describeCombo, heldText, jokerMarks, parseCard, parseCards, phaseText, readingText, sortCards } from "../cards.js";
import { $, h } from "../dom.js";
import { seatInfo, sideOf } from "../state.js";
import { seatsFrom } from "../replay.js";
import { levelTag, miniCard, seatName } from "./common.js";
import { settlementNodes } from "./result.js";

/**
 * Draw the replay. `view`: `{status: "loading" | "unknown" | "notFinished" | "failed", id}`
 * or `{status: "shown", replay, steps, index, state, seat, link}` (`state` from
 * `replayState`, `link` the shareable address); `on`: {go(index), copy()}.
 */
export function renderReplay(view, rooms, on) {
  const body = $("#replay-body");
  const meta = $("#replay-meta");
  if (view.status !== "shown") {
    meta.textContent = "";
    body.replaceChildren(h("p", { class: `page-note ${view.status}`, "data-testid": "replay-status", role: view.status === "loading" ? "status" : "alert" },
      t(`replay.${view.status === "loading" ? "loading" : view.status}`, { id: view.id })));
    return;
  }
  const { replay, steps, index, state } = view;
  meta.textContent = t("replay.meta", { room: rooms(replay), date: view.date });
  const step = steps[index];
  const last = steps.length - 1;
  const button = (label, key, target, testid, shortcut) => h("button", {
    type: "button", class: "btn secondary small", disabled: target === index, "aria-keyshortcuts": shortcut,
    "data-testid": testid, onclick: () => on.go(target),
  }, label, h("kbd", { "aria-hidden": "true" }, key));
  const controls = h("div", { class: "replay-controls", role: "toolbar", "aria-label": t("replay.title") },
    button(t("replay.start"), "Home", 0, "replay-start", "Home"),
    button(t("replay.back"), "←", Math.max(0, index - 1), "replay-back", "ArrowLeft"),
    h("span", { class: "replay-step", "data-testid": "replay-step", "data-index": String(index), "aria-live": "polite" },
      t("replay.step", { k: index, n: last })),
    button(t("replay.next"), "→", Math.min(last, index + 1), "replay-next", "ArrowRight"),
    button(t("replay.end"), "End", last, "replay-end", "End"));
  const share = h("div", { class: "game-id replay-share" },
    h("label", { for: "replay-link" }, t("replay.linkLabel")),
    h("div", { class: "game-id-row" },
      h("input", { id: "replay-link", readonly: true, value: view.link, "data-testid": "replay-link", onfocus: (event) => event.target.select() }),
      h("button", { type: "button", class: "btn ghost small", onclick: on.copy, "data-testid": "replay-copy" }, t("replay.copy"))));
  const seats = seatsFrom(view.seat, replay.seats.length).map((seat) => seatPanel(state, step, seat));
  const nodes = [controls, nowPanel(state, replay, step),
    h("div", { class: `replay-seats seats-${replay.seats.length}`, "data-testid": "replay-seats" }, ...seats)];
  if (index === last) {
    const settled = settlementNodes(state, null);
    if (settled) {
      nodes.push(h("section", { class: "replay-result result-card", "data-testid": "replay-result", "aria-labelledby": "replay-result-title" },
        ...settled.nodes));
    }
  }
  nodes.push(stepList(state, steps, index, on.go), h("p", { class: "hint-text" }, t("replay.keys")), share);
  body.replaceChildren(...nodes);
  body.querySelector(".replay-steps li.current")?.scrollIntoView?.({ block: "nearest" });
}

/** What happens at the step: the deal (flip card, swap, leader), or the play, pass or escape
 * with the events told with it. */
function nowPanel(state, replay, step) {
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
function stepText(state, step) {
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
function seatPanel(state, step, seat) {
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

/** Every step in a list, the current one marked; a click goes to it. */
function stepList(state, steps, index, go) {
  return h("details", { class: "replay-steps-wrap" },
    h("summary", {}, t("replay.steps"), ` (${formatNumber(steps.length - 1)})`),
    h("ol", { class: "replay-steps", start: "0" }, ...steps.map((step, at) => h("li", { class: at === index ? "current" : "" },
      h("button", { type: "button", class: "link-btn", "aria-current": at === index ? "step" : null, onclick: () => go(at) }, stepText(state, step))))));
}
