// The geometry of a hand's fan, for every game's hand: how many rows, how far each card
// stands from the one before (the step) and how far a new suit's first card stands apart
// (the gap). Pure, so that Node tests it (tests/web/fan.test.mjs); the renderers measure
// the hand's width and card width and set the result as CSS variables (layoutFan).

/** A card's index (its rank and suit, "10♥" the widest) shows whole at this step, in card widths. */
export const MIN_STEP = 0.36;
/** The cards never stand further apart than this, in card widths. */
export const MAX_STEP = 0.62;
/** Room kept free at the ends of a row, in pixels. */
const SLACK = 4;

/**
 * The step and the suits' gap (pixels) of rows of groups in `width` pixels of cards `cardWidth`
 * wide. The gap is `suitGap` card widths, less when the cards would otherwise stand closer
 * than MIN_STEP (an index is worth more than a gap); the step is at most MAX_STEP.
 */
export function fanStep(rows, width, cardWidth, suitGap = 0) {
  const room = width - cardWidth - SLACK;
  const shapes = rows.map((row) => ({ steps: Math.max(1, row.length - 1), gaps: row.filter((group, index) => index > 0 && group !== row[index - 1]).length }));
  let gap = suitGap * cardWidth;
  for (const { steps, gaps } of shapes) {
    if (gaps) gap = Math.min(gap, Math.max(0, (room - MIN_STEP * cardWidth * steps) / gaps));
  }
  const step = Math.min(MAX_STEP * cardWidth, ...shapes.map(({ steps, gaps }) => (room - gaps * gap) / steps));
  return { step: Math.max(8, step), gap };
}

/** One row, or two when one would set `count` cards closer than MIN_STEP (13 cards or more). */
export function fanRowCount(count, width, cardWidth) {
  if (count <= 12) return 1;
  return (width - cardWidth - SLACK) / (count - 1) < MIN_STEP * cardWidth ? 2 : 1;
}

/** A hand element's width and card width (its `--card-w`). */
function measure(root) {
  const width = root.clientWidth || window.innerWidth - 24;
  const cardWidth = parseFloat(getComputedStyle(root).getPropertyValue("--card-w")) || 72;
  return { width, cardWidth };
}

/** How many rows `count` cards take in the hand element `root`. */
export function rowsFor(root, count) {
  const { width, cardWidth } = measure(root);
  return fanRowCount(count, width, cardWidth);
}

/** Lay out the drawn hand `root` (its `.hand-row`s of cards, each with its `data-group` when
 * suits stand apart): sets `--step`, `--suit-gap` and the class `two-rows`. */
export function layoutFan(root, suitGap = 0) {
  const { width, cardWidth } = measure(root);
  const rows = [...root.querySelectorAll(".hand-row")].map((row) => [...row.children].map((card) => card.dataset.group ?? ""));
  const { step, gap } = fanStep(rows, width, cardWidth, suitGap);
  root.style.setProperty("--step", `${step}px`);
  root.style.setProperty("--suit-gap", `${gap}px`);
  root.classList.toggle("two-rows", rows.length > 1);
}
