// What a seat at a Royalist table shows beyond the shell's (name, balance, connection, Ready,
// timer): its role as we know it (the emperor always, ours to us, a teammate or an opponent
// once known; 皇帝牌 while it holds the throne offer), its place once out, and its cards:
// a count (with a short fan of backs beside the felt), our own as a line under the balance.

import { t } from "../i18n.js";
import { cardBack } from "../../../deck.js";
import { h } from "../../../dom.js";
import { displayName } from "../../../render/common.js";
import { seatFacts, soloOf } from "../state.js";

/** A seat's part that is Royalist's: `{side, tags, line, hand}` (docs/web.md, "A renderer per game"). */
export function seatBadges(state, index, position) {
  const seat = state.table.seats[index];
  const { side, role, candidate, teammate, place, cardsLeft } = seatFacts(state, index);
  if (!seat) return { side, tags: [], line: null, hand: null };
  const tags = [];
  if (candidate) tags.push(h("span", { class: "tag roy-candidate", "data-testid": `candidate-${index}` }, t("roy.candidate")));
  if (role) {
    const words = role === "emperor" && soloOf(state) ? t("roy.role.solo") : t(`roy.role.${role}`);
    tags.push(h("span", { class: `tag tag-role roy-role roy-${role}${side ? ` tag-${side}` : ""}`, "data-testid": `role-${index}`, "data-role": role },
      position === "me" ? t("roy.role.yours", { role: words }) : words));
  }
  if (teammate) tags.push(h("span", { class: "tag roy-teammate", "data-testid": `teammate-${index}` }, t("roy.teammate")));
  if (place) tags.push(h("span", { class: `tag tag-place place-${place}`, "data-testid": `place-${index}` }, t(`roy.place.${place}`)));
  if (cardsLeft === null) return { side, tags, line: null, hand: null };
  if (position === "me") return { side, tags, line: h("div", { class: "my-count" }, t("roy.myCards", { count: cardsLeft })), hand: null };
  const backs = h("div", { class: "backs", role: "img", "aria-label": t("roy.cardsLeft", { name: displayName(seat), count: cardsLeft }) });
  const shown = Math.min(cardsLeft, 6);
  for (let i = 0; i < shown; i += 1) backs.append(cardBack());
  const hand = h("div", { class: `opp-hand${cardsLeft ? "" : " out"}` }, backs,
    h("span", { class: "count-badge", "data-testid": `count-${index}` }, String(cardsLeft)));
  return { side, tags, line: null, hand };
}
