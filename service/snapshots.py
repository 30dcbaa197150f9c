"""GET /v1/lps/snapshots/{snapshot_id}/{kind}: the page a worker saw when a search went wrong, through the gateway.

The HTML is scraped from a shop: it is answered as plain text in a sandbox (no script of it runs as the gateway's
origin, and no browser sniffs it back into a page); the screenshot as image/png.
"""

from __future__ import annotations

from aiohttp import web
from aiohttp_apigami import docs, match_info_schema
from bson import ObjectId
from marshmallow import Schema, fields, validate

from infra.mongo import MainDatabase, deadline
from infra.settings import Settings
from infra.snapshots import SNAPSHOT_FILES, SnapshotStore
from schemas.codes import ErrorType
from schemas.examples import error
from service.errors import ApiError
from service.keys import DATABASE, SETTINGS
from service.openapi import KEYED, error_answers
from service.routes import PREFIX

#: Every answer with a snapshot's bytes: nothing in them is run, sniffed or framed as the gateway's own, nor kept by
#: the browser (a shop's page as a signed-in operator saw it: Back after sign-out must not show it).
CONFINED = {
    "Content-Security-Policy": "sandbox",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
}


class SnapshotPath(Schema):
    snapshot_id = fields.String(required=True, metadata={"description": "24 hex digits (last_error.snapshot's id)"})
    kind = fields.String(required=True, validate=validate.OneOf(list(SNAPSHOT_FILES)))


async def snapshot_file(database: MainDatabase, settings: Settings, raw_snapshot_id: str, kind: str) -> web.Response:
    """A snapshot's HTML (as text) or screenshot (PNG); LPS_JOB_NOT_FOUND (the contract's "not found") for an
    unknown or malformed id, or a snapshot without that file (a page whose screenshot failed)."""
    if not ObjectId.is_valid(raw_snapshot_id) or len(raw_snapshot_id) != 24 or kind not in SNAPSHOT_FILES:
        raise ApiError(ErrorType.LPS_JOB_NOT_FOUND, "no such snapshot")
    with deadline(settings):
        content = await SnapshotStore(database.write).file(ObjectId(raw_snapshot_id), kind)
    if content is None:
        raise ApiError(ErrorType.LPS_JOB_NOT_FOUND, "no such snapshot")
    charset = "utf-8" if kind == "html" else None
    return web.Response(body=content, content_type=SNAPSHOT_FILES[kind], charset=charset, headers=CONFINED)


_ERRORS = error_answers(404, examples={404: error(ErrorType.LPS_JOB_NOT_FOUND, "no such snapshot")})
_ERRORS[404]["description"] = "LPS_JOB_NOT_FOUND (1500): unknown or malformed snapshot id, or no such file"


@docs(
    tags=["jobs"],
    summary="A saved page of a failed search: its HTML (as text/plain) or its screenshot (image/png)",
    description="`last_error.snapshot` (and a history entry's `error.snapshot`) names it as "
    "`gridfs:snapshots/<snapshot_id>`. Answered with `Content-Security-Policy: sandbox` and "
    "`X-Content-Type-Options: nosniff`: the scraped HTML is never a page of the gateway's origin.",
    responses={
        200: {
            "description": "the file",
            "content": {
                "text/plain": {"schema": {"type": "string"}},
                "image/png": {"schema": {"type": "string", "format": "binary"}},
            },
        },
        **_ERRORS,
    },
    security=KEYED,
)
@match_info_schema(SnapshotPath)
async def get_snapshot(request: web.Request) -> web.Response:
    snapshot_id, kind = request.match_info["snapshot_id"], request.match_info["kind"]
    return await snapshot_file(request.app[DATABASE], request.app[SETTINGS], snapshot_id, kind)


def setup(app: web.Application) -> None:
    app.router.add_get(f"{PREFIX}/snapshots/{{snapshot_id:[^/]+}}/{{kind:[^/]+}}", get_snapshot, allow_head=False)
