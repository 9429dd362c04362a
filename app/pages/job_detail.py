"""/jobs/[id]: every public field of one job and the apply box (sign in, apply, or the application's status)."""

import reflex as rx

from app.api import first_paint
from app.api.public_pages import GONE_TITLE, MISSING_TITLE
from app.layout import first_title, page_title, public_page
from components import share
from components.apply import applied_box, apply_form
from components.blocks import AVOID_EFFECTS, HIDE_JOB_EFFECTS, confirm_button
from components.links import link_button
from components.punctuality import punctual_line
from components.rating import company_rating
from components.ui import empty_state
from core import routes, seo
from core.catalog import BRING_LABEL
from core.db import session_scope
from core.settings import get_settings
from core.types import utcnow
from models import Role
from services.common.errors import ServiceError
from services.jobs import job_detail, visibility
from services.jobs.job_detail import JobDetail
from services.jobs.jobs import JobListItem
from services.shifts import applications
from services.trust import blocks
from states.apply import ApplyState
from states.auth import AuthState, viewer_id
from states.blocks import BLOCK_ERROR
from states.failures import recovers
from states.messages import UNEXPECTED

LOAD_ERROR = UNEXPECTED
DEFAULT_TITLE = "Detalhes da vaga"
NOT_INFORMED = "Não informada"

EMPTY_JOB = JobDetail(
    id=0,
    title="",
    category="",
    category_label="",
    company="",
    anonymous=False,
    company_id=0,
    company_photo="",
    company_bio="",
    company_site="",
    company_links=[],
    location="",
    pay="",
    total="",
    when="",
    date_needed="",
    duration="",
    shift="",
    address="",
    map_url="",
    bring="",
    description="",
    skills=[],
    transport_voucher=False,
    meal_on_site=False,
    has_break=False,
    positions=0,
    posted="",
    company_rating="",
    payment="",
    payment_note="",
    guaranteed=False,
    punctual=False,
    punctual_summary="",
    posted_at="",
    starts_at="",
    day_needed="",
    hourly_rate=0.0,
)


class JobDetailState(rx.State):
    """The job shown on the detail page."""

    job: JobDetail = EMPTY_JOB
    found: bool = False
    loading: bool = True
    gone: bool = False  # the job exists but is closed, archived or filled: 'não está mais disponível'
    similar: list[JobListItem] = []

    @rx.event
    @recovers(*LOAD_ERROR, reset={"job": EMPTY_JOB, "found": False, "loading": False, "gone": False, "similar": []})
    async def load(self):
        """Load the job of the URL; a closed one shows similar open jobs, a missing one 'Vaga não encontrada'.

        What the viewer may see decides (services/jobs/jobs.py `job_for_viewer`): a team member sees a
        team-first vaga, nobody sees a vaga of a company a block stands between them and.
        """
        job_id = routes.job_id_from_path(self.router.url.path)
        if job_id is None or job_id != self.job["id"]:
            self.loading = True
            yield
        detail, similar = None, None
        if job_id is not None:
            viewer = await viewer_id(self)
            with session_scope() as db:
                detail = job_detail.job_for_viewer(db, job_id, viewer)
                if detail is None:
                    similar = job_detail.similar_to_unavailable(db, job_id, visibility.hidden_for(db, viewer))
        self.job = detail or EMPTY_JOB
        self.found = detail is not None
        self.gone, self.similar = similar is not None, similar or []
        self.loading = False

    @rx.event
    @recovers(BLOCK_ERROR)
    async def avoid_company(self):
        """'Não quero trabalhar com esta empresa' on a named vaga's page: its company's named vagas are hidden."""
        return await self._from_this_job(blocks.avoid_company_of_job, blocks.AVOIDED)

    @rx.event
    @recovers(BLOCK_ERROR)
    async def hide_job(self):
        """'Não quero ver esta vaga' (what an anonymous vaga offers): this vaga alone is hidden."""
        return await self._from_this_job(blocks.hide_job, blocks.JOB_HIDDEN)

    async def _from_this_job(self, change, done: str):
        """Run `change(db, freelancer, job, now)` on the page's vaga, then back to /jobs saying `done`.

        The service decides what the vaga allows; every refusal reads the same (blocks.UNAVAILABLE).
        """
        user = (await self.get_state(AuthState))._caller(Role.FREELANCER)
        job_id = routes.job_id_from_path(self.router.url.path)
        if user is None or job_id is None:
            return rx.toast.error(BLOCK_ERROR, description=blocks.UNAVAILABLE)
        try:
            with session_scope() as db:
                change(db, user.id, job_id, utcnow())
        except ServiceError as exc:
            return rx.toast.error(BLOCK_ERROR, description=exc.message)
        return [rx.toast.success(done), rx.redirect(routes.JOBS)]

    @rx.var
    def share_url(self) -> str:
        """The vaga's public address on SITE_URL (what 'Copiar link' copies and WhatsApp sends)."""
        return seo.absolute(get_settings().site_url, routes.job_detail(self.job["id"]))

    @rx.var
    def whatsapp_url(self) -> str:
        """'Compartilhar no WhatsApp': wa.me with the vaga's title, place and address as the message."""
        return share.whatsapp(share.message(self.job["title"], self.job["location"]), self.share_url)

    @rx.var
    def page_title(self) -> str:
        """The browser title: the vaga's own ('Garçom em São Paulo, SP · Hotel Sol | Turno') once it is known."""
        name = get_settings().product_name
        if self.found:
            job = self.job
            return seo.job_title(job["title"], job["location"], job["company"], name)
        if self.loading:
            return page_title(DEFAULT_TITLE)
        return page_title(GONE_TITLE if self.gone else MISSING_TITLE)


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
