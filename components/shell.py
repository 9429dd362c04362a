"""The public site shell: sticky top bar (with the mobile menu) and footer."""

import reflex as rx

from components.install_app import install_button
from components.links import link_button
from core import routes
from core.catalog import CITIES
from core.settings import get_settings
from states.auth import AuthState
from states.shell import ShellState

DESKTOP = ["none", "none", "flex"]
MOBILE = ["flex", "flex", "none"]
CITY_LABEL = "Sua cidade"  # what the header's city picker is (issue 42 point 13)


def logo() -> rx.Component:
    """The product name linking home."""
    return rx.link(
        rx.hstack(
            rx.icon("briefcase-business", size=24, color=rx.color("accent", 9)),
            rx.text(get_settings().product_name, weight="bold", size="5"),
            spacing="2",
            align="center",
        ),
        href=routes.HOME,
        underline="none",
        color=rx.color("gray", 12),
        aria_label=f"{get_settings().product_name}: página inicial",
    )


def city_picker(field_id: str, first_label: str) -> rx.Component:
    """A labelled native city select; choosing a city goes to /jobs?city=…."""
    return rx.el.select(
        rx.el.option(first_label, value=""),
        *[rx.el.option(city, value=city) for city in CITIES],
        id=field_id,
        value=ShellState.city,
        on_change=ShellState.choose_city,
        class_name="turno-select",
    )


def search_box(field_id: str) -> rx.Component:
    """Search form; submits only non-blank text."""
    return rx.form(
        rx.hstack(
            rx.input(
                id=field_id,
                name="search",
                type="search",
                placeholder="Buscar vagas...",
                aria_label="Buscar vagas",
                width="100%",
            ),
            rx.button(rx.icon("search", size=16), type="submit", variant="soft", aria_label="Buscar"),
            spacing="1",
            width="100%",
        ),
        on_submit=ShellState.search,
        reset_on_submit=False,
        width="100%",
        role="search",
    )


def account_buttons(direction: str = "row") -> rx.Component:
    """Entrar/Cadastrar for visitors; the dashboard and Sair for signed-in users."""
    return rx.cond(
        AuthState.signed_in,
        rx.flex(
            link_button(
                "Meu painel",
                variant="soft",
                size="2",
                href=rx.match(
                    AuthState.user_role,
                    ("client", routes.CLIENT_DASHBOARD),
                    ("admin", routes.ADMIN),
                    routes.FREELANCER_DASHBOARD,
                ),
            ),
            rx.button("Sair", variant="outline", on_click=AuthState.logout),
            direction=direction,
            spacing="2",
        ),
        rx.flex(
            link_button("Entrar", variant="outline", size="2", href=routes.LOGIN),
            link_button("Cadastrar", size="2", href=routes.REGISTER),
            direction=direction,
            spacing="2",
        ),
    )


def nav_links(direction: str = "row") -> rx.Component:
    """Início and Vagas."""
    return rx.flex(
        rx.link("Início", href=routes.HOME, color=rx.color("gray", 12), weight="medium"),
        rx.link("Vagas", href=routes.JOBS, color=rx.color("gray", 12), weight="medium"),
        direction=direction,
        spacing="5",
    )


def mobile_menu() -> rx.Component:
    """Full-screen menu below 768 px: city dropdown, links and account buttons."""
    return rx.cond(
        ShellState.menu_open,
        rx.box(
            rx.vstack(
                rx.hstack(
                    logo(),
                    rx.spacer(),
                    rx.icon_button(
                        rx.icon("x"), variant="ghost", on_click=ShellState.close_menu, aria_label="Fechar menu"
                    ),
                    width="100%",
                ),
                rx.el.label(CITY_LABEL, html_for="mobile-city", style={"fontWeight": "500"}),
                city_picker("mobile-city", "Todas as cidades"),
                # A link or button followed closes the menu: the page it opens is not hidden behind it.
                rx.flex(
                    nav_links("column"),
                    account_buttons("column"),
                    direction="column",
                    gap="1rem",
                    on_click=ShellState.close_menu,
                ),
                spacing="4",
                padding="1.25rem",
                align="stretch",
            ),
            id="mobile-menu",
            position="fixed",
            inset="0",
            z_index="50",
            background=rx.color("gray", 1),
            overflow_y="auto",
        ),
    )


