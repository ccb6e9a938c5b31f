# The Turnstile API and worker image (used by compose.yaml).
FROM python:3.11-slim
COPY --from=ghcr.io/astral-sh/uv:0.9 /uv /usr/local/bin/uv
WORKDIR /app
COPY pyproject.toml uv.lock README.md ./
COPY api api
COPY cli cli
COPY settings.py settings.py
COPY domain domain
COPY projections projections
COPY service service
COPY store store
COPY workers workers
RUN uv sync --locked --no-default-groups
ENV PATH="/app/.venv/bin:$PATH"
EXPOSE 8000
CMD ["turnstile", "serve", "--host", "0.0.0.0", "--port", "8000"]
