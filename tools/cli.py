"""The `lps` command: one entry point, one sub-command per process kind."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import re
import sys
from collections.abc import Awaitable, Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, NoReturn

from infra.queue_topology import JobSpec, QueueType
from infra.settings import SHUTDOWN_RECORDING_TIME, UNSIGNED_OUTBOX_REFUSED, Settings, SettingsError
from schemas.codes import JobStatus, JobType, has_ended

if TYPE_CHECKING:
    from tools.gateway_client import GatewayClient

log = logging.getLogger("lps")


def _configure_logging(level: str) -> None:
    """Text or JSON lines (LPS_LOG_FORMAT), secrets masked, for every command alike."""
    from infra.logs import configure_logging

    configure_logging(Settings.from_env(), level=level.upper())


@contextlib.contextmanager
def mongo_for(settings: Settings) -> Iterator[Settings]:
    """Settings with a MongoDB URL: LPS_MONGO_URL, or an embedded server started for this command."""
    if settings.mongo_url:
        yield settings
        return
    from embedded_store.server import INSTALL_HINT, embedded_mongo, missing_packages

    if missing := missing_packages():
        lacking = ", ".join(missing)
        raise SystemExit(f"lps: LPS_MONGO_URL is unset and the embedded store lacks {lacking}: {INSTALL_HINT}")
    with embedded_mongo() as url:
        log.info("LPS_MONGO_URL unset: started the embedded MongoDB-compatible server at %s", url)
        yield settings.with_overrides(mongo_url=url)


def cmd_gateway(args: argparse.Namespace) -> int:
    from service.app import create_app
    from service.http_server import run_gateway

    settings = Settings.from_env()
    host = args.host or settings.http_host
    port = args.port or settings.http_port
    with mongo_for(settings) as settings:
        run_gateway(create_app(settings), host=host, port=port)
    return 0


def port_number(text: str) -> int:
    """An argparse type: a TCP port a server can listen on (an out-of-range one is a usage error naming its flag,
    not an OverflowError from the socket)."""
    try:
        port = int(text)
    except ValueError:
        port = 0
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"must be a port number from 1 to 65535, not {text!r}")
    return port


#: The pools `lps worker` runs: one per job type.
POOLS = {job_type.name.lower(): job_type for job_type in JobType}


def worker_command(spec: JobSpec, *, processes: int, threads: int, shutdown_grace: float) -> list[str]:
    """The Dramatiq CLI invocation of a pool (`lps worker` execs it; `lps dev` supervises it)."""
    shutdown_timeout = shutdown_grace + SHUTDOWN_RECORDING_TIME
    return [
        sys.executable, "-m", "dramatiq", "actors.worker:setup",
        "--queues", *spec.queues,
        "--processes", str(processes),
        "--threads", str(threads),
        "--worker-shutdown-timeout", str(int(shutdown_timeout * 1000)),
    ]  # fmt: skip


def worker_environment(spec: JobSpec, threads: int, shutdown_grace: float) -> dict[str, str]:
    env = dict(os.environ) | {"LPS_SHUTDOWN_GRACE": str(shutdown_grace)}
    if spec.job_type is JobType.SEARCH and spec.queue_type is QueueType.CLASSIC:
        # Broker priority only reorders what is still queued: prefetch no more than the pool can run.
        env.setdefault("dramatiq_queue_prefetch", str(threads))
    elif spec.job_type is JobType.SEARCH:
        # Quorum bands: the worker orders what it holds by band, so each band's consumer holds a message more than
        # the pool runs: when a high-band job ends, the next high one is already held, and a low one cannot slip in.
        env.setdefault("dramatiq_queue_prefetch", str(max(2, threads * 2)))
    return env


def cmd_worker(args: argparse.Namespace) -> int:
    settings = Settings.from_env()
    if not settings.mongo_url:
        print(
            "lps: set LPS_MONGO_URL to the MongoDB the gateway uses (e.g. one started by `lps mongo`)", file=sys.stderr
        )
        return 2
    spec = settings.job(POOLS[args.pool])
    if settings.refuses_unsigned_outbox(spec.queues):  # before starting any process (as the pool's own check would)
        print(f"lps: {UNSIGNED_OUTBOX_REFUSED}", file=sys.stderr)
        return 2
    threads = args.threads or spec.threads
    grace = settings.shutdown_grace if args.shutdown_timeout is None else args.shutdown_timeout
    command = worker_command(spec, processes=args.processes or spec.processes, threads=threads, shutdown_grace=grace)
    env = worker_environment(spec, threads, grace)
    from tools.supervisor import ignore_stop_signals, pool_stop_bound, supervise

    # Not exec'd: this process turns any number of stop signals into one, and ends the pool within its bound.
    try:
        return supervise(
            command, env, name=f"{args.pool} pool", stop_within=pool_stop_bound(grace), restart=args.supervise
        )
    finally:
        ignore_stop_signals()


def cmd_reconciler(args: argparse.Namespace) -> int:
    from infra.reconciler import run_reconciler

    settings = Settings.from_env()
    if args.interval:
        settings = settings.with_overrides(reconcile_interval=args.interval)
    if not settings.mongo_url:
        print("lps: set LPS_MONGO_URL to the MongoDB the gateway and workers use", file=sys.stderr)
        return 2
    done = asyncio.run(run_reconciler(settings, once=args.once))
    if done is not None:
        print(dict(done))
    return 0


def cmd_dev(args: argparse.Namespace) -> int:
    from pathlib import Path

    from tools.dev import DevPorts, run_dev
    from tools.rabbitmq import RabbitMQUnavailable

    settings = Settings.from_env()
    if args.gateway_port:
        settings = settings.with_overrides(http_port=args.gateway_port)
    configured = DevPorts.from_settings(settings)
    ports = DevPorts(
        mongo=args.mongo_port or configured.mongo,
        shop=args.shop_port or configured.shop,
        receiver=args.receiver_port or configured.receiver,
    )
    try:
        return asyncio.run(
            run_dev(
                settings,
                ports=ports,
                demo=args.demo,
                stay=args.stay,
                verbose=args.verbose,
                data_file=Path(args.data) if args.data else None,
            )
        )
    except (RabbitMQUnavailable, RuntimeError) as failed:
        print(f"lps dev: {failed}", file=sys.stderr)
        return 1


def cmd_mongo(args: argparse.Namespace) -> int:
    from embedded_store.server import INSTALL_HINT, missing_packages, serve

    if missing := missing_packages():
        print(f"lps mongo: the embedded store lacks {', '.join(missing)}: {INSTALL_HINT}", file=sys.stderr)
        return 2
    asyncio.run(serve(args.host, args.port, args.data))
    return 0


def cmd_receiver(args: argparse.Namespace) -> int:
    from aiohttp import web

    from tools.receiver import create_receiver_app

    print(f"lps receiver: set LPS_OUTBOX_URL=http://{args.host}:{args.port}/results", flush=True)
    web.run_app(create_receiver_app(Settings.from_env().outbox_secret), host=args.host, port=args.port, print=None)
    return 0


def cmd_snapshot(args: argparse.Namespace) -> int:
    """Write a blocked or unreadable page's saved HTML and screenshot to files."""
    from pathlib import Path

    from bson import ObjectId

    from infra.mongo import create_client
    from infra.snapshots import REFERENCE_PREFIX, SnapshotStore

    settings = Settings.from_env()
    if not settings.mongo_url:
        print("lps: set LPS_MONGO_URL to the MongoDB the workers use", file=sys.stderr)
        return 2
    snapshot_id = args.snapshot.removeprefix(REFERENCE_PREFIX)
    if not ObjectId.is_valid(snapshot_id):
        print(f"lps: not a snapshot id: {args.snapshot}", file=sys.stderr)
        return 2

    async def fetch() -> dict[str, bytes]:
        client = create_client(settings)
        try:
            return await SnapshotStore(client[settings.mongo_db]).files(ObjectId(snapshot_id))
        finally:
            await client.close()

    files = asyncio.run(fetch())
    if not files:
        print(f"lps: no snapshot {snapshot_id}", file=sys.stderr)
        return 1
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for name, content in files.items():
        (out / name).write_bytes(content)
        print(out / name)
    return 0


