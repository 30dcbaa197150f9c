"""The image's files installed and run as docker-compose.yml runs them: what `docker build` would install,
in a fresh virtualenv (no Docker engine runs here)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from embedded_store.server import wait_for_port
from infra.settings import Settings
from tests.compose_files import LPS_SERVICES, ROOT, build_context, dockerfile_instructions
from tests.compose_files import services as services
from tests.ports import free_port


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
