// Shuangkou at the table, the game's share of the page's glue (the shell's is app.js): its
// buttons (Play, Pass, Hint, the sort order, the card tracker, the recent plays), the hand
// (clicks, drags, focus), its keys, what its events say (sounds, announcements, toasts, the
// bomb and 接风 banners), and what it does once the shell has handled a server message.
// The state is the shell's one object, read and replaced through the `shell` given to `start`.

import { t } from "./i18n.js";
import { cardLabel, parseCard } from "../../deck.js";
import { $, announce, toast } from "../../dom.js";
import { seatName } from "../../render/common.js";
import { showBanner } from "../../render/table.js";
import { describeCombo, phaseText } from "./combos.js";
import * as S from "./state.js";
import { focusHand, handNodes, handRows, layoutHand, renderHand, renderSelection, shakeSelection } from "./render/hand.js";
import { renderActions, renderHistory, renderMessage, renderSortLabel, updateHistoryMore } from "./render/table.js";
import { renderTracker } from "./render/tracker.js";

const SORT_KEY = "shuangkou.sort";
const TRACKER_KEY = "shuangkou.tracker";
const RANK_KEYS = {
  3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 0: "10", t: "10",
  j: "J", q: "Q", k: "K", a: "A", 2: "2", x: "SJ", d: "BJ",
};

let shell = null; // {state(), update(next), send(message), receive(message), sound} from app.js
let drag = null; // a selection by dragging across the hand: {on, pointer, last, row}

const get = () => shell.state();
const set = (next) => shell.update(next);

/** The game's keys of the state, with the choices the browser remembers (sort order, tracker shown). */
export function preferences(storage = globalThis.localStorage) {
  return S.initialGameState({ sort: storage?.getItem(SORT_KEY), trackerShown: storage?.getItem(TRACKER_KEY) === "1" });
}

/** Once, when the renderer is first used: wire the game's buttons and the hand. */
export function start(given) {
  shell = given;
  renderSortLabel(get());
  $("#btn-play").addEventListener("click", play);
  $("#btn-pass").addEventListener("click", pass);
  $("#btn-hint").addEventListener("click", hint);
  $("#btn-sort").addEventListener("click", toggleSort);
  $("#btn-history").addEventListener("click", toggleHistory);
  $("#btn-tracker").addEventListener("click", toggleTracker);
  $("#history-list").addEventListener("scroll", updateHistoryMore, { passive: true });
  $("#history-more").addEventListener("click", () => {
    const list = $("#history-list");
    list.scrollTo({ top: list.scrollHeight, behavior: "smooth" });
  });
  window.addEventListener("resize", updateHistoryMore);
  bindHand();
}

/**
 * What the game does once the shell has handled a server message (`before`: the state the
 * message found): after a `state`, the deal is no longer animated and the moves it carried
 * are played in as a `hint`; a `hint` answers an earlier H; a refused play is said and its
 * cards shake; the timed-out notice is said under the hand.
 */
export function after(message, before) {
  switch (message.type) {
    case "state":
      set(S.dealShown(get()));
      if (message.moves) shell.receive({ type: "hint", seq: message.table.seq, moves: message.moves }); // our turn's moves
      break;
    case "hint":
      if (before.hintWanted && !get().hintWanted) hintShown();
      renderActions(get());
      break;
    case "error":
      if (S.errorOutcome(before, message) !== "play") break;
      renderMessage(get());
      shakeSelection();
      renderActions(get());
      break;
    case "notice":
      if (message.code === "timed_out") renderMessage(get());
      break;
    default:
      break;
  }
}

/** What an event says to the player: announcements, toasts, sounds, the bomb banner (a
 * play's `combo` view). Toasts and banners are words in the current language, redrawn when
 * it changes. The shell tells the events of every game (timeouts, hosting, escapes). */
export function tell(event) {
  const combo = event.combo;
  const seat = event.seat;
  const mine = seat === S.mySeat(get());
  const name = () => seatName(get(), seat);
  const say = (words, kind, ms) => {
    toast(words, kind, ms);
    announce(words());
  };
  switch (event.type) {
    case "deal": {
      const game = get().table.game;
      const flip = game?.flip_card;
      announce(t("ev.deal", { name: seatName(get(), game?.leader), card: flip ? cardLabel(parseCard(flip)) : "" }));
      break;
    }
    case "play": {
      const bomb = S.isBomb(combo);
      shell.sound.play(bomb ? "bomb" : "play");
      if (bomb && S.isPlaying(get())) {
        showBanner("bomb", () => [t("ev.bombTitle", { phase: phaseText(combo.phase) }),
          t("ev.played", { name: name(), combo: describeCombo(combo) })]);
      }
      const how = event.cause && event.cause !== "player" ? ` (${t(`cause.${event.cause}`)})` : "";
      announce(`${t("ev.played", { name: name(), combo: describeCombo(combo) })}${how}`);
      break;
    }
    case "pass":
      shell.sound.play("pass");
      announce(t(`bubble.${event.cause || "player"}`) + ` — ${name()}`);
      break;
    case "out": {
      const place = () => t(`place.${event.place}`);
      say(() => (mine ? t("ev.youOut", { place: place() }) : t("ev.out", { name: name(), place: place() })), "info");
      break;
    }
    case "jiefeng": {
      const words = () => (mine ? t("round.youJiefeng") : t("round.jiefeng", { name: name() }));
      showBanner("jiefeng", () => [t("ev.jiefengTitle"), words()]);
      announce(words());
      break;
    }
    case "swap":
      say(() => t("deal.swap", { a: name(), b: seatName(get(), event.with) }), "warn", 6000);
      break;
    default:
      break;
  }
}