def _store_to_read(settings: Settings) -> tuple[Settings, str]:
    """The store a command without LPS_MONGO_URL reads (the settings pointing at it) and why that one: the one
    running `lps dev` stack's; else the embedded server on LPS_DEV_MONGO_PORT. LookupError when several stacks run
    or nothing answers: guessing would read someone else's jobs."""
    if settings.mongo_url:
        return settings, "LPS_MONGO_URL"
    from pathlib import Path

    from embedded_store.server import local_mongo_url, wait_for_port
    from infra.logs import Redactor
    from tools.dev_stacks import running_stacks

    stacks = running_stacks(Path(settings.dev_stacks_dir))
    if len(stacks) > 1:
        listed = "; ".join(f"pid {stack.pid}: {Redactor()(stack.mongo_url)} ({stack.gateway})" for stack in stacks)
        raise LookupError(
            f"LPS_MONGO_URL is unset and {len(stacks)} `lps dev` stacks run ({listed}): set LPS_MONGO_URL to the "
            "one to read"
        )
    if stacks:
        [stack] = stacks
        chosen = settings.with_overrides(mongo_url=stack.mongo_url, mongo_db=stack.mongo_db)
        return chosen, f"the `lps dev` stack of pid {stack.pid}"
    port = settings.dev_mongo_port
    if not wait_for_port("127.0.0.1", port, 1.0):
        raise LookupError(
            f"LPS_MONGO_URL is unset, no `lps dev` stack runs and no store answers on 127.0.0.1:{port} "
            "(LPS_DEV_MONGO_PORT): set LPS_MONGO_URL to the MongoDB the workers use"
        )
    return settings.with_overrides(mongo_url=local_mongo_url(port)), "no `lps dev` stack runs: LPS_DEV_MONGO_PORT"


def cmd_report(args: argparse.Namespace) -> int:
    """Print a named report (tools/reporting.py) as a plain table."""
    from infra.display import format_table
    from infra.logs import Redactor
    from infra.mongo import MainDatabase, create_client
    from tools.reporting import REPORTS, report_params, run_report

    report = REPORTS.get(args.report)
    if report is None:
        listing = "\n".join(f"  {name:<20} {item.answers}" for name, item in REPORTS.items())
        print(f"lps: no report {args.report!r}; the reports:\n{listing}", file=sys.stderr)
        return 2
    try:
        params = report_params(report, hours=args.hours, product_code=args.product)
    except ValueError as refused:
        print(f"lps: {refused}", file=sys.stderr)
        return 2
    try:
        settings, which = _store_to_read(Settings.from_env())
    except LookupError as unknown:
        print(f"lps: {unknown}", file=sys.stderr)
        return 2
    # Which store answered matters as much as what it said: "(no rows)" from the wrong one reads as a fact.
    where = Redactor()(settings.mongo_url or "")
    print(f"lps report: database {settings.mongo_db!r} on {where} ({which})", file=sys.stderr)

    async def fetch() -> list[dict]:
        client = create_client(settings)
        try:
            # Reports tolerate staleness: they read from a secondary when there is one.
            return await run_report(MainDatabase.open(client, settings.mongo_db).read, report, params)
        finally:
            await client.close()

    print(format_table(asyncio.run(fetch()), report.columns, empty="(no rows)"))
    return 0


def _client(args: argparse.Namespace) -> GatewayClient:
    from tools.gateway_client import GatewayClient, gateway_url

    return GatewayClient(gateway_url(Settings.from_env(), args.gateway), os.environ.get("LPS_API_KEY"))


