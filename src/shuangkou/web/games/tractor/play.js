// Tractor at the table, the game's share of the page's glue (the shell's is app.js): its
// buttons (declare, no more, hint, play or bury, the last trick), the hand's clicks and
// focus, its keys, what its events say, and what it does once the shell has handled a
// server message. The state is the shell's one object, read and replaced through `shell`.

import { t } from "./i18n.js";
import { cardLabel, parseCards } from "../../deck.js";
import { $, announce, toast } from "../../dom.js";
import { tableGlue } from "../../glue.js";
import { handKey } from "../../handkeys.js";
import { seatName } from "../../render/common.js";
import * as S from "./state.js";
import { focusHand, handRows, layoutHand, renderHand, renderSelection } from "./render/hand.js";
import { renderActions, renderGame, renderMessage, suitName } from "./render/table.js";

let shell = null; // {state(), update(next), send(message), receive(message), sound} from app.js

const get = () => shell.state();
const set = (next) => shell.update(next);
const { act, answer } = tableGlue({
  get, set, send: (message) => shell.send(message), refusals: S.REFUSALS, renderMessage, renderActions, hand: () => $("#tr-hand"),
});

/** The game's keys of the state (Tractor remembers no choice). */
export function preferences() {
  return S.initialGameState();
}

/** Once, when the renderer is first used: wire the buttons and the hand. */
export function start(given) {
  shell = given;
  $("#tr-btn-play").addEventListener("click", play);
  $("#tr-btn-hint").addEventListener("click", hint);
  $("#tr-btn-done").addEventListener("click", () => act(S.declareDone(get())));
  $("#tr-btn-last").addEventListener("click", toggleLastTrick);
  $("#tr-declares").addEventListener("click", (event) => {
    const button = event.target.closest("button[data-cards]");
    if (button) act(S.declare(get(), button.dataset.cards));
  });
  const hand = $("#tr-hand");
  hand.addEventListener("click", (event) => {
    const node = event.target.closest(".card[data-key]");
    if (!node) return;
    set(S.focusCard(S.toggleCard(get(), node.dataset.key), node.dataset.key));
    selectionChanged();
  });
  hand.addEventListener("focusin", (event) => {
    const node = event.target.closest(".card[data-key]");
    if (node) set(S.focusCard(get(), node.dataset.key));
  });
  new ResizeObserver(() => {
    const state = get();
    if (state.view !== "table" || !state.tractor.hand.length) return;
    if (hand.querySelectorAll(".hand-row").length !== handRows(state.tractor.hand.length)) renderHand(state);
    else layoutHand();
  }).observe(hand);
}

/** After a message: the moves a state carried are played in as a `hint`; a refused action
 * is said and its cards shake. */
export function after(message, before) {
  switch (message.type) {
    case "state":
      if (message.moves) shell.receive({ type: "hint", seq: message.table.seq, moves: message.moves });
      break;
    case "hint":
      renderActions(get());
      break;
    default:
      answer(message, before);
  }
}

/** What an event says: sounds and announcements; a declaration and a failed throw as toasts. */
export function tell(event) {
  const name = () => seatName(get(), event.seat);
  const cards = (text) => parseCards(text).map(cardLabel).join(", ");
  switch (event.type) {
    case "declare":
      if (event.accepted === false) break;
      toast(() => t("tr.ev.declare", { name: name(), kind: t(`tr.declaredKind.${event.kind}`), cards: cards(event.cards) }), "info");
      break;
    case "trump":
      announce(t("tr.ev.trump", { suit: suitName(event.suit), level: event.level, name: seatName(get(), event.dealer) }));
      break;
    case "redeal":
      toast(() => t("tr.ev.redeal"), "warn");
      break;
    case "throw_failed":
      toast(() => t("tr.throwFailed", { name: name(), attempted: cards(event.attempted), forced: cards(event.forced) }), "warn", 5000);
      break;
    case "play":
      shell.sound.play("play");
      announce(t("tr.ev.played", { name: name(), cards: cards(event.cards) }));
      break;
    case "trick":
      announce(t("tr.ev.trick", { name: seatName(get(), event.winner), points: event.points }));
      break;
    default:
      break;
  }
}

function selectionChanged() {
  renderSelection(get());
  renderMessage(get());
  renderActions(get());
}

function hint() {
  set(S.hint(get()));
  selectionChanged();
}

function play() {
  act(S.play(get()));
}

function toggleLastTrick() {
  set(S.toggleLastTrick(get()));
  renderGame(get(), { center: null });
}

/** A key at the table, once the shell has let it through. */
export function key(event) {
  const escape = () => {
    set(S.clearSelection(get()));
    selectionChanged();
  };
  if (handKey(event, { selector: "#tr-hand", S, get, set, focus: () => focusHand(get()), selectionChanged, play, escape })) return;
  const lower = event.key.toLowerCase();
  if (lower === "h") {
    event.preventDefault();
    hint();
  } else if (lower === "l") {
    event.preventDefault();
    toggleLastTrick();
  }
}
