// The table: every seat with its timer (two seats: you and the opponent opposite; four: you
// at the bottom, the next seat on your right, your partner opposite, the previous seat on
// your left), the felt (waiting, ready, deal, the play to beat), each seat's pass or last
// play, recent plays, the action buttons and the message under the hand.

import { t } from "../i18n.js";
import {
  cardBack, cardFace, describeCombo, describeMove, jokerMarks, parseCard, parseCards, phaseText, rankText, readingText,
} from "../cards.js";
import { $, h } from "../dom.js";
import {
  actionButtons, botOffer, bubbleOf, canFillWithBots, currentGame, hintCount, isBomb, isFourSeat, isMyTurn, isPlaying, jiefengSeat,
  mySeat, opponentSeat, placeOf, readiness, seatAction, seatCount, seatPositions, secondsUntil, sideOf, turnTimer,
} from "../state.js";
import { displayName, initial, levelTag, miniCard, money, seatName } from "./common.js";
import { renderHand } from "./hand.js";
import { renderResult } from "./result.js";
import { renderTracker } from "./tracker.js";

/** The seat elements by their place at the table, and the bubbles beside them. */
const SEAT_NODES = { me: "#seat-me", top: "#seat-opp", left: "#seat-left", right: "#seat-right" };
const BUBBLE_NODES = { me: "#bubble-me", top: "#bubble-opp", left: "#bubble-left", right: "#bubble-right" };

/** Everything at the table. `actions`: {leave, ready, copyInvite, fillBots, acceptBots, copyGameId} for the buttons drawn here. */
export function renderTable(state, actions, now) {
  if (state.view !== "table" || !state.table) return;
  const table = state.table;
  const view = $("#view-table");
  const four = isFourSeat(state);
  view.dataset.phase = table.phase;
  view.dataset.seq = String(table.seq);
  view.dataset.gameId = table.game_id || "";
  view.dataset.turn = isPlaying(state) ? (isMyTurn(state) ? "me" : "opp") : "";
  view.dataset.hosting = table.game && table.game.hosting[mySeat(state)] ? "on" : "off";
  view.dataset.seats = String(seatCount(state));
  const positions = four ? seatPositions(state) : { me: mySeat(state), top: opponentSeat(state) };
  for (const [position, selector] of Object.entries(SEAT_NODES)) {
    const node = $(selector);
    node.hidden = !(position in positions);
    if (!node.hidden) renderSeat(state, node, positions[position], position);
  }
  renderCenter(state, actions);
  renderBubbles(state);
  renderHistory(state);
  renderFlipChip(state);
  renderActions(state);
  renderTracker(state);
  renderSortLabel(state);
  renderHand(state);
  renderMessage(state);
  renderResult(state, actions);
  renderTimers(now);
  drawBanner();
}

