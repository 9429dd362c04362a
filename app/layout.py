"""Page-template decorators: the public shell or a dashboard, each with its guard."""

import json
from collections.abc import Callable

import reflex as rx

from components.dashboard_shell import (
    Badge,
    NavItem,
    bottom_bar,
    desktop_header,
    mobile_top_bar,
    notification_bell,
    profile_sheet,
    sidebar,
)
from components.settings_panel import apply_theme_button
from components.shell import logo, shell
from core import routes, seo
from core.settings import get_settings
from models import Role
from states.auth import AuthState
from states.dashboard import DashboardState

SITE_DESCRIPTION = (
    "Vagas temporárias em hotelaria, gastronomia e eventos: empresas publicam turnos, freelancers "
    "se candidatam, combinam pelo chat e são contratados."
)


def preview_image() -> str:
    """The link-preview picture of every page, absolute on SITE_URL (Reflex's default is a missing favicon.ico)."""
    return seo.absolute(get_settings().site_url, seo.DEFAULT_IMAGE)


def page_title(title: str) -> str:
    """Browser title: 'Title | Turno'."""
    return f"{title} | {get_settings().product_name}"


def first_title(default: str) -> rx.Var:
    """The title the server wrote for this very address (core/seo.head_tags), else `default`.

    A page whose title depends on the URL shows it from the first paint; until the page has loaded
    its own, the app keeps the server's (React takes over the first `<title>` when it hydrates, and
    would otherwise write the page's default into it).
    """
    here = "window.location.pathname + window.location.search"
    found = (
        "(typeof document !== 'undefined' && [...document.querySelectorAll('title[data-seo]')]"
        f".find((title) => title.dataset.address === {here})?.textContent)"
    )
    return rx.Var(f"({found} || {json.dumps(default, ensure_ascii=False)})").to(str)


def _adopt_identity(page: Callable, content: Callable) -> None:
    """Give the registered page function the name and module of the page's own content function.

    Reflex writes a page's memoized components to a JS module named after the page function's
    Python module. Without this every page would be 'app.layout', and all pages' components would
    share one module that each route downloads whole (48 KB gzip of other pages' forms on /).
    """
    page.__name__ = content.__name__
    page.__qualname__ = content.__qualname__
    page.__module__ = content.__module__


def public_page(
    route: str,
    title: str | rx.Var,
    on_load: list | None = None,
    guard=None,
    description: str | None = SITE_DESCRIPTION,
) -> Callable:
    """Register a page inside the public shell.

    Args:
        route: The route constant from core.routes.
        title: The browser title (product name appended), or a Var holding the whole title.
        description: The meta description search engines show (None: the server writes one, as
            for the job pages of app/api/public_pages.py).
        on_load: Extra events to run after the session is loaded.
        guard: An AuthState guard event replacing the plain session load.

    Returns:
        A decorator for a function that returns the page content.
    """

    def decorator(content: Callable[[], rx.Component]) -> Callable[[], rx.Component]:
        def page() -> rx.Component:
            return shell(content())

        _adopt_identity(page, content)
        first = guard or AuthState.load_session
        shown = title if isinstance(title, rx.Var) else page_title(title)
        rx.page(
            route=route,
            title=shown,
            description=description,
            image=preview_image(),
            on_load=[first, *(on_load or [])],
        )(page)
        return page

    return decorator


def loading_page() -> rx.Component:
    """What a page whose path has a variable part (/jobs/12, chats) shows until its code has run.

    Those paths have no prerendered HTML: React Router serves one empty shell for all of them, so
    the browser painted nothing until every script had loaded and run. This (the app's
    hydrate_fallback) is in that shell: the brand bar and a loading line paint with the HTML.

    Returns:
        The top bar with the logo, and 'Carregando...'.
    """
    return rx.box(
        rx.box(
            rx.box(logo(), max_width="1200px", margin_x="auto", padding_x="1rem", padding_y="0.75rem"),
            style={"background": rx.color("gray", 1), "borderBottom": f"1px solid {rx.color('gray', 5)}"},
        ),
        rx.text(
            "Carregando...",
            role="status",
            color=rx.color("gray", 11),
            max_width="1200px",
            margin="0 auto",
            padding="2rem 1rem",
        ),
    )


def _tabs(role: str, entries: tuple[tuple[str, str, str], ...]) -> tuple[NavItem, ...]:
    return tuple(NavItem(key, label, icon, routes.dashboard_tab(role, key)) for key, label, icon in entries)


