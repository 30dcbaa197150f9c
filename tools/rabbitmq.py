"""Making sure RabbitMQ is there: reachable, or started when it is installed locally but stopped."""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

import pika
import pika.exceptions

LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1"}
SERVER_CANDIDATES = ("rabbitmq-server", "/usr/sbin/rabbitmq-server", "/usr/lib/rabbitmq/bin/rabbitmq-server")


class RabbitMQUnavailable(RuntimeError):
    pass


def _answers(url: str) -> bool:
    parameters = pika.URLParameters(url)
    parameters.socket_timeout = 3
    parameters.connection_attempts = 1
    try:
        pika.BlockingConnection(parameters).close()
    except pika.exceptions.ProbableAuthenticationError as error:
        raise RabbitMQUnavailable(f"RabbitMQ refused the credentials in LPS_AMQP_URL: {error}") from None
    except pika.exceptions.AMQPError:
        return False
    return True


def _installed_server() -> str | None:
    for candidate in SERVER_CANDIDATES:
        found = shutil.which(candidate) or (candidate if Path(candidate).is_file() else None)
        if found:
            return found
    return None


def ensure_rabbitmq(url: str, *, start_timeout: float = 120.0) -> str:
    """Return a line saying how RabbitMQ was found; raise RabbitMQUnavailable saying what is missing.

    `url` may name several nodes, `;`-separated (Dramatiq's convention): one that answers is enough."""
    urls = [each.strip() for each in url.split(";") if each.strip()]
    if len(urls) > 1:
        answering = [each for each in urls if _answers(each)]
        if not answering:
            raise RabbitMQUnavailable(f"none of the {len(urls)} RabbitMQ nodes in LPS_AMQP_URL is reachable")
        return f"RabbitMQ: {len(answering)} of {len(urls)} nodes reachable"
    if _answers(url):
        return "RabbitMQ: reachable"
    host = pika.URLParameters(url).host
    if host not in LOCAL_HOSTS:
        raise RabbitMQUnavailable(f"RabbitMQ at {host} (LPS_AMQP_URL) is not reachable")
    server = _installed_server()
    if server is None:
        raise RabbitMQUnavailable(
            "RabbitMQ is not running on this machine and rabbitmq-server is not installed: "
            "install it (apt-get install rabbitmq-server) or point LPS_AMQP_URL at a running broker"
        )
    subprocess.run([server, "-detached"], check=False, capture_output=True, timeout=60)
    deadline = time.monotonic() + start_timeout
    while time.monotonic() < deadline:
        if _answers(url):
            return f"RabbitMQ: started {server} -detached"
        time.sleep(1)
    raise RabbitMQUnavailable(f"started {server} -detached but it did not answer within {start_timeout:.0f}s")
