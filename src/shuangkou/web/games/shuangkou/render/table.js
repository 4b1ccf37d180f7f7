// Shuangkou's part of the table: the felt's middle during a game (the deal with the flip
// card and a seat swap, the play to beat, 接风, who leads), each seat's pass or last play,
// the recent plays, the flip card's chip, the action buttons, the sort order, the card
// tracker, the hand and the message under it. The seats, the timers, the waiting and ready
// panels and the hosting switch are the shell's (render/table.js).

import { t } from "../i18n.js";
import { cardFace, cardLabel, parseCard, parseCards, rankText } from "../../../deck.js";
import { $, h } from "../../../dom.js";
import { miniCard, refusalText, seatName, showMessage } from "../../../render/common.js";
import { describeCombo, describeMove, jokerMarks, phaseText, readingText } from "../combos.js";
import {
  actionButtons, bubbleOf, currentGame, hintCount, isBomb, isFourSeat, isPassHint, jiefengSeat, mySeat, opponentSeat, partnerByFlip,
  seatAction, seatPositions, sideOf,
} from "../state.js";
import { renderHand } from "./hand.js";
import { renderTracker } from "./tracker.js";

/** The bubbles beside the seats, by the seat's place at the table. */
const BUBBLE_NODES = { me: "#bubble-me", top: "#bubble-opp", left: "#bubble-left", right: "#bubble-right" };

/** The game's part of the table (`center`: the felt's middle when it is the game's, else null). */
export function renderGame(state, { center }) {
  if (state.view !== "table" || !state.table) return;
  if (center) renderCenter(state, center);
  renderBubbles(state);
  renderHistory(state);
  renderFlipChip(state);
  renderActions(state);
  renderTracker(state);
  renderSortLabel(state);
  renderHand(state);
  renderMessage(state);
}

/** The felt's middle during a game: the deal (the flip card, who leads, a seat swap), the play
 * to beat, 接风, or who leads the round. */
function renderCenter(state, center) {
  const game = state.table.game;
  const onTable = game.table;
  if (!onTable && game.plays.length === 0 && !game.finished) {
    const flip = game.flip_card ? parseCard(game.flip_card) : null;
    const leaderText = game.leader === mySeat(state) ? t("deal.youLead") : t("deal.leads", { name: seatName(state, game.leader) });
    const partner = flipPartnerText(state);
    center.append(h("div", { class: "deal-info", "data-testid": "deal-info" },
      flip ? h("div", { class: "flip" }, h("span", { class: "flip-label" }, t("deal.flip")), cardFace(flip)) : null,
      h("p", { class: "deal-lead" }, leaderText),
      partner ? h("p", { class: "deal-partner", "data-testid": "deal-partner" }, partner) : null,
      swapNotice(state)));
    return;
  }
  if (onTable) {
    center.append(tablePlay(state, onTable));
    fitPlayCards(center.querySelector(".play-cards"), parseCards(onTable.cards).length);
    return;
  }
  if (!game.finished) {
    const taker = jiefengSeat(state);
    if (taker !== null) {
      const text = taker === mySeat(state) ? t("round.youJiefeng") : t("round.jiefeng", { name: seatName(state, taker) });
      center.append(h("div", { class: "round-info jiefeng", "data-testid": "jiefeng" }, h("p", {}, text)));
      return;
    }
    const lead = game.to_act === mySeat(state) ? t("round.youLead") : t("round.leads", { name: seatName(state, game.to_act) });
    center.append(h("div", { class: "round-info", "data-testid": "round-info" }, h("p", {}, lead)));
  }
}

/** The deal in the message lane, whoever leads (a bot's lead replaces the deal on the felt at
 * once): the flip card, who holds it and leads, and in a 千变 room who partners them. */
export function dealBanner(state) {
  const game = currentGame(state);
  const leader = game.leader === mySeat(state) ? t("deal.youLead") : t("deal.leads", { name: seatName(state, game.leader) });
  return [t("deal.bannerTitle", { card: cardLabel(parseCard(game.flip_card)) }), [leader, flipPartnerText(state)].filter(Boolean).join(" ")];
}

/** 千变 (C1.4, C8): whoever holds the flip card's other copy partners the leader; null elsewhere. */
function flipPartnerText(state) {
  const game = currentGame(state);
  if (!partnerByFlip(state) || !game?.flip_card) return null;
  const card = cardLabel(parseCard(game.flip_card));
  return game.leader === mySeat(state) ? t("deal.qianbianYou", { card }) : t("deal.qianbian", { card, name: seatName(state, game.leader) });
}

