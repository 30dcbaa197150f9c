"""docker-compose.yml and the Dockerfile: what an operator relies on, by structure, and the image's files installed and
run as compose runs them (no Docker engine runs here)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import urllib.request
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

from embedded_store.server import free_port, wait_for_port
from infra.settings import Settings
from tests.compose_files import COMPOSE_FILE, DOCKERFILE, LPS_SERVICES, ROOT, build_context, dockerfile_instructions
from tests.compose_files import services as services

SETTING_NAMES = {f"LPS_{spec.name.upper()}" for spec in fields(Settings)}


def command_line(service: dict[str, Any]) -> str:
    command = service.get("command", "")
    return " ".join(command) if isinstance(command, list) else command


def environment(service: dict[str, Any]) -> dict[str, str]:
    """The service's variables, from either compose form (mapping, or a list of NAME=value)."""
    env = service.get("environment") or {}
    if isinstance(env, list):
        return dict(item.split("=", 1) if "=" in item else (item, "") for item in env)
    return {name: "" if value is None else str(value) for name, value in env.items()}


def host_ports(service: dict[str, Any]) -> set[int]:
    """Published host ports, from the short ("[IP:]HOST:CONTAINER") or the long (mapping) syntax."""
    published = set()
    for port in service.get("ports", []):
        if isinstance(port, dict):
            if "published" in port:
                published.add(int(port["published"]))
        elif str(port).count(":") >= 1:
            published.add(int(str(port).split(":")[-2]))
    return published


def test_the_stack_has_mongodb_rabbitmq_the_gateway_both_pools_and_the_reconciler(services):
    assert {"mongo", "rabbitmq", *LPS_SERVICES} <= set(services)
    for name, command in LPS_SERVICES.items():
        assert command_line(services[name]) == command, name


def test_the_api_and_rabbitmq_with_its_management_ui_are_published(services):
    assert 8080 in host_ports(services["gateway"])
    assert {5672, 15672} <= host_ports(services["rabbitmq"])
    assert "management" in services["rabbitmq"]["image"]
    assert services["rabbitmq"]["image"].startswith("rabbitmq:3")


def test_every_lps_variable_named_anywhere_is_a_setting(services):
    named = set(re.findall(r"\bLPS_[A-Z0-9_]+", COMPOSE_FILE.read_text() + DOCKERFILE.read_text()))
    for service in services.values():
        named |= {name for name in environment(service) if name.startswith("LPS_")}
    assert named, "the stack configures LPS through LPS_* variables"
    assert named <= SETTING_NAMES, f"not settings: {sorted(named - SETTING_NAMES)}"


def test_mongodb_is_a_replica_set_initiated_by_its_healthcheck_and_named_in_the_url(services):
    mongo = services["mongo"]
    assert mongo["image"].startswith("mongo:7")
    replica_set = re.search(r"--replSet[ =](\S+)", command_line(mongo)).group(1)
    assert "rs.initiate" in " ".join(mongo["healthcheck"]["test"])
    for name in LPS_SERVICES:
        url = environment(services[name])["LPS_MONGO_URL"]
        assert f"replicaSet={replica_set}" in url, name
        assert "mongodb://mongo:27017/" in url, name


def test_search_workers_can_scale_without_a_fixed_name_or_host_port(services):
    worker = services["search-worker"]
    assert "container_name" not in worker
    assert not worker.get("ports")
    assert environment(worker)["LPS_BROWSER_PATH"] == "/usr/bin/chromium"


def test_every_lps_service_is_health_checked_or_waits_for_healthy_services(services):
    for name in LPS_SERVICES:
        service = services[name]
        depends_on = service.get("depends_on") or {}
        assert isinstance(depends_on, dict), f"{name}: depends_on needs conditions"
        for dependency, condition in depends_on.items():
            assert condition["condition"] == "service_healthy", f"{name} -> {dependency}"
            assert "healthcheck" in services[dependency], f"{name} waits for {dependency}, which has no healthcheck"
        assert "healthcheck" in service or depends_on, name
        assert {"mongo", "rabbitmq"} <= set(depends_on), name
    assert "/readyz" in " ".join(services["gateway"]["healthcheck"]["test"])


def test_lps_services_are_restarted_by_docker_from_the_one_image(services):
    for name in LPS_SERVICES:
        service = services[name]
        assert service.get("restart") in {"always", "unless-stopped", "on-failure"}, name
        assert service.get("build") == ".", name
    assert len({services[name]["image"] for name in LPS_SERVICES}) == 1


