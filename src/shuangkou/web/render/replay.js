// The replay viewer's frame, the same for every game: a finished game step by step, with the
// step controls, the list of steps, the shareable link, and at the end the settlement. What
// a step shows (its action, every seat's hand and latest action) and the settlement's
// breakdown are the game's renderer's (`replay`, `settlement`). The steps come from
// replay.js; every figure from `GET /api/games/ID`.

import { t, formatNumber } from "../i18n.js";
import { $, h } from "../dom.js";
import { seatsFrom } from "../replay.js";
import { dateText } from "./history.js";

/**
 * Draw the replay. `view`: `{status: "loading" | "unknown" | "notFinished" | "failed", id}`
 * or `{status: "shown", replay, steps, index, state, seat, link, game}` (`state` from
 * `replayState`, `link` the shareable address, `game` the renderer of the game's family);
 * `on`: {go(index), copy()}.
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
  const { replay, steps, index, state, game } = view;
  meta.textContent = t("replay.meta", { room: rooms(replay), date: dateText(replay.finished_at) });
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
  const seats = seatsFrom(view.seat, replay.seats.length).map((seat) => game.replay.seat(state, step, seat));
  const nodes = [controls, game.replay.now(state, replay, step),
    h("div", { class: `replay-seats seats-${replay.seats.length}`, "data-testid": "replay-seats" }, ...seats)];
  if (index === last) {
    const settled = game.settlement(state, { replay: true });
    if (settled) {
      nodes.push(h("section", { class: "replay-result result-card", "data-testid": "replay-result", "aria-labelledby": "replay-result-title" },
        ...settled.nodes));
    }
  }
  nodes.push(stepList(state, steps, index, on.go, game), h("p", { class: "hint-text" }, t("replay.keys")), share);
  body.replaceChildren(...nodes);
  body.querySelector(".replay-steps li.current")?.scrollIntoView?.({ block: "nearest" });
}

/** Every step in a list, the current one marked; a click goes to it. */
function stepList(state, steps, index, go, game) {
  return h("details", { class: "replay-steps-wrap" },
    h("summary", {}, t("replay.steps"), ` (${formatNumber(steps.length - 1)})`),
    h("ol", { class: "replay-steps", start: "0" }, ...steps.map((step, at) => h("li", { class: at === index ? "current" : "" },
      h("button", { type: "button", class: "link-btn", "aria-current": at === index ? "step" : null, onclick: () => go(at) }, game.replay.text(state, step))))));
}
