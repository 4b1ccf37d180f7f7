// The browser client's glue: it owns the one state (state.js), feeds it what the server
// sends and what the player does, and asks the renderers (render/*.js) to draw it. All
// state comes from the server (`state` messages carry the whole table, with the legal
// moves when it is our turn); what is legal comes from those moves and the server's errors.

import { t, setLang, applyStatic } from "./i18n.js";
import { cardLabel, describeCombo, parseCard, phaseText } from "./cards.js";
import { $, announce, h, redrawToasts, toast } from "./dom.js";
import { api, Link } from "./net.js";
import * as S from "./state.js";
import { money, seatName } from "./render/common.js";
import { focusHand, handNodes, handRows, layoutHand, renderHand, renderSelection, shakeSelection } from "./render/hand.js";
import { renderLobby, renderLogin, renderLoginError } from "./render/lobby.js";
import { confirmDialog, openHelp, renderConnection, renderSound, renderTopbar, renderView } from "./render/page.js";
import {
  messageText, renderActions, renderHistory, renderMessage, renderSortLabel, renderTable, renderTimers, showBanner,
  updateHistoryMore,
} from "./render/table.js";
import { Sound } from "./sound.js";
import { pageOpen, renderPage, replayLink, startPages } from "./pages.js";
import { renderTracker } from "./render/tracker.js";

const TOKEN_KEY = "shuangkou.token";
const SORT_KEY = "shuangkou.sort";
const HOSTING_KEY = "shuangkou.hosting.";
const TRACKER_KEY = "shuangkou.tracker";
const RANK_KEYS = {
  3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 0: "10", t: "10",
  j: "J", q: "Q", k: "K", a: "A", 2: "2", x: "SJ", d: "BJ",
};

let state = S.initialState({
  token: localStorage.getItem(TOKEN_KEY),
  invite: new URLSearchParams(location.search).get("table"),
  sort: localStorage.getItem(SORT_KEY),
});
state = S.showTracker(state, localStorage.getItem(TRACKER_KEY) === "1");
let link = null;
let drag = null; // a selection by dragging across the hand: {on, pointer, last, row}
const sound = new Sound(localStorage);
let ticked = null; // the last "time running out" tick: {deadline, seconds}

const actions = { join, leave, ready, copyInvite, fillBots, acceptBots, copyGameId, dismissReport, replay: replayLink };

// ---------------------------------------------------------------------------
// Drawing

function render() {
  renderView(state);
  renderTopbar(state, actions);
  renderSound(sound);
  renderSortLabel(state);
  if (state.view === "lobby") renderLobby(state, actions);
  if (state.view === "table") renderTable(state, actions, Date.now());
  if (state.view === "login") renderLogin(state);
  renderConnection(state, Date.now());
}

/** The selection changed: marks on the cards, the message and the buttons. */
function selectionChanged() {
  renderSelection(state);
  renderMessage(state);
  renderActions(state);
}

function showLogin() {
  state = S.showLoginView(state);
  renderView(state);
  renderTopbar(state, actions);
  renderLogin(state, { focus: true });
}

async function enterLobby() {
  state = S.showLobby(state);
  renderView(state);
  renderTopbar(state, actions);
  renderLobby(state, actions);
  await refreshAccount(); // an escape is settled before the server answers `left`
  state = S.leavingDone(state);
}

// ---------------------------------------------------------------------------
// Connection

// A cluster's node may send us to the node that runs our table (`redirect`); the page's own
// server answers everything else. A link to that node that drops asks the page's server again.
let redirectedTo = null;

function wsUrl() {
  const base = redirectedTo ? new URL(redirectedTo) : location;
  const scheme = base.protocol === "https:" ? "wss" : "ws";
  return `${scheme}://${base.host}/ws?token=${encodeURIComponent(state.token)}`;
}

function connect() {
  if (!link) link = new Link({ url: wsUrl, onMessage: receive, onStatus: onLinkStatus });
  link.start();
}

function send(message) {
  if (link && link.send(message)) return true;
  toast(() => t("conn.notConnected"), "error");
  return false;
}

function onLinkStatus(status, delay) {
  if (status === "waiting") redirectedTo = null;
  state = S.linkStatus(state, status, Date.now(), delay);
  renderConnection(state, Date.now());
}

