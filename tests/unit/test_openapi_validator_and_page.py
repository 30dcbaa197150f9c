"""The OpenAPI checks' own validator refuses what the Job schema does not list, and docs/http-api.md shows a
call of every operation."""

from __future__ import annotations

import re
from pathlib import Path

from infra.settings import Settings
from service.app import create_app
from tests.openapi_document import validator


def test_validator_refuses_a_field_the_job_schema_does_not_list():
    # The walk below relies on additionalProperties: false (apispec writes it for marshmallow's RAISE default).
    document = {"components": {"schemas": {"Job": {"type": "object", "properties": {}, "additionalProperties": False}}}}
    assert not validator(document, {"$ref": "#/components/schemas/Job"}).is_valid({"surprise": 1})


HTTP_API_PAGE = Path(__file__).resolve().parents[2] / "docs" / "http-api.md"


def test_the_http_api_page_shows_a_call_of_every_operation():
    """docs/http-api.md had no watch endpoint: a newcomer found them only in operations.md or Swagger."""
    calls = [line for line in HTTP_API_PAGE.read_text(encoding="utf-8").splitlines() if "curl " in line]
    missing = []
    for route in create_app(Settings()).router.routes():
        template = route.resource.get_info().get("formatter") or route.resource.get_info().get("path") or ""
        if not template.startswith("/v1/lps") or route.method == "HEAD":
            continue
        path = re.sub(r"\\\{[^}]+\\\}", r"[^/\\s'?]+", re.escape(template)) + r"(?=[\s'?]|$)"
        method = "" if route.method == "GET" else f"-X {route.method} "
        shown = [line for line in calls if re.search(path, line) and (method in line if method else "-X " not in line)]
        if not shown:
            missing.append(f"{route.method} {template}")
    assert missing == []
