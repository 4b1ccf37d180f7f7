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

// ---------------------------------------------------------------------------
// The message lane: every passing message (a toast, a banner) waits its turn in one queue
// and shows alone, at the table in the lane of its own between the top seats and the felt
// (#lane: a row of the table's grid, so it covers no card, seat or control), elsewhere
// under the top bar (#toasts). A message already shown or waiting is not queued twice; while
// others wait, the one shown gives way after SHORTEST_MS.

const SHORTEST_MS = 1200;
const queue = []; // messages waiting: {words, kind, ms, banner}
let shown = null; // the message shown: {words, kind, ms, banner, node, since, timer}

/** The words of a message in the current language: a string, or [title, detail] for a banner. */
const wordsOf = (message) => message.words();
const sameWords = (a, b) => JSON.stringify(wordsOf(a)) === JSON.stringify(wordsOf(b));

function messageNode(message) {
  const words = wordsOf(message);
  if (!message.banner) return h("div", { class: `toast toast-${message.kind}`, role: message.kind === "error" ? "alert" : "status" }, words);
  return h("div", { class: `toast banner banner-${message.kind}`, role: "status" },
    h("span", { class: "banner-title" }, words[0]), h("span", { class: "banner-detail" }, words[1]));
}

function showNext() {
  shown = null;
  const message = queue.shift();
  if (!message) return;
  const atTable = document.body.dataset.view === "table" && $("#result").hidden;
  const node = messageNode(message);
  $(atTable ? "#lane" : "#toasts").append(node);
  requestAnimationFrame(() => node.classList.add("show"));
  shown = { ...message, node, since: performance.now() };
  schedule(queue.length ? Math.min(message.ms, SHORTEST_MS) : message.ms);
}

function schedule(ms) {
  clearTimeout(shown.timer);
  shown.timer = setTimeout(() => {
    const { node } = shown; // the node shown now (a change of language redraws it)
    node.classList.remove("show");
    setTimeout(() => node.remove(), 250);
    showNext();
  }, ms);
}

function enqueue(message) {
  if ((shown && sameWords(shown, message)) || queue.some((waiting) => sameWords(waiting, message))) return;
  queue.push(message);
  if (!shown) showNext();
  else if (shown.ms > SHORTEST_MS) schedule(Math.max(0, shown.since + SHORTEST_MS - performance.now()));
}

/**
 * A passing message: `words` is its text, or a function giving it in the current language
 * (redrawn by `redrawToasts` when the language changes), in the message lane.
 */
export function toast(words, kind = "info", ms = 3600) {
  enqueue({ words: typeof words === "function" ? words : () => words, kind, ms, banner: false });
}

/** A banner in the message lane for a moment of the game (`words()`: its title and detail in
 * the current language; `kind` its colours, such as "bomb"). */
export function banner(kind, words, ms = 2200) {
  enqueue({ words, kind, ms, banner: true });
}

/** The message shown, in the current language. */
export function redrawToasts() {
  if (!shown) return;
  const node = messageNode(shown);
  node.classList.add("show");
  shown.node.replaceWith(node);
  shown.node = node;
}
