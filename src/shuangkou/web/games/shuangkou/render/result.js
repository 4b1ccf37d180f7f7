// Shuangkou's result: the settlement's whole breakdown (R9.6 with two seats, C5.8 with four),
// in the shell's result frame (render/result.js: the game id, readiness, Ready and Lobby)
// and at the end of a replay.

import { t, formatNumber } from "../i18n.js";
import { heldText, parseCards } from "../../../deck.js";
import { h } from "../../../dom.js";
import { miniCard, money, seatName, signed } from "../../../render/common.js";
import { BALANCE_ROWS, balanceCell, explained, factList, resultHead, resultSpoken } from "../../../render/result.js";
import { describeCombo, phaseText } from "../combos.js";
import { classicResult, resultSummary } from "../state.js";

/**
 * The settlement's breakdown of a settled table, as nodes, with the words said when it
 * appears (`{nodes, spoken}`); null when there is none. `replay`: a replay's, where no seat
 * is "you" (every seat is named).
 */
export function settlementNodes(state, { replay = false } = {}) {
  const classic = classicResult(state);
  if (classic) return classicNodes(state, classic, replay);
  const summary = resultSummary(state);
  return summary ? twoSeatNodes(state, summary, replay) : null;
}

/** A replay's title and change, naming the seats: who won (or escaped), and the change of the seat it is seen from. */
function replayHead(state, settlement, you) {
  const name = (seat) => seatName(state, seat);
  const winners = settlement.winners || (settlement.winner === null || settlement.winner === undefined ? [] : [settlement.winner]);
  const title = settlement.result === "escape" && settlement.escaper !== null && settlement.escaper !== undefined
    ? t("replay.escaped", { name: name(settlement.escaper) })
    : t("replay.won", { names: winners.map(name).join(t("list.and")) });
  return { title, who: `${name(you)} ` };
}

function twoSeatNodes(state, summary, replay) {
  const settlement = state.table.settlement;
  const { you, other, edition, delta } = summary;
  const head = replay ? replayHead(state, settlement, you) : null;
  const title = head ? head.title
    : summary.title === "oppEscaped" ? t("result.oppEscaped", { name: seatName(state, other) }) : t(`result.${summary.title}`);
  const level = t(`result.${summary.level}`);
  const phases = settlement.phases;
  const columns = [you, other];
  const cell = (fn) => columns.map((seat) => h("td", { "data-seat": String(seat) }, fn(seat)));
  const rows = [];
  const row = (label, fn, testid = null) => rows.push(h("tr", testid ? { "data-testid": testid } : {}, h("th", { scope: "row" }, label), ...cell(fn)));
  row(t("result.level"), (seat) => t("lobby.level", { level: settlement.levels[seat] }));
  row(t("result.phase"), (seat) => phaseSummary(phases[seat]));
  row(t("result.bombs"), (seat) => bombList(phases[seat]));
  row(explained(t("result.contribution"), t("why.c")), (seat) => t("result.contributionValue", {
    c: settlement.contribution_multipliers[seat], x: formatNumber(settlement.match_points),
    v: formatNumber(settlement.contributions[seat]),
  }));
  if (summary.penaltyRow) {
    row(t("result.penalty"), (seat) => (seat === settlement.escaper ? money(settlement.penalty, edition) : "—"), "penalty-row");
  }
  if (summary.feeRow) row(t("result.tableFee"), (seat) => money(settlement.table_fees[seat], edition));
  const balances = { before: settlement.balances_before, change: settlement.deltas, after: settlement.balances_after };
  for (const key of BALANCE_ROWS) row(t(`result.${key}`), (seat) => balanceCell(key, balances[key][seat], seat, edition));

  const facts = [
    ...stakeFacts(settlement, summary.level === "escape" ? t("why.aEscape") : t("why.a", { level })),
    [t("result.resultPoints"), `X·a·b = ${formatNumber(settlement.result_points)}`, t("why.abX")],
  ];
  if (summary.cardsLeft !== null) facts.splice(2, 0, [t("result.cardsLeft"), loserCards(summary), t("why.cardsLeft")]);
  if (settlement.penalty) facts.push([t("result.penaltyTotal"), `${formatNumber(settlement.penalty)} (${t("result.due")} ${formatNumber(settlement.due)})`]);
  if (settlement.win_fee) facts.push([t("result.winFee"), money(settlement.win_fee, edition)]);
  if (settlement.house) facts.push([t("result.house"), signed(settlement.house)]);
  const notes = [];
  if (settlement.capped) notes.push(t("result.capped", { paid: money(settlement.paid, edition), due: money(settlement.due, edition) }));
  if (settlement.received !== settlement.paid) notes.push(t("result.received", { received: money(settlement.received, edition) }));

  const said = { won: summary.won, title, level, delta, edition, who: head ? head.who : "", replay };
  const nodes = [
    resultHead(said),
    factList(facts),
    h("table", { class: "breakdown", "data-testid": "breakdown" },
      h("caption", { class: "sr-only" }, t("result.caption")),
      h("thead", {}, h("tr", {}, h("td", {}), ...columns.map((seat) => h("th", { scope: "col" }, seatName(state, seat))))),
      h("tbody", {}, ...rows)),
    notes.length ? h("p", { class: "result-notes" }, notes.join(" ")) : null,
  ];
  return { nodes: nodes.filter(Boolean), spoken: resultSpoken(said) };
}