def _run_client(work: Callable[[GatewayClient], Awaitable[int]], args: argparse.Namespace) -> int:
    """Run `work` with a client of the gateway; its failures (CliError) reach `main`, which prints one line."""

    async def run() -> int:
        async with _client(args) as client:
            return await work(client)

    return asyncio.run(run())


def _say(message: str) -> None:
    print(f"lps: {message}", file=sys.stderr, flush=True)


def cmd_submit(args: argparse.Namespace) -> int:
    """Enqueue a CSV or JSON file of products, wait for every job, print (and save) the results.

    Exit status: 0 when every product's job is DONE and complete; 1 when one is not (or a row was skipped);
    2 for an unusable file or invalid rows; 3 when --timeout ran out first.
    """
    from pathlib import Path

    from infra.display import format_table
    from tools.cli_errors import EXIT_FAILED, EXIT_OK, EXIT_TIMED_OUT, UsageError
    from tools.product_file import read_products
    from tools.results import RESULT_COLUMNS, result_row, succeeded, summarize, write_results
    from tools.submission import run_submission

    path = Path(args.file)
    out = Path(args.out) if args.out else None
    if out is not None and (out.suffix.lower() not in (".csv", ".json") or not out.parent.is_dir()):
        raise UsageError(f"--out {out}: give a .csv or .json file in an existing directory")
    if args.batch < 1:
        raise UsageError(f"--batch {args.batch}: give at least 1")
    rows = read_products(path)
    invalid = [row for row in rows if row.errors]
    for row in invalid:
        _say(f"{path}: {row.where}: {'; '.join(row.errors)}")
    valid = [row for row in rows if not row.errors]
    if invalid and not args.skip_invalid:
        raise UsageError(
            f"{path}: {len(invalid)} of {len(rows)} product(s) invalid, nothing submitted "
            f"(--skip-invalid submits the other {len(valid)})"
        )
    if not valid:
        raise UsageError(f"{path}: no valid product to submit")
    if invalid:
        _say(f"skipping {len(invalid)} invalid product(s), submitting {len(valid)}")

    async def work(client: GatewayClient) -> int:
        done = await run_submission(
            client,
            valid,
            batch=args.batch,
            priority=args.priority,
            within=args.timeout,
            skip_invalid=args.skip_invalid,
        )
        for row in done.refused:
            _say(f"{path}: {row.where}: refused by the gateway: {'; '.join(row.errors)}")
        if done.refused and not args.skip_invalid:
            raise UsageError(
                f"{path}: the gateway refused {len(done.refused)} product(s); stopped after enqueueing "
                f"{len(done.submitted)} (those run on; --skip-invalid submits the rest)"
            )
        skipped = [*invalid, *done.refused]
        results = {id(row): result_row(job, done.deliveries.get(job["job_id"])) for row, job in done.submitted}
        for row in skipped:
            results[id(row)] = {
                "product_code": row.product.get("product_code"),
                "status": "SKIPPED",
                "error_type": "INVALID_ROW",
                "error_message": f"{row.where}: {'; '.join(row.errors)}",
            }
        table = [results[id(row)] for row in rows if id(row) in results]
        print(format_table(table, RESULT_COLUMNS), flush=True)
        if out is not None:
            write_results(table, out)
        summary = summarize(done.jobs) + (f", {len(skipped)} product(s) skipped as invalid" if skipped else "")
        if done.timed_out:
            active = sum(not has_ended(job["status"]) for job in done.jobs)
            _say(f"timed out after {args.timeout:g} s with {active} job(s) not ended: {summary}")
            return EXIT_TIMED_OUT
        if skipped or not all(succeeded(job) for job in done.jobs):
            _say(f"not every product is DONE and complete: {summary}")
            return EXIT_FAILED
        _say(f"every job DONE and complete: {summary}")
        return EXIT_OK

    return _run_client(work, args)


def cmd_watch_add(args: argparse.Namespace) -> int:
    """Watch every product of a CSV or JSON file (as `lps submit` reads it) on one schedule."""
    from pathlib import Path

    from infra.display import format_table
    from tools.cli_errors import EXIT_OK, UsageError
    from tools.gateway_client import GatewayError
    from tools.product_file import read_products
    from tools.submission import refused_in_batch

    path = Path(args.file)
    rows = read_products(path)
    if invalid := [row for row in rows if row.errors]:
        for row in invalid:
            _say(f"{path}: {row.where}: {'; '.join(row.errors)}")
        raise UsageError(f"{path}: {len(invalid)} of {len(rows)} product(s) invalid, no watch added")
    schedule = {"every": args.every} if args.every else {"cron": args.cron}
    schedule |= {key: value for key, value in (("notify", args.notify), ("priority", args.priority)) if value}

    async def work(client: GatewayClient) -> int:
        answered = []
        for start in range(0, len(rows), WATCH_BATCH):
            batch = rows[start : start + WATCH_BATCH]
            try:
                answered += await client.add_watches([row.product for row in batch], schedule)
            except GatewayError as error:
                # Named by where they are in the file, as `lps submit` names them.
                if not (by_index := refused_in_batch(error, batch)):
                    raise
                for index, messages in sorted(by_index.items()):
                    _say(f"{path}: {batch[index].where}: refused by the gateway: {'; '.join(messages)}")
                raise UsageError(
                    f"{path}: the gateway refused {len(by_index)} product(s); {len(answered)} watch(es) added before"
                ) from None
        print(format_table(answered, ("watch_id", "product_code", "duplicate")))
        new = sum(not watch["duplicate"] for watch in answered)
        _say(f"{new} watch(es) added, {len(answered) - new} product(s) already watched")
        return EXIT_OK

    return _run_client(work, args)


#: Products per POST /v1/lps/watches (the gateway takes at most 1,000).
WATCH_BATCH = 1000


