"""Finding a job by its words (issue 36.3): `q=` on GET /v1/lps/jobs and the jobs page, words of the keyword or model
number in any order, Korean split as the matcher splits titles, served by the words_created_at index."""

from __future__ import annotations

from typing import Any

from aiohttp.test_utils import TestClient


async def _codes(client: TestClient, query: str) -> list[str]:
    answer = await (await client.get(f"/v1/lps/jobs?{query}")).json()
    assert answer["result"] == 0, answer
    return [job["product_code"] for job in answer["jobs"]]


async def test_q_finds_searches_by_every_word_in_any_order_newest_first(client: TestClient):
    products: list[dict[str, Any]] = [
        {"product_code": "W-CASE", "keyword": "갤럭시버즈3케이스"},
        {"product_code": "W-BUDS", "keyword": "삼성 갤럭시 버즈3 프로", "model_no": "SM-R630"},
        {"product_code": "W-IPHONE", "keyword": "아이폰 15 케이스"},
    ]
    for product in products:  # one request each: three creation times, newest last
        answer = await (await client.post("/v1/lps/search", json={"products": [product]})).json()
        assert answer["result"] == 0, answer

    assert await _codes(client, "q=버즈3 갤럭시") == ["W-BUDS", "W-CASE"]
    assert await _codes(client, "q=케이스") == ["W-IPHONE", "W-CASE"]
    assert await _codes(client, "q=갤럭시 케이스") == ["W-CASE"]
    assert await _codes(client, "q=smr630") == ["W-BUDS"]
    assert await _codes(client, "q=SM-R630") == ["W-BUDS"]
    assert await _codes(client, "q=케이스&status=PENDING&limit=1") == ["W-IPHONE"]
    assert await _codes(client, "q=케이스&status=DONE") == []
    assert await _codes(client, "q=케이스&product_code_prefix=W-C") == ["W-CASE"]
    listed = await (await client.get("/v1/lps/jobs?q=케이스")).json()
    assert all("words" not in job for job in listed["jobs"])  # an index's field, not the API's

    refused = await client.get("/v1/lps/jobs?q=%3F%21")
    body = await refused.json()
    assert (refused.status, body["result"], list(body["errors"])) == (400, 101, ["q"])

    page = await (await client.get("/ui/jobs?q=버즈3")).text()
    assert 'name="q" value="버즈3"' in page
    assert "W-BUDS" in page
    assert "W-CASE" in page
    assert "W-IPHONE" not in page