/** C1.4: the two seats the flip card made change places, as the server says (`game.swap`). */
function swapNotice(state) {
  const swap = currentGame(state)?.swap;
  if (!swap) return null;
  const [first, second] = swap;
  return h("p", { class: "swap-notice", "data-testid": "swap-notice", role: "status" },
    h("span", { class: "swap-icon", "aria-hidden": "true" }, "⇄ "),
    t("deal.swap", { a: seatName(state, first), b: seatName(state, second) }));
}

/** The play to beat: its cards (a joker marked with what it stands for), who played it, what it is. */
function tablePlay(state, onTable) {
  const cards = parseCards(onTable.cards);
  const combo = onTable.combo;
  const marks = jokerMarks(cards, combo);
  const faces = cards.map((card, index) => cardFace(card, { standsFor: marks[index] }));
  const bomb = isBomb(combo);
  const labels = [
    h("span", { class: "play-by" }, seatName(state, onTable.seat)),
    h("span", { class: "play-desc", "data-testid": "play-desc" }, describeCombo(combo)),
    bomb ? h("span", { class: "tag tag-bomb" }, phaseText(combo.phase)) : null,
    onTable.cause && onTable.cause !== "player" ? h("span", { class: "tag tag-cause", "data-testid": "play-cause" }, t(`cause.${onTable.cause}`)) : null,
  ];
  const reading = marks.some(Boolean) ? h("div", { class: "play-reading", "data-testid": "play-reading" },
    t("combo.readsAs", { reading: readingText(combo) })) : null;
  return h("div", {
    class: `table-play ${onTable.seat === mySeat(state) ? "from-me" : "from-opp"}${bomb ? " is-bomb" : ""}`,
    "data-testid": "table-play", "data-cards": onTable.cards, "data-seat": String(onTable.seat), "data-side": sideOf(state, onTable.seat) || "",
    "aria-label": t("table.current", { name: seatName(state, onTable.seat), combo: describeCombo(combo) }),
  }, h("div", { class: "play-cards" }, ...faces), h("div", { class: "play-label" }, ...labels), reading);
}

/** Overlap the cards of a play so that even a 12-card bomb fits the table's width. */
function fitPlayCards(row, count) {
  if (!row || count < 2) return;
  row.style.removeProperty("--card-w");
  const cardWidth = parseFloat(getComputedStyle(row).getPropertyValue("--card-w")) || 70;
  const room = ($("#felt").clientWidth || window.innerWidth) - 48;
  // the share of a card's width its widest corner index takes ("10"): each card shows that much
  const corners = [...row.querySelectorAll(".corner.tl")];
  const index = Math.max(0.3, ...corners.map((corner) => (corner.offsetLeft + corner.offsetWidth + 2) / cardWidth));
  // a long play (a 12-card straight on a phone) is drawn smaller rather than hide its indexes
  const width = Math.min(cardWidth, room / (1 + index * (count - 1)));
  if (width < cardWidth) row.style.setProperty("--card-w", `${width}px`);
  const step = Math.max(index * width, Math.min(width * 0.52, (room - width) / (count - 1)));
  row.style.setProperty("--step", `${step}px`);
}

/** Each seat's pass (and with four seats its last play of the round) beside the seat. */
function renderBubbles(state) {
  const four = isFourSeat(state);
  const positions = four ? seatPositions(state) : { me: mySeat(state), top: opponentSeat(state) };
  for (const [position, selector] of Object.entries(BUBBLE_NODES)) {
    const node = $(selector);
    const index = position in positions ? positions[position] : null;
    const action = index === null ? null : four ? seatAction(state, index) : bubbleOf(state, index) && { pass: bubbleOf(state, index) };
    node.hidden = !action;
    node.replaceChildren();
    node.classList.toggle("bubble-play", Boolean(action?.play));
    delete node.dataset.cause;
    node.removeAttribute("aria-label");
    if (!action) continue;
    node.dataset.seat = String(index);
    if (action.pass) {
      node.textContent = t(`bubble.${action.pass.cause}`);
      node.dataset.cause = action.pass.cause;
    } else {
      const play = action.play;
      node.append(h("span", { class: "b-cards", "aria-hidden": "true" }, ...parseCards(play.cards).map((card) => miniCard(card))),
        h("span", { class: "b-what" }, describeCombo(play.combo)));
      node.setAttribute("aria-label", t("ev.played", { name: seatName(state, index), combo: describeCombo(play.combo) }));
    }
  }
}

