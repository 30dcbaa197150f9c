"""Web origins (scheme, host, port) as LPS_UI_ORIGINS writes them: the origins the dashboard accepts a form from."""

from __future__ import annotations

from typing import NamedTuple
from urllib.parse import urlsplit

from infra.setting_text import parse_list


class WebOrigin(NamedTuple):
    """What a browser names a page's site by (its Origin header): scheme, host and port (the default one when the
    URL leaves it out), lower-case."""

    scheme: str
    host: str
    port: int


_DEFAULT_PORTS = {"http": 80, "https": 443}


def web_origin(url: str) -> WebOrigin | None:
    """The origin of an http(s) URL (an Origin header, or a Referer's page); None for anything else."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS or not parts.hostname:
        return None
    return WebOrigin(scheme, parts.hostname.lower(), port or _DEFAULT_PORTS[scheme])


def parse_web_origins(text: str) -> tuple[str, ...]:
    """LPS_UI_ORIGINS: `https://lps.example.com,http://10.0.0.5:8080`: origins only (no path, user or query)."""
    items = parse_list(text)
    for item in items:
        parts = urlsplit(item)
        if web_origin(item) is None or parts.username or parts.path not in ("", "/") or parts.query or parts.fragment:
            raise ValueError(f"{item!r} is not an origin: http(s)://HOST[:PORT], as a browser's address bar shows it")
    return items
