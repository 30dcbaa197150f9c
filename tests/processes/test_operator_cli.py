"""The operator's commands as people run them: `lps dev --demo` and `lps submit` in real subprocesses."""

from __future__ import annotations

import asyncio
import csv
import json
import os
import sys
import uuid
from pathlib import Path

import pytest

from actors.matching import match_offers
from actors.search import eligible
from actors.sources.static import StaticSource
from infra.settings import Settings
from service.app import create_app
from tests.harness import worker_pool
from tests.ports import free_port
from tests.process_tree import alive, all_pids, chromium_of, command_line
from tools.dev import DEMO_CATALOGUE
from tools.testbed import delete_queues, job_queues

#: Every test here starts real processes (worker pools, the CLI, Chromium): the slowest tier.
pytestmark = pytest.mark.processes

LPS = [sys.executable, "-m", "tools.lps"]


async def test_lps_dev_demo_searches_the_samples_prints_the_table_and_leaves_nothing_running(settings: Settings):
    prefix = f"lpsdev_{uuid.uuid4().hex[:8]}_"
    env = {key: value for key, value in os.environ.items() if key not in ("LPS_MONGO_URL", "LPS_API_KEY")}
    env |= {"LPS_HTTP_PORT": str(free_port()), "LPS_QUEUE_PREFIX": prefix, "LPS_RETRY_MIN_BACKOFF": "0.5"}
    # With roles, as the README's dashboard tour runs it: the demo's own client takes the admin key.
    env |= {"LPS_API_KEYS": "viewer=view-c0ffee:read,ops=ops-5e6d:admin"}
    ports = ["--mongo-port", str(free_port()), "--shop-port", str(free_port()), "--receiver-port", str(free_port())]
    try:
        process = await asyncio.create_subprocess_exec(
            *LPS, "dev", "--demo", *ports, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT
        )
        output, _ = await asyncio.wait_for(process.communicate(), timeout=300)
    finally:
        await asyncio.to_thread(
            delete_queues, settings.amqp_url, job_queues(settings.with_overrides(queue_prefix=prefix))
        )
    text = output.decode(errors="replace")

    assert process.returncode == 0, text[-3000:]
    catalogue = json.loads(DEMO_CATALOGUE.read_text())["keywords"]
    table = text[text.index("product_code  lowest_price") :].splitlines()
    for index, entry in enumerate(catalogue.values(), 1):
        [row] = [line for line in table if line.startswith(f"DEMO-{index} ")]
        winners = [winner for winner in entry["expected_lowest"].values() if winner]
        if winners:
            assert f"{min(w['price'] for w in winners):,}" in row, row
            assert row.split()[-1] == "DONE", row
        else:
            assert "NO_MATCH" in row, row
        assert row.split()[-2] == "DONE", row  # delivery_status: the receiver got it
    assert "delivery" in text  # the receiver printed the deliveries
    assert "demo: searches coupang and naver at the demo shop" in text  # what it put aside, said at start-up
    assert "Ctrl-C again" not in text  # a demo that ended was not interrupted: nothing to hurry
    leftovers = [pid for pid in all_pids() if prefix in command_line(pid)]
    assert leftovers == []
    assert not alive(chromium_of(prefix))


async def test_lps_submit_enqueues_a_csv_waits_and_writes_the_results(
    aiohttp_server, settings: Settings, tmp_path: Path
):
    server = await aiohttp_server(create_app(settings))
    keywords = ["무선 이어폰", "보조배터리 10000mAh", "#fatal"]
    products = tmp_path / "products.csv"
    products.write_text(
        "product_code,keyword,sources\n" + "".join(f"CLI-{i},{k},static\n" for i, k in enumerate(keywords)),
        encoding="utf-8",
    )
    out = tmp_path / "results.csv"
    async with worker_pool(settings, "search", tmp_path):
        done = await asyncio.create_subprocess_exec(
            *LPS, "submit", str(products), "--out", str(out), "--gateway", str(server.make_url("")),
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        stdout, stderr = await asyncio.wait_for(done.communicate(), timeout=120)

    # One job is DEAD: the exit status says not every job is DONE and complete.
    assert done.returncode == 1, stderr.decode()
    assert "3/3 ended" in stderr.decode()
    assert stderr.decode().strip().splitlines()[-1] == (
        "lps: not every product is DONE and complete: 3 job(s): DONE 2 (FOUND 2), DEAD 1 (INVALID_PRODUCT 1)"
    )
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    expected = []
    for keyword in keywords[:2]:
        offers = match_offers({"keyword": keyword}, StaticSource.offers_for(keyword))
        expected.append(str(min(offer.price for offer in offers if eligible(offer))))
    assert [(row["product_code"], row["status"]) for row in rows] == [
        ("CLI-0", "DONE"),
        ("CLI-1", "DONE"),
        ("CLI-2", "DEAD"),
    ]
    assert [row["lowest_price"] for row in rows[:2]] == expected
    assert [row["source"] for row in rows[:2]] == ["static", "static"]
    assert (rows[2]["outcome"], rows[2]["error_type"]) == ("", "INVALID_PRODUCT")
    assert "CLI-0" in stdout.decode()
