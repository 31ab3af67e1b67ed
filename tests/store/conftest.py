"""The store's tests run on SQLite and on PostgreSQL (skipped without ``HALALI_TEST_PG_URL``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from halali.server.testing import fresh_database
from halali.store import Store


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    """A new, migrated database of each kind."""
    with fresh_database(request.param, tmp_path) as url:
        st = Store(url)
        try:
            yield st
        finally:
            st.close()
