"""Shared test setup: the tests keep their caches to themselves."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tower_print.brix.difficulty import CACHE_ENV


@pytest.fixture(autouse=True, scope="session")
def private_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Tower pools and audit logs go to a temporary folder, not the user's ~/.cache: a test run
    neither leaves files behind nor reads answers an earlier version of the code left there.
    (Session-wide, so the pool drawn for one test is reused by the next, as in a real run.)"""
    patch = pytest.MonkeyPatch()
    patch.setenv(CACHE_ENV, str(tmp_path_factory.mktemp("tower-print-cache")))
    yield
    patch.undo()
