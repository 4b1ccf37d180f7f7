// The card helpers at the address they had before the page was split into a shell and a
// renderer per game: the shell's deck.js and Shuangkou's combinations (games/shuangkou/
// combos.js), re-exported for scripts and tests that import `/cards.js`. Nothing in the
// page imports this module: the shell reaches a game only through games/index.js.

export * from "./deck.js";
export * from "./games/shuangkou/combos.js";
