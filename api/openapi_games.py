"""Each game's own types in the OpenAPI document: typed match options, so a generated client knows the options of
a Metro X match from those of a Terminus one.

The API takes and shows `options` as a JSON object (the game named beside it decides what it means); in the
document that object is one of the games' option schemas, each a component named after its game
(`ExpectDelaysOptions`, ...), made from the game's options type by msgspec, with the options every match takes
(domain/timing.py: `move_deadline`, `abandon_after`, `entropy`, `entropy_deadline`) beside the game's own.
"""

from __future__ import annotations

from typing import Any, get_type_hints

import msgspec
from litestar.openapi.spec import OpenAPI, OpenAPIType, Reference, Schema

from api.openapi_names import PREFIX, pascal
from domain import timing
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
    _, ours = msgspec.json.schema_components([timing.MatchOptions], ref_template=PREFIX + "{name}")
    match_options = next(iter(ours.values()))["properties"]
    for game in GAMES:
        schema, defs = msgspec.json.schema_components([game.options_type], ref_template=PREFIX + "{name}")
        if defs and len(defs) != 1:
            raise ValueError(f"{game.slug}: options refer to other types, which this document does not name yet")
        body = next(iter(defs.values())) if defs else schema[0]
        properties = {**body.get("properties", {}), **match_options}
        components[options_name(game.slug)] = from_json_schema({**body, "properties": properties,
                                                                "title": options_name(game.slug)})
    return components


def type_options(openapi: OpenAPI) -> OpenAPI:
    """Add the games' options components, and make every `options` property one of them."""
    assert openapi.components is not None and openapi.components.schemas is not None
    openapi.components.schemas.update(option_components())
    choices: list[Schema | Reference] = [Reference(ref=PREFIX + options_name(g.slug)) for g in GAMES]
    for holder, nullable in (("CreateMatchRequest", True), ("MatchDetail", False), ("MatchStateAt", False),
                             ("CreateTournamentRequest", False), ("TournamentDetail", False),
                             ("CreatedTournament", False)):
        schema = openapi.components.schemas.get(holder)
        if not isinstance(schema, Schema) or "options" not in (schema.properties or {}):
            continue
        options = [*choices, Schema(type=OpenAPIType.NULL)] if nullable else list(choices)
        described = "The game's options (the schema named after the game named by `game`)"
        assert schema.properties is not None
        schema.properties["options"] = Schema(one_of=options, description=described)
    return openapi


def view_type(game: Any) -> Any:
    """What a game's `view` returns (its annotation): the type of the `view` a client of that game reads."""
    return get_type_hints(game.view)["return"]


def view_components() -> dict[str, dict[str, Schema]]:
    """Each game's view schema and the types it refers to, as components named after the game (`MetroXTableView`,
    `TerminusPlayerView`, ...), by game slug; the first of each is the view itself."""
    out: dict[str, dict[str, Schema]] = {}
    for game in GAMES:
        (root,), defs = msgspec.json.schema_components([view_type(game)], ref_template=PREFIX + "{name}")
        prefix = pascal(game.slug)
        names = {name: name if name.startswith(prefix) else prefix + name for name in defs}

        def renamed(node: Any, names: dict[str, str] = names) -> Any:
            if isinstance(node, dict):
                if "$ref" in node:
                    return {"$ref": PREFIX + names[node["$ref"].removeprefix(PREFIX)]}
                if "prefixItems" in node:  # a fixed-length tuple: generators read arrays of one item schema
                    node = fixed_length_array(node)
                return {key: renamed(value) for key, value in node.items()}
            return [renamed(item) for item in node] if isinstance(node, list) else node

        first = names[root["$ref"].removeprefix(PREFIX)]
        components = {names[name]: from_json_schema({**renamed(body), "title": names[name]})
                      for name, body in defs.items()}
        out[game.slug] = {first: components.pop(first), **components}
    return out


def fixed_length_array(tuple_schema: dict[str, Any]) -> dict[str, Any]:
    """A tuple's JSON Schema (`prefixItems`, `items: false`) as an array of its one item schema (or any of its
    distinct ones) with its length: `items: false` is valid JSON Schema that client generators do not read."""
    items = tuple_schema["prefixItems"]
    distinct = [item for index, item in enumerate(items) if item not in items[:index]]
    rest = {key: value for key, value in tuple_schema.items() if key not in ("prefixItems", "items")}
    return {**rest, "items": distinct[0] if len(distinct) == 1 else {"anyOf": distinct}, "minItems": len(items),
            "maxItems": len(items)}


def type_views(openapi: OpenAPI) -> OpenAPI:
    """Add the games' view components, and make every `view` property one of them (the game named by `game`)."""
    assert openapi.components is not None and openapi.components.schemas is not None
    schemas = openapi.components.schemas
    roots: list[Schema | Reference] = []
    for slug, components in view_components().items():
        for name, schema in components.items():
            if name in schemas and schemas[name] != schema:
                raise ValueError(f"{slug}: the view's {name} differs from the component of that name")
            schemas[name] = schema
        roots.append(Reference(ref=PREFIX + next(iter(components))))
    described = ("The table as the caller may see it: the view of the game named by `game` (its `...View` schema); "
                 "null before the game is set up (a match waiting for its open seats, or its version 1)")
    for holder in ("MatchDetail", "MatchStateAt", "MoveResult"):
        owner = schemas.get(holder)
        if not isinstance(owner, Schema) or owner.properties is None or "view" not in owner.properties:
            raise ValueError(f"{holder} has no `view` to type")
        owner.properties["view"] = Schema(any_of=[*roots, Schema(type=OpenAPIType.NULL)], description=described)
    return openapi
