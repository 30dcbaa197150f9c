"""`lps receiver`: a local stand-in for the back office's API, for trying LPS out.

It accepts every delivery, checks its signature against LPS_OUTBOX_SECRET, and prints one line per
delivery. Idempotency-Keys seen before are answered 200 again but marked as repeats.
"""

from __future__ import annotations

import json

from aiohttp import web

from schemas.signature import SIGNATURE_HEADER, verify_signature

RECEIVED = web.AppKey("received", dict)


def create_receiver_app(secret: str) -> web.Application:
    async def receive(request: web.Request) -> web.Response:
        body = await request.read()
        valid = verify_signature(body, secret, request.headers.get(SIGNATURE_HEADER))
        key = request.headers.get("Idempotency-Key", "")
        repeat = key in request.app[RECEIVED]
        payload = json.loads(body)
        request.app[RECEIVED][key] = payload
        lowest = (payload.get("result") or {}).get("lowest") or {}
        print(
            f"delivery {key}{' (repeat)' if repeat else ''}: {payload.get('product_code')} "
            f"{(payload.get('result') or {}).get('outcome')} lowest={lowest.get('price')} "
            f"{lowest.get('source', '')} signature={'ok' if valid else 'INVALID'}",
            flush=True,
        )
        return web.json_response({"received": True, "repeat": repeat})

    app = web.Application()
    app[RECEIVED] = {}
    app.router.add_post("/results", receive)
    return app