function receive(message) {
  switch (message.type) {
    case "welcome":
      state = S.receiveWelcome(state, message);
      link.send({ type: "ping" }); // answered after the table's state when we are seated
      break;
    case "pong":
      onPong();
      break;
    case "state":
      onState(message);
      if (message.moves) receive({ type: "hint", seq: message.table.seq, moves: message.moves }); // our turn's moves
      break;
    case "hint": {
      const wanted = state.hintWanted;
      state = S.receiveHint(state, message);
      if (wanted && !state.hintWanted) hintShown();
      renderActions(state);
      break;
    }
    case "notice":
      onNotice(message);
      break;
    case "error":
      onError(message);
      break;
    case "left":
      state = S.receiveLeft(state, message);
      enterLobby();
      if (message.hosted) toast(() => t("left.hosted"), "warn", 6000); // an escaper's hosted seat plays on (R10.1)
      break;
    case "closed":
      onClosed(message.reason);
      break;
    case "redirect":
      state = S.receiveRedirect(state, message);
      link.restart(); // drops this socket ("waiting" forgets any earlier node), reconnects on the next tick
      redirectedTo = message.url;
      break;
    default:
      break;
  }
}

function onPong() {
  const notSeated = S.isNotSeatedPong(state);
  state = S.receivePong(state);
  if (!notSeated) return;
  const join = S.pendingJoin(state);
  if (join) send(join);
  else enterLobby();
}

/** The invited table's id leaves the address bar once the invitation is used. */
function clearInviteUrl() {
  const url = new URL(location.href);
  if (url.searchParams.has("table")) {
    url.searchParams.delete("table");
    history.replaceState(null, "", url.pathname + url.search + url.hash);
  }
}

function onClosed(reason) {
  state = S.receiveClosed(state, reason);
  switch (reason) {
    case "not_ready":
    case "table_closed":
      link.restart();
      enterLobby();
      toast(() => t(`closed.${reason}`), reason === "not_ready" ? "warn" : "info", reason === "not_ready" ? 5000 : 3600);
      break;
    case "replaced":
      link.stop();
      confirmDialog({
        title: t("closed.replaced.title"),
        body: t("closed.replaced.body"),
        ok: t("closed.replaced.ok"),
        cancel: null,
        tone: "primary",
      }).then(() => link.restart());
      break;
    case "shutdown":
      toast(() => t("closed.shutdown"), "warn", 5000);
      break;
    default:
      break;
  }
}

// ---------------------------------------------------------------------------
// Account and lobby

async function loadMe() {
  const account = await api("/api/me", { token: state.token });
  state = S.receiveAccount(state, account);
  return account;
}

function signOut() {
  state = S.forgetToken(state);
  localStorage.removeItem(TOKEN_KEY);
  if (link) link.stop();
  link = null;
  showLogin();
}

async function refreshAccount() {
  try {
    const [, rooms] = await Promise.all([loadMe(), api("/api/rooms")]);
    state = S.receiveRooms(state, rooms.rooms);
  } catch (problem) {
    if (problem.status === 401) {
      signOut();
      return;
    }
  }
  if (state.view === "lobby") renderLobby(state, actions);
}

function join(room, opponent) {
  if (state.joining) return;
  state = S.joinRequested(state, opponent);
  renderLobby(state, actions);
  if (!send({ type: "join", room, opponent })) {
    state = S.joinFailed(state);
    renderLobby(state, actions);
  }
}

async function submitLogin(event) {
  event.preventDefault();
  const name = $("#login-name").value.trim();
  renderLoginError(null);
  if (!name) {
    renderLoginError(t("login.empty"));
    return;
  }
  $("#login-go").disabled = true;
  try {
    const data = await api("/api/guest", { method: "POST", body: { name } });
    state = S.signedIn(state, data);
    localStorage.setItem(TOKEN_KEY, state.token);
    connect();
  } catch (problem) {
    renderLoginError(problem.code === "bad_name" ? t("err.bad_name") : t("err.network"));
  } finally {
    $("#login-go").disabled = false;
  }
}

// ---------------------------------------------------------------------------
// The table

