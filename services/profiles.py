"""The acting user's own profile, preferences and account facts; company profile completion."""

from typing import TypedDict

from sqlmodel import Session, func, select

from core.catalog import INDUSTRIES
from core.formatting import initials, long_date
from core.types import utcnow
from models import AuthSession, Profile, Role, User, UserPreferences
from services.errors import NotAllowed
from services.validation import CompanyProfileForm, parse

PROFILE_LOAD_FAILED = "Não foi possível carregar suas informações."
NOT_A_COMPANY = "Você precisa estar logado para atualizar seu perfil."
SOCIAL_NETWORKS = ("instagram", "facebook", "linkedin")
THEME_LABELS = {"light": "Claro", "dark": "Escuro", "system": "Padrão do sistema"}
LANGUAGE_LABELS = {"pt_BR": "Português (Brasil)", "en_US": "English (US)", "es_ES": "Español"}
NOTIFICATION_SWITCHES = (
    ("email_notifications", "Notificações por email"),
    ("push_notifications", "Notificações push"),
    ("marketing_emails", "Emails de marketing"),
    ("new_job_alerts", "Alertas de novas vagas"),
    ("application_updates", "Atualizações de candidaturas"),
)


class ProfileView(TypedDict):
    """Everything the dashboards show about the viewer's own profile."""

    role: str
    nome: str
    email: str
    initials: str
    foto_url: str
    empresa: str
    industria: str
    localizacao: str
    endereco: str
    telefone: str
    biografia: str
    descricao: str
    website: str
    profissao: str
    habilidades: list[str]
    experiencia: str
    instagram: str
    facebook: str
    linkedin: str


class SwitchView(TypedDict):
    """One persisted on/off preference."""

    label: str
    enabled: bool


class PreferencesView(TypedDict):
    """The viewer's persisted settings, with labels."""

    theme: str
    language: str
    switches: list[SwitchView]


class SecurityView(TypedDict):
    """Account facts shown under Segurança."""

    email: str
    created: str
    confirmed: str
    active_sessions: int


def _load(session: Session, user_id: int) -> tuple[User, Profile | None]:
    row = session.exec(
        select(User, Profile)
        .join(Profile, Profile.user_id == User.id, isouter=True)
        .where(User.id == user_id, User.deleted_at.is_(None))
    ).first()
    if row is None:
        raise NotAllowed(PROFILE_LOAD_FAILED)
    return row


def _view(user: User, profile: Profile | None) -> ProfileView:
    p = profile or Profile(user_id=user.id, tipo_usuario=user.role)
    networks = p.redes_sociais if isinstance(p.redes_sociais, dict) else {}
    return ProfileView(
        role=user.role,
        nome=p.nome,
        email=user.email,
        initials=initials(p.nome) or user.email[:1].upper(),
        foto_url=p.foto_url,
        empresa=p.empresa,
        industria=INDUSTRIES.get(p.industria, ""),
        localizacao=p.localizacao,
        endereco=p.endereco,
        telefone=p.telefone,
        biografia=p.biografia,
        descricao=p.descricao,
        website=p.website,
        profissao=p.profissao,
        habilidades=[str(s) for s in p.habilidades or []],
        experiencia=p.experiencia_descricao,
        **{name: str(networks.get(name, "") or "") for name in SOCIAL_NETWORKS},
    )


def get_own_profile(session: Session, user_id: int) -> ProfileView:
    """The acting user's profile and e-mail.

    Args:
        session: Open database session.
        user_id: The acting user (from the server-side session).

    Returns:
        A plain view of the profile (industry as its label).

    Raises:
        NotAllowed: When the account no longer exists.
    """
    return _view(*_load(session, user_id))


def update_company_profile(session: Session, user_id: int, data: dict) -> ProfileView:
    """Save the company profile completion form of the acting company.

    Args:
        session: Open database session (the caller commits).
        user_id: The acting user (from the server-side session).
        data: Raw form data: biografia, endereco, telefone, website, instagram, facebook, linkedin.

    Returns:
        The updated profile view.

    Raises:
        ValidationFailed: When a field breaks a rule (SPEC §9 minimums).
        NotAllowed: When the caller is not a company.
    """
    form = parse(CompanyProfileForm, data)
    user, profile = _load(session, user_id)
    if user.role != Role.CLIENT or profile is None:
        raise NotAllowed(NOT_A_COMPANY)
    profile.biografia = form.biografia
    profile.endereco = form.endereco
    profile.telefone = form.telefone
    profile.website = form.website
    profile.redes_sociais = {name: getattr(form, name) for name in SOCIAL_NETWORKS}
    profile.updated_at = utcnow()
    session.add(profile)
    session.flush()
    return _view(user, profile)


def get_preferences(session: Session, user_id: int) -> PreferencesView:
    """The acting user's persisted settings (defaults when never saved)."""
    prefs = session.get(UserPreferences, user_id) or UserPreferences(user_id=user_id)
    return PreferencesView(
        theme=THEME_LABELS.get(prefs.theme, THEME_LABELS["system"]),
        language=LANGUAGE_LABELS.get(prefs.language, LANGUAGE_LABELS["pt_BR"]),
        switches=[SwitchView(label=label, enabled=bool(getattr(prefs, name))) for name, label in NOTIFICATION_SWITCHES],
    )


def get_security(session: Session, user_id: int) -> SecurityView:
    """Account facts of the acting user: e-mail, dates and open sessions."""
    user, _ = _load(session, user_id)
    active = session.exec(
        select(func.count())
        .select_from(AuthSession)
        .where(AuthSession.user_id == user_id, AuthSession.expires_at > utcnow())
    ).one()
    return SecurityView(
        email=user.email,
        created=long_date(user.created_at),
        confirmed=long_date(user.email_confirmed_at) if user.email_confirmed_at else "",
        active_sessions=int(active or 0),
    )
