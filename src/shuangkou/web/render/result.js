// The result screen's frame, the same for every game: the overlay, the game's id to copy
// with its *Replay*, who of the others is ready or has left (with *Fill with bots* when a
// seat is free), *Lobby* and *Ready* with its timer. The breakdown above them is the game's
// renderer's (`settlement`, which the replay viewer draws too), built with the pieces here:
// the head (title, result, our change), figures with what they mean, and each seat's
// balance before, its change and after.

import { t } from "../i18n.js";
import { $, announce, h } from "../dom.js";
import { canFillWithBots, isManySeat, readiness, seatPositions } from "../state.js";
import { displayName, money, seatName, signed, unit } from "./common.js";

/** Show (or hide) the result overlay. `actions`: {leave, ready, copyGameId, fillBots, replay};
 * `game`: the renderer of the table's game. */
export function renderResult(state, actions, game) {
  const overlay = $("#result");
  const drawn = game.settlement(state, { replay: false });
  if (!drawn) {
    overlay.hidden = true;
    return;
  }
  const wasHidden = overlay.hidden;
  overlay.hidden = false;
  const card = $("#result-card");
  const gameId = state.table.game_id || "";
  card.replaceChildren(...drawn.nodes, gameIdField(gameId, actions), readyArea(state, actions), resultButtons(state, actions));
  card.dataset.gameId = gameId;
  if (wasHidden) { // it has just appeared: say the result and focus Ready
    announce(drawn.spoken);
    setTimeout(() => $("#btn-next")?.focus({ preventScroll: true }), 60);
  }
}

/**
 * The head of a result: its title, the result, and the change of the seat it is told for
 * (`who`: that seat's name before it in a replay, where nobody is "you"). `replay`: the
 * replay viewer's (its own title id).
 */
export function resultHead({ won, title, level, delta, edition, who = "", replay = false }) {
  return h("div", { class: `result-head ${won ? "won" : "lost"}` },
    h("h2", { id: replay ? "replay-result-title" : "result-title", "data-testid": "result-title" }, title),
    h("p", { class: "result-level", "data-testid": "result-level" }, level),
    h("p", { class: `result-delta ${delta >= 0 ? "up" : "down"}`, "data-testid": "my-delta" }, `${who}${signed(delta)} ${unit(edition)}`));
}

/** What a result says to screen readers when it appears. */
export function resultSpoken({ title, level, delta, edition }) {
  return `${title}. ${level}. ${signed(delta)} ${unit(edition)}`;
}

/** A result's figures, each `[label, value, what it means]`: the meaning under the figure and as its tooltip. */
export function factList(facts) {
  return h("dl", { class: "facts" }, ...facts.map(([label, value, why]) => h("div", why ? { title: why } : {},
    h("dt", {}, label), h("dd", {}, value), why ? h("p", { class: "why" }, why) : null)));
}

/** A label with a line of explanation under it. */
export function explained(label, why) {
  return [h("span", { title: why }, label), h("span", { class: "why" }, why)];
}

/** The balance rows every breakdown ends with, in this order. */
export const BALANCE_ROWS = ["before", "change", "after"];

/** A seat's cell in a balance row: the balance before, the change (signed) or the balance after. */
export function balanceCell(key, value, seat, edition) {
  if (key === "change") return h("span", { class: value >= 0 ? "up" : "down", "data-testid": `delta-${seat}` }, signed(value));
  if (key === "after") return h("strong", { "data-testid": `after-${seat}` }, money(value, edition));
  return money(value, edition);
}

/** The whole game id, to copy (`shuangkou replay GAME_ID`), and the link to its replay in the page. */
function gameIdField(id, { copyGameId, replay, replaying }) {
  return h("div", { class: "game-id" },
    h("label", { for: "game-id" }, t("result.gameIdLabel")),
    h("div", { class: "game-id-row" },
      h("input", { id: "game-id", readonly: true, value: id, "data-testid": "game-id", onfocus: (event) => event.target.select() }),
      h("button", { type: "button", class: "btn ghost small", onclick: copyGameId }, t("result.copyId")),
      replay ? h("a", { class: "btn secondary small", href: replay(id), onclick: replaying, "data-testid": "result-replay" }, t("replay.open"))
        : null));
}

/** Whether the others are ready for the next game: the opponent (two seats), or each of the
 * others with *Fill with bots* once a seat is free (four or five seats). */
function readyArea(state, { fillBots }) {
  const others = readiness(state);
  if (isManySeat(state)) {
    const name = (seat) => seatName(state, seat);
    return h("div", { class: "result-ready", "data-testid": "others-ready" },
      ...others.map(({ seat, status }) => h("p", { class: "muted", "data-seat": String(seat) },
        status === "left" ? t("result4.left", { name: name(seat) }) : t(status === "ready" ? "result.oppReady" : "result.oppNotReady", { name: name(seat) }))),
      canFillWithBots(state)
        ? h("button", { type: "button", class: "btn ghost small", onclick: fillBots, "data-testid": "fill-bots" }, t("wait.bots"))
        : null);
  }
  const area = h("div", { class: "result-ready" });
  const [{ seat, status }] = others;
  if (status === "left") area.append(h("p", { class: "muted", "data-testid": "opp-left" }, t("result.oppLeft")));
  else {
    const key = status === "ready" ? "result.oppReady" : "result.oppNotReady";
    area.append(h("p", { class: "muted", "data-testid": "opp-ready" }, t(key, { name: displayName(state.table.seats[seat]) })));
  }
  return area;
}

/** Back to the lobby, and Ready for the next game (with the ready timer) or waiting. */
function resultButtons(state, { leave, ready }) {
  const mine = state.table.seats[seatPositions(state).me];
  const deadline = mine?.ready_deadline || null;
  return h("div", { class: "result-actions" },
    h("button", { type: "button", class: "btn ghost", onclick: leave, "data-testid": "result-leave" }, t("result.lobby")),
    mine?.ready
      ? h("button", { type: "button", class: "btn primary", disabled: true }, t("result.waiting"))
      : h("button", { type: "button", class: "btn primary", id: "btn-next", onclick: ready, "data-testid": "next-game" },
        t("result.next"), deadline ? h("span", { class: "countdown", "data-ready-deadline": String(deadline) }) : null));
}
