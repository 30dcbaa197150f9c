"""What the CLI prints, as units: usage errors, times with their zone, progress off a terminal, messages."""

from __future__ import annotations

import argparse
import io
import json
from pathlib import Path

import pytest

from tools.cli import _error_type
from tools.gateway_client import ProgressLine, flatten_errors, utc_text, write_results


@pytest.mark.parametrize(
    ("given", "taken"), [("blocked", "BLOCKED"), ("Dead_Letter", "DEAD_LETTER"), (" TIMEOUT ", "TIMEOUT")]
)
def test_an_error_type_is_taken_in_any_case(given: str, taken: str):
    assert _error_type(given) == taken


@pytest.mark.parametrize("given", ["bad type!", "", "1X", "$ne"])
def test_a_value_that_cannot_be_an_error_type_is_a_usage_error(given: str):
    with pytest.raises(argparse.ArgumentTypeError, match="is not an error type"):
        _error_type(given)


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ("2026-12-01T01:45:46.547000+00:00", "2026-12-01T01:45:46Z"),
        ("2026-12-01T10:45:46+09:00", "2026-12-01T01:45:46Z"),
        ("2026-12-01T01:45:46", "2026-12-01T01:45:46Z"),
        (None, ""),
    ],
)
def test_times_are_shown_to_the_second_with_their_zone(value: str | None, shown: str):
    assert utc_text(value) == shown


def test_progress_off_a_terminal_is_one_line_per_change_at_most_every_few_seconds():
    stream = io.StringIO()
    progress = ProgressLine(stream, every=3600)
    for done in range(100):
        progress.update(f"  {done}/100 ended")
    progress.close()

    assert "\r" not in stream.getvalue()
    assert stream.getvalue().splitlines() == ["  0/100 ended", "  99/100 ended"]  # the first, then the last


def test_one_fields_messages_read_as_separate_sentences():
    errors = {"products": {"0": {"keyword": ["Length must be between 1 and 200.", "must not be blank"]}}}
    assert flatten_errors(errors) == ["products.0.keyword: Length must be between 1 and 200; must not be blank"]


def test_results_written_as_json_keep_korean_as_korean(tmp_path: Path):
    out = tmp_path / "results.json"
    write_results([{"product_code": "K-1", "title": "햇반 210g 24개"}], out)
    assert "햇반 210g 24개" in out.read_text(encoding="utf-8")
    assert json.loads(out.read_text(encoding="utf-8"))
