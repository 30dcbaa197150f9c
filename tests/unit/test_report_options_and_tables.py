"""Reports without a store: their options, the aligned table, the docs' mongosh pipelines, and the
records of `lps dev` stacks a report looks for."""

from __future__ import annotations

import json
import os
from dataclasses import asdict
from pathlib import Path

import pytest

from infra.display import format_table
from tests.report_seeding import march
from tools.dev_stacks import DevStackRecord, recorded, running_stacks
from tools.reporting import REPORTS, mongosh_query, report_params

DOCS = Path(__file__).resolve().parents[2] / "docs" / "reporting.md"


def test_only_the_price_trend_takes_a_product_filter():
    assert [name for name, report in REPORTS.items() if report.takes_product] == ["lowest-price-trend"]
    with pytest.raises(ValueError, match="takes no product filter"):
        report_params(REPORTS["dead-by-error"], product_code="SKU-1")


def test_a_report_window_must_be_some_hours_long():
    with pytest.raises(ValueError, match="some hours long"):
        report_params(REPORTS["dead-by-error"], hours=0)


def test_the_table_aligns_text_left_and_numbers_right():
    rows = [
        {"source": "coupang", "searches": 10, "share": 0.333, "at": march(10, 11), "p50_ms": None},
        {"source": "naver", "searches": 3, "share": 0.5, "at": march(9, 9, 30), "p50_ms": 40},
    ]
    assert format_table(rows, ["source", "searches", "share", "at", "p50_ms"]).splitlines() == [
        "source   searches  share  at                    p50_ms",
        "coupang        10  0.333  2025-03-10T11:00:00Z       -",
        "naver           3    0.5  2025-03-09T09:30:00Z      40",
    ]


def test_an_empty_table_keeps_its_header_and_says_so():
    assert format_table([], ["hour", "source"], empty="(no rows)") == "hour  source\n(no rows)"


def test_the_docs_show_every_report_as_the_same_pipeline_in_mongosh_syntax():
    docs = DOCS.read_text(encoding="utf-8")
    for report in REPORTS.values():
        assert mongosh_query(report) in docs, f"docs/reporting.md is out of date for {report.name}"


def test_a_stack_killed_outright_is_no_longer_listed(tmp_path: Path):
    gone = DevStackRecord(2**22 + 1, "mongodb://127.0.0.1:27217/", "lps", "http://127.0.0.1:28080")  # above pid_max
    (tmp_path / f"{gone.pid}.json").write_text(json.dumps(asdict(gone)))
    alive = DevStackRecord(os.getpid(), "mongodb://127.0.0.1:27218/", "lps", "http://127.0.0.1:28081")

    with recorded(tmp_path, alive):
        assert running_stacks(tmp_path) == [alive]
    assert running_stacks(tmp_path) == []
    assert list(tmp_path.iterdir()) == []
