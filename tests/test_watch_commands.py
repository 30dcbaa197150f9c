"""`lps watch add|list|pause|resume|rm` as an operator runs them: real `lps` processes against a real gateway."""

from __future__ import annotations

from pathlib import Path

from infra.settings import Settings
from service.app import create_app
from tests.test_client_commands import assert_one_line_error, lps


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


async def test_a_refused_watch_is_one_line_with_its_field(aiohttp_server, settings: Settings, tmp_path: Path):
    server = await aiohttp_server(create_app(settings))
    gateway = str(server.make_url("")).rstrip("/")
    products = tmp_path / "products.csv"
    products.write_text("product_code,keyword\nCW-1,first thing\n")

    ran = await lps("watch", "add", str(products), "--every", "1m", gateway=gateway)

    assert_one_line_error(ran, 1, "101", "every")
