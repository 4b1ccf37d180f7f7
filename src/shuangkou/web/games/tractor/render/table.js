// Tractor's part of the table: the felt's middle (the deal and the declarations, the bury,
// the trick with each seat's cards, a failed throw, who leads), the hand's facts in the
// felt's corner (trump and level rank, both teams' levels, the dealer, the attackers'
// points and the cards that made them), the last trick on demand, the buttons (declare,
// no more, hint, play or bury), the message under the hand and the hand. The seats, the
// timers and the panels between hands are the shell's.

import { getLang, t } from "../../../i18n.js";
import { cardFace, cardLabel, parseCard, parseCards } from "../../../deck.js";
import { $, h } from "../../../dom.js";
import { miniCard, refusalText, seatName, showMessage } from "../../../render/common.js";
import {
  actionButtons, burying, declareOptions, handFacts, handPhase, hintCount, lastTrickPanel, mySeat,
  positionOf, sideOf, trickShown,
} from "../state.js";
import { renderHand } from "./hand.js";

/** The game's part of the table (`center`: the felt's middle when it is the game's). */
export function renderGame(state, { center }) {
  if (state.view !== "table" || !state.table) return;
  if (center) renderCenter(state, center);
  renderFacts(state);
  renderLastTrick(state);
  renderActions(state);
  renderHand(state);
  renderMessage(state);
}

/** A card string as small cards. */
export const minis = (cards) => parseCards(cards).map((card) => miniCard(card));

/** A suit's name for the trump ("♥ Hearts", "No trump"). */
export const suitName = (suit) => t(`tr.suit.${suit}`);

/** The felt's middle: the deal (how many cards, the standing declaration), the bury, the trick. */
function renderCenter(state, center) {
  const game = state.table.game;
  const phase = game.phase;
  if (phase === "deal" || phase === "declare") {
    const count = game.cards_left[mySeat(state)] ?? Math.max(...game.cards_left);
    const text = phase === "deal" ? t("tr.phase.deal", { count }) : t("tr.phase.declare");
    center.append(h("div", { class: "tr-status", "data-testid": "tr-status", "data-phase": phase },
      h("p", { class: "tr-status-line" }, text), standingLine(state)));
    return;
  }
  if (phase === "bury") {
    const mine = burying(state);
    const text = mine ? t("tr.phase.buryMe", mine) : t("tr.phase.bury", { name: seatName(state, game.dealer) });
    center.append(h("div", { class: "tr-status", "data-testid": "tr-status", "data-phase": phase }, h("p", { class: "tr-status-line" }, text)));
    return;
  }
  const trick = trickShown(state);
  const cross = trickCross(state, trick);
  if (cross) center.append(cross);
  if (!game.finished && !game.trick.length) {
    const text = game.to_act === mySeat(state) ? t("tr.lead.me") : t("tr.lead.other", { name: seatName(state, game.to_act) });
    center.append(h("p", { class: "tr-lead", "data-testid": "tr-lead" }, text));
  }
}

/** The standing declaration, or the third bottom card that fixed the trump. */
function standingLine(state) {
  const game = state.table.game;
  const standing = game.standing;
  if (!standing) return null;
  return h("p", { class: "tr-standing", "data-testid": "tr-standing", "data-seat": String(standing.seat), "data-cards": standing.cards },
    t("tr.declared", { name: seatName(state, standing.seat), cards: "" }), ...minis(standing.cards));
}

/**
 * A trick as a cross, each seat's cards where it sits (us at the bottom): the one being
 * played, or the last with its winner and points. A failed throw is said above it.
 */
export function trickCross(state, trick, { testid = "tr-trick" } = {}) {
  if (!trick) return null;
  const cells = trick.plays.map(({ seat, cards }) => {
    const faces = parseCards(cards).map((card) => cardFace(card));
    const won = trick.done && seat === trick.winner;
    return h("div", {
      class: `tr-play at-${positionOf(state, seat)} side-${sideOf(state, seat)}${won ? " won" : ""}${seat === trick.leader ? " led" : ""}`,
      "data-testid": "tr-play", "data-seat": String(seat), "data-cards": cards,
      "aria-label": t("tr.ev.played", { name: seatName(state, seat), cards: parseCards(cards).map(cardLabel).join(", ") }),
    }, h("div", { class: "tr-play-cards", style: `--n: ${faces.length}` }, ...faces), h("span", { class: "tr-play-by" }, seatName(state, seat)));
  });
  const note = trick.done
    ? h("p", { class: "tr-trick-note", "data-testid": "tr-trick-won" }, t("tr.trick.won", { name: seatName(state, trick.winner), points: trick.points }))
    : trick.throw ? h("p", { class: "tr-trick-note tr-throw", "data-testid": "tr-throw" }, t("tr.throwFailed", {
      name: seatName(state, trick.throw.seat), attempted: trick.throw.attempted, forced: trick.throw.forced,
    })) : null;
  return h("div", { class: `tr-trick${trick.done ? " done" : ""}`, "data-testid": testid }, ...cells, note);
}

