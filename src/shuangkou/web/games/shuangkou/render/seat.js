// What a seat at a Shuangkou table shows beyond the shell's (name, balance, connection,
// Ready, timer): with four seats its role (partner, opponent, or its place before the deal)
// and its finishing place; its cards, as a fan of backs with a count for the other seats and
// as a line under our own balance. Drawn by the shell's seat (the renderer's `seatBadges`).

import { t } from "../i18n.js";
import { cardBack } from "../../../deck.js";
import { h } from "../../../dom.js";
import { displayName } from "../../../render/common.js";
import { isFourSeat, seatFacts } from "../state.js";

/**
 * A seat's part that is Shuangkou's: `{side, tags, line, hand}`: its team side ("us",
 * "them" or null, for the seat's colours), the tags shown before the shell's, a line under
 * the balance (our card count) and what is drawn beside the seat (the fan of backs); each
 * null or empty when there is nothing to show (a free seat: its side only).
 */
export function seatBadges(state, index, position) {
  const { side, role, place, cardsLeft } = seatFacts(state, index, position);
  const seat = state.table.seats[index];
  if (!seat) return { side, tags: [], line: null, hand: null }; // a free seat: its side only
  const tags = [];
  if (role) {
    const words = role === "partner" ? t("seat.partner") : t(`seat.${role}.${position}`);
    tags.push(h("span", { class: `tag tag-role${side ? ` tag-${side}` : ""}`, "data-testid": `role-${index}` }, words));
  }
  if (place) tags.push(h("span", { class: `tag tag-place place-${place}`, "data-testid": `place-${index}` }, t(`place.${place}`)));
  if (cardsLeft === null) return { side, tags, line: null, hand: null };
  if (position === "me") return { side, tags, line: h("div", { class: "my-count" }, t("seat.myCards", { count: cardsLeft })), hand: null };
  const four = isFourSeat(state);
  const backs = h("div", { class: "backs", "aria-label": t("seat.cardsLeft", { name: displayName(seat), count: cardsLeft }),
    role: "img", "data-testid": four ? `cards-${index}` : "opp-cards" });
  const shown = Math.min(cardsLeft, four && position !== "top" ? 9 : 27);
  for (let i = 0; i < shown; i += 1) backs.append(cardBack());
  backs.style.setProperty("--n", String(Math.max(1, shown)));
  const hand = h("div", { class: `opp-hand${cardsLeft ? "" : " out"}` }, backs,
    h("span", { class: "count-badge", "data-testid": four ? `count-${index}` : "opp-count" }, String(cardsLeft)));
  return { side, tags, line: null, hand };
}
