"""The game families the platform plays, one package each (``games/shuangkou``: Rush and
classic Shuangkou). A game package is pure and deterministic and imports no shell."""
