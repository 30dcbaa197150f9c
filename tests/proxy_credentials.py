"""The credentials of the tests' forward proxies: the secret must never show in a log line, a repr or a metric."""

from __future__ import annotations

SECRET = "s3cr3t-Pa55"