function onState(message) {
  const before = state;
  if (before.invite) clearInviteUrl();
  state = S.receiveState(state, message);
  if (state.gameId !== before.gameId) forgetOldHosting(state.gameId);
  const events = message.events || [];
  renderView(state);
  events.forEach(tellEvent);
  resumeControl();
  sayReady();
  renderTopbar(state, actions);
  renderTable(state, actions, Date.now());
  if (before.invite && message.table.id !== before.invite) toast(() => t("invite.alreadySeated"), "warn", 5000);
  if (S.isMyTurn(state) && !S.isMyTurn(before) && !S.hostingOn(state)) {
    announce(t("msg.yourTurn"));
    sound.play("turn");
  }
  if (state.table.phase === "settled" && before.table?.phase === "playing") {
    sound.play(state.table.settlement?.deltas?.[state.table.you] >= 0 ? "win" : "lose");
  }
  state = S.dealShown(state);
}

/** Against bots the player asked to play: the page says Ready for them (once). */
function sayReady() {
  if (!S.shouldSendReady(state)) return;
  state = S.readySent(state);
  send({ type: "ready" });
}

/** After a reconnect, hosting that the connection loss switched on is switched off again. */
function resumeControl() {
  if (!S.shouldResumeControl(state, localStorage.getItem(HOSTING_KEY + state.table.game_id))) return;
  send({ type: "hosting", on: false });
  toast(() => t("conn.resumed"), "info");
}

function rememberHosting(reason) {
  if (state.gameId) localStorage.setItem(HOSTING_KEY + state.gameId, reason);
}

function forgetOldHosting(current) {
  for (let i = localStorage.length - 1; i >= 0; i -= 1) {
    const key = localStorage.key(i);
    if (key && key.startsWith(HOSTING_KEY) && key !== HOSTING_KEY + current) localStorage.removeItem(key);
  }
}

/** What an event says to the player: announcements, toasts, sounds, the bomb banner (a
 * play's `combo` view). Toasts and banners are words in the current language, redrawn when
 * it changes. */
function tellEvent(event) {
  const combo = event.combo;
  const seat = event.seat;
  const mine = seat === S.mySeat(state);
  const name = () => seatName(state, seat);
  const tell = (words, kind, ms) => {
    toast(words, kind, ms);
    announce(words());
  };
  switch (event.type) {
    case "deal": {
      const game = state.table.game;
      const flip = game?.flip_card;
      announce(t("ev.deal", { name: seatName(state, game?.leader), card: flip ? cardLabel(parseCard(flip)) : "" }));
      break;
    }
    case "play": {
      const bomb = S.isBomb(combo);
      sound.play(bomb ? "bomb" : "play");
      if (bomb && S.isPlaying(state)) {
        showBanner("bomb", () => [t("ev.bombTitle", { phase: phaseText(combo.phase) }),
          t("ev.played", { name: name(), combo: describeCombo(combo) })]);
      }
      const how = event.cause && event.cause !== "player" ? ` (${t(`cause.${event.cause}`)})` : "";
      announce(`${t("ev.played", { name: name(), combo: describeCombo(combo) })}${how}`);
      break;
    }
    case "pass":
      sound.play("pass");
      announce(t(`bubble.${event.cause || "player"}`) + ` — ${name()}`);
      break;
    case "timeout":
      if (!mine) toast(() => t("ev.oppTimeout", { name: name(), count: event.count }), "info");
      break;
    case "hosting": {
      const cause = event.cause || "player";
      if (mine) {
        if (event.on) rememberHosting(cause);
        else if (state.gameId) localStorage.removeItem(HOSTING_KEY + state.gameId);
        toast(() => (event.on ? t(`ev.hostingOn.${cause}`) : t("ev.hostingOff")), event.on ? "warn" : "info");
      } else {
        toast(() => (event.on ? t("ev.oppHostingOn", { name: name() }) : t("ev.oppHostingOff", { name: name() })), "info");
      }
      break;
    }
    case "escape":
      if (!mine) toast(() => t("ev.oppEscaped", { name: name() }), "warn", 5000);
      break;
    case "out": {
      const place = () => t(`place.${event.place}`);
      tell(() => (mine ? t("ev.youOut", { place: place() }) : t("ev.out", { name: name(), place: place() })), "info");
      break;
    }
    case "jiefeng": {
      const words = () => (mine ? t("round.youJiefeng") : t("round.jiefeng", { name: name() }));
      showBanner("jiefeng", () => [t("ev.jiefengTitle"), words()]);
      announce(words());
      break;
    }
    case "swap":
      tell(() => t("deal.swap", { a: name(), b: seatName(state, event.with) }), "warn", 6000);
      break;
    default:
      break;
  }
}

