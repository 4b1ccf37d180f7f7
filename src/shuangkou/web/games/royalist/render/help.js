// Royalist's words of how to play: the rules in short (the lobby's "How to play") and the
// help's body (roles, declarations, sets, the score, the keys), with the called guard card
// of Y9 at a table whose room calls it. Text from the dictionaries.

import { t } from "../i18n.js";
import { h } from "../../../dom.js";
import { calledHere } from "../play.js";

const RULE_KEYS = ["roy.rule1", "roy.rule2", "roy.rule3"];
const HELP_KEYS = ["roy.help.roles", "roy.help.declare", "roy.help.sets", "roy.help.score"];

/** The rules in short, as the lobby lists them (each with a crown). */
export function lobbyRules() {
  return RULE_KEYS.map((key) => h("li", {}, h("span", { class: "rule-suit roy-rule", "aria-hidden": "true" }, "♛"), h("span", {}, t(key))));
}

/** The help's body: what the game is, its rules (at a table whose room calls the guard
 * card, how it is called instead of the guard card, Y9), the keys. */
export function helpNodes() {
  const keys = calledHere() ? HELP_KEYS.map((key) => (key === "roy.help.roles" ? "roy.help.called" : key)) : HELP_KEYS;
  return [
    h("h3", { class: "roy-help-title" }, t("roy.name")),
    h("p", {}, t("roy.help.intro")),
    h("ul", { class: "help-rules", "data-testid": "roy-help" }, ...keys.map((key) => h("li", { "data-key": key }, t(key)))),
    h("p", { class: "hint-text" }, t("roy.help.keys")),
  ];
}
