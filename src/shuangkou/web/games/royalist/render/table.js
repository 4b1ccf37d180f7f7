// Royalist's part of the table: the felt's middle during a game (the throne offer with the
// emperor card and, when it is ours, its choices — in a called room the calls, Y9; the
// declarations; the set to beat with its attached jokers; who leads), the question's timer,
// each other seat's pass or last set of the round beside it, *m* once the game is open, the
// card called and its three copies shown, the action buttons, the sort order, the hand and
// the message under it. The seats, their timers, the waiting and ready panels and the hosting
// switch are the shell's (render/table.js).

import { t } from "../i18n.js";
import { cardLabel, rankText } from "../../../deck.js";
import { $, h } from "../../../dom.js";
import { refusalText, seatName, showMessage } from "../../../render/common.js";
import { renderHand } from "../../shuangkou/render/hand.js";
import {
  EMPEROR_CARD, actionButtons, calledCard, calledRoom, currentGame, declarationsPending, hintCount, mySeat, question,
  royalCard, royalCards, seatAction, seatPositions, sideOf,
} from "../state.js";
import { miniCards, royalFace, royalMini, setText } from "./cards.js";

/** The game's part of the table (`center`: the felt's middle when it is the game's, else null). */
export function renderGame(state, { center }) {
  if (state.view !== "table" || !state.table) return;
  if (center && state.table.game) renderCenter(state, center);
  renderBubbles(state);
  renderMultiplier(state);
  renderCalled(state);
  renderActions(state);
  renderSortLabel(state);
  renderHand(state, $("#roy-hand"));
  renderMessage(state);
}

/** The felt's middle: the throne, the declarations, the set to beat, or who leads. */
function renderCenter(state, center) {
  const game = state.table.game;
  const asked = question(state);
  if (game.phase === "throne") center.append(thronePanel(state, asked));
  else if (game.phase === "declare") center.append(declarePanel(state, asked));
  else if (game.table) center.append(tableSet(state, game.table));
  else if (!game.finished) {
    const lead = game.to_act === mySeat(state) ? t("roy.round.youLead") : t("roy.round.leads", { name: seatName(state, game.to_act) });
    center.append(h("div", { class: "round-info", "data-testid": "roy-round" }, h("p", {}, lead)));
  }
}

/** The decision's timer, from the table's deadline (the shell's timers tick it). */
function decisionTimer(state) {
  const table = state.table;
  if (!table.turn_deadline) return null;
  return h("div", { class: "timer roy-timer", role: "timer", "aria-label": t("roy.timer"), "data-testid": "roy-decision-timer",
    "data-deadline": String(table.turn_deadline), "data-total": String(table.turn_seconds) },
  h("span", { class: "timer-ring", "aria-hidden": "true" }), h("span", { class: "timer-text" }, ""));
}

/** A choice's button: the message body it sends is its `data-choice`; `label` text or nodes. */
function choiceButton(label, choice, kind, testid, spoken = null) {
  return h("button", { type: "button", class: `btn ${kind}`, "data-choice": JSON.stringify(choice), "data-testid": testid, "aria-label": spoken }, label);
}

/** A card's name in words ("the 7 of hearts"). */
const cardWords = (text) => cardLabel(royalCard(text));

/** The calls of a called room (Y9, Y13.18): per card we may call its button (alone in
 * secret with all four copies) and 包 when offered, then abdicate when we may. */
function callButtons(asked) {
  const buttons = [];
  for (const { card, copies, call, openSolo } of asked.calls) {
    const solo = copies > 3;
    const face = () => royalMini(royalCard(card));
    if (call) {
      buttons.push(choiceButton([face(), " ", t(solo ? "roy.throne.callSolo" : "roy.throne.call")], call, buttons.length ? "secondary" : "primary",
        `roy-call-${card}`, t(solo ? "roy.throne.callSoloLabel" : "roy.throne.callLabel", { card: cardWords(card) })));
    }
    if (openSolo) {
      buttons.push(choiceButton([face(), " ", t("roy.throne.callOpen")], openSolo, "secondary", `roy-call-open-${card}`,
        t("roy.throne.callOpenLabel", { card: cardWords(card) })));
    }
  }
  if (asked.choices.some((choice) => choice.type === "abdicate")) {
    buttons.push(choiceButton(t("roy.throne.abdicate"), { type: "abdicate" }, "secondary", "roy-abdicate"));
  }
  return buttons;
}

