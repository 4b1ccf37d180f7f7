// Tractor's words of how to play: the rules in short (the lobby's "How to play" and the
// help) and the keys.

import { t } from "../i18n.js";
import { h } from "../../../dom.js";

const RULE_KEYS = ["tr.rule1", "tr.rule2", "tr.rule3", "tr.rule4", "tr.rule5"];
const KEYS = [["← →", "tr.help.keyMove"], ["Space", "tr.help.keySpace"], ["Enter", "tr.help.keyPlay"], ["H", "tr.help.keyHint"],
  ["L", "tr.help.keyLast"], ["Esc", "tr.help.keyClear"]];

/** The rules in short, as the lobby lists them. */
export function lobbyRules() {
  return RULE_KEYS.map((key) => h("li", {}, h("span", { class: "rule-suit red", "aria-hidden": "true" }, "升"), h("span", {}, t(key))));
}

/** The help's body: the rules and the keys. */
export function helpNodes() {
  return [
    h("p", {}, t("tr.help.intro")),
    h("ul", { class: "help-rules", "data-testid": "tr-help" }, ...RULE_KEYS.map((key) => h("li", {}, t(key)))),
    h("h3", {}, t("tr.help.keys")),
    h("table", { class: "keys" }, h("tbody", {}, ...KEYS.map(([key, text]) => h("tr", {}, h("th", { scope: "row" }, h("kbd", {}, key)), h("td", {}, t(text)))))),
  ];
}
