// The frame around the views: which view is shown, the top bar, the connection banner,
// and the two dialogs (confirm, help; the help's words are the game's renderer's).

import { t, getLang } from "../i18n.js";
import { $, h } from "../dom.js";
import { connectionBanner } from "../state.js";
import { initial, roomTitle } from "./common.js";

const VIEWS = ["login", "lobby", "table"];

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

/** The help dialog, with the body a game's renderer gives (`help()`: its rules, its keys …). */
export function openHelp(body) {
  $("#dlg-help-body").replaceChildren(...body);
  const dialog = $("#dlg-help");
  dialog.showModal();
  $("#dlg-help-body").scrollTop = 0;
}
