"""The search's flags, which make the levels (``halali.ai.levels``): plain numbers in a module of their own.

The levels, the luck analysis and the server name them without importing the compiled search (and
numba with it); ``search_parts`` re-exports them, and the compiled tree reads them as constants.
"""

PRUNE = 1
QSEARCH = 2
STAR2 = 4
HISTORY = 8
MERGE = 16
TT = 32
# At the horizon, a reveal's outcomes that leave no capture keep the value their Star2 probe found.
FRONTIER = 64
