// The table's frame, the same for every game: every seat with its timer (two seats: you and
// the opponent opposite; four: you at the bottom, the next seat on your right, your partner
// opposite, the previous seat on your left; five: the two seats after your right one across
// the top), the felt's middle between games (waiting,
// ready), the hosting switch, the turn timers, a banner in the message lane, and the
// result's overlay. What is drawn during a game (the play to beat, the hand, the game's
// buttons …) is the game's renderer's (`render`), given the felt's middle when it is its.

import { t } from "../i18n.js";
import { $, banner, h } from "../dom.js";
import {
  actsNow, botOffer, canFillWithBots, hostingButton, isFourSeat, isManySeat, isMyTurn, isPlaying, mySeat, opponentSeat,
  readiness, seatCount, seatPositions, secondsUntil, turnTimer,
} from "../state.js";
import { displayName, initial, levelTag, money, seatName } from "./common.js";
import { renderResult } from "./result.js";

/** The seat elements by their place at the table. */
const SEAT_NODES = {
  me: "#seat-me", top: "#seat-opp", left: "#seat-left", right: "#seat-right", topLeft: "#seat-top-left", topRight: "#seat-top-right",
};

/**
 * Everything at the table. `actions`: {leave, ready, copyInvite, fillBots, acceptBots,
 * copyGameId, replay} for the buttons drawn here; `game`: the renderer of the table's game.
 */
export function renderTable(state, actions, now, game) {
  if (state.view !== "table" || !state.table) return;
  const table = state.table;
  const view = $("#view-table");
  view.dataset.phase = table.phase;
  view.dataset.seq = String(table.seq);
  view.dataset.gameId = table.game_id || "";
  view.dataset.turn = isPlaying(state) ? (isMyTurn(state) ? "me" : "opp") : "";
  view.dataset.hosting = table.game && table.game.hosting[mySeat(state)] ? "on" : "off";
  view.dataset.seats = String(seatCount(state));
  const positions = isManySeat(state) ? seatPositions(state) : { me: mySeat(state), top: opponentSeat(state) };
  for (const [position, selector] of Object.entries(SEAT_NODES)) {
    const node = $(selector);
    node.hidden = !(position in positions);
    if (!node.hidden) renderSeat(state, node, positions[position], position, game);
  }
  renderDirection(state);
  const center = $("#felt-center");
  center.replaceChildren();
  const between = renderCenter(state, center, actions);
  game.render(state, { now, center: between ? null : center });
  renderHosting(state);
  renderResult(state, actions, game);
  renderTimers(now);
}

/** At three seats or more, which way play goes: counter-clockwise in every game here (C1.1, Y0). */
function renderDirection(state) {
  const cue = $("#play-direction");
  cue.hidden = !isManySeat(state);
  cue.title = t("table.directionHelp");
  cue.replaceChildren(h("span", { class: "direction-arrow", "aria-hidden": "true" }, "↺"),
    h("span", { class: "direction-words" }, t("table.direction")));
  cue.setAttribute("aria-label", t("table.directionHelp"));
}

/** One seat at its place (`position`: "me", "top", "left", "right", "topLeft" or "topRight"); what it shows of the
 * game (Shuangkou: its team, place and cards) is the game's renderer's (`seatBadges`). */
