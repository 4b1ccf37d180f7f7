// What the escape dialog says before leaving a game, the same for every game: the penalty
// (two seats, four or five, `settle` or `host`), then what leaving charges in all as the server
// would settle it now, with its parts. Every figure is the server's (`escape_cost`).

import { t } from "../i18n.js";
import { h } from "../dom.js";
import { escapeCharge, escapeDialog, isFourSeat, isManySeat } from "../state.js";
import { money } from "./common.js";

/** The dialog's lines, or null when leaving now is no escape (no dialog). */
export function escapeBody(state) {
  const escape = escapeDialog(state);
  if (!escape) return null;
  const body = [];
  if (isFourSeat(state)) {
    body.push(t(escape.mode === "host" ? "leave.bodyHost4" : "leave.bodySettle4", { penalty: money(escape.penalty, escape.edition) }));
  } else if (isManySeat(state)) {
    body.push(t(escape.mode === "host" ? "leave.bodyHostMany" : "leave.bodySettleMany", { penalty: money(escape.penalty, escape.edition) }));
  } else if (escape.mode === "host") {
    body.push(t("leave.bodyHost"));
  } else {
    body.push(t("leave.bodySettle", { penalty: money(escape.penalty, escape.edition) }));
    if (escape.played) body.push(t("leave.bodyPlayed"));
  }
  const charge = escapeCharge(state);
  body.push(h("strong", { "data-testid": "escape-total" }, chargeText(charge)));
  if (charge.when === "now" && (charge.rest || charge.fee)) body.push(h("span", { "data-testid": "escape-breakdown" }, breakdownText(charge)));
  return body;
}

/** What the escape dialog says leaving charges in all (`escapeCharge`): the server's exact total. */
function chargeText(charge) {
  if (charge.when === "none") return t("leave.totalNone");
  if (charge.when === "end") return t("leave.totalEnd", { total: money(charge.penalty, charge.edition) });
  const total = t("leave.total", { total: money(charge.total, charge.edition) });
  return charge.capped ? `${total} ${t("leave.capped")}` : total;
}

/** The parts of an escape's total: the penalty, the normal loss and contributions, the table fee. */
function breakdownText(charge) {
  const parts = [["report.penalty", charge.penalty], ["report.rest", charge.rest], ["report.fee", charge.fee]];
  return parts.filter(([, amount]) => amount).map(([key, amount]) => `${t(key)} ${money(amount, charge.edition)}`).join(" + ");
}
