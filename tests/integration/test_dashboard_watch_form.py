"""Adding and editing a watch from the dashboard (issue 33, item 9): the same rules and messages as the API's POST
and PATCH, an admin only, nothing stored when refused."""

from __future__ import annotations

from typing import Any

from bson import ObjectId

from infra.settings import Settings
from tests.dashboard_pages import csrf_of, post_form, signed_in
from tests.stored_jobs import insert_watch, stored_watch

ADMIN, VIEWER = "ops-5e6d-admin", "view-c0ffee"
ADMIN_HEADERS = {"X-API-Key": ADMIN}


def field_errors(page: str) -> dict[str, str]:
    """The messages the form shows beside its fields: {field: "message; message"}."""
    errors = {}
    for chunk in page.split('<p class="field-error" data-field="')[1:]:
        name, _, rest = chunk.partition('">')
        errors[name] = rest[: rest.index("</p>")]
    return errors


async def test_an_admin_adds_a_watch_from_the_form_and_lands_on_it(aiohttp_client, settings: Settings):
    client = await signed_in(aiohttp_client, settings, ADMIN)
    listing = await (await client.get("/ui/watches")).text()
    assert 'href="/ui/watches/new"' in listing
    form = await (await client.get("/ui/watches/new")).text()

    added = await post_form(
        client,
        "/ui/watches/new",
        data={
            "csrf": csrf_of(form),
            "product_code": "FORM-1",
            "keyword": "아이폰 15 128GB",
            "target_price": "1090000",
            "schedule": "every",
            "every": "6h",
            "cron": "",
            "notify": "below_target",
            "priority": "",
        },
        allow_redirects=False,
    )

    assert added.status == 303, await added.text()
    watch_id = added.headers["Location"].removeprefix("/ui/watches/")
    stored = await stored_watch(settings, ObjectId(watch_id))
    assert stored is not None
    assert stored["product_code"] == "FORM-1"
    assert stored["product"] == {"keyword": "아이폰 15 128GB", "target_price": 1090000}
    assert (stored["every"], stored["notify"]) == ("6h", "below_target")


async def test_the_form_refuses_with_the_apis_own_messages_by_field_and_stores_nothing(
    aiohttp_client, settings: Settings
):
    client = await signed_in(aiohttp_client, settings, ADMIN)
    form = await (await client.get("/ui/watches/new")).text()
    product = {"product_code": "bad code", "keyword": "\u200b", "target_price": "cheap"}

    refused = await post_form(
        client,
        "/ui/watches/new",
        data={"csrf": csrf_of(form), **product, "schedule": "every", "every": "10s", "notify": "below_target"},
        allow_redirects=False,
    )
    api = await client.post(
        "/v1/lps/watches",
        json={"products": [product], "every": "10s", "notify": "below_target"},
        headers=ADMIN_HEADERS,
    )
    api_errors: dict[str, Any] = (await api.json())["errors"]

    page = await refused.text()
    assert refused.status == 400
    shown = field_errors(page)
    for name in ("product_code", "keyword", "target_price"):
        assert shown[name] == "; ".join(api_errors["products"]["0"][name]), name
    assert shown["every"] == "; ".join(api_errors["every"])
    assert 'value="cheap"' in page  # what was typed stays in the form
    listed = await (await client.get("/v1/lps/watches", headers=ADMIN_HEADERS)).json()
    assert listed["watches"] == []


async def test_an_admin_edits_a_watch_and_only_what_changed_is_sent(aiohttp_client, settings: Settings):
    client = await signed_in(aiohttp_client, settings, ADMIN)
    watch = await insert_watch(settings, "EDIT-1", product={"keyword": "old words", "target_price": 5000})
    form = await (await client.get(f"/ui/watches/{watch['_id']}/edit")).text()
    assert 'value="old words"' in form
    assert 'value="5000"' in form
    fields = {
        "csrf": csrf_of(form),
        "keyword": "new words",
        "model_no": "",
        "target_price": "",
        "schedule": "cron",
        "every": "",
        "cron": "0 9 * * 1-5",
        "notify": "on_change",
        "priority": "",
    }

    saved = await post_form(client, f"/ui/watches/{watch['_id']}/edit", data=fields, allow_redirects=False)
    refused = await post_form(
        client,
        f"/ui/watches/{watch['_id']}/edit",
        data=fields | {"notify": "below_target"},
        allow_redirects=False,
    )

    assert (saved.status, saved.headers["Location"]) == (303, f"/ui/watches/{watch['_id']}")
    stored = await stored_watch(settings, watch["_id"])
    assert stored is not None
    assert stored["product"] == {"keyword": "new words"}  # the emptied target price was cleared
    assert (stored.get("every"), stored["cron"]) == (None, "0 9 * * 1-5")
    assert refused.status == 400
    assert field_errors(await refused.text())["target_price"] == "required when notify is below_target"


async def test_a_read_key_gets_no_form_and_its_posts_are_refused_with_433(aiohttp_client, settings: Settings):
    client = await signed_in(aiohttp_client, settings, VIEWER)
    watch = await insert_watch(settings, "RO-FORM")
    listing = await (await client.get("/ui/watches")).text()
    token = csrf_of(listing)

    assert 'href="/ui/watches/new"' not in listing
    assert (await client.get("/ui/watches/new")).status == 433
    assert (await client.get(f"/ui/watches/{watch['_id']}/edit")).status == 433
    for path in ("/ui/watches/new", f"/ui/watches/{watch['_id']}/edit"):
        posted = await post_form(client, path, data={"csrf": token, "keyword": "x"}, allow_redirects=False)
        assert posted.status == 433, path
    assert (await stored_watch(settings, watch["_id"]))["product"] == watch["product"]
