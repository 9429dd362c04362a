"""The state of /jobs/[id]: the job the viewer may see (or why not), similar open jobs, sharing and blocks.

`JobDetailState` loads the vaga of the URL for the viewer (services/jobs/jobs.py `job_for_viewer`),
builds the share links and the browser title, and carries the freelancer's 'Não quero trabalhar com
esta empresa' / 'Não quero ver esta vaga'.
"""

import reflex as rx

from app.api.public_pages import GONE_TITLE, MISSING_TITLE
from app.layout import page_title
from components import share
from core import routes, seo
from core.db import session_scope
from core.settings import get_settings
from core.types import utcnow
from models import Role
from services.common.errors import ServiceError
from services.jobs import job_detail, visibility
from services.jobs.job_detail import JobDetail
from services.jobs.jobs import JobListItem
from services.trust import blocks
from states.auth import AuthState, viewer_id
from states.blocks import BLOCK_ERROR
from states.failures import recovers
from states.messages import UNEXPECTED

LOAD_ERROR = UNEXPECTED
DEFAULT_TITLE = "Detalhes da vaga"

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
