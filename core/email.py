"""Outgoing e-mail: SMTP when configured, otherwise kept in the local outbox (dev mailbox)."""

import logging
import smtplib
from email.message import EmailMessage

from sqlmodel import Session

from core.settings import get_settings
from models import OutboxEmail

log = logging.getLogger(__name__)


def send_email(session: Session, to: str, subject: str, body: str) -> None:
    """Send an e-mail, or keep it in the outbox when no SMTP server is configured.

    The outbox row is written in the caller's transaction, so an operation that fails later
    leaves no message behind.

    Args:
        session: The open database session of the operation that sends the e-mail.
        to: Recipient address.
        subject: Subject line.
        body: Plain-text body.
    """
    settings = get_settings()
    if not settings.smtp_host:
        session.add(OutboxEmail(to_email=to, subject=subject, body=body))
        return
    message = EmailMessage()
    message["From"] = settings.smtp_from
    message["To"] = to
    message["Subject"] = subject
    message.set_content(body)
    with smtplib.SMTP(settings.smtp_host, settings.smtp_port, timeout=10) as smtp:
        if settings.smtp_starttls:
            smtp.starttls()
        if settings.smtp_user:
            smtp.login(settings.smtp_user, settings.smtp_password or "")
        smtp.send_message(message)
    log.info("e-mail sent to %s: %s", to, subject)
