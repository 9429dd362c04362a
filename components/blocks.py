"""Blocks on screen: 'Bloquear profissional', 'Não quero trabalhar com esta empresa', 'Não quero ver esta vaga'."""

import reflex as rx

from components.dashboard import section_card
from core import routes

MUTED = rx.color("gray", 11)
BLOCK_EFFECTS = (
    "As candidaturas pendentes dessa pessoa às suas vagas serão recusadas, ela sai da sua equipe e suas "
    "vagas deixam de aparecer para ela. Turnos já combinados continuam valendo."
)
AVOID_EFFECTS = (
    "As vagas desta empresa deixam de aparecer para você e suas candidaturas pendentes a elas são retiradas. "
    "Turnos já combinados continuam valendo. Você pode desfazer isso no seu painel."
)
HIDE_JOB_EFFECTS = (
    "Esta vaga deixa de aparecer para você e sua candidatura pendente a ela é retirada. As outras vagas "
    "continuam aparecendo. Você pode desfazer isso no seu painel."
)


def confirm_button(
    label: str,
    title: rx.Var | str,
    description: str,
    confirm: str,
    on_confirm: rx.EventHandler,
    element_id: str | rx.Var = "",
    **trigger_props,
) -> rx.Component:
    """A button that asks first (an alert dialog with 'Cancelar' and `confirm`) and then runs `on_confirm`."""
    return rx.alert_dialog.root(
        rx.alert_dialog.trigger(rx.button(label, id=element_id, **trigger_props)),
        rx.alert_dialog.content(
            rx.alert_dialog.title(title),
            rx.alert_dialog.description(description, size="2"),
            rx.flex(
                rx.alert_dialog.cancel(rx.button("Cancelar", variant="soft", color_scheme="gray")),
                rx.alert_dialog.action(rx.button(confirm, color_scheme="red", on_click=on_confirm)),
                spacing="3",
                justify="end",
                margin_top="1rem",
            ),
            max_width="440px",
        ),
    )


def block_button(name: rx.Var, on_block: rx.EventHandler) -> rx.Component:
    """'Bloquear profissional' with its confirmation ('Bloquear Ana?')."""
    return confirm_button(
        "Bloquear profissional",
        "Bloquear " + name.to(str) + "?",
        BLOCK_EFFECTS,
        "Bloquear",
        on_block,
        size="2",
        variant="ghost",
        color_scheme="red",
        class_name="block-freelancer",
    )


def _blocked_row(person: rx.Var, on_unblock) -> rx.Component:
    return rx.hstack(
        rx.vstack(
            rx.text(person.name, weight="medium", size="2"),
            rx.text("Bloqueado em " + person.since.to(str), size="1", color=MUTED),
            spacing="0",
        ),
        rx.spacer(),
        rx.button("Desbloquear", size="1", variant="soft", on_click=on_unblock(person.id)),
        width="100%",
        align="center",
        class_name="blocked-person",
    )


def blocked_people(state) -> rx.Component:
    """The company's 'Profissionais bloqueados' with 'Desbloquear' (nothing while the list is empty)."""
    return rx.cond(
        state.blocked_people.length() > 0,
        section_card(
            "Profissionais bloqueados",
            rx.text("Eles não veem suas vagas e não podem se candidatar.", size="2", color=MUTED),
            rx.vstack(
                rx.foreach(state.blocked_people, lambda person: _blocked_row(person, state.unblock_freelancer)),
                spacing="2",
                width="100%",
            ),
        ),
    )


def _worked_row(company: rx.Var, state) -> rx.Component:
    return rx.flex(
        rx.vstack(
            rx.text(company.name, weight="medium", size="2"),
            rx.text(company.shifts, size="1", color=MUTED),
            spacing="0",
        ),
        rx.spacer(),
        rx.link("Ver vagas", href=routes.JOBS + "?empresa=" + company.id.to(str), size="2"),
        confirm_button(
            "Não quero trabalhar com esta empresa",
            "Deixar de ver " + company.name.to(str) + "?",
            AVOID_EFFECTS,
            "Não quero mais",
            state.avoid_worked_company(company.hiring_id),
            size="1",
            variant="ghost",
            color_scheme="red",
        ),
        spacing="3",
        align="center",
        wrap="wrap",
        width="100%",
        class_name="worked-company",
    )


def _avoided_row(company: rx.Var, state) -> rx.Component:
    return rx.hstack(
        rx.text(company.name, size="2"),
        rx.spacer(),
        rx.button("Voltar a ver vagas", size="1", variant="soft", on_click=state.allow_company(company.id)),
        width="100%",
        align="center",
        class_name="avoided-company",
    )


def _hidden_job_row(job: rx.Var, state) -> rx.Component:
    return rx.hstack(
        rx.vstack(
            rx.text(job.title, size="2"),
            rx.text("Oculta em " + job.since.to(str), size="1", color=MUTED),
            spacing="0",
        ),
        rx.spacer(),
        rx.button("Voltar a ver esta vaga", size="1", variant="soft", on_click=state.show_job(job.id)),
        width="100%",
        align="center",
        class_name="hidden-job",
    )


def freelancer_companies(state) -> rx.Component:
    """'Empresas com quem você mais trabalha', 'Empresas/Vagas que você não quer ver' (each only when not empty)."""
    return rx.fragment(
        rx.cond(
            state.worked_with.length() > 0,
            section_card(
                "Empresas com quem você mais trabalha",
                rx.vstack(rx.foreach(state.worked_with, lambda c: _worked_row(c, state)), spacing="2", width="100%"),
            ),
        ),
        rx.cond(
            state.avoided_companies.length() > 0,
            section_card(
                "Empresas que você não quer ver",
                rx.vstack(
                    rx.foreach(state.avoided_companies, lambda c: _avoided_row(c, state)), spacing="2", width="100%"
                ),
            ),
        ),
        rx.cond(
            state.hidden_jobs.length() > 0,
            section_card(
                "Vagas que você não quer ver",
                rx.vstack(
                    rx.foreach(state.hidden_jobs, lambda j: _hidden_job_row(j, state)), spacing="2", width="100%"
                ),
            ),
        ),
    )
