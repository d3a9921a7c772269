"""Tool input schemas flat enough for every MCP client, with ids and names apart.

Clients strip or choke on JSON Schema's references and unions (`$ref`/`$defs`, `anyOf`,
`oneOf`, `allOf`), so a tool's schema has none: a definition is written where it is used, an
optional `X | None` is X (leaving it out says None), and a parameter that takes a list or its
command-line spelling as a string is the list.

A parameter that takes an element (`click`'s `id`, `screenshot`'s `element`) is two fields:
the element's id, an integer (`{"id": 7}`), and its name or visual target, a string
(`{"name": "Save"}`, `{"name": "text:Save"}`; `element_name` beside `element`). A string in
the id field (`{"id": "7"}`) is refused, never taken for the id 7 or the name "7": on the
command line a bare `7` is the id and `name:7` the name; here each has its own field.
"""

from __future__ import annotations

import re
from typing import Any

from winactions.errors import InvalidInput, shown
from winactions.session.references import NAME_PREFIX, is_id

_ID_OR = re.compile(r"^(?:element )?id(?: from [^,]*)?(?:, or | or )", re.IGNORECASE)
_UNIONS = ("anyOf", "oneOf", "allOf")


def untitled(schema: Any) -> Any:
    """A leaner JSON schema that means the same to a client: no `title` keys (pydantic adds
    one per property: "Id" for id), and an optional `X | None` property spelled as X with
    no `null` default (leaving it out is how a client says None)."""
    if isinstance(schema, list):
        return [untitled(v) for v in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: untitled(v) for k, v in schema.items() if not (k == "title" and isinstance(v, str))}
    options = out.get("anyOf")
    if isinstance(options, list) and {"type": "null"} in options:
        rest = [o for o in options if o != {"type": "null"}]
        del out["anyOf"]
        if len(rest) == 1:
            out.update(rest[0])
        else:
            out["anyOf"] = rest
        if out.get("default", "") is None:
            del out["default"]
    return out


def _inline(schema: Any, defs: dict[str, Any]) -> Any:
    """`schema` with every `{"$ref": "#/$defs/X"}` replaced by X (its own keys kept beside)."""
    if isinstance(schema, list):
        return [_inline(v, defs) for v in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: _inline(v, defs) for k, v in schema.items() if k != "$defs"}
    ref = out.pop("$ref", None)
    if isinstance(ref, str):
        out = {**_inline(defs[ref.rsplit("/", 1)[-1]], defs), **out}
    return out


def _one_of(schema: Any) -> Any:
    """Every union left after `untitled`, at any depth, as one type: the structured option (a
    list over its command-line string), else the first."""
    if isinstance(schema, list):
        return [_one_of(v) for v in schema]
    if not isinstance(schema, dict):
        return schema
    for key in _UNIONS:
        options = schema.get(key)
        if not isinstance(options, list):
            continue
        kept = next((o for o in options if o.get("type") in ("array", "object")), options[0])
        schema = {**{k: v for k, v in schema.items() if k != key}, **kept}
    return {k: _one_of(v) for k, v in schema.items()}


def element_fields(schema: dict[str, Any]) -> dict[str, str]:
    """The parameters that take an id or a name (`{"anyOf": [integer, string]}`), each with the
    name of the string field it gets beside it (`id` → `name`, `element` → `element_name`)."""
    properties = schema.get("properties", {})
    fields = {}
    for key, value in properties.items():
        types = [o.get("type") for o in value.get("anyOf", [])]
        if sorted(types) == ["integer", "string"]:
            fields[key] = "name" if key == "id" and "name" not in properties else f"{key}_name"
    return fields


def flat(schema: dict[str, Any]) -> dict[str, Any]:
    """The tool's input schema with no `$ref`/`$defs` and no unions; each element parameter
    split into its integer id and its string name (neither required: one of them is)."""
    out = _inline(schema, schema.get("$defs", {}))
    fields = element_fields(out)
    properties: dict[str, Any] = {}
    for key, value in out.get("properties", {}).items():
        if key not in fields:
            properties[key] = _one_of(value)
            continue
        described = value.get("description", "")
        rest = _ID_OR.sub("", described)  # "id from `state`, or text:Save, ...": what the name field takes
        properties[key] = {"type": "integer"}  # what an id is, the server's instructions say once
        properties[fields[key]] = {"type": "string", "description": rest or described}
    out["properties"] = properties
    if "required" in out:
        out["required"] = [r for r in out["required"] if r not in fields]
        if not out["required"]:
            del out["required"]
    return out


def bind_elements(schema: dict[str, Any], args: dict[str, Any]) -> dict[str, Any]:
    """A call's arguments as the command takes them: an id stays an integer, a name goes into
    its parameter (`name:7` for a name of digits, which the command would read as an id).
    Refuses an id that is not an integer, a name that is not a string, and both at once."""
    for key, named in element_fields(schema).items():
        if key in args and (isinstance(args[key], bool) or not isinstance(args[key], int)):
            raise InvalidInput(
                f"{key} is an element id, a whole number like 7, not {shown(args[key], 40)}; nothing was done",
                hint=f'a name or a visual target goes in {named}: {{"{named}": "Save"}}',
            )
        if named not in args:
            continue
        name = args.pop(named)
        if not isinstance(name, str):
            raise InvalidInput(
                f"{named} is a name (a string), not {shown(name, 40)}; nothing was done",
                hint=f'an element id goes in {key}: {{"{key}": 7}}',
            )
        if key in args:
            raise InvalidInput(f"give {key} or {named}, not both; nothing was done", hint=f'{{"{key}": 7}}')
        args[key] = NAME_PREFIX + name if is_id(name) else name
    return args
