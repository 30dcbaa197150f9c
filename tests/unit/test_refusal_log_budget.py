"""A defect an attack on the gateway found (issue 11): requests refused for malformed bytes are logged a few
lines a minute, and the next line counts the refusals it stands for."""

from __future__ import annotations

import pytest

from service.http_server import REFUSED_LINES_BURST, REFUSED_LINES_PER_SECOND, RefusedRequestLog

# --- malformed header bytes: the envelope, and a few log lines a minute ---


def test_refusals_past_the_line_budget_are_counted_in_the_next_line(caplog: pytest.LogCaptureFixture):
    now = [0.0]
    refused = RefusedRequestLog(clock=lambda: now[0])
    for _ in range(REFUSED_LINES_BURST + 7):
        refused.refused("10.0.0.9", "Invalid header value char")
    now[0] += 1 / REFUSED_LINES_PER_SECOND
    refused.refused("10.0.0.9", "Invalid header value char")

    messages = [record.getMessage() for record in caplog.records]
    assert len(messages) == REFUSED_LINES_BURST + 1
    assert messages[-1].endswith("(and 7 more since the last such line)")
