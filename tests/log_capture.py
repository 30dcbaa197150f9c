"""JSON log lines captured from a logger of the test's own, and the job ids they carry."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest

from infra.logs import JsonFormatter

JOB_ID = "6b0c94574ddefc2888135973"
MESSAGE_ID = "0f6c2c0e-5d5e-4a38-9d8b-1c1a4e1e2f10"


@pytest.fixture
def captured() -> Iterator[tuple[logging.Logger, io.StringIO]]:
    """A logger of its own writing JSON lines to a buffer (the root logger and pytest's capture stay untouched)."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter(secrets=["s3cret-signing-key"]))
    logger = logging.getLogger(f"lps.test.{id(stream)}")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False
    yield logger, stream
    logger.removeHandler(handler)


def lines(stream: io.StringIO) -> list[dict[str, Any]]:
    return [json.loads(line) for line in stream.getvalue().splitlines()]
