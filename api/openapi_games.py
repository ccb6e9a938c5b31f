"""Each game's own types in the OpenAPI document: typed match options, so a generated client knows the options of
a Metro X match from those of a Terminus one.

The API takes and shows `options` as a JSON object (the game named beside it decides what it means); in the
document that object is one of the games' option schemas, each a component named after its game
(`ExpectDelaysOptions`, ...), made from the game's options type by msgspec.
"""

from __future__ import annotations

from typing import Any

import msgspec
from litestar.openapi.spec import OpenAPI, OpenAPIType, Reference, Schema

from api.openapi_names import PREFIX, pascal
from domain.catalog import GAMES

_ALIASES = Schema.field_aliases()


def from_json_schema(data: Any) -> Any:
    """A JSON Schema (as msgspec writes it) as Litestar's OpenAPI objects."""
    if isinstance(data, list):
        return [from_json_schema(item) for item in data]
    if not isinstance(data, dict):
        return data
    if "$ref" in data:
        return Reference(ref=data["$ref"])
    fields: dict[str, Any] = {}
    for key, value in data.items():
        name = _ALIASES.get(key) or key
        if name == "properties":
            fields[name] = {prop: from_json_schema(schema) for prop, schema in value.items()}
        elif name == "type":
            fields[name] = [OpenAPIType(t) for t in value] if isinstance(value, list) else OpenAPIType(value)
        else:
            fields[name] = from_json_schema(value)
    return Schema(**fields)


def options_name(slug: str) -> str:
    """The component name of a game's options: `metro-x` -> `MetroXOptions`."""
    return f"{pascal(slug)}Options"


def option_components() -> dict[str, Schema]:
    """Each registered game's options schema, by component name."""
    components = {}
    for game in GAMES:
        schema, defs = msgspec.json.schema_components([game.options_type], ref_template=PREFIX + "{name}")
        if defs and len(defs) != 1:
            raise ValueError(f"{game.slug}: options refer to other types, which this document does not name yet")
        body = next(iter(defs.values())) if defs else schema[0]
        components[options_name(game.slug)] = from_json_schema({**body, "title": options_name(game.slug)})
    return components


def type_options(openapi: OpenAPI) -> OpenAPI:
    """Add the games' options components, and make every `options` property one of them."""
    assert openapi.components is not None and openapi.components.schemas is not None
    openapi.components.schemas.update(option_components())
    choices: list[Schema | Reference] = [Reference(ref=PREFIX + options_name(g.slug)) for g in GAMES]
    for holder, nullable in (("CreateMatchRequest", True), ("MatchDetail", False), ("MatchStateAt", False)):
        schema = openapi.components.schemas.get(holder)
        if not isinstance(schema, Schema) or "options" not in (schema.properties or {}):
            continue
        options = [*choices, Schema(type=OpenAPIType.NULL)] if nullable else list(choices)
        described = "The game's options (the schema named after the game named by `game`)"
        assert schema.properties is not None
        schema.properties["options"] = Schema(one_of=options, description=described)
    return openapi
