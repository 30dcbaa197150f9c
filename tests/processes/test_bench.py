"""The benchmark runner works: its smoke mode measures every figure once and cleans up after itself.

Benchmarks are not tests: nothing here looks at how fast anything was, only that every figure came out
with a value and a ratio to its raw baseline.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bench.growth import FIGURE_NAMES as GROWTH_FIGURES
from bench.modes import MODES
from bench.pages import FIGURE_NAMES as PAGE_FIGURES
from bench.priority import FIGURE_NAMES as PRIORITY_FIGURES
from infra.settings import Settings
from tests.corpus_targets import BLIND_FLOOR, HELD_OUT_TARGET
from tests.rabbit import queue_declared
from tools.search_corpus import load_cases

REPO = Path(__file__).resolve().parents[2]
FIGURES = (
    "enqueue",
    "pipeline",
    "search",
    "search_memory",
    "reads_job",
    "reads_stats",
    *GROWTH_FIGURES,
    "pacing",
    "watches",
    *PAGE_FIGURES,
    "quality",
    *PRIORITY_FIGURES,
)


@pytest.mark.processes
def test_the_smoke_run_measures_every_figure_beside_its_baseline_and_leaves_nothing_behind(tmp_path: Path):
    results, markdown = tmp_path / "smoke.json", tmp_path / "BENCHMARKS.md"
    command = [sys.executable, "-m", "bench", "--smoke", "--json", str(results), "--markdown", str(markdown)]
    # A guard against a hung run, not a speed target (those are the benchmark's own figures): ~150-180 s alone on a
    # machine that ran the suite in ~6 min, past 420 s in CI on one running Python three times slower, ~600 s in CI
    # on one running the matcher five times slower (2026-12-05).
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=1800, check=False)
    assert done.returncode == 0, done.stderr[-4000:]

    result = json.loads(results.read_text())
    assert result["failures"] == {}
    for name in FIGURES:
        figure = result["figures"][name]
        assert figure["value"] > 0, (name, figure)
        assert figure["baseline"] > 0, (name, figure)
        assert figure["ratio"] > 0, (name, figure)
        assert figure["store"], name
    for name in GROWTH_FIGURES:  # measured at each stored size of the smoke mode, from 0 up
        figure = result["figures"][name]
        assert figure["sizes"][0] == 0, (name, figure)
        assert figure["baseline_ratio"] > 0, (name, figure)
        assert set(figure["by_size"]) == {str(size) for size in figure["sizes"]}, (name, figure)
    watches = result["figures"]["watches"]  # one pass at each number of stored watches, the same number due
    assert watches["sizes"] == [100, 500]
    assert all(at["range_query_ms"] > 0 for at in watches["details"]["by_size"].values()), watches
    quality = result["figures"]["quality"]  # every tuned case answered right but those known to be wrong
    assert set(quality["details"]["wrong"]) == {case["id"] for case in load_cases() if case.get("known_wrong")}
    assert result["figures"]["quality_held_out"]["value"] >= HELD_OUT_TARGET
    assert result["figures"]["quality_blind"]["value"] >= BLIND_FLOOR
    for name in PRIORITY_FIGURES:  # a HIGH job overtook the queued LOW ones (in a plain queue it waits ~6 s)
        priority = result["figures"][name]
        assert priority["meets_target"], priority
        assert priority["details"]["low_queued_ahead"][0] > 50, priority
    assert {"cores", "memory_gib", "python", "chromium", "rabbitmq", "store"} <= result["machine"].keys()
    assert "bench:results:begin" in markdown.read_text()

    amqp_url = Settings.from_env().amqp_url
    pacing = result["figures"]["pacing"]  # both sides ran every search to its end; the paced side found every one
    searches = MODES["smoke"].pacing.searches
    assert pacing["runs"]["lps"][0]["searches"] == pacing["runs"]["raw"][0]["searches"] == searches
    assert pacing["runs"]["lps"][0]["done_complete"] == searches, pacing["runs"]["lps"]
    for figure in (
        "enqueue",
        "pipeline",
        "search",
        "reads",
        "growth",
        "pacing_paced",
        "pacing_unpaced",
        "pages",
        "priority_classic",
    ):
        assert not queue_declared(amqp_url, f"lpsbench_{result['run_id']}_{figure}_search")
