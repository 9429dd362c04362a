"""Registration, e-mail confirmation, login and password recovery."""

import logging
from dataclasses import dataclass
from datetime import timedelta

from sqlmodel import Session, select, update

from core import audit, routes
from core.security import hash_password, new_token, token_digest, verify_password
from core.settings import get_settings
from core.types import utcnow
from models import EmailToken, Profile, Role, TokenPurpose, User, UserPreferences
from services.accounts import devices, sessions
from services.common import rate_limits, throttle
from services.common.account_forms import (
    CompanyRegistration,
    EmailForm,
    FreelancerRegistration,
    LoginForm,
    PasswordChangeForm,
    ResetPasswordForm,
    StaffAccountForm,
)
from services.common.email import send_after_commit
from services.common.errors import ServiceError, ValidationFailed
from services.common.validation import parse

INVALID_CREDENTIALS = "Email ou senha incorretos."
NOT_CONFIRMED = "Por favor, confirme seu email antes de fazer login."
INVALID_LINK = "Este link é inválido ou expirou. Solicite um novo."
WRONG_CURRENT_PASSWORD = "Senha atual incorreta."
ACCOUNT_GONE = "Não foi possível carregar suas informações."
EMAIL_OF_NON_STAFF = "Este e-mail já pertence a uma conta de empresa ou profissional."
STAFF_NAME = "Equipe Turno"

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class LoginResult:
    """A successful login: the raw session and device tokens for their cookies, and where to go."""

    token: str
    max_age: int | None
    redirect_to: str
    role: str
    device_token: str = ""
    device_max_age: int = 0


def validate_company(data: dict) -> None:
    """Check a company registration form without touching the database.

    Raises:
        ValidationFailed: When a field breaks a rule (the messages of docs/product/validation.md §3).
    """
    parse(CompanyRegistration, data)


def validate_freelancer(data: dict) -> None:
    """Check a freelancer registration form without touching the database.

    Raises:
        ValidationFailed: When a field breaks a rule (the messages of docs/product/validation.md §3).
    """
    parse(FreelancerRegistration, data)


def register_company(session: Session, data: dict) -> User | None:
    """Create a confirmed-pending company account and e-mail its confirmation link.

    Args:
        session: Open database session (the caller commits).
        data: Raw form data (the company registration form, docs/product/accounts.md §2).

    Returns:
        The new user, or None when the e-mail was already registered (its owner is e-mailed
        instead; the caller answers exactly as for a new account).

    Raises:
        ValidationFailed: When a field breaks a rule.
    """
    form = parse(CompanyRegistration, data)
    profile = Profile(
        tipo_usuario=Role.CLIENT,
        nome=form.name,
        empresa=form.company,
        industria=form.industry,
        localizacao=form.location,
        descricao=form.description,
        website=form.website,
    )
    return _create_account(session, form.email, form.password, Role.CLIENT, profile)


def register_freelancer(session: Session, data: dict) -> User | None:
    """Create a freelancer account and e-mail its confirmation link.

    Args:
        session: Open database session (the caller commits).
        data: Raw form data (the freelancer registration form, docs/product/accounts.md §2).

    Returns:
        The new user, or None when the e-mail was already registered (see register_company).
    """
    form = parse(FreelancerRegistration, data)
    profile = Profile(
        tipo_usuario=Role.FREELANCER,
        nome=form.name,
        profissao=form.profession,
        habilidades=form.skill_list,
        localizacao=form.location,
        experiencia_descricao=form.experience,
    )
    return _create_account(session, form.email, form.password, Role.FREELANCER, profile)


def _create_account(session: Session, email: str, password: str, role: Role, profile: Profile) -> User | None:
    """Create the account, or e-mail the owner when the address is already registered.

    Both cases answer the caller alike and do the same expensive work (one bcrypt hash, one
    e-mail), so the registration form cannot tell whether an address has an account: the only
    one told is the address's owner, by e-mail. Returns None for a registered address.
    """
    password_hash = hash_password(password)
    existing = session.exec(select(User).where(User.email == email)).first()
    if existing is not None:
        _send_already_registered(session, existing)
        return None
    user = User(email=email, password_hash=password_hash, role=role)
    session.add(user)
    session.flush()
    profile.user_id = user.id
    session.add(profile)
    session.add(UserPreferences(user_id=user.id))
    send_confirmation(session, user)
    return user


