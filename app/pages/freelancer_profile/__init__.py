"""/freelancers/[id]: a freelancer's profile for the companies that received an application from them.

The freelancer sees the same page as a preview of their own. Everyone else, and any id that is not
an existing freelancer's, reads 'Perfil não encontrado' with nothing of the profile in the state:
`services.screens.public_profiles.freelancer_profile` loads the freelancer and checks the relationship in
one query, for the user resolved from the session cookie.

- state: `FreelancerProfileState`, `EMPTY_PROFILE` and `star_kinds`.
- here: the profile's view (header, about, experience, reviews, skills, website, applications),
  'Perfil não encontrado' and the page.
"""

import reflex as rx

from app.layout import public_page
from app.pages.freelancer_profile.state import FreelancerProfileState
from components.dashboard import APPLICATION_STATUS_COLORS, avatar, section_card, status_badge
from components.links import link_button
from components.pager import load_more, pager
from components.rating import STAR_COLOR
from components.ui import empty_state
from core import routes
from models import Role
from states.auth import AuthState

NOT_FOUND_TEXT = "Este perfil não existe ou você não tem permissão para vê-lo."
GRAY_TEXT = rx.color("gray", 11)


def _star(kind: rx.Var, size: int) -> rx.Component:
    """One star of an average: filled, half filled (a filled star clipped over an empty one) or empty."""
    empty = rx.icon("star", size=size, color=rx.color("gray", 8))
    filled = rx.icon("star", size=size, color=STAR_COLOR, fill=STAR_COLOR)
    return rx.match(
        kind,
        ("full", filled),
        (
            "half",
            rx.box(
                empty,
                rx.box(filled, position="absolute", top="0", left="0", style={"clipPath": "inset(0 50% 0 0)"}),
                position="relative",
                display="inline-flex",
            ),
        ),
        empty,
    )


def average_stars(kinds: rx.Var, size: int = 18) -> rx.Component:
    """The five stars of an average (decorative: the text beside them says the same)."""
    return rx.hstack(rx.foreach(kinds, lambda kind: _star(kind, size)), spacing="0", aria_hidden="true")


def review_stars(stars: rx.Var) -> rx.Component:
    """The stars one review gave, with the number for screen readers."""
    return rx.hstack(
        rx.hstack(
            *[
                rx.icon(
                    "star",
                    size=15,
                    color=rx.cond(stars >= n, STAR_COLOR, rx.color("gray", 8)),
                    fill=rx.cond(stars >= n, STAR_COLOR, "none"),
                )
                for n in range(1, 6)
            ],
            spacing="0",
            aria_hidden="true",
        ),
        rx.el.span(stars.to(str), " de 5 estrelas", class_name="sr-only"),
        spacing="1",
        align="center",
    )


def _back_link() -> rx.Component:
    return rx.link(
        rx.hstack(rx.icon("arrow-left", size=16), rx.text("Voltar ao painel"), spacing="1", align="center"),
        href=rx.cond(AuthState.user_role == Role.CLIENT, routes.CLIENT_DASHBOARD, routes.FREELANCER_DASHBOARD),
        id="profile-back",
        size="2",
        color=GRAY_TEXT,
    )


def _self_preview_note() -> rx.Component:
    return rx.cond(
        FreelancerProfileState.profile["is_self"],
        rx.callout.root(
            rx.callout.icon(rx.icon("eye")),
            rx.callout.text(
                "Esta é a prévia do seu perfil público: é o que veem as empresas que receberam sua candidatura. "
                "Seu e-mail, telefone e endereço não aparecem.",
            ),
            rx.link(
                "Editar meu perfil",
                href=routes.dashboard_tab(Role.FREELANCER, "profile"),
                weight="medium",
                size="2",
            ),
            color_scheme="blue",
            width="100%",
            id="profile-preview-note",
        ),
    )


