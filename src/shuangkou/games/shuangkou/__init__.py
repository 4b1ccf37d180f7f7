"""Shuangkou (双扣): Rush for two seats (RULES.md) and the classic four-seat team game
(RULES-CLASSIC.md) on one rules core: combinations, moves, the game, scoring, room
configuration, bots and the expert."""