function onNotice(message) {
  if (message.code === "timed_out") {
    toast(() => t("notice.timedOut", { count: message.count }), "warn", 4500);
    state = S.receiveNotice(state, message);
    renderMessage(state);
  } else if (message.code === "settling") {
    toast(() => t("notice.settling"), "warn", 6000);
  } else if (message.code === "bots_offered") {
    state = S.receiveNotice(state, message);
    renderTable(state, actions, Date.now());
    announce(t("offer.title", { count: message.count }));
  } else {
    toast(message.message, "info");
  }
}

function onError(message) {
  const outcome = S.errorOutcome(state, message);
  const said = { code: message.code, text: message.message, onTable: S.currentGame(state)?.table?.combo || null };
  const text = () => messageText(said);
  state = S.receiveError(state, message);
  switch (outcome) {
    case "login":
      signOut();
      break;
    case "invite":
      clearInviteUrl();
      enterLobby();
      toast(text, "error", 5000);
      break;
    case "rejoin":
      link.restart();
      break;
    case "play":
      renderMessage(state);
      shakeSelection();
      renderActions(state);
      break;
    default:
      toast(text, "error", 4500);
      if (state.view === "lobby") renderLobby(state, actions);
  }
}

// ---------------------------------------------------------------------------
// The hand

/** Focus moved to another card (by key or by a reducer): the page's focus follows. */
function refocus(next) {
  const moved = next.focusKey !== state.focusKey;
  state = next;
  if (moved) focusHand(state);
}

function bindHand() {
  const hand = $("#hand");
  hand.addEventListener("pointerdown", (event) => {
    if (event.button !== 0) return;
    const node = event.target.closest(".card[data-key]");
    if (!node) return;
    event.preventDefault();
    const key = node.dataset.key;
    const on = !state.selected.includes(key);
    drag = { on, pointer: event.pointerId, last: Number(node.dataset.index), row: node.dataset.row };
    state = S.focusCard(S.setSelected(state, [key], on), key);
    focusHand(state);
    try { hand.setPointerCapture(event.pointerId); } catch { /* not capturable */ }
    selectionChanged();
  });
  hand.addEventListener("pointermove", (event) => {
    if (!drag || event.pointerId !== drag.pointer) return;
    const target = document.elementFromPoint(event.clientX, event.clientY);
    const node = target?.closest?.("#hand .card[data-key]");
    if (!node || node.dataset.row !== drag.row) return;
    const index = Number(node.dataset.index);
    if (index === drag.last) return;
    const nodes = handNodes();
    const [from, to] = index > drag.last ? [drag.last + 1, index] : [index, drag.last - 1];
    state = S.setSelected(state, nodes.slice(from, to + 1).map((card) => card.dataset.key), drag.on);
    drag.last = index;
    selectionChanged();
  });
  const end = (event) => {
    if (drag && event.pointerId === drag.pointer) drag = null;
  };
  hand.addEventListener("pointerup", end);
  hand.addEventListener("pointercancel", end);
  hand.addEventListener("focusin", (event) => {
    const node = event.target.closest(".card[data-key]");
    if (node) state = S.focusCard(state, node.dataset.key);
  });
  new ResizeObserver(() => {
    if (state.view !== "table") return;
    const rows = hand.querySelectorAll(".hand-row").length;
    if (state.hand.length && rows !== handRows(state.hand.length)) renderHand(state);
    else layoutHand();
  }).observe(hand);
}

// ---------------------------------------------------------------------------
// Actions

function hint() {
  state = S.hint(state);
  hintShown();
}

/** A hint selected cards: with the focus in the hand, it moves to the first of them. */
function hintShown() {
  selectionChanged();
  const first = handNodes().find((node) => state.selected.includes(node.dataset.key));
  if (first && document.activeElement?.closest?.("#hand")) refocus(S.focusCard(state, first.dataset.key));
}

/** Send what a reducer decided (a play or a pass), or show what it said instead. */
function act({ state: next, send: message }) {
  state = next;
  if (message) {
    if (send(message)) {
      state = S.sent(state);
      renderActions(state);
    }
  } else {
    renderMessage(state);
  }
}

