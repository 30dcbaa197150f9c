"""`lps submit`, `lps jobs`, `lps stats` and `lps redrive` as an operator runs them: real `lps` processes against a
real gateway on loopback. Whatever goes wrong is one line on stderr and a non-zero exit, never a traceback."""

from __future__ import annotations

import asyncio
import csv
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from bson import ObjectId
from pymongo import AsyncMongoClient

from infra.settings import Settings
from service.app import create_app
from tests.client_commands import T0, assert_one_line_error, dead_job, lps
from tests.harness import worker_pool
from tests.ports import free_port
from tests.stored_jobs import insert_job, store


async def stored(settings: Settings, query: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    client = AsyncMongoClient(settings.mongo_url, tz_aware=True)
    try:
        return await client[settings.mongo_db].jobs.find(query or {}).to_list()
    finally:
        await client.close()


# 8: one line, and 2 for usage errors ----------------------------------------------------------------------------


@pytest.mark.processes
@pytest.mark.parametrize(
    ("content", "name", "needles"),
    [
        (None, "missing.csv", ["missing.csv: no such file"]),
        ("code,keyword\nA,k\n", "products.csv", ["no product_code column", "found: code, keyword"]),
        ("product_code,keyword,colour\nA,k,red\n", "products.csv", ["unknown column(s) colour"]),
        ("product_code,keyword\n", "products.csv", ["no products in it"]),
        ('{"products": [', "products.json", ["not valid JSON"]),
        ('{"items": []}', "products.json", ['expected a list of products or {"products": [...]}']),
    ],
)
async def test_an_unusable_products_file_is_one_line_and_exit_2(
    tmp_path: Path, content: str | None, name: str, needles: list[str]
):
    path = tmp_path / name
    if content is not None:
        path.write_text(content, encoding="utf-8")

    ran = await lps("submit", str(path), gateway=f"http://127.0.0.1:{free_port()}")

    assert_one_line_error(ran, 2, *needles)


@pytest.mark.processes
@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["submit"], ["lps submit:", "the following arguments are required: file", "--help"]),
        (["jobs", "--status", "GONE"], ["invalid choice: 'GONE'"]),
        (["redrive", "--product", "A", "0" * 24], ["--product only go with --dead"]),
        (["redrive", "--dead", "--since", "last tuesday"], ["--since 'last tuesday'"]),
        (["jobs", "--limit", "0"], ["--limit 0"]),
    ],
)
async def test_usage_errors_are_one_line_and_exit_2(args: list[str], needles: list[str]):
    ran = await lps(*args, gateway=f"http://127.0.0.1:{free_port()}")

    assert_one_line_error(ran, 2, *needles)


@pytest.mark.processes
async def test_an_unreachable_gateway_is_one_line_and_exit_1(tmp_path: Path):
    products = tmp_path / "products.csv"
    products.write_text("product_code,keyword\nA,k\n", encoding="utf-8")
    gateway = f"http://127.0.0.1:{free_port()}"

    for args in (["submit", str(products)], ["stats"], ["jobs"], ["redrive", "--dead"]):
        ran = await lps(*args, gateway=gateway)
        if args == ["redrive", "--dead"]:  # it says how far it got before the error line
            assert ran.stdout.startswith("stopped: 0 DEAD job(s) matched"), ran.stdout
        assert_one_line_error(ran, 1, f"gateway {gateway} unreachable")


@pytest.mark.processes
async def test_an_answer_that_is_not_the_gateways_is_one_line(aiohttp_server):
    from aiohttp import web

    async def proxy_error(_: web.Request) -> web.Response:
        return web.Response(text="<html>proxy error</html>", status=502)

    app = web.Application()
    app.router.add_get("/v1/lps/queue/stats", proxy_error)
    server = await aiohttp_server(app)

    ran = await lps("stats", gateway=str(server.make_url("")))

    assert_one_line_error(ran, 1, "HTTP 502", "is not an LPS gateway's answer")


@pytest.mark.processes
async def test_a_refusal_by_the_gateway_is_one_line_with_its_result_code(aiohttp_server, settings: Settings):
    server = await aiohttp_server(create_app(settings))

    ran = await lps("redrive", "0" * 24, gateway=str(server.make_url("")))

    assert_one_line_error(ran, 1, "HTTP 404, result 1500: no such job")


# 9: each bad row by line and field -----------------------------------------------------------------------------

BAD_CSV = (
    "product_code,keyword,target_price,sources\n"
    "OK-1,무선 이어폰,,static\n"  # line 2
    "OK-2,보조배터리 10000mAh,12000,\n"  # line 3
    "BAD PRICE,k,12.5,\n"  # line 4: space in the code, price not whole
    "NO-KEYWORD,,,\n"  # line 5
    "OK-1,again,,\n"  # line 6: repeats line 2
    "BAD-SOURCE,k,,static;gmarket\n"  # line 7
)


