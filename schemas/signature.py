"""The delivery signature: how LPS signs a result and how the back office checks it.

`X-LPS-Signature: sha256=<hex HMAC-SHA256 of the exact body bytes, keyed with LPS_OUTBOX_SECRET>`.
"""

from __future__ import annotations

import hashlib
import hmac

SIGNATURE_HEADER = "X-LPS-Signature"


def sign(body: bytes, secret: str) -> str:
    """The `X-LPS-Signature` value of a body."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def verify_signature(body: bytes, secret: str, header_value: str | None) -> bool:
    """True when `header_value` is the body's signature (compared in constant time)."""
    return hmac.compare_digest(header_value or "", sign(body, secret))
