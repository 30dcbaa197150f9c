"""docker-compose.yml, the Dockerfile and .dockerignore as the tests read them: the compose services, the Dockerfile's
instructions, and the files `docker build` sends."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from docker.utils.build import exclude_paths

ROOT = Path(__file__).resolve().parent.parent
COMPOSE_FILE = ROOT / "docker-compose.yml"
DOCKERFILE = ROOT / "Dockerfile"
DOCKERIGNORE = ROOT / ".dockerignore"
LPS_SERVICES = {
    "gateway": "lps gateway",
    "search-worker": "lps worker search",
    "outbox-worker": "lps worker outbox",
    "reconciler": "lps reconciler",
}


@pytest.fixture(scope="module")
def services() -> dict[str, dict[str, Any]]:
    return yaml.safe_load(COMPOSE_FILE.read_text(encoding="utf-8"))["services"]


def dockerfile_instructions() -> list[str]:
    """Instructions with continuation lines joined and comments dropped."""
    text = DOCKERFILE.read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("#")]
    joined = re.sub(r"\\\n", " ", "\n".join(lines))
    return [line.strip() for line in joined.splitlines() if line.strip()]


def build_context(directory: Path = ROOT) -> set[str]:
    """The files `docker build` sends from `directory` (relative paths): every file the repository's .dockerignore
    does not exclude, by Docker's own matching rules (docker-py's implementation of them)."""
    patterns = [
        line.strip()
        for line in DOCKERIGNORE.read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    return {path for path in exclude_paths(str(directory), patterns) if (directory / path).is_file()}