function renderSeat(state, node, index, position, renderer) {
  node.replaceChildren();
  const mine = position === "me";
  const table = state.table;
  const seat = index === null ? null : table.seats[index];
  const game = table.game;
  const badges = index === null ? {} : renderer.seatBadges(state, index, position);
  node.dataset.seat = index === null ? "" : String(index);
  node.dataset.side = badges.side || "";
  if (!seat) {
    node.classList.add("empty");
    node.classList.remove("to-act");
    node.append(h("div", { class: "seat-empty" }, h("span", { class: "spinner", "aria-hidden": "true" }), t("seat.empty")));
    return;
  }
  node.classList.remove("empty");
  const toAct = actsNow(state, index);
  node.classList.toggle("to-act", Boolean(toAct));
  const hosting = game && !game.finished && game.hosting[index];
  const tags = [...(badges.tags || [])];
  if (seat.bot && displayName(seat) !== t("seat.botName")) tags.push(h("span", { class: "tag tag-bot" }, t("seat.bot")));
  if (seat.bot_level) tags.push(levelTag(seat, `bot-level-${index}`));
  if (hosting) tags.push(h("span", { class: "tag tag-hosting", "data-testid": `hosting-${index}` }, t("seat.hosting")));
  if (!seat.connected) tags.push(h("span", { class: "tag tag-offline" }, t("seat.offline")));
  if (game && table.phase === "playing" && game.timeouts[index] > 0) {
    tags.push(h("span", { class: "tag tag-timeouts", "data-testid": `timeouts-${index}` },
      t("seat.timeouts", { count: game.timeouts[index] })));
  }
  if (!isPlaying(state) && table.phase !== "waiting") {
    tags.push(seat.ready ? h("span", { class: "tag tag-ready" }, t("seat.ready"))
      : h("span", { class: "tag tag-notready" }, t("seat.notReady")));
  }
  const timer = h("div", {
    class: "timer", role: "timer", "data-testid": `timer-${index}`, "aria-live": "off",
    "aria-label": t("seat.timerLabel", { name: seatName(state, index) }), hidden: !toAct,
  }, h("span", { class: "timer-ring", "aria-hidden": "true" }), h("span", { class: "timer-text" }, ""));
  if (toAct) {
    if (table.turn_deadline) {
      timer.dataset.deadline = String(table.turn_deadline);
      timer.dataset.total = String(table.turn_seconds);
    } else {
      timer.classList.add("auto");
    }
  }
  const info = h("div", { class: "seat-info" },
    h("div", { class: "avatar", "aria-hidden": "true" }, seat.bot ? "🂠" : initial(seat.name)),
    h("div", { class: "seat-text" },
      h("div", { class: "seat-name" }, h("span", { class: "name", "data-testid": `seat-name-${index}` }, mine ? displayName(seat) : seatName(state, index)),
        mine ? h("span", { class: "you" }, t("seat.youTag")) : null),
      h("div", { class: "seat-balance", "data-testid": `seat-balance-${index}` }, money(seat.balance, table.edition)),
      h("div", { class: "tags" }, ...tags),
      badges.line || null),
    timer);
  node.append(info);
  if (badges.hand) node.append(badges.hand);
}

/**
 * The felt's middle between games: the waiting panel (the invitation link, *Fill with bots*,
 * the server's offer of bots) or the ready panel. Returns whether it drew one; in a game the
 * middle is the game's.
 */
function renderCenter(state, center, { leave, ready, copyInvite, fillBots, acceptBots }) {
  const table = state.table;
  const seats = table.seats;
  const many = isManySeat(state);
  if (table.phase === "waiting" && seats.some((seat) => seat === null)) {
    const link = `${location.origin}${location.pathname}?table=${encodeURIComponent(table.id)}`;
    const seated = seats.filter(Boolean).length;
    const offered = botOffer(state);
    center.append(h("div", { class: "panel waiting", "data-testid": "waiting" },
      h("div", { class: "spinner big", "aria-hidden": "true" }),
      h("h2", {}, many ? t("wait.title4") : t("wait.title")),
      h("p", {}, many ? t("wait.body4", { seated, seats: seats.length }) : t("wait.body")),
      offered ? h("div", { class: "bot-offer", role: "status", "data-testid": "bots-offer" },
        h("p", { class: "offer-title" }, t("offer.title", { count: offered })),
        h("p", {}, t("offer.body")),
        h("button", { type: "button", class: "btn primary", onclick: acceptBots, "data-testid": "accept-bots" }, t("offer.accept"))) : null,
      h("label", { for: "invite-link", class: "invite-label" }, many ? t("invite.label4") : t("invite.label")),
      h("div", { class: "invite-row" },
        h("input", { id: "invite-link", readonly: true, value: link, "data-testid": "invite-link",
          onfocus: (event) => event.target.select() }),
        h("button", { type: "button", class: "btn secondary", onclick: copyInvite }, t("invite.copy"))),
      h("div", { class: "waiting-actions" },
        canFillWithBots(state) && !offered
          ? h("button", { type: "button", class: "btn secondary", onclick: fillBots, "data-testid": "fill-bots" }, t("wait.bots"))
          : null,
        h("button", { type: "button", class: "btn ghost", onclick: leave }, t("wait.back")))));
    return true;
  }
  if (!table.game || table.phase === "ready") {
    center.append(readyPanel(state, ready));
    return true;
  }
  return false;
}

