// The browser client's shell: it owns the one state (state.js), feeds it what the server
// sends and what the player does, and asks the renderers to draw it. The shell is the same
// for every game: the name screen and the lobby, the connection, the table's seats, names,
// balances and timers, hosting, Ready, leaving, the notices, the result's frame, the sounds,
// the languages. What is a game's own (its hand, its buttons and keys, what its events say,
// its result's breakdown) is the renderer of that game (games/NAME/), loaded by the name the
// table gives (`family`) through the registry (games/index.js). All state comes from the
// server (`state` messages carry the whole table); what is legal comes from the server.

import { t, setLang, applyStatic } from "./i18n.js";
import { $, announce, h, redrawToasts, toast } from "./dom.js";
import { api, Link } from "./net.js";
import * as S from "./state.js";
import { familyOf, loadGame, loadedGame } from "./games/index.js";
import { refusalText, seatName } from "./render/common.js";
import { escapeBody } from "./render/leave.js";
import { renderLobby, renderLogin, renderLoginError } from "./render/lobby.js";
import { confirmDialog, openHelp, renderConnection, renderSound, renderTopbar, renderView } from "./render/page.js";
import { renderTable, renderTimers } from "./render/table.js";
import { Sound } from "./sound.js";
import { pageOpen, renderPage, replayLink, startPages } from "./pages.js";

const TOKEN_KEY = "shuangkou.token";
const HOSTING_KEY = "shuangkou.hosting.";

let state = S.initialState({
  token: localStorage.getItem(TOKEN_KEY),
  invite: new URLSearchParams(location.search).get("table"),
});
let link = null;
const sound = new Sound(localStorage);
let ticked = null; // the last "time running out" tick: {deadline, seconds}
let resuming = false; // the page switched off the hosting a lost connection switched on: its event says welcome back

const actions = {
  join, leave, ready, copyInvite, fillBots, acceptBots, copyGameId, dismissReport, dismissSeatLost, replay: replayLink, replaying,
};

// ---------------------------------------------------------------------------
// The game's renderer

let game = null; // the renderer of the table's game (in the lobby, of the last table's)
let holding = null; // server messages held, in order, while the renderer of a table's game loads
const started = new Set(); // the games whose renderer has its keys in the state and its controls wired

/** What a renderer sees of the shell (its `start`). */
const shell = {
  state: () => state,
  update: (next) => {
    state = next;
  },
  send,
  receive,
  sound,
};

/** The shell's places for a game's own markup (index.html): on the felt, beside Hosting, in the dock. */
const SLOTS = { felt: "#slot-felt", tools: "#slot-tools", dock: "#slot-dock" };

/** Mount a game's markup (its renderer's `markup`, an HTML string per slot) once, each slot's
 * in a part of its own (so that games never mix), and show only the parts of the table's game. */
function mountGame(renderer) {
  const parts = {};
  for (const [slot, selector] of Object.entries(SLOTS)) {
    parts[slot] = h("div", { class: "game-part", dataset: { game: renderer.name } });
    parts[slot].innerHTML = renderer.markup[slot];
    $(selector).append(parts[slot]);
  }
  for (const part of Object.values(parts)) applyStatic(part);
}

/** The table's game is `renderer`'s: the first time, its markup is mounted, its keys join the
 * state and it wires its controls. */
function useGame(renderer) {
  if (!started.has(renderer.name)) {
    started.add(renderer.name);
    mountGame(renderer);
    state = { ...state, ...renderer.initialState(localStorage) };
    renderer.start(shell);
  }
  for (const part of document.querySelectorAll(".game-part")) part.hidden = part.dataset.game !== renderer.name;
  game = renderer;
}

/** The games of the lobby's rooms, each once, in the rooms' order (Shuangkou's when there is no room yet). */
const lobbyFamilies = () => [...new Set(state.rooms.length ? state.rooms.map(familyOf) : [familyOf(null)])];

/** The renderers of the rooms' games, loaded ahead: the lobby shows their rules, and a table
 * opens without waiting for its renderer. */
function preloadGames() {
  for (const name of new Set(state.rooms.map(familyOf))) {
    if (loadedGame(name)) continue;
    loadGame(name).then(() => {
      if (state.view === "lobby") drawLobby();
    }, (problem) => console.warn(problem.message));
  }
}

/** A server message through the shell's reducer, then the game's (its renderer's `reduce`). */
function reduce(message, shellReducer = null) {
  const before = state;
  const after = shellReducer ? shellReducer(before, message) : before;
  state = game ? game.reduce(before, after, message) : after;
}

// ---------------------------------------------------------------------------
// Drawing

function render() {
  renderView(state);
  renderTopbar(state, actions);
  renderSound(sound);
  if (state.view === "lobby") drawLobby();
  if (state.view === "table") drawTable();
  if (state.view === "login") renderLogin(state);
  renderConnection(state, Date.now());
}

