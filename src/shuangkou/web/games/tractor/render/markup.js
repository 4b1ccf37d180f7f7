// The Tractor table's own controls and places, mounted once into the shell's slots (the
// renderer's `markup`): on the felt the hand's facts (trump, levels, dealer, the attackers'
// points and cards) and the last trick on demand; beside Hosting the last trick's switch;
// in the dock the declarations, the buttons, the message and the hand. Ids start with
// "tr-", unique across games.

const FELT = `
<aside class="tr-facts" id="tr-facts" data-testid="tr-facts" hidden></aside>
<section class="tr-last" id="tr-last" data-testid="tr-last" hidden></section>`;

const TOOLS = `
<button type="button" class="btn ghost" id="tr-btn-last" aria-pressed="false" aria-controls="tr-last" aria-keyshortcuts="L"
        data-i18n="tr.btn.lastTrick">Last trick</button>`;

const DOCK = `
<div class="actions tr-actions" id="tr-actions" role="toolbar" data-i18n-aria="tr.actions.label">
  <span class="tr-declares" id="tr-declares"></span>
  <button type="button" class="btn secondary" id="tr-btn-done" data-testid="tr-done" data-i18n="tr.btn.done">No more</button>
  <button type="button" class="btn secondary" id="tr-btn-hint" aria-keyshortcuts="H">
    <span data-i18n="tr.btn.hint">Hint</span><kbd aria-hidden="true">H</kbd><span class="hint-count" id="tr-hint-count"></span>
  </button>
  <button type="button" class="btn primary" id="tr-btn-play" aria-keyshortcuts="Enter">
    <span id="tr-play-label" data-i18n="tr.btn.play">Play</span><kbd aria-hidden="true">↵</kbd>
  </button>
</div>
<p class="play-message" id="tr-message" role="alert" hidden></p>
<div class="hand-wrap">
  <div class="hand tr-hand" id="tr-hand" role="listbox" aria-multiselectable="true" aria-orientation="horizontal"
       data-i18n-aria="tr.hand.label"></div>
</div>`;

/** The game's markup for each of the shell's slots (`{felt, tools, dock}`), which the shell mounts. */
export const markup = Object.freeze({ felt: FELT, tools: TOOLS, dock: DOCK });
