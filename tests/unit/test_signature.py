"""The delivery signature: LPS's own check and the snippet for receivers (docs/jobs.md) agree, and neither raises."""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from schemas.signature import sign, verify_signature

JOBS_DOC = Path(__file__).resolve().parents[2] / "docs" / "jobs.md"
BODY = b'{"product_code":"SKU-1","result":{"outcome":"FOUND"}}'
SECRET = "s3cret-키"


def readme_snippet() -> Callable[[bytes, str, str | None], bool]:
    """The receiver snippet exactly as docs/jobs.md shows it."""
    block = re.search(r"<!-- receiver-snippet -->\s*```python\n(.*?)```", JOBS_DOC.read_text(), re.DOTALL)
    assert block, "docs/jobs.md lost its receiver snippet"
    namespace: dict[str, object] = {}
    exec(textwrap.dedent(block.group(1)), namespace)
    return namespace["lps_signature_ok"]  # type: ignore[return-value]


CHECKS = [verify_signature, readme_snippet()]


@pytest.mark.parametrize("check", CHECKS, ids=["schemas.signature", "docs snippet"])
@pytest.mark.parametrize(
    ("header", "valid"),
    [
        (sign(BODY, SECRET), True),
        (sign(BODY + b" ", SECRET), False),
        (sign(BODY, "other"), False),
        (None, False),
        ("", False),
        ("sha256=서명", False),
        ("sha256=\udcff", False),
        ("sha256=" + "é" * 64, False),
    ],
    ids=["valid", "other-body", "other-secret", "missing", "empty", "korean", "lone-surrogate", "non-ascii-64"],
)
def test_a_signature_is_valid_only_for_the_exact_body_and_secret_and_anything_else_is_false_never_an_error(
    check: Callable[[bytes, str, str | None], bool], header: str | None, valid: bool
):
    assert check(BODY, SECRET, header) is valid