function play() {
  act(S.play(state));
}

function pass() {
  act(S.pass(state));
}

function toggleHosting() {
  if (!S.isPlaying(state)) return;
  const on = !S.hostingOn(state);
  if (on) rememberHosting("player");
  send({ type: "hosting", on });
}

function toggleSort() {
  state = S.toggleSort(state);
  localStorage.setItem(SORT_KEY, state.sort);
  renderSortLabel(state);
  renderHand(state);
}

function ready() {
  send({ type: "ready" });
}

async function leave() {
  if (!state.table) return;
  const escape = S.escapeDialog(state);
  if (escape) {
    const body = [];
    if (S.isFourSeat(state)) {
      body.push(t(escape.mode === "host" ? "leave.bodyHost4" : "leave.bodySettle4", { penalty: money(escape.penalty, escape.edition) }));
    } else if (escape.mode === "host") {
      body.push(t("leave.bodyHost"));
    } else {
      body.push(t("leave.bodySettle", { penalty: money(escape.penalty, escape.edition) }));
      if (escape.played) body.push(t("leave.bodyPlayed"));
    }
    const charge = S.escapeCharge(state);
    body.push(h("strong", { "data-testid": "escape-total" }, chargeText(charge)));
    if (charge.when === "now" && (charge.rest || charge.fee)) body.push(h("span", { "data-testid": "escape-breakdown" }, breakdownText(charge)));
    const ok = await confirmDialog({
      title: t("leave.title"),
      body,
      ok: t("leave.confirm"),
      cancel: t("leave.stay"),
      tone: "danger",
      testid: "escape-dialog",
    });
    if (!ok) return;
  }
  state = S.leaveRequested(state);
  send({ type: "leave" });
}

/** What the escape dialog says leaving charges in all (`S.escapeCharge`): the server's exact total. */
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

/** Bots sit down in every free seat of our table (an invitation, or a quick match still waiting). */
function fillBots() {
  send({ type: "bots" });
}

/** The server's offer of bots is taken: they sit down and the page says Ready for the player. */
function acceptBots() {
  if (!send({ type: "bots" })) return;
  state = S.botsAccepted(state);
  renderTable(state, actions, Date.now());
}

function dismissReport() {
  state = S.dismissEscapeReport(state);
  renderLobby(state, actions);
}

/** Copy a read-only field (the invitation link, the game id) and say so. */
function copyField(selector, doneKey) {
  const input = $(selector);
  if (!input) return;
  input.select();
  const done = () => toast(() => t(doneKey), "info");
  if (navigator.clipboard?.writeText) navigator.clipboard.writeText(input.value).then(done, () => document.execCommand("copy") && done());
  else if (document.execCommand("copy")) done();
}

function copyInvite() {
  copyField("#invite-link", "invite.copied");
}

function copyGameId() {
  copyField("#game-id", "result.idCopied");
}

function toggleSound() {
  sound.setMuted(!sound.muted);
  renderSound(sound);
}

/** The card tracker (记牌器) shown or hidden, remembered by the browser. */
function toggleTracker() {
  state = S.toggleTracker(state);
  localStorage.setItem(TRACKER_KEY, state.trackerShown ? "1" : "0");
  renderTracker(state);
}

function toggleHistory() {
  state = S.toggleHistory(state);
  renderHistory(state);
}

// ---------------------------------------------------------------------------
// Timers and keyboard

function tick() {
  const now = Date.now();
  renderTimers(now);
  tickLastSeconds(now);
  if (!$("#conn-banner").hidden) renderConnection(state, now);
}

/** The last seconds of our turn: a tick each second. */
function tickLastSeconds(now) {
  const table = state.table;
  if (!S.isMyTurn(state) || S.hostingOn(state) || !table.turn_deadline) return;
  const { seconds, urgent } = S.turnTimer(table.turn_deadline, table.turn_seconds, now);
  if (!urgent || seconds <= 0 || (ticked && ticked.deadline === table.turn_deadline && ticked.seconds === seconds)) return;
  ticked = { deadline: table.turn_deadline, seconds };
  sound.play("tick");
}

