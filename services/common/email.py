"""Outgoing e-mail: SMTP when configured, otherwise kept in the local outbox (dev mailbox)."""

import logging
import smtplib
import threading
from email.message import EmailMessage

from sqlalchemy import event, insert
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
    subject = " ".join(subject.split())[:200]
    if not settings.smtp_host:
        _keep_all(session, [(to, subject, body)])
        return
    _smtp_send(to, subject, body)


def send_after_commit(session: Session, to: str, subject: str, body: str) -> None:
    """Like `send_email`, but an SMTP delivery waits for the commit and never fails the operation.

    For copies of notifications: they must not be sent for an operation that rolls back, must
    not hold the operation's locks while a mail server answers, and a mail server that is down
    must not undo the operation. Without SMTP the outbox row is written in the transaction.

    Args:
        session: The open database session of the operation.
        to: Recipient address.
        subject: Subject line (line breaks are folded into spaces).
        body: Plain-text body.
    """
    send_many_after_commit(session, [(to, subject, body)])


def send_many_after_commit(session: Session, messages: list[tuple[str, str, str]]) -> None:
    """`send_after_commit` for several messages: without SMTP, one multi-row INSERT into the outbox.

    Args:
        session: The open database session of the operation.
        messages: (recipient address, subject, plain-text body) of each e-mail.
    """
    messages = [(to, " ".join(subject.split())[:200], body) for to, subject, body in messages]
    if not messages:
        return
    if not get_settings().smtp_host:
        _keep_all(session, messages)
        return

    pending = session.info.setdefault(_PENDING_KEY, [])
    if not pending:
        event.listen(session, "after_commit", _deliver_pending, once=True)
        event.listen(session, "after_soft_rollback", _drop_pending, once=True)
    pending.extend(messages)


_PENDING_KEY = "turno_pending_emails"
_INSERT_OUTBOX = insert(OutboxEmail.__table__)


def _keep_all(session: Session, messages: list[tuple[str, str, str]]) -> None:
    """Write the messages into the outbox, in the caller's transaction.

    A prebuilt insert: every notification copy passes here, and the ORM's unit of work cost ten
    times the statement.
    """
    session.execute(
        _INSERT_OUTBOX, [{"to_email": to, "subject": subject, "body": body} for to, subject, body in messages]
    )


def _drop_pending(session: Session, _previous_transaction=None) -> None:
    session.info.pop(_PENDING_KEY, None)
    if event.contains(session, "after_commit", _deliver_pending):
        event.remove(session, "after_commit", _deliver_pending)


def _deliver_pending(session: Session) -> None:
    """After the commit: send the queued e-mails in a thread; a failure is logged, never raised."""
    messages = session.info.pop(_PENDING_KEY, [])
    if event.contains(session, "after_soft_rollback", _drop_pending):
        event.remove(session, "after_soft_rollback", _drop_pending)

    def _deliver() -> None:
        for to, subject, body in messages:
            try:
                _smtp_send(to, subject, body)
            except Exception:
                log.exception("notification e-mail to %s failed", to)

    if messages:
        thread = threading.Thread(target=_deliver, daemon=True)
        _deliveries.append(thread)
        thread.start()


_deliveries: list[threading.Thread] = []


def drain(timeout: float = 10.0) -> None:
    """Wait for the e-mails handed to SMTP after commits so far (tests and shutdown)."""
    while _deliveries:
        _deliveries.pop().join(timeout)


def _smtp_send(to: str, subject: str, body: str) -> None:
    settings = get_settings()
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
