"""Bringing a database's schema to a revision: Alembic's migrations, and the short ways around them.

Most starts find the schema at the newest revision (the head) already, and a new installation finds
an empty database. Neither needs the migrations: the first reads one row, the second creates the
schema in one step from ``schema.metadata`` and records the head in Alembic's own version table
(Alembic's cookbook, "Building an Up to Date Database from Scratch"). That is 0.2 CPU-s less for
every start of a server, and Alembic itself (another 0.2 s to import) is then never loaded. A
database at an older revision, and any other revision asked for, go through Alembic.
``tests/store/test_store_migrating.py`` holds that both ways build the same schema.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import Column, Engine, MetaData, PrimaryKeyConstraint, String, Table, delete, insert, inspect, select
from sqlalchemy.engine import Connection

from halali.store import schema

MIGRATIONS = Path(__file__).parent / "migrations"
# A migration's file name starts with its revision ("0013_game_analyses.py": "0013"), so the head is the
# greatest; the test above checks it against Alembic's own reading of the files.
HEAD = max(p.name[:4] for p in (MIGRATIONS / "versions").glob("[0-9][0-9][0-9][0-9]_*.py"))
PG_MIGRATION_LOCK = 7261001  # nodes of a cluster start together: one migrates, the others wait

# Alembic's version table, as Alembic creates it.
_versions = Table("alembic_version", MetaData(),
                  Column("version_num", String(32), nullable=False),
                  PrimaryKeyConstraint("version_num", name="alembic_version_pkc"))


def migrate(engine: Engine, revision: str = "head", down: bool = False) -> None:
    if revision in ("head", HEAD) and not down and _at_head_or_created(engine):
        return
    _alembic(engine, revision, down)


def _lock(conn: Connection) -> None:
    if conn.dialect.name == "postgresql":
        conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({PG_MIGRATION_LOCK})")


def _at_head_or_created(engine: Engine) -> bool:
    """True when the schema is at the head, or was empty and has just been created there; False for
    a schema at an older revision (left to Alembic)."""
    with engine.begin() as conn:
        _lock(conn)
        names = set(inspect(conn).get_table_names())
        if _versions.name in names:
            current = conn.execute(select(_versions.c.version_num)).scalars().all()
            if current == [HEAD]:
                return True
            if current:
                return False
        if names - {_versions.name}:
            return False  # tables without a recorded revision: not ours to guess about
        schema.metadata.create_all(conn)
        _versions.create(conn, checkfirst=True)
        conn.execute(delete(_versions))
        conn.execute(insert(_versions).values(version_num=HEAD))
        return True


def _alembic(engine: Engine, revision: str, down: bool) -> None:
    """Alembic's upgrade or downgrade. On SQLite a migration may rebuild a table that others point to,
    which SQLite allows only with foreign keys off; they are checked again before the connection goes
    back to the pool."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.connect() as conn:
        sqlite = conn.dialect.name == "sqlite"
        if sqlite:
            conn.exec_driver_sql("PRAGMA foreign_keys=OFF")
            conn.commit()
        try:
            with conn.begin():
                _lock(conn)
                config.attributes["connection"] = conn
                (command.downgrade if down else command.upgrade)(config, revision)
                if sqlite and conn.exec_driver_sql("PRAGMA foreign_key_check").first() is not None:
                    raise RuntimeError("a migration left rows pointing nowhere")
        finally:
            if sqlite:
                conn.exec_driver_sql("PRAGMA foreign_keys=ON")
                conn.commit()
