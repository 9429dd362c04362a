"""Write the trimmed Stripe API description the tests check every Stripe request and event against.

    python -m scripts.trim_stripe_spec --spec spec3.json   # from Stripe's published OpenAPI spec3.json
    python -m scripts.trim_stripe_spec                      # from the installed stripe-python's types

The output (tests/support/stripe_spec/spec3.trimmed.json) holds only the operations the product
calls (OPERATIONS), the objects they answer and the objects of the webhook events the product reads
(OBJECTS), without descriptions, with `x-turno-source` naming where it came from and the API version.

From a spec3.json the operations and the `$ref` closure of their schemas and of OBJECTS are kept as
they are. Without one (stripe/openapi's spec3.json is over what this project's machines can fetch),
the same document is made from the installed stripe-python, whose typed parameters and resource
classes Stripe generates from that spec for the version the library pins: a TypedDict becomes the
form body's schema (NotRequired: optional; `Literal[...]|str` the enum without the SDK's
forward-compatible `str`); a resource class becomes the object's schema (Optional: nullable and not
always present; `ExpandableField`: the id or the object, listed in `x-expandableFields`).
"""

import argparse
import ast
import decimal
import importlib
import inspect
import json
import sys
import types
import typing
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin

from typing_extensions import is_typeddict

OUTPUT = Path(__file__).resolve().parent.parent / "tests" / "support" / "stripe_spec" / "spec3.trimmed.json"
FORM = "application/x-www-form-urlencoded"

# (method, path template, stripe-python params class, object answered): every call of stripe_api.client()
# (and the Checkout Session read tests/unit/test_fake_stripe_payments.py makes).
OPERATIONS = (
    ("post", "/v1/accounts", "stripe.params._account_create_params.AccountCreateParams", "account"),
    ("get", "/v1/accounts/{account}", "stripe.params._account_retrieve_params.AccountRetrieveParams", "account"),
    ("post", "/v1/account_links", "stripe.params._account_link_create_params.AccountLinkCreateParams", "account_link"),
    (
        "post",
        "/v1/billing_portal/sessions",
        "stripe.params.billing_portal._session_create_params.SessionCreateParams",
        "billing_portal.session",
    ),
    (
        "post",
        "/v1/checkout/sessions",
        "stripe.params.checkout._session_create_params.SessionCreateParams",
        "checkout.session",
    ),
    (
        "get",
        "/v1/checkout/sessions/{session}",
        "stripe.params.checkout._session_retrieve_params.SessionRetrieveParams",
        "checkout.session",
    ),
    (
        "post",
        "/v1/checkout/sessions/{session}/expire",
        "stripe.params.checkout._session_expire_params.SessionExpireParams",
        "checkout.session",
    ),
    ("get", "/v1/charges/{charge}", "stripe.params._charge_retrieve_params.ChargeRetrieveParams", "charge"),
    (
        "get",
        "/v1/payment_intents/{intent}",
        "stripe.params._payment_intent_retrieve_params.PaymentIntentRetrieveParams",
        "payment_intent",
    ),
    ("post", "/v1/refunds", "stripe.params._refund_create_params.RefundCreateParams", "refund"),
    (
        "get",
        "/v1/subscriptions/{subscription_exposed_id}",
        "stripe.params._subscription_retrieve_params.SubscriptionRetrieveParams",
        "subscription",
    ),
    ("post", "/v1/transfers", "stripe.params._transfer_create_params.TransferCreateParams", "transfer"),
)

# Objects kept whole: the event, the objects of the events the product handles (services/money/billing.py
# and services/money/ `HANDLERS`), the objects answered above and those the fake nests.
OBJECTS = {
    "event": "stripe._event.Event",
    "account": "stripe._account.Account",
    "account_link": "stripe._account_link.AccountLink",
    "billing_portal.session": "stripe.billing_portal._session.Session",
    "charge": "stripe._charge.Charge",
    "checkout.session": "stripe.checkout._session.Session",
    "dispute": "stripe._dispute.Dispute",
    "invoice": "stripe._invoice.Invoice",
    "payment_intent": "stripe._payment_intent.PaymentIntent",
    "person": "stripe._person.Person",
    "price": "stripe._price.Price",
    "refund": "stripe._refund.Refund",
    "subscription": "stripe._subscription.Subscription",
    "subscription_item": "stripe._subscription_item.SubscriptionItem",
    "transfer": "stripe._transfer.Transfer",
}


