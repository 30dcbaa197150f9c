"""The search-quality figure (`python -m bench --only quality`): the saved-page corpus, answered by LPS's own code.

Runs every case of tests/search_corpus/ (tools/search_corpus.py: the real Coupang and Naver sources over saved and
rendered pages, `work_search` and `decide_after_failure` attempt after attempt) the mode's number of times, in
process: no servers.

LPS's value is the share of cases answered right (chosen lowest offer, `complete` and outcome all as recorded; the
target is 1.0). Raw baseline: the share a matcher-less search gets right, answering the cheapest offer the same
searches showed (ads, sold-out offers, accessories and all). Also reported: the share answered `complete: true` beside
the share whose recorded answer is complete, and the milliseconds per case.
"""

from __future__ import annotations

from typing import Any

from bench.figures import median, ratio
from bench.modes import QualitySizes
from bench.stack import Bench
from tools.search_corpus import CaseResult, Lowest, load_cases, run_corpus, summary


def _cheapest_is_right(result: CaseResult) -> bool:
    """The matcher-less answer: the cheapest offer shown, whatever it is."""
    cheapest = min(result.offers, key=lambda offer: offer["price"], default=None)
    return Lowest.of(cheapest) == Lowest.of(result.expected.get("lowest"))


async def measure(bench: Bench, sizes: QualitySizes) -> list[dict[str, Any]]:
    cases = load_cases()
    runs = [await run_corpus(cases) for _ in range(sizes.runs)]
    figures = [summary(results, cases) for results in runs]
    last, results = figures[-1], runs[-1]
    value = last["right_share"]
    baseline = round(sum(_cheapest_is_right(result) for result in results) / len(results), 4) if results else 0.0
    return [
        {
            "title": "Search quality: share of corpus cases answered right (in process, no store)",
            "store": "none (in process)",
            "unit": "of cases right",
            "value": value,
            "baseline": baseline,
            "ratio": ratio(value, baseline),
            "ratio_is": "LPS's share right ÷ the cheapest offer's share right",
            "target": {"text": "share right = 1.0"},
            "meets_target": value >= 1.0,
            "runs": {
                "lps": [figure["right_share"] for figure in figures],
                "ms_per_case": [f["ms_per_case"] for f in figures],
            },
            "settings": {"cases": last["cases"], "runs": sizes.runs},
            "details": {
                "cases": last["cases"],
                "right_share": value,
                "complete_share": last["complete_share"],
                "expected_complete_share": last["expected_complete_share"],
                "ms_per_case": round(median([figure["ms_per_case"] for figure in figures]), 2),
                "wrong": last["wrong"],
                "cases_per_class": last["cases_per_class"],
            },
        }
    ]
