"""The acting user's own profile, preferences and account facts; company profile completion."""

from typing import TypedDict

from sqlmodel import Session, func, select

from core.catalog import INDUSTRIES
from core.formatting import initials, long_date
from core.types import utcnow
from models import AuthSession, Profile, Role, User, UserPreferences
from services.common.errors import NotAllowed
from services.common.profile_forms import AppearanceForm, CompanyProfileForm, FreelancerProfileForm
from services.common.validation import parse

PROFILE_LOAD_FAILED = "Não foi possível carregar suas informações."
NOT_A_COMPANY = "Você precisa estar logado para atualizar seu perfil."
NOT_A_FREELANCER = NOT_A_COMPANY
SOCIAL_NETWORKS = ("instagram", "facebook", "linkedin")
THEME_LABELS = {"light": "Claro", "dark": "Escuro", "system": "Padrão do sistema"}
LANGUAGE_LABELS = {"pt_BR": "Português (Brasil)", "en_US": "English (US)", "es_ES": "Español"}
NOTIFICATION_SWITCHES = (
    ("email_notifications", "Notificações por email", "Receba por e-mail uma cópia das suas notificações."),
    (
        "push_notifications",
        "Notificações push",
        "Veja um aviso na tela e nos aparelhos ativados abaixo quando uma notificação chegar.",
    ),
    ("marketing_emails", "Emails de marketing", "Novidades e ofertas; só enviamos com a sua autorização."),
    ("new_job_alerts", "Alertas de novas vagas", "Seja avisado quando uma vaga for publicada na sua cidade."),
    (
        "application_updates",
        "Atualizações de candidaturas",
        "Candidaturas recebidas, aceitas, recusadas e vagas encerradas.",
    ),
)
FREELANCER_ONLY_SWITCHES = frozenset({"new_job_alerts"})


class ProfileView(TypedDict):
    """Everything the dashboards show about the viewer's own profile."""

    id: int
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

    name: str
    label: str
    description: str
    enabled: bool


class PreferencesView(TypedDict):
    """The viewer's persisted settings: the theme's key and label, the language label, the switches."""

    theme: str
    theme_label: str
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
        id=user.id,
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


def publish_defaults(session: Session, company_id: int) -> tuple[str, str]:
    """The city and the address a new vaga starts with: the company profile's ('' for none).

    Args:
        session: Open database session.
        company_id: The acting company (from the server-side session).

    Returns:
        (localizacao, endereco) of the company's own profile.
    """
    row = session.exec(
        select(Profile.localizacao, Profile.endereco).where(
            Profile.user_id == company_id, Profile.tipo_usuario == Role.CLIENT
        )
    ).first()
    return (row[0] or "", row[1] or "") if row is not None else ("", "")


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


def own_profile_and_theme(session: Session, user_id: int) -> tuple[ProfileView, str]:
    """The acting user's profile and chosen theme in one statement (what every dashboard page loads).

    Raises:
        NotAllowed: When the account no longer exists.
    """
    row = session.exec(
        select(User, Profile, UserPreferences.theme)
        .join(Profile, Profile.user_id == User.id, isouter=True)
        .join(UserPreferences, UserPreferences.user_id == User.id, isouter=True)
        .where(User.id == user_id, User.deleted_at.is_(None))
    ).first()
    if row is None:
        raise NotAllowed(PROFILE_LOAD_FAILED)
    user, profile, theme = row
    return _view(user, profile), theme if theme in THEME_LABELS else "system"


def update_company_profile(session: Session, user_id: int, data: dict) -> ProfileView:
    """Save the company profile completion form of the acting company.

    Args:
        session: Open database session (the caller commits).
        user_id: The acting user (from the server-side session).
        data: Raw form data: empresa, biografia, endereco, telefone, website, instagram, facebook, linkedin.

    Returns:
        The updated profile view.

    Raises:
        ValidationFailed: When a field breaks a rule (docs/product/validation.md §3, company profile).
        NotAllowed: When the caller is not a company.
    """
    form = parse(CompanyProfileForm, data)
    user, profile = _load(session, user_id)
    if user.role != Role.CLIENT or profile is None:
        raise NotAllowed(NOT_A_COMPANY)
    profile.empresa = form.empresa
    profile.biografia = form.biografia
    profile.endereco = form.endereco
    profile.telefone = form.telefone
    profile.website = form.website
    profile.redes_sociais = {name: getattr(form, name) for name in SOCIAL_NETWORKS}
    profile.updated_at = utcnow()
    session.add(profile)
    session.flush()
    return _view(user, profile)


