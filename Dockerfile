# One image for every LPS process: docker-compose.yml picks the command (gateway, worker pools, reconciler).
FROM python:3.13-slim-bookworm

# Searches drive Debian's Chromium through Playwright's executable_path (LPS_BROWSER_PATH): the browser comes
# from apt, never from Playwright's own browser download. Noto CJK makes saved screenshots of Korean pages
# readable.
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium fonts-noto-cjk \
    && rm -rf /var/lib/apt/lists/*

ENV PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    LPS_BROWSER_PATH=/usr/bin/chromium \
    LPS_HTTP_HOST=0.0.0.0

WORKDIR /app
# The whole build context (.dockerignore keeps out tests, docs, local state and secrets): which packages the image
# installs is pyproject.toml's one list, never a second one here. tests/processes/test_compose_image.py installs this
# file set into a fresh virtualenv and runs every command of docker-compose.yml.
COPY . ./
# No extras: the embedded store's packages (`lps[embedded]`: mongoeco, rpds-py, sortedcontainers) are for dev and
# tests; every service of docker-compose.yml talks to its MongoDB (LPS_MONGO_URL).
RUN pip install .

# Chromium runs without its sandbox (actors/browser.py): at least it does not run as root.
RUN useradd --create-home --uid 10001 lps
USER lps

EXPOSE 8080
CMD ["lps", "gateway"]
