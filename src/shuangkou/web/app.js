// The browser client: lobby, table, result screen. All state comes from the server
// (`state` messages carry the whole table); this module only draws it and sends what the
// player does. Legality comes from the server's hints and errors.

import { t, getLang, setLang, applyStatic, formatNumber } from "./i18n.js";
import {
  BOMB_KINDS, cardBack, cardFace, cardLabel, describeCombo, jokerStandIns, parseCard, parseCards, phaseText,
  readingText, sortCards,
} from "./cards.js";
import { api, Link } from "./net.js";

const TOKEN_KEY = "shuangkou.token";
const SORT_KEY = "shuangkou.sort";
const HOSTING_KEY = "shuangkou.hosting.";
const RANK_KEYS = {
  3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 0: "10", t: "10",
  j: "J", q: "Q", k: "K", a: "A", 2: "2", x: "SJ", d: "BJ",
};
const SHIPPED_TITLES = { "Points room": "points", "Wealth room": "wealth" };

const $ = (selector, root = document) => root.querySelector(selector);

/** Build an element: h("button", {class: "btn", onclick}, "text", child). */
function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") node.addEventListener(name.slice(2), value);
    else if (name === "class") node.className = value;
    else if (name === "dataset") Object.assign(node.dataset, value);
    else if (name === "text") node.textContent = value;
    else node.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

const S = {
  token: localStorage.getItem(TOKEN_KEY),
  account: null,
  levels: {},
  rooms: [],
  view: null,
  table: null,
  invite: new URLSearchParams(location.search).get("table"),
  link: null,
  status: "idle",
  everOpen: false,
  awaitingPong: false,
  gotState: false,
  statesOnConnection: 0,
  sort: localStorage.getItem(SORT_KEY) === "group" ? "group" : "rank",
  hand: [],
  handSignature: "",
  selected: new Set(),
  focusKey: null,
  drag: null,
  hint: null,
  hintApplied: null,
  pendingHint: false,
  busy: false,
  bubbles: [null, null],
  gameId: null,
  names: {},
  message: null,
  joining: false,
  leaving: null,
  dealAnimation: false,
  reconnectAt: 0,
};

// ---------------------------------------------------------------------------
// Small helpers

const me = () => (S.table ? S.table.you : null);
const opp = () => (S.table && S.table.you !== null ? 1 - S.table.you : null);
const game = () => (S.table ? S.table.game : null);
const playing = () => S.table?.phase === "playing" && game() && !game().finished;
const myTurn = () => playing() && game().to_act === me();

/** A seat's name as shown: bots created by the server are all called "Bot". */
function displayName(seat, index = null) {
  if (!seat) return (index !== null && S.names[index]) || t("seat.opponent");
  return seat.bot && seat.name === "Bot" ? t("seat.botName") : seat.name;
}

function seatName(index) {
  if (index === null || index === undefined) return "";
  if (index === me()) return t("seat.you");
  return displayName(S.table?.seats?.[index], index);
}

function unit(edition) {
  return t(`unit.${edition || S.table?.edition || "points"}`);
}

function money(amount, edition) {
  if (amount === null || amount === undefined) return "—";
  return `${formatNumber(amount)} ${unit(edition)}`;
}

function signed(amount) {
  if (amount > 0) return `+${formatNumber(amount)}`;
  if (amount < 0) return `−${formatNumber(-amount)}`;
  return "0";
}

function announce(text) {
  const live = $("#sr-live");
  live.textContent = "";
  requestAnimationFrame(() => { live.textContent = text; });
}

function toast(text, kind = "info", ms = 3600) {
  const node = h("div", { class: `toast toast-${kind}`, role: kind === "error" ? "alert" : "status" }, text);
  $("#toasts").append(node);
  requestAnimationFrame(() => node.classList.add("show"));
  setTimeout(() => {
    node.classList.remove("show");
    setTimeout(() => node.remove(), 400);
  }, ms);
}

function showView(name) {
  if (S.view === name) return;
  S.view = name;
  for (const view of ["login", "lobby", "table"]) $(`#view-${view}`).hidden = view !== name;
  document.body.dataset.view = name;
  renderTopbar();
}

function remainingMs(deadline, total) {
  if (!deadline) return null;
  const left = deadline - Date.now();
  return Math.max(0, Math.min(left, (total || 3600) * 1000));
}

// ---------------------------------------------------------------------------
// Connection

function wsUrl() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  return `${scheme}://${location.host}/ws?token=${encodeURIComponent(S.token)}`;
}

function connect() {
  if (!S.link) {
    S.link = new Link({ url: wsUrl, onMessage: receive, onStatus: linkStatus });
  }
  S.link.start();
}

function send(message) {
  if (S.link && S.link.send(message)) return true;
  toast(t("conn.notConnected"), "error");
  return false;
}

function linkStatus(status, delay) {
  S.status = status;
  if (status === "open") {
    S.everOpen = true;
    S.pendingHint = false;
    S.statesOnConnection = 0;
  }
  if (status === "waiting") S.reconnectAt = Date.now() + delay;
  renderConnection();
}

function renderConnection() {
  const banner = $("#conn-banner");
  const show = S.everOpen && (S.status === "waiting" || S.status === "connecting");
  banner.hidden = !show;
  document.body.classList.toggle("offline", show);
  if (!show) return;
  const text = $("#conn-text");
  if (S.status === "waiting") {
    const seconds = Math.max(0, Math.ceil((S.reconnectAt - Date.now()) / 1000));
    text.textContent = t("conn.lost", { s: seconds });
  } else {
    text.textContent = t("conn.connecting");
  }
}

function receive(message) {
  switch (message.type) {
    case "welcome":
      S.account = message.account ?? S.account;
      if (Array.isArray(message.rooms)) S.rooms = message.rooms;
      S.gotState = false;
      S.awaitingPong = true;
      S.statesOnConnection = 0;
      S.link.send({ type: "ping" }); // answered after the table's state when we are seated
      if (message.table) onState({ events: [], table: message.table });
      break;
    case "pong":
      if (S.awaitingPong) {
        S.awaitingPong = false;
        if (!S.gotState) notSeated();
      }
      break;
    case "state":
      onState(message);
      break;
    case "hint":
      onHint(message);
      break;
    case "notice":
      onNotice(message);
      break;
    case "error":
      onError(message);
      break;
    case "left":
      onLeft(message);
      break;
    case "closed":
      onClosed(message.reason);
      break;
    default:
      break;
  }
}

function notSeated() {
  S.table = null;
  if (S.invite) {
    S.joining = true;
    send({ type: "join", table: S.invite });
    return;
  }
  enterLobby();
}

function clearInvite() {
  S.invite = null;
  const url = new URL(location.href);
  if (url.searchParams.has("table")) {
    url.searchParams.delete("table");
    history.replaceState(null, "", url.pathname + url.search + url.hash);
  }
}

function onLeft(message) {
  // The connection stays open: back to the lobby. An escaper's hosted seat plays on (R10.1).
  if (message.hosted) toast(t("left.hosted"), "warn", 6000);
  S.table = null;
  enterLobby();
}

