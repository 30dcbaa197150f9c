"""`lps rabbitmq-cluster up|down|status`: a real three-node RabbitMQ cluster on this machine, beside its own node.

For the fault tests of quorum mode and for people trying fail-over. The default node (5672, the system's
`rabbitmq.conf`) is never touched: each extra node gets its own name, ports, config file (the system file pins the
listener to 5672), data, log, pid and plugins files, in a folder of its own that the `rabbitmq` user owns (the
server runs as that user), and they join the first node. Measured here: three nodes start in about 25 s.

    lps rabbitmq-cluster up       # lps5701..lps5703@localhost on 127.0.0.1:5701..5703 (--base-port moves them)
    lps rabbitmq-cluster status   # each node's state, the cluster's members
    lps rabbitmq-cluster down     # stops them and removes their folder

`cluster_url()` is the `;`-separated LPS_AMQP_URL of the nodes (Dramatiq's convention: tried in turn). A node is named
after its port, so clusters on other ports (the tests', a person's) run side by side; `standalone` starts one node
of its own, for a fault test that stops a broker (the default node is never stopped).
"""

from __future__ import annotations

import contextlib
import json
import os
import pwd
import shutil
import subprocess
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

#: Where RabbitMQ's own scripts live (Debian's package); the `/usr/sbin` wrappers would switch user and drop the
#: environment that makes a node ours.
RABBITMQ_BIN = Path("/usr/lib/rabbitmq/bin")
RABBITMQCTL = "/usr/sbin/rabbitmqctl"
DEFAULT_BASE = Path("/var/tmp/lps-rabbitmq-cluster")
DEFAULT_BASE_PORT = 5701
NODES = 3
#: Erlang distribution ports sit this far above the AMQP ones (5701 -> 25701).
DIST_OFFSET = 20_000
START_TIMEOUT = 90.0


class ClusterError(RuntimeError):
    """The cluster could not be started or read: one line saying why."""


@dataclass(frozen=True, slots=True)
class Node:
    index: int
    base: Path
    port: int

    @property
    def name(self) -> str:
        return f"lps{self.port}@localhost"

    @property
    def home(self) -> Path:
        return self.base / f"lps{self.index}"

    @property
    def url(self) -> str:
        return f"amqp://guest:guest@127.0.0.1:{self.port}/%2F"

    def environment(self) -> dict[str, str]:
        """What makes this node its own: every path and port of it, none of the default node's."""
        return {
            "RABBITMQ_NODENAME": self.name,
            "RABBITMQ_NODE_PORT": str(self.port),
            "RABBITMQ_DIST_PORT": str(self.port + DIST_OFFSET),
            "RABBITMQ_CONFIG_FILE": str(self.home / "rabbitmq.conf"),
            "RABBITMQ_MNESIA_BASE": str(self.home / "mnesia"),
            "RABBITMQ_LOG_BASE": str(self.home / "log"),
            "RABBITMQ_PID_FILE": str(self.home / "rabbitmq.pid"),
            "RABBITMQ_ENABLED_PLUGINS_FILE": str(self.home / "enabled_plugins"),
            # The rabbitmq user's home: its Erlang cookie is the one rabbitmqctl (run through the wrapper) uses.
            "HOME": pwd.getpwnam("rabbitmq").pw_dir,
        }


def nodes(base: Path = DEFAULT_BASE, base_port: int = DEFAULT_BASE_PORT) -> list[Node]:
    return [Node(index, base, base_port + index - 1) for index in range(1, NODES + 1)]


def cluster_url(base_port: int = DEFAULT_BASE_PORT) -> str:
    """LPS_AMQP_URL for the cluster: every node, `;`-separated."""
    return ";".join(node.url for node in nodes(base_port=base_port))


def available() -> str | None:
    """Why a cluster cannot be started here (None: it can)."""
    if not (RABBITMQ_BIN / "rabbitmq-server").exists() or shutil.which("rabbitmqctl") is None:
        return "RabbitMQ is not installed (Debian's rabbitmq-server package)"
    if os.geteuid() != 0:
        return "starting RabbitMQ nodes as the rabbitmq user needs root"
    try:
        pwd.getpwnam("rabbitmq")
    except KeyError:
        return "there is no rabbitmq user"
    return None


def _ctl(node: Node, *arguments: str, timeout: float = 60.0) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [RABBITMQCTL, "-n", node.name, *arguments], capture_output=True, text=True, timeout=timeout, check=False
    )


def _prepare(node: Node) -> None:
    for folder in (node.home, node.home / "mnesia", node.home / "log"):
        folder.mkdir(parents=True, exist_ok=True)
    (node.home / "rabbitmq.conf").write_text(
        f"listeners.tcp.local = 127.0.0.1:{node.port}\nloopback_users.guest = true\n", encoding="utf-8"
    )
    (node.home / "enabled_plugins").write_text("[].\n", encoding="utf-8")
    account = pwd.getpwnam("rabbitmq")
    for path in [node.base, *node.home.rglob("*"), node.home]:
        os.chown(path, account.pw_uid, account.pw_gid)


def start_node(node: Node) -> None:
    """Start one node in the background as the rabbitmq user (returns once it was launched, not once it runs)."""
    _prepare(node)
    command = ["runuser", "-u", "rabbitmq", "--", "env", *(f"{k}={v}" for k, v in node.environment().items())]
    subprocess.run(
        [*command, str(RABBITMQ_BIN / "rabbitmq-server"), "-detached"],
        cwd=node.home,
        check=True,
        capture_output=True,
        timeout=60,
    )


