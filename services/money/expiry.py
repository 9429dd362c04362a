"""An unpaid guaranteed acceptance that ends: money hears the hiring move and undoes the acceptance.

The shift loop never calls money: `on_hiring_moved` listens to every move
(services/shifts/hiring_lifecycle.py `listen`, connected in services/__init__.py) and acts on the
three that end an unpaid acceptance ('Desistir', the 60 minutes to pay, a Pix that failed).
"""

import logging
from collections.abc import Callable
from datetime import datetime

import stripe
from sqlalchemy import update
from sqlmodel import Session, select

from core import background, routes
from core.types import utcnow
from models import Application, ApplicationStatus, Hiring, Job, NotificationType, PaymentStatus, ProtectedPayment
from services.jobs import job_lifecycle
from services.money import stripe_api
from services.reach.notifications import notify
from services.shifts.hiring_lifecycle import Moved

log = logging.getLogger(__name__)
# The moves that end an unpaid acceptance, and whether the company is told (not when it chose 'Desistir').
ENDS_UNPAID = {"desistir": False, "pagamento_expirado": True, "pagamento_nao_concluido": True}


def on_hiring_moved(session: Session, moved: Moved, action: str, actor: str) -> None:
    """The listener: an unpaid acceptance that ended returns its application to pending (`after_expiry`)."""
    if action in ENDS_UNPAID:
        after_expiry(session, moved.hiring, tell_company=ENDS_UNPAID[action])


def _now() -> datetime:
    return utcnow()


def after_expiry(session: Session, h: Hiring, tell_company: bool = True) -> None:
    """An unpaid acceptance ended: the application returns to pending and a filled vaga reopens.

    Its open Checkout is closed here and at Stripe (after the answer; money that still arrives is
    refunded in full by `settle`).

    Args:
        session: Open session (the caller commits).
        h: The hiring, now 'expirada'.
        tell_company: Notify the company (not when it chose 'Desistir' itself).
    """
    session.execute(
        update(Application)
        .where(Application.id == h.application_id, Application.status == ApplicationStatus.ACCEPTED)
        .values(status=ApplicationStatus.PENDING, updated_at=_now())
        .execution_options(synchronize_session=False)
    )
    _expire_open_checkouts(session, h.id)
    job = session.get(Job, h.job_id)
    if job is None:
        return
    job_lifecycle.reopen_if_filled(job)
    session.add(job)
    if tell_company:
        notify(
            session,
            h.company_id,
            NotificationType.SHIFT,
            f'O pagamento do turno "{job.titulo}" não foi concluído em 60 minutos: a candidatura voltou para pendente.',
            routes.NoticeTarget.COMPANY_JOBS,
        )


def _expire_open_checkouts(session: Session, hiring_id: int) -> None:
    rows = session.exec(
        select(ProtectedPayment).where(
            ProtectedPayment.hiring_id == hiring_id, ProtectedPayment.status == PaymentStatus.OPEN
        )
    ).all()
    for payment in rows:
        payment.status = PaymentStatus.EXPIRED
        payment.updated_at = _now()
        session.add(payment)
        if payment.checkout_session_id:
            background.submit("expire checkout", _expire_at_stripe(payment.checkout_session_id))


def _expire_at_stripe(checkout_session_id: str) -> Callable[[], None]:
    def expire() -> None:
        try:
            stripe_api.client().v1.checkout.sessions.expire(checkout_session_id)
        except stripe.StripeError as exc:  # already paid or expired: the webhook says which
            log.info("Checkout %s not expired at Stripe: %s", checkout_session_id, exc)

    return expire
