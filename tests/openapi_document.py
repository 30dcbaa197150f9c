"""The gateway's OpenAPI document as a client reads it, and JSON Schema validators for its schemas."""

from __future__ import annotations

import copy
from typing import Any

import jsonschema
from aiohttp.test_utils import TestClient


async def openapi(client: TestClient) -> dict[str, Any]:
    response = await client.get("/api/docs/swagger.json")
    assert response.status == 200
    return await response.json()


def validator(document: dict[str, Any], schema: dict[str, Any], *, strict: bool = False) -> jsonschema.Validator:
    """A JSON Schema validator for an OpenAPI schema of `document` (its $refs resolve inside the document).

    `strict`: `nullable` is dropped, so a null where the document promises a value fails too.
    """
    components = copy.deepcopy(document["components"])
    if strict:
        for part in components["schemas"].values():
            for field in part.get("properties", {}).values():
                field.pop("nullable", None)
    return jsonschema.Draft7Validator({**schema, "components": components})