def main() -> None:
    """Write OUTPUT from `--spec FILE` or, without it, from the installed stripe-python."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--spec", help="Stripe's full spec3.json (stripe/openapi)")
    parser.add_argument("--source", default="", help="where the spec came from, e.g. 'stripe/openapi v2100 <commit>'")
    parser.add_argument("--out", default=str(OUTPUT))
    args = parser.parse_args()
    if args.spec:
        document = trim(json.loads(Path(args.spec).read_text()), args.source or Path(args.spec).name)
    else:
        document = from_stripe_python()
    text = dump(document)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(text)
    print(f"{args.out}: {len(text.encode()):,} bytes, API version {document['info']['version']}")


def dump(document: dict) -> str:
    """The document as written to disk: sorted keys, one space of indent (diffs stay readable)."""
    return json.dumps(document, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


# --- From Stripe's spec3.json ---------------------------------------------------------------------


def trim(spec: dict, source: str) -> dict:
    """The OPERATIONS and OBJECTS of a full spec3.json, with the closure of their `$ref`s, no descriptions."""
    paths: dict[str, dict] = {}
    for method, template, _params, _answer in OPERATIONS:
        operation = spec["paths"][template][method]
        paths.setdefault(template, {})[method] = _strip(operation)
    schemas = spec["components"]["schemas"]
    kept: dict[str, Any] = {}
    pending = [name for name in OBJECTS if name in schemas] + sorted(_refs(paths))
    while pending:
        name = pending.pop()
        if name in kept:
            continue
        kept[name] = _strip(schemas[name])
        pending.extend(_refs(kept[name]) - kept.keys())
    version = spec["info"]["version"]
    return {
        "openapi": spec.get("openapi", "3.0.0"),
        "info": {"title": "Stripe API (trimmed for Turno)", "version": version},
        "x-turno-source": {"from": source, "api_version": version},
        "paths": paths,
        "components": {"schemas": kept},
    }


def _strip(node: Any) -> Any:
    """A copy without the prose (`description`, `summary`) that makes up most of the spec's size."""
    if isinstance(node, dict):
        return {k: _strip(v) for k, v in node.items() if k not in ("description", "summary")}
    if isinstance(node, list):
        return [_strip(v) for v in node]
    return node


def _refs(node: Any) -> set[str]:
    """The component schema names a node refers to (`#/components/schemas/NAME`)."""
    found: set[str] = set()
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
            found.add(ref.rsplit("/", 1)[1])
        for value in node.values():
            found |= _refs(value)
    elif isinstance(node, list):
        for value in node:
            found |= _refs(value)
    return found


# --- From the installed stripe-python -------------------------------------------------------------


def from_stripe_python() -> dict:
    """The same document made from stripe-python's generated params and resource classes."""
    import stripe

    version = stripe.api_version
    converter = _Converter()
    paths: dict[str, dict] = {}
    for method, template, params_name, answer in OPERATIONS:
        body = converter.params(_load(params_name))
        operation: dict[str, Any] = {
            "operationId": f"{method.capitalize()}{template}",
            "responses": {"200": {"content": {"application/json": {"schema": _ref(answer)}}}},
        }
        if method == "get":
            operation["parameters"] = [
                {"in": "query", "name": name, "required": name in body.get("required", []), "schema": schema}
                for name, schema in body["properties"].items()
            ]
        else:
            operation["requestBody"] = {"content": {FORM: {"schema": body}}, "required": bool(body.get("required"))}
        paths.setdefault(template, {})[method] = operation
    schemas = {name: converter.resource(_load(path)) for name, path in OBJECTS.items()}
    return {
        "openapi": "3.0.0",
        "info": {"title": "Stripe API (trimmed for Turno)", "version": version},
        "x-turno-source": {
            "from": f"stripe-python {stripe.VERSION} (types generated by Stripe from its OpenAPI spec)",
            "api_version": version,
        },
        "paths": paths,
        "components": {"schemas": schemas},
    }


