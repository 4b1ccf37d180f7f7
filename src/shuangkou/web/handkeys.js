// The keys a hand of cards answers at the table, the same in every game (its renderer's `key`
// calls `handKey` first): Enter plays (unless a button or link has the focus), Space takes the
// focused card in or out, ←/→ move the focus, Home/End go to the first or last card, ↑/↓
// select or unselect the focused card, Esc starts again (the game says what that is). A
// game's state module gives the selection's functions (`toggleCard`, `focusedKey`,
// `moveFocus`, `setSelected`), each a state in, a state out.

/** A key to a rank (select that rank's cards): 0 or T for 10, X the small joker, D the big one. */
export const RANK_KEYS = Object.freeze({
  3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 0: "10", t: "10",
  j: "J", q: "Q", k: "K", a: "A", 2: "2", x: "SJ", d: "BJ",
});

/**
 * Handle `event` when it is one of the hand's keys; returns whether it was (then the game's
 * own keys are not read). `hand`: `{selector, S, get, set, focus, selectionChanged, play,
 * escape}` — the hand's element, the game's state module, the shell's state read and
 * replaced, the focus moved to the focused card, what follows a change of the selection,
 * playing the selection, and what Esc does.
 */
export function handKey(event, hand) {
  const { S, get, set } = hand;
  const onButton = ["BUTTON", "A"].includes(event.target?.tagName);
  const inHand = Boolean(event.target?.closest?.(hand.selector));
  const pressed = event.key;
  const act = (allowed, action) => {
    if (!allowed) return;
    event.preventDefault();
    action();
  };
  const select = (next) => {
    set(next);
    hand.selectionChanged();
  };
  const focus = (next) => {
    set(next);
    hand.focus();
  };
  switch (pressed) {
    case "Enter":
      act(!onButton, hand.play);
      return true;
    case " ":
      act(inHand, () => select(S.toggleCard(get(), S.focusedKey(get()))));
      return true;
    case "ArrowLeft":
    case "ArrowRight":
      act(true, () => focus(S.moveFocus(get(), pressed === "ArrowLeft" ? -1 : 1)));
      return true;
    case "Home":
    case "End":
      act(inHand, () => focus(S.moveFocus(get(), 0, pressed === "Home" ? 0 : -1)));
      return true;
    case "ArrowUp":
    case "ArrowDown":
      act(inHand, () => select(S.setSelected(get(), [S.focusedKey(get())], pressed === "ArrowUp")));
      return true;
    case "Escape":
      hand.escape();
      return true;
    default:
      return false;
  }
}