function onClosed(reason) {
  switch (reason) {
    case "not_ready":
    case "table_closed": {
      if (reason === "not_ready") toast(t("closed.not_ready"), "warn", 5000);
      if (reason === "table_closed") toast(t("closed.table_closed"), "info");
      S.table = null;
      S.link.restart();
      enterLobby();
      break;
    }
    case "replaced":
      S.link.stop();
      S.table = null;
      confirmDialog({
        title: t("closed.replaced.title"),
        body: t("closed.replaced.body"),
        ok: t("closed.replaced.ok"),
        cancel: null,
        tone: "primary",
      }).then(() => S.link.restart());
      break;
    case "shutdown":
      toast(t("closed.shutdown"), "warn", 5000);
      break;
    default:
      break;
  }
}

// ---------------------------------------------------------------------------
// Account and lobby

async function loadMe() {
  const data = await api("/api/me", { token: S.token });
  S.account = data;
  S.levels = data.levels || {};
  return data;
}

function forgetToken() {
  S.token = null;
  localStorage.removeItem(TOKEN_KEY);
  if (S.link) S.link.stop();
  S.link = null;
  S.account = null;
}

async function enterLobby() {
  S.joining = false;
  showView("lobby");
  renderLobby();
  await refreshAccount(); // an escape is settled before the server answers `left`
  S.leaving = null;
}

async function refreshAccount() {
  try {
    const [me, rooms] = await Promise.all([loadMe(), api("/api/rooms")]);
    S.rooms = rooms.rooms || S.rooms;
    const leaving = S.leaving;
    if (leaving && leaving.balance !== null && me.balances) {
      const after = me.balances[leaving.edition];
      if (after !== undefined && after !== leaving.balance) {
        toast(t("leave.done", { delta: signed(after - leaving.balance), unit: unit(leaving.edition) }), "warn", 6000);
        S.leaving = null;
      }
    }
  } catch (problem) {
    if (problem.status === 401) {
      forgetToken();
      showLogin();
      return;
    }
  }
  if (S.view === "lobby") renderLobby();
}

function join(room, opponent) {
  if (S.joining) return;
  S.joining = true;
  renderLobby();
  if (!send({ type: "join", room, opponent })) {
    S.joining = false;
    renderLobby();
  }
}

function roomTitle(room) {
  const shipped = SHIPPED_TITLES[room.title];
  return shipped ? t(`room.${shipped}`) : room.title;
}

function renderLobby() {
  if (S.view !== "lobby") return;
  renderRules();
  const account = S.account;
  $("#lobby-greeting").textContent = account ? t("lobby.hello", { name: account.name }) : "";
  const wallets = $("#wallets");
  wallets.replaceChildren();
  const balances = account?.balances || {};
  for (const edition of Object.keys(balances).sort()) {
    const level = S.levels?.[edition];
    wallets.append(
      h("div", { class: `wallet wallet-${edition}`, "data-testid": `wallet-${edition}` },
        h("span", { class: "wallet-label" }, t(`edition.${edition}`)),
        h("span", { class: "wallet-amount", "data-testid": `balance-${edition}` }, formatNumber(balances[edition])),
        h("span", { class: "wallet-unit" }, unit(edition)),
        level !== undefined ? h("span", { class: "wallet-level", "data-testid": `level-${edition}` },
          t("lobby.level", { level })) : null),
    );
  }
  const rooms = $("#rooms");
  rooms.replaceChildren();
  for (const room of S.rooms) {
    const balance = balances[room.edition];
    const tooPoor = room.entry !== null && room.entry !== undefined && balance !== undefined && balance < room.entry;
    const disabled = S.joining || !room.open || tooPoor || S.status !== "open";
    const facts = h("dl", { class: "room-facts" },
      h("div", {}, h("dt", {}, t("room.stakes")),
        h("dd", {}, t("room.stakesValue", { lo: formatNumber(room.stakes[0]), hi: formatNumber(room.stakes[1]) }))),
      h("div", {}, h("dt", {}, t("room.turn")), h("dd", {}, t("room.seconds", { s: formatNumber(room.turn_seconds) }))),
      room.entry ? h("div", {}, h("dt", {}, t("room.entry")), h("dd", {}, money(room.entry, room.edition))) : null,
      h("div", {}, h("dt", {}, t("room.players")), h("dd", {}, formatNumber(room.players))),
    );
    const note = !room.open ? t("room.closed") : tooPoor ? t("room.tooPoor", { entry: money(room.entry, room.edition) }) : null;
    rooms.append(
      h("article", { class: `room room-${room.edition}`, "data-room": room.name, "aria-labelledby": `room-${room.name}` },
        h("header", { class: "room-head" },
          h("span", { class: "room-badge" }, t(`edition.${room.edition}`)),
          h("h3", { id: `room-${room.name}` }, roomTitle(room))),
        facts,
        note ? h("p", { class: "room-note" }, note) : null,
        h("div", { class: "room-actions" },
          h("button", { type: "button", class: "btn primary", disabled, "data-action": "quick",
            onclick: () => join(room.name, "human") }, t("room.quick")),
          h("button", { type: "button", class: "btn secondary", disabled, "data-action": "bot",
            onclick: () => join(room.name, "bot") }, t("room.bot")),
          h("button", { type: "button", class: "btn ghost", disabled, "data-action": "invite",
            onclick: () => join(room.name, "invite") }, t("room.invite")))),
    );
  }
}

function renderRules() {
  const list = $("#rules");
  const suits = ["♠", "♥", "♣", "♦"];
  list.replaceChildren(...["help.rule1", "help.rule2", "help.rule3", "help.rule4"].map((key, index) =>
    h("li", {}, h("span", { class: `rule-suit ${index % 2 ? "red" : ""}`, "aria-hidden": "true" }, suits[index]), h("span", {}, t(key)))));
}

function showLogin() {
  showView("login");
  $("#login-invite").hidden = !S.invite;
  const fan = $("#login-fan");
  if (!fan.childElementCount) {
    for (const text of ["BJ", "AS", "KH", "QC", "JD", "SJ"]) fan.append(cardFace(parseCard(text)));
  }
  setTimeout(() => $("#login-name").focus(), 50);
}

async function submitLogin(event) {
  event.preventDefault();
  const input = $("#login-name");
  const error = $("#login-error");
  const name = input.value.trim();
  error.hidden = true;
  if (!name) {
    error.textContent = t("login.empty");
    error.hidden = false;
    return;
  }
  $("#login-go").disabled = true;
  try {
    const data = await api("/api/guest", { method: "POST", body: { name } });
    S.token = data.token;
    S.account = data.account;
    localStorage.setItem(TOKEN_KEY, S.token);
    connect();
  } catch (problem) {
    error.textContent = problem.code === "bad_name" ? t("err.bad_name") : t("err.network");
    error.hidden = false;
  } finally {
    $("#login-go").disabled = false;
  }
}

// ---------------------------------------------------------------------------
// Table state

