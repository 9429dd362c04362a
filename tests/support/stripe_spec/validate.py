"""Requests and webhook events checked against the trimmed Stripe API description (spec3.trimmed.json).

`validate_request(method, path, params)` takes the form parameters as stripe-python sends them,
flattened (`line_items[0][price_data][currency]=brl`), rebuilds the nested value and checks it as
Stripe does: an unknown parameter, a value of the wrong type (form values are text: integers,
booleans and enums are read per the schema), a missing required one and an `expand` of a field the
answer cannot expand are refused, each as the Stripe error it would be. `validate_event(payload)`
checks an event's envelope and its `data.object` against the schema of that object: every field
sent must exist with its type and enum (the fake sends only the fields the product reads, so a
missing field of `data.object` is not an error; the envelope must be whole).
"""

import functools
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SPEC = Path(__file__).with_name("spec3.trimmed.json")
FORM = "application/x-www-form-urlencoded"
_INTEGER = re.compile(r"-?\d+")
_NUMBER = re.compile(r"-?\d+(\.\d+)?")
_SEGMENT = re.compile(r"\[([^\[\]]*)\]")


@dataclass(frozen=True)
class Problem:
    """One thing Stripe would refuse: its `param` (flattened), `code` (or '') and `message`."""

    param: str
    code: str
    message: str

    def error(self) -> dict:
        """The body of Stripe's 400 answer for it."""
        error = {"type": "invalid_request_error", "param": self.param, "message": self.message}
        if self.code:
            error["code"] = self.code
        return {"error": error}


@functools.cache
def spec() -> dict:
    """The trimmed description."""
    return json.loads(SPEC.read_text())


def api_version() -> str:
    """The API version the description is for."""
    return spec()["info"]["version"]


def operation(method: str, path: str) -> dict | None:
    """The operation of a concrete path (ids in place of `{...}`), or None when the description has none."""
    for template, methods in spec()["paths"].items():
        pattern = "^" + re.sub(r"\\\{[^/]+\\\}", "[^/]+", re.escape(template)) + "$"
        if re.match(pattern, path) and method.lower() in methods:
            return methods[method.lower()]
    return None


def validate_request(method: str, path: str, params: dict[str, str]) -> list[Problem]:
    """What Stripe would refuse in a request (empty when nothing).

    Args:
        method: 'GET' or 'POST'.
        path: The request path with ids, e.g. '/v1/checkout/sessions/cs_123/expire'.
        params: The form (or query) parameters, flattened as sent.
    """
    op = operation(method, path)
    if op is None:
        return [Problem("", "", f"Unrecognized request URL ({method} {path}): not in the trimmed description")]
    try:
        value = unflatten(params)
    except ValueError as exc:
        return [Problem(str(exc), "parameter_invalid", f"Invalid array: {exc}")]
    schema = _body_schema(op)
    problems = _check(value, schema, "", form=True, strict=True, whole=True)
    return problems + _check_expand(op, value.get("expand"))


def validate_event(payload: dict | str) -> list[Problem]:
    """What in an event's envelope or `data.object` is not Stripe's shape (empty when nothing)."""
    event = json.loads(payload) if isinstance(payload, str) else payload
    schemas = spec()["components"]["schemas"]
    problems = _check(event, schemas["event"], "", form=False, strict=True, whole=True)
    obj = (event.get("data") or {}).get("object") if isinstance(event.get("data"), dict) else None
    if isinstance(obj, dict):
        name = obj.get("object") or _object_of(str(event.get("type", "")))
        schema = schemas.get(name) if isinstance(name, str) else None
        if schema is not None:
            problems += _check(obj, schema, "data.object", form=False, strict=True, whole=False)
        elif name is None:
            problems.append(Problem("data.object.object", "", "the object has no `object` field"))
    return problems


def unflatten(params: dict[str, str]) -> dict:
    """`{'a[b][0][c]': 'v'}` -> `{'a': {'b': [{'c': 'v'}]}}` (numbered keys become lists)."""
    root: dict = {}
    for key, text in params.items():
        head = key.split("[", 1)[0]
        parts = [head, *_SEGMENT.findall(key[len(head) :])]
        node = root
        for part in parts[:-1]:
            child = node.setdefault(part, {})
            if not isinstance(child, dict):
                raise ValueError(key)
            node = child
        node[parts[-1]] = text
    return _lists(root, "")


def _lists(node: Any, where: str) -> Any:
    if not isinstance(node, dict):
        return node
    items = {k: _lists(v, f"{where}[{k}]" if where else k) for k, v in node.items()}
    if items and all(k.isdigit() for k in items):
        indexes = sorted(int(k) for k in items)
        if indexes != list(range(len(indexes))):
            raise ValueError(where)
        return [items[str(i)] for i in indexes]
    if list(items) == [""]:  # `a[]=x`
        return [items[""]]
    return items


def _body_schema(op: dict) -> dict:
    body = op.get("requestBody", {}).get("content", {}).get(FORM, {}).get("schema")
    if body is not None:
        return _resolve(body)
    properties, required = {}, []
    for parameter in op.get("parameters", []):
        if parameter.get("in") == "query":
            properties[parameter["name"]] = parameter.get("schema", {})
            if parameter.get("required"):
                required.append(parameter["name"])
    return {"type": "object", "properties": properties, "required": required, "additionalProperties": False}


