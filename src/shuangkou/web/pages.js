// The pages over the lobby and the table, each at its own address: the history of the
// account's games (`#history`, 战绩) and the replay viewer of a finished game
// (`#replay/ID`, a link anyone can open, signed in or not). They keep their own small
// state here (what was loaded, the step shown); the stepping and the history's rows are
// replay.js's, the drawing render/history.js's and render/replay.js's, with what a step of
// the game shows drawn by the renderer of its game (the record's `family`, games/index.js).

import { t } from "./i18n.js";
import { $, toast } from "./dom.js";
import { api } from "./net.js";
import { familyOf, loadGame } from "./games/index.js";
import { clampStep, historyHash, historyPage, parseRoute, replayHash, stepAfterKey } from "./replay.js";
import { renderHistory, roomName } from "./render/history.js";
import { renderReplay } from "./render/replay.js";

const PAGES = ["history", "replay"];
let context = null; // {token(), rooms(), closed()} from app.js
let route = null;
let games = { status: "loading" };
let replay = { status: "loading", id: null };
let loaded = 0; // the latest request: an older answer is dropped

/** Whether a page is open (the game's keys are then not the table's). */
export function pageOpen() {
  return route !== null;
}

/** The address of a game's replay (the result screen's link). */
export function replayLink(gameId) {
  return replayHash(gameId);
}

/** Start following the address; `closed()` is called when a page is left. Returns whether
 * the page opened on one (app.js then waits before connecting to a table). */
export function startPages(given) {
  context = given;
  window.addEventListener("hashchange", follow);
  document.addEventListener("keydown", onKey);
  for (const link of document.querySelectorAll("[data-page-back]")) link.addEventListener("click", back);
  follow();
  return pageOpen();
}

/** Draw the open page again (the language changed). */
export function renderPage() {
  if (route?.page === "history") renderHistory(games, context.rooms(), (offset) => historyHash(offset, route.limit));
  if (route?.page === "replay") renderReplay(replay, (game) => roomName(context.rooms(), game.room, game.title), { go, copy });
}

function follow() {
  const before = route;
  route = parseRoute(location.hash);
  document.body.dataset.page = route ? route.page : "";
  for (const page of PAGES) $(`#page-${page}`).hidden = route?.page !== page;
  if (!route) {
    if (location.hash === "#") replaceAddress(location.pathname + location.search);
    if (before) context.closed();
    return;
  }
  window.scrollTo(0, 0);
  if (route.page === "history") loadHistory(route);
  else if (!(before?.page === "replay" && before.id === route.id && replay.status === "shown")) loadReplay(route);
  else {
    replay = { ...replay, seat: route.seat, state: replay.game.replay.state(replay.replay, replay.steps, route.seat) };
    renderPage();
  }
  $(`#page-${route.page} h1`).focus?.({ preventScroll: true });
}

function replaceAddress(url) {
  window.history.replaceState(null, "", url);
}

/** Back: to the lobby (or the table, or the name screen) under the page. */
function back(event) {
  event.preventDefault();
  replaceAddress(location.pathname + location.search);
  follow();
}

async function loadHistory({ offset, limit }) {
  const request = ++loaded;
  const token = context.token();
  if (!token) {
    games = { status: "signIn" };
    renderPage();
    return;
  }
  games = { status: "loading" };
  renderPage();
  try {
    const answer = await api(`/api/me/games?limit=${limit + 1}&offset=${offset}`, { token });
    // the renderers of the rows' games, for their words (a result's name, `result.NAME`)
    await Promise.all([...new Set(answer.games.map(familyOf))].map((name) => loadGame(name).catch(() => null)));
    if (request !== loaded) return;
    games = { status: "shown", page: historyPage(answer.games, offset, limit) };
  } catch (problem) {
    if (request !== loaded) return;
    games = { status: problem.status === 401 ? "signIn" : "failed" };
  }
  renderPage();
}

async function loadReplay({ id, seat }) {
  const request = ++loaded;
  replay = { status: "loading", id };
  renderPage();
  try {
    const game = await api(`/api/games/${encodeURIComponent(id)}`);
    const renderer = await loadGame(familyOf(game));
    if (request !== loaded) return;
    const steps = renderer.replay.steps(game);
    replay = {
      status: "shown", id, replay: game, steps, index: 0, seat, state: renderer.replay.state(game, steps, seat), game: renderer,
      link: `${location.origin}${location.pathname}${replayHash(game.game_id)}`,
    };
  } catch (problem) {
    if (request !== loaded) return;
    const status = problem.status === 404 ? "unknown" : problem.status === 409 ? "notFinished" : "failed";
    replay = { status, id };
  }
  renderPage();
}

/** Show step `index` of the replay. */
function go(index) {
  if (replay.status !== "shown") return;
  const next = clampStep(index, replay.steps.length);
  if (next === replay.index) return;
  const focused = document.activeElement?.dataset?.testid;
  replay = { ...replay, index: next };
  renderPage();
  const again = focused && $(`#replay-body [data-testid=${focused}]`);
  if (again && !again.disabled) again.focus();
}

function copy() {
  const input = $("#replay-link");
  input.select();
  const done = () => toast(() => t("replay.copied"), "info");
  if (navigator.clipboard?.writeText) navigator.clipboard.writeText(input.value).then(done, () => document.execCommand("copy") && done());
  else if (document.execCommand("copy")) done();
}

function onKey(event) {
  if (route?.page !== "replay" || replay.status !== "shown") return;
  if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || document.querySelector("dialog[open]")) return;
  const tag = event.target?.tagName;
  if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
  const next = stepAfterKey(replay.index, replay.steps.length, event.key);
  if (next === null) return;
  event.preventDefault();
  go(next);
}