function onState(message) {
  const table = message.table;
  S.gotState = true;
  S.statesOnConnection += 1;
  S.joining = false;
  S.busy = false;
  if (S.invite) {
    if (table.id !== S.invite) toast(t("invite.alreadySeated"), "warn", 5000);
    clearInvite();
  }
  const newGame = table.game_id !== S.gameId;
  if (newGame) {
    S.gameId = table.game_id;
    S.selected.clear();
    S.hint = null;
    S.hintApplied = null;
    S.bubbles = [null, null];
    S.message = null;
    S.dealAnimation = (message.events || []).some((event) => event.type === "deal");
    forgetOldHosting(table.game_id);
  }
  if (S.table && S.table.seq !== table.seq) S.hint = null; // moves are given for one state
  if (!S.table || S.table.id !== table.id) S.names = {};
  table.seats.forEach((seat, index) => { if (seat) S.names[index] = displayName(seat); });
  S.table = table;
  for (const event of message.events || []) onEvent(event);
  syncHand(table.game?.hand || []);
  const wasMyTurn = S.myTurn;
  S.myTurn = Boolean(myTurn());
  resumeControl(table);
  showView("table");
  renderTable();
  prefetchHint();
  if (S.myTurn && !wasMyTurn && !game().hosting[me()]) announce(t("msg.yourTurn"));
  S.dealAnimation = false;
}

/** After a reconnect, hosting that the connection loss switched on is switched off again. */
function resumeControl(table) {
  const current = table.game;
  if (S.statesOnConnection !== 1 || !current || current.finished || table.phase !== "playing") return;
  const seat = table.you;
  if (seat === null || !current.hosting[seat] || current.escaped === seat) return; // an escape stays hosted (R10.1)
  const reason = localStorage.getItem(HOSTING_KEY + table.game_id);
  if (reason === "player" || reason === "timeout") return;
  send({ type: "hosting", on: false });
  toast(t("conn.resumed"), "info");
}

function rememberHosting(reason) {
  if (S.gameId) localStorage.setItem(HOSTING_KEY + S.gameId, reason);
}

function forgetOldHosting(current) {
  for (let i = localStorage.length - 1; i >= 0; i -= 1) {
    const key = localStorage.key(i);
    if (key && key.startsWith(HOSTING_KEY) && key !== HOSTING_KEY + current) localStorage.removeItem(key);
  }
}

function onEvent(event) {
  const seat = event.seat;
  const name = seatName(seat);
  switch (event.type) {
    case "deal": {
      const flip = S.table.game?.flip_card;
      announce(t("ev.deal", { name: seatName(S.table.game?.leader), card: flip ? cardLabel(parseCard(flip)) : "" }));
      break;
    }
    case "play": {
      S.bubbles[seat] = null;
      const combo = event.combo;
      if (seat === me()) {
        S.selected.clear();
        S.hintApplied = null;
        S.message = null;
      }
      if (BOMB_KINDS.has(combo.kind)) {
        showBanner(t("ev.bombTitle", { phase: phaseText(combo.phase) }), t("ev.played", { name, combo: describeCombo(combo) }), "bomb");
      }
      const how = event.cause && event.cause !== "player" ? ` (${t(`cause.${event.cause}`)})` : "";
      announce(`${t("ev.played", { name, combo: describeCombo(combo) })}${how}`);
      break;
    }
    case "pass":
      S.bubbles[seat] = { cause: event.cause || "player" };
      announce(t(`bubble.${event.cause || "player"}`) + ` — ${name}`);
      break;
    case "timeout":
      if (seat !== me()) toast(t("ev.oppTimeout", { name, count: event.count }), "info");
      break;
    case "hosting": {
      const cause = event.cause || "player";
      if (seat === me()) {
        if (event.on) rememberHosting(cause);
        else if (S.gameId) localStorage.removeItem(HOSTING_KEY + S.gameId);
        toast(event.on ? t(`ev.hostingOn.${cause}`) : t("ev.hostingOff"), event.on ? "warn" : "info");
      } else {
        toast(event.on ? t("ev.oppHostingOn", { name }) : t("ev.oppHostingOff", { name }), "info");
      }
      break;
    }
    case "escape":
      if (seat !== me()) toast(t("ev.oppEscaped", { name }), "warn", 5000);
      break;
    default:
      break;
  }
}

function onNotice(message) {
  if (message.code === "timed_out") {
    toast(t("notice.timedOut", { count: message.count }), "warn", 4500);
    setMessage(t("notice.timedOut", { count: message.count }), "warn", "notice");
  } else {
    toast(message.message, "info");
  }
}

const PLAY_ERRORS = new Set([
  "unavailable", "invalid_combination", "does_not_beat", "not_your_turn", "pass_on_lead", "stale", "cards_not_held", "no_cards",
  "not_playing", "game_over", "unknown_card",
]);

function errorText(code, message) {
  if (code === "does_not_beat") {
    const on = game()?.table?.combo;
    return on ? t("err.does_not_beat", { table: describeCombo(on) }) : t("err.does_not_beat_plain");
  }
  const key = `err.${code}`;
  const text = t(key);
  return text === key ? t("err.generic", { message }) : text;
}

function onError(message) {
  const { code } = message;
  S.busy = false;
  if (code === "invalid_token") {
    forgetToken();
    showLogin();
    return;
  }
  if (S.joining) {
    S.joining = false;
    if (S.invite) {
      clearInvite();
      toast(errorText(code, message.message), "error", 5000);
      enterLobby();
      return;
    }
    if (code === "already_seated") {
      S.link.restart();
      return;
    }
  }
  if (PLAY_ERRORS.has(code) && S.view === "table") {
    setMessage(errorText(code, message.message), "error");
    shakeSelection();
    renderActions();
    return;
  }
  toast(errorText(code, message.message), "error", 4500);
  if (S.view === "lobby") renderLobby();
}

function setMessage(text, kind = "info", source = "play") {
  S.message = text ? { text, kind, source } : null;
  renderMessage();
}

function renderMessage() {
  const node = $("#play-message");
  if (!S.message) {
    node.hidden = true;
    node.textContent = "";
    return;
  }
  node.hidden = false;
  node.className = `play-message msg-${S.message.kind}`;
  node.textContent = S.message.text;
}

function shakeSelection() {
  for (const node of document.querySelectorAll("#hand .card.selected")) {
    node.classList.remove("shake");
    void node.offsetWidth;
    node.classList.add("shake");
  }
}

let bannerTimer = null;
function showBanner(title, detail, kind) {
  const banner = $("#banner");
  banner.replaceChildren(h("span", { class: "banner-title" }, title), h("span", { class: "banner-detail" }, detail));
  banner.className = `banner show banner-${kind}`;
  clearTimeout(bannerTimer);
  bannerTimer = setTimeout(() => { banner.className = "banner"; }, 2200);
}

// ---------------------------------------------------------------------------
// The hand

function syncHand(strings) {
  const signature = strings.join(" ");
  if (signature === S.handSignature && S.hand.length === strings.length) return;
  const seen = {};
  S.hand = strings.map((text) => {
    seen[text] = (seen[text] || 0) + 1;
    return { ...parseCard(text), key: `${text}#${seen[text]}` };
  });
  S.handSignature = signature;
  const keys = new Set(S.hand.map((card) => card.key));
  for (const key of [...S.selected]) if (!keys.has(key)) S.selected.delete(key);
  S.handDirty = true;
}

function displayHand() {
  return sortCards(S.hand, S.sort);
}

function selectionKey(keys = S.selected) {
  return [...keys].sort().join(",");
}