def _send_already_registered(session: Session, user: User) -> None:
    """Tell an account's owner that someone tried to register their address, with the ways back in.

    The recovery link is a fresh single-use reset link, as /forgot-password would send; issuing
    it also gives this path the writes of a new registration's confirmation link (token and
    e-mail), so both answers cost the server about the same.
    """
    if not _may_mail(session, user.email):
        return
    settings = get_settings()
    token = _issue_token(session, user, TokenPurpose.RESET_PASSWORD, timedelta(minutes=settings.reset_token_minutes))
    send_after_commit(
        session,
        user.email,
        f"Tentativa de cadastro no {settings.product_name}",
        f"Olá!\n\nAlguém tentou criar uma conta com este e-mail no {settings.product_name}, mas ele já "
        "tem uma conta.\n\n"
        f"Se foi você, entre na sua conta:\n{settings.site_url}/login\n\n"
        "Se esqueceu a senha, crie uma nova (link válido por 1 hora):\n"
        f"{settings.site_url}/reset-password?token={token}\n\n"
        "Se não foi você, ignore esta mensagem; nada foi alterado na sua conta.",
    )


def send_registration_failed(session: Session, email: object) -> None:
    """Tell the person at `email` that their registration could not be completed (after every retry failed).

    The form had already answered that the account was created; this e-mail keeps the failure from
    being lost silently. Nothing is said about whether the address has an account.
    """
    if not isinstance(email, str) or "@" not in email or not _may_mail(session, email):
        return
    settings = get_settings()
    send_after_commit(
        session,
        email.strip().lower()[:254],
        f"Não conseguimos concluir seu cadastro no {settings.product_name}",
        "Olá!\n\nRecebemos seu cadastro, mas não conseguimos concluí-lo por um erro do nosso lado. "
        f"Nenhuma conta foi criada.\n\nTente novamente em alguns minutos:\n{settings.site_url}/register\n\n"
        "Se você não se cadastrou, ignore esta mensagem.",
    )


def _may_mail(session: Session, email: str) -> bool:
    """Whether another account e-mail may go to `email` this hour (services/common/rate_limits.py); logs when not.

    Registration and recovery answer before this runs, so the answer never tells whether a
    message was sent.
    """
    if rate_limits.allow(session, rate_limits.Kind.ACCOUNT_MAIL, email):
        return True
    log.warning("account e-mail not sent: the recipient's hourly limit is reached")
    return False


def send_confirmation(session: Session, user: User) -> None:
    """E-mail a fresh confirmation link to `user` (over SMTP only after the commit)."""
    if not _may_mail(session, user.email):
        return
    settings = get_settings()
    token = _issue_token(session, user, TokenPurpose.CONFIRM_EMAIL, timedelta(hours=settings.confirm_token_hours))
    link = f"{settings.site_url}/confirm-email?token={token}"
    send_after_commit(
        session,
        user.email,
        f"Confirme seu email no {settings.product_name}",
        f"Olá!\n\nConfirme seu email para ativar sua conta no {settings.product_name}:\n{link}\n\n"
        "Se você não criou esta conta, ignore esta mensagem.",
    )


def confirm_email(session: Session, token: str) -> User:
    """Mark the account of a confirmation token as confirmed (single use).

    Raises:
        ServiceError: When the token is unknown, used or expired.
    """
    user = session.get(User, _consume_token(session, token, TokenPurpose.CONFIRM_EMAIL))
    if user is None:
        raise ServiceError(INVALID_LINK)
    if user.email_confirmed_at is None:
        user.email_confirmed_at = utcnow()
        session.add(user)
    return user