def cmd_watch_list(args: argparse.Namespace) -> int:
    from infra.display import format_table, utc_text
    from tools.cli_errors import UsageError

    if args.limit < 1:
        raise UsageError(f"--limit {args.limit}: give at least 1")

    async def work(client: GatewayClient) -> int:
        rows = [
            {
                "watch_id": watch["watch_id"],
                "product_code": watch["product_code"],
                "schedule": watch.get("every") or watch.get("cron"),
                "notify": watch.get("notify"),
                "paused": watch.get("paused"),
                "next_run_at": utc_text(watch.get("next_run_at")),
                "last_price": (watch.get("last_delivered") or {}).get("lowest_price"),
                "runs": watch.get("runs"),
            }
            async for watch in client.each_watch(args.product, limit=args.limit)
        ]
        columns = ("watch_id", "product_code", "schedule", "notify", "paused", "next_run_at", "last_price", "runs")
        print(format_table(rows, columns))
        return 0

    return _run_client(work, args)


#: The product fields `lps watch edit` sets, and those `--clear` may empty (the API's CLEARABLE_FIELDS).
WATCH_EDIT_FIELDS = ("keyword", "model_no", "target_price", "sources")
WATCH_CLEARABLE = ("model_no", "target_price", "sources", "priority")


def cmd_watch_edit(args: argparse.Namespace) -> int:
    """Change one watch (PATCH): the options given replace its fields; --clear empties optional ones."""
    from infra.display import format_table, utc_text
    from tools.cli_errors import UsageError

    changes: dict[str, object] = {name: getattr(args, name) for name in WATCH_EDIT_FIELDS if getattr(args, name)}
    if args.sources:
        changes["sources"] = [source.strip() for source in args.sources.split(",") if source.strip()]
    for name in ("every", "cron", "notify", "priority"):
        if getattr(args, name):
            changes[name] = getattr(args, name)
    for name in args.clear or ():
        if name in changes:
            raise UsageError(f"--clear {name} and --{name.replace('_', '-')} together: give one")
        changes[name] = None
    if not changes:
        raise UsageError("nothing to change: give --keyword, --every, --notify, … or --clear (see lps watch edit -h)")

    async def work(client: GatewayClient) -> int:
        watch = await client.change_watch(args.watch_id, changes)
        product = watch.get("product") or {}
        row = {
            "watch_id": watch["watch_id"],
            "product_code": watch["product_code"],
            "keyword": product.get("keyword"),
            "target_price": product.get("target_price"),
            "schedule": watch.get("every") or watch.get("cron"),
            "notify": watch.get("notify"),
            "next_run_at": utc_text(watch.get("next_run_at")),
        }
        print(format_table([row], tuple(row)))
        _say(f"edited {args.watch_id}: {', '.join(sorted(changes))}")
        return 0

    return _run_client(work, args)


#: `lps watch pause|resume|rm`: the request each makes and what it prints.
WATCH_ACTIONS = {
    "pause": ("POST", "/pause", "paused"),
    "resume": ("POST", "/resume", "resumed"),
    "rm": ("DELETE", "", "removed"),
}


def cmd_watch_action(args: argparse.Namespace) -> int:
    method, action, done = WATCH_ACTIONS[args.action]

    async def work(client: GatewayClient) -> int:
        await client.watch_action(method, args.watch_id, action)
        print(f"{done} {args.watch_id}")
        return 0

    return _run_client(work, args)


def _listing_filters(args: argparse.Namespace) -> dict[str, str | None]:
    return {
        "job_type": args.type,
        "product_code": args.product,
        "error_type": args.error_type,
        "since": parse_since(args.since) if args.since else None,
    }


def cmd_jobs(args: argparse.Namespace) -> int:
    from infra.display import format_table, utc_text
    from tools.cli_errors import UsageError
    from tools.results import result_row

    if args.limit < 1:
        raise UsageError(f"--limit {args.limit}: give at least 1")
    filters = {**_listing_filters(args), "status": args.status}

    async def work(client: GatewayClient) -> int:
        rows = [
            {
                "job_type": job["job_type"],
                "attempts": job.get("attempts"),
                "created_at": utc_text(job.get("created_at")),
                **result_row(job),
            }
            async for job in client.each_job(filters, limit=args.limit)
        ]
        columns = (
            "job_id", "job_type", "product_code", "status", "attempts", "outcome", "lowest_price", "error_type",
            "created_at",
        )  # fmt: skip
        print(format_table(rows, columns))
        return 0

    return _run_client(work, args)


def cmd_stats(args: argparse.Namespace) -> int:
    import json

    from tools.stats_tables import format_stats

    async def work(client: GatewayClient) -> int:
        body = await client.stats()
        body.pop("result", None)
        print(json.dumps(body, indent=2, ensure_ascii=False) if args.json else format_stats(body))
        return 0

    return _run_client(work, args)


#: Why the gateway refuses a re-drive, by result code.
REDRIVE_REFUSALS = {
    11: "its product already has another active search job",
    1501: "no longer DEAD",
    1500: "no longer exists",
}


def cmd_queue(args: argparse.Namespace) -> int:
    """Pause or resume a job type's work (`lps queue pause search`), through the gateway's admin API."""
    from tools.cli_errors import EXIT_OK

    async def change(client: GatewayClient) -> int:
        state = await client.set_paused(args.queue, paused=args.action == "pause")
        word = "paused" if state["paused"] else "running"
        since = (
            f" (since {state['changed_at']} by {state.get('changed_by') or 'anonymous'})"
            if state.get("changed_at")
            else ""
        )
        print(f"{args.queue}: {word}{since}" + ("" if state["changed"] else "; it already was"))
        return EXIT_OK

    return _run_client(change, args)


