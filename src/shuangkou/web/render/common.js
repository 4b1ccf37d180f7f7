// What several renderers write, the shell's and the games': names of seats, amounts, small
// cards, a refused action in words.

import { t, formatNumber } from "../i18n.js";
import { h } from "../dom.js";
import { isManySeat, mySeat, positionOf, seatInfo } from "../state.js";

const SHIPPED_TITLES = { "Points room": "points", "Wealth room": "wealth", "Classic room": "classic", "Qianbian room (千变)": "qianbian" };

/** A seat's name as shown: bots created by the server are all called "Bot". */
export function displayName(seat) {
  if (!seat) return t("seat.opponent");
  return seat.bot && seat.name === "Bot" ? t("seat.botName") : seat.name;
}

/** The tag of a bot's seat that names the level it plays (or played) at; null for a person. */
export function levelTag(seat, testid) {
  if (!seat?.bot_level) return null;
  const level = t(`botLevel.${seat.bot_level}`);
  return h("span", { class: `tag tag-level level-${seat.bot_level}`, "data-testid": testid, title: t("seat.botLevelHelp", { level }) }, level);
}

/** A seat's name as a list of players writes it: a bot's with its level ("Bot (Expert)"). */
export function nameWithLevel(seat) {
  const name = displayName(seat);
  return seat?.bot_level ? t("seat.withLevel", { name, level: t(`botLevel.${seat.bot_level}`) }) : name;
}

/** "You", or the seat's name (remembered after it left); at four or five seats the server's
 * bots, all called "Bot", are told apart by where they sit ("Bot (right)"). */
export function seatName(state, index) {
  if (index === null || index === undefined) return "";
  if (index === mySeat(state)) return t("seat.you");
  const info = seatInfo(state, index);
  if (isManySeat(state) && info?.bot && info.name === "Bot") return t("seat.botAt", { where: t(`seat.where.${positionOf(state, index)}`) });
  return displayName(info);
}

export function unit(edition) {
  return t(`unit.${edition || "points"}`);
}

export function money(amount, edition) {
  if (amount === null || amount === undefined) return "—";
  return `${formatNumber(amount)} ${unit(edition)}`;
}

export function signed(amount) {
  if (amount > 0) return `+${formatNumber(amount)}`;
  if (amount < 0) return `−${formatNumber(-amount)}`;
  return "0";
}

export function initial(name) {
  return [...(name || "?").trim()][0]?.toUpperCase() || "?";
}

export function roomTitle(room) {
  const shipped = SHIPPED_TITLES[room.title];
  return shipped ? t(`room.${shipped}`) : room.title;
}

/** A card in a line of text (the recent plays, the flip chip). */
export function miniCard(card) {
  if (card.joker) return h("span", { class: `mini joker ${card.rank === "BJ" ? "red" : "black"}` }, t(`joker.short.${card.rank}`));
  const glyph = { S: "♠", H: "♥", C: "♣", D: "♦" }[card.suit] || "";
  return h("span", { class: `mini ${card.red ? "red" : "black"}` }, card.rank + glyph);
}

/** A refused action in the page's words, from the server's error code: the game's own words
 * for it when `prefix` is given and it has them (`PREFIX.err.CODE`), else `err.CODE` (in the
 * shell's dictionary or the words of the table's game), else its English `text`. A game may
 * say more (Shuangkou: the combination a play did not beat). */
export function refusalText({ code, text }, prefix = null) {
  for (const key of prefix ? [`${prefix}.err.${code}`, `err.${code}`] : [`err.${code}`]) {
    const known = t(key);
    if (known !== key) return known;
  }
  return t("err.generic", { message: text });
}

/** The message under a game's hand in `node`: hidden when there is none, else the words
 * `text(message)` gives it, styled by its kind (an error, a hint, information). */
export function showMessage(node, message, text) {
  node.hidden = !message;
  node.className = `play-message${message ? ` msg-${message.kind}` : ""}`;
  node.textContent = message ? text(message) : "";
}