def navbar() -> rx.Component:
    """Sticky top bar."""
    return rx.el.header(
        rx.hstack(
            logo(),
            rx.hstack(
                rx.el.label(CITY_LABEL, html_for="desktop-city", class_name="turno-city-label"),
                city_picker("desktop-city", "Todas as cidades"),
                display=DESKTOP,
                spacing="2",
                align="center",
            ),
            rx.box(search_box("desktop-search"), display=DESKTOP, flex="1", max_width="380px"),
            rx.spacer(),
            rx.box(nav_links(), display=DESKTOP),
            rx.box(account_buttons(), display=DESKTOP),
            # The sign-up call to action stays in the first screen of a phone (issue 42 point 12).
            rx.cond(
                ~AuthState.signed_in,
                rx.box(
                    link_button("Cadastrar", size="2", href=routes.REGISTER, link_id="mobile-signup"), display=MOBILE
                ),
            ),
            rx.icon_button(
                rx.icon("menu"),
                variant="ghost",
                display=MOBILE,
                on_click=ShellState.toggle_menu,
                aria_label="Abrir menu",
                aria_expanded=ShellState.menu_open.to_string(),
            ),
            align="center",
            spacing="4",
            width="100%",
            max_width="1200px",
            margin_x="auto",
            padding_x="1rem",
            padding_y="0.75rem",
        ),
        rx.box(search_box("mobile-search"), display=MOBILE, padding_x="1rem", padding_bottom="0.75rem"),
        mobile_menu(),
        style={
            "position": "sticky",
            "top": "0",
            "zIndex": "40",
            "background": rx.color("gray", 1),
            "borderBottom": f"1px solid {rx.color('gray', 5)}",
        },
    )


FOOTER_LINKS: list[tuple[str, list[tuple[str, str]]]] = [
    (
        "Plataforma",
        [
            ("Vagas", routes.JOBS),
            ("Freelancers", routes.FREELANCERS),
            ("Como funciona", routes.HOW_IT_WORKS),
            ("Planos", routes.PRICING),
        ],
    ),
    (
        "Categorias",
        [
            ("Hotelaria", routes.category("hotel")),
            ("Gastronomia", routes.category("gastronomia")),
            ("Restaurante", routes.category("restaurante")),
            ("Eventos", routes.category("eventos")),
        ],
    ),
    (
        "Empresa",
        [
            ("Sobre nós", routes.ABOUT),
            ("Contato", routes.CONTACT),
            ("Termos de uso", routes.TERMS),
            ("Privacidade", routes.PRIVACY),
            ("Cookies", routes.COOKIES),
        ],
    ),
]


def footer() -> rx.Component:
    """Footer with the links of docs/product/site.md §1 (canonical category slugs) and the current year."""
    name = get_settings().product_name
    return rx.el.footer(
        rx.box(
            rx.grid(
                rx.vstack(
                    logo(),
                    rx.text(
                        "Conectamos empresas de hotelaria, gastronomia e eventos a freelancers qualificados.",
                        size="2",
                        color=rx.color("gray", 11),
                    ),
                    install_button(id="footer-install-app", size="2"),
                ),
                *[
                    rx.vstack(
                        rx.heading(title, as_="h2", size="3"),
                        *[rx.link(text, href=href, size="2", color=rx.color("gray", 11)) for text, href in links],
                        spacing="2",
                    )
                    for title, links in FOOTER_LINKS
                ],
                columns=rx.breakpoints(initial="1", sm="2", md="4"),
                spacing="6",
                width="100%",
            ),
            rx.text(
                "© ",
                rx.el.span(rx.Var("(new Date()).getFullYear()"), id="footer-year"),
                f" {name}. Todos os direitos reservados.",
                size="2",
                color=rx.color("gray", 11),
                margin_top="2rem",
            ),
            max_width="1200px",
            margin_x="auto",
            padding="2rem 1rem",
        ),
        style={"borderTop": f"1px solid {rx.color('gray', 5)}", "background": rx.color("gray", 2)},
    )


def shell(*children: rx.Component) -> rx.Component:
    """Wrap page content with the top bar and footer."""
    return rx.box(
        rx.el.a("Pular para o conteúdo", href="#conteudo", class_name="skip-link"),
        navbar(),
        rx.el.main(
            *children,
            id="conteudo",
            style={"maxWidth": "1200px", "margin": "0 auto", "padding": "2rem 1rem", "minHeight": "60vh"},
        ),
        footer(),
    )
