"""Bots for the hare hunt: random, heuristic, and a strong one that infers the other players' clubs.

They see what a seat sees (``HareState.view``: other clubs unknown, no dice secret) and the public
record of the game, never a state with secrets.
"""