def cmd_discard(args: argparse.Namespace) -> int:
    """Discard DEAD jobs for good (their audit record kept): one by id, several ids at once."""
    from tools.cli_errors import EXIT_FAILED, EXIT_OK
    from tools.gateway_client import GatewayError

    async def each(client: GatewayClient) -> int:
        failed = 0
        for job_id in args.job_ids:
            try:
                gone = await client.discard(job_id)
            except GatewayError as refusal:
                if refusal.status not in (404, 409):
                    raise
                failed += 1
                print(f"refused {job_id}: {refusal.message}", flush=True)
                continue
            print(f"discarded {job_id} {gone.get('product_code', '-')} {gone.get('error_type') or '-'}", flush=True)
        return EXIT_FAILED if failed else EXIT_OK

    return _run_client(each, args)


def cmd_redrive(args: argparse.Namespace) -> int:
    """Re-drive one DEAD job, or every DEAD job that matches the filters (--dead), page after page."""
    from collections import Counter

    from tools.cli_errors import EXIT_FAILED, EXIT_OK, UsageError

    options = {"--type": args.type, "--product": args.product, "--error-type": args.error_type}
    filtered = [flag for flag, value in (options | {"--since": args.since, "--dry-run": args.dry_run}).items() if value]
    if not args.dead and filtered:
        raise UsageError(f"{', '.join(filtered)} only go with --dead (one job id is re-driven as it is)")
    filters = _listing_filters(args) if args.dead else {}

    async def one(client: GatewayClient) -> int:
        job = await client.redrive(args.job_id)
        print(f"re-driven {job['job_id']} {job['product_code']} {job['status']}")
        return EXIT_OK

    async def every(client: GatewayClient) -> int:
        matched, redriven, refused = 0, 0, Counter[str]()

        def summary() -> str:
            if args.dry_run:
                return f"{matched} DEAD job(s) match; --dry-run: none re-driven"
            why = ", ".join(f"{count} {reason}" for reason, count in refused.most_common())
            return f"{matched} DEAD job(s) matched: {redriven} re-driven, {refused.total()} refused" + (
                f" ({why})" if why else ""
            )

        try:
            if args.dry_run:
                async for job in client.each_job(filters, status=JobStatus.DEAD.name):
                    matched += 1
                    error_type = (job.get("last_error") or {}).get("type") or "-"
                    print(f"would re-drive {job['job_id']} {job['product_code']} {error_type}", flush=True)
            else:
                # The gateway's bulk re-drive, a page at a time: one operation, the API's and the dashboard's.
                async for outcome in client.each_redrive(filters):
                    matched += 1
                    named = f"{outcome['job_id']} {outcome['product_code']}"
                    if refusal := outcome.get("refused"):
                        reason = REDRIVE_REFUSALS.get(refusal["result"], refusal["message"])
                        refused[reason] += 1
                        print(f"refused {named}: {reason}", flush=True)
                        continue
                    redriven += 1
                    print(f"re-driven {named} {outcome.get('error_type') or '-'}", flush=True)
        except BaseException:
            print(f"stopped: {summary()}", flush=True)
            raise
        print(summary())
        return EXIT_FAILED if refused else EXIT_OK

    return _run_client(every if args.dead else one, args)


def cmd_deprecated_retry(args: argparse.Namespace) -> int:
    """`lps retry`, the name `lps redrive` had: kept, hidden, for operators' scripts; it says so, then re-drives."""
    _say("lps retry is now lps redrive (same options); the old name will go")
    return cmd_redrive(args)


def cmd_demo_shop(args: argparse.Namespace) -> int:
    from pathlib import Path

    from aiohttp import web

    from tools.demo_shop import create_demo_shop_app

    base = f"http://{args.host}:{args.port}"
    print(f"lps demo-shop: set LPS_COUPANG_BASE_URL={base} LPS_NAVER_BASE_URL={base}", flush=True)
    if args.block_above is not None:
        print(
            f"lps demo-shop: over {args.block_above:g} Coupang searches/s, a client is refused for {args.block_for:g}s"
        )
    app = create_demo_shop_app(
        Path(args.data) if args.data else None, block_above=args.block_above, block_for=args.block_for
    )
    web.run_app(app, host=args.host, port=args.port, print=None)
    return 0


def cmd_ensure_rabbitmq(args: argparse.Namespace) -> int:
    from tools.rabbitmq import RabbitMQUnavailable, ensure_rabbitmq

    try:
        print(ensure_rabbitmq(Settings.from_env().amqp_url))
    except RabbitMQUnavailable as missing:
        print(f"lps: {missing}", file=sys.stderr)
        return 1
    return 0


def cmd_migrate_queues(args: argparse.Namespace) -> int:
    from tools.queue_migration import QueuesInUse, migrate

    settings = Settings.from_env()
    try:
        moved = migrate(settings, QueueType(args.source))
    except ValueError as refused:
        print(f"lps: {refused}", file=sys.stderr)
        return 2
    except QueuesInUse as in_use:
        print(f"lps: {in_use}", file=sys.stderr)
        return 1
    print(
        f"moved into the {settings.queue_type} queues: {moved['messages']} message(s), "
        f"{moved['delayed']} delayed, {moved['dead_letters']} dead letter(s)"
    )
    return 0


def cmd_rabbitmq_cluster(args: argparse.Namespace) -> int:
    from tools.rabbitmq_cluster import main as cluster_main

    return cluster_main(args.action, [str(args.base_port)])