def login(session: Session, data: dict, address: str, agent: str = "", device_token: str | None = None) -> LoginResult:
    """Check credentials, throttle repeated failures and open a server-side session.

    Unknown e-mail and wrong password take the same time and give the same message. Every
    outcome is written to the security log (core/audit.py) with the e-mail only as a keyed hash.
    A browser that signed in to this account before (its device cookie, services/accounts/devices.py) is
    throttled by its own failures only, never by strangers' failures on the account or the address.

    Args:
        session: Open database session (the caller commits).
        data: Raw form data (email, password, remember, and `next`: where the person was going, a
            same-site path checked by `routes.safe_next` against their role; else their dashboard).
        address: The client's IP address, for per-address throttling.
        agent: The client's User-Agent, for the security log only.
        device_token: The browser's trusted-device cookie, if it sent one.

    Returns:
        The session token, the device token to keep, and where the user goes next.

    Raises:
        ValidationFailed: Bad e-mail or empty password.
        ServiceError: Throttled, wrong credentials, or e-mail not confirmed.
    """
    where = audit.place(address)
    claimed = data.get("email") if isinstance(data, dict) else None
    try:
        form = parse(LoginForm, data)
        device = devices.trusted_for(session, device_token, form.email)
        throttle.check(session, form.email, address, trusted=device is not None)
    except ServiceError as exc:
        audit.login_failed(claimed, where, "throttled" if exc.message == throttle.THROTTLED else "invalid form", agent)
        raise
    user = session.exec(select(User).where(User.email == form.email, User.deleted_at.is_(None))).first()
    ok = verify_password(form.password, user.password_hash if user else None)
    if not ok or user is None or not user.is_active:
        throttle.record_failure(session, form.email, address, trusted=device is not None)
        audit.login_failed(form.email, where, _failure_reason(user, ok), agent)
        raise ServiceError(INVALID_CREDENTIALS)
    if user.email_confirmed_at is None:
        audit.login_failed(form.email, where, "e-mail not confirmed", agent)
        raise ServiceError(NOT_CONFIRMED)
    throttle.record_success(session, form.email, address, trusted=device is not None)
    token, max_age = sessions.create(session, user.id, remember=form.remember_me)
    kept_device, device_max_age = devices.remember(session, user.id, device, device_token)
    audit.login_succeeded(user.id, where, agent)
    back_to = routes.safe_next(data.get("next"), user.role) if isinstance(data, dict) else None
    return LoginResult(
        token=token,
        max_age=max_age,
        redirect_to=back_to or dashboard_for(user.role),
        role=user.role,
        device_token=kept_device,
        device_max_age=device_max_age,
    )


def _failure_reason(user: User | None, password_ok: bool) -> str:
    """Why credentials were refused, for the security log only (the user always sees one message)."""
    if user is None:
        return "unknown account"
    return "wrong password" if not password_ok else "inactive account"


def dashboard_for(role: str | None) -> str:
    """Where a role lands: clients on /client-dashboard, Turno staff on /admin, anyone else on freelancers'."""
    if role == Role.CLIENT:
        return routes.CLIENT_DASHBOARD
    if role == Role.ADMIN:
        return routes.ADMIN
    return routes.FREELANCER_DASHBOARD


