"""'Alertas de novas vagas': who hears of a new vaga in their city (docs/product/reach.md §6)."""

from sqlalchemy import and_, exists, insert, or_
from sqlmodel import Session, select

from core import signals
from core.cities import city_code
from core.routes import NoticeTarget, notice_path
from core.text import city_key
from core.types import utcnow
from models import Job, Notification, NotificationType, Profile, Role, User, UserPreferences
from services.common.email import send_many_after_commit
from services.jobs import visibility
from services.reach.notifications import email_of, wants_email

JOB_ALERT_LIMIT = 500


def _named(job_id: int):
    """SQL: the vaga shows its company's name (a freelancer's own block hides only those, services/jobs/visibility.py)."""
    return exists().where(Job.id == job_id, Job.anuncio_anonimo.is_(False))


def alert_new_job(session: Session, job_id: int, titulo: str, city: str, company_id: int) -> int:
    """'Alertas de novas vagas': notify the confirmed freelancers of the job's city who keep the alerts on.

    When the job's location is one municipality of the IBGE list, freelancers whose profile has that
    municipality are alerted ('Bonito, MS' and 'Bonito, PE' are different cities); profiles without a
    municipality code (older free text) are compared by name, as every profile was before: the city
    part of the location, ignoring case and accents (core.text.city_key; 'São Paulo, SP' matches
    'SAO PAULO'). At most
    JOB_ALERT_LIMIT freelancers are alerted per job (the most recently updated profiles first).

    Args:
        session: Open database session of the publication (the caller commits).
        job_id: The new job.
        titulo: Its title.
        city: Its location as typed.
        company_id: The publisher, never alerted.

    Returns:
        How many freelancers were alerted.
    """
    code = city_code(city)
    city = city_key(city)
    if not city:
        return 0
    same_city = Profile.cidade_busca == city
    if code is not None:  # the municipality itself: 'Bonito, MS' is not 'Bonito, PE'; uncoded profiles by name
        same_city = or_(Profile.cidade_ibge == code, and_(Profile.cidade_ibge.is_(None), same_city))
    rows = session.exec(
        select(User.id, User.email, UserPreferences)
        .join(Profile, Profile.user_id == User.id)
        .join(UserPreferences, UserPreferences.user_id == User.id, isouter=True)
        .where(
            User.role == Role.FREELANCER,
            User.deleted_at.is_(None),
            User.is_active.is_(True),
            User.email_confirmed_at.is_not(None),  # an address nobody confirmed gets no alerts
            User.id != company_id,
            ~visibility.keeps_out(company_id, User.id, _named(job_id)),  # what hides the vaga hides its alert
            same_city,
            or_(UserPreferences.user_id.is_(None), UserPreferences.new_job_alerts.is_(True)),
        )
        .order_by(Profile.updated_at.desc())
        .limit(JOB_ALERT_LIMIT)
    ).all()
    message = f'Nova vaga na sua cidade: "{titulo}".'[:500]
    link = notice_path(NoticeTarget.JOB, job_id)
    if not rows:
        return 0
    now = utcnow()
    # One multi-row INSERT: an ORM object per recipient was the fan-out's main cost (bench/fanout.py, docs/performance.md).
    session.execute(
        insert(Notification),
        [
            {
                "user_id": user_id,
                "type": NotificationType.JOB_ALERT,
                "message": message,
                "target": NoticeTarget.JOB,
                "target_id": job_id,
                "created_at": now,
            }
            for user_id, _email, _prefs in rows
        ],
    )
    defaults = UserPreferences()
    emails = []
    for user_id, email, prefs in rows:
        signals.ping(session, user_id, signals.BELL_ONLY)  # an alert changes the bell, no dashboard tab
        if wants_email(prefs or defaults, NotificationType.JOB_ALERT):
            emails.append(email_of(email, message, link))
    send_many_after_commit(session, emails)  # one multi-row INSERT into the outbox without SMTP
    return len(rows)
