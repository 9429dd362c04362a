"""What the company and freelancer dashboards share: the page size, cutting a page, the rating fields of a row.

The dashboards themselves are services/screens/company_dashboard.py and
services/screens/freelancer_dashboard.py. Every function there takes the acting user's id
(resolved by the caller from the server-side session) and filters by it, so a user only ever sees
their own jobs, applications and hirings. Every list is read one bounded page at a time
(services/common/paging.py, `cut_page`), with its chats, ratings and counts joined into the page's
statement instead of one more query per row.
"""

from models import Application, ApplicationStatus
from services.common import paging
from services.jobs import application_status

PAGE_SIZE = paging.DASHBOARD_PAGE_SIZE


def cut_page(ids, limit: int, offset: int = 0):
    """The page of an ordered query of ids, as a subquery to join the page's details to.

    The page is cut first, along the index that serves the query's filter and order; only its
    rows are then joined to their details (counts, names, chats, ratings), whatever the list's size.
    """
    return ids.offset(max(0, offset)).limit(limit).subquery("page")


def rating_open(vaga_status: str, shift_state: str | None) -> bool:
    """Ratings open when the shift's hours are approved, or the company closed the job (not on a cancelled shift)."""
    return application_status.rating_open(shift_state, vaga_status)


def rating_fields(application: Application, job_finished: bool, given: int | None) -> dict:
    """can_rate (accepted, job closed, not rated yet) and my_stars (0 when not rated) of one row."""
    accepted = application.status == ApplicationStatus.ACCEPTED
    return {"can_rate": accepted and job_finished and not given, "my_stars": given or 0}
