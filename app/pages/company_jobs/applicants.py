"""The applicants of one job: the applications dialog, each applicant's card and the freelancer profile dialog."""

import reflex as rx

from app.pages.company_jobs.state import CompanyJobsState
from components.blocks import block_button
from components.bond import bond_ack, bond_notice
from components.dashboard import APPLICATION_STATUS_COLORS, loading, status_badge
from components.links import link_button
from components.pager import load_more
from components.ui import empty_state
from core import routes
from models import Role

TRY_LATER = "Por favor, tente novamente mais tarde."


def _status_label(status: rx.Var) -> rx.Var:
    return rx.match(status, ("pending", "Pendente"), ("accepted", "Aceita"), ("rejected", "Recusada"), status)


def _accept_button(card: rx.Var, card_id: rx.Var) -> rx.Component:
    """'Aceitar', or for a guaranteed vaga 'Aceitar e pagar R$ X' (accepts, then opens Stripe Checkout)."""
    state = CompanyJobsState
    return rx.cond(
        card["guaranteed"].to(bool),
        rx.button(
            rx.icon("credit-card", size=14),
            rx.cond(state.paying_application == card_id, "Abrindo o pagamento...", card["accept_label"].to(str)),
            size="1",
            disabled=state.paying_application != 0,
            on_click=state.accept_and_pay(card_id),
            id="accept-pay-" + card_id.to_string(),
        ),
        rx.button(rx.icon("check", size=14), "Aceitar", size="1", on_click=state.accept_application(card_id)),
    )


def _applicant_actions(card: rx.Var) -> rx.Component:
    state = CompanyJobsState
    card_id = card["id"].to(int)
    return rx.flex(
        rx.button(
            rx.icon("user", size=14),
            "Ver perfil",
            size="1",
            variant="soft",
            color_scheme="gray",
            on_click=state.view_profile(card["freelancer_id"].to(int)),
            disabled=~card["has_profile"].to(bool),
        ),
        rx.cond(
            card["has_profile"].to(bool),
            rx.link(
                rx.hstack(rx.icon("user-round-search", size=14), "Ver perfil completo", spacing="1", align="center"),
                href=routes.freelancer_profile(card["freelancer_id"]),
                id="applicant-profile-link-" + card_id.to_string(),
                size="1",
                weight="medium",
                align_self="center",
            ),
        ),
        rx.cond(
            card["status"] == "pending",
            rx.fragment(
                _accept_button(card, card_id),
                rx.button(
                    rx.icon("x", size=14),
                    "Recusar",
                    size="1",
                    variant="soft",
                    color_scheme="red",
                    on_click=state.reject_application(card_id),
                ),
            ),
        ),
        rx.cond(
            (card["status"] == "accepted") & (card["chat_id"].to(int) > 0),
            rx.link(
                rx.button(rx.icon("message-circle", size=14), "Abrir chat", size="1", variant="outline"),
                href=routes.chat(Role.CLIENT, card["chat_id"]),
            ),
        ),
        block_button(card["name"], state.block_freelancer(card["freelancer_id"].to(int))),
        wrap="wrap",
        gap="0.5rem",
    )


def _bond(card: rx.Var) -> rx.Component:
    """A pending applicant's 'Termômetro de vínculo' and, when red, the box that lets 'Aceitar' through."""
    state = CompanyJobsState
    card_id = card["id"].to(int)
    notice = card["bond"]
    return rx.cond(
        (card["status"] == "pending") & (notice["level"] != ""),
        rx.vstack(
            bond_notice(notice),
            rx.cond(
                notice["needs_ack"].to(bool),
                bond_ack(
                    state.bond_acknowledged.contains(card_id),
                    lambda checked: state.acknowledge_bond(card_id, checked),
                ),
            ),
            spacing="2",
            width="100%",
        ),
    )


def applicant_card(card: rx.Var) -> rx.Component:
    """One application: who applied, their proposal and message, its status and the answers."""
    return rx.card(
        rx.vstack(
            rx.hstack(
                rx.avatar(src=card["photo"], fallback=card["name"].to(str)[:1], size="3", radius="full", alt=""),
                rx.vstack(
                    rx.text(card["name"], weight="bold"),
                    rx.text(card["profession"], size="2", color=rx.color("gray", 11)),
                    spacing="0",
                    flex="1",
                    min_width="0",
                ),
                status_badge(card["status"], _status_label(card["status"]), APPLICATION_STATUS_COLORS),
                width="100%",
                align="center",
            ),
            rx.flex(
                rx.foreach(card["skills"].to(list[str]), lambda skill: rx.badge(skill, variant="outline")),
                rx.cond(card["more_skills"] != "", rx.text(card["more_skills"], size="1", color=rx.color("gray", 11))),
                wrap="wrap",
                gap="0.35rem",
                align="center",
            ),
            rx.text(rx.text.strong("Valor proposto: "), card["proposal"], size="2"),
            rx.cond(card["message"] != "", rx.text(card["message"], size="2", white_space="pre-wrap")),
            rx.text("Candidatura enviada em ", card["date"], size="1", color=rx.color("gray", 11)),
            _bond(card),
            _applicant_actions(card),
            spacing="2",
            width="100%",
        ),
        id="application-" + card["id"].to_string(),
        width="100%",
    )