def _header() -> rx.Component:
    profile = FreelancerProfileState.profile
    return rx.card(
        rx.flex(
            avatar(profile["photo"], profile["initials"], size="7"),
            rx.vstack(
                rx.text("Perfil do Freelancer", size="2", color=GRAY_TEXT, weight="medium"),
                rx.heading(profile["name"], as_="h1", size="7", id="profile-name", word_break="break-word"),
                rx.cond(
                    profile["profession"] != "",
                    rx.text(profile["profession"], size="4", id="profile-profession"),
                ),
                rx.cond(
                    profile["location"] != "",
                    rx.hstack(
                        rx.icon("map-pin", size=16, color=GRAY_TEXT),
                        rx.text(profile["location"], size="2", color=GRAY_TEXT, id="profile-location"),
                        spacing="1",
                        align="center",
                    ),
                ),
                rx.hstack(
                    average_stars(FreelancerProfileState.stars),
                    rx.text(profile["rating"], size="2", weight="medium", id="profile-rating"),
                    spacing="2",
                    align="center",
                    wrap="wrap",
                ),
                rx.cond(
                    profile["reliability"] != "",
                    rx.hstack(
                        rx.text(profile["reliability"], size="2", id="profile-reliability"),
                        rx.link("Como calculamos", href=routes.HOW_WE_CALCULATE, size="2"),
                        spacing="2",
                        wrap="wrap",
                    ),
                ),
                spacing="1",
                align=rx.breakpoints(initial="center", sm="start"),
                text_align=rx.breakpoints(initial="center", sm="left"),
                min_width="0",
            ),
            direction=rx.breakpoints(initial="column", sm="row"),
            align="center",
            gap="1.25rem",
            width="100%",
        ),
        size=rx.breakpoints(initial="2", sm="3"),
        width="100%",
    )


def _text_or_note(value: rx.Var, note: str, element_id: str) -> rx.Component:
    return rx.cond(
        value != "",
        rx.text(value, size="2", white_space="pre-wrap", word_break="break-word", id=element_id),
        rx.text(note, size="2", color=GRAY_TEXT),
    )


def _skills() -> rx.Component:
    skills = FreelancerProfileState.profile["skills"]
    return section_card(
        "Habilidades",
        rx.cond(
            skills.length() > 0,
            rx.flex(
                rx.foreach(skills, lambda skill: rx.badge(skill, variant="soft", size="2")),
                wrap="wrap",
                gap="0.4rem",
                id="profile-skills",
            ),
            rx.text("Nenhuma habilidade informada.", size="2", color=GRAY_TEXT),
        ),
    )


def _website() -> rx.Component:
    website = FreelancerProfileState.profile["website"]
    return rx.cond(
        website != "",
        section_card(
            "Website",
            rx.link(
                rx.hstack(
                    rx.text(website, word_break="break-all"),
                    rx.icon("external-link", size=14, aria_hidden="true", flex_shrink="0"),
                    rx.el.span(" (abre em uma nova aba)", class_name="sr-only"),
                    spacing="1",
                    align="center",
                ),
                href=website,
                is_external=True,
                rel="noopener noreferrer nofollow",
                id="profile-website",
                size="2",
            ),
        ),
    )


def _application_row(row: rx.Var) -> rx.Component:
    return rx.flex(
        rx.vstack(
            rx.text(row["job_title"], weight="medium", size="2", word_break="break-word"),
            rx.text("Candidatura enviada em ", row["date"], size="1", color=GRAY_TEXT),
            spacing="0",
            flex="1",
            min_width="0",
        ),
        rx.hstack(
            status_badge(row["status"], row["status_label"], APPLICATION_STATUS_COLORS),
            rx.cond(
                row["chat_id"].to(int) > 0,
                link_button(
                    rx.icon("message-circle", size=14),
                    "Abrir chat",
                    href=routes.chat(Role.CLIENT, row["chat_id"]),
                    size="1",
                    variant="outline",
                ),
            ),
            spacing="2",
            align="center",
            wrap="wrap",
        ),
        id="profile-application-" + row["application_id"].to_string(),
        justify="between",
        align="center",
        gap="0.5rem",
        wrap="wrap",
        width="100%",
        padding_y="0.5rem",
        border_bottom=f"1px solid {rx.color('gray', 4)}",
    )


def _applications() -> rx.Component:
    rows = FreelancerProfileState.profile["applications"]
    return rx.cond(
        rows.length() > 0,
        section_card(
            "Candidaturas às suas vagas",
            rx.vstack(rx.foreach(rows, _application_row), spacing="0", width="100%", id="profile-applications"),
            load_more(
                FreelancerProfileState.profile["applications_more"].to(bool),
                FreelancerProfileState.more_applications,
                FreelancerProfileState.loading_more_applications,
                "more-profile-applications",
            ),
        ),
    )