#: How long one `rabbitmqctl wait` is given before it is asked again (within START_TIMEOUT).
WAIT_STEP = 15


def await_node(node: Node, timeout: float = START_TIMEOUT) -> None:
    """Until the node runs: `wait` follows its pid file from before the VM can be reached (`await_startup` cannot).
    Asked again every WAIT_STEP seconds: one `wait` was seen to time out after 90 s beside a node that had started
    in 10 (a busy machine, several CLI calls at once), where a second one answers at once."""
    pid_file = str(node.home / "rabbitmq.pid")
    deadline = time.monotonic() + timeout
    while True:
        try:
            done = _ctl(node, "wait", pid_file, "--timeout", str(WAIT_STEP), timeout=WAIT_STEP + 10)
        except subprocess.TimeoutExpired:  # the CLI itself hung (its own VM starting on a loaded machine): ask again
            said = f"rabbitmqctl wait gave no answer in {WAIT_STEP + 10} s"
        else:
            if done.returncode == 0:
                return
            said = str((done.stderr or done.stdout).strip().splitlines()[-1:])
        if time.monotonic() >= deadline:
            raise ClusterError(f"{node.name} did not start: {said}")


def join(node: Node, first: Node) -> None:
    for step in (("stop_app",), ("join_cluster", first.name), ("start_app",)):
        done = _ctl(node, *step)
        if done.returncode != 0:
            raise ClusterError(f"{node.name} {' '.join(step)}: {done.stderr.strip()[-300:]}")


def up(base: Path = DEFAULT_BASE, base_port: int = DEFAULT_BASE_PORT) -> list[Node]:
    """Start the three nodes and join them; nodes already running are left as they are."""
    if reason := available():
        raise ClusterError(reason)
    members = nodes(base, base_port)
    fresh = [node for node in members if not running(node)]
    for node in fresh:
        start_node(node)
    for node in fresh:
        await_node(node)
    for node in fresh:
        if node is not members[0] and members[0].name not in cluster_members(node):
            join(node, members[0])
    return members


def standalone(base: Path, port: int) -> Node:
    """Start one node of its own on `port`, joined to none (for a fault test that stops and starts a broker); one
    already running is left as it is. `down(base, port)` removes it."""
    if reason := available():
        raise ClusterError(reason)
    node = Node(1, base, port)
    if not running(node):
        start_node(node)
        await_node(node)
    return node


def stop_app(node: Node) -> None:
    """Stop the node's RabbitMQ application (its Erlang VM stays up): every connection to it drops."""
    _checked(node, "stop_app")


def start_app(node: Node) -> None:
    """Start the node's RabbitMQ application again and wait until it serves."""
    _checked(node, "start_app")
    _checked(node, "await_startup")


def _checked(node: Node, *arguments: str) -> None:
    done = _ctl(node, *arguments, timeout=120)
    if done.returncode != 0:
        raise ClusterError(f"{node.name} {' '.join(arguments)}: {(done.stderr or done.stdout).strip()[-300:]}")


def running(node: Node) -> bool:
    return _ctl(node, "ping", timeout=15).returncode == 0


def cluster_members(node: Node) -> list[str]:
    """The running members the node sees (empty when it does not answer)."""
    done = _ctl(node, "cluster_status", "--formatter", "json", timeout=30)
    if done.returncode != 0:
        return []
    return list(json.loads(done.stdout).get("running_nodes", []))


def stop_node(node: Node) -> None:
    with contextlib.suppress(subprocess.TimeoutExpired):
        _ctl(node, "stop", timeout=60)


def kill_node(node: Node) -> None:
    """`kill -9` of the node's Erlang VM, as a machine that dies does."""
    pid_file = node.home / "rabbitmq.pid"
    with contextlib.suppress(FileNotFoundError, ValueError, ProcessLookupError):
        os.kill(int(pid_file.read_text().strip()), 9)


def down(base: Path = DEFAULT_BASE, base_port: int = DEFAULT_BASE_PORT) -> None:
    """Stop every node (any state) and remove their folder."""
    for node in nodes(base, base_port):
        if running(node):
            stop_node(node)
        kill_node(node)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and any(running(node) for node in nodes(base, base_port)):
        time.sleep(0.5)
    shutil.rmtree(base, ignore_errors=True)


def status(base: Path = DEFAULT_BASE, base_port: int = DEFAULT_BASE_PORT) -> list[str]:
    lines = []
    for node in nodes(base, base_port):
        state = "running" if running(node) else "stopped"
        members = ", ".join(cluster_members(node)) if state == "running" else ""
        lines.append(f"{node.name} 127.0.0.1:{node.port} {state}" + (f" (cluster: {members})" if members else ""))
    return lines


def main(action: str, arguments: Sequence[str] = ()) -> int:
    """The CLI's entry (tools/cli.py): one line per node, or one line saying why not."""
    base_port = int(arguments[0]) if arguments else DEFAULT_BASE_PORT
    try:
        if action == "up":
            started = time.monotonic()
            up(base_port=base_port)
            print(f"cluster up in {time.monotonic() - started:.0f}s; LPS_AMQP_URL='{cluster_url(base_port)}'")
        elif action == "down":
            down(base_port=base_port)
            print("cluster stopped and its folder removed")
        for line in status(base_port=base_port) if action != "down" else []:
            print(line)
    except (ClusterError, subprocess.SubprocessError, OSError) as error:
        print(f"lps rabbitmq-cluster {action}: {error}")
        return 1
    return 0
