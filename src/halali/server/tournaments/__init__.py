"""Swiss tournaments on the site: entries, rounds of tables seated by the pairings, results, standings.

``service.TournamentService`` takes the players' requests; ``director.Director`` moves every
tournament on (rounds begin, results come in, deadlines pass), from the store alone, so that a
restart mid-round finds everything where it was; ``views`` is what the page and the API get.
"""

from halali.server.tournaments.service import TournamentService

__all__ = ["TournamentService"]
