"""Swiss and round-robin tournaments as pure functions: pairings, seatings, standings, crosstables.

No I/O and nothing else of the project: the server's tournaments (``halali.server.tournaments``) and
the local ones of ``halali tournament`` share these, as the tables share the rules.
"""