def create_admin(session: Session, email: str, password: str) -> tuple[User, bool]:
    """Create a Turno staff account (role 'admin'), or set a new password on an existing one.

    Only the command line calls this (`python -m scripts.create_admin`); no form or handler does.
    The e-mail counts as confirmed. An existing staff account gets the new password and every one
    of its sessions ends; an e-mail of a company or freelancer account is refused.

    Args:
        session: Open database session (the caller commits).
        email: The staff member's e-mail.
        password: The password, under the same rules as registration's.

    Returns:
        The staff user, and True when it was created (False when its password was replaced).

    Raises:
        ValidationFailed: A bad e-mail or a weak password (messages by field).
        ServiceError: The e-mail belongs to a company or freelancer account (EMAIL_OF_NON_STAFF).
    """
    form = parse(StaffAccountForm, {"email": email, "password": password})
    existing = session.exec(select(User).where(User.email == form.email)).first()
    if existing is not None and existing.role != Role.ADMIN:
        raise ServiceError(EMAIL_OF_NON_STAFF)
    password_hash = hash_password(form.password)
    if existing is not None:
        existing.password_hash = password_hash
        session.add(existing)
        sessions.revoke_all(session, existing.id)
        session.flush()
        return existing, False
    user = User(email=form.email, password_hash=password_hash, role=Role.ADMIN, email_confirmed_at=utcnow())
    session.add(user)
    session.flush()
    session.add(Profile(user_id=user.id, tipo_usuario=Role.ADMIN, nome=STAFF_NAME))
    session.add(UserPreferences(user_id=user.id))
    session.flush()
    return user, True


def request_password_reset(session: Session, data: dict) -> None:
    """E-mail a single-use reset link valid for an hour, if the account exists.

    The caller shows the same answer whether or not the e-mail is registered. Callers that answer
    a browser split this in two (parse_reset_request, then send_reset_link after answering), so the
    answer does not wait for the writes only a registered address causes.

    Raises:
        ValidationFailed: When the e-mail is not valid.
    """
    send_reset_link(session, parse_reset_request(data))


def parse_reset_request(data: dict) -> str:
    """The normalized e-mail of a recovery form.

    Raises:
        ValidationFailed: When the e-mail is not valid.
    """
    return parse(EmailForm, data).email


def send_reset_link(session: Session, email: str) -> None:
    """Issue and e-mail a reset link when `email` has an account; do nothing otherwise.

    Over SMTP the message leaves after the commit, in a thread (services.common.email).
    """
    user = session.exec(select(User).where(User.email == email, User.deleted_at.is_(None))).first()
    if user is None or not _may_mail(session, user.email):
        return
    settings = get_settings()
    token = _issue_token(session, user, TokenPurpose.RESET_PASSWORD, timedelta(minutes=settings.reset_token_minutes))
    link = f"{settings.site_url}/reset-password?token={token}"
    send_after_commit(
        session,
        user.email,
        f"Redefinição de senha no {settings.product_name}",
        f"Recebemos um pedido para redefinir sua senha.\n\nCrie uma nova senha (link válido por 1 hora):\n{link}\n\n"
        "Se você não fez este pedido, ignore esta mensagem; sua senha continua a mesma.",
    )


def reset_token_is_valid(session: Session, token: str) -> bool:
    """Whether a reset token can still be used (for showing the form or the expired notice)."""
    return _find_token(session, token, TokenPurpose.RESET_PASSWORD) is not None


def reset_password(session: Session, token: str, data: dict) -> User:
    """Set a new password through a reset link; ends every session and device trust of the account.

    Raises:
        ValidationFailed: When the new password breaks a rule.
        ServiceError: When the link is invalid, used or expired.
    """
    form = parse(ResetPasswordForm, data)
    user = session.get(User, _consume_token(session, token, TokenPurpose.RESET_PASSWORD))
    if user is None:
        raise ServiceError(INVALID_LINK)
    user.password_hash = hash_password(form.password)
    if user.email_confirmed_at is None:
        user.email_confirmed_at = utcnow()
    session.add(user)
    sessions.revoke_all(session, user.id)
    devices.forget_all(session, user.id)
    return user


