"""/jobs/[id]: every public field of one job and the apply box (sign in, apply, or the application's status).

- state: `JobDetailState` (the job of the URL, similar open jobs, the share links, the blocks).
- cards: the apply box and 'Sobre a empresa' (or an anonymous vaga's 'Não quero ver esta vaga').
- here: the detail itself, the unavailable and missing answers, and the page.
"""

import reflex as rx

from app.api import first_paint
from app.layout import first_title, page_title, public_page
from app.pages.job_detail.cards import apply_box, company_card
from app.pages.job_detail.state import DEFAULT_TITLE, JobDetailState
from components import share
from components.links import link_button
from components.punctuality import punctual_line
from components.rating import company_rating
from components.ui import empty_state
from core import routes
from core.catalog import BRING_LABEL
from states.apply import ApplyState

NOT_INFORMED = "Não informada"


def share_bar() -> rx.Component:
    """'Compartilhar': WhatsApp, 'Copiar link', and the phone's own share sheet where the browser has one."""
    return rx.hstack(
        rx.button(
            rx.link(
                rx.icon("message-circle", size=16),
                "WhatsApp",
                href=JobDetailState.whatsapp_url,
                is_external=True,
                rel="noopener noreferrer",
                underline="none",
                id="share-whatsapp",
            ),
            as_child=True,
            variant="soft",
            color_scheme="grass",
            size="2",
        ),
        rx.button(
            rx.icon("link", size=16),
            "Copiar link",
            on_click=[rx.set_clipboard(JobDetailState.share_url), rx.toast.success(share.COPIED)],
            variant="soft",
            size="2",
            id="share-copy",
        ),
        rx.button(
            rx.icon("share-2", size=16),
            "Compartilhar",
            on_click=rx.call_script(share.NATIVE_SHARE_SCRIPT),
            variant="soft",
            size="2",
            id=share.NATIVE_BUTTON_ID,
            hidden=True,
        ),
        rx.fragment(on_mount=rx.call_script(share.REVEAL_NATIVE_SCRIPT)),
        role="group",
        aria_label="Compartilhar esta vaga",
        spacing="2",
        wrap="wrap",
        id="share-bar",
    )


def fact(icon: str, label: str, value: rx.Var) -> rx.Component:
    """One labelled fact of the job (location, pay, date...)."""
    return rx.hstack(
        rx.icon(icon, size=20, color=rx.color("accent", 9), flex_shrink="0"),
        rx.vstack(
            rx.text(label, size="1", color=rx.color("gray", 11), weight="medium"),
            rx.text(value, size="3"),
            spacing="0",
        ),
        spacing="3",
        align="center",
    )


def payment_fact() -> rx.Component:
    """'Pagamento': how the vaga is paid and what that means, green with a shield when the Turno guarantees it."""
    job = JobDetailState.job
    guaranteed = job["guaranteed"].to(bool)
    return rx.hstack(
        rx.cond(
            guaranteed,
            rx.icon("shield-check", size=20, color=rx.color("green", 10), flex_shrink="0"),
            rx.icon("wallet", size=20, color=rx.color("accent", 9), flex_shrink="0"),
        ),
        rx.vstack(
            rx.text("Pagamento", size="1", color=rx.color("gray", 11), weight="medium"),
            rx.cond(
                guaranteed,
                rx.text(job["payment"], size="3", color=rx.color("green", 11), weight="medium"),
                rx.text(job["payment"], size="3"),
            ),
            rx.text(job["payment_note"], size="1", color=rx.color("gray", 11), id="job-payment-note"),
            spacing="0",
        ),
        spacing="3",
        align="center",
        id="job-payment",
    )


def benefit(label: str, offered: rx.Var) -> rx.Component:
    """A yes/no benefit line."""
    return rx.el.li(
        rx.hstack(
            rx.cond(
                offered,
                rx.icon("circle-check", size=18, color=rx.color("grass", 10)),
                rx.icon("circle-x", size=18, color=rx.color("gray", 9)),
            ),
            rx.text(label, ": ", rx.cond(offered, "Sim", "Não"), weight="medium"),
            spacing="2",
            align="center",
        ),
        style={"listStyle": "none"},
    )


def section(title: str, *children: rx.Component) -> rx.Component:
    """A titled block of the detail."""
    return rx.vstack(rx.heading(title, as_="h2", size="5"), *children, spacing="3", width="100%")