def _load(dotted: str) -> type:
    module, _, name = dotted.rpartition(".")
    return getattr(importlib.import_module(module), name)


def _ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


class _Converter:
    """Python type hints of stripe-python's generated classes as OpenAPI schemas."""

    def __init__(self) -> None:
        self._namespaces: dict[str, dict] = {}
        self._stack: list[type] = []

    def params(self, cls: type) -> dict:
        """A params TypedDict as the form body's object schema (without the RequestOptions keys)."""
        return self._typed_dict(cls, skip=_request_options())

    def resource(self, cls: type) -> dict:
        """A resource class as its object's schema."""
        return self._object(cls)

    def _hints(self, cls: type, skip: frozenset[str] = frozenset()) -> dict[str, Any]:
        module = sys.modules[cls.__module__]
        namespace = self._namespace(module)
        local: dict[str, Any] = {}
        for holder in _enclosing(cls):
            local.update(vars(holder))
        own = {
            name: hint
            for name, hint in _annotations(cls).items()
            if not name.isupper() and name not in skip  # OBJECT_NAME is a ClassVar
        }
        holder = type(cls.__name__, (), {"__annotations__": own, "__module__": cls.__module__})
        return typing.get_type_hints(holder, globalns=namespace, localns=local, include_extras=True)

    def _namespace(self, module: types.ModuleType) -> dict:
        """The module's globals plus what it imports only under TYPE_CHECKING."""
        if module.__name__ not in self._namespaces:
            namespace = dict(vars(module))
            for node in ast.walk(ast.parse(inspect.getsource(module))):
                if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                    for alias in node.names:
                        if (alias.asname or alias.name) not in namespace:
                            target = importlib.import_module(node.module)
                            namespace[alias.asname or alias.name] = getattr(target, alias.name)
            self._namespaces[module.__name__] = namespace
        return self._namespaces[module.__name__]

    def _typed_dict(self, cls: type, skip: frozenset[str] = frozenset()) -> dict:
        hints = self._hints(cls, skip)
        required = sorted(name for name in hints if name in cls.__required_keys__)  # type: ignore[attr-defined]
        schema: dict[str, Any] = {
            "additionalProperties": False,
            "properties": {name: self._schema(hint) for name, hint in hints.items()},
            "type": "object",
        }
        if required:
            schema["required"] = required
        return schema

    def _object(self, cls: type) -> dict:
        if cls in self._stack:
            return {"type": "object"}
        self._stack.append(cls)
        try:
            hints = self._hints(cls)
            properties, required, expandable = {}, [], []
            for name, hint in hints.items():
                optional = _is_optional(hint)
                if _is_expandable(hint):
                    expandable.append(name)
                properties[name] = self._schema(hint)
                if not optional:
                    required.append(name)
        finally:
            self._stack.pop()
        schema: dict[str, Any] = {"properties": properties, "type": "object"}
        if required:
            schema["required"] = sorted(required)
        if expandable:
            schema["x-expandableFields"] = sorted(expandable)
        name = getattr(cls, "OBJECT_NAME", None)
        if isinstance(name, str) and "." not in cls.__qualname__:
            schema["x-resourceId"] = name
        return schema

    def _schema(self, hint: Any) -> dict:
        from stripe._list_object import ListObject
        from stripe._stripe_object import StripeObject, UntypedStripeObject

        origin, args = get_origin(hint), get_args(hint)
        if origin in (typing.Annotated, typing.NotRequired, typing.Required, typing.ClassVar):
            return self._schema(args[0])
        if hint is Any or hint is object:
            return {}
        simple = {str: "string", int: "integer", bool: "boolean", float: "number"}
        if hint in simple:
            return {"type": simple[hint]}
        if hint is decimal.Decimal:
            return {"format": "decimal", "type": "string"}
        if origin is Literal:
            kinds = {simple[type(value)] for value in args}
            return {"enum": list(args), "type": kinds.pop() if len(kinds) == 1 else "string"}
        if origin in (Union, types.UnionType):
            return self._union(args)
        if origin is list:
            return {"items": self._schema(args[0]), "type": "array"}
        if origin is dict:
            return {"additionalProperties": self._schema(args[1]), "type": "object"}
        if origin is UntypedStripeObject:
            return {"additionalProperties": self._schema(args[0]) if args else {}, "type": "object"}
        if origin is ListObject:
            return {
                "properties": {
                    "data": {"items": self._schema(args[0]), "type": "array"},
                    "has_more": {"type": "boolean"},
                    "object": {"enum": ["list"], "type": "string"},
                    "url": {"type": "string"},
                },
                "required": ["data", "has_more", "object", "url"],
                "type": "object",
            }
        if is_typeddict(hint):
            return self._typed_dict(hint)
        if inspect.isclass(hint) and issubclass(hint, StripeObject):
            if "." in hint.__qualname__:  # a nested class: the object inline
                return self._object(hint)
            name = getattr(hint, "OBJECT_NAME", "")
            if name in OBJECTS:
                return _ref(name)
            return {"type": "object", "x-turno-not-kept": name or hint.__name__}
        raise TypeError(f"no schema for the type hint {hint!r}")

    def _union(self, args: tuple) -> dict:
        nullable = type(None) in args
        members = [a for a in args if a is not type(None)]
        literals = [v for a in members if get_origin(a) is Literal for v in get_args(a)]
        others = [a for a in members if get_origin(a) is not Literal]
        schemas: list[dict] = []
        if [v for v in literals if v != ""] and str in others:
            others.remove(str)  # the SDK's forward-compatible `|str` after an enum
        if literals:
            schemas.append(self._schema(Literal[tuple(literals)]))
        for member in others:
            schema = self._schema(member)
            if schema not in schemas:
                schemas.append(schema)
        result = schemas[0] if len(schemas) == 1 else {"anyOf": schemas}
        if nullable:
            result = {**result, "nullable": True}
        return result


