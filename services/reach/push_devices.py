"""The browsers with notifications on: subscribing one, the settings list, the export, removing one.

`register` stores a browser's subscription ('Ativar notificações neste aparelho') for the session
that asked, so logging out there (or the session's end anywhere) ends the pushes with it; the
consent is recorded with its time (services/reach/consents.py), and so is its withdrawal by
`remove`. `live_session` is the one rule of which devices are pushed to: those whose session lives.
"""

from typing import TypedDict

from sqlalchemy import and_, delete, or_, select
from sqlmodel import Session

from core import vapid
from core.formatting import date_time, short_date
from core.security import token_digest
from models import AuthSession, PushDevice
from services.accounts.sessions import idle_limit
from services.common.errors import NotAllowed, ValidationFailed, require_id
from services.reach import consents
from services.reach.push_addresses import allowed_endpoint

CANNOT_ENABLE = "Não foi possível ativar as notificações neste aparelho."
NOT_SUPPORTED = "Este navegador não recebe notificações. Use o Chrome, o Edge, o Firefox ou o Safari atualizado."
DENIED = "As notificações estão bloqueadas neste navegador. Libere-as nas configurações do site e tente de novo."
ENABLED = "Notificações ativadas neste aparelho."
REMOVED = "Aparelho removido. Ele não recebe mais notificações."
DEVICE_MISSING = "Aparelho não encontrado."
MAX_DEVICES = 10  # per account: the oldest is replaced by an eleventh
KEY_BYTES = {"p256dh": 65, "auth": 16}


class DeviceView(TypedDict):
    """One device as the settings list shows it."""

    id: int
    name: str
    since: str
    this_device: bool


def device_name(user_agent: str) -> str:
    """A person's name for a browser from its User-Agent: 'Chrome no Android', 'Safari no iPhone'."""
    agent = user_agent or ""
    if "Edg/" in agent:
        browser = "Edge"
    elif "Firefox/" in agent or "FxiOS" in agent:
        browser = "Firefox"
    elif "SamsungBrowser" in agent:
        browser = "Samsung Internet"
    elif "Chrome/" in agent or "CriOS" in agent:
        browser = "Chrome"
    elif "Safari/" in agent:
        browser = "Safari"
    else:
        browser = "Navegador"
    for marker, system in (
        ("iPhone", "iPhone"),
        ("iPad", "iPad"),
        ("Android", "Android"),
        ("Windows", "Windows"),
        ("Mac OS X", "Mac"),
        ("CrOS", "Chromebook"),
        ("Linux", "Linux"),
    ):
        if marker in agent:
            return f"{browser} no {system}"
    return browser


def _clean_subscription(subscription: object) -> tuple[str, str, str]:
    """The endpoint and keys of a browser's `PushSubscription.toJSON()`; ValidationFailed otherwise."""
    failed = ValidationFailed({"push": CANNOT_ENABLE})
    if not isinstance(subscription, dict):
        raise failed
    endpoint, keys = subscription.get("endpoint"), subscription.get("keys")
    if not isinstance(endpoint, str) or not allowed_endpoint(endpoint):
        raise failed
    if not isinstance(keys, dict):
        raise failed
    cleaned = []
    for name, size in KEY_BYTES.items():
        value = keys.get(name)
        try:
            raw = vapid.b64url_decode(value) if isinstance(value, str) and len(value) <= 200 else b""
        except ValueError:
            raw = b""
        if len(raw) != size or (name == "p256dh" and raw[0] != 4):
            raise failed
        cleaned.append(value)
    return endpoint, cleaned[0], cleaned[1]


def _session_id(db: Session, user_id: int, session_token: str | None) -> int:
    """The id of the caller's own session row (NotAllowed when the token is not theirs)."""
    found = (
        db.execute(
            select(AuthSession.id).where(
                AuthSession.token_hash == token_digest(session_token or ""), AuthSession.user_id == user_id
            )
        ).scalar_one_or_none()
        if session_token
        else None
    )
    if found is None:
        raise NotAllowed(CANNOT_ENABLE)
    return found


