"""The cards beside and under a job's detail: the apply box and 'Sobre a empresa'.

The apply box asks a visitor to sign in, gives a freelancer the apply form or their application's
status, and tells a company only freelancers apply; the company card shows the publisher (or, on an
anonymous vaga, only 'Não quero ver esta vaga').
"""

import reflex as rx

from app.pages.job_detail.state import JobDetailState
from components.apply import applied_box, apply_form
from components.blocks import AVOID_EFFECTS, HIDE_JOB_EFFECTS, confirm_button
from components.links import link_button
from components.rating import company_rating
from core import routes
from models import Role
from services.shifts import applications
from states.apply import ApplyState
from states.auth import AuthState


def _visitor_box() -> rx.Component:
    return rx.vstack(
        rx.heading("Quer trabalhar nesta vaga?", as_="h2", size="4"),
        rx.text("Entre com sua conta de freelancer para enviar sua candidatura.", color=rx.color("gray", 11)),
        link_button(
            "Entre para se candidatar",
            href=routes.login_back_to_job_prefix() + JobDetailState.job["id"].to(str),
            size="3",
            width="100%",
        ),
        rx.text(
            "Ainda não tem conta? ",
            rx.link("Cadastre-se como freelancer", href=routes.register("freelancer")),
            size="2",
        ),
        spacing="3",
    )


def _company_box() -> rx.Component:
    return rx.hstack(
        rx.icon("info", size=20, color=rx.color("gray", 10), flex_shrink="0"),
        rx.text(applications.ONLY_FREELANCERS, color=rx.color("gray", 11)),
        spacing="2",
        align="start",
        id="company-apply-note",
    )


def _freelancer_box() -> rx.Component:
    """The apply form, or 'already applied' with the status; nothing until this job's status is known."""
    return rx.cond(
        ApplyState.apply_job_id == JobDetailState.job["id"],
        rx.cond(
            ApplyState.apply_status != "",
            applied_box(),
            rx.vstack(
                rx.heading("Candidatar-se a esta vaga", as_="h2", size="4"),
                rx.text("A empresa verá sua proposta e sua mensagem.", size="2", color=rx.color("gray", 11)),
                apply_form(
                    "detail",
                    guaranteed=JobDetailState.job["guaranteed"].to(bool),
                    when=JobDetailState.job["when"].to(str),
                    total=JobDetailState.job["total"].to(str),
                    bring=JobDetailState.job["bring"].to(str),
                ),
                spacing="3",
                width="100%",
            ),
        ),
        rx.text("Carregando...", size="2", color=rx.color("gray", 11), role="status"),
    )


def apply_box() -> rx.Component:
    """Visitors: sign in to apply; freelancers: the apply form or their status; companies: a note."""
    return rx.card(
        rx.cond(
            AuthState.signed_in,
            rx.cond(AuthState.user_role == Role.FREELANCER, _freelancer_box(), _company_box()),
            _visitor_box(),
        ),
        width="100%",
        id="apply-box",
    )


def _social(link: rx.Var) -> rx.Component:
    return rx.link(
        link["label"],
        href=link["url"].to(str),
        is_external=True,
        rel="noopener noreferrer nofollow",
        size="2",
    )


def hide_job_card() -> rx.Component:
    """An anonymous vaga's 'Não quero ver esta vaga' (freelancers): it hides this vaga alone, naming no company."""
    return rx.cond(
        AuthState.user_role == Role.FREELANCER,
        rx.card(
            rx.hstack(
                rx.text("Não tem interesse nesta vaga?", size="2", color=rx.color("gray", 11)),
                confirm_button(
                    "Não quero ver esta vaga",
                    "Deixar de ver esta vaga?",
                    HIDE_JOB_EFFECTS,
                    "Não quero ver",
                    JobDetailState.hide_job,
                    "hide-job",
                    size="1",
                    variant="ghost",
                    color_scheme="red",
                ),
                spacing="3",
                align="center",
                wrap="wrap",
            ),
            width="100%",
            id="job-hide-card",
        ),
    )


def company_card() -> rx.Component:
    """'Sobre a empresa': the publisher's photo, name, biography, site and networks.

    An anonymous vaga has none: a freelancer gets 'Não quero ver esta vaga' there instead.
    """
    job = JobDetailState.job
    return rx.cond(
        job["anonymous"].to(bool),
        hide_job_card(),
        rx.card(
            rx.vstack(
                rx.heading("Sobre a empresa", as_="h2", size="4"),
                rx.hstack(
                    rx.cond(
                        job["company_photo"] != "",
                        rx.el.img(
                            src=job["company_photo"].to(str),
                            alt="Foto de " + job["company"].to(str),
                            id="job-company-photo",
                            class_name="turno-company-photo",
                        ),
                        rx.icon("building-2", size=32, color=rx.color("accent", 9), aria_hidden="true"),
                    ),
                    rx.vstack(
                        rx.text(job["company"], weight="bold", size="4"),
                        rx.cond(
                            job["company_rating"] != "",
                            rx.box(company_rating(job["company_rating"]), id="job-company-rating"),
                            rx.text("Ainda sem avaliações", size="2", color=rx.color("gray", 11)),
                        ),
                        spacing="0",
                    ),
                    spacing="3",
                    align="center",
                ),
                rx.cond(
                    job["company_bio"] != "",
                    rx.text(job["company_bio"], white_space="pre-wrap", id="job-company-bio"),
                ),
                rx.flex(
                    rx.cond(
                        job["company_site"] != "",
                        rx.link(
                            "Site da empresa",
                            href=job["company_site"].to(str),
                            is_external=True,
                            rel="noopener noreferrer nofollow",
                            size="2",
                        ),
                    ),
                    rx.foreach(job["company_links"].to(list[dict]), _social),
                    rx.link(
                        "Outras vagas desta empresa",
                        href=routes.JOBS + "?empresa=" + job["company_id"].to(str),
                        size="2",
                    ),
                    spacing="4",
                    wrap="wrap",
                ),
                rx.cond(
                    AuthState.user_role == Role.FREELANCER,
                    confirm_button(
                        "Não quero trabalhar com esta empresa",
                        "Deixar de ver " + job["company"].to(str) + "?",
                        AVOID_EFFECTS,
                        "Não quero mais",
                        JobDetailState.avoid_company,
                        "avoid-company",
                        size="1",
                        variant="ghost",
                        color_scheme="red",
                    ),
                ),
                spacing="3",
                width="100%",
            ),
            width="100%",
            id="job-company-card",
        ),
    )
