"""The Coupang browser's proxies as LPS_COUPANG_PROXIES writes them: their URLs, schemes and credentials. Rotating and
benching them is `actors.proxies`; their fleet-wide counts, `infra.proxy_ledger`."""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import SplitResult, unquote, urlsplit

from infra.setting_text import parse_list

#: Proxy schemes Chromium can use from a browser context.
PROXY_SCHEMES = ("http", "https", "socks5")


@dataclass(frozen=True, slots=True)
class Proxy:
    """One egress proxy of the browser (LPS_COUPANG_PROXIES). Its credentials stay out of repr, str and `label`."""

    scheme: str
    host: str
    port: int
    username: str = field(default="", repr=False)
    password: str = field(default="", repr=False)

    @property
    def label(self) -> str:
        """`scheme://host:port`: what logs, metrics and errors name it by (never its credentials)."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{self.scheme}://{host}:{self.port}"

    def __str__(self) -> str:
        return self.label


def _proxy_parts(item: str) -> SplitResult:
    if "://" not in item:
        raise ValueError("expected SCHEME://[USER:PASSWORD@]HOST:PORT")
    try:
        parts = urlsplit(item)
        parts.port  # noqa: B018 (a bad port raises here)
    except ValueError:
        raise ValueError("expected SCHEME://[USER:PASSWORD@]HOST:PORT with a port from 1 to 65535") from None
    return parts


def parse_proxy(item: str) -> Proxy:
    """One proxy URL; a malformed one raises a ValueError that names its bad part, never its credentials."""
    parts = _proxy_parts(item.strip())
    scheme, host, port = parts.scheme.lower(), parts.hostname or "", parts.port
    where = f"{scheme}://{host}:{port}" if host and port else "a proxy"
    if scheme not in PROXY_SCHEMES:
        raise ValueError(f"{where}: scheme {scheme!r} is not one of {', '.join(PROXY_SCHEMES)}")
    if not host:
        raise ValueError(f"{scheme}:// proxy without a host")
    if port is None or port == 0:
        raise ValueError(f"{scheme}://{host}: the port is missing (e.g. {scheme}://{host}:3128)")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise ValueError(f"{where}: a proxy URL has no path, query or fragment")
    username, password = unquote(parts.username or ""), unquote(parts.password or "")
    if password and not username:
        raise ValueError(f"{where}: a password without a user name")
    if username and scheme == "socks5":
        raise ValueError(f"{where}: Chromium does not support SOCKS5 proxies with credentials")
    return Proxy(scheme, host, port, username, password)


def parse_proxies(text: str) -> tuple[str, ...]:
    """LPS_COUPANG_PROXIES: `http://user:pass@10.0.0.1:3128,http://10.0.0.2:3128`, each checked, none twice."""
    items = parse_list(text)
    labels: set[str] = set()
    for number, item in enumerate(items, start=1):
        try:
            label = parse_proxy(item).label
        except ValueError as error:
            raise ValueError(f"proxy #{number}: {error}") from None
        if label in labels:
            raise ValueError(f"proxy #{number}: {label} is given twice")
        labels.add(label)
    return items
