"""docker-compose.yml and the Dockerfile: what an operator relies on, by structure (no Docker engine runs
here)."""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path
from typing import Any

from infra.settings import Settings
from tests.compose_files import COMPOSE_FILE, DOCKERFILE, LPS_SERVICES, build_context, dockerfile_instructions
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


def test_the_build_context_holds_no_local_state_or_secrets(tmp_path: Path):
    kept_out = [".env", ".env.production", ".git/config", ".venv/bin/python", ".lps/dev.json", "tests/test_x.py"]
    kept_out += ["tools/__pycache__/cli.cpython-313.pyc", "lps.egg-info/PKG-INFO", ".screens/jobs.png"]
    sent = ["pyproject.toml", "README.md", "tools/cli.py", "service/ui/templates/page.html", "tools/demo_data/x.json"]
    for path in kept_out + sent:
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text("x")
    assert build_context(tmp_path) == set(sent)
