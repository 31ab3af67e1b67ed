"""Swiss and round-robin tournaments as pure functions: pairings, seatings, standings, crosstables.

No I/O and nothing else of the project: the server's tournaments (``halali.server.tournaments``) and
the local ones of ``halali tournament`` share these, as the tables share the rules.
"""

from halali.tournament.elo import Rating, fit_elo
from halali.tournament.model import ABSENT_POINTS, BYE_POINTS, Entrant, Result, Round, absent, bye, placing_points
from halali.tournament.pairing import pair_swiss, round_robin, seat_tables, table_sizes
from halali.tournament.standings import Cell, CrossRow, Standing, crosstable, standings

__all__ = [
    "ABSENT_POINTS",
    "BYE_POINTS",
    "Cell",
    "CrossRow",
    "Entrant",
    "Rating",
    "Result",
    "Round",
    "Standing",
    "absent",
    "bye",
    "crosstable",
    "fit_elo",
    "pair_swiss",
    "placing_points",
    "round_robin",
    "seat_tables",
    "standings",
    "table_sizes",
]