/** The throne offer (Y2.1–Y2.5): the emperor card and its holder, how often it was passed on,
 * and when we hold it our choices (ascend; alone, openly, when we hold both marked cards; abdicate). */
function thronePanel(state, asked) {
  const game = state.table.game;
  const holder = game.candidate;
  const mine = holder === mySeat(state);
  const parts = [
    h("h2", {}, t("roy.throne.title")),
    h("div", { class: "roy-throne-card" }, royalFace(royalCard(EMPEROR_CARD))),
    h("p", { class: "roy-holder", "data-testid": "roy-holder" }, mine ? t("roy.throne.youHold") : t("roy.throne.holder", { name: seatName(state, holder) })),
    game.abdications.length ? h("p", { class: "muted" }, t("roy.throne.abdications", { count: game.abdications.length })) : null,
  ];
  if (asked?.kind === "throne" && asked.called) {
    parts.push(h("p", { "data-testid": "roy-call-ask" }, asked.calls.length ? t("roy.throne.askCall") : t("roy.throne.noCall")),
      asked.forced && asked.calls.length ? h("p", {}, t("roy.throne.forced")) : null,
      h("div", { class: "roy-choices roy-calls" }, ...callButtons(asked)), decisionTimer(state));
  } else if (calledRoom(state) && !mine) {
    parts.push(h("p", { class: "muted" }, t("roy.throne.callWaiting", { name: seatName(state, holder) })));
  } else if (asked?.kind === "throne") {
    const words = { ascend: asked.both ? t("roy.throne.ascendSecret") : t("roy.throne.ascend"), abdicate: t("roy.throne.abdicate") };
    parts.push(h("p", {}, asked.forced ? t("roy.throne.forced") : asked.both ? t("roy.throne.askBoth") : t("roy.throne.ask")),
      h("div", { class: "roy-choices" }, ...asked.choices.map((choice) => (choice.open_solo
        ? choiceButton(t("roy.throne.openSolo"), choice, "secondary", "roy-open-solo")
        : choiceButton(words[choice.type], choice, choice.type === "ascend" ? "primary" : "secondary", `roy-${choice.type}`)))),
      decisionTimer(state));
  }
  return h("div", { class: `panel roy-dialog${asked ? " asked" : ""}`, "data-testid": "roy-throne", role: asked ? "dialog" : null,
    "aria-label": t("roy.throne.title") }, ...parts);
}

/** The declarations (Y2.6): our question with the same two answers for every seat, or how many have answered. */
function declarePanel(state, asked) {
  const pending = declarationsPending(state);
  const called = calledCard(state);
  const parts = [h("h2", {}, t("roy.declare.title")),
    called ? h("p", { "data-testid": "roy-declare-called" }, t("roy.called.shown", { cards: called.shown.map(cardWords).join(t("list.and")) })) : null];
  if (asked?.kind === "declare") {
    parts.push(h("p", {}, asked.role === "guard" ? t("roy.declare.askGuard") : t("roy.declare.askRebel")),
      h("div", { class: "roy-choices" },
        choiceButton(t("roy.declare.no"), { type: "declaration", declare: false }, "primary", "roy-stay-hidden"),
        choiceButton(t("roy.declare.yes"), { type: "declaration", declare: true }, "secondary", "roy-declare")),
      decisionTimer(state));
  } else {
    const answered = currentGame(state).answered?.[mySeat(state)];
    parts.push(h("p", { "data-testid": "roy-declare-waiting" }, t(answered ? "roy.declare.answered" : "roy.declare.waiting", pending)));
  }
  return h("div", { class: `panel roy-dialog${asked ? " asked" : ""}`, "data-testid": "roy-declare", role: asked ? "dialog" : null,
    "aria-label": t("roy.declare.title") }, ...parts);
}

