"""LGPD self-service: deleting the account ('Excluir minha conta'); the export is services/privacy/data_export.py.

Deletion is a soft delete. The user's personal data goes (profile fields, sessions, tokens,
preferences, notifications, pending applications; the caller deletes the photo file once the
deletion is committed), the account can no longer sign in and its e-mail address is free to
register again. What other people need to read their own
history stays: conversations, accepted and rejected applications, hirings and ratings keep their
rows and now show 'Usuário removido', because every display reads the name from the profile.
"""

from sqlmodel import Session, col, delete, or_, select

from core import signals
from core.security import verify_password
from core.types import utcnow
from models import (
    Application,
    ApplicationStatus,
    AuthSession,
    ChannelConsent,
    Chat,
    ContactMessage,
    EmailToken,
    Hiring,
    Job,
    LoginAttempt,
    Notification,
    OutboxEmail,
    PayoutAccount,
    Profile,
    PushDevice,
    Role,
    User,
    UserPreferences,
)
from services.accounts import devices
from services.common import throttle
from services.common.errors import ServiceError
from services.jobs import company_jobs, job_lifecycle
from services.money.billing import _is_live, _subscription_of
from services.reach import whatsapp
from services.shifts import hiring_rules, shifts

REMOVED_NAME = "Usuário removido"
WRONG_PASSWORD = "Senha incorreta."
SUBSCRIPTION_LIVE = "Cancele sua assinatura antes de excluir a conta."
TOO_MANY_ATTEMPTS = "Muitas tentativas com senha incorreta. Aguarde 15 minutos e tente novamente."
ACCOUNT_NOT_FOUND = "Conta não encontrada."
UNUSABLE_PASSWORD_HASH = "!conta-removida"


def removed_email(user_id: int) -> str:
    """The non-deliverable, unique address a deleted account keeps (`.invalid` is reserved, RFC 2606)."""
    return f"removido-{user_id}@removido.invalid"


def delete_account(session: Session, user_id: int, password: object, address: str = "unknown") -> str:
    """Delete the account after checking its password, keeping other people's history readable.

    Runs bcrypt: call it in a worker thread. Everything happens in the caller's transaction (the
    caller commits); a refusal changes nothing except recording a failed attempt, which goes
    through the login throttle (services.common.throttle) so this form cannot be used to guess the
    password without limit. Like services.accounts.photos.set_photo, it returns the photo URL the profile
    had: the caller removes that file (services.accounts.photos.remove_file) once the commit succeeded.

    What happens:
        - a company's open and in-progress jobs are closed (services.jobs.company_jobs.close_job:
          pending applications rejected, applicants notified), so nothing of it stays public;
        - a freelancer's pending applications are deleted; answered ones stay for history;
        - sessions (every device signs out), e-mail tokens, preferences, the user's notifications,
          locally kept e-mails to the address, the payout data (CPF and fiscal data), and the contact-form messages and login history
          kept under the address are deleted (those two are found by e-mail: a later account with
          the same address must not receive them in its export);
        - the profile is blanked, with the name 'Usuário removido' that every display then shows;
        - the user row is kept (messages, hirings and ratings point at it) with `deleted_at`, not
          active, a reserved `.invalid` e-mail (the real one can register again) and a password
          hash no password matches.

    Args:
        session: Open database session (the caller commits).
        user_id: The acting user (from the server-side session).
        password: The current password, as typed (any value; checked here).
        address: The client's IP address, for the per-address throttle.

    Returns:
        The profile's former photo URL ('' when none), to remove from disk after the commit.

    Raises:
        ServiceError: 'Senha incorreta.' (field `password`) for a wrong or blank password, a
            throttling message (field `password`) after too many failures, SUBSCRIPTION_LIVE for a
            company with a live paid subscription, ACCOUNT_NOT_FOUND for a missing or deleted account.
    """
    user = session.get(User, user_id)
    if user is None or user.deleted_at is not None:
        raise ServiceError(ACCOUNT_NOT_FOUND)
    if user.role == Role.CLIENT and _is_live(_subscription_of(session, user_id)):
        raise ServiceError(SUBSCRIPTION_LIVE)
    try:
        throttle.check(session, user.email, address, trusted=True)
    except ServiceError:
        raise ServiceError(TOO_MANY_ATTEMPTS, {"password": TOO_MANY_ATTEMPTS}) from None
    typed = password[:200] if isinstance(password, str) else ""
    if not typed:
        raise ServiceError(WRONG_PASSWORD, {"password": WRONG_PASSWORD})
    if not verify_password(typed, user.password_hash):
        throttle.record_failure(session, user.email, address, trusted=True)
        raise ServiceError(WRONG_PASSWORD, {"password": WRONG_PASSWORD})
    return _remove(session, user)


