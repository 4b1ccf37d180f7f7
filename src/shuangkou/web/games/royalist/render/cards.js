// Royalist's cards as drawn: a face or a small card with the marked jokers (皇 on the emperor
// card BJ*, 保 on the guard card SJ*) and the called guard card (保 on the 保子牌, 7H*, Y9),
// the marks of the hand's cards, and a set in words ("3 × 7 + Big joker").

import { t } from "../i18n.js";
import { cardFace, cardLabel } from "../../../deck.js";
import { h } from "../../../dom.js";
import { miniCard, seatName } from "../../../render/common.js";
import { royalCard, royalCards } from "../state.js";

/** The words of a marked card's mark: its joker's, or the 保子牌's. */
const markKey = (card) => (card.called ? "called" : card.rank);

/** The mark of a marked card, or null. */
function mark(card) {
  return card.marked ? h("span", { class: "roy-mark", title: t(`roy.markHelp.${markKey(card)}`), "aria-label": t(`roy.markHelp.${markKey(card)}`) },
    t(`roy.mark.${markKey(card)}`)) : null;
}

/** The marked cards of a hand drawn by the shared hand (`root`'s cards, each with its
 * `data-card`) not marked yet: marked, and named so. */
export function markHand(root) {
  for (const node of root.querySelectorAll(".card[data-card$='*']:not(.roy-marked)")) {
    const card = royalCard(node.dataset.card);
    node.classList.add("roy-marked");
    node.append(mark(card));
    node.setAttribute("aria-label", `${cardLabel(card)}, ${t(`roy.markHelp.${markKey(card)}`)}`);
  }
}

/** A card face (the shell's), a marked joker with its mark. */
export function royalFace(card) {
  const face = cardFace(card);
  if (card.marked) face.classList.add("roy-marked"), face.append(mark(card));
  return face;
}

/** A small card in a line (the shell's), a marked joker with its mark. */
export function royalMini(card) {
  const mini = miniCard(card);
  if (card.marked) mini.classList.add("roy-marked"), mini.append(mark(card));
  return mini;
}

/** The small cards of a card string. */
export function miniCards(text) {
  return royalCards(text).map(royalMini);
}

/** The words of a reveal (Y2.9): the guard card or the 保子牌 (`called`, Y9) played by the
 * guard, or by the emperor alone. */
export function revealKey(event, called) {
  return `roy.ev.reveal${called ? "Called" : ""}${event.role === "solo" ? "Solo" : "Guard"}`;
}

/** The published declarations in words (Y2.6–Y2.7), as the `declarations` event has them
 * (`open_guard` the guard's seat or null, `revolts`, `revolt_success`, `guard`, `solo`). */
export function declarationWords(state, declarations) {
  const name = (seat) => seatName(state, seat);
  const parts = [];
  if (Number.isInteger(declarations.open_guard)) parts.push(t("roy.ev.openGuard", { name: name(declarations.open_guard) }));
  if (declarations.revolts?.length) parts.push(t("roy.ev.revolts", { names: declarations.revolts.map(name).join(t("list.and")) }));
  if (declarations.revolt_success) {
    parts.push(declarations.solo ? t("roy.ev.revoltSolo") : t("roy.ev.revoltSuccess", { name: name(declarations.guard) }));
  }
  return parts.length ? parts.join("; ") : t("roy.ev.none");
}

/** A set as the server reads it (`{naturals, rank, big, small, top}`, Y4.2, Y9) in words. */
export function setText(set) {
  if (!set) return "";
  const part = (count, rank) => (count === 1 ? rank : t("roy.set.many", { count, rank }));
  return [
    set.naturals ? part(set.naturals, set.rank) : null,
    set.big ? part(set.big, t("rank.BJ")) : null,
    set.small ? part(set.small, t("rank.SJ")) : null,
    set.top ? t("roy.set.top") : null,
  ].filter(Boolean).join(" + ");
}
