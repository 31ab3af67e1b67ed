"""The tables as SQLAlchemy Core metadata; migrations/ holds the same schema as Alembic revisions."""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    false,
    true,
)

metadata = MetaData()

players = Table(
    "players", metadata,
    Column("id", String(16), primary_key=True),
    Column("name", String(40), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    # An account has a login (its name, case-folded; unique) and an argon2 hash; a guest has neither.
    Column("login", String(40), nullable=True),
    Column("password_hash", String(200), nullable=True),
    Column("registered_at", DateTime(timezone=True), nullable=True),
    Column("bot_level", Integer, nullable=True),  # the player that stands for a computer level
    Column("bot_game", String(16), nullable=True),  # ... of this game type ("forest", "hare")
    # An account its owner runs as a program (docs/bots.md): labelled BOT, rated on the bots' ladder.
    Column("bot_account", Boolean, nullable=False, server_default=false()),
    Index("ix_players_login", "login", unique=True),
    Index("ix_players_bot", "bot_game", "bot_level", unique=True),
)

# One row per browser session: only the SHA-256 of the cookie's token, never the token.
sessions = Table(
    "sessions", metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("player_id", String(16), ForeignKey("players.id"), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Index("ix_sessions_player", "player_id"),
)

game_tables = Table(
    "game_tables", metadata,
    Column("id", String(16), primary_key=True),
    Column("game", String(16), nullable=False),
    Column("rules", JSON, nullable=False),
    Column("state", String(16), nullable=False),
    Column("created_by", String(16), ForeignKey("players.id"), nullable=True),
    Column("test_seed", Integer, nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    Column("rated", Boolean, nullable=False, server_default=true()),
    Column("mode", String(16), nullable=False, server_default="live"),
    Column("clock", JSON, nullable=True),  # {"initial": seconds, "increment": seconds} or null
    # a tournament's table; the foreign keys named as their migrations named them (a later one finds them by name)
    Column("tournament_id", String(16), ForeignKey("tournaments.id", name="fk_game_tables_tournament"), nullable=True),
    Index("ix_game_tables_state", "state"),
)

seats = Table(
    "seats", metadata,
    Column("table_id", String(16), ForeignKey("game_tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("player_id", String(16), ForeignKey("players.id"), nullable=True),
    Column("bot_level", Integer, nullable=True),
)

matches = Table(
    "matches", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(16), ForeignKey("game_tables.id"), nullable=False),
    Column("number", Integer, nullable=False),
    Column("finished", Boolean, nullable=False, default=False),
    Column("winner_seat", Integer, nullable=True),
    Column("started_at", DateTime(timezone=True), nullable=False),
    Column("finished_at", DateTime(timezone=True), nullable=True),
    Column("rated", Boolean, nullable=False, server_default=false()),
    # who sat where (bots: bot_N)
    Column("player0", String(16), ForeignKey("players.id", name="fk_matches_player0"), nullable=True),
    Column("player1", String(16), ForeignKey("players.id", name="fk_matches_player1"), nullable=True),
    Column("aborted", Boolean, nullable=False, server_default=false()),  # called off: no result, no rating
    Index("ix_matches_table", "table_id", "number", unique=True),
    Index("ix_matches_player0", "player0"),
    Index("ix_matches_player1", "player1"),
)

# Who sat in each seat of a hare hunt (its seats may change from one hunt to the next); computer
# players as the player that stands for their level. Forest matches keep player0/player1.
match_seats = Table(
    "match_seats", metadata,
    Column("match_id", Integer, ForeignKey("matches.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("player_id", String(16), ForeignKey("players.id"), nullable=True),
    Index("ix_match_seats_player", "player_id"),
)

games = Table(
    "games", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("match_id", Integer, ForeignKey("matches.id"), nullable=False),
    Column("number", Integer, nullable=False),
    Column("deal", Text, nullable=False),  # the full starting position: secret until the game is over
    Column("result", JSON, nullable=True),
    Column("finished_at", DateTime(timezone=True), nullable=True),
    Column("salt", String(64), nullable=True),  # secret until the game is over, like the deal
    Column("commitment", String(64), nullable=True),  # sha256(deal + "\n" + salt), public from the start
    Column("started_at", DateTime(timezone=True), nullable=True),
    Column("termination", String(16), nullable=True),  # "time", "resign", "abandon" or "abort": off the board
    Column("headers", JSON, nullable=True),  # extra headers of an imported record
    Index("ix_games_match", "match_id", "number", unique=True),
)

actions = Table(
    "actions", metadata,
    Column("game_id", Integer, ForeignKey("games.id"), primary_key=True),
    Column("ply", Integer, primary_key=True),
    Column("action", String(16), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("clock_ms", Integer, nullable=True),  # the mover's time left after the action (increment added)
)

chat = Table(
    "chat", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(16), ForeignKey("game_tables.id"), nullable=False),
    Column("player_id", String(16), ForeignKey("players.id"), nullable=True),
    Column("text", Text, nullable=True),
    Column("key", String(40), nullable=True),
    Column("params", JSON, nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Index("ix_chat_table", "table_id", "id"),
)

ratings = Table(
    "ratings", metadata,
    Column("player_id", String(16), ForeignKey("players.id"), primary_key=True),
    Column("game", String(16), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("rating", Integer, nullable=False),  # the conservative number shown, kept for ordering
    Column("matches", Integer, nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    Index("ix_ratings_board", "game", "rating"),
)

rating_history = Table(
    "rating_history", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("player_id", String(16), ForeignKey("players.id"), nullable=False),
    Column("game", String(16), nullable=False),
    Column("match_id", Integer, ForeignKey("matches.id"), nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("rating", Integer, nullable=False),
    Column("before", Integer, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Index("ix_rating_history_player", "player_id", "game", "id"),
)

attempts = Table(
    "attempts", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("kind", String(16), nullable=False),  # "login_name", "login_address", "register", "import", "analysis"
    Column("key_hash", String(64), nullable=False),  # sha256 of the name or address
    Column("at", Float, nullable=False),  # the server's clock (seconds)
    Index("ix_attempts_key", "kind", "key_hash", "at"),
)

# A node's claim on a table in a cluster (halali.store.leases): only the holder of the newest token may
# write the table's rows; a lease that is not renewed expires and another node takes the table over.
table_leases = Table(
    "table_leases", metadata,
    Column("table_id", String(16), ForeignKey("game_tables.id"), primary_key=True),
    Column("node", String(64), nullable=False),
    Column("token", Integer, nullable=False),  # the fencing token: one more at every change of holder
    Column("expires_at", Float, nullable=False),  # the holder's clock (seconds since the epoch)
    Index("ix_table_leases_expiry", "expires_at"),
)

# A Swiss tournament (halali.server.tournaments): its settings, where it stands, and when its next step is.
tournaments = Table(
    "tournaments", metadata,
    Column("id", String(16), primary_key=True),
    Column("game", String(16), nullable=False),
    Column("name", String(80), nullable=False),
    Column("created_by", String(16), ForeignKey("players.id"), nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("rules", JSON, nullable=False),
    Column("rounds", Integer, nullable=False),
    Column("pace", String(16), nullable=False),  # "live" (round start times) or "correspondence" (deadlines)
    Column("clock", JSON, nullable=True),  # the live tables' clock
    Column("interval", Float, nullable=False),  # seconds from one round's start to the next (live: at least)
    Column("rated", Boolean, nullable=False),
    Column("entry", JSON, nullable=False),  # who may enter: {"accounts": bool, "bots": bool, "min_rating": int...}
    Column("table_size", Integer, nullable=False, server_default="2"),
    Column("state", String(16), nullable=False),  # "upcoming", "running", "finished", "cancelled"
    Column("round", Integer, nullable=False, server_default="0"),  # the round being played (0: not begun)
    Column("starts_at", Float, nullable=False),  # round 1 (seconds since the epoch)
    Column("next_at", Float, nullable=True),  # the next round's start, or the running round's deadline
    Index("ix_tournaments_state", "state"),
)

tournament_entries = Table(
    "tournament_entries", metadata,
    Column("tournament_id", String(16), ForeignKey("tournaments.id"), primary_key=True),
    Column("player_id", String(16), ForeignKey("players.id"), primary_key=True),
    Column("joined_round", Integer, nullable=False),  # 1, or the first round after a late entry
    Column("withdrawn", Boolean, nullable=False, server_default=false()),
    Column("bot_level", Integer, nullable=True),  # a computer level entered (its player stands for it)
    Column("created_at", DateTime(timezone=True), nullable=False),
)

# One table of one round (or a bye or a missed round): who, where, and the result once it is in.
tournament_pairings = Table(
    "tournament_pairings", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("tournament_id", String(16), ForeignKey("tournaments.id"), nullable=False),
    Column("round", Integer, nullable=False),
    Column("board", Integer, nullable=False),
    Column("players", JSON, nullable=False),  # player ids in seat order
    Column("table_id", String(16), nullable=True),  # none for a bye or a missed round
    Column("kind", String(16), nullable=False),  # "played", "bye", "absent", "forfeit"
    Column("points", JSON(none_as_null=True), nullable=True),  # per player, once the result is in (SQL NULL before)
    Column("games", JSON(none_as_null=True), nullable=True),
    Column("tiles", JSON(none_as_null=True), nullable=True),
    Index("ix_tournament_pairings_round", "tournament_id", "round", "board"),
    Index("ix_tournament_pairings_table", "table_id"),
)

# A challenge from one player to another, open until it is answered, called off or runs out
# (halali.server.challenges): stored, so that it is seen on every node and outlives a restart.
challenges = Table(
    "challenges", metadata,
    Column("id", String(16), primary_key=True),
    Column("challenger", String(16), ForeignKey("players.id"), nullable=False),
    Column("challenged", String(16), ForeignKey("players.id"), nullable=False),
    Column("rules", JSON, nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("mode", String(16), nullable=False),
    Column("clock", JSON, nullable=True),
    Column("expires_at", Float, nullable=False),  # the server's clock (seconds since the epoch)
    Index("ix_challenges_challenger", "challenger"),
    Index("ix_challenges_challenged", "challenged"),
    Index("ix_challenges_expiry", "expires_at"),
)

# A bot account's API tokens: only the SHA-256 of each (as for sessions), a label, and when it was used.
api_tokens = Table(
    "api_tokens", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("token_hash", String(64), nullable=False),
    Column("player_id", String(16), ForeignKey("players.id"), nullable=False),
    Column("label", String(40), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("last_used_at", DateTime(timezone=True), nullable=True),
    Index("ix_api_tokens_hash", "token_hash", unique=True),
    Index("ix_api_tokens_player", "player_id"),
)

# Puzzles (docs/puzzles.md): a position as its player saw it, its solution line, and its Glicko-2
# rating, which every first try of a player moves. One row per position and rule options.
puzzles = Table(
    "puzzles", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("position", String(120), nullable=False),
    Column("rules", String(120), nullable=False, server_default=""),  # options other than the defaults
    Column("solution", JSON, nullable=False),
    Column("value", Float, nullable=False),
    Column("margin", Float, nullable=False),
    Column("proven", Boolean, nullable=False),
    Column("depth", Integer, nullable=False),
    Column("rating", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("tries", Integer, nullable=False, server_default="0"),
    Column("solved", Integer, nullable=False, server_default="0"),
    Column("source", JSON, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Index("ix_puzzles_position", "position", "rules", unique=True),
    Index("ix_puzzles_rating", "rating"),
)

puzzle_themes = Table(
    "puzzle_themes", metadata,
    Column("puzzle_id", Integer, ForeignKey("puzzles.id"), primary_key=True),
    Column("theme", String(16), primary_key=True),
    Index("ix_puzzle_themes_theme", "theme", "puzzle_id"),
)

# A player's puzzle rating (Glicko-2), separate from the games' ratings.
puzzle_ratings = Table(
    "puzzle_ratings", metadata,
    Column("player_id", String(16), ForeignKey("players.id"), primary_key=True),
    Column("rating", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("tries", Integer, nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)

# A player's first try at a puzzle: the one that is rated, with both ratings before and after.
puzzle_tries = Table(
    "puzzle_tries", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("player_id", String(16), ForeignKey("players.id"), nullable=False),
    Column("puzzle_id", Integer, ForeignKey("puzzles.id"), nullable=False),
    Column("solved", Boolean, nullable=False),
    Column("how", String(16), nullable=False),  # "solved", "wrong", "hint", "solution"
    Column("player_before", Float, nullable=False),
    Column("player_after", Float, nullable=False),
    Column("puzzle_before", Float, nullable=False),
    Column("puzzle_after", Float, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Index("ix_puzzle_tries_once", "player_id", "puzzle_id", unique=True),
    Index("ix_puzzle_tries_player", "player_id", "id"),
)

# The daily puzzle, chosen once per day by whichever node asks first.
daily_puzzles = Table(
    "daily_puzzles", metadata,
    Column("day", String(10), primary_key=True),  # YYYY-MM-DD, UTC
    Column("puzzle_id", Integer, ForeignKey("puzzles.id"), nullable=False),
)

# The finished games ``halali puzzles mine`` has looked at, with how many puzzles each gave.
mined_games = Table(
    "mined_games", metadata,
    Column("game_id", Integer, ForeignKey("games.id"), primary_key=True),
    Column("puzzles", Integer, nullable=False),
    Column("mined_at", DateTime(timezone=True), nullable=False),
)

# The course (/learn): the stars of each task a player has done, the best of his tries.
learn_progress = Table(
    "learn_progress", metadata,
    Column("player_id", String(16), ForeignKey("players.id"), primary_key=True),
    Column("lesson", String(24), primary_key=True),
    Column("task", Integer, primary_key=True),
    Column("stars", Integer, nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)

# A finished game's analysis (docs/ai.md "Game analysis"): computed once, by one budget, kept with the
# game and served to everyone from here on. ``data`` is the analysis as the API shows it.
game_analyses = Table(
    "game_analyses", metadata,
    Column("game_id", Integer, ForeignKey("games.id"), primary_key=True),
    Column("budget", String(60), nullable=False),  # the budget's key: another budget is another analysis
    Column("data", JSON, nullable=False),
    Column("computed_at", DateTime(timezone=True), nullable=False),
)
