"""Write the trimmed Stripe API description the tests check every Stripe request and event against.

    python -m scripts.trim_stripe_spec --spec spec3.json   # from Stripe's published OpenAPI spec3.json
    python -m scripts.trim_stripe_spec                      # from the installed stripe-python's types

The output (tests/support/stripe_spec/spec3.trimmed.json) holds only the operations the product
calls (OPERATIONS), the objects they answer and the objects of the webhook events the product reads
(OBJECTS), without descriptions, with `x-turno-source` naming where it came from and the API version.

From a spec3.json (`trim`) the operations and the `$ref` closure of their schemas and of OBJECTS are
kept as they are. Without one (stripe/openapi's spec3.json is over what this project's machines can
fetch), the same document is made from the installed stripe-python (`from_stripe_python`), whose
typed parameters and resource classes Stripe generates from that spec for the version the library
pins; scripts/stripe_types.py reads those types back into schemas.
"""

import argparse
import importlib
import json
from pathlib import Path
from typing import Any

from scripts.stripe_types import TypeConverter, ref

OUTPUT = Path(__file__).resolve().parent.parent / "tests" / "support" / "stripe_spec" / "spec3.trimmed.json"
FORM = "application/x-www-form-urlencoded"

# (method, path template, stripe-python params class, object answered): every call of stripe_api.client()
# (and the Checkout Session read tests/unit/project/test_fake_stripe_payments.py makes).
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


def from_stripe_python() -> dict:
    """The same document made from stripe-python's generated params and resource classes."""
    import stripe

    version = stripe.api_version
    converter = TypeConverter(OBJECTS)
    paths: dict[str, dict] = {}
    for method, template, params_name, answer in OPERATIONS:
        body = converter.params(_load(params_name))
        operation: dict[str, Any] = {
            "operationId": f"{method.capitalize()}{template}",
            "responses": {"200": {"content": {"application/json": {"schema": ref(answer)}}}},
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


if __name__ == "__main__":
    main()
