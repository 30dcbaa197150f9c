"""The benchmark runner works: its smoke mode measures every figure once and cleans up after itself.

Benchmarks are not tests: nothing here looks at how fast anything was, only that every figure came out
with a value and a ratio to its raw baseline.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bench.__main__ import FIGURES
from bench.growth import FIGURE_NAMES as GROWTH_FIGURES
from bench.modes import MODES
from bench.pages import FIGURE_NAMES as PAGE_FIGURES
from bench.priority import FIGURE_NAMES as PRIORITY_FIGURES
from infra.settings import Settings
from tests.corpus_targets import BLIND_FLOOR, HELD_OUT_TARGET
from tests.rabbit import queue_declared
from tools.search_corpus import load_cases

REPO = Path(__file__).resolve().parents[2]
#: What each of the runner's figures (`--only` names) writes into the results, and the queues it declares for its run.
WRITES: dict[str, tuple[str, ...]] = {
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
QUEUES: dict[str, tuple[str, ...]] = {
    "enqueue": ("enqueue",),
    "pipeline": ("pipeline",),
    "search": ("search",),
    "reads": ("reads",),
    "growth": ("growth",),
    "pacing": ("pacing_paced", "pacing_unpaced"),
    "pages": ("pages",),
    "priority": ("priority_classic",),
}
#: The smoke run in three parts of ~40 s each on an idle machine, so the suite's parallel run spreads them (one run of
#: every figure took ~2 minutes in one test process, the suite's longest test).
PARTS = {
    "stores": ("enqueue", "pipeline", "reads", "watches", "pages", "quality"),
    "workers": ("search", "growth"),
    "fleet": ("pacing", "priority"),
}


@pytest.mark.processes  # beside the runs it splits (it starts nothing)
def test_the_smoke_parts_together_measure_every_figure_of_the_runner():
    parts = [name for names in PARTS.values() for name in names]

    assert sorted(parts) == sorted(FIGURES) == sorted(WRITES)


def _smoke_run(figures: tuple[str, ...], tmp_path: Path) -> dict[str, Any]:
    results, markdown = tmp_path / "smoke.json", tmp_path / "BENCHMARKS.md"
    command = [sys.executable, "-m", "bench", "--smoke", "--only", ",".join(figures)]
    command += ["--json", str(results), "--markdown", str(markdown)]
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-4000:]
    assert "bench:results:begin" in markdown.read_text()
    result: dict[str, Any] = json.loads(results.read_text())
    return result


@pytest.mark.processes
@pytest.mark.parametrize("part", PARTS)
def test_the_smoke_run_measures_every_figure_beside_its_baseline_and_leaves_nothing_behind(part: str, tmp_path: Path):
    figures = PARTS[part]
    result = _smoke_run(figures, tmp_path)

    assert result["failures"] == {}
    for name in (written for figure in figures for written in WRITES[figure]):
        figure = result["figures"][name]
        assert figure["value"] > 0, (name, figure)
        assert figure["baseline"] > 0, (name, figure)
        assert figure["ratio"] > 0, (name, figure)
        assert figure["store"], name
    _check_details(figures, result)
    assert {"cores", "memory_gib", "python", "chromium", "rabbitmq", "store"} <= result["machine"].keys()
    amqp_url = Settings.from_env().amqp_url
    for figure in (queue for name in figures for queue in QUEUES.get(name, ())):
        assert not queue_declared(amqp_url, f"lpsbench_{result['run_id']}_{figure}_search")


def _check_details(figures: tuple[str, ...], result: dict[str, Any]) -> None:
    """What each figure's details must hold beyond a value."""
    measured = result["figures"]
    if "growth" in figures:
        for name in GROWTH_FIGURES:  # measured at each stored size of the smoke mode, from 0 up
            figure = measured[name]
            assert figure["sizes"][0] == 0, (name, figure)
            assert figure["baseline_ratio"] > 0, (name, figure)
            assert set(figure["by_size"]) == {str(size) for size in figure["sizes"]}, (name, figure)
    if "watches" in figures:  # one pass at each number of stored watches, the same number due
        watches = measured["watches"]
        assert watches["sizes"] == [100, 500]
        assert all(at["range_query_ms"] > 0 for at in watches["details"]["by_size"].values()), watches
    if "quality" in figures:  # every tuned case answered right but those known to be wrong
        quality = measured["quality"]
        assert set(quality["details"]["wrong"]) == {case["id"] for case in load_cases() if case.get("known_wrong")}
        assert measured["quality_held_out"]["value"] >= HELD_OUT_TARGET
        assert measured["quality_blind"]["value"] >= BLIND_FLOOR
    if "priority" in figures:  # a HIGH job overtook the queued LOW ones (in a plain queue it waits ~6 s)
        for name in PRIORITY_FIGURES:
            priority = measured[name]
            assert priority["meets_target"], priority
            assert priority["details"]["low_queued_ahead"][0] > 50, priority
    if "pacing" in figures:  # both sides ran every search to its end; the paced side found every one
        pacing = measured["pacing"]
        searches = MODES["smoke"].pacing.searches
        assert pacing["runs"]["lps"][0]["searches"] == pacing["runs"]["raw"][0]["searches"] == searches
        assert pacing["runs"]["lps"][0]["done_complete"] == searches, pacing["runs"]["lps"]