def _positive(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be above 0: {text!r}")
    return value


#: Deprecated command names still accepted but left out of the usage and the help: `lps retry` is `lps redrive`.
HIDDEN_COMMANDS = frozenset({"retry"})


class _Parser(argparse.ArgumentParser):
    """Usage errors in one line (not argparse's usage block), exit status 2; the HIDDEN_COMMANDS shown nowhere."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")

    def format_usage(self) -> str:
        with self._hidden_commands_unlisted():
            return super().format_usage()

    def format_help(self) -> str:
        with self._hidden_commands_unlisted():
            return super().format_help()

    @contextlib.contextmanager
    def _hidden_commands_unlisted(self) -> Iterator[None]:
        """The `{dev,gateway,…}` list of commands without the hidden ones while the usage or help is written (set
        for good, it would also name the argument in argparse's errors: "argument {dev,…}: invalid choice")."""
        listed = [
            action
            for action in self._actions
            if isinstance(action, argparse._SubParsersAction) and action.metavar is None and action.choices
        ]
        for action in listed:
            action.metavar = "{" + ",".join(name for name in action.choices if name not in HIDDEN_COMMANDS) + "}"
        try:
            yield
        finally:
            for action in listed:
                action.metavar = None


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="lps", description="LPS — Lowest Price Search")
    parser.add_argument(
        "--log-level", default="INFO", type=str.upper, choices=("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
    )
    commands = parser.add_subparsers(dest="command", required=True)

    dev = commands.add_parser("dev", help="the whole stack on this machine, one combined log; Ctrl-C stops all")
    dev.add_argument("--demo", action="store_true", help="add the demo shop and a receiver, search samples, exit")
    dev.add_argument(
        "--stay", action="store_true", help="with --demo: keep the stack running after the results (see /ui)"
    )
    dev.add_argument(
        "--mongo-port",
        type=port_number,
        help="embedded MongoDB port, without LPS_MONGO_URL (LPS_DEV_MONGO_PORT, 27017)",
    )
    dev.add_argument(
        "--data",
        metavar="FILE",
        help="keep the embedded MongoDB's data (the jobs) in this SQLite file across restarts (default: in memory)",
    )
    dev.add_argument("--gateway-port", type=port_number, help="the gateway's port (LPS_HTTP_PORT, 8080)")
    dev.add_argument("--shop-port", type=port_number, help="the demo shop's port (LPS_DEV_SHOP_PORT, 8090)")
    dev.add_argument(
        "--receiver-port", type=port_number, help="the delivery receiver's port (LPS_DEV_RECEIVER_PORT, 9000)"
    )
    dev.add_argument(
        "-v", "--verbose", action="store_true", help="every child's full log (access logs, INFO lines) in the output"
    )
    dev.set_defaults(run=cmd_dev)

    gateway = commands.add_parser("gateway", help="serve the HTTP API (LPS_HTTP_HOST/LPS_HTTP_PORT)")
    gateway.add_argument("--host")
    gateway.add_argument("--port", type=port_number)
    gateway.set_defaults(run=cmd_gateway)

    reconciler = commands.add_parser(
        "reconciler", help="re-publish lost jobs, recover abandoned ones, bury dead letters (several may run)"
    )
    reconciler.add_argument("--interval", type=float, help="seconds between passes (LPS_RECONCILE_INTERVAL)")
    reconciler.add_argument("--once", action="store_true", help="one pass, print what it did, exit")
    reconciler.set_defaults(run=cmd_reconciler)

    mongo = commands.add_parser("mongo", help="the embedded MongoDB-compatible wire server (dev and tests)")
    mongo.add_argument("--host", default="127.0.0.1")
    mongo.add_argument("--port", type=port_number, default=27017)
    mongo.add_argument("--data", metavar="FILE", help="SQLite file that keeps the data (default: in memory)")
    mongo.set_defaults(run=cmd_mongo)

    worker = commands.add_parser("worker", help="a worker pool: real Dramatiq worker processes")
    worker.add_argument("pool", choices=sorted(POOLS))
    worker.add_argument("--processes", type=int, help="worker processes (default: LPS_<POOL>_PROCESSES, 1)")
    worker.add_argument(
        "--threads", type=int, help="threads per process (default: LPS_<POOL>_THREADS, search 2, outbox 16)"
    )
    worker.add_argument(
        "--shutdown-timeout",
        type=float,
        help="seconds in-flight jobs get to finish on SIGTERM before they are given back (LPS_SHUTDOWN_GRACE, 20)",
    )
    worker.add_argument(
        "--supervise",
        action="store_true",
        help="restart the pool when it dies (Dramatiq stops a pool when one worker dies)",
    )
    worker.set_defaults(run=cmd_worker)

    receiver = commands.add_parser("receiver", help="a local stand-in for the back office's API (prints deliveries)")
    receiver.add_argument("--host", default="127.0.0.1")
    receiver.add_argument("--port", type=port_number, default=9000)
    receiver.set_defaults(run=cmd_receiver)

    snapshot = commands.add_parser("snapshot", help="write a saved page snapshot (last_error.snapshot) to files")
    snapshot.add_argument("snapshot", help="gridfs:snapshots/<id> or the id")
    snapshot.add_argument("--out", default=".", help="directory for <id>.html and <id>.png")
    snapshot.set_defaults(run=cmd_snapshot)

    # Report names are checked by cmd_report: importing tools.reporting here would load pymongo for every command.
    report = commands.add_parser(
        "report", help="print a named report over jobs and price_history (docs/reporting.md; needs LPS_MONGO_URL)"
    )
    report.add_argument(
        "report",
        metavar="NAME",
        help="lowest-price-trend, dead-by-error, search-latency, blocked-rate or outbox-latency",
    )
    report.add_argument("--product", metavar="CODE", help="only this product_code (lowest-price-trend)")
    report.add_argument("--hours", type=float, help="window in hours before now (default: per report)")
    report.set_defaults(run=cmd_report)

    def client_command(name: str, help_text: str, run: Callable[[argparse.Namespace], int]) -> argparse.ArgumentParser:
        command = commands.add_parser(name, help=help_text)
        command.add_argument("--gateway", metavar="URL", help="gateway URL (LPS_GATEWAY_URL; default from LPS_HTTP_*)")
        command.set_defaults(run=run)
        return command

    submit = client_command("submit", "enqueue a CSV/JSON file of products, wait, print the results", cmd_submit)
    submit.add_argument("file", help="CSV (product_code,keyword[,model_no,target_price,sources]) or JSON")
    submit.add_argument("--priority", choices=("HIGH", "NORMAL", "LOW"))
    submit.add_argument("--batch", type=int, default=100, help="products per request (at most 1000)")
    submit.add_argument("--timeout", type=float, default=1800, help="seconds to wait for the jobs to end (exit 3)")
    submit.add_argument("--out", metavar="FILE", help="also write the results (.csv or .json)")
    submit.add_argument(
        "--skip-invalid", action="store_true", help="submit the valid products when some are invalid (listed)"
    )

    def listing_filters(command: argparse.ArgumentParser) -> None:
        command.add_argument("--type", choices=("SEARCH", "OUTBOX"))
        command.add_argument("--product", metavar="CODE", help="only this product_code")
        command.add_argument(
            "--error-type", metavar="TYPE", type=_error_type, help="only jobs whose last_error.type is TYPE (any case)"
        )
        command.add_argument("--since", metavar="WHEN", help="only jobs created since: 30m, 6h, 2d or an ISO date/time")

    jobs = client_command("jobs", "list jobs, newest first", cmd_jobs)
    jobs.add_argument("--status", choices=[status.name for status in JobStatus])
    listing_filters(jobs)
    jobs.add_argument("--limit", type=int, default=50, help="at most this many (pages through the listing)")

    watch = commands.add_parser("watch", help="products searched on a schedule, delivered when the price moves")
    watch_commands = watch.add_subparsers(dest="watch_command", required=True, metavar="ACTION")

    def watch_command(name: str, help_text: str, run: Callable[[argparse.Namespace], int]) -> argparse.ArgumentParser:
        # `rm` answers to `delete` too: the word the API (DELETE) and the dashboard (Delete…) use.
        command = watch_commands.add_parser(name, help=help_text, aliases=["delete"] if name == "rm" else [])
        command.add_argument("--gateway", metavar="URL", help="gateway URL (LPS_GATEWAY_URL; default from LPS_HTTP_*)")
        command.set_defaults(run=run, action=name)
        return command

    add = watch_command("add", "watch every product of a CSV/JSON file (as lps submit reads it)", cmd_watch_add)
    add.add_argument("file", help="CSV (product_code,keyword[,model_no,target_price,sources]) or JSON")
    when = add.add_mutually_exclusive_group(required=True)
    when.add_argument(
        "--every",
        metavar="INTERVAL",
        type=_schedule("every"),
        help="90s, 15m, 6h, 1d (at least LPS_WATCH_MIN_INTERVAL)",
    )
    when.add_argument(
        "--cron", metavar="EXPR", type=_schedule("cron"), help='five cron fields in LPS_TIMEZONE, e.g. "0 9 * * *"'
    )
    add.add_argument("--notify", choices=("always", "on_change", "below_target"), help="default on_change")
    add.add_argument("--priority", choices=("HIGH", "NORMAL", "LOW"))
    listing = watch_command("list", "list watches", cmd_watch_list)
    listing.add_argument("--product", metavar="CODE", help="only this product_code")
    listing.add_argument("--limit", type=int, default=50, help="at most this many (pages through the listing)")
    edit = watch_command("edit", "change a watch: the options given replace its fields", cmd_watch_edit)
    edit.add_argument("watch_id")
    edit.add_argument("--keyword")
    edit.add_argument("--model-no", dest="model_no")
    edit.add_argument("--target-price", dest="target_price", type=int, metavar="KRW")
    edit.add_argument("--sources", metavar="A,B", help="the sources to search, comma-separated")
    schedule = edit.add_mutually_exclusive_group()
    schedule.add_argument("--every", metavar="INTERVAL", type=_schedule("every"), help="a new schedule, from now")
    schedule.add_argument("--cron", metavar="EXPR", type=_schedule("cron"), help="a new schedule, from now")
    edit.add_argument("--notify", choices=("always", "on_change", "below_target"))
    edit.add_argument("--priority", choices=("HIGH", "NORMAL", "LOW"))
    edit.add_argument(
        "--clear", action="append", choices=WATCH_CLEARABLE, metavar="FIELD", help=f"empty one of {WATCH_CLEARABLE}"
    )
    for name, help_text in (("pause", "pause a watch"), ("resume", "resume a watch"), ("rm", "delete a watch")):
        watch_command(name, help_text, cmd_watch_action).add_argument("watch_id")

    stats = client_command("stats", "job counts, queue depths and reconciler totals", cmd_stats)
    stats.add_argument("--json", action="store_true", help="the gateway's answer as JSON, for scripts")

    redrive_help = "re-drive a DEAD job (or every matching DEAD job with --dead)"
    redrive = client_command("redrive", redrive_help, cmd_redrive)
    # `lps retry`, its old name ("retry" is an attempt's outcome, AttemptOutcome.RETRY): kept for operators' scripts
    # but out of the help (no help= here, and not in the command list below); it says the new name, then re-drives.
    retry = commands.add_parser("retry", description=f"deprecated, now lps redrive: {redrive_help}")
    retry.add_argument("--gateway", metavar="URL", help="gateway URL (LPS_GATEWAY_URL; default from LPS_HTTP_*)")
    retry.set_defaults(run=cmd_deprecated_retry)
    for command in (redrive, retry):
        target = command.add_mutually_exclusive_group(required=True)
        target.add_argument("job_id", nargs="?")
        target.add_argument("--dead", action="store_true", help="every DEAD job the filters match, page after page")
        listing_filters(command)
        command.add_argument("--dry-run", action="store_true", help="list what --dead would re-drive; change nothing")

    queue = commands.add_parser("queue", help="pause or resume a job type's work (admin key)")
    queue_commands = queue.add_subparsers(dest="queue_command", required=True, metavar="ACTION")
    for name, help_text in (
        ("pause", "its pools take no new message (in-flight attempts finish); kept until resumed"),
        ("resume", "its pools take messages again"),
    ):
        command = queue_commands.add_parser(name, help=help_text)
        command.add_argument("queue", choices=("search", "outbox"))
        command.add_argument("--gateway", metavar="URL", help="gateway URL (LPS_GATEWAY_URL; default from LPS_HTTP_*)")
        command.set_defaults(run=cmd_queue, action=name)

    discard = client_command("discard", "discard DEAD jobs for good (an audit record of each is kept)", cmd_discard)
    discard.add_argument("job_ids", nargs="+", metavar="JOB_ID")

    demo_shop = commands.add_parser(
        "demo-shop", help="a local imitation of Coupang's search pages and the Naver Shopping API (tests, demos)"
    )
    demo_shop.add_argument("--host", default="127.0.0.1")
    demo_shop.add_argument("--port", type=port_number, default=8090)
    demo_shop.add_argument("--data", metavar="DIR", help="directory of catalogue *.json files (default: built in)")
    demo_shop.add_argument(
        "--block-above",
        type=_positive,
        metavar="RATE",
        help="refuse like Akamai: a client making more than RATE Coupang searches a second gets 403 Access Denied",
    )
    demo_shop.add_argument(
        "--block-for", type=_positive, default=30.0, metavar="SECONDS", help="how long a client stays refused (30)"
    )
    demo_shop.set_defaults(run=cmd_demo_shop)

    rabbit = commands.add_parser(
        "ensure-rabbitmq", help="check LPS_AMQP_URL answers; start a local rabbitmq-server if stopped"
    )
    rabbit.set_defaults(run=cmd_ensure_rabbitmq)
    migrate = commands.add_parser(
        "migrate-queues",
        help="after switching LPS_QUEUE_TYPE (pools stopped): move the messages waiting in the other type's queues",
    )
    migrate.add_argument("--from", dest="source", required=True, choices=[str(kind) for kind in QueueType])
    migrate.set_defaults(run=cmd_migrate_queues)
    cluster = commands.add_parser(
        "rabbitmq-cluster", help="a three-node RabbitMQ cluster on this machine, beside its own node (for fail-over)"
    )
    cluster.add_argument("action", choices=("up", "down", "status"))
    cluster.add_argument("--base-port", type=int, default=5701, help="AMQP port of the first node (the others follow)")
    cluster.set_defaults(run=cmd_rabbitmq_cluster)
    return parser


_RELATIVE = re.compile(r"^(\d+(?:\.\d+)?)\s*([mhd])$")
_UNITS = {"m": "minutes", "h": "hours", "d": "days"}


def parse_since(text: str, now: datetime | None = None) -> str:
    """`--since`: `30m`, `6h`, `2d` back from now, or an ISO date / time (UTC unless it says otherwise); the
    ISO 8601 instant the API takes."""
    from tools.cli_errors import UsageError

    now = now or datetime.now(UTC)
    if match := _RELATIVE.match(text.strip()):
        moment = now - timedelta(**{_UNITS[match[2]]: float(match[1])})
    else:
        try:
            moment = datetime.fromisoformat(text.strip())
        except ValueError:
            raise UsageError(
                f"--since {text!r}: give 30m, 6h, 2d or an ISO date/time such as 2025-01-31T09:00"
            ) from None
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat()


def _error_type(text: str) -> str:
    """--error-type: any case (blocked = BLOCKED); anything that cannot be a type is a usage error (exit 2)."""
    from schemas.job_listing import ERROR_TYPE_PATTERN

    value = text.strip().upper()
    if not re.fullmatch(ERROR_TYPE_PATTERN, value):
        raise argparse.ArgumentTypeError(f"{text!r} is not an error type (e.g. BLOCKED, DEAD_LETTER, TIMEOUT)")
    return value


def _schedule(kind: str) -> Callable[[str], str]:
    """The argparse type of --every or --cron: a schedule whose runs are at least LPS_WATCH_MIN_INTERVAL apart,
    checked as the gateway checks it, so that a schedule it would refuse is a usage error before any request."""

    def checked(text: str) -> str:
        from schemas.schedule import seconds_between_runs

        try:
            gap = seconds_between_runs(**{kind: text})
        except ValueError as error:
            raise argparse.ArgumentTypeError(f"{text!r}: {error}") from None
        minimum = Settings.from_env().watch_min_interval
        if gap < minimum:
            apart = f"runs {gap:g} s apart," if kind == "cron" else "is"
            raise argparse.ArgumentTypeError(
                f"{text!r} {apart} below the minimum of {minimum:g} s (LPS_WATCH_MIN_INTERVAL)"
            )
        return text

    return checked


def main(argv: list[str] | None = None) -> int:
    """Run one command. Whatever goes wrong ends as one line on stderr and a non-zero exit status (2 for usage
    errors); `--log-level DEBUG` adds the traceback of an unexpected error."""
    try:
        args = build_parser().parse_args(argv)
        # Reads every LPS_* variable first: a malformed one stops any command here, before it starts anything.
        _configure_logging(args.log_level)
        return args.run(args)
    except SettingsError as malformed:
        print(f"lps: {malformed}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("lps: interrupted", file=sys.stderr)
        return 130
    except Exception as failed:
        return _report(failed)


def _report(failed: Exception) -> int:
    from tools.cli_errors import CliError

    if isinstance(failed, CliError):
        message, status = str(failed), failed.exit_code
    elif isinstance(failed, OSError) and failed.strerror:
        message, status = f"{failed.filename or 'system'}: {failed.strerror}", 1
    else:
        log.debug("unexpected error", exc_info=failed)
        message, status = f"unexpected error: {type(failed).__name__}: {failed} (--log-level DEBUG shows where)", 1
    print(f"lps: {' '.join(message.split())}", file=sys.stderr)
    return status