@pytest.mark.processes
async def test_bad_rows_are_reported_by_line_and_field_and_nothing_is_submitted(
    aiohttp_server, settings: Settings, tmp_path: Path
):
    server = await aiohttp_server(create_app(settings))
    products = tmp_path / "products.csv"
    products.write_text(BAD_CSV, encoding="utf-8")

    ran = await lps("submit", str(products), gateway=str(server.make_url("")))

    assert ran.code == 2, ran
    assert "Traceback" not in ran.stderr
    lines = ran.stderr.strip().splitlines()
    assert lines[0].startswith(f"lps: {products}: line 4: "), lines
    assert "target_price: not a whole number of won: '12.5'" in lines[0]
    assert "product_code: must match ^[A-Za-z0-9._:-]{1,64}$" in lines[0]
    assert lines[1].startswith(f"lps: {products}: line 5: keyword:"), lines
    assert lines[2] == f"lps: {products}: line 6: product_code: OK-1 repeats line 2"
    assert lines[3].startswith(f"lps: {products}: line 7: sources.1: Must be one of"), lines
    assert (
        lines[4]
        == f"lps: {products}: 4 of 6 product(s) invalid, nothing submitted (--skip-invalid submits the other 2)"
    )
    assert len(lines) == 5
    assert await stored(settings) == []


@pytest.mark.processes
async def test_a_product_the_gateway_refuses_is_reported_by_its_line(
    aiohttp_server, settings: Settings, tmp_path: Path
):
    # `naver` is a valid source name, but this deployment enables only `static`: only the gateway knows.
    server = await aiohttp_server(create_app(settings))
    products = tmp_path / "products.csv"
    products.write_text("product_code,keyword,sources\nA,k,static\nB,k,naver\n", encoding="utf-8")

    ran = await lps("submit", str(products), "--timeout", "1", gateway=str(server.make_url("")))

    assert ran.code == 2, ran
    assert f"lps: {products}: line 3: refused by the gateway: sources: not enabled in this deployment" in ran.stderr
    assert "stopped after enqueueing 0" in ran.stderr
    assert await stored(settings) == []


# 10 and 11: the exit status says whether every job is DONE and complete; the results file says everything -------


@pytest.mark.processes
async def test_submit_exits_0_only_when_every_job_is_done_and_complete_and_the_file_says_everything(
    aiohttp_server, settings: Settings, tmp_path: Path, receiver
):
    # Deliveries are made by a pool not started here: each DONE search's delivery job is found, still PENDING.
    settings = settings.with_overrides(outbox_url=receiver.url, outbox_secret="s")
    server = await aiohttp_server(create_app(settings))
    gateway = str(server.make_url(""))
    good = tmp_path / "good.csv"
    good.write_text("product_code,keyword,sources\nG-1,무선 이어폰,static\nG-2,보조배터리 10000mAh,static\n")
    mixed = tmp_path / "mixed.csv"
    mixed.write_text(BAD_CSV.replace("OK-2,보조배터리 10000mAh,12000,\n", "DEAD-1,#fatal,,\n"), encoding="utf-8")
    out_csv, out_json = tmp_path / "good.csv.out.csv", tmp_path / "mixed.json"

    async with worker_pool(settings, "search", tmp_path):
        all_good = await lps("submit", str(good), "--out", str(out_csv), gateway=gateway)
        some_bad = await lps("submit", str(mixed), "--skip-invalid", "--out", str(out_json), gateway=gateway)

    assert all_good.code == 0, all_good
    assert all_good.stderr.strip().splitlines()[-1] == "lps: every job DONE and complete: 2 job(s): DONE 2 (FOUND 2)"
    rows = list(csv.DictReader(out_csv.open(encoding="utf-8")))
    assert list(rows[0]) == [
        "product_code", "job_id", "status", "outcome", "complete", "lowest_price", "source", "title", "url",
        "shipping", "doubts", "delivery_status", "error_type", "error_message",
    ]  # fmt: skip
    jobs = {str(job["_id"]): job for job in await stored(settings, {"job_type": "SEARCH"})}
    for row in rows:
        job = jobs[row["job_id"]]
        lowest = job["result"]["lowest"]
        assert row["product_code"] == job["product_code"]
        assert (row["status"], row["outcome"], row["complete"]) == ("DONE", "FOUND", "true")
        assert (row["lowest_price"], row["source"]) == (str(lowest["price"]), "static")
        assert (row["title"], row["url"], row["shipping"]) == (lowest["title"], lowest["url"], lowest["delivery"])
        assert row["doubts"] == ""  # the static source's offers: nothing far under the others
        # Its OUTBOX job, which no pool works here (empty only if the worker had not inserted it yet when looked up).
        assert row["delivery_status"] in ("PENDING", "RUNNING", ""), row
        assert (row["error_type"], row["error_message"]) == ("", "")

    assert some_bad.code == 1, some_bad
    assert "Traceback" not in some_bad.stderr
    assert f"lps: {mixed}: line 4: target_price: not a whole number" in some_bad.stderr
    assert "lps: skipping 4 invalid product(s), submitting 2" in some_bad.stderr
    assert some_bad.stderr.strip().splitlines()[-1] == (
        "lps: not every product is DONE and complete: 2 job(s): DONE 1 (FOUND 1), DEAD 1 (INVALID_PRODUCT 1), "
        "4 product(s) skipped as invalid"
    )
    results = json.loads(out_json.read_text(encoding="utf-8"))
    by_code = {(row["product_code"], row["status"]): row for row in results}
    assert [row["product_code"] for row in results] == [
        "OK-1",
        "DEAD-1",
        "BAD PRICE",
        "NO-KEYWORD",
        "OK-1",
        "BAD-SOURCE",
    ]
    dead = by_code["DEAD-1", "DEAD"]
    assert (dead["outcome"], dead["complete"], dead["lowest_price"]) == (None, None, None)
    assert dead["error_type"] == "INVALID_PRODUCT"
    assert dead["error_message"]
    assert dead["delivery_status"] is None
    assert by_code["OK-1", "DONE"]["complete"] is True
    skipped = by_code["OK-1", "SKIPPED"]
    assert (skipped["error_type"], skipped["error_message"]) == (
        "INVALID_ROW",
        "line 6: product_code: OK-1 repeats line 2",
    )
    table = some_bad.stdout.splitlines()
    assert table[0].split() == [
        "product_code", "lowest_price", "source", "shipping", "outcome", "complete", "error_type", "delivery_status",
        "status",
    ]  # fmt: skip


