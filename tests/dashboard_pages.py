"""What the dashboard's tests share: the keys they sign in with, its forms posted as its own pages post them, offers
judged every way, and where browser tests leave their screenshots."""

from __future__ import annotations

import base64
import re
from typing import Any

import aiohttp
from aiohttp.test_utils import TestClient

from infra.settings import Settings
from service.app import create_app
from tests.harness import ARTIFACTS as TEST_ARTIFACTS

#: One admin key, named as LPS_API_KEYS names one.
KEYS = {"ops": "ops-5e6d-admin"}


#: A 1×1 PNG: what a worker's screenshot is, in small.
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)


async def post_form(client: TestClient, path: str, **options: Any) -> aiohttp.ClientResponse:
    """A form posted as the dashboard's own pages post it: from its origin."""
    return await client.post(path, headers={"Origin": str(client.make_url("/")).rstrip("/")}, **options)


def csrf_of(html: str) -> str:
    match = re.search(r'name="csrf" value="([^"]+)"', html)
    assert match, "the form carries no CSRF token"
    return match.group(1)


ROLE_KEYS = Settings.from_strings({"api_keys": "ops=ops-5e6d-admin:admin,viewer=view-c0ffee:read"})


async def signed_in(aiohttp_client, settings: Settings, key: str) -> TestClient:
    keyed = settings.with_overrides(api_keys=ROLE_KEYS.api_keys, api_key_roles=ROLE_KEYS.api_key_roles)
    client = await aiohttp_client(create_app(keyed))
    token = csrf_of(await (await client.get("/ui/login")).text())
    answer = await post_form(client, "/ui/login", data={"csrf": token, "key": key}, allow_redirects=False)
    assert answer.status == 303
    return client


#: Offers with every verdict the matcher added in issue 32, as a search stores them.
JUDGED_OFFERS = [
    {"source": "coupang", "title": "삼다수 2L 12개", "price": 11_230, "price_condition": "정기배송할인가",
     "rejected": "conditional price: 정기배송할인가 11,230"},
    {"source": "coupang", "title": "햇반 210g 12개/24개/36개", "price": 13_900, "price_from": True,
     "rejected": "price from 13,900: the first option is 12개, not 36개"},
    {"source": "naver", "title": "[품절] 햇반 210g 36개", "price": 27_900, "rejected": "sold out: 품절"},
    {"source": "coupang", "title": "햇반 210g 36개 재입고 알림", "price": 28_500,
     "rejected": "not buyable: 재입고 알림"},
    {"source": "coupang", "title": "갤럭시 S25 FE 256GB", "price": 849_000, "rejected": "another model: s25 fe"},
    {"source": "coupang", "title": "버츄오 팝 석회제거제", "price": 12_900,
     "rejected": "priced like an accessory: 12,900 is under 25% of the 149,000 most offers ask"},
    {"source": "coupang", "title": "S24 울트라 전용 충전 패드", "price": 15_900,
     "rejected": "sold for the product: 울트라 전용"},
    {"source": "naver", "title": "CJ 햇반 210g 36개", "price": 35_900},
]  # fmt: skip


#: What a search's result may say leaves its lowest in doubt (`result.doubts`), beside JUDGED_OFFERS.
JUDGED_DOUBTS = ["priced far under the others: the lowest, 35,900, is 36% of the 99,000 most offers ask"]


#: Where the dashboard's browser tests leave their screenshots (LPS_TEST_ARTIFACTS moves it).
ARTIFACTS = TEST_ARTIFACTS / "dashboard"