function setSelected(key, on) {
  if (on) S.selected.add(key);
  else S.selected.delete(key);
  const node = document.querySelector(`#hand .card[data-key="${CSS.escape(key)}"]`);
  if (node) {
    node.classList.toggle("selected", on);
    node.setAttribute("aria-selected", on ? "true" : "false");
  }
}

function selectionChanged() {
  if (S.message && S.message.source !== "notice") setMessage(null);
  renderActions();
}

function clearSelection() {
  for (const key of [...S.selected]) setSelected(key, false);
  S.hintApplied = null;
  selectionChanged();
}

function renderHand() {
  const hand = $("#hand");
  const cards = displayHand();
  hand.replaceChildren();
  hand.dataset.count = String(cards.length);
  if (!cards.length) {
    layoutHand();
    return;
  }
  if (!S.focusKey || !cards.some((card) => card.key === S.focusKey)) S.focusKey = cards[0].key;
  const rows = handRows(cards.length);
  const perRow = Math.ceil(cards.length / rows);
  let row = null;
  cards.forEach((card, index) => {
    if (index % perRow === 0) {
      row = h("div", { class: "hand-row", role: "presentation" });
      hand.append(row);
    }
    const node = cardFace(card);
    const selected = S.selected.has(card.key);
    node.classList.add("in-hand");
    if (selected) node.classList.add("selected");
    node.id = `card-${index}`;
    node.dataset.key = card.key;
    node.dataset.index = String(index);
    node.dataset.row = String(Math.floor(index / perRow));
    node.setAttribute("role", "option");
    node.setAttribute("aria-selected", selected ? "true" : "false");
    node.setAttribute("aria-label", cardLabel(card));
    node.tabIndex = card.key === S.focusKey ? 0 : -1;
    if (S.dealAnimation) {
      node.classList.add("dealt");
      node.style.animationDelay = `${index * 18}ms`;
    }
    row.append(node);
  });
  S.handDirty = false;
  layoutHand();
}

function handRows(count) {
  const hand = $("#hand");
  const width = hand.clientWidth || window.innerWidth - 24;
  const cardWidth = parseFloat(getComputedStyle(hand).getPropertyValue("--card-w")) || 72;
  const step = (width - cardWidth) / Math.max(1, count - 1);
  return count > 12 && step < cardWidth * 0.36 ? 2 : 1;
}

function layoutHand() {
  const hand = $("#hand");
  const rows = hand.querySelectorAll(".hand-row");
  const width = hand.clientWidth || window.innerWidth - 24;
  const cardWidth = parseFloat(getComputedStyle(hand).getPropertyValue("--card-w")) || 72;
  const perRow = Math.max(...[...rows].map((row) => row.childElementCount), 1);
  const step = Math.min(cardWidth * 0.62, (width - cardWidth - 4) / Math.max(1, perRow - 1));
  hand.style.setProperty("--step", `${Math.max(8, step)}px`);
  hand.classList.toggle("two-rows", rows.length > 1);
}

function handNodes() {
  return [...document.querySelectorAll("#hand .card[data-key]")];
}

function focusCard(key) {
  S.focusKey = key;
  for (const node of handNodes()) node.tabIndex = node.dataset.key === key ? 0 : -1;
  const node = document.querySelector(`#hand .card[data-key="${CSS.escape(key)}"]`);
  if (node) node.focus({ preventScroll: true });
}

function moveFocus(delta, absolute = null) {
  const nodes = handNodes();
  if (!nodes.length) return;
  let index = nodes.findIndex((node) => node.dataset.key === S.focusKey);
  if (absolute !== null) index = absolute < 0 ? nodes.length - 1 : absolute;
  else index = Math.max(0, Math.min(nodes.length - 1, (index < 0 ? 0 : index) + delta));
  focusCard(nodes[index].dataset.key);
}

function selectRank(rank) {
  const cards = displayHand().filter((card) => card.rank === rank);
  if (!cards.length) {
    setMessage(t("msg.noRank", { rank: rank === "SJ" || rank === "BJ" ? t(`rank.${rank}`) : rank }), "info");
    return;
  }
  const next = cards.find((card) => !S.selected.has(card.key));
  if (next) {
    setSelected(next.key, true);
    focusCard(next.key);
  } else {
    for (const card of cards) setSelected(card.key, false);
  }
  S.hintApplied = null;
  selectionChanged();
}

function bindHand() {
  const hand = $("#hand");
  hand.addEventListener("pointerdown", (event) => {
    if (event.button !== 0) return;
    const node = event.target.closest(".card[data-key]");
    if (!node) return;
    event.preventDefault();
    const key = node.dataset.key;
    const on = !S.selected.has(key);
    S.drag = { on, pointer: event.pointerId, last: Number(node.dataset.index), row: node.dataset.row };
    setSelected(key, on);
    S.hintApplied = null;
    focusCard(key);
    try { hand.setPointerCapture(event.pointerId); } catch { /* not capturable */ }
    selectionChanged();
  });
  hand.addEventListener("pointermove", (event) => {
    const drag = S.drag;
    if (!drag || event.pointerId !== drag.pointer) return;
    const target = document.elementFromPoint(event.clientX, event.clientY);
    const node = target?.closest?.("#hand .card[data-key]");
    if (!node || node.dataset.row !== drag.row) return;
    const index = Number(node.dataset.index);
    if (index === drag.last) return;
    const nodes = handNodes();
    const [from, to] = index > drag.last ? [drag.last + 1, index] : [index, drag.last - 1];
    for (let i = from; i <= to; i += 1) setSelected(nodes[i].dataset.key, drag.on);
    drag.last = index;
    selectionChanged();
  });
  const end = (event) => {
    if (S.drag && event.pointerId === S.drag.pointer) S.drag = null;
  };
  hand.addEventListener("pointerup", end);
  hand.addEventListener("pointercancel", end);
  hand.addEventListener("focusin", (event) => {
    const node = event.target.closest(".card[data-key]");
    if (node) S.focusKey = node.dataset.key;
  });
  new ResizeObserver(() => {
    if (S.view !== "table") return;
    const rows = hand.querySelectorAll(".hand-row").length;
    if (S.hand.length && rows !== handRows(S.hand.length)) renderHand();
    else layoutHand();
  }).observe(hand);
}

// ---------------------------------------------------------------------------
// Actions

function hint() {
  if (!myTurn()) {
    setMessage(playing() ? t("msg.notYourTurn") : t("err.not_playing"), "info");
    return;
  }
  if (S.hint && S.hint.seq === S.table.seq) {
    applyNextHint();
    return;
  }
  if (S.pendingHint) {
    S.pendingHint = true; // a quiet request is on its way: use its answer
    return;
  }
  S.pendingHint = true;
  send({ type: "hint" });
}

/** Ask for the moves as soon as it is our turn, so that Hint answers at once. */
function prefetchHint() {
  if (!myTurn() || S.pendingHint || (S.hint && S.hint.seq === S.table.seq)) return;
  S.pendingHint = "quiet";
  if (!S.link.send({ type: "hint" })) S.pendingHint = false;
}

