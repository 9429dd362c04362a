"""The apply form (inline on /jobs/{id}, in a dialog in the freelancer dashboard) and the 'already applied' box."""

import reflex as rx

from components.dashboard import APPLICATION_STATUS_COLORS, status_badge
from components.forms import submit_button, text_area, text_field
from components.links import link_button
from core import routes
from core.catalog import BRING_LABEL, PAYMENT_DIRECT, PAYMENT_DIRECT_NOTE, PAYMENT_GUARANTEED, PAYMENT_GUARANTEED_NOTE
from models import Role
from services.screens.freelancer_dashboard import APPLICATION_STATUS_LABELS
from services.shifts.applications import ALREADY_APPLIED
from states.apply import ApplyState

MY_APPLICATIONS = routes.dashboard_tab(Role.FREELANCER, "applications")
SIDE_BY_SIDE = rx.breakpoints(initial="none", sm="1 1 0")  # dialog buttons: stacked on phones, halves above


def status_label(status: rx.Var) -> rx.Var:
    """Pendente / Aceita / Recusada for an application status var."""
    return rx.match(status, *[(str(value), label) for value, label in APPLICATION_STATUS_LABELS.items()], status)


DIRECT_CALLOUT = PAYMENT_DIRECT + ". " + PAYMENT_DIRECT_NOTE
GUARANTEED_CALLOUT = PAYMENT_GUARANTEED + ". " + PAYMENT_GUARANTEED_NOTE


def payment_callout(prefix: str, guaranteed: rx.Var | bool) -> rx.Component:
    """How the vaga is paid, said before applying: green with a shield when the Turno guarantees it.

    Args:
        prefix: Makes the id unique on the page (#detail-apply-payment).
        guaranteed: Whether the vaga has 'Pagamento garantido pelo Turno'.
    """
    direct = rx.callout(DIRECT_CALLOUT, icon="wallet", color_scheme="gray", size="1", id=f"{prefix}-apply-payment")
    if isinstance(guaranteed, bool) and not guaranteed:
        return direct
    safe = rx.callout(
        GUARANTEED_CALLOUT, icon="shield-check", color_scheme="green", size="1", id=f"{prefix}-apply-payment"
    )
    return safe if guaranteed is True else rx.cond(guaranteed, safe, direct)


def commitment(prefix: str, when: rx.Var | str, total: rx.Var | str, bring: rx.Var | str = "") -> rx.Component:
    """What applying commits to: 'Você está se candidatando para sáb., 12/12 · 18:00–23:30', the total and the attire.

    Args:
        prefix: Makes the id unique on the page (#dialog-apply-commitment).
        when: The shift's day and times (services.jobs.JobDetail `when`; nothing shown when '').
        total: 'R$ 165,00 pelo turno' (nothing shown when '', e.g. 'A combinar').
        bring: 'Traje e o que levar' (services.jobs.JobDetail `bring`; nothing shown when '').
    """
    return rx.vstack(
        rx.cond(when != "", rx.text("Você está se candidatando para ", rx.text.strong(when), size="2")),
        rx.cond(
            total != "",
            rx.hstack(
                rx.icon("banknote", size=16, color=rx.color("accent", 9)),
                rx.text("Total estimado: ", rx.text.strong(total), size="2"),
                spacing="2",
                align="center",
            ),
        ),
        rx.cond(
            bring != "",
            rx.hstack(
                rx.icon("shirt", size=16, color=rx.color("accent", 9), flex_shrink="0"),
                rx.text(BRING_LABEL + ": ", rx.text.strong(bring), size="2"),
                spacing="2",
                align="center",
                id=f"{prefix}-apply-bring",
            ),
        ),
        spacing="1",
        width="100%",
        id=f"{prefix}-apply-commitment",
    )


