"""The jobs list of 'Minhas Vagas': search, Ativas/Encerradas/Arquivadas tabs, each job's actions and the confirmation.

`jobs_tab` is the whole tab: it places the list here and the dialogs of the other parts
(publish_form, applicants) next to it.
"""

import reflex as rx

from app.pages.company_jobs.applicants import applications_dialog
from app.pages.company_jobs.publish_form import plan_callout, publish_dialog
from app.pages.company_jobs.state import DUPLICATE_FIELD, CompanyJobsState
from components.dashboard import loading, status_badge, tab_heading
from components.forms import dialog_buttons, field_error
from components.pager import load_more
from components.shell import DESKTOP, MOBILE
from components.ui import empty_state
from core import routes
from core.shift_rules import MAX_COPIES

TABLE_COLUMNS = ("Vaga", "Categoria", "Valor/hora", "Local", "Criada em", "Status", "Candidaturas", "Ações")


def _action_button(label: str, icon: str, on_click, element_id: rx.Var, color: str = "gray") -> rx.Component:
    return rx.icon_button(
        rx.icon(icon, size=16),
        on_click=on_click,
        aria_label=label,
        title=label,
        id=element_id,
        variant="ghost",
        color_scheme=color,
        size="2",
    )


def _row_id(prefix: str, job: rx.Var) -> rx.Var:
    return prefix + job["id"].to_string()


def _can_close(job: rx.Var) -> rx.Var:
    return (job["status"] == "open") | (job["status"] == "in_progress")


def _job_actions(job: rx.Var, compact: bool) -> list[rx.Component]:
    """The actions of one job: icon buttons in the table, labelled buttons on the cards."""
    state = CompanyJobsState
    job_id = job["id"].to(int)
    suffix = "" if compact else "-card"

    def button(label: str, icon: str, event, key: str, color: str = "gray") -> rx.Component:
        element_id = f"{key}-" + job["id"].to_string() + suffix
        if compact:
            return _action_button(label, icon, event, element_id, color)
        return rx.button(
            rx.icon(icon, size=14), label, on_click=event, id=element_id, size="1", variant="soft", color_scheme=color
        )

    archived = job["status"] == "archived"
    return [
        button("Ver candidaturas", "users", state.open_applications(job_id), "applications", "indigo"),
        rx.cond(
            archived,
            button("Restaurar", "archive-restore", state.restore(job_id), "restore"),
            button("Arquivar", "archive", state.archive(job_id), "archive"),
        ),
        rx.cond(job["can_reopen"], button("Reabrir vaga", "rotate-ccw", state.reopen(job_id), "reopen", "green")),
        button("Duplicar", "copy", state.ask_duplicate(job_id), "duplicate"),
        rx.cond(_can_close(job), button("Encerrar vaga", "circle-stop", state.ask_close(job_id), "close", "amber")),
        button("Excluir", "trash-2", state.ask_delete(job_id), "delete", "red"),
    ]


def job_table_row(job: rx.Var) -> rx.Component:
    """One job in the desktop table."""
    return rx.table.row(
        rx.table.row_header_cell(
            rx.vstack(
                rx.link(job["title"], href=routes.job_detail(job["id"]), weight="medium"),
                rx.text(job["shift"], size="1", color=rx.color("gray", 11), class_name="job-shift"),
                spacing="0",
            )
        ),
        rx.table.cell(job["category"]),
        rx.table.cell(rx.vstack(rx.text(job["pay"]), _estimate(job), spacing="0"), white_space="nowrap"),
        rx.table.cell(job["location"]),
        rx.table.cell(job["created"]),
        rx.table.cell(status_badge(job["status"], job["status_label"])),
        rx.table.cell(job["applications"], text_align="center"),
        rx.table.cell(rx.hstack(*_job_actions(job, compact=True), spacing="1", wrap="nowrap")),
        id=_row_id("job-row-", job),
        align="center",
    )


def _estimate(job: rx.Var) -> rx.Component:
    """'R$ 165,00 pelo turno' and, for a guaranteed vaga, '+ R$ 19,80 de taxa do Turno' (nothing for 'A combinar')."""
    return rx.cond(
        job["total"] != "",
        rx.vstack(
            rx.text(job["total"], class_name="job-total"),
            rx.cond(job["fee"] != "", rx.text(job["fee"], class_name="job-fee")),
            spacing="0",
            font_size="var(--font-size-1)",
            color=rx.color("gray", 11),
        ),
    )


