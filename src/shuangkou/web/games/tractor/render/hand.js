// Our hand at a Tractor table: the cards by effective suit, side suits ♠ ♥ ♣ ♦ then the
// trumps, each suit's first card set apart from the one before, the trumps marked; in one
// row, or two overlapping rows when one would overlap the cards too much (25 cards, 33 while
// burying, on a phone). Selection and focus are redrawn in place.

import { t } from "../i18n.js";
import { cardFace, cardLabel } from "../../../deck.js";
import { $, h } from "../../../dom.js";
import { layoutFan, rowsFor } from "../../../fan.js";
import { focusedKey } from "../state.js";

const GAP = 0.3; // a suit's first card stands this many card widths apart from the one before, room allowing

/** Draw the hand anew (a new state, another width). */
export function renderHand(state) {
  const hand = $("#tr-hand");
  const cards = state.tractor.hand;
  hand.replaceChildren();
  hand.dataset.count = String(cards.length);
  const rows = handRows(cards.length);
  const perRow = Math.ceil(cards.length / rows) || 1;
  const focus = focusedKey(state);
  const chosen = new Set(state.tractor.selected);
  let row = null;
  cards.forEach((card, index) => {
    if (index % perRow === 0) {
      row = h("div", { class: "hand-row", role: "presentation" });
      hand.append(row);
    }
    const node = cardFace(card);
    node.classList.add("in-hand");
    node.classList.toggle("trump", card.trump);
    node.classList.toggle("suit-start", index % perRow !== 0 && card.group !== cards[index - 1].group);
    node.classList.toggle("selected", chosen.has(card.key));
    node.id = `tr-card-${index}`;
    Object.assign(node.dataset, { key: card.key, index: String(index), group: card.group });
    node.setAttribute("role", "option");
    node.setAttribute("aria-selected", chosen.has(card.key) ? "true" : "false");
    node.setAttribute("aria-label", card.trump ? `${cardLabel(card)} (${t("tr.hand.trump")})` : cardLabel(card));
    node.tabIndex = card.key === focus ? 0 : -1;
    row.append(node);
  });
  layoutHand();
}

/** Mark the selected cards and the focusable one on the cards already drawn. */
export function renderSelection(state) {
  const chosen = new Set(state.tractor.selected);
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
  handNodes().find((node) => node.dataset.key === focusedKey(state))?.focus({ preventScroll: true });
}

export function handNodes() {
  return [...document.querySelectorAll("#tr-hand .card[data-key]")];
}

/** Two rows when one row would overlap the cards too much. */
export function handRows(count) {
  return rowsFor($("#tr-hand"), count);
}

/** The overlap of the cards for the hand's width, the suits' gaps included. */
export function layoutHand() {
  layoutFan($("#tr-hand"), GAP);
}