def _applications_body() -> rx.Component:
    state = CompanyJobsState
    return rx.cond(
        state.applications_loading,
        loading("Carregando candidaturas..."),
        rx.cond(
            state.applications_error != "",
            rx.callout.root(
                rx.callout.icon(rx.icon("circle-alert")),
                rx.callout.text(state.applications_error, " ", TRY_LATER),
                color_scheme="red",
                role="alert",
                width="100%",
            ),
            rx.cond(
                state.applicants.length() > 0,
                rx.box(
                    rx.vstack(
                        rx.foreach(state.applicants, applicant_card),
                        load_more(
                            state.applicants_more,
                            state.more_applicants,
                            state.loading_more_applicants,
                            "more-applicants",
                        ),
                        spacing="3",
                        width="100%",
                    ),
                    max_height="60vh",
                    overflow_y="auto",
                    padding_right="0.25rem",
                    width="100%",
                    id="applications-list",
                ),
                empty_state("inbox", "Nenhuma candidatura para esta vaga"),
            ),
        ),
    )


def applications_dialog() -> rx.Component:
    """The applications of one job, titled with the job's title, with the profile dialog inside."""
    state = CompanyJobsState
    return rx.dialog.root(
        rx.dialog.content(
            rx.hstack(
                rx.dialog.title(state.applications_title, margin="0"),
                rx.spacer(),
                rx.dialog.close(
                    rx.icon_button(rx.icon("x", size=16), variant="ghost", color_scheme="gray", aria_label="Fechar")
                ),
                width="100%",
                align="center",
                margin_bottom="0.75rem",
            ),
            rx.dialog.description("Candidaturas recebidas para esta vaga.", size="2", color=rx.color("gray", 11)),
            rx.box(_applications_body(), margin_top="0.75rem", width="100%"),
            profile_dialog(),
            max_width="680px",
        ),
        open=state.applications_open,
        on_open_change=state.set_applications_open,
    )


def _profile_tabs() -> rx.Component:
    profile = CompanyJobsState.profile
    return rx.tabs.root(
        rx.tabs.list(
            rx.tabs.trigger("Habilidades", value="skills"), rx.tabs.trigger("Experiência", value="experience")
        ),
        rx.tabs.content(
            rx.cond(
                profile["skills"].length() > 0,
                rx.flex(
                    rx.foreach(profile["skills"], lambda skill: rx.badge(skill, variant="soft")),
                    wrap="wrap",
                    gap="0.35rem",
                ),
                rx.text("Nenhuma habilidade informada.", color=rx.color("gray", 11), size="2"),
            ),
            value="skills",
            padding_top="0.75rem",
        ),
        rx.tabs.content(
            rx.cond(
                profile["experience"] != "",
                rx.text(profile["experience"], size="2", white_space="pre-wrap"),
                rx.text("Nenhuma experiência informada.", color=rx.color("gray", 11), size="2"),
            ),
            value="experience",
            padding_top="0.75rem",
        ),
        default_value="skills",
        width="100%",
    )


def profile_dialog() -> rx.Component:
    """A freelancer who applied: photo, name, profession, location, rating, bio, skills and experience."""
    state = CompanyJobsState
    profile = state.profile
    return rx.dialog.root(
        rx.dialog.content(
            rx.hstack(
                rx.avatar(src=profile["photo"], fallback=profile["name"][:1], size="5", radius="full", alt=""),
                rx.vstack(
                    rx.dialog.title(profile["name"], margin="0"),
                    rx.text(profile["profession"], color=rx.color("gray", 11), size="2"),
                    rx.hstack(
                        rx.icon("star", size=14, color=rx.color("amber", 9)),
                        rx.text(profile["rating"], size="2", id="freelancer-rating"),
                        align="center",
                        spacing="1",
                    ),
                    spacing="1",
                ),
                spacing="4",
                align="center",
            ),
            rx.dialog.description(
                rx.cond(profile["location"] != "", profile["location"], "Localização não informada"),
                size="2",
                color=rx.color("gray", 11),
                margin_top="0.5rem",
            ),
            rx.cond(profile["bio"] != "", rx.text(profile["bio"], size="2", margin_top="0.75rem")),
            rx.box(_profile_tabs(), margin_top="1rem", width="100%"),
            rx.flex(
                link_button(
                    "Ver perfil completo",
                    href=routes.freelancer_profile(profile["id"]),
                    link_id="freelancer-profile-link",
                    size="2",
                    variant="outline",
                ),
                rx.dialog.close(rx.button("Fechar", variant="soft", color_scheme="gray")),
                justify="end",
                wrap="wrap",
                gap="0.75rem",
                margin_top="1rem",
            ),
            max_width="520px",
        ),
        open=state.profile_open,
        on_open_change=state.set_profile_open,
    )
