"""'Buscar Vagas' in the freelancer dashboard: the filters, the team-first vagas, the results and the apply dialog."""

import reflex as rx

from app.pages.freelancer_dashboard.state import FreelancerDashboardState
from components.apply import apply_dialog
from components.dashboard import (
    tab_heading,
)
from components.job_filters import job_filters, no_jobs
from components.links import link_button
from components.pager import pager
from components.rating import company_rating
from core import routes
from states.apply import ApplyState


def _job_result_card(job: rx.Var) -> rx.Component:
    """A search result: title, category, company, place, pay and date; details and apply actions."""
    state = FreelancerDashboardState
    return rx.card(
        rx.flex(
            rx.vstack(
                rx.text(job["title"], weight="bold", size="3"),
                rx.hstack(
                    rx.badge(job["category_label"], variant="soft"),
                    rx.text(job["company"], size="2", color=rx.color("gray", 11)),
                    company_rating(job["company_rating"]),
                    spacing="2",
                    align="center",
                    wrap="wrap",
                ),
                rx.cond(
                    job["shift"] != "",
                    rx.hstack(
                        rx.icon("calendar-clock", size=14),
                        rx.text(job["shift"], size="2", class_name="job-shift"),
                        align="center",
                        color=rx.color("gray", 11),
                    ),
                ),
                rx.flex(
                    rx.hstack(rx.icon("map-pin", size=14), rx.text(job["location"], size="2"), align="center"),
                    rx.hstack(rx.icon("wallet", size=14), rx.text(job["pay"], size="2"), align="center"),
                    rx.cond(job["total"] != "", rx.text(job["total"], size="2", class_name="job-total")),
                    gap="0.25rem 1rem",
                    wrap="wrap",
                    color=rx.color("gray", 11),
                ),
                rx.text("Postada em ", job["posted"], size="1", color=rx.color("gray", 11)),
                spacing="1",
                flex="1",
                min_width="0",
            ),
            rx.flex(
                link_button(
                    "Ver detalhes",
                    href=rx.Var.create(routes.JOBS + "/") + job["id"].to(str),
                    variant="outline",
                    size="2",
                    aria_label="Ver detalhes da vaga " + job["title"].to(str),
                    white_space="nowrap",
                ),
                rx.cond(
                    state.applied_job_ids.contains(job["id"]),
                    rx.badge(
                        rx.icon("check", size=14),
                        "Candidatura enviada",
                        color_scheme="green",
                        variant="soft",
                        size="2",
                        white_space="nowrap",
                    ),
                    rx.button(
                        "Candidatar-se",
                        size="2",
                        on_click=state.open_apply_dialog(job["id"].to(int)),
                        aria_label="Candidatar-se à vaga " + job["title"].to(str),
                        white_space="nowrap",
                    ),
                ),
                gap="0.5rem",
                align="center",
                wrap="wrap",
            ),
            direction=rx.breakpoints(initial="column", sm="row"),
            gap="0.75rem",
            align=rx.breakpoints(initial="start", sm="center"),
            width="100%",
        ),
        width="100%",
        class_name="job-result",
    )


def _job_filters() -> rx.Component:
    """Search text (title or category) and the category select; the filters live in the URL."""
    state = FreelancerDashboardState
    return job_filters(
        "dashboard-jobs", state.job_search, state.submit_job_search, state.job_category, state.choose_job_category
    )


def jobs_tab() -> rx.Component:
    """Search the open jobs (10 per page) and apply in a dialog without leaving the dashboard."""
    state = FreelancerDashboardState
    return rx.vstack(
        tab_heading(
            "Buscar Vagas",
            rx.cond(state.job_total == 1, "1 vaga encontrada", state.job_total.to_string() + " vagas encontradas"),
        ),
        rx.cond(
            state.job_city != "",
            rx.badge("Cidade: ", state.job_city, variant="soft", size="2", radius="full"),
        ),
        _job_filters(),
        rx.cond(
            state.team_job_results.length() > 0,
            rx.vstack(
                rx.heading("Primeiro para a sua equipe", as_="h2", size="4"),
                rx.text(
                    "Empresas que têm você na equipe oferecem estas vagas primeiro a vocês.",
                    size="2",
                    color=rx.color("gray", 11),
                ),
                rx.vstack(
                    rx.foreach(state.team_job_results, _job_result_card),
                    spacing="2",
                    width="100%",
                    id="team-first-results",
                ),
                spacing="2",
                width="100%",
            ),
        ),
        rx.cond(
            state.job_total > 0,
            rx.vstack(
                rx.vstack(rx.foreach(state.job_results, _job_result_card), spacing="2", width="100%", id="job-results"),
                pager(state.job_pager, state.job_prev_href, state.job_next_href),
                spacing="2",
                width="100%",
                align="stretch",
            ),
            no_jobs(
                (state.job_search != "") | (state.job_category != "") | (state.job_city != ""), state.clear_job_filters
            ),
        ),
        apply_dialog(guaranteed=ApplyState.apply_job_guaranteed),
        spacing="4",
        width="100%",
    )
