"""The company's 'Minha equipe' tab: the freelancers it added after paid shifts together."""

import reflex as rx

from components.blocks import block_button, blocked_people
from components.dashboard import tab_heading
from components.invites import invite_dialog, sent_invites
from components.punctuality import punctuality_panel
from components.ui import empty_state
from core import routes

MUTED = rx.color("gray", 11)
EMPTY_TITLE = "Sua equipe ainda está vazia"
EMPTY_TEXT = "Depois de um turno pago, use 'Adicionar à equipe' no card do turno em 'Turnos'."
PLANS_LINK = "Ver planos"  # next to the team's size always, and in the notice of a full team


def _member(member: rx.Var, state) -> rx.Component:
    """One member: who, the shifts together, the company's stars and reliability; 'Remover da equipe'."""
    return rx.card(
        rx.vstack(
            rx.hstack(
                rx.avatar(src=member.photo, fallback=member.name[:1], size="3", radius="full"),
                rx.vstack(
                    rx.link(member.name, href=routes.FREELANCERS + "/" + member.id.to(str), weight="medium", size="3"),
                    rx.cond(member.profession != "", rx.text(member.profession, size="2", color=MUTED)),
                    spacing="0",
                    min_width="0",
                ),
                align="center",
                spacing="3",
                width="100%",
            ),
            rx.text(member.shifts, size="2"),
            rx.cond(member.stars != "", rx.text(member.stars, size="2")),
            rx.cond(member.reliability != "", rx.text(member.reliability, size="2", color=MUTED)),
            rx.text("Na equipe desde ", member.added, size="1", color=MUTED),
            rx.button(
                "Remover da equipe",
                size="2",
                variant="soft",
                color_scheme="red",
                on_click=state.remove_from_team(member.id),
            ),
            rx.button("Contratar novamente", size="2", on_click=state.open_invite(member.id)),
            block_button(member.name, state.block_freelancer(member.id)),
            spacing="2",
            width="100%",
        ),
        width="100%",
        class_name="team-member",
    )


def team_tab(state) -> rx.Component:
    """'Minha equipe' for the company dashboard state `state` (a TeamMixin)."""
    return rx.vstack(
        tab_heading("Minha equipe", "Profissionais que já trabalharam com você e que você quer chamar de novo."),
        rx.text(  # the plan's limit, and always the way to a larger one
            rx.text.span(state.team_size_text, id="team-size"),
            rx.text.span(" · ", aria_hidden="true"),
            rx.link(PLANS_LINK, href=routes.PRICING, white_space="nowrap", id="team-plans-link"),
            size="2",
            color=MUTED,
        ),
        rx.cond(
            state.team_full,
            rx.callout.root(
                rx.callout.icon(rx.icon("users")),
                rx.callout.text(
                    "Sua equipe chegou ao limite do seu plano. ",
                    rx.link(PLANS_LINK, href=routes.PRICING, weight="bold"),
                ),
                color_scheme="amber",
                id="team-full",
                width="100%",
            ),
        ),
        rx.cond(
            state.team_members.length() > 0,
            rx.grid(
                rx.foreach(state.team_members, lambda member: _member(member, state)),
                columns=rx.breakpoints(initial="1", sm="2", lg="3"),
                spacing="3",
                width="100%",
                id="team-members",
            ),
            empty_state("users", EMPTY_TITLE, EMPTY_TEXT),
        ),
        punctuality_panel(state.punctuality_panel),
        sent_invites(state),
        blocked_people(state),
        invite_dialog(state),
        spacing="3",
        width="100%",
        min_width="0",
    )