def _resolve(schema: dict) -> dict:
    while "$ref" in schema:
        schema = spec()["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    return schema


def _check(value: Any, schema: dict, where: str, *, form: bool, strict: bool, whole: bool) -> list[Problem]:
    """Problems of `value` (form text when `form`) against `schema`; `whole`: required fields must be there."""
    schema = _resolve(schema)
    if "x-turno-not-kept" in schema:
        return []
    if value is None or (form and value == "" and schema.get("nullable")):
        if schema.get("nullable") or not schema:
            return []
        return [Problem(where, "parameter_invalid_empty" if form else "", f"{where} cannot be null")]
    if "anyOf" in schema:
        options = [_check(value, s, where, form=form, strict=strict, whole=whole) for s in schema["anyOf"]]
        if any(not found for found in options):
            return []
        return min(options, key=len)
    kind = schema.get("type")
    if kind == "object" or "properties" in schema:
        return _check_object(value, schema, where, form=form, strict=strict, whole=whole)
    if kind == "array":
        if form and value == "":  # `a=` empties a list, as Stripe takes it
            return []
        if not isinstance(value, list):
            return [Problem(where, "parameter_invalid", f"Invalid array: {where}")]
        found: list[Problem] = []
        for i, item in enumerate(value):
            found += _check(item, schema.get("items", {}), f"{where}[{i}]", form=form, strict=strict, whole=whole)
        return found
    return _check_scalar(value, schema, where, form=form)


def _check_object(value: Any, schema: dict, where: str, *, form: bool, strict: bool, whole: bool) -> list[Problem]:
    if form and value == "" and "additionalProperties" in schema and schema["additionalProperties"] is not False:
        return []  # `metadata=` unsets every key
    if not isinstance(value, dict):
        return [Problem(where, "parameter_invalid", f"Invalid object: {where or 'body'}")]
    found: list[Problem] = []
    properties = schema.get("properties", {})
    extra = schema.get("additionalProperties", not strict if properties else True)
    for key, item in value.items():
        name = f"{where}[{key}]" if form and where else f"{where}.{key}" if where else key
        if key in properties:
            found += _check(item, properties[key], name, form=form, strict=strict, whole=whole)
        elif isinstance(extra, dict):
            found += _check(item, extra, name, form=form, strict=strict, whole=whole)
        elif extra is False or (strict and properties):
            found.append(Problem(name, "parameter_unknown", f"Received unknown parameter: {name}"))
    if whole:
        for key in schema.get("required", []):
            if key not in value:
                name = f"{where}[{key}]" if form and where else f"{where}.{key}" if where else key
                found.append(Problem(name, "parameter_missing", f"Missing required param: {name}."))
    return found


def _check_scalar(value: Any, schema: dict, where: str, *, form: bool) -> list[Problem]:
    kind = schema.get("type")
    if form:
        if not isinstance(value, str):
            return [Problem(where, "parameter_invalid", f"Invalid value for {where}: a hash or array was given")]
        if kind == "integer":
            if not _INTEGER.fullmatch(value):
                return [Problem(where, "parameter_invalid_integer", f"Invalid integer: {value}")]
            value = int(value)
        elif kind == "number":
            if not _NUMBER.fullmatch(value):
                return [Problem(where, "parameter_invalid", f"Invalid decimal: {value}")]
            value = float(value)
        elif kind == "boolean":
            if value not in ("true", "false"):
                return [Problem(where, "parameter_invalid", f"Invalid boolean: {value}")]
            value = value == "true"
    else:
        expected = {"string": str, "integer": int, "number": (int, float), "boolean": bool}.get(kind or "")
        wrong_bool = isinstance(value, bool) and kind in ("integer", "number")
        if expected is not None and (not isinstance(value, expected) or wrong_bool):
            return [Problem(where, "", f"{where} must be of type {kind}, not {type(value).__name__}")]
    if "enum" in schema and value not in schema["enum"]:
        allowed = ", ".join(str(v) for v in schema["enum"])
        return [Problem(where, "parameter_invalid", f"Invalid {where}: must be one of {allowed}")]
    return []


def _check_expand(op: dict, expand: Any) -> list[Problem]:
    """Each `expand[]` must name an expandable field of the object the operation answers.

    A dotted path (`settings.branding.icon`) is checked only as far as its first field existing.
    """
    if not isinstance(expand, list):
        return []
    answer = op.get("responses", {}).get("200", {}).get("content", {}).get("application/json", {}).get("schema")
    if answer is None:
        return []
    obj = _resolve(answer)
    expandable, fields = obj.get("x-expandableFields", []), obj.get("properties", {})
    return [
        Problem(f"expand[{i}]", "parameter_invalid", f"This property cannot be expanded ({field}).")
        for i, field in enumerate(expand)
        if not _expandable(field, expandable, fields)
    ]


def _expandable(field: object, expandable: list[str], fields: dict) -> bool:
    if not isinstance(field, str):
        return False
    return field.split(".", 1)[0] in fields if "." in field else field in expandable


def _object_of(event_type: str) -> str | None:
    """The object an event type carries when `data.object` does not say (e.g. 'charge.dispute.created')."""
    for prefix, name in (
        ("checkout.session.", "checkout.session"),
        ("customer.subscription.", "subscription"),
        ("charge.dispute.", "dispute"),
        ("invoice.", "invoice"),
        ("account.", "account"),
        ("transfer.", "transfer"),
    ):
        if event_type.startswith(prefix):
            return name
    return None
