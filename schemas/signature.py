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
    """True when `header_value` is the body's signature (compared in constant time); False for anything else,
    never an exception: `hmac.compare_digest` refuses non-ASCII text, so both sides are compared as bytes (a lone
    surrogate, which UTF-8 cannot encode, becomes "?": a real signature is plain ASCII and never matches it)."""
    given = (header_value or "").encode("utf-8", "replace")
    return hmac.compare_digest(given, sign(body, secret).encode())