def apply_form(
    prefix: str,
    *extra_actions: rx.Component,
    guaranteed: rx.Var | bool = False,
    when: rx.Var | str = "",
    total: rx.Var | str = "",
    bring: rx.Var | str = "",
) -> rx.Component:
    """What applying commits to, optional hourly proposal and message, and 'Enviar candidatura'.

    Args:
        prefix: Makes the field ids unique on the page (e.g. 'detail', 'dialog').
        *extra_actions: Shown next to the submit button (e.g. the dialog's 'Cancelar').
        guaranteed: Whether the vaga is paid through the Turno (the payment callout says which way).
        when: The shift's day and times, restated before applying ('' shows nothing).
        total: The vaga's estimated total ('' shows nothing).
        bring: The vaga's 'Traje e o que levar' ('' shows nothing).

    Returns:
        The form, submitting to ApplyState.submit_application.
    """
    errors = ApplyState.apply_errors
    submit = submit_button(
        "Enviar candidatura", "Enviando...", ApplyState.apply_submitting, id=f"{prefix}-apply-submit", flex=SIDE_BY_SIDE
    )
    return rx.form(
        rx.vstack(
            commitment(prefix, when, total, bring),
            text_field(
                "Valor proposto por hora (opcional)",
                "valor_proposto",
                errors["valor_proposto"],
                field_id=f"{prefix}-valor-proposto",
                placeholder="Ex.: 30,00",
                hint="Em reais. Deixe em branco para aceitar o valor da vaga.",
                input_mode="decimal",
                max_length=20,
                auto_complete="off",
            ),
            text_area(
                "Mensagem para a empresa (opcional)",
                "mensagem",
                errors["mensagem"],
                field_id=f"{prefix}-mensagem",
                placeholder="Conte sua experiência e disponibilidade para esta vaga.",
            ),
            payment_callout(prefix, guaranteed),
            rx.flex(
                *extra_actions,
                submit,
                direction=rx.breakpoints(initial="column-reverse", sm="row"),
                gap="0.75rem",
                width="100%",
            )
            if extra_actions
            else submit,
            spacing="3",
            width="100%",
        ),
        on_submit=ApplyState.submit_application,
        reset_on_submit=False,
        id=f"{prefix}-apply-form",
        width="100%",
    )


def applied_box() -> rx.Component:
    """'Você já se candidatou a esta vaga.' with the status and a link to Minhas Candidaturas."""
    return rx.vstack(
        rx.hstack(
            rx.icon("circle-check", size=20, color=rx.color("grass", 10), flex_shrink="0"),
            rx.text(ALREADY_APPLIED, weight="medium"),
            spacing="2",
            align="center",
        ),
        rx.hstack(
            rx.text("Status:", size="2", color=rx.color("gray", 11)),
            status_badge(ApplyState.apply_status, status_label(ApplyState.apply_status), APPLICATION_STATUS_COLORS),
            spacing="2",
            align="center",
        ),
        link_button(
            rx.icon("file-text", size=16),
            "Minhas Candidaturas",
            href=MY_APPLICATIONS,
            variant="outline",
            size="2",
            width="100%",
        ),
        spacing="3",
        width="100%",
        id="applied-box",
    )


def apply_dialog(guaranteed: rx.Var | bool = False) -> rx.Component:
    """The dashboard's apply dialog, opened by ApplyState.open_apply_dialog(job_id).

    Args:
        guaranteed: Whether the vaga being applied to is paid through the Turno (the form's payment callout).
    """
    return rx.dialog.root(
        rx.dialog.content(
            rx.dialog.title("Candidatar-se à vaga"),
            rx.dialog.description(ApplyState.apply_job_title, weight="medium", margin_bottom="1rem"),
            apply_form(
                "dialog",
                rx.dialog.close(
                    rx.button(
                        "Cancelar",
                        variant="soft",
                        color_scheme="gray",
                        size="3",
                        type="button",
                        flex=SIDE_BY_SIDE,
                        width="100%",
                    )
                ),
                guaranteed=guaranteed,
                when=ApplyState.apply_job_when,
                total=ApplyState.apply_job_total,
                bring=ApplyState.apply_job_bring,
            ),
            max_width="480px",
            id="apply-dialog",
        ),
        open=ApplyState.apply_open,
        on_open_change=ApplyState.set_apply_open,
    )