function onHint(message) {
  const wanted = S.pendingHint === true;
  S.pendingHint = false;
  if (!S.table || message.seq !== S.table.seq) {
    if (wanted) hint();
    return;
  }
  S.hint = { seq: message.seq, moves: message.moves || [], index: -1 };
  if (wanted) applyNextHint();
}

function applyNextHint() {
  const { moves } = S.hint;
  if (!moves.length) {
    clearSelection();
    setMessage(t("msg.noMoves"), "info");
    renderActions();
    return;
  }
  S.hint.index = (S.hint.index + 1) % moves.length;
  const move = moves[S.hint.index];
  const wanted = move.cards.split(" ").filter(Boolean);
  const pool = [...displayHand()].reverse(); // lowest cards first
  const chosen = new Set();
  for (const rank of wanted) {
    const card = pool.find((candidate) => candidate.rank === rank && !chosen.has(candidate.key));
    if (card) chosen.add(card.key);
  }
  for (const card of S.hand) setSelected(card.key, chosen.has(card.key));
  S.hintApplied = { key: selectionKey(chosen), kind: move.kind };
  const bomb = BOMB_KINDS.has(move.kind) ? ` · ${phaseText(move.phase)}` : "";
  setMessage(t("msg.hint", { i: S.hint.index + 1, n: moves.length, combo: describeCombo(move) + bomb }), "hint");
  const first = handNodes().find((node) => chosen.has(node.dataset.key));
  if (first && document.activeElement?.closest?.("#hand")) focusCard(first.dataset.key);
  renderActions();
}

function selectedCards() {
  return S.hand.filter((card) => S.selected.has(card.key));
}

function play() {
  if (!playing() || S.busy) return;
  if (!myTurn()) {
    setMessage(t("msg.notYourTurn"), "info");
    return;
  }
  const cards = selectedCards();
  if (!cards.length) {
    setMessage(t("msg.selectFirst"), "error");
    return;
  }
  const message = { type: "play", seq: S.table.seq, cards: cards.map((card) => card.text).join(" ") };
  if (S.hintApplied && S.hintApplied.key === selectionKey()) message.as = S.hintApplied.kind;
  if (send(message)) {
    S.busy = true;
    renderActions();
  }
}

function pass() {
  if (!playing() || S.busy) return;
  if (!myTurn()) {
    setMessage(t("msg.notYourTurn"), "info");
    return;
  }
  if (!game().table) {
    setMessage(t("msg.leadNoPass"), "info");
    return;
  }
  if (send({ type: "pass", seq: S.table.seq })) {
    S.busy = true;
    renderActions();
  }
}

function toggleHosting() {
  if (!playing()) return;
  const on = !game().hosting[me()];
  if (on) rememberHosting("player");
  send({ type: "hosting", on });
}

function toggleSort() {
  S.sort = S.sort === "rank" ? "group" : "rank";
  localStorage.setItem(SORT_KEY, S.sort);
  renderSortLabel();
  renderHand();
}

function renderSortLabel() {
  $("#sort-label").textContent = S.sort === "rank" ? t("actions.sortRank") : t("actions.sortGroup");
  $("#btn-sort").setAttribute("aria-label", t("actions.sortHelp", { mode: $("#sort-label").textContent }));
}

function ready() {
  send({ type: "ready" });
}

async function leave() {
  const table = S.table;
  if (!table) return;
  const seat = table.seats[table.you];
  if (playing()) {
    const penalty = table.escape_penalty;
    const played = (game().cards_left?.[table.you] ?? 27) < 27;
    const body = [];
    if (table.escape_mode === "host") {
      body.push(t("leave.bodyHost"));
    } else {
      body.push(t("leave.bodySettle", { penalty: money(penalty, table.edition) }));
      if (played) body.push(t("leave.bodyPlayed"));
    }
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
  S.leaving = playing() ? { edition: table.edition, balance: seat?.balance ?? null } : null;
  send({ type: "leave" });
}

function copyInvite() {
  const input = $("#invite-link");
  if (!input) return;
  input.select();
  const done = () => toast(t("invite.copied"), "info");
  if (navigator.clipboard?.writeText) navigator.clipboard.writeText(input.value).then(done, () => document.execCommand("copy") && done());
  else if (document.execCommand("copy")) done();
}

// ---------------------------------------------------------------------------
// Dialogs

function confirmDialog({ title, body, ok, cancel, tone = "danger", testid = null }) {
  const dialog = $("#dlg-confirm");
  $("#dlg-confirm-title").textContent = title;
  const container = $("#dlg-confirm-body");
  container.replaceChildren(...[].concat(body).map((line) => h("p", {}, line)));
  const okButton = $("#dlg-confirm-ok");
  okButton.textContent = ok;
  okButton.className = `btn ${tone}`;
  const cancelButton = $("#dlg-confirm-cancel");
  cancelButton.hidden = cancel === null;
  cancelButton.textContent = cancel || "";
  if (testid) dialog.dataset.testid = testid;
  else delete dialog.dataset.testid;
  dialog.returnValue = "";
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "ok"), { once: true });
    dialog.showModal();
    (cancel === null ? okButton : cancelButton).focus();
  });
}

function openHelp() {
  const rows = [
    ["← →", "help.keyMove"], ["Space", "help.keySpace"], ["↑ ↓", "help.keyUpDown"],
    ["3–9 0 J Q K A 2", "help.keyRank"], ["X / D", "help.keyJoker"], ["Enter", "help.keyPlay"],
    ["P", "help.keyPass"], ["H", "help.keyHint"], ["S", "help.keySort"], ["Esc", "help.keyClear"], ["?", "help.keyHelp"],
  ];
  $("#dlg-help-body").replaceChildren(
    h("p", {}, t("help.intro")),
    h("ul", { class: "help-rules" }, ...["help.rule1", "help.rule2", "help.rule3", "help.rule4"].map((key) => h("li", {}, t(key)))),
    h("h3", {}, t("help.keys")),
    h("table", { class: "keys" }, h("tbody", {}, ...rows.map(([key, text]) =>
      h("tr", {}, h("th", { scope: "row" }, h("kbd", {}, key)), h("td", {}, t(text)))))),
    h("p", { class: "hint-text" }, t("help.mouse")),
  );
  const dialog = $("#dlg-help");
  dialog.showModal();
  dialog.scrollTop = 0;
}

// ---------------------------------------------------------------------------
// Rendering the table

function renderTopbar() {
  const info = $("#topbar-info");
  info.replaceChildren();
  const chip = $("#me-chip");
  chip.hidden = !S.account;
  if (S.account) {
    chip.replaceChildren(h("span", { class: "avatar small", "aria-hidden": "true" }, initial(S.account.name)),
      h("span", { class: "me-name" }, S.account.name));
  }
  if (S.view === "table" && S.table) {
    const room = S.rooms.find((candidate) => candidate.name === S.table.room);
    info.append(
      h("span", { class: "room-title" }, room ? roomTitle(room) : S.table.room),
      h("span", { class: "room-badge" }, t(`edition.${S.table.edition}`)),
      h("button", { type: "button", class: "btn ghost small", id: "btn-leave", onclick: leave, "data-testid": "leave" },
        t("actions.leave")),
    );
  }
  for (const button of document.querySelectorAll(".lang-switch [data-lang]")) {
    button.setAttribute("aria-pressed", button.dataset.lang === getLang() ? "true" : "false");
  }
}

