// Royalist at the table, the game's share of the page's glue (the shell's is app.js): its
// buttons (the throne offer's and the declarations' choices, Play, Pass, Hint, the sort
// order), the hand (Shuangkou's clicks and drags), its keys, what its events say (sounds,
// announcements, toasts), and what it does once the shell has handled a server message.

import { t } from "./i18n.js";
import { cardLabel } from "../../deck.js";
import { $, announce, toast } from "../../dom.js";
import { tableGlue } from "../../glue.js";
import { RANK_KEYS, handKey } from "../../handkeys.js";
import { seatName } from "../../render/common.js";
import { bindHand, focusHand, handNodes, renderHand, renderSelection } from "../shuangkou/render/hand.js";
import * as S from "./state.js";
import { declarationWords, markHand, revealKey, setText } from "./render/cards.js";
import { renderActions, renderMessage, renderSortLabel } from "./render/table.js";

const SORT_KEY = "shuangkou.sort"; // the hand's order, the same choice as Shuangkou's

let shell = null; // {state(), update(next), send(message), receive(message), sound} from app.js

const get = () => shell.state();
const set = (next) => shell.update(next);
const hand = () => $("#roy-hand");
const { act, answer } = tableGlue({
  get, set, send: (message) => shell.send(message), refusals: S.REFUSALS, renderMessage, renderActions, hand,
});

/** The game's keys of the state (the hand's order is the one the browser remembers). */
export function preferences(storage = globalThis.localStorage) {
  return { ...S.initialGameState(), sort: storage?.getItem(SORT_KEY) === "group" ? "group" : "rank" };
}

/** Whether the page is at a table whose room calls the guard card (Y9): the help says so. */
export function calledHere() {
  return Boolean(shell?.state().table) && S.calledRoom(get());
}

/** Once, when the renderer is first used: wire the game's buttons, the choices and the hand. */
export function start(given) {
  shell = given;
  $("#roy-play").addEventListener("click", play);
  $("#roy-pass").addEventListener("click", pass);
  $("#roy-hint").addEventListener("click", hint);
  $("#roy-sort").addEventListener("click", toggleSort);
  $("#felt").addEventListener("click", (event) => {
    const button = event.target.closest("[data-choice]");
    if (button) act(S.decide(get(), JSON.parse(button.dataset.choice)));
  });
  bindHand(hand(), { get, set, changed: selectionChanged });
  new MutationObserver(() => markHand(hand())).observe(hand(), { childList: true, subtree: true }); // however the hand is drawn
}

/** After a message: the deal is no longer animated; a refused action is said and its cards shake. */
export function after(message, before) {
  switch (message.type) {
    case "state":
      set(S.dealShown(get()));
      break;
    default:
      answer(message, before);
  }
}

/** What an event says: sounds, announcements, toasts (words in the current language). The
 * shell tells timeouts, hosting and escapes. */
export function tell(event) {
  const name = (seat = event.seat) => seatName(get(), seat);
  const say = (words, kind = "info", ms = 3600) => {
    toast(words, kind, ms);
    announce(words());
  };
  switch (event.type) {
    case "abdicate":
      say(() => t("roy.ev.abdicate", { name: name(), to: name(event.to) }));
      break;
    case "ascend": {
      const open = event.solo === "open";
      const key = event.call ? (open ? "roy.ev.callOpen" : "roy.ev.call") : open ? "roy.ev.ascendOpen" : "roy.ev.ascend";
      say(() => t(key, { name: name(), card: event.call ? cardLabel(S.royalCard(event.call)) : "" }), event.solo ? "warn" : "info");
      break;
    }
    case "declarations":
      say(() => t("roy.ev.declarations", { what: declarationWords(get(), event) }), event.multiplier > 1 ? "warn" : "info", 6000);
      break;
    case "reveal":
      say(() => t(revealKey(event, S.calledRoom(get())), { name: name() }), "warn", 5000);
      break;
    case "play":
      shell.sound.play("play");
      announce(t("roy.ev.played", { name: name(), set: setText(event.set) }));
      break;
    case "pass":
      shell.sound.play("pass");
      announce(`${t(`roy.pass.${event.cause || "player"}`)} — ${name()}`);
      break;
    case "out": {
      const place = () => t(`roy.place.${event.place}`);
      say(() => (event.seat === S.mySeat(get()) ? t("roy.ev.youOut", { place: place() }) : t("roy.ev.out", { name: name(), place: place() })));
      break;
    }
    case "jiefeng":
      announce(t("roy.ev.jiefeng", { name: name() }));
      break;
    default:
      break;
  }
}

// ---------------------------------------------------------------------------
// The hand and the actions

function selectionChanged() {
  renderSelection(get(), hand());
  renderMessage(get());
  renderActions(get());
}

function hint() {
  set(S.hint(get()));
  selectionChanged();
  const first = handNodes(hand()).find((node) => get().selected.includes(node.dataset.key));
  if (first && document.activeElement?.closest?.("#roy-hand")) {
    set(S.focusCard(get(), first.dataset.key));
    focusHand(get(), hand());
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
  renderHand(get(), hand());
}

/** A rank's key: Shuangkou's (the next card of that rank selected and focused, a full rank
 * unselected), but the 保子牌 is no card of its rank (Y9): it is clicked. */
function selectRank(rank) {
  set(S.selectRank(get(), rank, { eligible: (card) => !card.called, noRank: "roy.msg.noRank" }));
  focusHand(get(), hand());
  selectionChanged();
}

/** A key pressed at the table, once the shell has let it through. */
export function key(event) {
  const escape = () => {
    set(S.clearSelection(get()));
    selectionChanged();
  };
  const focus = () => focusHand(get(), hand());
  if (handKey(event, { selector: "#roy-hand", S, get, set, focus, selectionChanged, play, escape })) return;
  const pressed = event.key;
  const lower = pressed.toLowerCase();
  const actions = { p: pass, h: hint, s: toggleSort };
  if (lower in actions) {
    event.preventDefault();
    actions[lower]();
  } else if (lower in RANK_KEYS && pressed.length === 1) {
    event.preventDefault();
    selectRank(RANK_KEYS[lower]);
  }
}
