"""Upgrade / Tractor (升级 / 拖拉机), four players in two fixed partnerships with two decks
(docs/RULES-TRACTOR.md, rule ids ``T…``): a trump suit and a trump rank that change every
hand, tricks of singles, pairs, tractors and throws, and teams climbing levels from 2 to A
over a match of many hands.

Modules, inside out: :mod:`.order` (faces, effective suits and the order of cards, T4),
:mod:`.formats` (pairs, tractors, the decomposition and what a play matches and beats,
T5, T6, T8), :mod:`.follows` (the following duties and the legal follows, T7),
:mod:`.config` (the room, T12), :mod:`.scoring` (points, the bottom, results, levels and
money, T9–T11), :mod:`.hand` (one hand as a state machine: the deal with its
declarations, the bury, the tricks), :mod:`.bots`, :mod:`.wire` and :mod:`.family` (the
game's face to the platform).
"""
