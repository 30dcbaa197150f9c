"""Statistics and the shape of one figure in the results: LPS, its raw baseline, and their ratio.

Every ratio reads "LPS as a fraction of raw": rates are LPS ÷ raw, latencies raw ÷ LPS, so 1.0 is parity
and smaller is worse. Memory is the exception the issue defines: RSS after many searches ÷ after few.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from typing import Any


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else 0.0


def percentile(values: Sequence[float], fraction: float) -> float:
    """Nearest-rank percentile (p99 of 100 samples is the 99th smallest, not an interpolation)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(math.ceil(fraction * len(ordered)), 1)
    return ordered[rank - 1]


def ratio(numerator: float, denominator: float) -> float:
    return round(numerator / denominator, 3) if denominator > 0 else 0.0


def _meets(value: float, target: Mapping[str, float] | None) -> bool | None:
    if not target:
        return None
    if "min" in target:
        return value >= target["min"]
    return value <= target["max"]


def rate_figure(
    title: str,
    unit: str,
    lps_runs: Sequence[float],
    raw_runs: Sequence[float],
    *,
    store: str,
    settings: Mapping[str, Any],
    target: Mapping[str, float] | None = None,
    details: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """A throughput: medians of both sides' runs, and LPS ÷ raw."""
    value, baseline = median(lps_runs), median(raw_runs)
    figure_ratio = ratio(value, baseline)
    return {
        "title": title,
        "store": store,
        "unit": unit,
        "value": round(value, 2),
        "baseline": round(baseline, 2),
        "ratio": figure_ratio,
        "ratio_is": "LPS ÷ raw baseline (medians)",
        "target": dict(target or {}),
        "meets_target": _meets(figure_ratio, target),
        "runs": {"lps": [round(run, 2) for run in lps_runs], "raw": [round(run, 2) for run in raw_runs]},
        "settings": dict(settings),
        "details": dict(details or {}),
    }


def latency_figure(
    title: str,
    lps_runs: Sequence[Mapping[str, float]],
    raw_runs: Sequence[Mapping[str, float]],
    *,
    store: str,
    settings: Mapping[str, Any],
    details: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Latencies: each run gives a p50 and a p99; the figure is their medians, ratio raw ÷ LPS at p50."""
    p50, p99 = median([run["p50_ms"] for run in lps_runs]), median([run["p99_ms"] for run in lps_runs])
    raw50, raw99 = median([run["p50_ms"] for run in raw_runs]), median([run["p99_ms"] for run in raw_runs])
    return {
        "title": title,
        "store": store,
        "unit": "ms (p50)",
        "value": round(p50, 1),
        "baseline": round(raw50, 1),
        "ratio": ratio(raw50, p50),
        "ratio_is": "raw ÷ LPS at p50 (medians)",
        "p50_ms": round(p50, 1),
        "p99_ms": round(p99, 1),
        "baseline_p50_ms": round(raw50, 1),
        "baseline_p99_ms": round(raw99, 1),
        "ratio_p99": ratio(raw99, p99),
        "errors": sum(int(run.get("errors", 0)) for run in lps_runs),
        "baseline_errors": sum(int(run.get("errors", 0)) for run in raw_runs),
        "target": {},
        "meets_target": None,
        "runs": {"lps": [dict(run) for run in lps_runs], "raw": [dict(run) for run in raw_runs]},
        "settings": dict(settings),
        "details": dict(details or {}),
    }


def latency_summary(measured: Any) -> dict[str, float]:
    """p50 and p99 of a run's latencies (`measured.seconds`), failed requests included, and how many failed."""
    milliseconds = [latency * 1000 for latency in measured.seconds]
    return {
        "p50_ms": round(percentile(milliseconds, 0.50), 1),
        "p99_ms": round(percentile(milliseconds, 0.99), 1),
        "requests": len(milliseconds),
        "errors": measured.errors,
    }


def mib(size: int) -> float:
    return round(size / 2**20, 1)


def growth_by_size(
    lps: Mapping[int, Sequence[float]], raw: Mapping[int, Sequence[float]], digits: int = 2
) -> dict[str, dict[str, float]]:
    """{stored size: {"lps": median, "raw": median}}, sizes ascending (as strings: JSON keys)."""
    return {
        str(size): {"lps": round(median(lps[size]), digits), "raw": round(median(raw[size]), digits)}
        for size in sorted(lps)
    }


def growth_ratio(by_size: Mapping[int, Sequence[float]], since: int | None = None) -> float:
    """The median at the largest size ÷ the median at `since` (by default the smallest: 0 stored jobs)."""
    sizes = sorted(by_size)
    return ratio(median(by_size[sizes[-1]]), median(by_size[sizes[0] if since is None else since]))


def growth_figure(
    title: str,
    unit: str,
    lps: Mapping[int, Sequence[float]],
    raw: Mapping[int, Sequence[float]],
    *,
    store: str,
    settings: Mapping[str, Any],
    target: Mapping[str, Any] | None = None,
    details: Mapping[str, Any] | None = None,
    stored: str = "stored jobs",
) -> dict[str, Any]:
    """One quantity measured at several stored sizes (of `stored`), LPS beside its raw baseline.

    `value` and `baseline` are the medians at the largest size; `ratio` is LPS's value at the largest size ÷ at
    the smallest (0), `baseline_ratio` the raw side's. 1.0 is flat; for a rate smaller is worse, for a time
    larger is worse. A target says what it bounds: `{"min": 0.7, "of": "ratio"}` or `{"max": 10, "of": "value"}`.
    """
    sizes = sorted(lps)
    if sizes != sorted(raw) or not sizes:
        raise ValueError(f"both sides need the same sizes: {sorted(lps)} vs {sorted(raw)}")
    value, baseline = median(lps[sizes[-1]]), median(raw[sizes[-1]])
    figure_ratio = growth_ratio(lps)
    target = dict(target or {})
    bounded = {"min": target["min"]} if "min" in target else {"max": target["max"]} if "max" in target else {}
    return {
        "title": title,
        "store": store,
        "unit": unit,
        "value": round(value, 2),
        "baseline": round(baseline, 2),
        "ratio": figure_ratio,
        "baseline_ratio": growth_ratio(raw),
        "ratio_is": f"value at {sizes[-1]:,} {stored} ÷ value at {sizes[0]:,} (medians; raw: baseline_ratio)",
        "sizes": sizes,
        "by_size": growth_by_size(lps, raw),
        # At 0 some work has nothing to do yet (a reconciler pass finds no finished search to check): the ratio from
        # the first stored size on shows what history alone costs.
        "ratio_from_first_stored_size": (
            {"from": sizes[1], "lps": growth_ratio(lps, sizes[1]), "raw": growth_ratio(raw, sizes[1])}
            if len(sizes) > 2
            else None
        ),
        "target": target,
        "meets_target": _meets(value if target.get("of") == "value" else figure_ratio, bounded),
        "runs": {
            str(size): {"lps": [round(run, 2) for run in lps[size]], "raw": [round(run, 2) for run in raw[size]]}
            for size in sizes
        },
        "settings": dict(settings),
        "details": dict(details or {}),
    }
