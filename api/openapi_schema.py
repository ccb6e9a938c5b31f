"""OpenAPI details Litestar leaves out: closed request objects and union discriminators."""

from __future__ import annotations

from typing import Any

import msgspec
from litestar._openapi.schema_generation.plugins.struct import StructSchemaPlugin
from litestar.openapi.spec import Discriminator, OpenAPI, Reference, Schema
from litestar.typing import FieldDefinition


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
        if isinstance(node, Schema):
            if node.one_of and all(tag_of(option) for option in node.one_of):
                mapping = {tag_of(option): option.ref for option in node.one_of}  # type: ignore[union-attr]
                node.discriminator = Discriminator(property_name="type", mapping=mapping)  # type: ignore[arg-type]
            for child in (*(node.one_of or ()), *(node.any_of or ()), *(node.all_of or ()),
                          *(node.properties or {}).values(), node.items, node.additional_properties):
                visit(child)
        elif isinstance(node, dict):
            for value in node.values():
                visit(value)
        elif isinstance(node, list | tuple):
            for value in node:
                visit(value)
        elif hasattr(node, "__dataclass_fields__"):
            for name in node.__dataclass_fields__:
                visit(getattr(node, name))

    visit(openapi)
    return openapi


def openapi_json(openapi: OpenAPI) -> bytes:
    """The document as stable, pretty JSON (the file committed under openapi/)."""
    data = openapi.to_schema()
    return msgspec.json.format(msgspec.json.encode(data, order="sorted"), indent=2) + b"\n"
