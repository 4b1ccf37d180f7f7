// The frame around the views: which view is shown, the top bar, the connection banner,
// and the two dialogs (confirm, help).

import { t, getLang } from "../i18n.js";
import { $, h } from "../dom.js";
import { connectionBanner } from "../state.js";
import { initial, roomTitle } from "./common.js";
import { ruleItems } from "./lobby.js";

const VIEWS = ["login", "lobby", "table"];
const HELP_KEYS = [
  ["← →", "help.keyMove"], ["Space", "help.keySpace"], ["↑ ↓", "help.keyUpDown"],
  ["3–9 0 J Q K A 2", "help.keyRank"], ["X / D", "help.keyJoker"], ["Enter", "help.keyPlay"],
  ["P", "help.keyPass"], ["H", "help.keyHint"], ["S", "help.keySort"], ["C", "help.keyTracker"], ["Esc", "help.keyClear"], ["?", "help.keyHelp"],
];
/** The rows of the help's bomb table (R4, C3.1): each names its bomb, an example and its phase, all as text. */
const BOMB_ROWS = ["n4", "n5", "n6", "j3", "j4", "nn", "serial"];

/** Show the state's view and hide the others. */
export function renderView(state) {
  for (const view of VIEWS) $(`#view-${view}`).hidden = view !== state.view;
  if (state.view) document.body.dataset.view = state.view;
}

/** The top bar: who is signed in, and at a table its room and the Leave button. */
export function renderTopbar(state, { leave }) {
  const info = $("#topbar-info");
  info.replaceChildren();
  const chip = $("#me-chip");
  chip.hidden = !state.account;
  if (state.account) {
    chip.replaceChildren(h("span", { class: "avatar small", "aria-hidden": "true" }, initial(state.account.name)),
      h("span", { class: "me-name" }, state.account.name));
  }
  if (state.view === "table" && state.table) {
    const room = state.rooms.find((candidate) => candidate.name === state.table.room);
    info.append(
      h("span", { class: "room-title" }, room ? roomTitle(room) : state.table.room),
      h("span", { class: "room-badge" }, t(`edition.${state.table.edition}`)),
      h("button", { type: "button", class: "btn ghost small", id: "btn-leave", onclick: leave, "data-testid": "leave" },
        t("actions.leave")),
    );
  }
  for (const button of document.querySelectorAll(".lang-switch [data-lang]")) {
    button.setAttribute("aria-pressed", button.dataset.lang === getLang() ? "true" : "false");
  }
}

/** The banner shown while the connection is lost (after it was once open). */
export function renderConnection(state, now) {
  const banner = connectionBanner(state, now);
  $("#conn-banner").hidden = !banner;
  document.body.classList.toggle("offline", Boolean(banner));
  if (!banner) return;
  $("#conn-text").textContent = banner.status === "waiting" ? t("conn.lost", { s: banner.seconds }) : t("conn.connecting");
}

/** A modal question; resolves true when confirmed. `cancel` null: a notice with one button. */
export function confirmDialog({ title, body, ok, cancel, tone = "danger", testid = null }) {
  const dialog = $("#dlg-confirm");
  $("#dlg-confirm-title").textContent = title;
  $("#dlg-confirm-body").replaceChildren(...[].concat(body).map((line) => h("p", {}, line)));
  const okButton = $("#dlg-confirm-ok");
  okButton.textContent = ok;
  okButton.className = `btn ${tone}`;
  const cancelButton = $("#dlg-confirm-cancel");
  cancelButton.hidden = cancel === null;
  cancelButton.textContent = cancel || "";
  if (testid) dialog.dataset.testid = testid;
  else delete dialog.dataset.testid;
  dialog.returnValue = "";
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "ok"), { once: true });
    dialog.showModal();
    (cancel === null ? okButton : cancelButton).focus();
  });
}

/** The sound switch in the top bar: pressed while sound is on. */
export function renderSound(sound) {
  const button = $("#btn-sound");
  const muted = sound.muted;
  button.setAttribute("aria-pressed", muted ? "false" : "true");
  button.title = t(muted ? "sound.off" : "sound.on");
}

export function openHelp() {
  $("#dlg-help-body").replaceChildren(
    h("p", {}, t("help.intro")),
    h("ul", { class: "help-rules" }, ...ruleItems()),
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
  );
  const dialog = $("#dlg-help");
  dialog.showModal();
  $("#dlg-help-body").scrollTop = 0;
}