def _cancel_shifts_ahead(session: Session, user: User, now) -> None:
    """A removed account's shifts that have not started are cancelled, and the other side told.

    Through the same 'Cancelar turno' as the person would click (services/shifts/shifts.py), so a company
    that leaves within 24 h of a shift still owes the freelancer the late-cancellation amount.
    Shifts already under way keep their records, hours and payment for the other side.
    """
    mine = or_(Hiring.company_id == user.id, Hiring.freelancer_id == user.id)
    ahead = session.exec(
        select(Hiring.id).where(mine, col(Hiring.state).in_(hiring_rules.SCHEDULED), Hiring.inicio_em > now)
    ).all()
    for hiring_id in ahead:
        shifts.act(session, user.id, user.role, hiring_id, "cancelar", {}, now)


def _remove(session: Session, user: User) -> str:
    user_id = user.id
    _cancel_shifts_ahead(session, user, utcnow())
    if user.role == Role.CLIENT:
        live_jobs = session.exec(select(Job.id).where(Job.cliente_id == user_id, job_lifecycle.unfinished())).all()
        for job_id in live_jobs:
            company_jobs.close_job(session, user_id, job_id)
    session.exec(
        delete(Application).where(Application.freelancer_id == user_id, Application.status == ApplicationStatus.PENDING)
    )
    for chat in session.exec(select(Chat).where(or_(Chat.client_id == user_id, Chat.freelancer_id == user_id))).all():
        other = chat.freelancer_id if chat.client_id == user_id else chat.client_id
        signals.ping(session, other, chat.id)
    session.exec(delete(PushDevice).where(PushDevice.user_id == user_id))
    session.exec(delete(AuthSession).where(AuthSession.user_id == user_id))
    devices.forget_all(session, user_id)
    whatsapp.delete_all(session, user_id)
    session.exec(delete(ChannelConsent).where(ChannelConsent.user_id == user_id))
    session.exec(delete(EmailToken).where(EmailToken.user_id == user_id))
    session.exec(delete(UserPreferences).where(UserPreferences.user_id == user_id))
    session.exec(delete(Notification).where(Notification.user_id == user_id))
    session.exec(delete(OutboxEmail).where(OutboxEmail.to_email == user.email))
    session.exec(delete(ContactMessage).where(ContactMessage.email == user.email))
    session.exec(delete(LoginAttempt).where(LoginAttempt.email == user.email))
    session.exec(delete(PayoutAccount).where(PayoutAccount.user_id == user_id))
    photo = _blank_profile(session, user)
    now = utcnow()
    user.email = removed_email(user_id)
    user.password_hash = UNUSABLE_PASSWORD_HASH
    user.is_active = False
    user.deleted_at = now
    session.add(user)
    session.flush()
    return photo


def _blank_profile(session: Session, user: User) -> str:
    """Blank every personal field of the profile (creating it if missing); returns the former photo URL."""
    profile = session.get(Profile, user.id) or Profile(user_id=user.id, tipo_usuario=user.role)
    photo = profile.foto_url or ""
    profile.nome = REMOVED_NAME
    profile.empresa = ""
    for field in (
        "telefone",
        "endereco",
        "localizacao",
        "biografia",
        "foto_url",
        "website",
        "profissao",
        "experiencia_descricao",
        "industria",
        "descricao",
    ):
        setattr(profile, field, "")
    profile.habilidades = []
    profile.redes_sociais = {}
    profile.updated_at = utcnow()
    session.add(profile)
    return photo
