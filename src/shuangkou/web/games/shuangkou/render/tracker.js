// The card tracker (记牌器) under the buttons: per rank, highest first, how many cards this
// seat has not seen, as the server counted them (`game.tracker`). Its switch sits with the
// action buttons (key C).

import { t, formatNumber } from "../i18n.js";
import { rankText } from "../../../deck.js";
import { $, h } from "../../../dom.js";
import { trackerCells } from "../state.js";

/** Draw the tracker (or hide it) and set its switch. */
export function renderTracker(state) {
  const node = $("#tracker");
  const cells = trackerCells(state);
  const button = $("#btn-tracker");
  button.setAttribute("aria-pressed", state.trackerShown ? "true" : "false");
  button.title = t("tracker.help");
  node.hidden = !cells;
  $("#dock").classList.toggle("with-tracker", Boolean(cells));
  if (!cells) {
    node.replaceChildren();
    return;
  }
  node.setAttribute("aria-label", t("tracker.label"));
  node.replaceChildren(
    h("span", { class: "tk-title", "aria-hidden": "true" }, t("tracker.title")),
    ...cells.map(({ rank, count }) => {
      const name = rank === "SJ" || rank === "BJ" ? t(`joker.short.${rank}`) : rankText(rank);
      return h("span", {
        class: `tk${count ? "" : " none"}${rank === "SJ" || rank === "BJ" ? " joker" : ""}`, "data-rank": rank, "data-count": String(count),
        role: "listitem", "aria-label": t("tracker.cell", { rank: name, count }), title: t("tracker.cell", { rank: name, count }),
      }, h("b", { "aria-hidden": "true" }, name), h("i", { "aria-hidden": "true" }, formatNumber(count)));
    }));
}