/** One seat at its place (`position`: "me", "top", "left" or "right"). */
function renderSeat(state, node, index, position) {
  node.replaceChildren();
  const mine = position === "me";
  const table = state.table;
  const seat = index === null ? null : table.seats[index];
  const game = table.game;
  const side = sideOf(state, index);
  node.dataset.seat = index === null ? "" : String(index);
  node.dataset.side = side || "";
  if (!seat) {
    node.classList.add("empty");
    node.classList.remove("to-act");
    node.append(h("div", { class: "seat-empty" }, h("span", { class: "spinner", "aria-hidden": "true" }), t("seat.empty")));
    return;
  }
  node.classList.remove("empty");
  const toAct = isPlaying(state) && game.to_act === index;
  node.classList.toggle("to-act", Boolean(toAct));
  const hosting = game && !game.finished && game.hosting[index];
  const place = placeOf(state, index);
  const tags = [];
  if (isFourSeat(state) && !mine) {
    const role = side === "us" ? t("seat.partner") : side === "them" ? t(`seat.opp.${position}`) : t(`seat.pos.${position}`);
    tags.push(h("span", { class: `tag tag-role${side ? ` tag-${side}` : ""}`, "data-testid": `role-${index}` }, role));
  }
  if (place) tags.push(h("span", { class: `tag tag-place place-${place}`, "data-testid": `place-${index}` }, t(`place.${place}`)));
  if (seat.bot && displayName(seat) !== t("seat.botName")) tags.push(h("span", { class: "tag tag-bot" }, t("seat.bot")));
  if (seat.bot_level) tags.push(levelTag(seat, `bot-level-${index}`));
  if (hosting) tags.push(h("span", { class: "tag tag-hosting", "data-testid": `hosting-${index}` }, t("seat.hosting")));
  if (!seat.connected) tags.push(h("span", { class: "tag tag-offline" }, t("seat.offline")));
  if (game && table.phase === "playing" && game.timeouts[index] > 0) {
    tags.push(h("span", { class: "tag tag-timeouts", "data-testid": `timeouts-${index}` },
      t("seat.timeouts", { count: game.timeouts[index] })));
  }
  if (!isPlaying(state) && table.phase !== "waiting") {
    tags.push(seat.ready ? h("span", { class: "tag tag-ready" }, t("seat.ready"))
      : h("span", { class: "tag tag-notready" }, t("seat.notReady")));
  }
  const left = game ? game.cards_left[index] : null;
  const timer = h("div", {
    class: "timer", role: "timer", "data-testid": `timer-${index}`, "aria-live": "off",
    "aria-label": t("seat.timerLabel", { name: seatName(state, index) }), hidden: !toAct,
  }, h("span", { class: "timer-ring", "aria-hidden": "true" }), h("span", { class: "timer-text" }, ""));
  if (toAct) {
    if (table.turn_deadline) {
      timer.dataset.deadline = String(table.turn_deadline);
      timer.dataset.total = String(table.turn_seconds);
    } else {
      timer.classList.add("auto");
    }
  }
  const info = h("div", { class: "seat-info" },
    h("div", { class: "avatar", "aria-hidden": "true" }, seat.bot ? "🂠" : initial(seat.name)),
    h("div", { class: "seat-text" },
      h("div", { class: "seat-name" }, h("span", { class: "name" }, displayName(seat)), mine ? h("span", { class: "you" }, t("seat.youTag")) : null),
      h("div", { class: "seat-balance", "data-testid": `seat-balance-${index}` }, money(seat.balance, table.edition)),
      h("div", { class: "tags" }, ...tags)),
    timer);
  node.append(info);
  if (!mine && left !== null && left !== undefined) {
    const four = isFourSeat(state);
    const backs = h("div", { class: "backs", "aria-label": t("seat.cardsLeft", { name: displayName(seat), count: left }),
      role: "img", "data-testid": four ? `cards-${index}` : "opp-cards" });
    const shown = Math.min(left, four && position !== "top" ? 9 : 27);
    for (let i = 0; i < shown; i += 1) backs.append(cardBack());
    backs.style.setProperty("--n", String(Math.max(1, shown)));
    node.append(h("div", { class: `opp-hand${left ? "" : " out"}` }, backs,
      h("span", { class: "count-badge", "data-testid": four ? `count-${index}` : "opp-count" }, String(left))));
  } else if (mine && left !== null && left !== undefined) {
    info.querySelector(".seat-text").append(h("div", { class: "my-count" }, t("seat.myCards", { count: left })));
  }
}