@pytest.mark.processes
async def test_submit_says_it_timed_out_and_exits_3(aiohttp_server, settings: Settings, tmp_path: Path):
    server = await aiohttp_server(create_app(settings))  # no worker pool: nothing ends
    products = tmp_path / "products.csv"
    products.write_text("product_code,keyword\nT-1,k\nT-2,k\n", encoding="utf-8")

    ran = await lps("submit", str(products), "--timeout", "1", gateway=str(server.make_url("")))

    assert ran.code == 3, ran
    assert ran.stderr.strip().splitlines()[-1] == (
        "lps: timed out after 1 s with 2 job(s) not ended: 2 job(s): PENDING 2"
    )
    assert [line.split()[-1] for line in ran.stdout.splitlines()[1:]] == ["PENDING", "PENDING"]


# 12: redrive --dead pages through every match, goes on past refusals, counts them --------------------------------


@pytest.mark.processes
async def test_redrive_dead_redrives_past_500_goes_on_past_refusals_and_counts_them(aiohttp_server, settings: Settings):
    server = await aiohttp_server(create_app(settings))
    # 503 BLOCKED ones (one batch: one created_at), one of them refused, and one of another error type.
    blocked = [dead_job(f"R-{i}", T0) for i in range(502)]
    busy = dead_job("BUSY", T0 - timedelta(minutes=1))
    active = {**dead_job("BUSY", T0), "_id": ObjectId(), "status": "PENDING", "active": True}
    await store(settings, [*blocked, busy, active, dead_job("OTHER", T0, error="TIMEOUT")])

    ran = await lps("redrive", "--dead", "--error-type", "BLOCKED", gateway=str(server.make_url("")), within=300)

    assert ran.code == 1, ran  # something was refused
    assert "Traceback" not in ran.stderr
    lines = ran.stdout.strip().splitlines()
    assert lines[-1] == (
        "503 DEAD job(s) matched: 502 re-driven, 1 refused (1 its product already has another active search job)"
    )
    assert f"refused {busy['_id']} BUSY: its product already has another active search job" in lines
    assert sum(line.startswith("re-driven ") for line in lines) == 502
    jobs = {job["product_code"]: job for job in await stored(settings, {"status": {"$ne": "PENDING"}})}
    assert set(jobs) == {"BUSY", "OTHER"}  # every BLOCKED one is PENDING again; the refused and the other stay DEAD