/** Between games: Ready, or whom we wait for. */
function readyPanel(state, ready) {
  const table = state.table;
  const mine = table.seats[table.you];
  const deadline = mine?.ready_deadline;
  const many = isManySeat(state);
  const others = readiness(state);
  const waitingFor = others.filter((other) => other.status !== "ready").map((other) => seatName(state, other.seat));
  const opponent = table.seats[opponentSeat(state)];
  const intro = isFourSeat(state) ? t("ready.four") : many ? t("ready.many", { seats: seatCount(state) })
    : opponent ? t("ready.against", { name: displayName(opponent) }) : "";
  const waiting = many ? t("ready.waitingFor", { names: waitingFor.join(t("list.and")) }) : t("ready.waiting", { name: displayName(opponent) });
  return h("div", { class: "panel ready-panel", "data-testid": "ready-panel" },
    h("h2", {}, t("ready.title")),
    h("p", {}, intro),
    mine?.ready
      ? h("p", { class: "ready-wait" }, h("span", { class: "spinner", "aria-hidden": "true" }), waiting)
      : h("button", { type: "button", class: "btn primary big", id: "btn-ready", onclick: ready, "data-testid": "ready" },
        t("ready.button"), deadline ? h("span", { class: "countdown", "data-ready-deadline": String(deadline) }) : null));
}

/** The hosting switch (托管) with the game's tools, and whether it is our turn. */
export function renderHosting(state) {
  const { hosting, hostingPressed } = hostingButton(state);
  $("#tools").hidden = !isPlaying(state);
  const button = $("#btn-hosting");
  button.disabled = !hosting;
  button.setAttribute("aria-pressed", hostingPressed ? "true" : "false");
  button.classList.toggle("on", hostingPressed);
  document.body.classList.toggle("my-turn", isMyTurn(state));
}

/** Turn timers and ready countdowns, redrawn several times a second. */
export function renderTimers(now) {
  for (const timer of document.querySelectorAll(".timer[data-deadline]")) {
    const { seconds, fraction, urgent } = turnTimer(Number(timer.dataset.deadline), Number(timer.dataset.total), now);
    timer.querySelector(".timer-text").textContent = String(seconds);
    timer.style.setProperty("--p", String(fraction));
    timer.classList.toggle("urgent", urgent);
  }
  for (const timer of document.querySelectorAll(".timer.auto")) {
    timer.querySelector(".timer-text").textContent = "…";
  }
  for (const node of document.querySelectorAll("[data-ready-deadline]")) {
    node.textContent = ` ${secondsUntil(Number(node.dataset.readyDeadline), now)}s`;
  }
}

/**
 * A banner for a moment of the game (in Shuangkou a bomb and its phase, 接风), in the message
 * lane with the toasts, never over a card; `kind` "bomb" also flashes the felt's rim.
 * `words()` gives its title and detail in the current language, so a change of language
 * redraws it.
 */
export function showBanner(kind, words) {
  banner(kind, words);
  if (kind === "bomb") flashFelt();
}

function flashFelt() {
  const felt = $("#felt");
  felt.classList.remove("boom");
  void felt.offsetWidth;
  felt.classList.add("boom");
  felt.addEventListener("animationend", () => felt.classList.remove("boom"), { once: true });
}
