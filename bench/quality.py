"""The search-quality figures (`python -m bench --only quality`): the saved-page corpus, answered by LPS's own code.

Runs every case of tests/search_corpus/ (tools/search_corpus.py: the real Coupang and Naver sources over saved and
rendered pages, `work_search` and `decide_after_failure` attempt after attempt) the mode's number of times, in
process: no servers. Three figures, one per part of the corpus:
- the tuned part (tests/search_corpus/*.json): cases the matcher was developed against; target 1.0;
- the held-out part (tests/search_corpus/held_out/, but the readers' files): cases written before the matcher and
  never tuned on; target 0.95;
- the blind part (held_out/*_reader.json): cases readers wrote without seeing the matcher, never edited to pass;
  target 0.95. The held-out shares are the figures that say how LPS does on listing shapes nobody wrote a rule for,
  the blind one most of all.

LPS's value is the share of cases answered right (chosen lowest offer, `complete` and outcome all as recorded). Raw
baseline: the share a matcher-less search gets right, answering the cheapest offer the same searches showed (ads,
sold-out offers, accessories and all). Also reported: the share answered `complete: true` beside the share whose
recorded answer is complete, the answers the result said were in doubt (`said_in_doubt`: wrong and right), the
milliseconds per case (the Korean analyzer's share of it included: each run analyses its titles afresh), and the
seconds the analyzer takes to load in a fresh process.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from typing import Any

from bench.figures import median, ratio
from bench.modes import QualitySizes
from bench.stack import REPO, Bench
from infra.text.analyzer import morphemes
from infra.text.words import segments
from tools.search_corpus import CORPUS, HELD_OUT, CaseResult, Lowest, load_cases, load_cases_of, run_corpus, summary

#: The cases readers wrote without seeing the matcher (held_out/README.md): one file per reader.
BLIND = sorted(HELD_OUT.glob("*_reader.json"))


def _tuned() -> list[dict[str, Any]]:
    return load_cases(CORPUS)


def _held_out() -> list[dict[str, Any]]:
    blind = _blind()
    return [case for case in load_cases(HELD_OUT) if case not in blind]


def _blind() -> list[dict[str, Any]]:
    return [case for path in BLIND for case in load_cases_of(path)]


#: (the cases, what they are, target share), in the order of FIGURE_NAMES
PARTS: tuple[tuple[Callable[[], list[dict[str, Any]]], str, float], ...] = (
    (_tuned, "tuned corpus", 1.0),
    (_held_out, "held-out corpus (written before the matcher, never tuned on)", 0.95),
    (_blind, "blind held-out corpus (a reader who never saw the matcher, never tuned on)", 0.95),
)
FIGURE_NAMES = ("quality", "quality_held_out", "quality_blind")


def _cheapest_is_right(result: CaseResult) -> bool:
    """The matcher-less answer: the cheapest offer shown, whatever it is."""
    cheapest = min(result.offers, key=lambda offer: offer["price"], default=None)
    return Lowest.of(cheapest) == Lowest.of(result.expected.get("lowest"))


def analyzer_load_seconds() -> float:
    """How long a fresh process takes to load and warm the Korean analyzer (what a search pool pays at boot)."""
    probe = "import time; t = time.perf_counter(); from infra.text.analyzer import load; load(); "
    probe += "print(time.perf_counter() - t)"
    output = subprocess.run([sys.executable, "-c", probe], cwd=REPO, capture_output=True, text=True, check=True)
    return round(float(output.stdout.strip()), 2)


async def _measure_part(
    load: Callable[[], list[dict[str, Any]]], what: str, target: float, runs: int
) -> dict[str, Any]:
    cases = load()
    results = []
    for _ in range(runs):
        # Every run analyses its titles afresh: the analyzer's cost per case stays in the figure.
        segments.cache_clear()
        morphemes.cache_clear()
        results.append(await run_corpus(cases))
    figures = [summary(result, cases) for result in results]
    last, final = figures[-1], results[-1]
    value = last["right_share"]
    baseline = round(sum(_cheapest_is_right(result) for result in final) / len(final), 4) if final else 0.0
    return {
        "title": f"Search quality, {what}: share of cases answered right (in process, no store)",
        "store": "none (in process)",
        "unit": "of cases right",
        "value": value,
        "baseline": baseline,
        "ratio": ratio(value, baseline),
        "ratio_is": "LPS's share right ÷ the cheapest offer's share right",
        "target": {"text": f"share right ≥ {target}"},
        "meets_target": value >= target,
        "runs": {
            "lps": [figure["right_share"] for figure in figures],
            "ms_per_case": [f["ms_per_case"] for f in figures],
        },
        "settings": {"cases": last["cases"], "runs": runs},
        "details": {
            "cases": last["cases"],
            "right_share": value,
            "complete_share": last["complete_share"],
            "expected_complete_share": last["expected_complete_share"],
            "ms_per_case": round(median([figure["ms_per_case"] for figure in figures]), 2),
            "wrong": last["wrong"],
            "mistakes": last["mistakes"],
            "said_in_doubt": last["said_in_doubt"],
            "cases_per_class": last["cases_per_class"],
        },
    }


async def measure(bench: Bench, sizes: QualitySizes) -> list[dict[str, Any]]:
    figures = [await _measure_part(*part, sizes.runs) for part in PARTS]
    load_seconds = analyzer_load_seconds()
    for figure in figures:
        figure["details"]["analyzer_load_s"] = load_seconds
    return figures
