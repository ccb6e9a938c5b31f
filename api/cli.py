"""`turnstile`: serve the API, manage app keys, write the OpenAPI file."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from api import cli_audit
from api.cli_workers import add_commands as add_worker_commands

OPENAPI_PATH = Path(__file__).resolve().parent.parent / "openapi" / "openapi.json"


def cmd_serve(args: argparse.Namespace) -> int:
    """Run the API with uvicorn."""
    import uvicorn

    from api.app import create_app
    from api.cli_workers import notifier_for
    from store.factory import database_url, open_store

    url = database_url()
    store = open_store(url)
    notifier = notifier_for(store)
    app = create_app(store, notifier=notifier)
    print(f"turnstile: serving on http://{args.host}:{args.port} (store: {url}); docs at /schema", flush=True)
    try:
        uvicorn.run(app, host=args.host, port=args.port, log_level="info")
    finally:
        notifier.close()
    return 0


def cmd_keys_create(args: argparse.Namespace) -> int:
    """Create an app key and print it once."""
    from service.tokens import new_secret, secret_hash
    from store.factory import database_url, open_store

    store = open_store(database_url())
    key = new_secret("app")
    store.create_app_key(args.name, secret_hash(key))
    store.close()
    print(key)
    return 0


def cmd_openapi(args: argparse.Namespace) -> int:
    """Write (or with --check, compare) openapi/openapi.json."""
    from api.app import create_app
    from api.openapi_schema import openapi_json
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


def parser() -> argparse.ArgumentParser:
    """The command line."""
    root = argparse.ArgumentParser(prog="turnstile", description=__doc__)
    sub = root.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="serve the REST API")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.set_defaults(run=cmd_serve)
    keys = sub.add_parser("keys", help="app keys").add_subparsers(dest="keys_command", required=True)
    create = keys.add_parser("create", help="create an app key and print it (shown once)")
    create.add_argument("name")
    create.set_defaults(run=cmd_keys_create)
    openapi = sub.add_parser("openapi", help="write openapi/openapi.json from the code")
    openapi.add_argument("--check", action="store_true", help="fail if the file is stale")
    openapi.set_defaults(run=cmd_openapi)
    add_worker_commands(sub)
    cli_audit.register(sub)
    return root


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `turnstile` command."""
    args = parser().parse_args(argv)
    return int(args.run(args))


if __name__ == "__main__":
    raise SystemExit(main())
