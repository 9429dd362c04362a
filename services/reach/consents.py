"""Consents per channel, each given or withdrawn with its time (LGPD art. 8 §2: the controller proves consent).

A row is appended, never changed: 'Ativar notificações neste aparelho' and 'Remover' for push,
the confirmed number and 'Parar' for WhatsApp. 'Baixar meus dados' lists them (services/privacy/data_export.py)
and deleting the account deletes them with it.
"""

from typing import TypedDict

from sqlmodel import Session, select

from core.formatting import date_time
from models import ChannelConsent

PUSH = "push"
WHATSAPP = "whatsapp"
CHANNEL_NAMES = {PUSH: "Notificações no aparelho", WHATSAPP: "WhatsApp"}


class ConsentRow(TypedDict):
    """One consent as the data export writes it."""

    canal: str
    consentimento: str
    detalhe: str
    quando: str


def record(db: Session, user_id: int, channel: str, granted: bool, detail: str = "") -> None:
    """Append a consent given (`granted`) or withdrawn for `channel`, now."""
    db.add(ChannelConsent(user_id=user_id, channel=channel, granted=granted, detail=detail[:120]))


def history(db: Session, user_id: int) -> list[ConsentRow]:
    """Every consent of the user, oldest first, in Portuguese (the data export)."""
    rows = db.exec(
        select(ChannelConsent).where(ChannelConsent.user_id == user_id).order_by(ChannelConsent.at, ChannelConsent.id)
    ).all()
    return [
        ConsentRow(
            canal=CHANNEL_NAMES.get(row.channel, row.channel),
            consentimento="concedido" if row.granted else "retirado",
            detalhe=row.detail,
            quando=date_time(row.at),
        )
        for row in rows
    ]
