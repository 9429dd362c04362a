"""The state of /freelancers/[id]: the profile of the URL, loaded only for a viewer the service permits.

`FreelancerProfileState` holds the profile (or nothing, for anyone else and any other id), the
five stars of its average (`star_kinds`), the reviews' pager and 'Carregar mais' under the
company's jobs the freelancer applied to.
"""

import math

import reflex as rx

from core import routes
from core.db import session_scope
from core.ids import id_from_text
from core.presence import SITE, get_presence
from core.text import positive_int
from services.common.errors import NotAllowed
from services.common.paging import PagerLink, pager_links
from services.screens import public_profiles
from services.screens.public_profiles import FreelancerPublicProfile
from states.auth import AuthState
from states.failures import recovers

LOAD_ERROR = ("Erro ao carregar perfil", "Não foi possível carregar este perfil. Tente novamente.")
EMPTY_PROFILE = FreelancerPublicProfile(
    id=0,
    name="",
    initials="",
    photo="",
    profession="",
    location="",
    skills=[],
    bio="",
    experience="",
    website="",
    rating="",
    reliability="",
    rating_average=0.0,
    rating_count=0,
    reviews=[],
    page=1,
    pages=1,
    applications=[],
    applications_more=False,
    is_self=False,
)


def star_kinds(average: float) -> list[str]:
    """Five stars for an average, to the nearest half: 'full', 'half' or 'empty' each (4.5 -> 4 full, 1 half)."""
    halves = math.floor(max(0.0, min(5.0, average)) * 2 + 0.5)
    return ["full" if halves >= 2 * n else "half" if halves == 2 * n - 1 else "empty" for n in range(1, 6)]


class FreelancerProfileState(AuthState):
    """The profile of the URL, loaded only for a viewer the service permits."""

    status: str = "loading"
    profile: FreelancerPublicProfile = EMPTY_PROFILE
    stars: list[str] = []
    pager_items: list[PagerLink] = []
    prev_href: str = ""
    next_href: str = ""
    loading_more_applications: bool = False

    def _forget(self, status: str = "missing") -> None:
        """Drop everything of a profile from the state (a refusal leaves nothing behind)."""
        self.status = status
        self.profile = EMPTY_PROFILE
        self.stars = []
        self.pager_items = []
        self.prev_href = ""
        self.next_href = ""

    def _show(self, result: FreelancerPublicProfile) -> None:
        self.profile = result
        self.stars = star_kinds(result["rating_average"])
        freelancer_id, page, pages = result["id"], result["page"], result["pages"]
        self.pager_items = pager_links(page, pages, lambda number: routes.freelancer_profile(freelancer_id, number))
        self.prev_href = routes.freelancer_profile(freelancer_id, page - 1) if page > 1 else ""
        self.next_href = routes.freelancer_profile(freelancer_id, page + 1) if page < pages else ""
        self.status = "found"

    @rx.event
    @recovers(*LOAD_ERROR, reset={"loading_more_applications": False})
    def more_applications(self):
        """'Carregar mais' under the company's jobs this freelancer applied to."""
        if self.status != "found" or not self.profile["applications_more"] or self.loading_more_applications:
            return
        user = self._caller()
        if user is None:
            return
        self.loading_more_applications = True
        yield
        shown = self.profile["applications"]
        try:
            with session_scope() as db:
                more = public_profiles.more_applications(db, user.id, self.profile["id"], len(shown))
        except NotAllowed:
            self._forget()
            return
        finally:
            self.loading_more_applications = False
        ids = {row["application_id"] for row in shown}
        rows = shown + [row for row in more.items if row["application_id"] not in ids]
        self.profile = {**self.profile, "applications": rows, "applications_more": more.has_more}

    @rx.event
    @recovers(*LOAD_ERROR, reset=lambda state: state._forget())
    async def load(self):
        """Load the profile of the URL (?page=N of the reviews) for the caller, or 'Perfil não encontrado'."""
        requested = id_from_text(routes.last_segment(self.router.url.path))
        if self.status != "found" or requested is None or requested != self.profile["id"]:
            self._forget(status="loading")
            yield
        user = self._current_user()
        if user is None or requested is None:
            self._forget()
            return
        # The tab left a dashboard or a conversation: live delivery must not count it as reading one.
        await get_presence().move(user.id, self.router.session.client_token, SITE)
        page = positive_int(self.router.url.query_parameters.get("page"), 1)
        try:
            with session_scope() as db:
                result = public_profiles.freelancer_profile(db, user.id, requested, page)
        except NotAllowed:
            self._forget()
            return
        self._show(result)
