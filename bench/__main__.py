"""`python -m bench [--quick | --full | --smoke]`: every figure beside its raw baseline, in JSON and BENCHMARKS.md.

    python -m bench                 # quick mode: a few minutes on the project's 2-core machine
    python -m bench --full          # the figures' defined sizes (300 searches, 2,000 stored jobs): ~20 minutes
    python -m bench --only search   # some figures only (enqueue, pipeline, search, reads, growth)
    python -m bench --only growth   # every hot path at 0 and at growing numbers of stored jobs
    python -m bench --only pages    # each dashboard page at 50,000 stored jobs
    python -m bench --full --only pacing   # 300 searches against a refusing shop, with and without pacing
    python -m bench --only watches  # one watch scheduler pass at 1,000 and at 50,000 stored watches
    python -m bench --only quality  # the search corpus, tuned and held-out parts, answered by LPS's code (no servers)
    python -m bench --only priority # a HIGH search behind 2,000 queued LOW ones, classic and quorum queues
    LPS_MONGO_URL=mongodb://… python -m bench --full   # on a real MongoDB (larger sizes where they matter)

Each figure gets a fresh database and queue prefix on the same servers, deleted afterwards; the processes
it starts are stopped. Results go to `bench/results/<mode>.json` and, for quick and full, into the
generated block of BENCHMARKS.md; a run of some figures only (`--only`) keeps the other figures of that
mode's previous JSON file, each marked with the run it came from. The exit status is 0 when every figure
was measured (targets missed are findings, not failures).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import shutil
import sys
import tempfile
import time
import traceback
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench import enqueue, growth, pacing, pages, pipeline, priority, quality, reads, search, watches
from bench.machine import machine_facts
from bench.modes import MODES, Mode
from bench.report import results_to_render, update_markdown, write_json
from bench.stack import REPO, Bench, open_store
from infra.settings import Settings

FIGURES = ("enqueue", "pipeline", "search", "reads", "growth", "pacing", "watches", "pages", "quality", "priority")
log = logging.getLogger("bench")


def _runners(mode: Mode) -> dict[str, Callable[[Bench], Awaitable[list[dict[str, Any]]]]]:
    async def run_enqueue(bench: Bench) -> list[dict[str, Any]]:
        return [await enqueue.measure(bench, mode.enqueue, decompose=mode.name == "full")]

    async def run_pipeline(bench: Bench) -> list[dict[str, Any]]:
        return [await pipeline.measure(bench, mode.pipeline)]

    async def run_search(bench: Bench) -> list[dict[str, Any]]:
        return await search.measure(bench, mode.search)

    async def run_reads(bench: Bench) -> list[dict[str, Any]]:
        return await reads.measure(bench, mode.reads)

    async def run_growth(bench: Bench) -> list[dict[str, Any]]:
        return await growth.measure(bench, mode.growth)

    async def run_pacing(bench: Bench) -> list[dict[str, Any]]:
        return await pacing.measure(bench, mode.pacing)

    async def run_watches(bench: Bench) -> list[dict[str, Any]]:
        return await watches.measure(bench, mode.watches)

    async def run_pages(bench: Bench) -> list[dict[str, Any]]:
        return await pages.measure(bench, mode.pages)

    async def run_quality(bench: Bench) -> list[dict[str, Any]]:
        return await quality.measure(bench, mode.quality)

    async def run_priority(bench: Bench) -> list[dict[str, Any]]:
        return await priority.measure(bench, mode.priority)

    return {
        "enqueue": run_enqueue,
        "pipeline": run_pipeline,
        "search": run_search,
        "reads": run_reads,
        "growth": run_growth,
        "pacing": run_pacing,
        "watches": run_watches,
        "pages": run_pages,
        "quality": run_quality,
        "priority": run_priority,
    }


FIGURE_KEYS = {
    "enqueue": ("enqueue",),
    "pipeline": ("pipeline",),
    "search": ("search", "search_memory"),
    "reads": ("reads_job", "reads_stats"),
    "growth": growth.FIGURE_NAMES,
    "pacing": ("pacing",),
    "watches": ("watches",),
    "pages": pages.FIGURE_NAMES,
    "quality": quality.FIGURE_NAMES,
    "priority": priority.FIGURE_NAMES,
}


def base_settings(store_kind: str) -> Settings:
    # The benchmark's pools serve no metrics: the default ports are a person's `lps dev` (and the test suite's, which
    # runs the smoke benchmark beside `lps dev --demo`; a pool holding 9191 made that start fail).
    settings = Settings.from_env().with_overrides(search_metrics_port=0, outbox_metrics_port=0)
    if store_kind == "embedded":
        # The embedded store runs one command at a time and an insert scans the collection: 8 batches of 100
        # can queue for longer than the default 10 s socket timeout. Real MongoDB keeps the defaults.
        settings = settings.with_overrides(mongo_timeout_ms=max(settings.mongo_timeout_ms, 10_000))
    return settings


async def run(mode: Mode, figures: list[str], work_dir: Path, command: str) -> dict[str, Any]:
    started_at, started = datetime.now(UTC), time.perf_counter()
    results: dict[str, Any] = {}
    failures: dict[str, str] = {}
    with open_store() as store:
        settings = base_settings(store.kind)
        bench = Bench(store, settings, work_dir)
        machine = await asyncio.to_thread(machine_facts, store, settings.amqp_url, settings.browser_path)
        runners = _runners(mode)
        for name in figures:
            log.info("%s: measuring (%s mode, %s)", name, mode.name, store.label)
            figure_started = time.perf_counter()
            try:
                measured = await asyncio.wait_for(runners[name](bench), mode.timeout_for(name))
            except Exception as error:  # one broken figure must not hide the others
                log.error("%s failed: %s", name, "".join(traceback.format_exception(error)))
                failures[name] = f"{type(error).__name__}: {str(error)[:500]}"
                continue
            results |= dict(zip(FIGURE_KEYS[name], measured, strict=True))
            log.info("%s: done in %.0f s", name, time.perf_counter() - figure_started)
    return {
        "mode": mode.name,
        "command": command,
        "run_id": bench.run_id,
        "started_at": started_at.isoformat(timespec="seconds"),
        "seconds": round(time.perf_counter() - started, 1),
        "machine": machine,
        "settings": {
            "amqp_url": settings.amqp_url.split("@")[-1],
            "mongo_timeout_ms": settings.mongo_timeout_ms,
            "sizes": {name: _asdict(getattr(mode, name)) for name in FIGURES},
        },
        "figures": results,
        "failures": failures,
    }


def _asdict(sizes: Any) -> dict[str, Any]:
    return {field: getattr(sizes, field) for field in sizes.__dataclass_fields__}


def carry_over(result: dict[str, Any], previous_path: Path) -> dict[str, Any]:
    """A run of some figures keeps the previous run's other figures (its JSON file at `previous_path`), each
    marked with when and how it was taken, so that `--only X` updates X without losing the rest."""
    if not previous_path.exists():
        return result
    previous = json.loads(previous_path.read_text())
    if previous.get("mode") != result["mode"]:
        return result
    origin = {"started_at": previous["started_at"], "command": previous["command"], "machine": previous["machine"]}
    kept = {
        name: figure | {"taken_in": figure.get("taken_in", origin)}
        for name, figure in previous.get("figures", {}).items()
        if name not in result["figures"] and name not in result["failures"]
    }
    return result | {"figures": kept | result["figures"]}


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench", description="LPS benchmarks beside raw baselines")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--quick", dest="mode", action="store_const", const="quick", help="a few minutes (default)")
    which.add_argument("--full", dest="mode", action="store_const", const="full", help="the defined sizes")
    which.add_argument("--smoke", dest="mode", action="store_const", const="smoke", help="tiny: does it run?")
    parser.add_argument("--only", default=",".join(FIGURES), help=f"comma-separated subset of {', '.join(FIGURES)}")
    parser.add_argument("--json", type=Path, help="result file (default: bench/results/<mode>.json)")
    parser.add_argument("--markdown", type=Path, help="file whose generated block is updated (default: BENCHMARKS.md)")
    parser.add_argument("--no-markdown", action="store_true", help="leave BENCHMARKS.md alone")
    parser.add_argument("--keep-logs", action="store_true", help="keep the processes' logs and counters")
    args = parser.parse_args(argv)
    args.mode = args.mode or "quick"
    args.figures = [name.strip() for name in args.only.split(",") if name.strip()]
    unknown = set(args.figures) - set(FIGURES)
    if unknown:
        parser.error(f"unknown figures: {', '.join(sorted(unknown))}")
    return args


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    # pika logs every expected 404 (purging or deleting a queue a figure never declared) as a warning.
    logging.getLogger("pika").setLevel(logging.ERROR)
    args = parse_args(argv)
    json_path = args.json or REPO / "bench" / "results" / f"{args.mode}.json"
    markdown = None if args.no_markdown else args.markdown or (REPO / "BENCHMARKS.md" if args.mode != "smoke" else None)
    command = "python -m bench " + " ".join(sys.argv[1:] if argv is None else argv)
    work_dir = Path(tempfile.mkdtemp(prefix="lps-bench-"))
    try:
        result = asyncio.run(run(MODES[args.mode], args.figures, work_dir, command.strip()))
    finally:
        if args.keep_logs:
            print(f"logs and counters kept in {work_dir}", file=sys.stderr)
    if args.json is None and set(args.figures) != set(FIGURES):
        result = carry_over(result, json_path)
    write_json(result, json_path)
    if markdown is not None:
        update_markdown(markdown, results_to_render(result, json_path))
    print(json_path)
    if result["failures"]:
        print(f"logs of the failed run: {work_dir}", file=sys.stderr)
        return 1
    if not args.keep_logs:
        shutil.rmtree(work_dir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
