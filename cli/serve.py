"""`turnstile serve`, `turnstile keys create` and `turnstile openapi`: the API side."""

from __future__ import annotations

import argparse
import sys
from typing import Any

DEFAULTS = argparse.ArgumentDefaultsHelpFormatter


def cmd_serve(args: argparse.Namespace) -> int:
    """Run the API with uvicorn on the configured store, with the projections notifier it calls for."""
    import uvicorn

    from api.app import create_app
    from settings import Settings
    from store.factory import open_store
    from workers.notify import notifier_for

    settings = Settings.from_env()
    store = open_store(settings.database_url)
    notifier = notifier_for(settings, store)
    app = create_app(store, notifier=notifier, cors_origins=settings.cors_origins,
                     streams_per_caller=settings.streams_per_caller)
    print(f"turnstile: serving on http://{args.host}:{args.port} (store: {settings.database_url}); docs at /schema",
          flush=True)
    try:
        # Open streams get a few seconds at shutdown, then end: their clients reconnect (elsewhere) and resume.
        uvicorn.run(app, host=args.host, port=args.port, log_level="info", timeout_graceful_shutdown=5)
    finally:
        notifier.close()
        store.close()
    return 0


def cmd_keys_create(args: argparse.Namespace) -> int:
    """Create an app key and print it once (only its hash is kept)."""
    from service.tokens import new_secret, secret_hash
    from settings import Settings
    from store.factory import open_store

    store = open_store(Settings.from_env().database_url)
    try:
        key = new_secret("app")
        store.create_app_key(args.name, secret_hash(key))
    finally:
        store.close()
    print(key)
    return 0


def cmd_openapi(args: argparse.Namespace) -> int:
    """Write (or with --check, compare) openapi/openapi.json."""
    from api.app import create_app
    from api.openapi_schema import OPENAPI_PATH, openapi_json
    from store.factory import open_store

    text = openapi_json(create_app(open_store("sqlite:///:memory:")).openapi_schema)
    if args.check:
        if not OPENAPI_PATH.exists() or OPENAPI_PATH.read_bytes() != text:
            print("openapi/openapi.json is stale: run `uv run turnstile openapi`", file=sys.stderr)
            return 1
        return 0
    OPENAPI_PATH.write_bytes(text)
    print(f"wrote {OPENAPI_PATH}")
    return 0


def cmd_problems(args: argparse.Namespace) -> int:
    """Print every problem code the API answers with, as the README's Markdown table."""
    from api.problem_codes import table

    print(table(), end="")
    return 0


def register(sub: Any) -> None:
    """Add `serve`, `keys`, `openapi` and `problems`."""
    serve = sub.add_parser("serve", help="serve the REST API (and its docs page at /schema)", formatter_class=DEFAULTS,
                           description="Serve the API on the store named by TURNSTILE_DATABASE_URL (default: a "
                                       "SQLite file turnstile.db in this folder).")
    serve.add_argument("--host", default="127.0.0.1", help="the address to listen on")
    serve.add_argument("--port", type=int, default=8000, help="the port to listen on")
    serve.set_defaults(run=cmd_serve)
    keys = sub.add_parser("keys", help="app keys").add_subparsers(dest="keys_command", required=True)
    create = keys.add_parser("create", help="create an app key and print it (shown once)", formatter_class=DEFAULTS)
    create.add_argument("name", help="the app's name, shown to operators")
    create.set_defaults(run=cmd_keys_create)
    openapi = sub.add_parser("openapi", help="write openapi/openapi.json from the code", formatter_class=DEFAULTS)
    openapi.add_argument("--check", action="store_true", help="only compare: exit 1 if the file is stale")
    openapi.set_defaults(run=cmd_openapi)
    problems = sub.add_parser("problems", help="print the API's problem codes (the README's table)",
                              formatter_class=DEFAULTS)
    problems.set_defaults(run=cmd_problems)
