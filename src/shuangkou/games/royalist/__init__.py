"""Royalist (保皇) for five players: the rules core of RULES-ROYALIST.md (sets, roles and
declarations, the hand, scoring, rooms, bots, the wire), registered as the family ``royalist``."""
