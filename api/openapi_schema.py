"""OpenAPI details Litestar leaves out: closed request objects, union discriminators, and no NUL in requests."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
from litestar._openapi.schema_generation.plugins.struct import StructSchemaPlugin
from litestar.openapi.spec import Discriminator, OpenAPI, OpenAPIType, Reference, Schema
from litestar.typing import FieldDefinition

from ledger.json_limits import MAX_DEPTH

NO_NUL = "^[^\\u0000]*$"  # the API refuses U+0000 in every string of a request (api.edge, api.body)
JSON_VALUE = "JsonValue"
OPERATIONS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


OPENAPI_PATH = Path(__file__).resolve().parent.parent / "openapi" / "openapi.json"  # the committed document


class ClosedStructSchemaPlugin(StructSchemaPlugin):
    """Structs that forbid unknown fields say so (`additionalProperties: false`) in their schema."""

    def to_openapi_schema(self, field_definition: FieldDefinition, schema_creator: Any) -> Schema:
        """The Struct's schema, closed when the Struct rejects unknown fields."""
        schema = super().to_openapi_schema(field_definition, schema_creator)
        if field_definition.type_.__struct_config__.forbid_unknown_fields:
            schema.additional_properties = False
        return schema


def add_discriminators(openapi: OpenAPI) -> OpenAPI:
    """Give every `oneOf` of tagged Structs a `type` discriminator with its mapping."""
    components = openapi.components.schemas if openapi.components and openapi.components.schemas else {}

    def tag_of(ref: Any) -> str | None:
        if not isinstance(ref, Reference):
            return None
        target = components.get(ref.ref.rsplit("/", 1)[-1])
        prop = (target.properties or {}).get("type") if isinstance(target, Schema) else None
        return prop.const if isinstance(prop, Schema) and isinstance(prop.const, str) else None

    def visit(node: Any) -> None:
        if isinstance(node, Schema) and node.one_of and all(tag_of(option) for option in node.one_of):
            mapping = {tag_of(option): option.ref for option in node.one_of}  # type: ignore[union-attr]
            node.discriminator = Discriminator(property_name="type", mapping=mapping)  # type: ignore[arg-type]

    walk(openapi, visit)
    return openapi


def walk(node: Any, visit: Callable[[Any], None]) -> None:
    """Call `visit` on every object of an OpenAPI document (schemas, references, operations...), depth first."""
    visit(node)
    if isinstance(node, dict):
        children: Any = node.values()
    elif isinstance(node, list | tuple):
        children = node
    elif hasattr(node, "__dataclass_fields__"):
        children = (getattr(node, name) for name in node.__dataclass_fields__)
    else:
        return
    for child in children:
        walk(child, visit)


def forbid_nul(openapi: OpenAPI) -> OpenAPI:
    """Every string a request may carry (parameters, headers, bodies, free JSON in them) says it holds no U+0000,
    so schema-valid input is never refused for one."""
    assert openapi.components is not None
    components = openapi.components.schemas = dict(openapi.components.schemas or {})
    any_json = Reference(ref=f"#/components/schemas/{JSON_VALUE}")
    components[JSON_VALUE] = Schema(
        title=JSON_VALUE, description=f"Any JSON value whose strings (object keys too) hold no U+0000, nested at most "
                                      f"{MAX_DEPTH} levels deep",
        one_of=[Schema(type=OpenAPIType.NULL), Schema(type=OpenAPIType.BOOLEAN), Schema(type=OpenAPIType.NUMBER),
                Schema(type=OpenAPIType.STRING, pattern=NO_NUL), Schema(type=OpenAPIType.ARRAY, items=any_json),
                Schema(type=OpenAPIType.OBJECT, property_names=Schema(pattern=NO_NUL), additional_properties=any_json)])
    seen: set[str] = {JSON_VALUE}
    used: list[bool] = []

    def closed(node: Any) -> Any:
        """`node`, or the JSON value schema when `node` accepts anything."""
        if node == Schema() or node is True:
            used.append(True)
            return any_json
        return node

    def visit(node: Any, patterned: bool = False) -> None:
        """Close `node` and what it holds; `patterned`: a pattern around it already applies to its strings."""
        if isinstance(node, Reference):
            name = node.ref.rsplit("/", 1)[-1]
            if name not in seen:
                seen.add(name)
                visit(components.get(name))
            return
        if not isinstance(node, Schema):
            return
        types = node.type if isinstance(node.type, list | tuple) else [node.type]
        if OpenAPIType.STRING in types and not patterned and node.pattern is None and node.const is None \
                and node.enum is None:
            node.pattern = NO_NUL
        if OpenAPIType.OBJECT in types and not node.properties:
            node.property_names = node.property_names or Schema(pattern=NO_NUL)
            node.additional_properties = closed(node.additional_properties)
        if node.properties:
            node.properties = {key: closed(value) for key, value in node.properties.items()}
        if node.items is not None:
            node.items = closed(node.items)
        for option in (*(node.one_of or ()), *(node.any_of or ()), *(node.all_of or ())):
            visit(option, patterned or node.pattern is not None)
        for child in (*(node.properties or {}).values(), node.items, node.additional_properties):
            visit(child)

    for path_item in (openapi.paths or {}).values():
        for operation in (getattr(path_item, name) for name in OPERATIONS):
            if operation is None:
                continue
            for parameter in operation.parameters or ():
                visit(getattr(parameter, "schema", None))
            for media in (getattr(operation.request_body, "content", None) or {}).values():
                visit(media.schema)
    if not used:  # no request takes free JSON: the (recursive) schema would only trouble client generators
        del components[JSON_VALUE]
    return openapi


def openapi_json(openapi: OpenAPI) -> bytes:
    """The document as stable, pretty JSON (the file committed under openapi/)."""
    data = openapi.to_schema()
    return msgspec.json.format(msgspec.json.encode(data, order="sorted"), indent=2) + b"\n"
