"""Puzzles: positions from real games in which one action is clearly best (docs/puzzles.md).

``judge`` decides whether a position holds one (proven to the end in the final phase, judged by the
strongest search at two depths before it), ``themes`` names what its solution does, ``mine`` finds
puzzles in a game, ``selfplay`` plays the games that ``halali puzzles generate`` mines, and ``model``
is a puzzle as it is stored and exported (one JSON line). Everything here sees only what the player
to move saw: a position's view.
"""
