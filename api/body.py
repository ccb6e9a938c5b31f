"""JSON request bodies: checked at the edge and decoded strictly into the handler's body type.

Litestar decodes a body to plain JSON data and then converts it with msgspec in lax mode (`strict=False`, so
`"5"` becomes 5), with no setting to change that. Handlers receive bodies through `JsonRequest.json`, which
does the whole job in one place instead: media type (415), UTF-8, nesting depth, NUL, then a strict conversion
into the type of the handler's `data` parameter (400 naming the field). The signature model passes the decoded
Struct through unchanged.
"""

from __future__ import annotations

import re
from typing import Any

import msgspec
from litestar import Request
from litestar.exceptions import ValidationException

from api.problems import ApiError
from ledger.events import has_nul
from ledger.json_limits import MAX_DEPTH, too_deep

MAX_BODY_BYTES = 64 * 1024  # create and move bodies are well under 4 KiB; a record to verify has its own limit
_JSON_TYPE = re.compile(r"application/(?:[^;/\s]+\+)?json", re.IGNORECASE)
_AT_PATH = re.compile(r"^(?P<message>.*?) - at `\$\.?(?P<key>[^`]*)`$", re.DOTALL)


def require_json_media_type(content_type: str | None) -> None:
    """415 unless the Content-Type is absent, `application/json` or `application/*+json`, in UTF-8."""
    if not content_type:
        return
    media_type, *params = (part.strip() for part in content_type.split(";"))
    charset = next((p.partition("=")[2].strip('"').lower() for p in params if p.lower().startswith("charset=")),
                   "utf-8")
    if not _JSON_TYPE.fullmatch(media_type) or charset not in ("utf-8", "utf8"):
        raise ApiError(415, "unsupported-media-type",
                       f"this body must be JSON (application/json, UTF-8), not {content_type[:100]!r}")


def decode_body(body: bytes, into: Any) -> Any:
    """The body as `into`, decoded strictly; 400 `invalid-request` for text that is not UTF-8 JSON of that type."""
    if too_deep(body):
        raise ValidationException(detail=f"the body nests deeper than {MAX_DEPTH} levels")
    try:
        data = msgspec.json.decode(body)
    except (msgspec.DecodeError, UnicodeDecodeError) as exc:
        # msgspec reports bad UTF-8 outside strings as malformed JSON: say which it is.
        detail = f"the body is not JSON: {exc}" if _is_utf8(body) else "the body is not valid UTF-8"
        raise ValidationException(detail=detail) from None
    # The escape is a cheap pre-filter; a hit may be an escaped backslash followed by "u0000", so walk to be sure.
    if b"\\u0000" in body and has_nul(data):
        raise ValidationException(detail="a string in the body contains a NUL character (U+0000)")
    try:
        return msgspec.convert(data, into, strict=True)
    except msgspec.ValidationError as exc:
        found = _AT_PATH.match(str(exc))
        message, key = (found["message"], found["key"]) if found else (str(exc), None)
        raise ValidationException(detail="the body does not match its schema",
                                  extra=[{"message": message, "key": key, "source": "body"}]) from None


def _is_utf8(body: bytes) -> bool:
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def text_body(body: bytes, field: str, into: Any) -> Any:
    """A text body taken as is, as the one field `field` of `into`; 400 `invalid-request` when it is not UTF-8 or
    holds a NUL."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise ValidationException(detail="the body is not valid UTF-8") from None
    if "\x00" in text:
        raise ValidationException(detail="the body contains a NUL character (U+0000)")
    try:
        return msgspec.convert({field: text}, into, strict=True)
    except msgspec.ValidationError as exc:
        raise ValidationException(detail=f"the body does not match its schema: {exc}") from None


def media_type_of(content_type: str | None) -> str:
    """The media type of a Content-Type header, lower case, without parameters."""
    return (content_type or "").partition(";")[0].strip().lower()


class JsonRequest(Request[Any, Any, Any]):
    """A request whose JSON body is checked and strictly decoded into the handler's `data` type.

    A handler whose `opt` names a `text_body` (a field and the media types it comes in) also takes a body of those
    types as is, as that one field (e.g. a record to verify, sent as the NDJSON its export gave)."""

    async def json(self) -> Any:
        """The body, decoded into the type of the handler's `data` parameter (JSON data if it has none)."""
        field = self.route_handler.parsed_data_field
        into = field.annotation if field is not None else Any
        as_text = self.route_handler.opt.get("text_body")
        if as_text is not None and media_type_of(self.headers.get("content-type")) in as_text[1]:
            return text_body(await self.body(), as_text[0], into)
        require_json_media_type(self.headers.get("content-type"))
        return decode_body(await self.body(), into)
