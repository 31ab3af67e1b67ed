"""Computer players per game type: the hare hunt's bots get players (and ratings) of their own.

``players.bot_game`` says which game a computer player plays; a level is unique within its game
(forest level 1 and hare level 1 are different players). Downgrading forgets the hare bots and
their ratings (the hare hunt was unrated before).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("bot_game", sa.String(16), nullable=True))
    op.execute("UPDATE players SET bot_game = 'forest' WHERE bot_level IS NOT NULL")
    op.drop_index("ix_players_bot_level", "players")
    op.create_index("ix_players_bot", "players", ["bot_game", "bot_level"], unique=True)


def downgrade() -> None:
    hare_bots = "SELECT id FROM players WHERE bot_game IS NOT NULL AND bot_game <> 'forest'"
    op.execute(f"DELETE FROM rating_history WHERE player_id IN ({hare_bots})")
    op.execute(f"DELETE FROM ratings WHERE player_id IN ({hare_bots})")
    op.execute("DELETE FROM ratings WHERE game <> 'forest'")
    op.execute("DELETE FROM rating_history WHERE game <> 'forest'")
    op.execute(f"DELETE FROM players WHERE id IN ({hare_bots})")
    op.drop_index("ix_players_bot", "players")
    op.create_index("ix_players_bot_level", "players", ["bot_level"], unique=True)
    with op.batch_alter_table("players") as batch:
        batch.drop_column("bot_game")
