// The order of a Tractor hand, to sort it for display as the server orders it
// (games/tractor/order.py): each card's effective suit and order index ω in one hand (T4).
// What is legal is the server's alone: it pushes the moves of a turn, and a refused play
// comes back with the duty it breaks (`detail`), which the page words. Pure, no DOM: it
// runs under Node (tests/web/tractor.test.mjs).

/** The ranks from the lowest, 2 to A (a level is one of them, T1.2). */
export const LEVEL_RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
/** The suits in their order S H C D (T16.3). */
export const SUITS = ["S", "H", "C", "D"];
/** The effective suit of every trump (T4.1). */
export const TRUMP = "T";

/**
 * The order of one hand (T4.1–T4.4): `level` its level rank ("10"), `suit` its trump suit
 * ("S" … "D", or "none" / null: no trump), `twoConstant` the room's two_is_constant_trump.
 * Returns `{eff(card), omega(card)}`: the effective suit (a suit letter or TRUMP) and the
 * order index within it, 1 for the lowest tier, equal cards sharing one.
 */
export function cardOrder({ level, suit, twoConstant = false }) {
  const trumpSuit = SUITS.includes(suit) ? suit : null;
  const constant = twoConstant && level !== "2"; // at level 2 both settings coincide (T4.3)
  const sideTiers = (of) => LEVEL_RANKS.filter((rank) => rank !== level && !(constant && rank === "2")).map((rank) => [rank + of]);
  const tiers = {};
  for (const side of SUITS) if (side !== trumpSuit) tiers[side] = sideTiers(side);
  const trump = trumpSuit ? sideTiers(trumpSuit) : [];
  const others = SUITS.filter((side) => side !== trumpSuit);
  if (constant) {
    trump.push(others.map((side) => `2${side}`));
    if (trumpSuit) trump.push([`2${trumpSuit}`]);
  }
  trump.push(others.map((side) => level + side));
  if (trumpSuit) trump.push([level + trumpSuit]);
  trump.push(["SJ"], ["BJ"]);
  tiers[TRUMP] = trump;
  const place = new Map();
  for (const [effective, list] of Object.entries(tiers)) {
    list.forEach((tier, index) => tier.forEach((card) => place.set(card, { eff: effective, omega: index + 1 })));
  }
  const known = (card) => {
    const found = place.get(card);
    if (!found) throw new Error(`not a card: ${card}`);
    return found;
  };
  return { eff: (card) => known(card).eff, omega: (card) => known(card).omega };
}
