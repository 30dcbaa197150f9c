"""The benchmark runner works: its smoke mode measures every figure once and cleans up after itself.

Benchmarks are not tests: nothing here looks at how fast anything was, only that every figure came out
with a value and a ratio to its raw baseline.
"""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
from pathlib import Path

import pika
import pika.exceptions

from bench.growth import FIGURE_NAMES as GROWTH_FIGURES
from infra.settings import Settings

REPO = Path(__file__).resolve().parents[1]
FIGURES = ("enqueue", "pipeline", "search", "search_memory", "reads_job", "reads_stats", *GROWTH_FIGURES)


def queue_exists(amqp_url: str, queue: str) -> bool:
    with contextlib.closing(pika.BlockingConnection(pika.URLParameters(amqp_url))) as connection:
        try:
            connection.channel().queue_declare(queue, passive=True)
        except pika.exceptions.ChannelClosedByBroker:
            return False
        return True


def test_the_smoke_run_measures_every_figure_beside_its_baseline_and_leaves_nothing_behind(tmp_path: Path):
    results, markdown = tmp_path / "smoke.json", tmp_path / "BENCHMARKS.md"
    command = [sys.executable, "-m", "bench", "--smoke", "--json", str(results), "--markdown", str(markdown)]
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=300, check=False)
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
    assert {"cores", "memory_gib", "python", "chromium", "rabbitmq", "store"} <= result["machine"].keys()
    assert "bench:results:begin" in markdown.read_text()

    amqp_url = Settings.from_env().amqp_url
    for figure in ("enqueue", "pipeline", "search", "reads", "growth"):
        assert not queue_exists(amqp_url, f"lpsbench_{result['run_id']}_{figure}_search")