CLIENT_TABS = _tabs(
    Role.CLIENT,
    (
        ("overview", "Visão Geral", "layout-dashboard"),
        ("jobs", "Minhas Vagas", "briefcase"),
        ("hirings", "Contratações", "handshake"),
        ("shifts", "Turnos", "calendar-clock"),
        ("payments", "Pagamentos", "receipt"),
        ("team", "Minha equipe", "users-round"),
        ("freelancers", "Freelancers", "users"),
        ("messages", "Mensagens", "message-square"),
        ("notifications", "Notificações", "bell"),
        ("plans", "Planos", "credit-card"),
        ("profile", "Meu Perfil", "building-2"),
        ("settings", "Configurações", "settings"),
    ),
)
FREELANCER_TABS = _tabs(
    Role.FREELANCER,
    (
        ("overview", "Visão Geral", "layout-dashboard"),
        ("jobs", "Buscar Vagas", "search"),
        ("applications", "Minhas Candidaturas", "file-text"),
        ("shifts", "Meus Turnos", "calendar-clock"),
        ("earnings", "Meus Ganhos", "wallet"),
        ("messages", "Mensagens", "message-square"),
        ("notifications", "Notificações", "bell"),
        ("profile", "Meu Perfil", "user"),
        ("settings", "Configurações", "settings"),
    ),
)
MOBILE_TAB_ENTRIES = (
    ("overview", "Início", "house"),
    ("jobs", "Vagas", "briefcase"),
    ("shifts", "Turnos", "calendar-clock"),
    ("messages", "Mensagens", "message-square"),
    ("notifications", "Alertas", "bell"),
)
CLIENT_BOTTOM_TABS = _tabs(Role.CLIENT, MOBILE_TAB_ENTRIES)
FREELANCER_BOTTOM_TABS = _tabs(Role.FREELANCER, MOBILE_TAB_ENTRIES)


def dashboard_shell(role: str, active: rx.Var | str, content: rx.Component) -> rx.Component:
    """The dashboard frame: sidebar and header on desktop; top bar, sheet and bottom bar on mobile.

    Args:
        role: Role.CLIENT or Role.FREELANCER (chooses the tabs and the 'Nova Vaga' button).
        active: The key of the highlighted tab (a state var or a fixed key).
        content: The page's content.

    Returns:
        The whole page.
    """
    is_client = role == Role.CLIENT
    tabs = CLIENT_TABS if is_client else FREELANCER_TABS
    me = DashboardState.me
    alerts = routes.dashboard_tab(role, "notifications")
    badges = {
        "messages": Badge(DashboardState.messages_badge, DashboardState.unread_messages),
        "notifications": Badge(DashboardState.unread_badge, DashboardState.unread),
    }
    actions = (
        [
            rx.link(
                rx.button(rx.icon("plus", size=16), "Nova Vaga", id="new-job-button"),
                href=routes.new_job(),
            )
        ]
        if is_client
        else []
    )
    return rx.box(
        rx.el.a("Pular para o conteúdo", href="#conteudo", class_name="skip-link"),
        apply_theme_button(),
        rx.flex(
            sidebar(
                "Painel da Empresa" if is_client else "Painel do Freelancer", tabs, active, AuthState.logout, badges
            ),
            rx.box(
                desktop_header(
                    me["nome"],
                    me["empresa"] if is_client else me["profissao"],
                    notification_bell(alerts, DashboardState.unread_badge, DashboardState.unread, "bell-desktop"),
                    *actions,
                ),
                mobile_top_bar(
                    notification_bell(alerts, DashboardState.unread_badge, DashboardState.unread, "bell-mobile"),
                    me["foto_url"],
                    me["initials"],
                    DashboardState.open_sheet,
                ),
                rx.el.main(
                    content,
                    id="conteudo",
                    style={"maxWidth": "1100px", "margin": "0 auto", "padding": "1.5rem 1rem"},
                    padding_bottom=["96px", "96px", "2rem"],
                ),
                flex="1",
                min_width="0",
            ),
            width="100%",
            min_height="100vh",
        ),
        bottom_bar(CLIENT_BOTTOM_TABS if is_client else FREELANCER_BOTTOM_TABS, active, badges),
        profile_sheet(
            DashboardState.sheet_open,
            DashboardState.close_sheet,
            me,
            tabs,
            active,
            AuthState.logout,
            badges,
        ),
    )


def dashboard_page(
    route: str, title: str, role: str, on_load: list | None = None, active_tab: rx.Var | str = "overview"
) -> Callable:
    """Register a page inside the dashboard frame of a role, behind that role's guard.

    The guard only steers the browser (visitors to /login, the other role to its own dashboard
    with 'Acesso Restrito'); every data handler resolves the caller again on the server.

    Args:
        route: The route constant from core.routes.
        title: The browser title (product name appended).
        role: Role.CLIENT or Role.FREELANCER.
        on_load: The page's own load events, run after the guard and the frame's data.
        active_tab: The tab highlighted in the navigation (a state var or a fixed key).

    Returns:
        A decorator for a function that returns the page content.
    """
    guard = AuthState.guard_client if role == Role.CLIENT else AuthState.guard_freelancer

    def decorator(content: Callable[[], rx.Component]) -> Callable[[], rx.Component]:
        def page() -> rx.Component:
            return dashboard_shell(role, active_tab, content())

        _adopt_identity(page, content)
        events = [guard, DashboardState.load_chrome, *(on_load or [])]
        rx.page(route=route, title=page_title(title), image=preview_image(), on_load=events)(page)
        return page

    return decorator
