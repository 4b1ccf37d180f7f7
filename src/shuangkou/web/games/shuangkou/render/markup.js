// The Shuangkou table's own controls and places, mounted once into the shell's slots (the
// renderer's `markup`): on the felt the bubbles beside the seats, the recent plays and the flip
// card; beside Hosting the sort order; in the dock the action buttons, the play message, the
// card tracker and the hand. Their ids are the ones the game's modules and the tests use.

const FELT = `
<div class="bubble bubble-opp" id="bubble-opp" hidden></div>
<div class="bubble bubble-me" id="bubble-me" hidden></div>
<div class="bubble bubble-left" id="bubble-left" hidden></div>
<div class="bubble bubble-right" id="bubble-right" hidden></div>
<aside class="history" id="history" aria-labelledby="history-title">
  <h2 id="history-title" data-i18n="history.title">Recent plays</h2>
  <ol id="history-list" tabindex="0" aria-labelledby="history-title"></ol>
  <button type="button" class="history-more" id="history-more" hidden></button>
</aside>
<button type="button" class="chip history-toggle" id="btn-history" aria-controls="history" aria-expanded="false" hidden>
  <span data-i18n="history.show">Plays</span> <span class="history-count" id="history-count"></span>
</button>
<div class="flip-chip" id="flip-chip" hidden></div>`;

const TOOLS = `
<button type="button" class="btn ghost" id="btn-sort" aria-keyshortcuts="S">
  <span class="ico" aria-hidden="true">⇅</span><span id="sort-label"></span>
</button>`;

const DOCK = `
<div class="actions" id="actions" role="toolbar" data-i18n-aria="actions.label">
  <button type="button" class="btn ghost tracker-toggle" id="btn-tracker" aria-pressed="false" aria-controls="tracker" aria-keyshortcuts="C">
    <span data-i18n="tracker.button">Tracker</span><kbd aria-hidden="true">C</kbd>
  </button>
  <button type="button" class="btn secondary" id="btn-hint" aria-keyshortcuts="H">
    <span data-i18n="actions.hint">Hint</span><kbd aria-hidden="true">H</kbd>
    <span class="hint-count" id="hint-count"></span>
  </button>
  <button type="button" class="btn secondary" id="btn-pass" aria-keyshortcuts="P">
    <span data-i18n="actions.pass">Pass</span><kbd aria-hidden="true">P</kbd>
  </button>
  <button type="button" class="btn primary" id="btn-play" aria-keyshortcuts="Enter">
    <span data-i18n="actions.play">Play</span><kbd aria-hidden="true">↵</kbd>
  </button>
</div>
<p class="play-message" id="play-message" role="alert" hidden></p>
<div class="tracker" id="tracker" role="list" hidden data-testid="tracker"></div>
<div class="hand-wrap">
  <div class="hand" id="hand" role="listbox" aria-multiselectable="true" aria-orientation="horizontal"
       data-i18n-aria="hand.label"></div>
</div>`;

/** The game's markup for each of the shell's slots (`{felt, tools, dock}`), which the shell mounts. */
export const markup = Object.freeze({ felt: FELT, tools: TOOLS, dock: DOCK });