@pytest.mark.processes
async def test_redrive_dead_filters_by_product_and_since_and_a_dry_run_changes_nothing(
    aiohttp_server, settings: Settings
):
    server = await aiohttp_server(create_app(settings))
    gateway = str(server.make_url(""))
    old, recent = dead_job("P-1", T0 - timedelta(days=3)), dead_job("P-1", T0)
    await store(settings, [old, recent, dead_job("P-2", T0)])

    dry = await lps("redrive", "--dead", "--product", "P-1", "--dry-run", gateway=gateway)
    after_dry = {str(job["_id"]) for job in await stored(settings, {"status": "DEAD"})}
    real = await lps("redrive", "--dead", "--product", "P-1", "--since", "2d", gateway=gateway)

    assert dry.code == 0, dry
    assert dry.stdout.splitlines() == [
        f"would re-drive {recent['_id']} P-1 BLOCKED",
        f"would re-drive {old['_id']} P-1 BLOCKED",
        "2 DEAD job(s) match; --dry-run: none re-driven",
    ]
    assert len(after_dry) == 3
    assert real.code == 0, real
    assert real.stdout.splitlines()[-1] == "1 DEAD job(s) matched: 1 re-driven, 0 refused"
    assert {job["product_code"] for job in await stored(settings, {"status": "PENDING"})} == {"P-1"}
    assert (await stored(settings, {"_id": old["_id"]}))[0]["status"] == "DEAD"


@pytest.mark.processes
async def test_retry_still_redrives_as_a_deprecated_alias_and_says_so(aiohttp_server, settings: Settings):
    """Operators' scripts that run `lps retry` keep working: a note on stderr, then what `lps redrive` does."""
    server = await aiohttp_server(create_app(settings))
    gateway = str(server.make_url(""))
    one, other = dead_job("OLD-1", T0), dead_job("OLD-2", T0)
    await store(settings, [one, other])

    single = await lps("retry", str(one["_id"]), gateway=gateway)
    every = await lps("retry", "--dead", "--product", "OLD-2", gateway=gateway)

    for ran in (single, every):
        assert ran.code == 0, ran
        [note] = ran.stderr.strip().splitlines()
        assert note == "lps: lps retry is now lps redrive (same options); the old name will go"
    assert single.stdout.splitlines() == [f"re-driven {one['_id']} OLD-1 PENDING"]
    assert every.stdout.splitlines()[-1] == "1 DEAD job(s) matched: 1 re-driven, 0 refused"
    assert {job["product_code"] for job in await stored(settings, {"status": "PENDING"})} == {"OLD-1", "OLD-2"}


@pytest.mark.processes
async def test_jobs_pages_through_the_listing_and_filters_by_error_type(aiohttp_server, settings: Settings):
    server = await aiohttp_server(create_app(settings))
    await store(settings, [dead_job(f"J-{i}", T0 + timedelta(seconds=i)) for i in range(3)])
    await store(settings, [dead_job("J-T", T0, error="TIMEOUT")])

    ran = await lps("jobs", "--error-type", "BLOCKED", "--limit", "2", gateway=str(server.make_url("")))

    assert ran.code == 0, ran
    lines = ran.stdout.splitlines()
    assert lines[0].split()[:4] == ["job_id", "job_type", "product_code", "status"]
    assert [line.split()[2] for line in lines[1:]] == ["J-2", "J-1"]
    assert all("BLOCKED" in line for line in lines[1:])


# 13: stats as a table with true figures ------------------------------------------------------------------------


@pytest.mark.processes
async def test_stats_prints_a_table_whose_delayed_figure_counts_the_retries_waiting(aiohttp_server, settings: Settings):
    server = await aiohttp_server(create_app(settings))
    gateway = str(server.make_url(""))
    later = datetime.now(UTC) + timedelta(minutes=10)

    def pending(code: str, run_after: datetime, attempts: int) -> dict[str, Any]:
        """A job that never died: no `finished_at` (a re-driven one keeps its death's, and the totals count it)."""
        job = dead_job(code, T0) | {"status": "PENDING", "active": True, "run_after": run_after, "attempts": attempts}
        del job["finished_at"], job["last_error"]
        return job

    waiting = [pending(f"W-{i}", later, 1) for i in range(2)]
    due = pending("DUE", T0, 0)
    await store(settings, [*waiting, due])
    client = AsyncMongoClient(settings.mongo_url, tz_aware=True)
    try:
        await client[settings.mongo_db].reconciler.insert_one({"_id": "totals", "dead_letters_of_ended_jobs": 30})
    finally:
        await client.close()

    table = await lps("stats", gateway=gateway)
    raw = await lps("stats", "--json", gateway=gateway)

    assert table.code == 0, table
    lines = table.stdout.splitlines()
    assert lines[0].split() == ["jobs", "PENDING", "delayed", "RUNNING", "DONE", "DEAD"]
    assert lines[1].split() == ["OUTBOX", "0", "0", "0", "0", "0"]
    assert lines[2].split() == ["SEARCH", "3", "2", "0", "0", "0"]
    assert any(line.split()[:2] == ["search", "0"] for line in lines)  # ready: nothing was published here
    [cleared] = [line for line in lines if line.startswith("dead_letters_of_ended_jobs")]
    assert cleared.split()[1] == "30"
    assert any(line.split()[:2] == ["outbox_created", "0"] for line in lines)  # every action shown, 0 too
    body = json.loads(raw.stdout)
    assert body["delayed"] == {"SEARCH": 2, "OUTBOX": 0}
    assert body["queues"]["search"]["delayed"] == 2
    assert body["reconciler"] == {"dead_letters_of_ended_jobs": 30}


