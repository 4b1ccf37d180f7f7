// Tractor's result (T9, T11.4): who won the hand and what it changed — A and where it comes
// from, the bottom with its points and multiplier, each team's level before and after, the
// next dealer, X and u — then each seat's role, u·X, fees and balance before, change and
// after; in the shell's result frame and at the end of a replay.

import { t, formatNumber } from "../i18n.js";
import { h } from "../../../dom.js";
import { money, seatName, signed } from "../../../render/common.js";
import { BALANCE_ROWS, balanceCell, factList, resultHead, resultSpoken } from "../../../render/result.js";
import { tractorResult } from "../state.js";
import { minis } from "./table.js";

/** The settlement's breakdown, `{nodes, spoken}`, or null before a settlement. `replay`:
 * a replay's, where every seat is named. */
export function settlementNodes(state, { replay = false } = {}) {
  const result = tractorResult(state);
  if (!result) return null;
  const name = (seat) => seatName(state, seat);
  const winners = state.table.settlement.winners;
  const title = replay
    ? t("replay.won", { names: winners.map(name).join(t("list.and")) })
    : t(`tr.result.${result.title}`, { name: result.escaper === null ? "" : name(result.escaper) });
  const level = t(`result.${result.result}`);
  const said = { won: result.won, title, level, delta: result.delta, edition: result.edition, who: replay ? `${name(result.me)} ` : "", replay };
  const penalty = result.penalties ? t("tr.result.penalty", { penalty: result.penalties }) : "";
  const teamName = (team) => `${t(team.ours ? "tr.result.us" : "tr.result.them")} (${team.seats.map(name).join(t("list.and"))})`;
  const facts = [
    [t("tr.result.A"), t("tr.result.AValue", { trick: result.trickPoints, bonus: result.bonus, penalty, total: result.attackersPoints })],
    [t("tr.result.bottom"), h("span", { class: "tr-bottom", "data-testid": "tr-result-bottom", "data-cards": result.bottom.join(" ") },
      ...minis(result.bottom.join(" ")), " ", t("tr.result.bottomValue", { points: result.bottomPoints }))],
    [t("tr.result.multiplier"), h("span", { "data-testid": "tr-result-multiplier" }, `×${result.multiplier}`), t("tr.result.multiplierWhy")],
    [t("tr.result.levelChange"), h("span", { class: "tr-level-change", "data-testid": "tr-result-levels" },
      ...result.teams.map((team) => h("span", { "data-team": String(team.team), "data-after": team.after },
        t("tr.result.levelLine", { team: teamName(team), before: team.before, after: team.after }))))],
    [result.matchOver ? t("tr.result.matchOver") : t("tr.result.nextDealer"), result.matchOver ? "—" : name(result.nextDealer)],
    [t("tr.result.X"), `X = ${formatNumber(result.matchPoints)}`, t("tr.result.XWhy")],
    [t("tr.result.units"), `u = ${signed(result.units)}`, t("tr.result.unitsWhy")],
  ];
  if (result.house) facts.push([t("tr.result.house"), signed(result.house)]);
  const header = (seat, index) => h("th", { scope: "col", class: `side-${result.sides[index]}` },
    h("span", { class: "col-name" }, name(seat)), h("span", { class: "col-side" }, t(`tr.side.${result.sides[index]}`)));
  const rows = result.rows.map(({ key, cells }) => h("tr", { "data-row": key }, h("th", { scope: "row" }, t(`tr.row.${key}`)),
    ...cells.map((value, index) => h("td", { "data-seat": String(result.columns[index]) }, cell(key, value, result.columns[index], result.edition)))));
  const nodes = [
    resultHead(said),
    factList(facts),
    h("div", { class: "breakdown-wrap" }, h("table", { class: "breakdown four", "data-testid": "breakdown" },
      h("caption", { class: "sr-only" }, t("tr.result.caption")),
      h("thead", {}, h("tr", {}, h("td", {}), ...result.columns.map(header))),
      h("tbody", {}, ...rows))),
  ];
  return { nodes, spoken: resultSpoken(said) };
}

function cell(key, value, seat, edition) {
  if (BALANCE_ROWS.includes(key)) return balanceCell(key, value, seat, edition);
  if (key === "role") return t(`tr.role.${value}`);
  if (key === "levels") return `${value.before} → ${value.after}`;
  if (key.endsWith("Fee")) return money(value, edition);
  return h("span", { class: value > 0 ? "up" : value < 0 ? "down" : "" }, signed(value));
}
