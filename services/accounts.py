"""Registration, e-mail confirmation, login and password recovery."""

from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from core.email import send_email
from core.security import hash_password, new_token, token_digest, verify_password
from core.settings import get_settings
from core.types import utcnow
from models import EmailToken, Profile, Role, TokenPurpose, User, UserPreferences
from services import sessions, throttle
from services.errors import ServiceError, ValidationFailed
from services.validation import (
    CompanyRegistration,
    EmailForm,
    FreelancerRegistration,
    LoginForm,
    PasswordChangeForm,
    ResetPasswordForm,
    parse,
)

INVALID_CREDENTIALS = "Email ou senha incorretos."
NOT_CONFIRMED = "Por favor, confirme seu email antes de fazer login."
EMAIL_TAKEN = "Este email já está cadastrado. Faça login ou use outro email."
INVALID_LINK = "Este link é inválido ou expirou. Solicite um novo."
WRONG_CURRENT_PASSWORD = "Senha atual incorreta."
ACCOUNT_GONE = "Não foi possível carregar suas informações."


@dataclass(frozen=True)
class LoginResult:
    """A successful login: the raw session token for the cookie and where to go."""

    token: str
    max_age: int | None
    redirect_to: str
    role: str


def register_company(session: Session, data: dict) -> User:
    """Create a confirmed-pending company account and e-mail its confirmation link.

    Args:
        session: Open database session (the caller commits).
        data: Raw form data (SPEC's company registration payload).

    Returns:
        The new user.

    Raises:
        ValidationFailed: When a field breaks a rule.
        ServiceError: When the e-mail is already registered.
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


def register_freelancer(session: Session, data: dict) -> User:
    """Create a freelancer account and e-mail its confirmation link.

    Args:
        session: Open database session (the caller commits).
        data: Raw form data (SPEC's freelancer registration payload).

    Returns:
        The new user.
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


def _create_account(session: Session, email: str, password: str, role: Role, profile: Profile) -> User:
    if session.exec(select(User.id).where(User.email == email)).first() is not None:
        raise ServiceError(EMAIL_TAKEN, {"email": EMAIL_TAKEN})
    user = User(email=email, password_hash=hash_password(password), role=role)
    session.add(user)
    try:
        session.flush()
    except IntegrityError:
        raise ServiceError(EMAIL_TAKEN, {"email": EMAIL_TAKEN}) from None
    profile.user_id = user.id
    session.add(profile)
    session.add(UserPreferences(user_id=user.id))
    send_confirmation(session, user)
    return user


def send_confirmation(session: Session, user: User) -> None:
    """E-mail a fresh confirmation link to `user`."""
    settings = get_settings()
    token = _issue_token(session, user, TokenPurpose.CONFIRM_EMAIL, timedelta(hours=settings.confirm_token_hours))
    link = f"{settings.site_url}/confirm-email?token={token}"
    send_email(
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
    row = _consume_token(session, token, TokenPurpose.CONFIRM_EMAIL)
    user = session.get(User, row.user_id)
    if user is None:
        raise ServiceError(INVALID_LINK)
    if user.email_confirmed_at is None:
        user.email_confirmed_at = utcnow()
        session.add(user)
    return user


def login(session: Session, data: dict, address: str) -> LoginResult:
    """Check credentials, throttle repeated failures and open a server-side session.

    Unknown e-mail and wrong password take the same time and give the same message.

    Args:
        session: Open database session (the caller commits).
        data: Raw form data (email, password, remember).
        address: The client's IP address, for per-address throttling.

    Returns:
        The session token and where the user goes next.

    Raises:
        ValidationFailed: Bad e-mail or empty password.
        ServiceError: Throttled, wrong credentials, or e-mail not confirmed.
    """
    form = parse(LoginForm, data)
    throttle.check(session, form.email, address)
    user = session.exec(select(User).where(User.email == form.email, User.deleted_at.is_(None))).first()
    ok = verify_password(form.password, user.password_hash if user else None)
    if not ok or user is None or not user.is_active:
        throttle.record_failure(session, form.email, address)
        raise ServiceError(INVALID_CREDENTIALS)
    if user.email_confirmed_at is None:
        raise ServiceError(NOT_CONFIRMED)
    throttle.record_success(session, form.email, address)
    token, max_age = sessions.create(session, user.id, remember=form.remember_me)
    return LoginResult(token=token, max_age=max_age, redirect_to=dashboard_for(user.role), role=user.role)


def dashboard_for(role: str | None) -> str:
    """The dashboard route of a role: clients to /client-dashboard, anyone else to freelancers."""
    return "/client-dashboard" if role == Role.CLIENT else "/freelancer-dashboard"


def request_password_reset(session: Session, data: dict) -> None:
    """E-mail a single-use reset link valid for an hour, if the account exists.

    The caller shows the same answer whether or not the e-mail is registered.

    Raises:
        ValidationFailed: When the e-mail is not valid.
    """
    form = parse(EmailForm, data)
    user = session.exec(select(User).where(User.email == form.email, User.deleted_at.is_(None))).first()
    if user is None:
        return
    settings = get_settings()
    token = _issue_token(session, user, TokenPurpose.RESET_PASSWORD, timedelta(minutes=settings.reset_token_minutes))
    link = f"{settings.site_url}/reset-password?token={token}"
    send_email(
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
    """Set a new password through a reset link; ends every open session of the account.

    Raises:
        ValidationFailed: When the new password breaks a rule.
        ServiceError: When the link is invalid, used or expired.
    """
    form = parse(ResetPasswordForm, data)
    row = _consume_token(session, token, TokenPurpose.RESET_PASSWORD)
    user = session.get(User, row.user_id)
    if user is None:
        raise ServiceError(INVALID_LINK)
    user.password_hash = hash_password(form.password)
    if user.email_confirmed_at is None:
        user.email_confirmed_at = utcnow()
    session.add(user)
    sessions.revoke_all(session, user.id)
    return user


def change_password(session: Session, user_id: int, data: dict, keep_token: str | None, address: str) -> int:
    """Settings > Segurança: check the current password, set the new one, end the other sessions.

    Wrong current passwords count as failed logins of the account (services.throttle), so this
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
        ValidationFailed: SPEC's messages; 'Senha atual incorreta.' on the current password.
        ServiceError: Throttled, or the account no longer exists.
    """
    form = parse(PasswordChangeForm, data)
    user = session.exec(select(User).where(User.id == user_id, User.deleted_at.is_(None))).first()
    if user is None:
        raise ServiceError(ACCOUNT_GONE)
    throttle.check(session, user.email, address)
    if not verify_password(form.current, user.password_hash):
        throttle.record_failure(session, user.email, address)
        raise ValidationFailed({"current": WRONG_CURRENT_PASSWORD})
    user.password_hash = hash_password(form.new)
    session.add(user)
    return sessions.revoke_others(session, user.id, keep_token)


def _issue_token(session: Session, user: User, purpose: TokenPurpose, ttl: timedelta) -> str:
    token = new_token()
    session.add(EmailToken(user_id=user.id, purpose=purpose, token_hash=token_digest(token), expires_at=utcnow() + ttl))
    return token


def _find_token(session: Session, token: str, purpose: TokenPurpose) -> EmailToken | None:
    if not isinstance(token, str) or not token or len(token) > 200:
        return None
    row = session.exec(
        select(EmailToken).where(EmailToken.token_hash == token_digest(token), EmailToken.purpose == purpose)
    ).first()
    if row is None or row.used_at is not None or row.expires_at <= utcnow():
        return None
    return row


def _consume_token(session: Session, token: str, purpose: TokenPurpose) -> EmailToken:
    row = _find_token(session, token, purpose)
    if row is None:
        raise ServiceError(INVALID_LINK)
    row.used_at = utcnow()
    session.add(row)
    return row


@dataclass(frozen=True)
class GuardDecision:
    """Where a page guard sends the browser.

    Attributes:
        redirect_to: The route to go to, or None to stay on the page.
        restricted_to: 'empresas' or 'freelancers' when the caller has the other role (the
            'Acesso Restrito' notice), else None.
    """

    redirect_to: str | None = None
    restricted_to: str | None = None


def guard(caller_role: str | None, required_role: str | None) -> GuardDecision:
    """Decide a page guard (SPEC §6): no session -> /login; the other role -> own dashboard.

    Args:
        caller_role: The signed-in user's role, or None for a visitor.
        required_role: The role the page is for, or None for any signed-in user.

    Returns:
        The decision; an empty one lets the caller stay.
    """
    if caller_role is None:
        return GuardDecision(redirect_to="/login")
    if required_role is not None and caller_role != required_role:
        area = "empresas" if required_role == Role.CLIENT else "freelancers"
        return GuardDecision(redirect_to=dashboard_for(caller_role), restricted_to=area)
    return GuardDecision()
