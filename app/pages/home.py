"""/: hero, category pills, features, categories, how it works, testimonials, call to action."""

import reflex as rx

from app.layout import public_page
from components.categories import category_card
from components.links import link_button
from core import routes
from core.catalog import CATEGORIES
from core.db import session_scope
from core.settings import get_settings
from services.jobs import site_counts
from services.jobs.site_counts import SiteFigure
from states.shell import ShellState

PILLS = [("Hotelaria", "hotel"), ("Gastronomia", "gastronomia"), ("Restaurante", "restaurante"), ("Eventos", "eventos")]

FEATURES = [
    ("badge-check", "Perfis verificados", "Profissionais e empresas com cadastro confirmado."),
    ("search", "Busca avançada", "Encontre vagas por cidade, categoria e palavra-chave."),
    ("messages-square", "Chat integrado", "Converse e combine os detalhes sem sair da plataforma."),
    ("star", "Sistema de avaliações", "Avaliações mútuas ao fim de cada trabalho."),
    # docs/product/README.md: the home promises only what the product does ('Gestão de disponibilidade'
    # comes back with an availability feature).
    (
        "calendar-check",
        "Turnos do início ao fim",
        "Confirmação de presença, chegada por código ou localização e horas aprovadas no app.",
    ),
    (
        "shield-check",
        "Pagamentos seguros",
        "Com o Pagamento garantido pelo Turno, a empresa paga pelo Stripe ao aceitar e o profissional "
        "recebe depois das horas aprovadas.",
    ),
]

STEPS = [
    ("Cadastre-se", "Crie sua conta como empresa ou freelancer."),
    ("Publique ou busque", "Empresas publicam vagas e freelancers buscam oportunidades."),
    ("Candidate-se", "Freelancers enviam propostas personalizadas e as empresas avaliam."),
    ("Trabalhe", "Comunicação direta, registro de chegada por código ou localização e horas aprovadas no app."),
]


class HomeState(rx.State):
    """The home's real figures (services/jobs/site_counts.py): empty until they are worth showing."""

    figures: list[SiteFigure] = []

    @rx.event
    def load(self):
        """Read the figures worth showing (cached counts: the home stays fast)."""
        with session_scope() as db:
            self.figures = site_counts.home_figures(db)


def figures() -> rx.Component:
    """'57 vagas abertas agora · 1.234 freelancers cadastrados', or nothing below the thresholds."""
    return rx.cond(
        HomeState.figures.length() > 0,
        rx.flex(
            rx.foreach(
                HomeState.figures,
                lambda figure: rx.text(rx.el.strong(figure["number"]), " ", figure["label"]),
            ),
            spacing="4",
            wrap="wrap",
            justify="center",
            color=rx.color("gray", 11),
            id="home-figures",
        ),
    )


def hero() -> rx.Component:
    """Headline, search by address and category pills."""
    return rx.vstack(
        rx.heading(
            "Encontre profissionais para hotelaria, gastronomia e eventos",
            as_="h1",
            size=rx.breakpoints(initial="7", md="9"),
            text_align="center",
        ),
        rx.text(
            "Empresas publicam vagas temporárias e freelancers qualificados se candidatam em minutos.",
            size="5",
            color=rx.color("gray", 11),
            text_align="center",
        ),
        rx.form(
            rx.hstack(
                rx.input(
                    id="hero-search",
                    name="search",
                    placeholder="Digite um cargo, cidade ou endereço",
                    aria_label="Buscar vagas por cargo, cidade ou endereço",
                    size="3",
                    width="100%",
                ),
                rx.button("Buscar", type="submit", size="3"),
                width="100%",
            ),
            on_submit=ShellState.search,
            reset_on_submit=False,
            width="100%",
            max_width="600px",
        ),
        rx.flex(
            *[
                rx.link(rx.badge(label, size="3", variant="soft", radius="full"), href=routes.category(slug))
                for label, slug in PILLS
            ],
            rx.link(rx.badge("Ver mais", size="3", variant="outline", radius="full"), href=routes.CATEGORIES),
            wrap="wrap",
            spacing="2",
            justify="center",
        ),
        figures(),
        align="center",
        spacing="5",
        padding_y=rx.breakpoints(initial="1.5rem", md="3rem"),
        width="100%",
    )


def section(title: str, *children: rx.Component) -> rx.Component:
    """A titled home section."""
    return rx.vstack(rx.heading(title, as_="h2", size="7"), *children, spacing="4", padding_y="2rem", width="100%")


@public_page(routes.HOME, "Freelancers para hotelaria, gastronomia e eventos", on_load=[HomeState.load])
def home_page() -> rx.Component:
    """The landing page."""
    name = get_settings().product_name
    return rx.vstack(
        hero(),
        section(
            f"Por que usar o {name}?",
            rx.grid(
                *[
                    rx.card(
                        rx.vstack(
                            rx.icon(icon, color=rx.color("accent", 9)),
                            rx.heading(t, as_="h3", size="4"),
                            rx.text(d, color=rx.color("gray", 11)),
                        )
                    )
                    for icon, t, d in FEATURES
                ],
                columns=rx.breakpoints(initial="1", sm="2", md="3"),
                spacing="4",
                width="100%",
            ),
        ),
        section(
            "Categorias",
            rx.grid(
                *[category_card(slug, label) for slug, label in CATEGORIES.items()],
                columns=rx.breakpoints(initial="2", md="4"),
                spacing="4",
                width="100%",
            ),
        ),
        section(
            "Como funciona",
            rx.grid(
                *[
                    rx.card(
                        rx.vstack(
                            rx.badge(f"{i}", size="2", radius="full"),
                            rx.heading(t, as_="h3", size="4"),
                            rx.text(d, color=rx.color("gray", 11)),
                        )
                    )
                    for i, (t, d) in enumerate(STEPS, start=1)
                ],
                columns=rx.breakpoints(initial="1", sm="2", md="4"),
                spacing="4",
                width="100%",
            ),
        ),
        section(
            "Depoimentos",
            rx.card(
                rx.text(
                    "Em breve, depoimentos de empresas e freelancers que já usam a plataforma.",
                    color=rx.color("gray", 11),
                ),
                width="100%",
            ),
        ),
        rx.card(
            rx.vstack(
                rx.heading("Pronto para começar?", as_="h2", size="7"),
                rx.text("Cadastre-se gratuitamente e encontre a vaga ou o profissional ideal."),
                rx.flex(
                    link_button("Sou empresa", size="3", href=routes.register("client")),
                    link_button("Sou freelancer", size="3", variant="outline", href=routes.register("freelancer")),
                    spacing="3",
                    wrap="wrap",
                ),
                align="center",
                spacing="3",
            ),
            width="100%",
            size="4",
        ),
        width="100%",
        spacing="4",
    )
