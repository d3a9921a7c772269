# An agent-ready Linux desktop: Xvfb, a session bus with its own accessibility bus, openbox, a few
# real apps, and winctl's MCP server over streamable HTTP on port 8765 (docs/container.md).
#   docker build -t winactions-desktop .
#   docker run --rm -p 127.0.0.1:8765:8765 winactions-desktop     # prints the token it made

# The wheel, built from this checkout.
FROM debian:bookworm-slim AS wheel
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends python3-venv \
    && rm -rf /var/lib/apt/lists/* \
    && python3 -m venv /build
COPY pyproject.toml README.md LICENSE /src/
COPY src /src/src
RUN /build/bin/pip wheel --no-cache-dir --no-deps --wheel-dir /dist /src

FROM debian:bookworm-slim
SHELL ["/bin/bash", "-o", "pipefail", "-c"]
# One list of Debian packages: the demo's (scripts/setup.sh reads it too) and the image's own.
COPY scripts/packages/demo.txt container/packages.txt /tmp/packages/
# Versions come from Debian 12's own archive, which the tag pins.
# hadolint ignore=DL3008
RUN apt-get update \
    && sed -e 's/#.*//' /tmp/packages/*.txt | tr -s ' \t' '\n' | sed '/^$/d' | sort -u \
       | xargs apt-get install -y --no-install-recommends \
    && rm -rf /var/lib/apt/lists/* /tmp/packages
COPY --from=wheel /dist /tmp/dist
RUN python3 -m venv /opt/winactions \
    && /opt/winactions/bin/pip install --no-cache-dir "$(ls /tmp/dist/winactions-*.whl)[mcp]" \
    && rm -rf /tmp/dist \
    && useradd --create-home --uid 1000 --shell /bin/bash agent
COPY container/entrypoint.sh /usr/local/bin/winactions-desktop

ENV PATH="/opt/winactions/bin:$PATH" XDG_RUNTIME_DIR=/tmp/winactions-desktop
USER 1000:1000
WORKDIR /home/agent
EXPOSE 8765
HEALTHCHECK --interval=30s --timeout=10s --start-period=30s --retries=3 CMD ["winactions-desktop", "health"]
ENTRYPOINT ["tini", "--", "winactions-desktop"]
