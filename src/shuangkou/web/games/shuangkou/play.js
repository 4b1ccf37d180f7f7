// Shuangkou at the table, the game's share of the page's glue (the shell's is app.js): its
// buttons (Play, Pass, Hint, the sort order, the card tracker, the recent plays), the hand
// (clicks, drags, focus), its keys, what its events say (sounds, announcements, toasts, the
// bomb and 接风 banners), and what it does once the shell has handled a server message.
// The state is the shell's one object, read and replaced through the `shell` given to `start`.

import { t } from "./i18n.js";
import { cardLabel, parseCard } from "../../deck.js";
import { $, announce, toast } from "../../dom.js";
import { tableGlue } from "../../glue.js";
import { RANK_KEYS, handKey } from "../../handkeys.js";
import { seatName } from "../../render/common.js";
import { showBanner } from "../../render/table.js";
import { describeCombo, phaseText } from "./combos.js";
import * as S from "./state.js";
import { bindHand, focusHand, handNodes, renderHand, renderSelection } from "./render/hand.js";
import { dealBanner, renderActions, renderHistory, renderMessage, renderSortLabel, updateHistoryMore } from "./render/table.js";
import { renderTracker } from "./render/tracker.js";

const SORT_KEY = "shuangkou.sort";
const TRACKER_KEY = "shuangkou.tracker";

let shell = null; // {state(), update(next), send(message), receive(message), sound} from app.js

const get = () => shell.state();
const set = (next) => shell.update(next);
const { act, answer } = tableGlue({
  get, set, send: (message) => shell.send(message), refusals: S.REFUSALS, renderMessage, renderActions, hand: () => $("#hand"),
});

/** The game's keys of the state, with the choices the browser remembers (sort order, tracker shown). */
export function preferences(storage = globalThis.localStorage) {
  return S.initialGameState({ sort: storage?.getItem(SORT_KEY), trackerShown: storage?.getItem(TRACKER_KEY) === "1" });
}

/** Once, when the renderer is first used: wire the game's buttons and the hand. */
export function start(given) {
  shell = given;
  renderSortLabel(get());
  $("#btn-play").addEventListener("click", play);
  $("#btn-pass").addEventListener("click", pass);
  $("#btn-hint").addEventListener("click", hint);
  $("#btn-sort").addEventListener("click", toggleSort);
  $("#btn-history").addEventListener("click", toggleHistory);
  $("#btn-tracker").addEventListener("click", toggleTracker);
  $("#history-list").addEventListener("scroll", updateHistoryMore, { passive: true });
  $("#history-more").addEventListener("click", () => {
    const list = $("#history-list");
    list.scrollTo({ top: list.scrollHeight, behavior: "smooth" });
  });
  window.addEventListener("resize", updateHistoryMore);
  bindHand($("#hand"), { get, set, changed: selectionChanged });
}

/**
 * What the game does once the shell has handled a server message (`before`: the state the
 * message found): after a `state`, the deal is no longer animated and the moves it carried
 * are played in as a `hint`; a `hint` answers an earlier H; a refused play is said and its
 * cards shake; the timed-out notice is said under the hand.
 */
export function after(message, before) {
  switch (message.type) {
    case "state":
      set(S.dealShown(get()));
      if (message.moves) shell.receive({ type: "hint", seq: message.table.seq, moves: message.moves }); // our turn's moves
      break;
    case "hint":
      if (before.hintWanted && !get().hintWanted) hintShown();
      renderActions(get());
      break;
    default:
      answer(message, before);
  }
}

/** What an event says to the player: announcements, toasts, sounds, the bomb banner (a
 * play's `combo` view). Toasts and banners are words in the current language, redrawn when
 * it changes. The shell tells the events of every game (timeouts, hosting, escapes). */
