// What a seat at a Tractor table shows beyond the shell's (name, balance, connection,
// Ready, timer): its team side, the dealer's tag, partner or opponent, and how many cards
// it holds (the renderer's `seatBadges`).

import { t } from "../i18n.js";
import { h } from "../../../dom.js";
import { seatName } from "../../../render/common.js";
import { currentGame, sideOf } from "../state.js";

/** A seat's part that is Tractor's: `{side, tags, line, hand}`. */
export function seatBadges(state, index, position) {
  const side = sideOf(state, index);
  const seat = state.table.seats[index];
  const game = currentGame(state);
  if (!seat) return { side, tags: [], line: null, hand: null };
  const tags = [];
  if (position !== "me") {
    tags.push(h("span", { class: `tag tag-role tag-${side}`, "data-testid": `tr-role-${index}` }, t(side === "us" ? "tr.tag.partner" : "tr.tag.opp")));
  }
  if (game && game.dealer === index && !game.finished) {
    tags.push(h("span", { class: "tag tr-tag-dealer", "data-testid": `tr-dealer-${index}` }, t("tr.tag.dealer")));
  }
  const count = game && !game.finished ? game.cards_left[index] : null;
  const line = count === null ? null : h("div", {
    class: "my-count tr-count", "data-testid": `tr-count-${index}`, "data-count": String(count),
    "aria-label": t("tr.seat.cardsLeft", { name: seatName(state, index), count }),
  }, t("tr.seat.cards", { count }));
  return { side, tags, line, hand: null };
}
