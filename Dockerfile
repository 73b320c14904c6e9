# The companion's container image: gunicorn serving the app, its migrations applied at start.
#
#   docker build -t companion .        (or: podman build -t companion .)
#   docker compose up -d               the whole stack: compose.yaml, docs/club.md
#
# Two stages: "build" makes a virtualenv with the app's dependencies (wheels from PyPI, no
# compiler) and compiles the translations; the image itself has Debian's python3, that
# virtualenv and the app's source, and runs as a user without privileges.
#
# Debian's python3 (3.11 on bookworm) rather than python:3.11-slim: the same interpreter
# from the same base in both stages, and a base CI can make itself (.ci/containers: CI
# reaches Debian's mirror and PyPI, not Docker Hub).

FROM docker.io/library/debian:bookworm-slim AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 python3-venv \
 && rm -rf /var/lib/apt/lists/*
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1 PYTHONDONTWRITEBYTECODE=1
# Optional: a bundle of authorities for pip to trust, where a proxy between the build and
# PyPI presents its own certificate (mounted for the build, never copied into the image:
# .ci/containers does so). Unset, pip trusts its own.
ARG PIP_CERT
# The dependencies first (pyproject.toml's list only), so a change to the code alone reuses
# this layer.
COPY pyproject.toml /app/
RUN python3 -m venv /opt/venv \
 && python3 -c 'import tomllib; print("\n".join(tomllib.load(open("/app/pyproject.toml", "rb"))["project"]["dependencies"]))' > /tmp/requirements.txt \
 && /opt/venv/bin/pip install -r /tmp/requirements.txt \
 && /opt/venv/bin/pip uninstall -y pip setuptools
# The app runs from its source folder (it finds ../templates and ../static beside the
# package), not as an installed package.
COPY . /app
WORKDIR /app
# The catalogues compiled here: the app cannot write into its source folder at run time.
RUN PYTHONPATH=/app /opt/venv/bin/python -c 'from companion.web.device import catalogue_folders, compile_catalogues; [compile_catalogues(f) for f in catalogue_folders()]' \
 && find /app -name '*.mo' | grep -q . \
 && /opt/venv/bin/python -m compileall -q /app/companion > /dev/null


FROM docker.io/library/debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 \
 && apt-get clean && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin /var/log/apt /var/log/*.log \
 && useradd --uid 10001 --user-group --home-dir /app --no-create-home \
            --shell /usr/sbin/nologin companion
COPY --from=build /opt/venv /opt/venv
COPY --from=build /app /app
# instance/: the secret key the app makes once when SECRET_KEY is not set (and the SQLite
# database when DATABASE_URL is not set): the one folder the app writes to, a volume.
RUN install -d -o companion -g companion -m 0700 /app/instance
ENV PATH=/opt/venv/bin:$PATH PYTHONPATH=/app PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 \
    FLASK_APP=companion PORT=5000
WORKDIR /app
USER companion
VOLUME /app/instance
EXPOSE 5000
# The home page, from inside the container (a second python process, every 30 s).
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
  CMD ["python3", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/' % os.environ.get('PORT', '5000'), timeout=8)"]
ENTRYPOINT ["/app/deploy/entrypoint.sh"]