/** The hand's facts in the felt's corner. */
function renderFacts(state) {
  const node = $("#tr-facts");
  const facts = handFacts(state);
  node.hidden = !facts || state.table.phase !== "playing";
  if (node.hidden) return;
  const declared = facts.trump?.suit ?? facts.standing?.trump; // fixed, or the standing declaration's so far
  const trump = declared ? t("tr.trumpValue", { suit: suitName(declared), level: facts.level }) : t("tr.trumpOpen", { level: facts.level });
  const row = (label, value, testid, extra = {}) => h("div", { class: "tr-fact", "data-testid": testid, ...extra }, h("dt", {}, label), h("dd", {}, value));
  const dealer = facts.dealer === null ? t("tr.dealerNone") : seatName(state, facts.dealer);
  node.replaceChildren(h("dl", {},
    row(t("tr.trump"), trump, "tr-trump", { "data-suit": facts.trump?.suit || "", "data-level": facts.level, "data-fixed": String(Boolean(facts.trump)) }),
    row(t("tr.levels"), t("tr.levelsValue", { us: facts.ourLevel, them: facts.theirLevel }), "tr-levels",
      { "data-us": facts.ourLevel, "data-them": facts.theirLevel }),
    row(t("tr.dealer"), [dealer, facts.dealer === null ? "" : ` · ${t(facts.weDeal ? "tr.defend" : "tr.attack")}`], "tr-dealer"),
    row(t("tr.points"), [h("strong", {}, String(facts.points)), " ",
      h("span", { class: "tr-point-cards" }, ...(facts.pointCards.length ? facts.pointCards.map((card) => miniCard(parseCard(card))) : [t("tr.noPoints")]))],
    "tr-points", { "data-points": String(facts.points), "data-cards": facts.pointCards.join(" ") })));
}

/** The last trick, over the felt while another is played, when asked for. */
function renderLastTrick(state) {
  const node = $("#tr-last");
  const last = lastTrickPanel(state);
  node.hidden = !last;
  node.replaceChildren();
  if (!last) return;
  const trick = { done: true, leader: last.leader, winner: last.winner, points: last.points, plays: last.plays.map(([seat, cards]) => ({ seat, cards })) };
  node.append(h("h2", {}, t("tr.trick.last")), trickCross(state, trick, { testid: "tr-last-trick" }));
}

/** The buttons: a declaration per option the server lists, no more, hint, play or bury. */
export function renderActions(state) {
  const buttons = actionButtons(state);
  $("#tr-actions").hidden = !buttons.shown;
  renderDeclares(declareOptions(state), buttons.declare);
  $("#tr-btn-done").hidden = !buttons.done;
  const phase = handPhase(state);
  $("#tr-btn-hint").hidden = !(phase === "play" || phase === "bury");
  $("#tr-btn-hint").disabled = !buttons.hint;
  $("#tr-hint-count").textContent = hintCount(state);
  const play = $("#tr-btn-play");
  play.hidden = !(phase === "play" || burying(state));
  play.disabled = !(buttons.play || buttons.bury);
  $("#tr-play-label").textContent = burying(state) ? t("tr.btn.bury") : t("tr.btn.play");
  const last = $("#tr-btn-last");
  last.disabled = !buttons.lastTrick;
  last.setAttribute("aria-pressed", lastTrickPanel(state) ? "true" : "false");
  $("#tr-hand").setAttribute("aria-describedby", "tr-message");
}

/** A button per declaration we may make, kept while the options stay the same (the deal
 * redraws the table at every card: a button must not move under the pointer). */
function renderDeclares(options, enabled) {
  const declares = $("#tr-declares");
  const key = `${getLang()}|${options.join(",")}`;
  if (declares.dataset.options !== key) {
    declares.dataset.options = key;
    declares.replaceChildren(...options.map((cards) => h("button", {
      type: "button", class: "btn secondary tr-declare", "data-cards": cards, "data-testid": "tr-declare",
      "aria-label": t("tr.btn.declare", { cards: parseCards(cards).map(cardLabel).join(", ") }),
    }, t("tr.btn.declare", { cards: "" }), ...minis(cards))));
  }
  for (const button of declares.children) button.disabled = !enabled;
}

/** The message under the hand: a refusal (the game's words for its codes), a
 * selection explained, a hint. */
export function renderMessage(state) {
  showMessage($("#tr-message"), state.message, (message) => (message.code ? refusalText(message, "tr") : t(message.key, message.vars)));
}