function renderCenter(state, { leave, ready, copyInvite, fillBots, acceptBots }) {
  const center = $("#felt-center");
  center.replaceChildren();
  const table = state.table;
  const game = table.game;
  const seats = table.seats;
  const four = isFourSeat(state);
  if (table.phase === "waiting" && seats.some((seat) => seat === null)) {
    const link = `${location.origin}${location.pathname}?table=${encodeURIComponent(table.id)}`;
    const seated = seats.filter(Boolean).length;
    const offered = botOffer(state);
    center.append(h("div", { class: "panel waiting", "data-testid": "waiting" },
      h("div", { class: "spinner big", "aria-hidden": "true" }),
      h("h2", {}, four ? t("wait.title4") : t("wait.title")),
      h("p", {}, four ? t("wait.body4", { seated, seats: seats.length }) : t("wait.body")),
      offered ? h("div", { class: "bot-offer", role: "status", "data-testid": "bots-offer" },
        h("p", { class: "offer-title" }, t("offer.title", { count: offered })),
        h("p", {}, t("offer.body")),
        h("button", { type: "button", class: "btn primary", onclick: acceptBots, "data-testid": "accept-bots" }, t("offer.accept"))) : null,
      h("label", { for: "invite-link", class: "invite-label" }, four ? t("invite.label4") : t("invite.label")),
      h("div", { class: "invite-row" },
        h("input", { id: "invite-link", readonly: true, value: link, "data-testid": "invite-link",
          onfocus: (event) => event.target.select() }),
        h("button", { type: "button", class: "btn secondary", onclick: copyInvite }, t("invite.copy"))),
      h("div", { class: "waiting-actions" },
        canFillWithBots(state) && !offered
          ? h("button", { type: "button", class: "btn secondary", onclick: fillBots, "data-testid": "fill-bots" }, t("wait.bots"))
          : null,
        h("button", { type: "button", class: "btn ghost", onclick: leave }, t("wait.back")))));
    return;
  }
  if (!game || table.phase === "ready") {
    center.append(readyPanel(state, ready));
    return;
  }
  const onTable = game.table;
  if (!onTable && game.plays.length === 0 && !game.finished) {
    const flip = game.flip_card ? parseCard(game.flip_card) : null;
    const leaderText = game.leader === mySeat(state) ? t("deal.youLead") : t("deal.leads", { name: seatName(state, game.leader) });
    center.append(h("div", { class: "deal-info", "data-testid": "deal-info" },
      flip ? h("div", { class: "flip" }, h("span", { class: "flip-label" }, t("deal.flip")), cardFace(flip)) : null,
      h("p", { class: "deal-lead" }, leaderText),
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

/** Between games: Ready, or whom we wait for. */
function readyPanel(state, ready) {
  const table = state.table;
  const mine = table.seats[table.you];
  const deadline = mine?.ready_deadline;
  const four = isFourSeat(state);
  const others = readiness(state);
  const waitingFor = others.filter((other) => other.status !== "ready").map((other) => seatName(state, other.seat));
  const opponent = table.seats[opponentSeat(state)];
  const intro = four ? t("ready.four") : opponent ? t("ready.against", { name: displayName(opponent) }) : "";
  const waiting = four ? t("ready.waitingFor", { names: waitingFor.join(t("list.and")) }) : t("ready.waiting", { name: displayName(opponent) });
  return h("div", { class: "panel ready-panel", "data-testid": "ready-panel" },
    h("h2", {}, t("ready.title")),
    h("p", {}, intro),
    mine?.ready
      ? h("p", { class: "ready-wait" }, h("span", { class: "spinner", "aria-hidden": "true" }), waiting)
      : h("button", { type: "button", class: "btn primary big", id: "btn-ready", onclick: ready, "data-testid": "ready" },
        t("ready.button"), deadline ? h("span", { class: "countdown", "data-ready-deadline": String(deadline) }) : null));
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
  const cardWidth = parseFloat(getComputedStyle(row).getPropertyValue("--card-w")) || 70;
  const room = ($("#felt").clientWidth || window.innerWidth) - 48;
  const step = Math.max(12, Math.min(cardWidth * 0.52, (room - cardWidth) / (count - 1)));
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

/** The action buttons, the hosting switch and the hint counter. */
export function renderActions(state) {
  const buttons = actionButtons(state);
  $("#actions").hidden = !buttons.shown;
  $("#tools").hidden = !buttons.shown;
  $("#btn-play").disabled = !buttons.play;
  $("#btn-pass").disabled = !buttons.pass;
  $("#btn-hint").disabled = !buttons.hint;
  const hostingButton = $("#btn-hosting");
  hostingButton.disabled = !buttons.hosting;
  hostingButton.setAttribute("aria-pressed", buttons.hostingPressed ? "true" : "false");
  hostingButton.classList.toggle("on", buttons.hostingPressed);
  $("#hint-count").textContent = hintCount(state);
  $("#hand").setAttribute("aria-describedby", "play-message");
  document.body.classList.toggle("my-turn", isMyTurn(state));
}

export function renderSortLabel(state) {
  const label = $("#sort-label");
  label.textContent = state.sort === "rank" ? t("actions.sortRank") : t("actions.sortGroup");
  $("#btn-sort").setAttribute("aria-label", t("actions.sortHelp", { mode: label.textContent }));
}

/** The words of the message under the hand. */
export function messageText(message) {
  if (message.code) {
    if (message.code === "does_not_beat") {
      return message.onTable ? t("err.does_not_beat", { table: describeCombo(message.onTable) }) : t("err.does_not_beat_plain");
    }
    return errorText(message.code, message.text);
  }
  if (message.hint) {
    const { index, count, move } = message.hint;
    return t("msg.hint", { i: index + 1, n: count, combo: describeMove(move) });
  }
  if (message.rank) return t(message.key, { rank: rankText(message.rank) });
  return t(message.key, message.vars);
}

/** A server error code in the page's words (the server's English for a code it does not know). */
function errorText(code, text) {
  const key = `err.${code}`;
  const known = t(key);
  return known === key ? t("err.generic", { message: text }) : known;
}

export function renderMessage(state) {
  const node = $("#play-message");
  const message = state.message;
  node.hidden = !message;
  if (!message) {
    node.textContent = "";
    return;
  }
  node.className = `play-message msg-${message.kind}`;
  node.textContent = messageText(message);
}

/** Turn timers and ready countdowns, redrawn several times a second. */
export function renderTimers(now) {
  for (const timer of document.querySelectorAll(".timer[data-deadline]")) {
    const { seconds, fraction, urgent } = turnTimer(Number(timer.dataset.deadline), Number(timer.dataset.total), now);
    timer.querySelector(".timer-text").textContent = String(seconds);
    timer.style.setProperty("--p", String(fraction));
    timer.classList.toggle("urgent", urgent);
  }
  for (const timer of document.querySelectorAll(".timer.auto")) {
    timer.querySelector(".timer-text").textContent = "…";
  }
  for (const node of document.querySelectorAll("[data-ready-deadline]")) {
    node.textContent = ` ${secondsUntil(Number(node.dataset.readyDeadline), now)}s`;
  }
}

const BANNER_MS = 2200;
let banner = null; // the banner up: {words: () => [title, detail]} in the current language
let bannerTimer = null;

/**
 * A banner at the top of the felt (a bomb and its phase, 接风), above the play and never
 * over a card; a bomb also flashes the felt's rim. `words()` gives its title and detail in
 * the current language, so a change of language redraws it. Emptied when it has faded.
 */
export function showBanner(kind, words) {
  const node = $("#banner");
  banner = { words };
  drawBanner();
  node.className = "banner";
  void node.offsetWidth; // restart the animation
  node.className = `banner show banner-${kind}`;
  if (kind === "bomb") flashFelt();
  clearTimeout(bannerTimer);
  bannerTimer = setTimeout(() => {
    banner = null;
    node.className = "banner";
    node.replaceChildren();
  }, BANNER_MS);
}

/** The banner's words, in the current language. */
export function drawBanner() {
  if (!banner) return;
  const [title, detail] = banner.words();
  $("#banner").replaceChildren(h("span", { class: "banner-title" }, title), h("span", { class: "banner-detail" }, detail));
}

function flashFelt() {
  const felt = $("#felt");
  felt.classList.remove("boom");
  void felt.offsetWidth;
  felt.classList.add("boom");
  felt.addEventListener("animationend", () => felt.classList.remove("boom"), { once: true });
}