def update_freelancer_profile(session: Session, user_id: int, data: dict) -> ProfileView:
    """Save the acting freelancer's 'Meu Perfil' form (the e-mail is not editable here).

    Args:
        session: Open database session (the caller commits).
        user_id: The acting user (from the server-side session).
        data: Raw form data: nome, telefone, endereco, localizacao, profissao, habilidades
            (comma-separated), biografia, experiencia, website.

    Returns:
        The updated profile view.

    Raises:
        ValidationFailed: When a field breaks a rule (docs/product/validation.md §3, freelancer profile).
        NotAllowed: When the caller is not a freelancer.
    """
    form = parse(FreelancerProfileForm, data)
    user, profile = _load(session, user_id)
    if user.role != Role.FREELANCER or profile is None:
        raise NotAllowed(NOT_A_FREELANCER)
    profile.nome = form.nome
    profile.telefone = form.telefone
    profile.endereco = form.endereco
    profile.localizacao = form.localizacao
    profile.profissao = form.profissao
    profile.habilidades = form.skills
    profile.biografia = form.biografia
    profile.experiencia_descricao = form.experiencia
    profile.website = form.website
    profile.updated_at = utcnow()
    session.add(profile)
    session.flush()
    return _view(user, profile)


def _preferences_row(session: Session, user_id: int) -> UserPreferences:
    """The user's settings row, created with its defaults (docs/product/accounts.md §8) on first save (the caller commits)."""
    _load(session, user_id)
    prefs = session.get(UserPreferences, user_id)
    if prefs is None:
        prefs = UserPreferences(user_id=user_id)
        session.add(prefs)
    return prefs


def _switches_for(role: str) -> tuple[tuple[str, str, str], ...]:
    return tuple(s for s in NOTIFICATION_SWITCHES if role == Role.FREELANCER or s[0] not in FREELANCER_ONLY_SWITCHES)


def _preferences_view(prefs: UserPreferences, role: str) -> PreferencesView:
    theme = prefs.theme if prefs.theme in THEME_LABELS else "system"
    return PreferencesView(
        theme=theme,
        theme_label=THEME_LABELS[theme],
        language=LANGUAGE_LABELS.get(prefs.language, LANGUAGE_LABELS["pt_BR"]),
        switches=[
            SwitchView(name=name, label=label, description=description, enabled=bool(getattr(prefs, name)))
            for name, label, description in _switches_for(role)
        ],
    )


def get_preferences(session: Session, user_id: int) -> PreferencesView:
    """The acting user's persisted settings (defaults when never saved).

    'Alertas de novas vagas' is a freelancer's switch: companies do not see it.
    """
    user, _ = _load(session, user_id)
    prefs = session.get(UserPreferences, user_id) or UserPreferences(user_id=user_id)
    return _preferences_view(prefs, user.role)


def save_theme(session: Session, user_id: int, data: dict) -> str:
    """Save the acting user's theme (Aparência).

    Args:
        session: Open database session (the caller commits).
        user_id: The acting user.
        data: Raw form data with `theme` (light, dark or system).

    Returns:
        The saved theme.

    Raises:
        ValidationFailed: 'Por favor selecione um tema.' for anything else.
    """
    form = parse(AppearanceForm, data)
    prefs = _preferences_row(session, user_id)
    prefs.theme = form.theme
    session.flush()
    return form.theme


def save_notifications(session: Session, user_id: int, data: dict) -> PreferencesView:
    """Save the acting user's notification switches; a switch left out of `data` is off.

    Only the switches of the user's role are touched; values are read as checkbox values
    ('on', 'true', True), anything else is off.

    Args:
        session: Open database session (the caller commits).
        user_id: The acting user.
        data: Raw form data keyed by switch name.

    Returns:
        The saved settings.
    """
    user, _ = _load(session, user_id)
    prefs = _preferences_row(session, user_id)
    data = data if isinstance(data, dict) else {}
    for name, _label, _description in _switches_for(user.role):
        value = data.get(name)
        setattr(prefs, name, value is True or (isinstance(value, str) and value.lower() in {"on", "true", "1"}))
    session.flush()
    return _preferences_view(prefs, user.role)


def theme_of(session: Session, user_id: int) -> str:
    """The theme the user chose ('system' when never saved)."""
    theme = session.exec(select(UserPreferences.theme).where(UserPreferences.user_id == user_id)).first()
    return theme if theme in THEME_LABELS else "system"


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
