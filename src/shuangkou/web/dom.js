// DOM helpers shared by the renderers: element lookup and creation, toasts, the live region.

export const $ = (selector, root = document) => root.querySelector(selector);

/** Build an element: h("button", {class: "btn", onclick}, "text", child). */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") node.addEventListener(name.slice(2), value);
    else if (name === "class") node.className = value;
    else if (name === "dataset") Object.assign(node.dataset, value);
    else if (name === "text") node.textContent = value;
    else node.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Say something to screen readers. */
export function announce(text) {
  const live = $("#sr-live");
  live.textContent = "";
  requestAnimationFrame(() => { live.textContent = text; });
}

const toastWords = new WeakMap(); // a toast's words in the current language

/**
 * A passing message: `words` is its text, or a function giving it in the current language
 * (redrawn by `redrawToasts` when the language changes). At the table it appears at the top
 * of the felt, where it covers no seat (names, balances, card counts, timers); elsewhere,
 * and over the result, under the top bar.
 */
export function toast(words, kind = "info", ms = 3600) {
  const text = typeof words === "function" ? words : () => words;
  const node = h("div", { class: `toast toast-${kind}`, role: kind === "error" ? "alert" : "status" }, text());
  toastWords.set(node, text);
  const atTable = document.body.dataset.view === "table" && $("#result").hidden;
  $(atTable ? "#table-toasts" : "#toasts").append(node);
  requestAnimationFrame(() => node.classList.add("show"));
  setTimeout(() => {
    node.classList.remove("show");
    setTimeout(() => node.remove(), 400);
  }, ms);
}

/** The toasts still shown, in the current language. */
export function redrawToasts() {
  for (const node of document.querySelectorAll(".toast")) node.textContent = toastWords.get(node)();
}
