// Shuangkou's words of how to play: the rules in short (the lobby's "How to play" and the
// help), and the help's body: the bomb phases (R4, C3.1) and the keys. All of it is text
// from the dictionaries, not worked out by the page.

import { t } from "../i18n.js";
import { h } from "../../../dom.js";

const RULE_KEYS = ["help.rule1", "help.rule2", "help.rule3", "help.rule4", "help.rule5"];
const HELP_KEYS = [
  ["← →", "help.keyMove"], ["Space", "help.keySpace"], ["↑ ↓", "help.keyUpDown"],
  ["3–9 0 J Q K A 2", "help.keyRank"], ["X / D", "help.keyJoker"], ["Enter", "help.keyPlay"],
  ["P", "help.keyPass"], ["H", "help.keyHint"], ["S", "help.keySort"], ["C", "help.keyTracker"], ["Esc", "help.keyClear"], ["?", "help.keyHelp"],
];
/** The rows of the help's bomb table (R4, C3.1): each names its bomb, an example and its phase, all as text. */
const BOMB_ROWS = ["n4", "n5", "n6", "j3", "j4", "nn", "serial"];

/** The rules in short, as the lobby lists them (each with a suit). */
export function lobbyRules() {
  const suits = ["♠", "♥", "♣", "♦"];
  return RULE_KEYS.map((key, index) =>
    h("li", {}, h("span", { class: `rule-suit ${index % 2 ? "red" : ""}`, "aria-hidden": "true" }, suits[index % suits.length]), h("span", {}, t(key))));
}

/** Which game a lobby's room plays, and in a line what differs (the room's `variant`: Rush,
 * classic or 千变; by its seats where the server names none). */
export function roomGame(room) {
  const variant = room.variant || (room.seats === 4 ? "classic" : "rush");
  return { game: t(`room.game.${variant}`), about: t(`room.about.${variant}`) };
}

/** The help's body: the rules, 千变, the bomb phases, the keys. */
export function helpNodes() {
  return [
    h("p", {}, t("help.intro")),
    h("ul", { class: "help-rules" }, ...RULE_KEYS.map((key) => h("li", {}, t(key)))),
    h("h3", {}, t("help.qianbian")),
    h("p", { "data-testid": "help-qianbian" }, t("help.qianbianText")),
    h("h3", {}, t("help.bombs")),
    h("p", {}, t("help.bombsIntro")),
    h("table", { class: "bomb-phases", "data-testid": "bomb-phases" },
      h("thead", {}, h("tr", {}, ...["help.bombCol", "help.exampleCol", "help.phaseCol"].map((key) => h("th", { scope: "col" }, t(key))))),
      h("tbody", {}, ...BOMB_ROWS.map((row) => h("tr", { "data-bomb": row },
        h("th", { scope: "row" }, t(`help.bomb.${row}`)), h("td", {}, t(`help.bombEx.${row}`)), h("td", { class: "phase" }, t(`help.bombPhase.${row}`)))))),
    h("p", { class: "hint-text" }, t("help.bombsNote")),
    h("h3", {}, t("help.keys")),
    h("table", { class: "keys" }, h("tbody", {}, ...HELP_KEYS.map(([key, text]) =>
      h("tr", {}, h("th", { scope: "row" }, h("kbd", {}, key)), h("td", {}, t(text)))))),
    h("p", { class: "hint-text" }, t("help.mouse")),
  ];
}
