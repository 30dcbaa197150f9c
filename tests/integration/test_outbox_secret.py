"""An outbox pool refuses to sign deliveries with an empty key: `lps worker` with LPS_OUTBOX_URL and without
LPS_OUTBOX_SECRET stops before starting the pool."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

from actors.worker import SETUP_FAILED
from infra.settings import UNSIGNED_OUTBOX_REFUSED, Settings
from tests.unsigned_outbox import unsigned_env
from tools import cli


@pytest.fixture
def root_logging_restored() -> Iterator[None]:
    """`lps` run in this process configures the root logger (tools/cli.py `main`), whose handlers here are pytest's
    own, kept for the session: they get their level, filters and formats back, or later tests' captured logs would
    pass through LPS's filters."""
    root = logging.getLogger()
    level, handlers = root.level, {handler: (list(handler.filters), handler.formatter) for handler in root.handlers}
    yield
    root.setLevel(level)
    for handler, (filters, formatter) in handlers.items():
        handler.filters[:] = filters
        handler.setFormatter(formatter)


@pytest.mark.usefixtures("root_logging_restored")
def test_lps_worker_refuses_an_outbox_pool_without_a_signing_secret_before_starting_it(
    settings: Settings, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
):
    """Outside the processes tier: starting any process here would fail the test (tests/conftest.py)."""
    monkeypatch.delenv("LPS_OUTBOX_SECRET", raising=False)
    for key, value in unsigned_env(settings).items():
        monkeypatch.setenv(key, value)

    assert cli.main(["worker", "outbox", "--supervise"]) == SETUP_FAILED  # --supervise does not retry it
    assert capsys.readouterr().err == f"lps: {UNSIGNED_OUTBOX_REFUSED}\n"
