// Royalist's result (Y7.3): in the shell's result frame (render/result.js: the game id,
// readiness, Ready and Lobby) and at the end of a replay. The roles, the abdications and the
// published declarations, *m* and X, the order of going out, then one column per seat (ours
// first): role, declaration, place, units, units × X, fees and escape payments when any,
// balances before, change and after, and every hand still held (亮牌).

import { t, formatNumber } from "../i18n.js";
import { h } from "../../../dom.js";
import { money, seatName, signed } from "../../../render/common.js";
import { BALANCE_ROWS, balanceCell, explained, factList, resultHead, resultSpoken } from "../../../render/result.js";
import { royalResult } from "../state.js";
import { declarationWords, miniCards } from "./cards.js";

/** The settlement's breakdown as nodes with the words said when it appears (`{nodes,
 * spoken}`), or null; `replay`: a replay's, where no seat is "you". */
export function settlementNodes(state, { replay = false } = {}) {
  const summary = royalResult(state);
  if (!summary) return null;
  const { columns, edition, roles } = summary;
  const name = (seat) => seatName(state, seat);
  const level = t(`roy.result.${summary.result}`);
  const winners = columns.filter((seat) => state.table.settlement.deltas[seat] > 0);
  const title = replay ? t("roy.replay.won", { names: winners.map(name).join(t("list.and")) || "—" }) : t(`roy.result.${summary.title}`);
  const said = { won: summary.won, title, level, delta: summary.delta, edition, who: replay ? `${name(summary.you)} ` : "", replay };
  const ruler = roles.emperor === null || roles.emperor === undefined ? "—"
    : roles.solo ? `${name(roles.emperor)} · ${t("roy.result.solo", { how: t(roles.solo === "open" ? "roy.result.soloOpen" : "roy.result.soloSecret") })}`
      : name(roles.emperor);
  const facts = [
    [t("roy.result.emperor"), ruler],
    roles.solo ? null : [t("roy.result.guard"), roles.guard === null || roles.guard === undefined ? "—" : name(roles.guard)],
    summary.abdications.length ? [t("roy.result.abdications"), summary.abdications.map(name).join(" → ")] : null,
    summary.called ? [t("roy.result.called"), h("span", { "data-testid": "roy-result-called", "data-card": summary.called }, ...miniCards(summary.called))] : null,
    [t("roy.result.declarations"), summary.declarations ? declarationWords(state, {
      ...summary.declarations, open_guard: summary.declarations.open_guard ? roles.guard : null, guard: roles.guard, solo: roles.solo,
    }) : t("roy.result.noDeclarations")],
    [t("roy.result.m"), `m = ${summary.multiplier}`, t("roy.why.m")],
    [t("roy.result.X"), `X = ${formatNumber(summary.matchPoints)}`, t("roy.why.X")],
    summary.house ? [t("roy.result.house"), signed(summary.house)] : null,
  ].filter(Boolean);
  const order = h("ol", { class: "finish-order", "data-testid": "roy-finish-order", "aria-label": t("roy.result.finish") },
    ...summary.finishOrder.map((seat, index) => h("li", { "data-seat": String(seat) },
      h("span", { class: `tag tag-place place-${index + 1}` }, t(`roy.place.${index + 1}`)), " ", name(seat))));
  const rows = summary.rows.map(({ key, cells }) => h("tr", { "data-row": key },
    h("th", { scope: "row" }, key === "units" ? explained(t("roy.row.units"), t("roy.why.units")) : t(`roy.row.${key}`)),
    ...cells.map((value, index) => h("td", { "data-seat": String(columns[index]), "data-testid": `roy-${key}-${columns[index]}` },
      cell(key, value, columns[index], edition)))));
  const notes = [];
  if (summary.escapers.length) notes.push(t("roy.result.escaped", { names: summary.escapers.map(name).join(t("list.and")) }));
  if (summary.capped) notes.push(t("roy.result.capped"));
  const nodes = [
    resultHead(said),
    order,
    factList(facts),
    h("div", { class: "breakdown-wrap" },
      h("table", { class: "breakdown four roy-breakdown", "data-testid": "breakdown" },
        h("caption", { class: "sr-only" }, t("roy.result.caption")),
        h("thead", {}, h("tr", {}, h("td", {}), ...columns.map((seat) => h("th", { scope: "col", "data-seat": String(seat) },
          h("span", { class: "col-name" }, name(seat)))))),
        h("tbody", {}, ...rows))),
    notes.length ? h("p", { class: "result-notes" }, notes.join(" ")) : null,
  ];
  return { nodes: nodes.filter(Boolean), spoken: resultSpoken(said) };
}

/** One cell of the breakdown, by its row. */
function cell(key, value, seat, edition) {
  switch (key) {
    case "role":
      return value ? h("span", { class: `tag tag-role roy-role roy-${value}` }, t(`roy.role.${value}`)) : "—";
    case "declared":
      return value ? t(`roy.declared.${value}`) : "—";
    case "place":
      return value ? h("span", { class: `tag tag-place place-${value}` }, t(`roy.place.${value}`)) : t("roy.unplaced");
    case "units":
      return h("span", { class: value > 0 ? "up" : value < 0 ? "down" : "" }, signed(value));
    case "held":
      return value ? h("span", { class: "held roy-held", "data-cards": value }, ...miniCards(value)) : "—";
    default:
      if (BALANCE_ROWS.includes(key)) return balanceCell(key, value, seat, edition);
      return h("span", { class: value > 0 ? "up" : value < 0 ? "down" : "" }, key.endsWith("Fee") ? money(value, edition) : signed(value));
  }
}