/** The recent plays, newest first: beside the felt's middle on wide screens, behind a switch
 * (with their count) on narrow ones, where they open over the felt. */
export function renderHistory(state) {
  const list = $("#history-list");
  list.replaceChildren();
  const game = currentGame(state);
  const plays = game ? [...game.plays].reverse() : [];
  $("#history").hidden = !plays.length;
  const toggle = $("#btn-history");
  toggle.hidden = !plays.length;
  toggle.setAttribute("aria-expanded", state.historyOpen ? "true" : "false");
  $("#history-count").textContent = String(plays.length);
  $("#felt").classList.toggle("history-open", state.historyOpen && plays.length > 0);
  for (const entry of plays) {
    const cards = parseCards(entry.cards);
    const bomb = isBomb(entry.combo);
    const side = sideOf(state, entry.seat);
    list.append(h("li", { class: `${entry.seat === mySeat(state) ? "mine" : "theirs"}${side ? ` side-${side}` : ""}${bomb ? " bomb" : ""}`, "data-cards": entry.cards },
      h("span", { class: "h-who" }, seatName(state, entry.seat)),
      h("span", { class: "h-what" }, describeCombo(entry.combo), bomb ? ` · ${phaseText(entry.combo.phase)}` : ""),
      h("span", { class: "h-cards", "aria-hidden": "true" }, ...cards.map((card) => miniCard(card))),
      entry.cause !== "player" ? h("span", { class: "tag tag-cause" }, t(`cause.${entry.cause}`)) : null));
  }
  list.scrollTop = 0;
  updateHistoryMore();
}

/** "▾ N more" under the recent plays while some of them are scrolled out of sight below;
 * it scrolls them into view. */
export function updateHistoryMore() {
  const list = $("#history-list");
  const more = $("#history-more");
  more.hidden = !(list.clientHeight && list.scrollTop + list.clientHeight < list.scrollHeight - 1);
  if (more.hidden) return;
  const bottom = list.getBoundingClientRect().bottom;
  const below = [...list.children].filter((item) => item.getBoundingClientRect().bottom > bottom + 1).length;
  more.textContent = t("history.more", { count: below });
}

function renderFlipChip(state) {
  const chip = $("#flip-chip");
  const game = currentGame(state);
  const show = Boolean(game?.flip_card) && (game.plays.length > 0 || game.table);
  chip.hidden = !show;
  if (!show) return;
  chip.replaceChildren(
    h("span", {}, t("deal.flipShort")), miniCard(parseCard(game.flip_card)),
    h("span", {}, t("deal.ledBy", { name: seatName(state, game.leader) })),
    ...(game.swap ? [h("span", { class: "chip-swap", title: t("deal.swap", { a: seatName(state, game.swap[0]), b: seatName(state, game.swap[1]) }) },
      t("deal.swapShort"))] : []));
}

/** The action buttons and the hint counter (the hosting switch beside them is the shell's). */
export function renderActions(state) {
  const buttons = actionButtons(state);
  $("#actions").hidden = !buttons.shown;
  $("#btn-play").disabled = !buttons.play;
  $("#btn-pass").disabled = !buttons.pass;
  $("#btn-hint").disabled = !buttons.hint;
  $("#hint-count").textContent = hintCount(state);
  $("#hand").setAttribute("aria-describedby", "play-message");
}

export function renderSortLabel(state) {
  const label = $("#sort-label");
  label.textContent = state.sort === "rank" ? t("actions.sortRank") : t("actions.sortGroup");
  $("#btn-sort").setAttribute("aria-label", t("actions.sortHelp", { mode: label.textContent }));
}

/** The words of the message under the hand. */
function messageText(message) {
  if (message.code) {
    if (message.code === "does_not_beat") {
      return message.onTable ? t("err.does_not_beat", { table: describeCombo(message.onTable) }) : t("err.does_not_beat_plain");
    }
    return refusalText(message);
  }
  if (message.hint) {
    const { index, count, move } = message.hint;
    if (isPassHint(move)) return t("msg.hintPass", { i: index + 1, n: count });
    return t("msg.hint", { i: index + 1, n: count, combo: describeMove(move) });
  }
  if (message.rank) return t(message.key, { rank: rankText(message.rank) });
  return t(message.key, message.vars);
}

export function renderMessage(state) {
  showMessage($("#play-message"), state.message, messageText);
}