def job_card(job: rx.Var) -> rx.Component:
    """One job on mobile, with the same actions as the table."""
    return rx.card(
        rx.vstack(
            rx.hstack(
                rx.link(job["title"], href=routes.job_detail(job["id"]), weight="bold", flex="1"),
                status_badge(job["status"], job["status_label"]),
                width="100%",
                align="start",
            ),
            rx.text(job["category"], " · ", job["location"], size="2", color=rx.color("gray", 11)),
            rx.text(job["shift"], size="2", class_name="job-shift"),
            rx.text(job["pay"], size="2"),
            _estimate(job),
            rx.hstack(
                rx.text("Criada em ", job["created"], size="1", color=rx.color("gray", 11)),
                rx.spacer(),
                rx.text("Candidaturas: ", job["applications"], size="1", weight="medium", white_space="nowrap"),
                width="100%",
            ),
            rx.flex(*_job_actions(job, compact=False), wrap="wrap", gap="0.5rem"),
            spacing="2",
            width="100%",
        ),
        id=_row_id("job-card-", job),
        width="100%",
    )


def _job_list(rows: rx.Var, table_id: str) -> rx.Component:
    return rx.fragment(
        rx.box(
            rx.table.root(
                rx.table.header(rx.table.row(*[rx.table.column_header_cell(label) for label in TABLE_COLUMNS])),
                rx.table.body(rx.foreach(rows, job_table_row)),
                variant="surface",
                size="1",
                width="100%",
                id=table_id,
            ),
            display=DESKTOP,
            width="100%",
            overflow_x="auto",
        ),
        rx.vstack(rx.foreach(rows, job_card), spacing="2", width="100%", display=MOBILE),
    )


def _publish_button(element_id: str) -> rx.Component:
    return rx.button(
        rx.icon("plus", size=16), "Publicar Nova Vaga", on_click=CompanyJobsState.open_publish, id=element_id
    )


def _list_or_empty(
    rows: rx.Var, total: rx.Var, on_more: rx.EventHandler, table_id: str, empty_title: str, empty_text: str
) -> rx.Component:
    state = CompanyJobsState
    return rx.cond(
        rows.length() > 0,
        rx.fragment(
            _job_list(rows, table_id),
            load_more(rows.length() < total, on_more, state.loading_more_jobs, f"more-{table_id}"),
        ),
        rx.cond(
            state.search != "",
            empty_state(
                "search-x",
                "Nenhuma vaga encontrada",
                "Nenhuma vaga corresponde à sua busca. Tente outros termos.",
            ),
            empty_state("briefcase", empty_title, empty_text),
        ),
    )


def _no_jobs_yet() -> rx.Component:
    return rx.card(
        empty_state(
            "briefcase",
            "Nenhuma vaga publicada ainda",
            "Publique sua primeira vaga e comece a receber candidaturas de freelancers qualificados.",
            _publish_button("publish-empty-job"),
        ),
        width="100%",
    )


def _plan_banner() -> rx.Component:
    return plan_callout(CompanyJobsState.plan_message, "plan-limit-banner", "info")


def _job_tabs() -> rx.Component:
    state = CompanyJobsState
    return rx.tabs.root(
        rx.tabs.list(
            rx.tabs.trigger("Ativas (", state.active_total.to_string(), ")", value="active", id="tab-active"),
            rx.tabs.trigger("Encerradas (", state.closed_total.to_string(), ")", value="closed", id="tab-closed"),
            rx.tabs.trigger("Arquivadas (", state.archived_total.to_string(), ")", value="archived", id="tab-archived"),
            size=rx.breakpoints(initial="1", sm="2"),  # the three tabs fit a 375 px screen
        ),
        rx.tabs.content(
            _list_or_empty(
                state.active_jobs,
                state.active_total,
                state.more_active_jobs,
                "active-jobs-table",
                "Nenhuma vaga ativa",
                "Publique uma nova vaga ou restaure uma arquivada.",
            ),
            value="active",
            padding_top="1rem",
        ),
        rx.tabs.content(
            _list_or_empty(
                state.closed_jobs,
                state.closed_total,
                state.more_closed_jobs,
                "closed-jobs-table",
                "Nenhuma vaga encerrada",
                "As vagas que você encerrar aparecerão aqui, com as contratações e avaliações.",
            ),
            value="closed",
            padding_top="1rem",
        ),
        rx.tabs.content(
            _list_or_empty(
                state.archived_jobs,
                state.archived_total,
                state.more_archived_jobs,
                "archived-jobs-table",
                "Nenhuma vaga arquivada",
                "As vagas que você arquivar aparecerão aqui.",
            ),
            value="archived",
            padding_top="1rem",
        ),
        default_value="active",
        width="100%",
    )