// ---------------------------------------------------------------------------
// The hand

/** The selection changed: marks on the cards, the message and the buttons. */
function selectionChanged() {
  renderSelection(get());
  renderMessage(get());
  renderActions(get());
}

/** Focus moved to another card (by key or by a reducer): the page's focus follows. */
function refocus(next) {
  const moved = next.focusKey !== get().focusKey;
  set(next);
  if (moved) focusHand(next);
}

function bindHand() {
  const hand = $("#hand");
  hand.addEventListener("pointerdown", (event) => {
    if (event.button !== 0) return;
    const node = event.target.closest(".card[data-key]");
    if (!node) return;
    event.preventDefault();
    const key = node.dataset.key;
    const on = !get().selected.includes(key);
    drag = { on, pointer: event.pointerId, last: Number(node.dataset.index), row: node.dataset.row };
    set(S.focusCard(S.setSelected(get(), [key], on), key));
    focusHand(get());
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
    set(S.setSelected(get(), nodes.slice(from, to + 1).map((card) => card.dataset.key), drag.on));
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
    if (node) set(S.focusCard(get(), node.dataset.key));
  });
  new ResizeObserver(() => {
    const state = get();
    if (state.view !== "table") return;
    const rows = hand.querySelectorAll(".hand-row").length;
    if (state.hand.length && rows !== handRows(state.hand.length)) renderHand(state);
    else layoutHand();
  }).observe(hand);
}

// ---------------------------------------------------------------------------
// Actions

function hint() {
  set(S.hint(get()));
  hintShown();
}

/** A hint selected cards: with the focus in the hand, it moves to the first of them. */
function hintShown() {
  selectionChanged();
  const first = handNodes().find((node) => get().selected.includes(node.dataset.key));
  if (first && document.activeElement?.closest?.("#hand")) refocus(S.focusCard(get(), first.dataset.key));
}

/** Send what a reducer decided (a play or a pass), or show what it said instead. */
function act({ state: next, send: message }) {
  set(next);
  if (message) {
    if (shell.send(message)) {
      set(S.sent(get()));
      renderActions(get());
    }
  } else {
    renderMessage(get());
  }
}

function play() {
  act(S.play(get()));
}

function pass() {
  act(S.pass(get()));
}

function toggleSort() {
  set(S.toggleSort(get()));
  localStorage.setItem(SORT_KEY, get().sort);
  renderSortLabel(get());
  renderHand(get());
}

/** The card tracker (记牌器) shown or hidden, remembered by the browser. */
function toggleTracker() {
  set(S.toggleTracker(get()));
  localStorage.setItem(TRACKER_KEY, get().trackerShown ? "1" : "0");
  renderTracker(get());
}

function toggleHistory() {
  set(S.toggleHistory(get()));
  renderHistory(get());
}

// ---------------------------------------------------------------------------
// Keys

/** A key pressed at the table, once the shell has let it through (no dialog, no field, no
 * page over the table, no result shown). */
export function key(event) {
  const target = event.target;
  const tag = target?.tagName;
  const onButton = tag === "BUTTON" || tag === "A";
  const inHand = Boolean(target?.closest?.("#hand"));
  const pressed = event.key;
  switch (pressed) {
    case "Enter":
      if (onButton) return;
      event.preventDefault();
      play();
      return;
    case " ":
      if (!inHand) return;
      event.preventDefault();
      set(S.toggleCard(get(), S.focusedKey(get())));
      selectionChanged();
      return;
    case "ArrowLeft":
    case "ArrowRight":
      event.preventDefault();
      set(S.moveFocus(get(), pressed === "ArrowLeft" ? -1 : 1));
      focusHand(get());
      return;
    case "Home":
    case "End":
      if (!inHand) return;
      event.preventDefault();
      set(S.moveFocus(get(), 0, pressed === "Home" ? 0 : -1));
      focusHand(get());
      return;
    case "ArrowUp":
    case "ArrowDown":
      if (!inHand) return;
      event.preventDefault();
      set(S.setSelected(get(), [S.focusedKey(get())], pressed === "ArrowUp"));
      selectionChanged();
      return;
    case "Escape":
      set(S.clearSelection(get()));
      selectionChanged();
      return;
    default:
      break;
  }
  const lower = pressed.toLowerCase();
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
  } else if (lower in RANK_KEYS && pressed.length === 1) {
    event.preventDefault();
    refocus(S.selectRank(get(), RANK_KEYS[lower]));
    selectionChanged();
  }
}
