// The games the page can show, by name: the registry of renderers. A table view, a room of
// the lobby and a stored game name their game (`family`, "shuangkou" when absent); the shell
// loads that game's renderer here, with a dynamic import() of games/NAME/index.js, once, and
// reaches the game only through it (it imports no game module itself).
//
// A renderer is the default export of its module, an object (docs/web.md, "A renderer per
// game"):
//
//   name                          the game's name, as the server writes it
//   words                         its words, {en: {key: text}, zh: {…}}, merged into the shell's dictionaries on load
//   stylesheet (optional)         its own CSS file, relative to its folder (e.g. "style.css"), linked on load
//   mount(parts)                  once, before its first table: fill the shell's slots with its own markup;
//                                 parts = {felt, tools, dock}, an element each (the felt's layer, beside
//                                 Hosting, the dock under the seat); ids in it are unique across games
//   initialState(storage)         the game's keys of the page's state (its remembered choices read from storage)
//   reduce(before, after, message) the game's part of every server message, after the shell's reducer: the state
//   start(shell)                  once, before its first table: wire its buttons; shell = {state(), update(next),
//                                 send(message), receive(message), sound}
//   render(state, {now, center})  draw the game's part of the table (center: the felt's middle, or null between games)
//   seatBadges(state, seat, position) what a seat shows of the game, {side, tags, line, hand} (the shell draws
//                                 the seat's name, balance, connection, Ready and timer)
//   refusals                      the error codes of a refused action of this game, said under the game
//   after(message, before)        its side effects once the shell has handled a server message
//   tell(event)                   what an event the shell does not tell says (sounds, announcements, banners)
//   key(event)                    a key pressed at the table
//   settlement(state, {replay})   the result's breakdown, {nodes, spoken}, or null before a settlement
//   replay: {steps, state, now, seat, text} a finished game step by step: steps(replay) the steps (step 0 the
//                                 deal), state(replay, steps, seat) the table they show; a step's panels
//                                 now(state, replay, step), seat(state, step, seat) and text(state, step)
//   rules()                       the rules in short (list items for the lobby)
//   help()                        the help's body
//   resultName(result) (optional) a stored game's result in words (the history); without it, the words result.NAME

import { addWords } from "../i18n.js";

/** The game of a table, room or stored game that does not name one (before games had names). */
export const DEFAULT_GAME = "shuangkou";

/** The names this page has a renderer for (a folder games/NAME/ each). */
export const GAMES = Object.freeze(["shuangkou", "tractor", "royalist"]);

const MEMBERS = ["name", "words", "markup", "initialState", "reduce", "start", "render", "seatBadges", "refusals", "after", "tell", "key", "settlement", "replay", "rules", "help"];

const loading = new Map(); // name → Promise of its renderer
const loaded = new Map(); // name → its renderer, once loaded

/** The game a table view, a room or a stored game names (its `family`), by default Shuangkou's. */
export function familyOf(thing) {
  return thing?.family || DEFAULT_GAME;
}

/** A game's renderer, loaded once; an unknown name (or a module that is no renderer) is refused. */
export function loadGame(name) {
  if (!GAMES.includes(name)) {
    return Promise.reject(new Error(`unknown game "${name}": this page shows ${GAMES.map((known) => `"${known}"`).join(", ")}`));
  }
  if (!loading.has(name)) {
    const promise = import(`./${name}/index.js`).then((module) => {
      const renderer = module.default;
      const missing = MEMBERS.filter((member) => !renderer || renderer[member] === undefined);
      if (missing.length) throw new Error(`games/${name}/index.js is no renderer: it lacks ${missing.join(", ")}`);
      if (renderer.name !== name) throw new Error(`games/${name}/index.js is the renderer of "${renderer.name}", not of "${name}"`);
      addWords(renderer.words);
      if (renderer.stylesheet) addStylesheet(new URL(renderer.stylesheet, new URL(`./${name}/index.js`, import.meta.url)));
      loaded.set(name, renderer);
      return renderer;
    });
    promise.catch(() => loading.delete(name)); // a failed load may be tried again
    loading.set(name, promise);
  }
  return loading.get(name);
}

/** Link a game's own stylesheet into the page, once. */
function addStylesheet(url) {
  if (typeof document === "undefined") return; // no page (Node's tests)
  if (document.querySelector(`link[rel="stylesheet"][href="${url.href}"]`)) return;
  document.head.append(Object.assign(document.createElement("link"), { rel: "stylesheet", href: url.href }));
}

/** A game's renderer if it is loaded already, else null (no wait). */
export function loadedGame(name) {
  return loaded.get(name) ?? null;
}
