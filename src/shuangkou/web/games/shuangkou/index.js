// The Shuangkou renderer: what the shell (app.js) calls to show a Shuangkou table, its
// result and its replays. Loaded by name through the registry (games/index.js); the
// interface is described there and in docs/web.md ("A renderer per game").

import { words } from "./i18n.js";
import { after, key, preferences, start, tell } from "./play.js";
import { REFUSALS, reduce } from "./state.js";
import { helpNodes, lobbyRules, roomGame } from "./render/help.js";
import { markup } from "./render/markup.js";
import { nowPanel, seatPanel, stepText } from "./render/replay.js";
import { replayState, replaySteps } from "./steps.js";
import { settlementNodes } from "./render/result.js";
import { seatBadges } from "./render/seat.js";
import { renderGame } from "./render/table.js";

export default {
  name: "shuangkou",
  words,
  markup,
  initialState: preferences,
  reduce,
  start,
  render: renderGame,
  seatBadges,
  refusals: REFUSALS,
  after,
  tell,
  key,
  settlement: settlementNodes,
  replay: { steps: replaySteps, state: replayState, now: nowPanel, seat: seatPanel, text: stepText },
  rules: lobbyRules,
  help: helpNodes,
  room: roomGame,
};
