"""`turnstile serve`, `turnstile keys create|list|revoke` and `turnstile openapi`: the API side."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from cli.errors import UserError
from cli.help import Defaults

DEFAULTS = Defaults


def positive_int(text: str) -> int:
    """An argparse type: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def default_workers(database_url: str, cpus: int | None = None) -> int:
    """API processes when none are asked for: 1 on SQLite (one writer: more processes would only queue on its file
    lock), one per CPU on PostgreSQL (appends to different matches commit concurrently)."""
    if database_url.startswith("sqlite:"):
        return 1
    return max(1, cpus if cpus is not None else (os.cpu_count() or 1))


def cmd_serve(args: argparse.Namespace) -> int:
    """Run the API with uvicorn (httptools, uvloop, one write per answer) in N worker processes, each with its own
    store and notifier."""
    import uvicorn

    from api.one_write import PROTOCOL
    from service.ops.logs import uvicorn_log_config
    from settings import Settings
    from store.factory import open_store

    settings = Settings.from_env()
    workers = args.workers or settings.workers or default_workers(settings.database_url)
    # Open the store once here: a wrong URL is one line now, not a traceback per worker, and migrations run once.
    from service.log.transparency import LogKeyError, check_key, key_for

    store = open_store(settings.database_url)
    try:  # a bad key is one line now; a SQLite store's own key is made here once, before the workers start
        signer = key_for(settings.log_key, settings.database_url)
        if signer is not None:
            check_key(store, signer)  # not the key that signed the tree: refused here, before any worker starts
        if settings.witness_policy:  # a bad policy file is one line too (a SettingsError)
            from service.log.cosigning import load_policy

            load_policy(settings.witness_policy, signer.verifier().text() if signer else None)
    except LogKeyError as exc:
        raise UserError(str(exc)) from None
    finally:
        store.close()
    if workers > 1:
        share_metrics(settings.metrics_dir)
    print(f"turnstile: serving on http://{args.host}:{args.port} with {workers} worker process"
          f"{'es' if workers > 1 else ''} (store: {settings.database_url}); docs at /schema", flush=True)
    # An import string and a factory, so every worker process builds its own app (api.asgi.create). Each request is
    # one JSON log line of ours (api/observe.py), so uvicorn's own access log stays off unless asked for.
    # Forwarding headers only from the proxies the operator names: uvicorn's own default believes any caller on
    # loopback (FORWARDED_ALLOW_IPS=127.0.0.1,::1), who could then pick the address it is rate-limited as.
    proxies = settings.proxies()
    uvicorn.run("api.asgi:create", factory=True, host=args.host, port=args.port, workers=workers,
                proxy_headers=bool(proxies), forwarded_allow_ips=proxies,
                http=PROTOCOL, loop="uvloop", log_level="info", access_log=args.access_log,
                log_config=uvicorn_log_config(not sys.stderr.isatty(), args.access_log), timeout_graceful_shutdown=10)
    return 0


def share_metrics(folder: str | None) -> str:
    """Let the worker processes (started after this, inheriting the environment) keep their metrics in one folder,
    emptied first (files of processes gone would count again): prometheus-client's multi-process mode."""
    import shutil
    import tempfile

    if folder:
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
    else:
        folder = tempfile.mkdtemp(prefix="turnstile-metrics-")
    from settings import share_with_children

    share_with_children(PROMETHEUS_MULTIPROC_DIR=folder, TURNSTILE_METRICS_DIR=folder)
    return folder


def cmd_keys_create(args: argparse.Namespace) -> int:
    """Create an app key and print it once (only its hash is kept)."""
    from service.matches.tokens import new_secret, secret_hash
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


def cmd_keys_list(args: argparse.Namespace) -> int:
    """Print every app key: id, name, created, last used, revoked; never the key."""
    from settings import Settings
    from store.factory import open_store

    store = open_store(Settings.from_env().database_url)
    try:
        keys = store.app_keys()
    finally:
        store.close()
    print(key_table(keys), end="")
    return 0


def key_table(keys: list[Any]) -> str:
    """App keys as aligned columns (a dash for a date that is not there)."""
    rows = [("ID", "NAME", "CREATED", "LAST USED", "REVOKED")]
    rows += [(k.id, k.name, k.created_at, k.last_used_at or "-", k.revoked_at or "-") for k in keys]
    widths = [max(len(row[n]) for row in rows) for n in range(5)]
    return "".join("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip() + "\n"
                   for row in rows)


def cmd_keys_revoke(args: argparse.Namespace) -> int:
    """Revoke the keys of an app (by name) or one key (by id): they are answered 403 `unknown-app-key` from now on."""
    from settings import Settings
    from store.factory import open_store

    store = open_store(Settings.from_env().database_url)
    try:
        revoked = store.revoke_app_keys(args.key)
    finally:
        store.close()
    if not revoked:
        print(f"turnstile: no unrevoked app key is named or has the id {args.key!r} (see `turnstile keys list`)",
              file=sys.stderr)
        return 1
    print(key_table(revoked), end="")
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
    """Print the problem codes as the README's Markdown table."""
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
    serve.add_argument("--workers", type=positive_int, default=None, metavar="N",
                       help="API processes (default: TURNSTILE_WORKERS, else 1 on SQLite, one per CPU on PostgreSQL)")
    serve.add_argument("--access-log", action="store_true", help="log every request (costs CPU under load)")
    serve.set_defaults(run=cmd_serve)
    keys = sub.add_parser("keys", help="app keys").add_subparsers(dest="keys_command", required=True)
    create = keys.add_parser("create", help="create an app key and print it (shown once)", formatter_class=DEFAULTS)
    create.add_argument("name", help="the app's name, shown to operators")
    create.set_defaults(run=cmd_keys_create)
    listed = keys.add_parser("list", help="list the app keys: id, name, created, last used, revoked (never the key)")
    listed.set_defaults(run=cmd_keys_list)
    revoke = keys.add_parser("revoke", help="revoke an app's keys (by name) or one key (by its id)",
                             description="Revoke app keys: from now on a revoked key is answered 403 unknown-app-key. "
                                         "The key stays listed, with when it was revoked.")
    revoke.add_argument("key", metavar="NAME|ID", help="an app's name (all its keys), or the id `keys list` shows")
    revoke.set_defaults(run=cmd_keys_revoke)
    openapi = sub.add_parser("openapi", help="write openapi/openapi.json from the code", formatter_class=DEFAULTS)
    openapi.add_argument("--check", action="store_true", help="only compare: exit 1 if the file is stale")
    openapi.set_defaults(run=cmd_openapi)
    problems = sub.add_parser("problems", help="print every problem code the API answers (the README's table)")
    problems.set_defaults(run=cmd_problems)
