"""OpenAPI names a generated client can use: unique, game-prefixed schema names and titles, typed headers.

Litestar names a component after its class and, when two games have a class of one name (`EndTurn`, `Passed`),
after its module path; each keeps the class name as its `title`, and client generators refuse two schemas of one
title. Here every command and event is named after its tag (`expect-delays.end-turn` is `ExpectDelaysEndTurn`,
`match.started` is `MatchStarted`), and every component's title is its (unique) name.
"""

from __future__ import annotations

from typing import Any

from litestar.openapi.spec import OpenAPI, OpenAPIType, Reference, Schema

from api.openapi_schema import OPERATIONS, walk

PREFIX = "#/components/schemas/"
TEXT = "text/plain"
EVENT_STREAM = "text/event-stream"


def pascal(tag: str) -> str:
    """`expect-delays.end-turn` -> `ExpectDelaysEndTurn`."""
    return "".join(word[:1].upper() + word[1:] for word in tag.replace(".", "-").split("-") if word)


def tag_of(schema: Any) -> str | None:
    """The `type` constant of a tagged command or event schema (`game.verb`), else None."""
    prop = (schema.properties or {}).get("type") if isinstance(schema, Schema) else None
    const = prop.const if isinstance(prop, Schema) else None
    return const if isinstance(const, str) and "." in const else None


def name_components(openapi: OpenAPI) -> OpenAPI:
    """Rename tagged schemas after their tags, point every reference at the new names, title each by its name."""
    assert openapi.components is not None
    schemas = openapi.components.schemas or {}
    renamed: dict[str, str] = {}
    for key, schema in schemas.items():
        tag = tag_of(schema)
        if tag is not None:
            renamed[key] = pascal(tag)
    names = [renamed.get(key, key) for key in schemas]
    if len(set(names)) != len(names):
        raise ValueError(f"two OpenAPI schemas would share a name: {sorted(n for n in names if names.count(n) > 1)}")
    openapi.components.schemas = {renamed.get(key, key): schema for key, schema in schemas.items()}
    for name, schema in openapi.components.schemas.items():
        if isinstance(schema, Schema):
            schema.title = name

    def visit(node: Any) -> None:
        if isinstance(node, Reference) and node.ref.startswith(PREFIX) and node.ref.removeprefix(PREFIX) in renamed:
            node.ref = PREFIX + renamed[node.ref.removeprefix(PREFIX)]

    walk(openapi, visit)
    return openapi


def type_headers(openapi: OpenAPI) -> OpenAPI:
    """Every response header says it is a string (openapi-spec-validator requires a schema on each)."""
    for path_item in (openapi.paths or {}).values():
        for operation in (getattr(path_item, name) for name in OPERATIONS):
            for response in (getattr(operation, "responses", None) or {}).values():
                for header in (getattr(response, "headers", None) or {}).values():
                    if getattr(header, "schema", None) is None:
                        header.schema = Schema(type=OpenAPIType.STRING)
    return openapi


def offer_plain_text(openapi: OpenAPI, media_type: str) -> OpenAPI:
    """Responses of `media_type` (NDJSON records) are also offered as `text/plain`, which the API sends to a client
    that asks for it first (`Accept: text/plain`), and which generic clients and generators know how to read."""
    for path_item in (openapi.paths or {}).values():
        for operation in (getattr(path_item, name) for name in OPERATIONS):
            for response in (getattr(operation, "responses", None) or {}).values():
                content = getattr(response, "content", None)
                if content and media_type in content and TEXT not in content:
                    content[TEXT] = content[media_type]
    return openapi


def describe_event_streams(openapi: OpenAPI) -> OpenAPI:
    """An event stream's schema is that of each event on it (`id`, `event`, and `data`, a JSON text of the schema
    the handler declared), as SSE clients and schemathesis read it."""
    for path_item in (openapi.paths or {}).values():
        for operation in (getattr(path_item, name) for name in OPERATIONS):
            for response in (getattr(operation, "responses", None) or {}).values():
                media = (getattr(response, "content", None) or {}).get(EVENT_STREAM)
                if media is None or not isinstance(media.schema, Reference):
                    continue
                media.schema = Schema(
                    type=OpenAPIType.OBJECT, required=["data"], description="One event of the stream",
                    properties={
                        "id": Schema(type=OpenAPIType.STRING, description="What to resume after (Last-Event-ID)"),
                        "event": Schema(type=OpenAPIType.STRING, description="What kind of event"),
                        "data": Schema(type=OpenAPIType.STRING, content_media_type="application/json",
                                       content_schema=media.schema, description="The event, as JSON"),
                    })
    return openapi