function onKey(event) {
  if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
  if (document.querySelector("dialog[open]")) return;
  const target = event.target;
  const tag = target?.tagName;
  if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
  if (event.key === "?") {
    event.preventDefault();
    openHelp();
    return;
  }
  if (pageOpen()) return; // the history and the replay have keys of their own (pages.js)
  if (state.view !== "table" || !state.table) return;
  const onButton = tag === "BUTTON" || tag === "A";
  const inHand = Boolean(target?.closest?.("#hand"));
  if (!$("#result").hidden) return;
  const key = event.key;
  switch (key) {
    case "Enter":
      if (onButton) return;
      event.preventDefault();
      play();
      return;
    case " ":
      if (!inHand) return;
      event.preventDefault();
      state = S.toggleCard(state, S.focusedKey(state));
      selectionChanged();
      return;
    case "ArrowLeft":
    case "ArrowRight":
      event.preventDefault();
      state = S.moveFocus(state, key === "ArrowLeft" ? -1 : 1);
      focusHand(state);
      return;
    case "Home":
    case "End":
      if (!inHand) return;
      event.preventDefault();
      state = S.moveFocus(state, 0, key === "Home" ? 0 : -1);
      focusHand(state);
      return;
    case "ArrowUp":
    case "ArrowDown":
      if (!inHand) return;
      event.preventDefault();
      state = S.setSelected(state, [S.focusedKey(state)], key === "ArrowUp");
      selectionChanged();
      return;
    case "Escape":
      state = S.clearSelection(state);
      selectionChanged();
      return;
    default:
      break;
  }
  const lower = key.toLowerCase();
  if (lower === "p") {
    event.preventDefault();
    pass();
  } else if (lower === "h") {
    event.preventDefault();
    hint();
  } else if (lower === "s") {
    event.preventDefault();
    toggleSort();
  } else if (lower === "c") {
    event.preventDefault();
    toggleTracker();
  } else if (lower in RANK_KEYS && key.length === 1) {
    event.preventDefault();
    refocus(S.selectRank(state, RANK_KEYS[lower]));
    selectionChanged();
  }
}

// ---------------------------------------------------------------------------
// Start

async function start() {
  applyStatic();
  renderSortLabel(state);
  renderSound(sound);
  for (const button of document.querySelectorAll(".lang-switch [data-lang]")) {
    button.addEventListener("click", () => {
      setLang(button.dataset.lang);
      applyStatic();
      render();
      renderPage();
      redrawToasts();
    });
  }
  $("#login-form").addEventListener("submit", submitLogin);
  $("#btn-play").addEventListener("click", play);
  $("#btn-pass").addEventListener("click", pass);
  $("#btn-hint").addEventListener("click", hint);
  $("#btn-hosting").addEventListener("click", toggleHosting);
  $("#btn-sort").addEventListener("click", toggleSort);
  $("#btn-help").addEventListener("click", openHelp);
  $("#btn-sound").addEventListener("click", toggleSound);
  $("#btn-history").addEventListener("click", toggleHistory);
  $("#btn-tracker").addEventListener("click", toggleTracker);
  $("#history-list").addEventListener("scroll", updateHistoryMore, { passive: true });
  $("#history-more").addEventListener("click", () => {
    const list = $("#history-list");
    list.scrollTo({ top: list.scrollHeight, behavior: "smooth" });
  });
  window.addEventListener("resize", updateHistoryMore);
  for (const type of ["pointerdown", "keydown"]) document.addEventListener(type, () => sound.allow(), { once: true, capture: true });
  $("#btn-reconnect").addEventListener("click", () => link?.wake());
  document.addEventListener("keydown", onKey);
  bindHand();
  setInterval(tick, 250);
  setInterval(() => {
    if (state.view === "lobby" && document.visibilityState === "visible" && !state.joining) refreshAccount();
  }, 15000);
  window.shuangkou = { get state() { return state; }, receive, sound }; // for debugging in the console

  // A page opened by its address (a replay link in a new tab) waits before taking the seat.
  const onPage = startPages({ token: () => state.token, rooms: () => state.rooms, closed: () => state.token && !link && connect() });
  if (!state.token) {
    showLogin();
    return;
  }
  try {
    await loadMe();
  } catch (problem) {
    if (problem.status === 401) {
      signOut();
      return;
    }
  }
  renderTopbar(state, actions);
  if (!onPage) connect();
}

start();
