// The name screen and the lobby: wallets, rooms (two seats or four), the rules in short.

import { t, formatNumber } from "../i18n.js";
import { cardFace, parseCard } from "../cards.js";
import { $, h } from "../dom.js";
import { money, roomTitle, unit } from "./common.js";

const RULE_KEYS = ["help.rule1", "help.rule2", "help.rule3", "help.rule4", "help.rule5"];

/** The name screen; `focus` puts the cursor in the name field. */
export function renderLogin(state, { focus = false } = {}) {
  $("#login-invite").hidden = !state.invite;
  const fan = $("#login-fan");
  if (!fan.childElementCount) {
    for (const text of ["BJ", "AS", "KH", "QC", "JD", "SJ"]) fan.append(cardFace(parseCard(text)));
  }
  if (focus) setTimeout(() => $("#login-name").focus(), 50);
}

/** A message under the name field (null hides it). */
export function renderLoginError(text) {
  const error = $("#login-error");
  error.hidden = !text;
  if (text) error.textContent = text;
}

/** The lobby; `join(room, opponent)` is called by the rooms' buttons. */
export function renderLobby(state, { join }) {
  if (state.view !== "lobby") return;
  renderRules();
  const account = state.account;
  $("#lobby-greeting").textContent = account ? t("lobby.hello", { name: account.name }) : "";
  const wallets = $("#wallets");
  wallets.replaceChildren();
  const balances = account?.balances || {};
  for (const edition of Object.keys(balances).sort()) {
    const level = state.levels?.[edition];
    wallets.append(
      h("div", { class: `wallet wallet-${edition}`, "data-testid": `wallet-${edition}` },
        h("span", { class: "wallet-label" }, t(`edition.${edition}`)),
        h("span", { class: "wallet-amount", "data-testid": `balance-${edition}` }, formatNumber(balances[edition])),
        h("span", { class: "wallet-unit" }, unit(edition)),
        level !== undefined ? h("span", { class: "wallet-level", "data-testid": `level-${edition}` },
          t("lobby.level", { level })) : null),
    );
  }
  const rooms = $("#rooms");
  rooms.replaceChildren();
  for (const room of state.rooms) {
    const balance = balances[room.edition];
    const tooPoor = room.entry !== null && room.entry !== undefined && balance !== undefined && balance < room.entry;
    const disabled = state.joining || !room.open || tooPoor || state.connection.status !== "open";
    const four = room.seats === 4;
    const facts = h("dl", { class: "room-facts" },
      h("div", {}, h("dt", {}, t("room.stakes")),
        h("dd", {}, t("room.stakesValue", { lo: formatNumber(room.stakes[0]), hi: formatNumber(room.stakes[1]) }))),
      h("div", {}, h("dt", {}, t("room.turn")), h("dd", {}, t("room.seconds", { s: formatNumber(room.turn_seconds) }))),
      room.entry ? h("div", {}, h("dt", {}, t("room.entry")), h("dd", {}, money(room.entry, room.edition))) : null,
      h("div", {}, h("dt", {}, t("room.players")), h("dd", {}, formatNumber(room.players))),
      room.free_seats ? h("div", { class: "room-waiting" }, h("dt", {}, t("room.waiting")),
        h("dd", { "data-testid": `free-seats-${room.name}` }, t("room.freeSeats", { count: room.free_seats }))) : null,
    );
    const note = !room.open ? t("room.closed") : tooPoor ? t("room.tooPoor", { entry: money(room.entry, room.edition) }) : null;
    rooms.append(
      h("article", { class: `room room-${room.edition}${four ? " room-four" : ""}`, "data-room": room.name, "data-seats": String(room.seats ?? 2),
        "aria-labelledby": `room-${room.name}` },
        h("header", { class: "room-head" },
          h("span", { class: "room-badge" }, t(`edition.${room.edition}`)),
          h("h3", { id: `room-${room.name}` }, roomTitle(room))),
        h("p", { class: "room-seats", "data-testid": `seats-${room.name}` }, four ? t("room.four") : t("room.two")),
        facts,
        note ? h("p", { class: "room-note" }, note) : null,
        h("div", { class: "room-actions" },
          h("button", { type: "button", class: "btn primary", disabled, "data-action": "quick",
            onclick: () => join(room.name, "human") }, t("room.quick")),
          h("button", { type: "button", class: "btn secondary", disabled, "data-action": "bot",
            onclick: () => join(room.name, "bot") }, four ? t("room.bots") : t("room.bot")),
          h("button", { type: "button", class: "btn ghost", disabled, "data-action": "invite",
            onclick: () => join(room.name, "invite") }, four ? t("room.inviteFriends") : t("room.invite")))),
    );
  }
}

function renderRules() {
  const suits = ["♠", "♥", "♣", "♦"];
  $("#rules").replaceChildren(...RULE_KEYS.map((key, index) =>
    h("li", {}, h("span", { class: `rule-suit ${index % 2 ? "red" : ""}`, "aria-hidden": "true" }, suits[index % suits.length]), h("span", {}, t(key)))));
}

/** The rules in short, for the help dialog. */
export function ruleItems() {
  return RULE_KEYS.map((key) => h("li", {}, t(key)));
}