def register(db: Session, user_id: int, session_token: str | None, subscription: object, user_agent: str) -> None:
    """Keep this browser's subscription for the caller's session ('Ativar notificações neste aparelho').

    The same subscription registered again (another account on the same browser, or the same
    one after a new login) moves to the caller: a browser pushes for one person only. Above
    MAX_DEVICES the account's oldest device is removed.

    Args:
        db: Open database session.
        user_id: The caller.
        session_token: The caller's session cookie (the device belongs to that session).
        subscription: `PushSubscription.toJSON()` as the browser sent it.
        user_agent: The browser's User-Agent, for the device's name.

    Raises:
        ValidationFailed: A malformed subscription, or an endpoint that is not a push service.
        NotAllowed: The session is not the caller's (or push is off).
    """
    if not vapid.public_key():
        raise NotAllowed(CANNOT_ENABLE)
    endpoint, p256dh, auth = _clean_subscription(subscription)
    session_id = _session_id(db, user_id, session_token)
    name = device_name(user_agent)
    db.execute(delete(PushDevice).where(PushDevice.endpoint == endpoint))
    db.add(PushDevice(user_id=user_id, session_id=session_id, endpoint=endpoint, p256dh=p256dh, auth=auth, name=name))
    db.flush()
    extra = db.execute(
        select(PushDevice.id)
        .where(PushDevice.user_id == user_id)
        .order_by(PushDevice.created_at.desc(), PushDevice.id.desc())
        .offset(MAX_DEVICES)
    ).scalars()
    for device_id in list(extra):
        db.execute(delete(PushDevice).where(PushDevice.id == device_id))
    consents.record(db, user_id, consents.PUSH, granted=True, detail=name)


def devices(db: Session, user_id: int, session_token: str | None) -> list[DeviceView]:
    """The caller's devices with notifications on, newest first, marking the one of this session."""
    here = token_digest(session_token) if session_token else ""
    rows = db.execute(
        select(PushDevice.id, PushDevice.name, PushDevice.created_at, AuthSession.token_hash)
        .join(AuthSession, AuthSession.id == PushDevice.session_id)
        .where(PushDevice.user_id == user_id)
        .order_by(PushDevice.created_at.desc(), PushDevice.id.desc())
    ).all()
    return [
        DeviceView(id=row.id, name=row.name, since=short_date(row.created_at), this_device=row.token_hash == here)
        for row in rows
    ]


def export(db: Session, user_id: int) -> list[dict[str, str]]:
    """The user's devices for 'Baixar meus dados': name, since when and the push address (never the keys)."""
    rows = db.execute(
        select(PushDevice.name, PushDevice.created_at, PushDevice.endpoint)
        .where(PushDevice.user_id == user_id)
        .order_by(PushDevice.id)
    ).all()
    return [{"aparelho": row.name, "ativado_em": date_time(row.created_at), "endereco": row.endpoint} for row in rows]


def remove(db: Session, user_id: int, device_id: object) -> None:
    """Stop pushes to one of the caller's devices ('Remover'); the withdrawal is recorded.

    Raises:
        NotAllowed: No such device of the caller's (someone else's looks the same as a missing one).
    """
    wanted = require_id(device_id, DEVICE_MISSING)
    device = db.get(PushDevice, wanted)
    if device is None or device.user_id != user_id:
        raise NotAllowed(DEVICE_MISSING, target=wanted)
    name = device.name
    db.delete(device)
    consents.record(db, user_id, consents.PUSH, granted=False, detail=name)


def live_session(now):
    """SQL: the device's session is still live (not past its absolute or idle expiry)."""
    return and_(
        AuthSession.expires_at > now,
        or_(
            and_(AuthSession.remember.is_(False), AuthSession.last_seen_at > now - idle_limit(False)),
            and_(AuthSession.remember.is_(True), AuthSession.last_seen_at > now - idle_limit(True)),
        ),
    )