def _annotations(cls: type) -> dict[str, Any]:
    """The annotations a generated class declares (a TypedDict's include its generated bases')."""
    if is_typeddict(cls):
        return dict(cls.__annotations__)
    return dict(inspect.get_annotations(cls))


def _request_options() -> frozenset[str]:
    """The keys of stripe-python's RequestOptions (api_key, idempotency_key...): not API parameters."""
    from stripe._request_options import RequestOptions

    return frozenset(RequestOptions.__annotations__)


def _enclosing(cls: type) -> list[type]:
    """The class and the classes it is nested in, outermost first (their names resolve nested hints)."""
    module = sys.modules[cls.__module__]
    holders: list[type] = []
    node: Any = module
    for part in cls.__qualname__.split("."):
        node = getattr(node, part)
        holders.append(node)
    return holders


def _is_optional(hint: Any) -> bool:
    if get_origin(hint) in (typing.Annotated, typing.NotRequired):
        return _is_optional(get_args(hint)[0])
    return get_origin(hint) in (Union, types.UnionType) and type(None) in get_args(hint)


def _is_expandable(hint: Any) -> bool:
    """`ExpandableField[X]`: the Union of an id (str) and a resource class."""
    from stripe._stripe_object import StripeObject

    if get_origin(hint) not in (Union, types.UnionType):
        return False
    args = [a for a in get_args(hint) if a is not type(None)]
    return str in args and any(inspect.isclass(a) and issubclass(a, StripeObject) for a in args)


if __name__ == "__main__":
    main()
