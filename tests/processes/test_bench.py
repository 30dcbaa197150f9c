"""The benchmark runner works: its smoke mode measures every figure once and cleans up after itself.

Benchmarks are not tests: nothing here looks at how fast anything was, only that every figure came out
with a value and a ratio to its raw baseline.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bench.__main__ import FIGURES as BENCHMARKS
from bench.growth import FIGURE_NAMES as GROWTH_FIGURES
from bench.modes import MODES
from bench.pages import FIGURE_NAMES as PAGE_FIGURES
from bench.priority import FIGURE_NAMES as PRIORITY_FIGURES
from infra.settings import Settings
from tests.corpus_targets import BLIND_FLOOR, HELD_OUT_TARGET
from tests.rabbit import queue_declared
from tools.search_corpus import load_cases

REPO = Path(__file__).resolve().parents[2]
#: Each benchmark's figures, and the figures whose queues it declares.
FIGURES_OF: dict[str, tuple[str, ...]] = {
    "enqueue": ("enqueue",),
    "pipeline": ("pipeline",),
    "search": ("search", "search_memory"),
    "reads": ("reads_job", "reads_stats"),
    "growth": GROWTH_FIGURES,
    "pacing": ("pacing",),
    "watches": ("watches",),
    "pages": PAGE_FIGURES,
    "quality": ("quality",),
    "priority": PRIORITY_FIGURES,
}
QUEUES_OF: dict[str, tuple[str, ...]] = {
    "enqueue": ("enqueue",),
    "pipeline": ("pipeline",),
    "search": ("search",),
    "reads": ("reads",),
    "growth": ("growth",),
    "pacing": ("pacing_paced", "pacing_unpaced"),
    "pages": ("pages",),
    "priority": ("priority_classic",),
}
#: The smoke run in three parts of about a minute each, which the test processes run side by side: one run of all
#: ten is the suite's longest test by far.
PARTS = {
    "store": ("enqueue", "pipeline", "reads", "watches", "pages", "quality"),
    "browser_pools": ("search", "pacing", "priority"),
    "growth": ("growth",),
}


def _check_growth(figures: dict[str, Any]) -> None:
    for name in GROWTH_FIGURES:  # measured at each stored size of the smoke mode, from 0 up
        figure = figures[name]
        assert figure["sizes"][0] == 0, (name, figure)
        assert figure["baseline_ratio"] > 0, (name, figure)
        assert set(figure["by_size"]) == {str(size) for size in figure["sizes"]}, (name, figure)


def _check_watches(figures: dict[str, Any]) -> None:
    watches = figures["watches"]  # one pass at each number of stored watches, the same number due
    assert watches["sizes"] == [100, 500]
    assert all(at["range_query_ms"] > 0 for at in watches["details"]["by_size"].values()), watches


def _check_quality(figures: dict[str, Any]) -> None:
    quality = figures["quality"]  # every tuned case answered right but those known to be wrong
    assert set(quality["details"]["wrong"]) == {case["id"] for case in load_cases() if case.get("known_wrong")}
    assert figures["quality_held_out"]["value"] >= HELD_OUT_TARGET
    assert figures["quality_blind"]["value"] >= BLIND_FLOOR


def _check_priority(figures: dict[str, Any]) -> None:
    for name in PRIORITY_FIGURES:  # a HIGH job overtook the queued LOW ones (in a plain queue it waits ~6 s)
        priority = figures[name]
        assert priority["meets_target"], priority
        assert priority["details"]["low_queued_ahead"][0] > 50, priority


def _check_pacing(figures: dict[str, Any]) -> None:
    pacing = figures["pacing"]  # both sides ran every search to its end; the paced side found every one
    searches = MODES["smoke"].pacing.searches
    assert pacing["runs"]["lps"][0]["searches"] == pacing["runs"]["raw"][0]["searches"] == searches
    assert pacing["runs"]["lps"][0]["done_complete"] == searches, pacing["runs"]["lps"]


#: What each benchmark's figures must show beyond a value beside its baseline.
CHECKS: dict[str, Callable[[dict[str, Any]], None]] = {
    "growth": _check_growth,
    "watches": _check_watches,
    "quality": _check_quality,
    "priority": _check_priority,
    "pacing": _check_pacing,
}


@pytest.mark.processes
@pytest.mark.parametrize("part", PARTS)
def test_the_smoke_run_measures_every_figure_beside_its_baseline_and_leaves_nothing_behind(part: str, tmp_path: Path):
    # The parts together run every benchmark once.
    assert sorted(name for each in PARTS.values() for name in each) == sorted(FIGURES_OF) == sorted(BENCHMARKS)
    benchmarks = PARTS[part]
    results, markdown = tmp_path / "smoke.json", tmp_path / "BENCHMARKS.md"
    only = ",".join(benchmarks)
    command = [
        sys.executable,
        "-m",
        "bench",
        "--smoke",
        "--only",
        only,
        "--json",
        str(results),
        "--markdown",
        str(markdown),
    ]
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=420, check=False)
    assert done.returncode == 0, done.stderr[-4000:]

    result = json.loads(results.read_text())
    assert result["failures"] == {}
    figures = result["figures"]
    for name in (figure for benchmark in benchmarks for figure in FIGURES_OF[benchmark]):
        figure = figures[name]
        assert figure["value"] > 0, (name, figure)
        assert figure["baseline"] > 0, (name, figure)
        assert figure["ratio"] > 0, (name, figure)
        assert figure["store"], name
    for benchmark in benchmarks:
        if check := CHECKS.get(benchmark):
            check(figures)
    assert {"cores", "memory_gib", "python", "chromium", "rabbitmq", "store"} <= result["machine"].keys()
    assert "bench:results:begin" in markdown.read_text()

    amqp_url = Settings.from_env().amqp_url
    for figure in (queue for benchmark in benchmarks for queue in QUEUES_OF.get(benchmark, ())):
        assert not queue_declared(amqp_url, f"lpsbench_{result['run_id']}_{figure}_search")
