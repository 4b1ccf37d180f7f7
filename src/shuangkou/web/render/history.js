// The history page (战绩): the account's settled games, newest first, a page at a time, each
// row a link to the replay of that game.

import { t, getLang } from "../i18n.js";
import { $, h } from "../dom.js";
import { loadedGame } from "../games/index.js";
import { replayHash } from "../replay.js";
import { money, nameWithLevel, roomTitle, signed, unit } from "./common.js";

/** A date as the server writes it (UTC), in the reader's language and time zone. */
export function dateText(iso) {
  const stamp = /[zZ]|[+-]\d\d:?\d\d$/.test(iso) ? iso : `${iso}Z`;
  return new Date(stamp).toLocaleString(getLang() === "zh" ? "zh-CN" : "en-GB", { dateStyle: "medium", timeStyle: "short" });
}

/** A stored game's result in words: its game's (the renderer's `resultName`), else `result.NAME`. */
function resultName(row) {
  const game = loadedGame(row.family);
  return game?.resultName ? game.resultName(row.result) : t(`result.${row.result}`);
}

/** A room's title as the lobby names it, or from the stored game's `title` (a shipped title in the reader's language) when the lobby does not list it (no account), else its name. */
export function roomName(rooms, name, title = null) {
  const room = rooms.find((candidate) => candidate.name === name) || (title ? { title } : null);
  return room ? roomTitle(room) : name;
}

const names = (seats) => seats.map((seat) => nameWithLevel(seat.name === null ? null : seat)).join(t("list.and"));

/**
 * Draw the history. `view`: `{status: "loading" | "failed" | "signIn" | "shown", page}`
 * with `page` from `historyPage` (replay.js); `link(offset)` is the address of another page.
 */
export function renderHistory(view, rooms, link) {
  const body = $("#history-body");
  if (view.status !== "shown") {
    body.replaceChildren(h("p", { class: `page-note ${view.status}`, "data-testid": "history-status", role: view.status === "failed" ? "alert" : null },
      t(`history.${view.status}`)));
    return;
  }
  const { page } = view;
  if (!page.rows.length && page.offset === 0) {
    body.replaceChildren(h("p", { class: "page-note empty", "data-testid": "history-empty" }, t("history.empty")));
    return;
  }
  const rows = page.rows.map((row) => h("li", {},
    h("a", { class: `game-row ${row.won ? "won" : "lost"}`, href: replayHash(row.gameId, row.seat), "data-testid": "history-row",
      "data-game-id": row.gameId, "data-delta": String(row.delta), "data-balance-after": String(row.balanceAfter) },
    h("span", { class: "g-date" }, dateText(row.date)),
    h("span", { class: "g-room" }, roomName(rooms, row.room)),
    h("span", { class: "g-players" },
      row.partner.length ? h("span", { class: "g-partner", "data-testid": "history-partner" }, t("history.partner", { names: names(row.partner) })) : null,
      h("span", { class: "g-against", "data-testid": "history-against" }, t("history.against", { names: names(row.opponents) }))),
    h("span", { class: "g-result", "data-testid": "history-result" },
      h("strong", {}, t(row.won ? "history.won" : "history.lost")), " · ", resultName(row)),
    h("span", { class: `g-delta ${row.delta >= 0 ? "up" : "down"}`, "data-testid": "history-delta" }, `${signed(row.delta)} ${unit(row.edition)}`),
    h("span", { class: "g-after" }, h("span", { class: "g-label" }, `${t("history.after")} `),
      h("span", { "data-testid": "history-after" }, money(row.balanceAfter, row.edition))))));
  const nav = h("nav", { class: "pager", "aria-label": t("history.page") },
    h("a", { class: "btn secondary small", href: page.previous === null ? null : link(page.previous), "aria-disabled": page.previous === null ? "true" : null,
      "data-testid": "history-previous" }, `← ${t("history.previous")}`),
    h("span", { class: "pager-range", "data-testid": "history-range" }, t("history.range", { from: page.from, to: page.to })),
    h("a", { class: "btn secondary small", href: page.next === null ? null : link(page.next), "aria-disabled": page.next === null ? "true" : null,
      "data-testid": "history-next" }, `${t("history.next")} →`));
  const head = h("div", { class: "game-row head", "aria-hidden": "true" },
    ...["history.date", "history.room", "history.players", "history.resultCol", "history.change", "history.after"].map((key) => h("span", {}, t(key))));
  body.replaceChildren(head, h("ol", { class: "games", "data-testid": "history-list" }, ...rows), nav);
}