def detail() -> rx.Component:
    """Every field of the job."""
    job = JobDetailState.job
    return rx.vstack(
        rx.link(
            rx.hstack(rx.icon("arrow-left", size=16), rx.text("Voltar para as vagas"), spacing="1", align="center"),
            href=routes.JOBS,
            size="2",
        ),
        rx.vstack(
            rx.heading(job["title"], as_="h1", size="8"),
            rx.hstack(
                rx.badge(job["category_label"], size="2", variant="soft"),
                rx.hstack(
                    rx.icon("building-2", size=16, color=rx.color("gray", 11)),
                    rx.text(job["company"], color=rx.color("gray", 11), id="job-company"),
                    spacing="1",
                    align="center",
                ),
                company_rating(job["company_rating"]),
                spacing="3",
                align="center",
                wrap="wrap",
            ),
            rx.cond(job["punctual"].to(bool), punctual_line(job["punctual_summary"])),
            share_bar(),
            spacing="2",
        ),
        rx.grid(
            fact("map-pin", "Local", job["location"]),
            fact("banknote", "Valor por hora", job["pay"]),
            rx.cond(job["total"] != "", rx.box(fact("calculator", "Total estimado", job["total"]), id="job-total")),
            rx.box(
                fact(
                    "calendar-clock",
                    "Turno",
                    rx.cond(
                        job["shift"] != "",
                        job["shift"],
                        rx.cond(job["date_needed"] != "", job["date_needed"], NOT_INFORMED),
                    ),
                ),
                id="job-shift",
            ),
            rx.box(
                fact("navigation", "Endereço do turno", rx.cond(job["address"] != "", job["address"], NOT_INFORMED)),
                rx.cond(
                    job["map_url"] != "",
                    rx.link(
                        "Ver no mapa",
                        href=job["map_url"].to(str),
                        is_external=True,
                        rel="noopener noreferrer nofollow",
                        size="2",
                        margin_left="calc(20px + var(--space-3))",
                        id="job-map-link",
                    ),
                ),
                id="job-address",
            ),
            rx.cond(job["bring"] != "", rx.box(fact("shirt", BRING_LABEL, job["bring"]), id="job-bring")),
            fact("users", "Vagas disponíveis", job["positions"].to(str)),
            fact("calendar-plus", "Postado em", job["posted"]),
            payment_fact(),
            columns=rx.breakpoints(initial="1", sm="2", md="3"),
            spacing="4",
            width="100%",
            padding="1rem",
            border=f"1px solid {rx.color('gray', 5)}",
            border_radius="var(--radius-3)",
        ),
        rx.flex(
            rx.vstack(
                section("Descrição", rx.text(job["description"], white_space="pre-wrap", id="job-description")),
                section(
                    "Habilidades necessárias",
                    rx.cond(
                        job["skills"].to(list[str]).length() > 0,
                        rx.flex(
                            rx.foreach(
                                job["skills"].to(list[str]),
                                lambda skill: rx.badge(skill, variant="outline", size="2"),
                            ),
                            spacing="2",
                            wrap="wrap",
                        ),
                        rx.text("Nenhuma habilidade específica informada.", color=rx.color("gray", 11)),
                    ),
                ),
                section(
                    "Benefícios",
                    rx.el.ul(
                        benefit("Vale-transporte", job["transport_voucher"].to(bool)),
                        benefit("Refeição no local", job["meal_on_site"].to(bool)),
                        benefit("Intervalo", job["has_break"].to(bool)),
                        style={"padding": "0", "margin": "0", "display": "grid", "gap": "0.5rem"},
                    ),
                ),
                company_card(),
                spacing="6",
                flex="1",
                width="100%",
            ),
            rx.box(apply_box(), width=["100%", "100%", "320px"], flex_shrink="0"),
            direction=rx.breakpoints(initial="column-reverse", sm="row"),
            spacing="6",
            width="100%",
            align="start",
        ),
        spacing="5",
        width="100%",
        align="stretch",
    )


def similar_job(job: rx.Var) -> rx.Component:
    """One open job like the unavailable one: title, company, place, pay and the company's rating, linking to its page."""
    return rx.link(
        rx.card(
            rx.vstack(
                rx.text(job["title"], weight="bold", size="3"),
                rx.text(
                    job["company"], " · ", job["location"], " · ", job["pay"], size="2", color=rx.color("gray", 11)
                ),
                rx.cond(job["shift"] != "", rx.text(job["shift"], size="2", color=rx.color("gray", 11))),
                company_rating(job["company_rating"]),
                spacing="1",
            ),
            width="100%",
        ),
        href=rx.Var.create(routes.JOBS + "/") + job["id"].to(str),
        underline="none",
        color="inherit",
        width="100%",
    )


def unavailable() -> rx.Component:
    """A job that existed and is no longer open: say so, and offer similar open jobs."""
    return rx.vstack(
        rx.heading("Esta vaga não está mais disponível", as_="h1", size="8"),
        rx.text(
            "A empresa encerrou, preencheu ou arquivou esta vaga.",
            color=rx.color("gray", 11),
        ),
        rx.cond(
            JobDetailState.similar.length() > 0,
            rx.vstack(
                rx.heading("Vagas parecidas abertas agora", as_="h2", size="5"),
                rx.foreach(JobDetailState.similar, similar_job),
                spacing="3",
                width="100%",
                id="similar-jobs",
            ),
            rx.text("Nenhuma vaga parecida aberta agora.", color=rx.color("gray", 11)),
        ),
        link_button("Ver vagas disponíveis", href=routes.JOBS),
        spacing="4",
        width="100%",
        align="stretch",
    )


def not_found() -> rx.Component:
    """A job id that never existed (or was deleted)."""
    return rx.vstack(
        rx.heading("Vaga não encontrada", as_="h1", size="8"),
        empty_state(
            "briefcase",
            "Esta vaga não existe ou não está mais disponível.",
            "Veja as outras vagas abertas.",
            link_button("Ver vagas disponíveis", href=routes.JOBS),
        ),
        width="100%",
        align="stretch",
    )


@public_page(
    routes.JOB_DETAIL,
    rx.cond(JobDetailState.loading, first_title(page_title(DEFAULT_TITLE)), JobDetailState.page_title),
    on_load=[JobDetailState.load, ApplyState.load_for_job],
    description=None,  # the server writes the vaga's own (app/api/public_pages.py)
)
def job_detail_page() -> rx.Component:
    """The job, 'Vaga não encontrada', or the loading text; the server's first paint goes once it is known."""
    return rx.cond(
        JobDetailState.loading,
        rx.text("Carregando vaga...", role="status", color=rx.color("gray", 11)),
        rx.fragment(
            rx.fragment(on_mount=rx.call_script(first_paint.REMOVE_SCRIPT)),
            rx.cond(JobDetailState.found, detail(), rx.cond(JobDetailState.gone, unavailable(), not_found())),
        ),
    )