def jobs_tab() -> rx.Component:
    """'Minhas Vagas': search, Ativas/Encerradas/Arquivadas with counts, the jobs and their dialogs."""
    state = CompanyJobsState
    has_any = (state.active_total + state.closed_total + state.archived_total > 0) | (state.search != "")
    return rx.vstack(
        tab_heading("Minhas Vagas", "Publique, acompanhe e gerencie as suas vagas.", _publish_button("publish-job")),
        _plan_banner(),
        rx.cond(
            state.loaded,
            rx.cond(
                has_any,
                rx.vstack(
                    rx.input(
                        rx.input.slot(rx.icon("search", size=16)),
                        placeholder="Buscar vagas",
                        aria_label="Buscar vagas",
                        type="search",
                        id="jobs-search",
                        default_value=state.search,
                        on_change=state.set_search.debounce(300),
                        size="3",
                        width="100%",
                        max_width="420px",
                    ),
                    _job_tabs(),
                    spacing="3",
                    width="100%",
                ),
                _no_jobs_yet(),
            ),
            loading("Carregando vagas..."),
        ),
        publish_dialog(),
        duplicate_dialog(),
        confirm_dialog(),
        applications_dialog(),
        spacing="3",
        width="100%",
    )


def confirm_dialog() -> rx.Component:
    """Confirmation of 'Encerrar vaga' or 'Excluir' for the job chosen in the list."""
    state = CompanyJobsState
    is_delete = state.confirm_kind == "delete"
    return rx.alert_dialog.root(
        rx.alert_dialog.content(
            rx.alert_dialog.title(rx.cond(is_delete, "Excluir vaga?", "Encerrar vaga?")),
            rx.alert_dialog.description(
                rx.cond(
                    is_delete,
                    "A vaga \u201c" + state.confirm_title + "\u201d e todas as suas candidaturas serão excluídas "
                    "permanentemente. Esta ação não pode ser desfeita.",
                    "A vaga \u201c" + state.confirm_title + "\u201d será encerrada e as candidaturas pendentes "
                    "serão recusadas.",
                ),
                size="2",
            ),
            rx.flex(
                rx.alert_dialog.cancel(rx.button("Cancelar", variant="soft", color_scheme="gray")),
                rx.cond(
                    is_delete,
                    rx.alert_dialog.action(
                        rx.button(
                            "Excluir",
                            color_scheme="red",
                            on_click=state.delete_job(state.confirm_job_id),
                            id="confirm-delete",
                        )
                    ),
                    rx.alert_dialog.action(
                        rx.button(
                            "Encerrar vaga",
                            color_scheme="amber",
                            on_click=state.close_job(state.confirm_job_id),
                            id="confirm-close",
                        )
                    ),
                ),
                justify="end",
                spacing="3",
                margin_top="1rem",
            ),
            max_width="460px",
        ),
        open=state.confirm_kind != "",
        on_open_change=state.set_confirm_open,
    )


def _duplicate_date(slot: rx.Var) -> rx.Component:
    field_id = "duplicate-date-" + slot.to_string()
    return rx.vstack(
        rx.el.label("Nova data ", (slot + 1).to_string(), html_for=field_id, style={"fontSize": "0.9rem"}),
        rx.input(type="date", name=DUPLICATE_FIELD + slot.to_string(), id=field_id, size="3", width="100%"),
        spacing="1",
        width="100%",
    )


def duplicate_dialog() -> rx.Component:
    """'Duplicar': up to 8 new dates, each a new open vaga with the same times and everything else."""
    state = CompanyJobsState
    return rx.dialog.root(
        rx.dialog.content(
            rx.dialog.title("Duplicar vaga"),
            rx.dialog.description(
                "Escolha até ",
                str(MAX_COPIES),
                " novas datas para “",
                state.duplicate_title,
                "”. Cada data vira uma vaga aberta, com o mesmo horário e os mesmos dados.",
                size="2",
                color=rx.color("gray", 11),
                margin_bottom="1rem",
            ),
            rx.form(
                rx.vstack(
                    rx.foreach(state.duplicate_slots, _duplicate_date),
                    rx.cond(
                        state.duplicate_slots.length() < MAX_COPIES,
                        rx.button(
                            rx.icon("plus", size=14),
                            "Adicionar data",
                            type="button",
                            variant="ghost",
                            size="2",
                            on_click=state.add_duplicate_date,
                            id="duplicate-add-date",
                        ),
                    ),
                    field_error(state.duplicate_error, "duplicate-dates"),
                    dialog_buttons("Duplicar", "Duplicando...", state.duplicating, "duplicate-submit"),
                    spacing="3",
                    width="100%",
                    align="start",
                ),
                on_submit=state.duplicate,
                reset_on_submit=False,
                no_validate=True,
                id="duplicate-job-form",
            ),
            max_width="480px",
        ),
        open=state.duplicate_open,
        on_open_change=state.set_duplicate_open,
    )