def change_password(session: Session, user_id: int, data: dict, keep_token: str | None, address: str) -> int:
    """Settings > Segurança: check the current password, set the new one, end the other sessions.

    Wrong current passwords count as failed logins of the account (services.common.throttle), so this
    form cannot be used to guess a password without limit.

    Args:
        session: Open database session (the caller commits).
        user_id: The acting user (from the server-side session).
        data: Raw form data: current, new, confirm.
        keep_token: The session token of the browser making the change (it stays signed in).
        address: The client's address, for throttling.

    Returns:
        How many other sessions were ended.

    Raises:
        ValidationFailed: The messages of docs/product/validation.md §3; 'Senha atual incorreta.' on the current password.
        ServiceError: Throttled, or the account no longer exists.
    """
    form = parse(PasswordChangeForm, data)
    user = session.exec(select(User).where(User.id == user_id, User.deleted_at.is_(None))).first()
    if user is None:
        raise ServiceError(ACCOUNT_GONE)
    throttle.check(session, user.email, address, trusted=True)
    if not verify_password(form.current, user.password_hash):
        throttle.record_failure(session, user.email, address, trusted=True)
        raise ValidationFailed({"current": WRONG_CURRENT_PASSWORD})
    user.password_hash = hash_password(form.new)
    session.add(user)
    return sessions.revoke_others(session, user.id, keep_token)


def _issue_token(session: Session, user: User, purpose: TokenPurpose, ttl: timedelta) -> str:
    token = new_token()
    session.add(EmailToken(user_id=user.id, purpose=purpose, token_hash=token_digest(token), expires_at=utcnow() + ttl))
    return token


def _token_shaped(token: object) -> bool:
    """Whether a link's token is worth looking up (a non-empty string of a sane length)."""
    return isinstance(token, str) and bool(token) and len(token) <= 200


def _find_token(session: Session, token: str, purpose: TokenPurpose) -> EmailToken | None:
    if not _token_shaped(token):
        return None
    row = session.exec(
        select(EmailToken).where(EmailToken.token_hash == token_digest(token), EmailToken.purpose == purpose)
    ).first()
    if row is None or row.used_at is not None or row.expires_at <= utcnow():
        return None
    return row


def _consume_token(session: Session, token: str, purpose: TokenPurpose) -> int:
    """Use a valid token once and return its account's id.

    One conditional UPDATE marks it used only while it is unused and unexpired, so two simultaneous
    submits of one link give one success: the second waits for the first's row lock (PostgreSQL) or
    write lock (SQLite) and then finds the token used.

    Raises:
        ServiceError: When the token is unknown, used or expired.
    """
    if not _token_shaped(token):
        raise ServiceError(INVALID_LINK)
    now = utcnow()
    user_id = session.execute(
        update(EmailToken)
        .where(
            EmailToken.token_hash == token_digest(token),
            EmailToken.purpose == purpose,
            EmailToken.used_at.is_(None),
            EmailToken.expires_at > now,
        )
        .values(used_at=now)
        .returning(EmailToken.user_id)
        .execution_options(synchronize_session=False)
    ).scalar_one_or_none()
    if user_id is None:
        raise ServiceError(INVALID_LINK)
    return user_id


AREAS = {Role.CLIENT: "empresas", Role.FREELANCER: "freelancers", Role.ADMIN: "a equipe Turno"}


@dataclass(frozen=True)
class GuardDecision:
    """Where a page guard sends the browser.

    Attributes:
        redirect_to: The route to go to, or None to stay on the page.
        restricted_to: 'empresas', 'freelancers' or 'a equipe Turno' when the caller has another
            role (the 'Acesso Restrito' notice), else None.
    """

    redirect_to: str | None = None
    restricted_to: str | None = None


def guard(caller_role: str | None, required_role: str | None, here: str = "") -> GuardDecision:
    """Decide a page guard (docs/product/site.md §1): no session -> /login; another role -> where it lands.

    Args:
        caller_role: The signed-in user's role, or None for a visitor.
        required_role: The role the page is for, or None for any signed-in user.
        here: The page asked for (path and query): a visitor signs in and comes back to it.

    Returns:
        The decision; an empty one lets the caller stay.
    """
    if caller_role is None:
        return GuardDecision(redirect_to=routes.login_with_next(here) if here else routes.LOGIN)
    if required_role is not None and caller_role != required_role:
        area = AREAS.get(required_role, "freelancers")
        return GuardDecision(redirect_to=dashboard_for(caller_role), restricted_to=area)
    return GuardDecision()
