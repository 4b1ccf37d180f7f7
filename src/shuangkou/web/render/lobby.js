// The name screen and the lobby: wallets, rooms (two seats, four or five), the rules in short (the
// words of each room's game, from that game's renderer).

import { t, formatNumber } from "../i18n.js";
import { cardFace, parseCard } from "../deck.js";
import { $, h } from "../dom.js";
import { familyOf, loadedGame } from "../games/index.js";
import { money, roomTitle, signed, unit } from "./common.js";

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

/** The lobby; `join(room, opponent)` is called by the rooms' buttons, `dismissReport` by the
 * escape report's; `gameOf(name)`: the renderer of a game (a room's `family`), null while it
 * loads. Each room card names its game (`data-game`), and "How to play" holds the rules in
 * short of each of the rooms' games, once, each item naming its game. */
export function renderLobby(state, { join, dismissReport, dismissSeatLost }, gameOf = () => null) {
  if (state.view !== "lobby") return;
  const names = [...new Set(state.rooms.length ? state.rooms.map(familyOf) : [familyOf(null)])];
  $("#rules").replaceChildren(...names.flatMap((name) => {
    const items = gameOf(name)?.rules() || [];
    for (const item of items) item.dataset.game = name;
    return items;
  }));
  renderEscapeReport(state.escapeReport, dismissReport);
  renderSeatLost(state.seatLost, dismissSeatLost);
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
        level !== undefined ? h("span", { class: "wallet-level", "data-testid": `level-${edition}`, title: t("lobby.levelHelp") },
          t("lobby.level", { level })) : null),
    );
  }
  const rooms = $("#rooms");
  rooms.replaceChildren();
  for (const room of state.rooms) {
    // A room shows once its game's renderer (its words, rules and help) has loaded; the
    // lobby is drawn again when it has (a room of a game this page cannot show stays hidden).
    if (!loadedGame(familyOf(room))) continue;
    const balance = balances[room.edition];
    const tooPoor = room.entry !== null && room.entry !== undefined && balance !== undefined && balance < room.entry;
    const disabled = state.joining || !room.open || tooPoor || state.connection.status !== "open";
    const four = room.seats === 4;
    const many = (room.seats ?? 2) > 2;
    const stakes = { lo: formatNumber(room.stakes[0]), hi: formatNumber(room.stakes[1]) };
    const facts = h("dl", { class: "room-facts" },
      h("div", { title: t("room.stakesHelp", stakes), "data-testid": `stakes-${room.name}` }, h("dt", {}, t("room.stakes")),
        h("dd", {}, t("room.stakesValue", stakes))),
      h("div", {}, h("dt", {}, t("room.turn")), h("dd", {}, t("room.seconds", { s: formatNumber(room.turn_seconds) }))),
      room.entry ? h("div", {}, h("dt", {}, t("room.entry")), h("dd", {}, money(room.entry, room.edition))) : null,
      h("div", {}, h("dt", {}, t("room.players")), h("dd", {}, formatNumber(room.players))),
      room.bot_level ? h("div", { title: t("room.botLevelHelp") }, h("dt", {}, t("room.botLevel")),
        h("dd", { "data-testid": `bot-level-${room.name}` }, t(`botLevel.${room.bot_level}`))) : null,
      room.free_seats ? h("div", { class: "room-waiting" }, h("dt", {}, t("room.waiting")),
        h("dd", { "data-testid": `free-seats-${room.name}` }, t("room.freeSeats", { count: room.free_seats }))) : null,
    );
    const told = gameOf(familyOf(room))?.room?.(room); // the game it plays and what differs, in the game's words
    const seats = four ? t("room.four") : many ? t("room.many", { count: room.seats }) : t("room.two");
    const note = !room.open ? t("room.closed") : tooPoor ? t("room.tooPoor", { entry: money(room.entry, room.edition) }) : null;
    rooms.append(
      h("article", { class: `room room-${room.edition}${four ? " room-four" : ""}`, "data-room": room.name, "data-seats": String(room.seats ?? 2),
        "data-game": familyOf(room),
        "aria-labelledby": `room-${room.name}` },
        h("header", { class: "room-head" },
          h("span", { class: "room-badge" }, t(`edition.${room.edition}`)),
          h("h3", { id: `room-${room.name}` }, roomTitle(room))),
        h("p", { class: "room-seats", "data-testid": `seats-${room.name}` }, told ? told.game : seats),
        told ? h("p", { class: "room-about", "data-testid": `about-${room.name}` }, told.about) : null,
        facts,
        note ? h("p", { class: "room-note" }, note) : null,
        h("div", { class: "room-actions" },
          h("button", { type: "button", class: "btn primary", disabled, "data-action": "quick",
            onclick: () => join(room.name, "human") }, t("room.quick")),
          h("button", { type: "button", class: "btn secondary", disabled, "data-action": "bot",
            onclick: () => join(room.name, "bot") }, many ? t("room.bots") : t("room.bot")),
          h("button", { type: "button", class: "btn ghost", disabled, "data-action": "invite",
            onclick: () => join(room.name, "invite") }, many ? t("room.inviteFriends") : t("room.invite")))),
    );
  }
}

/** The ready timer freed our seat (R11.4): said until dismissed or the next join. */
function renderSeatLost(lost, dismiss) {
  const node = $("#seat-lost");
  node.hidden = !lost;
  node.replaceChildren(...(lost ? [h("section", { class: "lobby-report", "data-testid": "seat-lost", role: "status" },
    h("h2", {}, t("seatLost.title")),
    h("p", {}, t("seatLost.body")),
    h("button", { type: "button", class: "btn ghost small", onclick: dismiss }, t("report.close")))] : []));
}

/**
 * After leaving a game: what it charged (the escape penalty, the rest of the loss and the
 * total, the balance before and after), or, while hosting plays the seat on, that the
 * game is settled at its end.
 */
function renderEscapeReport(report, dismiss) {
  const node = $("#escape-report");
  node.hidden = !report || (!report.hosted && report.total === null);
  if (node.hidden) {
    node.replaceChildren();
    return;
  }
  const { edition } = report;
  const rows = report.hosted
    ? []
    : [
      ["report.penalty", money(report.penalty, edition), "penalty"],
      report.rest ? ["report.rest", money(report.rest, edition), "rest"] : null,
      report.fee ? ["report.fee", money(report.fee, edition), "fee"] : null,
      ["report.total", money(report.total, edition), "total"],
      ["report.balance", `${money(report.before, edition)} → ${money(report.after, edition)}`, "balance"],
    ].filter(Boolean);
  const notes = report.hosted
    ? [t("left.hosted"), report.when === "end" ? t("report.hostedEnd", { penalty: money(report.penalty, edition) }) : null].filter(Boolean)
    : [];
  node.replaceChildren(h("section", { class: "lobby-report", "data-testid": "escape-report", "aria-labelledby": "escape-report-title" },
    h("h2", { id: "escape-report-title" }, report.hosted ? t("report.hostedTitle")
      : t("leave.done", { delta: signed(-report.total), unit: unit(edition) })),
    rows.length ? h("dl", {}, ...rows.map(([key, value, testid]) => h("div", { "data-testid": `report-${testid}` }, h("dt", {}, t(key)), h("dd", {}, value)))) : null,
    ...notes.map((note) => h("p", {}, note)),
    h("button", { type: "button", class: "btn ghost small", onclick: dismiss, "data-testid": "escape-report-close" }, t("report.close"))));
}
