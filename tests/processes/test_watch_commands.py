"""`lps watch add|list|edit|pause|resume|rm` (and `delete`) as an operator runs them: real `lps` processes against a
real gateway."""

from __future__ import annotations

from pathlib import Path

import pytest

from infra.settings import Settings
from service.app import create_app
from tests.client_commands import assert_one_line_error, lps


@pytest.mark.processes
async def test_watches_are_added_from_a_csv_listed_paused_resumed_and_removed(
    aiohttp_server, settings: Settings, tmp_path: Path
):
    server = await aiohttp_server(create_app(settings))
    gateway = str(server.make_url("")).rstrip("/")
    products = tmp_path / "products.csv"
    products.write_text("product_code,keyword,target_price\nCW-1,first thing,30000\nCW-2,second thing,\n")

    added = await lps("watch", "add", str(products), "--every", "6h", gateway=gateway)
    assert added.code == 0, added
    assert "2 watch(es) added" in added.stderr
    again = await lps("watch", "add", str(products), "--cron", "0 9 * * *", gateway=gateway)
    assert "0 watch(es) added, 2 product(s) already watched" in again.stderr

    listed = await lps("watch", "list", gateway=gateway)
    lines = listed.stdout.strip().splitlines()
    assert listed.code == 0, listed
    assert [line.split()[1] for line in lines[1:]] == ["CW-1", "CW-2"]
    watch_id = lines[1].split()[0]
    one = await lps("watch", "list", "--product", "CW-2", gateway=gateway)
    assert len(one.stdout.strip().splitlines()) == 2

    assert (await lps("watch", "pause", watch_id, gateway=gateway)).stdout.strip() == f"paused {watch_id}"
    assert " yes " in (await lps("watch", "list", "--product", "CW-1", gateway=gateway)).stdout
    assert (await lps("watch", "resume", watch_id, gateway=gateway)).stdout.strip() == f"resumed {watch_id}"
    assert (await lps("watch", "rm", watch_id, gateway=gateway)).stdout.strip() == f"removed {watch_id}"
    assert_one_line_error(await lps("watch", "rm", watch_id, gateway=gateway), 1, "1502")


@pytest.mark.processes
@pytest.mark.parametrize(
    ("schedule", "said"),
    [
        (["--every", "1m"], "'1m' is below the minimum of 300 s (LPS_WATCH_MIN_INTERVAL)"),
        (["--every", "0s"], "'0s' is below the minimum of 300 s (LPS_WATCH_MIN_INTERVAL)"),
        (["--every", "soon"], "'soon': must be a whole number and a unit"),
        (["--cron", "61 * * * *"], "'61 * * * *': must be five fields (minute 0-59"),
        (["--cron", "* * * * *"], "'* * * * *' runs 60 s apart, below the minimum of 300 s"),
    ],
)
async def test_a_schedule_the_gateway_would_refuse_is_a_usage_error_before_any_request(
    aiohttp_server, settings: Settings, tmp_path: Path, schedule: list[str], said: str
):
    server = await aiohttp_server(create_app(settings))
    gateway = str(server.make_url("")).rstrip("/")
    products = tmp_path / "products.csv"
    products.write_text("product_code,keyword\nCW-1,first thing\n")

    ran = await lps("watch", "add", str(products), *schedule, gateway=gateway)

    assert ran.code == 2, ran  # as argparse's own usage errors
    assert said in ran.stderr.strip().splitlines()[-1], ran.stderr
    assert "0 watch" not in ran.stderr  # nothing was asked of the gateway
    listed = await lps("watch", "list", gateway=gateway)
    assert listed.stdout.strip().splitlines()[1:] == []


@pytest.mark.processes
async def test_a_watch_the_gateway_refuses_is_reported_by_its_line(aiohttp_server, settings: Settings, tmp_path: Path):
    # `naver` is a valid source name, but this deployment enables only `static`: only the gateway knows.
    server = await aiohttp_server(create_app(settings))
    products = tmp_path / "products.csv"
    products.write_text("product_code,keyword,sources\nA,k,static\nB,k,naver\n", encoding="utf-8")

    ran = await lps("watch", "add", str(products), "--every", "6h", gateway=str(server.make_url("")))

    assert ran.code == 2, ran
    assert f"lps: {products}: line 3: refused by the gateway: sources: not enabled in this deployment" in ran.stderr


@pytest.mark.processes
async def test_a_watch_is_edited_from_the_command_line_and_delete_removes_it_as_rm_does(
    aiohttp_server, settings: Settings, tmp_path: Path
):
    """Watches could be changed only through the API, and `lps watch delete` was not a command."""
    server = await aiohttp_server(create_app(settings))
    gateway = str(server.make_url("")).rstrip("/")
    products = tmp_path / "products.csv"
    products.write_text("product_code,keyword,target_price\nED-1,old words,30000\n")
    await lps("watch", "add", str(products), "--every", "6h", gateway=gateway)
    watch_id = (await lps("watch", "list", gateway=gateway)).stdout.strip().splitlines()[1].split()[0]

    edited = await lps(
        "watch", "edit", watch_id, "--keyword", "new words", "--cron", "0 9 * * 1-5", "--clear", "target_price",
        gateway=gateway,
    )  # fmt: skip
    nothing = await lps("watch", "edit", watch_id, gateway=gateway)
    refused = await lps("watch", "edit", watch_id, "--notify", "below_target", gateway=gateway)
    listed = await lps("watch", "list", gateway=gateway)
    deleted = await lps("watch", "delete", watch_id, gateway=gateway)

    assert edited.code == 0, edited
    assert f"edited {watch_id}" in edited.stderr
    row = edited.stdout.strip().splitlines()[1]
    assert "new words" in row
    assert "0 9 * * 1-5" in row
    assert nothing.code == 2
    assert "nothing to change" in nothing.stderr
    assert_one_line_error(refused, 1, "target_price: required when notify is below_target")
    assert "0 9 * * 1-5" in listed.stdout
    assert deleted.stdout.strip() == f"removed {watch_id}"
    assert (await lps("watch", "list", gateway=gateway)).stdout.strip().splitlines()[1:] == []
