// The player's hand: cards in one or two overlapping rows, their selection and focus, and
// the pointer's clicks and drags across them. Every function takes the hand's element
// (`root`, Shuangkou's #hand by default), so that another game's renderer may draw its own
// hand with them (Royalist's does); the state's keys read are the hand's: `hand`, `sort`,
// `selected`, `focusKey`, `dealAnimation`.

import { cardFace, cardLabel } from "../../../deck.js";
import { $, h } from "../../../dom.js";
import { layoutFan, rowsFor } from "../../../fan.js";
import { displayHand, focusCard, focusedKey, setSelected } from "../state.js";

const shuangkouHand = () => $("#hand");

/** Draw the hand anew (a new state, another sort order, another width). */
export function renderHand(state, root = shuangkouHand()) {
  const hand = root;
  const cards = displayHand(state);
  hand.replaceChildren();
  hand.dataset.count = String(cards.length);
  if (!cards.length) {
    layoutHand(hand);
    return;
  }
  const focus = focusedKey(state);
  const chosen = new Set(state.selected);
  const perRow = Math.ceil(cards.length / handRows(cards.length, hand));
  let row = null;
  cards.forEach((card, index) => {
    if (index % perRow === 0) {
      row = h("div", { class: "hand-row", role: "presentation" });
      hand.append(row);
    }
    const node = cardFace(card);
    const selected = chosen.has(card.key);
    node.classList.add("in-hand");
    if (selected) node.classList.add("selected");
    node.id = `${hand.id}-card-${index}`;
    node.dataset.key = card.key;
    node.dataset.index = String(index);
    node.dataset.row = String(Math.floor(index / perRow));
    node.setAttribute("role", "option");
    node.setAttribute("aria-selected", selected ? "true" : "false");
    node.setAttribute("aria-label", cardLabel(card));
    node.tabIndex = card.key === focus ? 0 : -1;
    if (state.dealAnimation) {
      node.classList.add("dealt");
      node.style.animationDelay = `${index * 18}ms`;
    }
    row.append(node);
  });
  layoutHand(hand);
}

/** Mark the selected cards and the focusable one on the cards already drawn. */
export function renderSelection(state, root = shuangkouHand()) {
  const chosen = new Set(state.selected);
  const focus = focusedKey(state);
  for (const node of handNodes(root)) {
    const selected = chosen.has(node.dataset.key);
    node.classList.toggle("selected", selected);
    node.setAttribute("aria-selected", selected ? "true" : "false");
    node.tabIndex = node.dataset.key === focus ? 0 : -1;
  }
}

/** Move the keyboard focus to the state's focused card. */
export function focusHand(state, root = shuangkouHand()) {
  renderSelection(state, root);
  handNode(focusedKey(state), root)?.focus({ preventScroll: true });
}

/** Two rows when one row would overlap the cards too much. */
export function handRows(count, root = shuangkouHand()) {
  return rowsFor(root, count);
}

/** The overlap of the cards for the hand's width. */
export function layoutHand(root = shuangkouHand()) {
  layoutFan(root);
}

/** The card nodes in display order. */
export function handNodes(root = shuangkouHand()) {
  return [...root.querySelectorAll(".card[data-key]")];
}

function handNode(key, root) {
  return key ? root.querySelector(`.card[data-key="${CSS.escape(key)}"]`) : null;
}

/**
 * The pointer on the hand: a click selects or unselects a card, a drag across a row selects
 * (or unselects, as the first card) every card it passes; the focus follows; the hand is
 * laid out again when its width changes. `get()` and `set(next)` read and replace the page's
 * state, `changed()` redraws what a new selection changes (marks, message, buttons).
 */
export function bindHand(root, { get, set, changed }) {
  let drag = null; // {on, pointer, last, row}
  root.addEventListener("pointerdown", (event) => {
    if (event.button !== 0) return;
    const node = event.target.closest(".card[data-key]");
    if (!node) return;
    event.preventDefault();
    const key = node.dataset.key;
    const on = !get().selected.includes(key);
    drag = { on, pointer: event.pointerId, last: Number(node.dataset.index), row: node.dataset.row };
    set(focusCard(setSelected(get(), [key], on), key));
    focusHand(get(), root);
    try { root.setPointerCapture(event.pointerId); } catch { /* not capturable */ }
    changed();
  });
  root.addEventListener("pointermove", (event) => {
    if (!drag || event.pointerId !== drag.pointer) return;
    const target = document.elementFromPoint(event.clientX, event.clientY);
    const node = target?.closest?.(".card[data-key]");
    if (!node || !root.contains(node) || node.dataset.row !== drag.row) return;
    const index = Number(node.dataset.index);
    if (index === drag.last) return;
    const nodes = handNodes(root);
    const [from, to] = index > drag.last ? [drag.last + 1, index] : [index, drag.last - 1];
    set(setSelected(get(), nodes.slice(from, to + 1).map((card) => card.dataset.key), drag.on));
    drag.last = index;
    changed();
  });
  const end = (event) => {
    if (drag && event.pointerId === drag.pointer) drag = null;
  };
  root.addEventListener("pointerup", end);
  root.addEventListener("pointercancel", end);
  root.addEventListener("focusin", (event) => {
    const node = event.target.closest(".card[data-key]");
    if (node) set(focusCard(get(), node.dataset.key));
  });
  new ResizeObserver(() => {
    const state = get();
    if (state.view !== "table" || root.closest("[hidden]")) return;
    const rows = root.querySelectorAll(".hand-row").length;
    if (state.hand.length && rows !== handRows(state.hand.length, root)) renderHand(state, root);
    else layoutHand(root);
  }).observe(root);
}