def test_the_image_installs_debian_chromium_and_never_downloads_browsers():
    instructions = dockerfile_instructions()
    assert instructions[0] == "FROM python:3.13-slim-bookworm"
    runs = [line for line in instructions if line.startswith("RUN ")]
    assert any("apt-get install" in run and re.search(r"\bchromium\b", run) for run in runs)
    assert not any("playwright install" in run for run in runs)
    assert "LPS_BROWSER_PATH=/usr/bin/chromium" in " ".join(instructions)


# --- the image's files, installed and run as docker-compose.yml runs them -----------------------------------------
def copy_image_files(into: Path) -> Path:
    """Lays out what the Dockerfile's COPY instructions put in its WORKDIR, from the build context, under `into`;
    returns that WORKDIR."""
    context = build_context()
    instructions = dockerfile_instructions()
    (workdir,) = [line.split(None, 1)[1] for line in instructions if line.startswith("WORKDIR ")]
    app = into / workdir.lstrip("/")
    for line in instructions:
        if not line.startswith("COPY "):
            continue
        *sources, destination = line.split()[1:]
        assert not any(source.startswith("--") for source in sources), f"flags are not laid out here: {line}"
        target = app / destination
        for source in sources:
            source = source.rstrip("/")
            if (ROOT / source).is_dir():
                under = "" if source == "." else f"{source}/"
                chosen = {path: target / path.removeprefix(under) for path in context if path.startswith(under)}
            else:
                assert source in context, f"{line}: {source} is excluded by .dockerignore"
                chosen = {source: target / Path(source).name if destination.endswith("/") else target}
            for path, placed in chosen.items():
                placed.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(ROOT / path, placed)
    return app


def test_the_build_context_holds_no_local_state_or_secrets(tmp_path: Path):
    kept_out = [".env", ".env.production", ".git/config", ".venv/bin/python", ".lps/dev.json", "tests/test_x.py"]
    kept_out += ["tools/__pycache__/cli.cpython-313.pyc", "lps.egg-info/PKG-INFO", ".screens/jobs.png"]
    sent = ["pyproject.toml", "README.md", "tools/cli.py", "service/ui/templates/page.html", "tools/demo_data/x.json"]
    for path in kept_out + sent:
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text("x")
    assert build_context(tmp_path) == set(sent)


@pytest.mark.processes
def test_the_image_runs_every_command_of_docker_compose(services, settings: Settings, tmp_path: Path):
    """What `docker build` would install, installed into a fresh virtualenv (no Docker engine here): every LPS
    service's command starts (its --help), and the gateway serves /healthz and its healthcheck passes."""
    app = copy_image_files(tmp_path / "image")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=60)
    # Wheels come from pip's cache and the configured indexes, as the image's `pip install .` does.
    installed = subprocess.run(
        [venv / "bin/python", "-m", "pip", "install", "--quiet", "--no-compile", "."],
        cwd=app,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert installed.returncode == 0, installed.stderr
    # The embedded store's packages are an extra the image does not install: its services run without them.
    listed = subprocess.run([venv / "bin/python", "-m", "pip", "list"], capture_output=True, text=True, timeout=60)
    assert not {"mongoeco", "rpds-py", "sortedcontainers"} & {
        line.split()[0].lower() for line in listed.stdout.splitlines()[2:]
    }
    # Nothing of this checkout or its .venv: the image's interpreter, its PATH, its working directory.
    env = {name: value for name, value in os.environ.items() if name not in {"VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME"}}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"

    def run(*command: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(command, cwd=app, env=env, capture_output=True, text=True, timeout=60)

    for name in LPS_SERVICES:
        command = services[name]["command"]
        helped = run(*command, "--help")
        assert helped.returncode == 0, f"{name}: {' '.join(command)} --help\n{helped.stderr}"
        assert "usage: lps" in helped.stdout, name

    port = free_port()
    gateway_env = env | settings.to_env() | {"LPS_HTTP_HOST": "127.0.0.1", "LPS_HTTP_PORT": str(port)}
    log_path = tmp_path / "gateway.log"
    with log_path.open("wb") as log:
        gateway = subprocess.Popen(services["gateway"]["command"], cwd=app, env=gateway_env, stderr=log)
    try:
        assert wait_for_port("127.0.0.1", port, 40), "the gateway did not listen"
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10) as health:
            assert health.status == 200
        healthcheck = [part.replace(":8080/", f":{port}/") for part in services["gateway"]["healthcheck"]["test"]]
        assert healthcheck[0] == "CMD"
        checked = run(*healthcheck[1:])
        assert checked.returncode == 0, checked.stderr
    finally:
        gateway.terminate()
        gateway.wait(timeout=20)
    assert gateway.returncode == 0, log_path.read_text()
