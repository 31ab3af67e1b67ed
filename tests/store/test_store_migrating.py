"""A new database gets its schema in one step, a schema at the head is left alone, and both are the very
schema the migrations build (names of constraints and indexes included: a later migration finds them by
name); any other schema goes through Alembic. On SQLite and on PostgreSQL."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, inspect, text

from halali.server.testing import fresh_database
from halali.store import Store, migrating
from halali.store.engine import make_engine


@pytest.fixture(params=["sqlite", "postgresql"])
def two_urls(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    with fresh_database(request.param, tmp_path / "a") as a, fresh_database(request.param, tmp_path / "b") as b:
        yield a, b


def described(engine: Engine) -> dict[str, Any]:
    """Everything the database says of its tables, in a comparable form."""
    found = inspect(engine)
    tables: dict[str, Any] = {}
    for name in sorted(found.get_table_names()):
        tables[name] = {
            "columns": [(c["name"], str(c["type"]), c["nullable"], str(c.get("default")))
                        for c in found.get_columns(name)],
            "primary key": found.get_pk_constraint(name),
            "foreign keys": sorted((str(f["name"]), f["constrained_columns"], f["referred_table"],
                                    f["referred_columns"], sorted(f.get("options", {}).items()))
                                   for f in found.get_foreign_keys(name)),
            "indexes": sorted((str(i["name"]), i["column_names"], i["unique"]) for i in found.get_indexes(name)),
            "unique": sorted((str(u["name"]), u["column_names"]) for u in found.get_unique_constraints(name)),
            "checks": sorted((str(c["name"]), c["sqltext"]) for c in found.get_check_constraints(name)),
        }
    return tables


def version(engine: Engine) -> list[str]:
    with engine.connect() as conn:
        return list(conn.execute(text("SELECT version_num FROM alembic_version")).scalars())


def test_a_new_database_gets_the_schema_the_migrations_build(two_urls: tuple[str, str]) -> None:
    by_migrations, at_once = (make_engine(u) for u in two_urls)
    try:
        migrating._alembic(by_migrations, "head", down=False)
        migrating.migrate(at_once)
        assert version(at_once) == version(by_migrations) == [migrating.HEAD]
        assert described(at_once) == described(by_migrations)
        # Built at once, it goes down as a migrated one does (a downgrade drops constraints by name).
        for engine in (by_migrations, at_once):
            migrating._alembic(engine, "0001", down=True)
        assert version(at_once) == version(by_migrations) == ["0001"]
        assert described(at_once) == described(by_migrations)
    finally:
        by_migrations.dispose()
        at_once.dispose()


def test_the_head_is_alembic_s() -> None:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    config = Config()
    config.set_main_option("script_location", str(migrating.MIGRATIONS))
    assert ScriptDirectory.from_config(config).get_current_head() == migrating.HEAD


def test_an_older_schema_is_migrated_and_keeps_its_rows(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    old = Store(url, migrate=False)
    old.migrate("0010")
    with old.engine.begin() as conn:
        conn.execute(text("INSERT INTO players (id, name, created_at) VALUES ('p_1', 'Old', '2026-01-01')"))
    old.close()
    store = Store(url)
    try:
        assert version(store.engine) == [migrating.HEAD]
        assert store.players(["p_1"])["p_1"].name == "Old"
    finally:
        store.close()


def test_a_store_opened_at_the_head_does_not_load_alembic(tmp_path: Path) -> None:
    """Checked in a process of its own: this one has loaded Alembic for the tests above."""
    import subprocess

    url = f"sqlite:///{tmp_path / 'halali.sqlite3'}"
    script = ("import sys; from halali.store import Store; Store(URL).close(); Store(URL).close(); "
              "print('alembic' in sys.modules)").replace("URL", repr(url))
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
    store = Store(url)
    try:
        assert version(store.engine) == [migrating.HEAD]
    finally:
        store.close()