/** Four seats (C5.8): the finishing order, the result, X, a, b, and per seat its place,
 * phase and bombs, contribution, transfer, net, balances, and the cards it still held. */
function classicNodes(state, summary, replay) {
  const settlement = state.table.settlement;
  const { you, edition, delta, columns } = summary;
  const name = (seat) => seatName(state, seat);
  const head = replay ? replayHead(state, settlement, you) : null;
  const title = head ? head.title
    : summary.title === "otherEscaped" ? t("result.oppEscaped", { name: name(summary.escaper) }) : t(`result.${summary.title}`);
  const level = t(`result.${summary.level}`);
  const rows = summary.rows.map(({ key, cells }) => h("tr", { "data-row": key },
    h("th", { scope: "row" }, key === "contribution" ? explained(t(`result4.${key}`), t("why.c4")) : t(`result4.${key}`)),
    ...cells.map((value, index) => h("td", { "data-seat": String(columns[index]) }, classicCell(key, value, columns[index], edition)))));
  const facts = [
    ...stakeFacts(settlement, summary.level === "escape" ? t("why.aEscape4") : t("why.a4", { level })),
    [t("result.resultPoints"), `X·a·b = ${formatNumber(settlement.result_points)}`, t("why.abX4")],
    [t("result4.teamPhases"), t("result4.teamPhasesValue", {
      us: teamPhase(summary.teamPhases, state, you), them: teamPhase(summary.teamPhases, state, columns[2]),
    }), t("why.teamPhases")],
  ];
  if (settlement.penalty) facts.push([t("result.penaltyTotal"), money(settlement.penalty, edition)]);
  if (settlement.house) facts.push([t("result.house"), signed(settlement.house)]);
  const order = h("ol", { class: "finish-order", "data-testid": "finish-order" },
    ...summary.finishOrder.map(({ seat, place }) => h("li", { "data-seat": String(seat), class: `side-${summary.sides[columns.indexOf(seat)]}` },
      h("span", { class: `tag tag-place place-${place}` }, t(`place.${place}`)), " ", name(seat))));
  const notes = [];
  if (summary.escaper !== null && (head || summary.title !== "otherEscaped") && summary.escaper !== you) {
    notes.push(t("result4.escaped", { name: name(summary.escaper) }));
  }
  if (summary.capped) notes.push(t("result4.capped"));
  const header = (seat, index) => h("th", { scope: "col", class: `side-${summary.sides[index]}` },
    h("span", { class: "col-name" }, name(seat)),
    h("span", { class: "col-side" }, t(`result4.side.${summary.sides[index]}`)));
  const said = { won: summary.won, title, level, delta, edition, who: head ? head.who : "", replay };
  const nodes = [
    resultHead(said),
    order,
    factList(facts),
    h("div", { class: "breakdown-wrap" },
      h("table", { class: "breakdown four", "data-testid": "breakdown" },
        h("caption", { class: "sr-only" }, t("result4.caption")),
        h("thead", {}, h("tr", {}, h("td", {}), ...columns.map(header))),
        h("tbody", {}, ...rows))),
    notes.length ? h("p", { class: "result-notes" }, notes.join(" ")) : null,
  ];
  return { nodes: nodes.filter(Boolean), spoken: resultSpoken(said) };
}

