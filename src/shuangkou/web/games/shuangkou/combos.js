// Shuangkou's combinations in words: a combination the server has already read ("Straight
// 5–9", "5-card bomb of Q"), a pushed move, a bomb's phase, the reading, and the rank each
// joker of a play stands for (the server's `stands_for`). No rule logic: the kind, the top,
// the phase and the jokers' stand-ins are the server's.

import { t } from "./i18n.js";
import { parseCards, rankText } from "../../deck.js";

/** For each card of a play, the rank it stands for when it is a joker (the server's `stands_for`, in joker order), else null. */
export function jokerMarks(cards, combo) {
  const stands = [...(combo?.stands_for || [])];
  return cards.map((card) => (card.joker ? stands.shift() ?? null : null));
}

/** A combination as people say it: "Straight 5–9", "5-card bomb of Q · phase 5". */
export function describeCombo(combo) {
  if (!combo) return "";
  const reading = (combo.reading || "").split(" ").filter(Boolean);
  const low = rankText(reading[0] || combo.top);
  const top = rankText(combo.top);
  const size = reading.length;
  let text;
  switch (combo.kind) {
    case "single": text = t("combo.single", { r: top }); break;
    case "pair": text = t("combo.pair", { r: top }); break;
    case "triple": text = t("combo.triple", { r: top }); break;
    case "straight": text = t("combo.straight", { lo: low, hi: top, n: combo.length }); break;
    case "pair_run": text = t("combo.pair_run", { lo: low, hi: top, n: combo.length }); break;
    case "triple_run": text = t("combo.triple_run", { lo: low, hi: top, n: combo.length }); break;
    case "bomb": text = t("combo.bomb", { n: size, r: top }); break;
    case "joker_bomb": text = t(size >= 4 ? "combo.joker_bomb4" : "combo.joker_bomb3"); break;
    case "serial_bomb":
      text = t("combo.serial_bomb", { x: combo.width, y: combo.length, lo: low, hi: top });
      break;
    default: text = combo.kind;
  }
  return text;
}

/** A pushed move (`{cards, as}`) in words: its kind and its cards ("Pair · 3 BJ"). */
export function describeMove(move) {
  const cards = parseCards(move.cards).map((card) => rankText(card.rank)).join(" ");
  return `${t(`kind.${move.as}`)} · ${cards}`;
}

/** A bomb's phase as a short tag: "phase 5" / "5相". */
export function phaseText(phase) {
  return t("combo.phase", { p: phase });
}

/** The reading written compactly: "Q Q Q Q Q" → "QQQQQ", jokers by name. */
export function readingText(combo) {
  return (combo?.reading || "").split(" ").filter(Boolean).map(rankText).join(" ");
}