function initial(name) {
  return [...(name || "?").trim()][0]?.toUpperCase() || "?";
}

function renderTable() {
  if (S.view !== "table" || !S.table) return;
  const table = S.table;
  const view = $("#view-table");
  const current = table.game;
  view.dataset.phase = table.phase;
  view.dataset.seq = String(table.seq);
  view.dataset.gameId = table.game_id || "";
  view.dataset.turn = playing() ? (myTurn() ? "me" : "opp") : "";
  view.dataset.hosting = current && current.hosting[me()] ? "on" : "off";
  renderTopbar();
  renderSeat($("#seat-opp"), opp(), false);
  renderSeat($("#seat-me"), me(), true);
  renderCenter();
  renderBubbles();
  renderHistory();
  renderFlipChip();
  renderActions();
  renderSortLabel();
  renderHand();
  renderMessage();
  renderResult();
  tick();
}

function renderSeat(node, index, mine) {
  node.replaceChildren();
  const table = S.table;
  const seat = index === null ? null : table.seats[index];
  const current = table.game;
  node.dataset.seat = index === null ? "" : String(index);
  if (!seat) {
    node.classList.add("empty");
    node.append(h("div", { class: "seat-empty" }, h("span", { class: "spinner", "aria-hidden": "true" }), t("seat.empty")));
    return;
  }
  node.classList.remove("empty");
  const toAct = playing() && current.to_act === index;
  node.classList.toggle("to-act", Boolean(toAct));
  const hosting = current && !current.finished && current.hosting[index];
  const tags = [];
  if (seat.bot && displayName(seat) !== t("seat.botName")) tags.push(h("span", { class: "tag tag-bot" }, t("seat.bot")));
  if (hosting) tags.push(h("span", { class: "tag tag-hosting", "data-testid": `hosting-${index}` }, t("seat.hosting")));
  if (!seat.connected) tags.push(h("span", { class: "tag tag-offline" }, t("seat.offline")));
  if (current && table.phase === "playing" && current.timeouts[index] > 0) {
    tags.push(h("span", { class: "tag tag-timeouts", "data-testid": `timeouts-${index}` },
      t("seat.timeouts", { count: current.timeouts[index] })));
  }
  if (!playing() && table.phase !== "waiting") {
    tags.push(seat.ready ? h("span", { class: "tag tag-ready" }, t("seat.ready"))
      : h("span", { class: "tag tag-notready" }, t("seat.notReady")));
  }
  const left = current ? current.cards_left[index] : null;
  const timer = h("div", {
    class: "timer", role: "timer", "data-testid": `timer-${index}`, "aria-live": "off",
    "aria-label": t("seat.timerLabel", { name: seatName(index) }), hidden: !toAct,
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
    const backs = h("div", { class: "backs", "aria-label": t("seat.cardsLeft", { name: displayName(seat), count: left }),
      role: "img", "data-testid": "opp-cards" });
    const shown = Math.min(left, 27);
    for (let i = 0; i < shown; i += 1) backs.append(cardBack());
    backs.style.setProperty("--n", String(Math.max(1, shown)));
    node.append(h("div", { class: "opp-hand" }, backs, h("span", { class: "count-badge", "data-testid": "opp-count" }, String(left))));
  } else if (mine && left !== null && left !== undefined) {
    info.querySelector(".seat-text").append(h("div", { class: "my-count" }, t("seat.myCards", { count: left })));
  }
}

function renderCenter() {
  const center = $("#felt-center");
  center.replaceChildren();
  const table = S.table;
  const current = table.game;
  const seats = table.seats;
  if (table.phase === "waiting" && seats.some((seat) => seat === null)) {
    const link = `${location.origin}${location.pathname}?table=${encodeURIComponent(table.id)}`;
    center.append(h("div", { class: "panel waiting", "data-testid": "waiting" },
      h("div", { class: "spinner big", "aria-hidden": "true" }),
      h("h2", {}, t("wait.title")),
      h("p", {}, t("wait.body")),
      h("label", { for: "invite-link", class: "invite-label" }, t("invite.label")),
      h("div", { class: "invite-row" },
        h("input", { id: "invite-link", readonly: true, value: link, "data-testid": "invite-link",
          onfocus: (event) => event.target.select() }),
        h("button", { type: "button", class: "btn secondary", onclick: copyInvite }, t("invite.copy"))),
      h("button", { type: "button", class: "btn ghost", onclick: leave }, t("wait.back"))));
    return;
  }
  if (!current || table.phase === "ready") {
    const mine = seats[table.you];
    const other = seats[opp()];
    const deadline = mine?.ready_deadline;
    center.append(h("div", { class: "panel ready-panel", "data-testid": "ready-panel" },
      h("h2", {}, t("ready.title")),
      h("p", {}, other ? t("ready.against", { name: displayName(other) }) : ""),
      mine?.ready
        ? h("p", { class: "ready-wait" }, h("span", { class: "spinner", "aria-hidden": "true" }), t("ready.waiting", { name: displayName(other) }))
        : h("button", { type: "button", class: "btn primary big", id: "btn-ready", onclick: ready, "data-testid": "ready" },
          t("ready.button"), deadline ? h("span", { class: "countdown", "data-ready-deadline": String(deadline) }) : null)));
    return;
  }
  const onTable = current.table;
  if (!onTable && current.plays.length === 0 && !current.finished) {
    const flip = current.flip_card ? parseCard(current.flip_card) : null;
    const leaderText = current.leader === me() ? t("deal.youLead") : t("deal.leads", { name: seatName(current.leader) });
    center.append(h("div", { class: "deal-info", "data-testid": "deal-info" },
      flip ? h("div", { class: "flip" }, h("span", { class: "flip-label" }, t("deal.flip")), cardFace(flip)) : null,
      h("p", { class: "deal-lead" }, leaderText)));
    return;
  }
  if (onTable) {
    const cards = parseCards(onTable.cards);
    const standIns = jokerStandIns(cards, onTable.combo);
    let wild = 0;
    const faces = cards.map((card) => cardFace(card, { standsFor: card.joker && standIns[wild] ? standIns[wild++] : null }));
    const combo = onTable.combo;
    const bomb = BOMB_KINDS.has(combo.kind);
    const labels = [
      h("span", { class: "play-by" }, seatName(onTable.seat)),
      h("span", { class: "play-desc", "data-testid": "play-desc" }, describeCombo(combo)),
      bomb ? h("span", { class: "tag tag-bomb" }, phaseText(combo.phase)) : null,
      onTable.cause && onTable.cause !== "player" ? h("span", { class: "tag tag-cause", "data-testid": "play-cause" }, t(`cause.${onTable.cause}`)) : null,
    ];
    const reading = standIns.length ? h("div", { class: "play-reading", "data-testid": "play-reading" },
      t("combo.readsAs", { reading: readingText(combo) })) : null;
    center.append(h("div", {
      class: `table-play ${onTable.seat === me() ? "from-me" : "from-opp"}${bomb ? " is-bomb" : ""}`,
      "data-testid": "table-play", "data-cards": onTable.cards,
      "aria-label": t("table.current", { name: seatName(onTable.seat), combo: describeCombo(combo) }),
    }, h("div", { class: "play-cards" }, ...faces), h("div", { class: "play-label" }, ...labels), reading));
    fitPlayCards(center.querySelector(".play-cards"), cards.length);
    return;
  }
  if (!current.finished) {
    const lead = current.to_act === me() ? t("round.youLead") : t("round.leads", { name: seatName(current.to_act) });
    center.append(h("div", { class: "round-info", "data-testid": "round-info" }, h("p", {}, lead)));
  }
}

/** Overlap the cards of a play so that even a 12-card bomb fits the table's width. */
function fitPlayCards(row, count) {
  if (!row || count < 2) return;
  const cardWidth = parseFloat(getComputedStyle(row).getPropertyValue("--card-w")) || 70;
  const room = ($("#felt").clientWidth || window.innerWidth) - 48;
  const step = Math.max(12, Math.min(cardWidth * 0.52, (room - cardWidth) / (count - 1)));
  row.style.setProperty("--step", `${step}px`);
}

function renderBubbles() {
  for (const [index, id] of [[opp(), "#bubble-opp"], [me(), "#bubble-me"]]) {
    const node = $(id);
    const bubble = index === null ? null : S.bubbles[index];
    const show = Boolean(bubble) && playing() && game().to_act !== index; // a new turn makes the last pass old news
    node.hidden = !show;
    if (show) {
      node.textContent = t(`bubble.${bubble.cause}`);
      node.dataset.cause = bubble.cause;
    }
  }
}

function renderHistory() {
  const list = $("#history-list");
  list.replaceChildren();
  const current = S.table.game;
  const plays = current ? [...current.plays].reverse() : [];
  $("#history").hidden = !plays.length;
  for (const entry of plays) {
    const cards = parseCards(entry.cards);
    const bomb = BOMB_KINDS.has(entry.combo.kind);
    list.append(h("li", { class: `${entry.seat === me() ? "mine" : "theirs"}${bomb ? " bomb" : ""}` },
      h("span", { class: "h-who" }, seatName(entry.seat)),
      h("span", { class: "h-what" }, describeCombo(entry.combo), bomb ? ` · ${phaseText(entry.combo.phase)}` : ""),
      h("span", { class: "h-cards", "aria-hidden": "true" }, ...cards.map((card) => miniCard(card))),
      entry.cause !== "player" ? h("span", { class: "tag tag-cause" }, t(`cause.${entry.cause}`)) : null));
  }
}

function miniCard(card) {
  if (card.joker) return h("span", { class: `mini joker ${card.rank === "BJ" ? "red" : "black"}` }, t(`joker.short.${card.rank}`));
  const glyph = { S: "♠", H: "♥", C: "♣", D: "♦" }[card.suit] || "";
  return h("span", { class: `mini ${card.red ? "red" : "black"}` }, card.rank + glyph);
}

function renderFlipChip() {
  const chip = $("#flip-chip");
  const current = S.table.game;
  const show = Boolean(current?.flip_card) && (current.plays.length > 0 || current.table);
  chip.hidden = !show;
  if (!show) return;
  chip.replaceChildren(
    h("span", {}, t("deal.flipShort")), miniCard(parseCard(current.flip_card)),
    h("span", {}, t("deal.ledBy", { name: seatName(current.leader) })));
}

function renderActions() {
  const active = myTurn() && !S.busy;
  const current = game();
  const live = playing();
  $("#actions").hidden = !live;
  $("#tools").hidden = !live;
  $("#btn-play").disabled = !active || S.selected.size === 0;
  $("#btn-pass").disabled = !active || !current?.table;
  $("#btn-hint").disabled = !active;
  const hosting = Boolean(current && current.hosting[me()]);
  const hostingButton = $("#btn-hosting");
  hostingButton.disabled = !live || current.escaped === me(); // an escaped seat stays hosted (R10.1)
  hostingButton.setAttribute("aria-pressed", hosting ? "true" : "false");
  hostingButton.classList.toggle("on", hosting);
  const count = $("#hint-count");
  count.textContent = S.hint && S.hint.index >= 0 && S.hint.moves.length ? `${S.hint.index + 1}/${S.hint.moves.length}` : "";
  $("#hand").setAttribute("aria-describedby", "play-message");
  document.body.classList.toggle("my-turn", Boolean(myTurn()));
}

function renderResult() {
  const overlay = $("#result");
  const table = S.table;
  const settlement = table.settlement;
  if (table.phase !== "settled" || !settlement) {
    overlay.hidden = true;
    return;
  }
  const wasHidden = overlay.hidden;
  overlay.hidden = false;
  const card = $("#result-card");
  const you = table.you;
  const other = 1 - you;
  const won = settlement.winner === you;
  const edition = table.edition;
  let title;
  if (settlement.result === "escape") {
    title = settlement.escaper === you ? t("result.youEscaped") : t("result.oppEscaped", { name: seatName(other) });
  } else {
    title = won ? t("result.youWin") : t("result.youLose");
  }
  const delta = settlement.deltas[you];
  const level = settlement.result === "escape" ? t("result.escape") : t(`result.${settlement.result}`);
  const phases = settlement.phases;
  const columns = [you, other];
  const cell = (fn) => columns.map((seat) => h("td", { "data-seat": String(seat) }, fn(seat)));
  const rows = [];
  const row = (label, fn, testid = null) => rows.push(h("tr", testid ? { "data-testid": testid } : {}, h("th", { scope: "row" }, label), ...cell(fn)));
  row(t("result.level"), (seat) => t("lobby.level", { level: settlement.levels[seat] }));
  row(t("result.phase"), (seat) => phaseSummary(phases[seat]));
  row(t("result.bombs"), (seat) => bombList(phases[seat]));
  row(t("result.contribution"), (seat) => t("result.contributionValue", {
    c: settlement.contribution_multipliers[seat], x: formatNumber(settlement.match_points),
    v: formatNumber(settlement.contributions[seat]),
  }));
  if (settlement.escaper !== null && settlement.escaper !== undefined) {
    row(t("result.penalty"), (seat) => (seat === settlement.escaper ? money(settlement.penalty, edition) : "—"), "penalty-row");
  }
  if (settlement.table_fees.some((fee) => fee)) row(t("result.tableFee"), (seat) => money(settlement.table_fees[seat], edition));
  row(t("result.before"), (seat) => money(settlement.balances_before[seat], edition));
  row(t("result.change"), (seat) => h("span", { class: settlement.deltas[seat] >= 0 ? "up" : "down", "data-testid": `delta-${seat}` },
    signed(settlement.deltas[seat])));
  row(t("result.after"), (seat) => h("strong", { "data-testid": `after-${seat}` }, money(settlement.balances_after[seat], edition)));

  const facts = [
    [t("result.matchPoints"), `X = ${formatNumber(settlement.match_points)}`],
    [t("result.resultLevel"), `a = ${settlement.a}`],
    [t("result.doubling"), `b = ${settlement.b}${settlement.doubling_phase ? ` (${phaseText(settlement.doubling_phase)})` : ""}`],
    [t("result.resultPoints"), `X·a·b = ${formatNumber(settlement.result_points)}`],
  ];
  if (settlement.loser_cards_left !== null && settlement.loser_cards_left !== undefined && settlement.result !== "escape") {
    facts.splice(2, 0, [t("result.cardsLeft"), formatNumber(settlement.loser_cards_left)]);
  }
  if (settlement.penalty) facts.push([t("result.penaltyTotal"), `${formatNumber(settlement.penalty)} (${t("result.due")} ${formatNumber(settlement.due)})`]);
  if (settlement.win_fee) facts.push([t("result.winFee"), money(settlement.win_fee, edition)]);
  if (settlement.house) facts.push([t("result.house"), signed(settlement.house)]);
  const notes = [];
  if (settlement.capped) notes.push(t("result.capped", { paid: money(settlement.paid, edition), due: money(settlement.due, edition) }));
  if (settlement.received !== settlement.paid) notes.push(t("result.received", { received: money(settlement.received, edition) }));

  const mine = table.seats[you];
  const theirs = table.seats[other];
  const readyArea = h("div", { class: "result-ready" });
  if (!theirs) readyArea.append(h("p", { class: "muted", "data-testid": "opp-left" }, t("result.oppLeft")));
  else readyArea.append(h("p", { class: "muted", "data-testid": "opp-ready" }, theirs.ready ? t("result.oppReady", { name: displayName(theirs) }) : t("result.oppNotReady", { name: displayName(theirs) })));
  const actions = h("div", { class: "result-actions" },
    h("button", { type: "button", class: "btn ghost", onclick: leave, "data-testid": "result-leave" }, t("result.lobby")),
    mine?.ready
      ? h("button", { type: "button", class: "btn primary", disabled: true }, t("result.waiting"))
      : h("button", { type: "button", class: "btn primary", id: "btn-next", onclick: ready, "data-testid": "next-game" },
        t("result.next"), mine?.ready_deadline ? h("span", { class: "countdown", "data-ready-deadline": String(mine.ready_deadline) }) : null));

  card.replaceChildren(...[
    h("div", { class: `result-head ${won ? "won" : "lost"}` },
      h("h2", { id: "result-title", "data-testid": "result-title" }, title),
      h("p", { class: "result-level" }, level),
      h("p", { class: `result-delta ${delta >= 0 ? "up" : "down"}`, "data-testid": "my-delta" }, `${signed(delta)} ${unit(edition)}`)),
    h("dl", { class: "facts" }, ...facts.map(([label, value]) => h("div", {}, h("dt", {}, label), h("dd", {}, value)))),
    h("table", { class: "breakdown", "data-testid": "breakdown" },
      h("caption", { class: "sr-only" }, t("result.caption")),
      h("thead", {}, h("tr", {}, h("td", {}), ...columns.map((seat) => h("th", { scope: "col" }, seat === you ? t("seat.you") : seatName(seat))))),
      h("tbody", {}, ...rows)),
    notes.length ? h("p", { class: "result-notes" }, notes.join(" ")) : null,
    h("p", { class: "game-id" }, t("result.gameId", { id: (table.game_id || "").slice(0, 8) })),
    readyArea, actions].filter(Boolean));
  card.dataset.gameId = table.game_id || "";
  if (wasHidden) {
    announce(`${title}. ${level}. ${signed(delta)} ${unit(edition)}`);
    setTimeout(() => $("#btn-next")?.focus({ preventScroll: true }), 60);
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

// ---------------------------------------------------------------------------
// Timers

function tick() {
  for (const timer of document.querySelectorAll(".timer[data-deadline]")) {
    const total = Number(timer.dataset.total) || 20;
    const left = remainingMs(Number(timer.dataset.deadline), total);
    const seconds = Math.ceil(left / 1000);
    timer.querySelector(".timer-text").textContent = String(seconds);
    timer.style.setProperty("--p", String(left / (total * 1000)));
    timer.classList.toggle("urgent", left <= 5000);
  }
  for (const timer of document.querySelectorAll(".timer.auto")) {
    timer.querySelector(".timer-text").textContent = "…";
  }
  for (const node of document.querySelectorAll("[data-ready-deadline]")) {
    const left = Math.max(0, Math.ceil((Number(node.dataset.readyDeadline) - Date.now()) / 1000));
    node.textContent = ` ${left}s`;
  }
  if (!$("#conn-banner").hidden) renderConnection();
}

// ---------------------------------------------------------------------------
// Keyboard

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
  if (S.view !== "table" || !S.table) return;
  const onButton = tag === "BUTTON" || tag === "A";
  const inHand = Boolean(target?.closest?.("#hand"));
  const resultOpen = !$("#result").hidden;
  const key = event.key;
  if (resultOpen) return;
  switch (key) {
    case "Enter":
      if (onButton) return;
      event.preventDefault();
      play();
      return;
    case " ":
      if (!inHand) return;
      event.preventDefault();
      setSelected(S.focusKey, !S.selected.has(S.focusKey));
      S.hintApplied = null;
      selectionChanged();
      return;
    case "ArrowLeft":
    case "ArrowRight":
      event.preventDefault();
      moveFocus(key === "ArrowLeft" ? -1 : 1);
      return;
    case "Home":
    case "End":
      if (!inHand) return;
      event.preventDefault();
      moveFocus(0, key === "Home" ? 0 : -1);
      return;
    case "ArrowUp":
    case "ArrowDown":
      if (!inHand) return;
      event.preventDefault();
      setSelected(S.focusKey, key === "ArrowUp");
      S.hintApplied = null;
      selectionChanged();
      return;
    case "Escape":
      clearSelection();
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
  } else if (lower in RANK_KEYS && key.length === 1) {
    event.preventDefault();
    selectRank(RANK_KEYS[lower]);
  }
}

// ---------------------------------------------------------------------------
// Start

function rerender() {
  applyStatic();
  renderTopbar();
  renderSortLabel();
  if (S.view === "lobby") renderLobby();
  if (S.view === "table") renderTable();
  if (S.view === "login") $("#login-invite").hidden = !S.invite;
  renderConnection();
}

async function start() {
  applyStatic();
  renderSortLabel();
  for (const button of document.querySelectorAll(".lang-switch [data-lang]")) {
    button.addEventListener("click", () => {
      setLang(button.dataset.lang);
      rerender();
    });
  }
  $("#login-form").addEventListener("submit", submitLogin);
  $("#btn-play").addEventListener("click", play);
  $("#btn-pass").addEventListener("click", pass);
  $("#btn-hint").addEventListener("click", hint);
  $("#btn-hosting").addEventListener("click", toggleHosting);
  $("#btn-sort").addEventListener("click", toggleSort);
  $("#btn-help").addEventListener("click", openHelp);
  $("#btn-reconnect").addEventListener("click", () => S.link?.wake());
  document.addEventListener("keydown", onKey);
  bindHand();
  setInterval(tick, 250);
  setInterval(() => {
    if (S.view === "lobby" && document.visibilityState === "visible" && !S.joining) refreshAccount();
  }, 15000);
  window.shuangkou = { state: S, receive }; // for debugging in the console

  if (!S.token) {
    showLogin();
    return;
  }
  try {
    await loadMe();
  } catch (problem) {
    if (problem.status === 401) {
      forgetToken();
      showLogin();
      return;
    }
  }
  renderTopbar();
  connect();
}

start();