/** X, a and b with what each means (R9.1, C5): `why` says where a comes from. */
function stakeFacts(settlement, why) {
  const phase = settlement.doubling_phase;
  return [
    [t("result.matchPoints"), `X = ${formatNumber(settlement.match_points)}`, t("why.X")],
    [t("result.resultLevel"), `a = ${settlement.a}`, why],
    [t("result.doubling"), `b = ${settlement.b}${phase ? ` (${phaseText(phase)})` : ""}`,
      phase ? t("why.b", { phase: phaseText(phase) }) : t("why.bNone")],
  ];
}

/** The loser's cards left: how many, and once the game is over the cards themselves (亮牌). */
function loserCards(summary) {
  const cards = summary.loserCards || [];
  return h("span", { class: "loser-cards", "data-testid": "loser-cards", "data-cards": cards.join(" ") },
    formatNumber(summary.cardsLeft), cards.length ? h("span", { class: "held-cards", "aria-label": heldText(cards) },
      ...parseCards(cards.join(" ")).map((card) => miniCard(card))) : null);
}

/** A team's phase (C4.2) as the settlement lists it, team 0 = seats 0 and 2. */
function teamPhase(teamPhases, state, seat) {
  const team = state.table.game?.teams?.[seat];
  const phase = team === undefined ? null : teamPhases[team];
  return phase ? phaseText(phase) : t("result.noPhase");
}

/** One cell of the four-seat breakdown, by its row. */
function classicCell(key, value, seat, edition) {
  switch (key) {
    case "place":
      return value ? h("span", { class: `tag tag-place place-${value}` }, t(`place.${value}`)) : "—";
    case "level":
      return t("lobby.level", { level: value });
    case "phase":
      return phaseSummary(value);
    case "bombs":
      return bombList(value);
    case "contribution":
      return t("result.contributionValue", { c: value.c, v: formatNumber(value.v) });
    case "before":
    case "change":
    case "after":
      return balanceCell(key, value, seat, edition);
    case "cardsLeft":
      if (!value.count) return "—";
      return value.cards?.length ? h("span", { class: "held" }, heldText(value.cards)) : t("seat.myCards", { count: value.count });
    default: // transfer, escape, net, fees: signed amounts
      return h("span", { class: value > 0 ? "up" : value < 0 ? "down" : "" }, key.endsWith("Fee") ? money(value, edition) : signed(value));
  }
}

function phaseSummary(score) {
  if (!score || !score.phase) return t("result.noPhase");
  return `${phaseText(score.phase)} · ${t(`source.${score.source}`)}`;
}

function bombList(score) {
  const bombs = score?.played || [];
  if (!bombs.length) return "—";
  const behind = new Set((score.bombs || []).map((bomb) => bomb.play_index));
  return h("ul", { class: "bomb-list" }, ...bombs.map((bomb) => h("li", { class: behind.has(bomb.play_index) ? "behind" : "" },
    `${describeCombo(bomb)} · ${phaseText(bomb.phase)}`,
    behind.has(bomb.play_index) ? h("span", { class: "star", title: t("result.behind"), "aria-label": t("result.behind") }, " ★") : null)));
}