function drawLobby() {
  renderLobby(state, actions, loadedGame);
}

function drawTable() {
  if (game) renderTable(state, actions, Date.now(), game);
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
  drawLobby();
  await refreshAccount(); // an escape is settled before the server answers `left`
  state = S.leavingDone(state);
}

/** The help, with the words of the table's game (in the lobby, of each of its rooms' games). */
function help() {
  const names = state.table ? [familyOf(state.table)] : lobbyFamilies();
  const renderers = names.map(loadedGame);
  if (renderers.every(Boolean)) {
    openHelp(renderers.flatMap((renderer) => renderer.help()));
    return;
  }
  Promise.all(names.map((name) => loadGame(name).then((loaded) => loaded.help(), (problem) => {
    console.warn(problem.message);
    return [];
  }))).then((bodies) => {
    if (!$("#dlg-help").open) openHelp(bodies.flat());
  });
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

/** A server message. The `state` of a table whose game's renderer is not loaded yet waits for
 * it, and every message after it too, so that they are handled in the order they came. */
function receive(message) {
  if (holding) {
    holding.push(message);
    return;
  }
  if (message.type === "state") {
    const name = familyOf(message.table);
    if (game?.name !== name) {
      const renderer = loadedGame(name);
      if (!renderer) {
        hold(name, message);
        return;
      }
      useGame(renderer);
    }
  }
  handle(message);
}

/** Hold the messages from `message` on while the renderer of `name` loads; a game this page
 * cannot show is said, and its tables' states are dropped. */
function hold(name, message) {
  holding = [message];
  loadGame(name).then(useGame).catch((problem) => {
    toast(problem.message, "error", 8000);
    holding = holding.filter((held) => !(held.type === "state" && familyOf(held.table) === name));
  }).then(() => {
    const held = holding;
    holding = null;
    held.forEach(receive);
  });
}

function handle(message) {
  const before = state;
  switch (message.type) {
    case "welcome":
      reduce(message, S.receiveWelcome);
      preloadGames();
      link.send({ type: "ping" }); // answered after the table's state when we are seated
      break;
    case "pong":
      onPong(message);
      break;
    case "state":
      onState(message);
      break;
    case "notice":
      onNotice(message);
      break;
    case "error":
      onError(message);
      break;
    case "left":
      reduce(message, S.receiveLeft);
      enterLobby();
      if (message.hosted) toast(() => t("left.hosted"), "warn", 6000); // an escaper's hosted seat plays on (R10.1)
      break;
    case "closed":
      onClosed(message);
      break;
    case "redirect":
      reduce(message, S.receiveRedirect);
      link.restart(); // drops this socket ("waiting" forgets any earlier node), reconnects on the next tick
      redirectedTo = message.url;
      break;
    default: // a game's own message (Shuangkou's `hint`)
      reduce(message);
      break;
  }
  game?.after(message, before);
}

function onPong(message) {
  const notSeated = S.isNotSeatedPong(state);
  reduce(message, S.receivePong);
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

function onClosed(message) {
  const reason = message.reason;
  reduce(message, (before) => S.receiveClosed(before, reason));
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
    preloadGames();
  } catch (problem) {
    if (problem.status === 401) {
      signOut();
      return;
    }
  }
  if (state.view === "lobby") drawLobby();
}

function join(room, opponent) {
  if (state.joining) return;
  state = S.joinRequested(state, opponent);
  drawLobby();
  if (!send({ type: "join", room, opponent })) {
    state = S.joinFailed(state);
    drawLobby();
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
  reduce(message, S.receiveState);
  if (state.gameId !== before.gameId) forgetOldHosting(state.gameId);
  const events = message.events || [];
  renderView(state);
  events.forEach(tellEvent);
  resumeControl();
  sayReady();
  renderTopbar(state, actions);
  drawTable();
  if (before.invite && message.table.id !== before.invite) toast(() => t("invite.alreadySeated"), "warn", 5000);
  if (S.isMyTurn(state) && !S.isMyTurn(before) && !S.hostingOn(state)) {
    announce(t("msg.yourTurn"));
    sound.play("turn");
  }
  if (state.table.phase === "settled" && before.table?.phase === "playing") {
    sound.play(state.table.settlement?.deltas?.[state.table.you] >= 0 ? "win" : "lose");
  }
}

/** By quick match or against bots the player asked to play: the page says Ready for them (once). */
function sayReady() {
  if (!S.shouldSendReady(state)) return;
  state = S.readySent(state);
  send({ type: "ready" });
}

/** After a reconnect, hosting that the connection loss switched on is switched off again. */
function resumeControl() {
  if (!S.shouldResumeControl(state, localStorage.getItem(HOSTING_KEY + state.table.game_id))) return;
  resuming = send({ type: "hosting", on: false });
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

/** What an event says to the player: the shell tells what every game has (a timeout, hosting,
 * an escape), the game's renderer the rest. Toasts are words in the current language,
 * redrawn when it changes. */
function tellEvent(event) {
  const mine = event.seat === S.mySeat(state);
  const name = () => seatName(state, event.seat);
  switch (event.type) {
    case "timeout":
      if (!mine) toast(() => t("ev.oppTimeout", { name: name(), count: event.count }), "info");
      break;
    case "hosting": {
      const cause = event.cause || "player";
      if (mine) {
        if (event.on) rememberHosting(cause);
        else if (state.gameId) localStorage.removeItem(HOSTING_KEY + state.gameId);
        const off = resuming ? "conn.resumed" : "ev.hostingOff"; // one message for a reload, not two
        if (!event.on) resuming = false;
        toast(() => (event.on ? t(`ev.hostingOn.${cause}`) : t(off)), event.on ? "warn" : "info");
      } else {
        toast(() => (event.on ? t("ev.oppHostingOn", { name: name() }) : t("ev.oppHostingOff", { name: name() })), "info");
      }
      break;
    }
    case "escape":
      if (!mine) toast(() => t("ev.oppEscaped", { name: name() }), "warn", 5000);
      break;
    default:
      game.tell(event);
      break;
  }
}

function onNotice(message) {
  if (message.code === "timed_out") {
    toast(() => t("notice.timedOut", { count: message.count }), "warn", 4500);
    reduce(message, S.receiveNotice); // said under the game by its renderer (`after`)
  } else if (message.code === "settling") {
    toast(() => t("notice.settling"), "warn", 6000);
  } else if (message.code === "bots_offered") {
    reduce(message, S.receiveNotice);
    drawTable();
    announce(t("offer.title", { count: message.count }));
  } else {
    toast(message.message, "info");
  }
}

function onError(message) {
  const refusals = game?.refusals;
  const outcome = S.errorOutcome(state, message, refusals);
  const text = () => refusalText({ code: message.code, text: message.message });
  reduce(message, (before) => S.receiveError(before, message, refusals));
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
    case "play": // said under the game by its renderer (`after`)
      break;
    default:
      toast(text, "error", 4500);
      if (state.view === "lobby") drawLobby();
  }
}

// ---------------------------------------------------------------------------
// Actions

function toggleHosting() {
  if (!S.isPlaying(state)) return;
  const on = !S.hostingOn(state);
  if (on) rememberHosting("player");
  send({ type: "hosting", on });
}

function ready() {
  send({ type: "ready" });
}

async function leave() {
  if (!state.table) return;
  const body = escapeBody(state);
  if (body) {
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

/** Bots sit down in every free seat of our table (an invitation, or a quick match still waiting). */
function fillBots() {
  send({ type: "bots" });
}

/** The server's offer of bots is taken: they sit down and the page says Ready for the player. */
function acceptBots() {
  if (!send({ type: "bots" })) return;
  state = S.botsAccepted(state);
  drawTable();
}

function dismissReport() {
  state = S.dismissEscapeReport(state);
  drawLobby();
}

function dismissSeatLost() {
  state = S.dismissSeatLost(state);
  drawLobby();
}

/** The result's Replay is opened: the server gives the ready timer more time, once (R11.4). */
function replaying() {
  send({ type: "replaying" });
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

/** `?` opens the help anywhere; at the table, with no dialog, field, page or result in the
 * way, the keys are the game's (its renderer's `key`). */
function onKey(event) {
  if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
  if (document.querySelector("dialog[open]")) return;
  const tag = event.target?.tagName;
  if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
  if (event.key === "?") {
    event.preventDefault();
    help();
    return;
  }
  if (pageOpen()) return; // the history and the replay have keys of their own (pages.js)
  if (state.view !== "table" || !state.table || !game) return;
  if (!$("#result").hidden) return;
  game.key(event);
}

/** A button clicked with the pointer (not pressed from the keyboard) keeps no focus, so the
 * keys act on the game whatever was clicked last: Enter plays rather than pressing Hosting,
 * the tracker or the sound switch again. */
function giveFocusBack(event) {
  const button = event.target.closest?.("button");
  if (button && event.detail > 0 && document.activeElement === button) button.blur();
}

// ---------------------------------------------------------------------------
// Start

async function start() {
  applyStatic();
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
  $("#btn-hosting").addEventListener("click", toggleHosting);
  $("#btn-help").addEventListener("click", help);
  $("#btn-sound").addEventListener("click", toggleSound);
  for (const type of ["pointerdown", "keydown"]) document.addEventListener(type, () => sound.allow(), { once: true, capture: true });
  $("#btn-reconnect").addEventListener("click", () => link?.wake());
  document.addEventListener("keydown", onKey);
  document.addEventListener("click", giveFocusBack);
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