/** The set to beat: its cards (the attached jokers, the marked ones marked), who played it, what it is. */
function tableSet(state, onTable) {
  const cards = royalCards(onTable.cards);
  return h("div", {
    class: `table-play ${onTable.seat === mySeat(state) ? "from-me" : "from-opp"}`, "data-testid": "roy-table-set",
    "data-cards": onTable.cards, "data-seat": String(onTable.seat), "data-side": sideOf(state, onTable.seat) || "",
    "aria-label": t("roy.set.by", { name: seatName(state, onTable.seat), set: setText(onTable.set) }),
  }, h("div", { class: "play-cards roy-set", style: `--step: ${cards.length > 8 ? 28 : 40}px` }, ...cards.map(royalFace)),
  h("div", { class: "play-label" },
    h("span", { class: "play-by" }, seatName(state, onTable.seat)),
    h("span", { class: "play-desc", "data-testid": "roy-set-desc" }, setText(onTable.set)),
    onTable.cause && onTable.cause !== "player" ? h("span", { class: "tag tag-cause" }, t(`roy.cause.${onTable.cause}`)) : null));
}

/** Each other seat's pass, or its last set of the round, beside it. */
function renderBubbles(state) {
  const positions = seatPositions(state);
  for (const node of document.querySelectorAll(".roy-bubble")) {
    const seat = positions[node.dataset.position] ?? null;
    const action = seat === null || !state.table.game ? null : seatAction(state, seat);
    node.hidden = !action;
    node.replaceChildren();
    node.classList.toggle("bubble-play", Boolean(action?.play));
    delete node.dataset.cause;
    if (!action) continue;
    node.dataset.seat = String(seat);
    if (action.pass) {
      node.textContent = t(`roy.pass.${action.pass.cause}`);
      node.dataset.cause = action.pass.cause;
    } else {
      node.append(h("span", { class: "b-cards", "aria-hidden": "true" }, ...miniCards(action.play.cards)),
        h("span", { class: "b-what" }, setText(action.play.set)));
    }
  }
}

/** *m* on the felt once the game is open (Y2.8). */
function renderMultiplier(state) {
  const node = $("#roy-mult");
  const game = state.table.game;
  node.hidden = !(game && game.multiplier > 1 && !game.finished);
  node.textContent = node.hidden ? "" : `${t("roy.open")} · ${t("roy.m", { m: game.multiplier })}`;
}

/** The card called and the three copies the emperor shows (Y9), on the felt once called. */
function renderCalled(state) {
  const node = $("#roy-called");
  const called = calledCard(state);
  node.hidden = !called || Boolean(state.table.game?.finished);
  node.replaceChildren();
  if (node.hidden) return;
  const words = t("roy.called.label", { card: cardWords(called.card) });
  node.dataset.card = called.card;
  node.setAttribute("title", words);
  node.setAttribute("aria-label", words);
  node.append(h("span", { class: "roy-called-title" }, t("roy.called.title")),
    h("span", { class: "b-cards", "aria-hidden": "true" }, ...called.shown.map((card) => royalMini(royalCard(card)))));
}

/** The action buttons and the hint counter (the hosting switch beside them is the shell's). */
export function renderActions(state) {
  const buttons = actionButtons(state);
  $("#roy-actions").hidden = !buttons.shown;
  $("#roy-play").disabled = !buttons.play;
  $("#roy-pass").disabled = !buttons.pass;
  $("#roy-hint").disabled = !buttons.hint;
  $("#roy-hint-count").textContent = hintCount(state);
}

export function renderSortLabel(state) {
  const label = $("#roy-sort-label");
  label.textContent = state.sort === "group" ? t("roy.actions.sortGroup") : t("roy.actions.sortRank");
  $("#roy-sort").setAttribute("aria-label", t("roy.actions.sortHelp", { mode: label.textContent }));
}

/** The message under the hand: a refusal in Royalist's words, a hint, or what the game says. */
export function renderMessage(state) {
  showMessage($("#roy-message"), state.message, (message) => {
    if (message.code) return refusalText(message, "roy");
    return t(message.key, message.rank ? { rank: rankText(message.rank) } : message.vars);
  });
}
