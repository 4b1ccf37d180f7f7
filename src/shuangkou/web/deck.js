// Cards for display, as every game of the two decks shows them: parsing the server's card
// strings ("10H", "QS", "SJ"), their names, sorting a hand, drawing faces and backs. No rule
// logic: what a combination is, what is legal and what beats what come from the server, and
// the words for a game's combinations are its renderer's (games/NAME/).

import { t } from "./i18n.js";

export const RANKS = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "SJ", "BJ"];
const VALUE = Object.fromEntries(RANKS.map((rank, index) => [rank, index + 3]));
export const SUIT_GLYPH = { S: "♠", H: "♥", C: "♣", D: "♦" };
const SUIT_ORDER = { S: 0, H: 1, C: 2, D: 3 };

/** A card string as the server writes it: rank then optional suit; jokers "SJ" / "BJ". */
export function parseCard(text) {
  if (text === "SJ" || text === "BJ") {
    return { text, rank: text, suit: null, value: VALUE[text], joker: true, red: text === "BJ" };
  }
  const last = text.slice(-1);
  const suit = text.length > 1 && last in SUIT_GLYPH ? last : null;
  const rank = suit ? text.slice(0, -1) : text;
  return { text, rank, suit, value: VALUE[rank] ?? 0, joker: false, red: suit === "H" || suit === "D" };
}

export function parseCards(text) {
  return (text || "").split(/\s+/).filter(Boolean).map(parseCard);
}

/** The rank as printed on a card face ("10", "J", …; jokers have no index). */
export function rankText(rank) {
  if (rank === "SJ" || rank === "BJ") return t(`rank.${rank}`);
  return rank;
}

/** Accessible name of a card: "Queen of hearts" / "红桃Q". */
export function cardLabel(card) {
  if (card.joker) return t(`rank.${card.rank}`);
  const rank = t(`rankName.${card.rank}`);
  return card.suit ? t("card.of", { rank, suit: t(`suit.${card.suit}`) }) : rank;
}

/** Sort for display: "rank" (high to low, jokers first) or "group" (bigger same-rank groups first). */
export function sortCards(cards, mode) {
  const byRank = (a, b) => b.value - a.value || (SUIT_ORDER[a.suit] ?? -1) - (SUIT_ORDER[b.suit] ?? -1);
  const sorted = [...cards].sort(byRank);
  if (mode !== "group") return sorted;
  const count = {};
  for (const card of cards) count[card.rank] = (count[card.rank] || 0) + 1;
  const jokerFirst = (card) => (card.joker ? 1 : 0);
  return sorted.sort((a, b) => jokerFirst(b) - jokerFirst(a) || count[b.rank] - count[a.rank] || byRank(a, b));
}

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** A card face. `standsFor` (a rank) marks a joker with what it stands for in a play. */
export function cardFace(card, { standsFor = null } = {}) {
  const node = el("div", "card");
  node.dataset.card = card.text;
  if (card.joker) {
    node.classList.add("joker", card.rank === "BJ" ? "joker-big" : "joker-small");
    const corner = el("span", "corner tl");
    corner.append(el("span", "joker-word", "JOKER"));
    const face = el("span", "joker-face");
    face.append(el("span", "joker-star", "★"), el("span", "joker-name", t(`joker.short.${card.rank}`)));
    const corner2 = el("span", "corner br");
    corner2.append(el("span", "joker-word", "JOKER"));
    node.append(corner, face, corner2);
  } else {
    node.classList.add(card.red ? "red" : "black");
    const glyph = card.suit ? SUIT_GLYPH[card.suit] : "";
    for (const where of ["tl", "br"]) {
      const corner = el("span", `corner ${where}`);
      corner.append(el("span", "idx-rank", card.rank), el("span", "idx-suit", glyph));
      node.append(corner);
    }
    if (["J", "Q", "K"].includes(card.rank)) {
      const face = el("span", "court");
      face.append(el("span", "court-letter", card.rank), el("span", "court-suit", glyph));
      node.append(face);
    } else if (card.rank === "A") {
      node.append(el("span", "pip ace", glyph));
    } else {
      node.append(el("span", "pip", glyph));
    }
  }
  if (standsFor) {
    node.classList.add("wild");
    const tag = el("span", "stands-for", `= ${standsFor}`);
    tag.title = t("combo.standsFor", { joker: t(`rank.${card.rank}`), rank: standsFor });
    node.append(tag);
  }
  return node;
}

/** A card back. */
export function cardBack() {
  const node = el("div", "card back");
  node.append(el("span", "back-art"));
  return node;
}

/** Cards shown as text, e.g. the hand a player still held at the end: "3♠ 10♥ Big joker". */
export function heldText(cards) {
  return parseCards(cards.join(" ")).map((card) => `${rankText(card.rank)}${card.suit ? SUIT_GLYPH[card.suit] : ""}`).join(" ");
}