def _review(review: rx.Var) -> rx.Component:
    return rx.box(
        rx.flex(
            rx.text(review["company"], weight="bold", size="2", word_break="break-word"),
            rx.text(review["date"], size="1", color=GRAY_TEXT),
            justify="between",
            align="center",
            gap="0.5rem",
            wrap="wrap",
        ),
        review_stars(review["stars"].to(int)),
        rx.text("Vaga: ", review["job_title"], size="1", color=GRAY_TEXT, word_break="break-word"),
        rx.cond(
            review["comment"] != "",
            rx.text(review["comment"], size="2", white_space="pre-wrap", word_break="break-word", margin_top="0.25rem"),
        ),
        id="review-" + review["id"].to_string(),
        class_name="profile-review",
        width="100%",
        padding_y="0.75rem",
        border_bottom=f"1px solid {rx.color('gray', 4)}",
    )


def _reviews() -> rx.Component:
    state = FreelancerProfileState
    profile = state.profile
    return rx.card(
        rx.vstack(
            rx.flex(
                rx.heading("Avaliações", as_="h2", size="4"),
                rx.hstack(
                    average_stars(state.stars, 16),
                    rx.text(profile["rating"], size="2", color=GRAY_TEXT),
                    spacing="2",
                    align="center",
                ),
                justify="between",
                align="center",
                gap="0.5rem",
                wrap="wrap",
                width="100%",
            ),
            rx.cond(
                profile["reviews"].length() > 0,
                rx.vstack(rx.foreach(profile["reviews"], _review), spacing="0", width="100%", id="profile-reviews"),
                rx.text("Este freelancer ainda não recebeu avaliações.", size="2", color=GRAY_TEXT),
            ),
            pager(state.pager_items, state.prev_href, state.next_href),
            spacing="3",
            width="100%",
        ),
        width="100%",
        id="avaliacoes",
    )


def profile_view() -> rx.Component:
    """The whole profile: header, about, experience and reviews; skills, website and applications aside."""
    profile = FreelancerProfileState.profile
    return rx.vstack(
        _back_link(),
        _self_preview_note(),
        _header(),
        rx.flex(
            rx.vstack(
                section_card("Sobre", _text_or_note(profile["bio"], "Nenhuma biografia informada.", "profile-bio")),
                section_card(
                    "Experiência",
                    _text_or_note(profile["experience"], "Nenhuma experiência informada.", "profile-experience"),
                ),
                _reviews(),
                spacing="4",
                flex="1",
                min_width="0",
                width="100%",
            ),
            rx.vstack(
                _skills(),
                _website(),
                _applications(),
                spacing="4",
                width=rx.breakpoints(initial="100%", md="340px"),
                flex_shrink="0",
            ),
            direction=rx.breakpoints(initial="column-reverse", md="row"),
            gap="1rem",
            width="100%",
            align="start",
        ),
        spacing="4",
        width="100%",
        max_width="1040px",
        margin_x="auto",
    )


def not_found() -> rx.Component:
    """The one answer for a stranger, a visitor and any id that is not a visible freelancer."""
    return rx.vstack(
        rx.heading("Perfil não encontrado", as_="h1", size="7"),
        empty_state(
            "user-x",
            NOT_FOUND_TEXT,
            "",
            rx.cond(
                AuthState.signed_in,
                link_button(
                    "Voltar ao painel",
                    href=rx.cond(
                        AuthState.user_role == Role.CLIENT, routes.CLIENT_DASHBOARD, routes.FREELANCER_DASHBOARD
                    ),
                    variant="outline",
                    link_id="profile-not-found-back",
                ),
                link_button("Voltar ao início", href=routes.HOME, variant="outline", link_id="profile-not-found-back"),
            ),
        ),
        width="100%",
        align="stretch",
        id="profile-not-found",
    )


@public_page(
    routes.FREELANCER_PROFILE,
    "Perfil do Freelancer",
    on_load=[FreelancerProfileState.load],
    guard=AuthState.guard_signed_in,
)
def freelancer_profile_page() -> rx.Component:
    """The profile, 'Perfil não encontrado', or the loading text."""
    return rx.match(
        FreelancerProfileState.status,
        ("found", profile_view()),
        ("missing", not_found()),
        rx.text("Carregando perfil...", role="status", color=GRAY_TEXT),
    )