@pytest.mark.processes
async def test_a_rate_limited_gateway_is_waited_for_not_given_up_on(aiohttp_server, settings: Settings):
    # One request per second, no burst: re-driving three jobs needs several 429s waited out.
    server = await aiohttp_server(create_app(settings.with_overrides(rate_limit_per_second=1.0, rate_limit_burst=1)))
    await store(settings, [dead_job(f"RL-{i}", T0 + timedelta(seconds=i)) for i in range(3)])

    ran = await lps("redrive", "--dead", gateway=str(server.make_url("")))

    assert ran.code == 0, ran
    assert ran.stdout.splitlines()[-1] == "3 DEAD job(s) matched: 3 re-driven, 0 refused"


@pytest.mark.processes
async def test_submits_progress_line_says_why_its_jobs_wait(aiohttp_server, settings: Settings, tmp_path: Path):
    """The dashboard's job page said why a job waits (a breaker open, a backoff); `lps submit` only counted."""
    server = await aiohttp_server(create_app(settings))
    later = datetime.now(UTC) + timedelta(minutes=10)
    await insert_job(
        settings,
        product_code="WAIT-1",
        attempts=1,
        run_after=later,
        last_error={"type": "BLOCKED", "message": "coupang: blocked (403)"},
    )
    breaker = "coupang: circuit breaker OPEN for 60s"
    await insert_job(
        settings,
        product_code="WAIT-2",
        run_after=later,
        deferred={"reason": breaker, "sources": ["coupang"], "until": later},
    )
    await insert_job(settings, product_code="WAIT-3", run_after=later)
    products = tmp_path / "products.csv"
    products.write_text("product_code,keyword\nWAIT-1,k\nWAIT-2,k\nWAIT-3,k\n", encoding="utf-8")

    ran = await lps("submit", str(products), "--timeout", "1", gateway=str(server.make_url("")))

    assert ran.code == 3, ran
    progress = [line for line in ran.stderr.splitlines() if "ended [" in line]
    assert progress, ran.stderr
    assert progress[-1].endswith(
        f"] waiting: 1 in backoff after BLOCKED, 1 deferred ({breaker}), 1 not before its run_after"
    ), progress[-1]


@pytest.mark.processes
async def test_queue_pause_resume_and_discard_go_through_the_admin_api(aiohttp_server, settings: Settings):
    """`lps queue pause|resume` and `lps discard` are the API's operations from the command line (issue 36)."""
    server = await aiohttp_server(create_app(settings))
    gateway = str(server.make_url(""))
    dead = await insert_job(settings, product_code="CLI-GONE", status="DEAD", last_error={"type": "BLOCKED"})
    alive = await insert_job(settings, product_code="CLI-KEPT")

    paused, again, discarded = await asyncio.gather(
        lps("queue", "pause", "search", gateway=gateway),
        lps("queue", "pause", "outbox", gateway=gateway),
        lps("discard", str(dead["_id"]), str(alive["_id"]), gateway=gateway),
    )
    resumed = await lps("queue", "resume", "outbox", gateway=gateway)

    assert (paused.code, paused.stdout.split(" (since")[0]) == (0, "search: paused"), paused
    assert again.code == 0, again
    assert (resumed.code, resumed.stdout.split(" (since")[0]) == (0, "outbox: running"), resumed
    assert discarded.code == 1, discarded  # one of the two was refused
    assert f"discarded {dead['_id']} CLI-GONE BLOCKED" in discarded.stdout
    assert f"refused {alive['_id']}: only a DEAD job can be discarded; this one is PENDING" in discarded.stdout
    assert [job["product_code"] for job in await stored(settings)] == ["CLI-KEPT"]
