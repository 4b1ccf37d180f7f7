// The Royalist table's own controls and places, mounted once into the shell's slots (the
// renderer's `markup`): on the felt a bubble beside each of the four other seats (its pass or
// its last set of the round), *m* and the card called (Y9); beside Hosting the sort order; in the dock the action buttons,
// the message under the hand and the hand. Ids are `roy-…`, unique across games.

const FELT = `
<div class="bubble roy-bubble" id="roy-bubble-right" data-position="right" hidden></div>
<div class="bubble roy-bubble" id="roy-bubble-top-right" data-position="topRight" hidden></div>
<div class="bubble roy-bubble" id="roy-bubble-top-left" data-position="topLeft" hidden></div>
<div class="bubble roy-bubble" id="roy-bubble-left" data-position="left" hidden></div>
<div class="roy-felt-facts">
  <div class="roy-mult" id="roy-mult" hidden></div>
  <div class="roy-called" id="roy-called" role="note" hidden></div>
</div>`;

const TOOLS = `
<button type="button" class="btn ghost" id="roy-sort" aria-keyshortcuts="S"><span id="roy-sort-label"></span></button>`;

const DOCK = `
<div class="actions" id="roy-actions" role="toolbar" data-i18n-aria="roy.actions.label">
  <button type="button" class="btn secondary" id="roy-hint" aria-keyshortcuts="H">
    <span data-i18n="roy.actions.hint">Hint</span><kbd aria-hidden="true">H</kbd>
    <span class="hint-count" id="roy-hint-count"></span>
  </button>
  <button type="button" class="btn secondary" id="roy-pass" aria-keyshortcuts="P">
    <span data-i18n="roy.actions.pass">Pass</span><kbd aria-hidden="true">P</kbd>
  </button>
  <button type="button" class="btn primary" id="roy-play" aria-keyshortcuts="Enter">
    <span data-i18n="roy.actions.play">Play</span><kbd aria-hidden="true">↵</kbd>
  </button>
</div>
<p class="play-message" id="roy-message" role="alert" hidden></p>
<div class="hand-wrap">
  <div class="hand" id="roy-hand" role="listbox" aria-multiselectable="true" aria-orientation="horizontal"
       aria-describedby="roy-message" data-i18n-aria="roy.hand.label"></div>
</div>`;

/** The game's markup for each of the shell's slots (`{felt, tools, dock}`), which the shell mounts. */
export const markup = Object.freeze({ felt: FELT, tools: TOOLS, dock: DOCK });
