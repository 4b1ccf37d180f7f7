// The player's hand: cards in one or two overlapping rows, their selection and focus.

import { cardFace, cardLabel } from "../../../deck.js";
import { $, h } from "../../../dom.js";
import { displayHand, focusedKey } from "../state.js";

/** Draw the hand anew (a new state, another sort order, another width). */
export function renderHand(state) {
  const hand = $("#hand");
  const cards = displayHand(state);
  hand.replaceChildren();
  hand.dataset.count = String(cards.length);
  if (!cards.length) {
    layoutHand();
    return;
  }
  const focus = focusedKey(state);
  const chosen = new Set(state.selected);
  const perRow = Math.ceil(cards.length / handRows(cards.length));
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
    node.id = `card-${index}`;
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
  layoutHand();
}

/** Mark the selected cards and the focusable one on the cards already drawn. */
export function renderSelection(state) {
  const chosen = new Set(state.selected);
  const focus = focusedKey(state);
  for (const node of handNodes()) {
    const selected = chosen.has(node.dataset.key);
    node.classList.toggle("selected", selected);
    node.setAttribute("aria-selected", selected ? "true" : "false");
    node.tabIndex = node.dataset.key === focus ? 0 : -1;
  }
}

/** Move the keyboard focus to the state's focused card. */
export function focusHand(state) {
  renderSelection(state);
  handNode(focusedKey(state))?.focus({ preventScroll: true });
}

/** Two rows when one row would overlap the cards too much. */
export function handRows(count) {
  const hand = $("#hand");
  const width = hand.clientWidth || window.innerWidth - 24;
  const cardWidth = parseFloat(getComputedStyle(hand).getPropertyValue("--card-w")) || 72;
  const step = (width - cardWidth) / Math.max(1, count - 1);
  return count > 12 && step < cardWidth * 0.36 ? 2 : 1;
}

/** The overlap of the cards for the hand's width. */
export function layoutHand() {
  const hand = $("#hand");
  const rows = hand.querySelectorAll(".hand-row");
  const width = hand.clientWidth || window.innerWidth - 24;
  const cardWidth = parseFloat(getComputedStyle(hand).getPropertyValue("--card-w")) || 72;
  const perRow = Math.max(...[...rows].map((row) => row.childElementCount), 1);
  const step = Math.min(cardWidth * 0.62, (width - cardWidth - 4) / Math.max(1, perRow - 1));
  hand.style.setProperty("--step", `${Math.max(8, step)}px`);
  hand.classList.toggle("two-rows", rows.length > 1);
}

/** The card nodes in display order. */
export function handNodes() {
  return [...document.querySelectorAll("#hand .card[data-key]")];
}

function handNode(key) {
  return key ? document.querySelector(`#hand .card[data-key="${CSS.escape(key)}"]`) : null;
}

/** A refused play: the selected cards shake. */
export function shakeSelection() {
  for (const node of document.querySelectorAll("#hand .card.selected")) {
    node.classList.remove("shake");
    void node.offsetWidth;
    node.classList.add("shake");
  }
}