export function tell(event) {
  const combo = event.combo;
  const seat = event.seat;
  const mine = seat === S.mySeat(get());
  const name = () => seatName(get(), seat);
  const say = (words, kind, ms) => {
    toast(words, kind, ms);
    announce(words());
  };
  switch (event.type) {
    case "deal": {
      const dealt = get(); // the banner may wait in the lane until after the table is left
      const game = dealt.table.game;
      const flip = game?.flip_card;
      announce(t("ev.deal", { name: seatName(dealt, game?.leader), card: flip ? cardLabel(parseCard(flip)) : "" }));
      if (flip) showBanner("deal", () => dealBanner(dealt));
      break;
    }
    case "play": {
      const bomb = S.isBomb(combo);
      shell.sound.play(bomb ? "bomb" : "play");
      if (bomb && S.isPlaying(get())) {
        showBanner("bomb", () => [t("ev.bombTitle", { phase: phaseText(combo.phase) }),
          t("ev.played", { name: name(), combo: describeCombo(combo) })]);
      }
      const how = event.cause && event.cause !== "player" ? ` (${t(`cause.${event.cause}`)})` : "";
      announce(`${t("ev.played", { name: name(), combo: describeCombo(combo) })}${how}`);
      break;
    }
    case "pass":
      shell.sound.play("pass");
      announce(t(`bubble.${event.cause || "player"}`) + ` — ${name()}`);
      break;
    case "out": {
      const place = () => t(`place.${event.place}`);
      say(() => (mine ? t("ev.youOut", { place: place() }) : t("ev.out", { name: name(), place: place() })), "info");
      break;
    }
    case "jiefeng": {
      showBanner("jiefeng", () => [t("ev.jiefengTitle"), mine ? t("ev.youJiefengLead") : t("ev.jiefengLead", { name: name() })]);
      announce(mine ? t("round.youJiefeng") : t("round.jiefeng", { name: name() }));
      break;
    }
    case "swap":
      say(() => t("deal.swap", { a: name(), b: seatName(get(), event.with) }), "warn", 6000);
      break;
    default:
      break;
  }
}

// ---------------------------------------------------------------------------
// The hand

/** The selection changed: marks on the cards, the message and the buttons. */
function selectionChanged() {
  renderSelection(get());
  renderMessage(get());
  renderActions(get());
}

/** Focus moved to another card (by key or by a reducer): the page's focus follows. */
function refocus(next) {
  const moved = next.focusKey !== get().focusKey;
  set(next);
  if (moved) focusHand(next);
}

// ---------------------------------------------------------------------------
// Actions

function hint() {
  set(S.hint(get()));
  hintShown();
}

/** A hint selected cards: with the focus in the hand, it moves to the first of them. */
function hintShown() {
  selectionChanged();
  const first = handNodes().find((node) => get().selected.includes(node.dataset.key));
  if (first && document.activeElement?.closest?.("#hand")) refocus(S.focusCard(get(), first.dataset.key));
}

function play() {
  act(S.play(get()));
}

function pass() {
  act(S.pass(get()));
}

function toggleSort() {
  set(S.toggleSort(get()));
  localStorage.setItem(SORT_KEY, get().sort);
  renderSortLabel(get());
  renderHand(get());
}

/** The card tracker (记牌器) shown or hidden, remembered by the browser. */
function toggleTracker() {
  set(S.toggleTracker(get()));
  localStorage.setItem(TRACKER_KEY, get().trackerShown ? "1" : "0");
  renderTracker(get());
}

function toggleHistory() {
  set(S.toggleHistory(get()));
  renderHistory(get());
}

// ---------------------------------------------------------------------------
// Keys

/** A key pressed at the table, once the shell has let it through (no dialog, no field, no
 * page over the table, no result shown). */
export function key(event) {
  const escape = () => {
    set(S.restartHints(get()));
    selectionChanged();
  };
  if (handKey(event, { selector: "#hand", S, get, set, focus: () => focusHand(get()), selectionChanged, play, escape })) return;
  const pressed = event.key;
  const lower = pressed.toLowerCase();
  if (lower === "p") {
    event.preventDefault();
    pass();
  } else if (lower === "h") {
    event.preventDefault();
    hint();
  } else if (lower === "s") {
    event.preventDefault();
    toggleSort();
  } else if (lower === "c") {
    event.preventDefault();
    toggleTracker();
  } else if (lower in RANK_KEYS && pressed.length === 1) {
    event.preventDefault();
    refocus(S.selectRank(get(), RANK_KEYS[lower]));
    selectionChanged();
  }
}
