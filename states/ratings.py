"""Rating the other side of a finished job, shared by the company and freelancer dashboards."""

import logging

import reflex as rx

from core.db import session_scope
from models import Role
from services.common.errors import ServiceError
from services.shifts import ratings
from states.auth import AuthState
from states.failures import recovers
from states.messages import ERROR_TITLE

log = logging.getLogger("turno.errors")

RATING_SENT = "Avaliação enviada!"
TEAM_SUGGESTION = "Gostou do trabalho? Depois do pagamento, adicione à sua equipe pelo card do turno em 'Turnos'."
RATING_FAILED = "Não foi possível enviar sua avaliação. Tente novamente."
MAX_STARS = 5


class RatingMixin(AuthState, mixin=True):
    """The rating dialog's state; a dashboard state mixes it in and reloads its rows in `_after_rating`.

    The application being rated is kept on the server once `open_rating` has checked that the
    caller may rate it; `submit_rating` checks again through the service.
    """

    rating_open: bool = False
    rating_application_id: int = 0
    rating_name: str = ""
    rating_job: str = ""
    rating_stars: int = 0
    rating_error: str = ""
    rating_submitting: bool = False

    def _after_rating(self, db, user_id: int) -> None:
        """Reload what the page shows once a rating is stored (overridden by each dashboard)."""

    @rx.event
    @recovers(ERROR_TITLE, RATING_FAILED)
    def open_rating(self, application_id: int):
        """Open the dialog for an accepted application of a closed job the caller took part in."""
        user = self._caller()
        if user is None:
            return rx.toast.error(ERROR_TITLE, description=ratings.CANNOT_RATE)
        with session_scope() as db:
            target = ratings.target(db, user.id, application_id)
        self.rating_application_id = target["application_id"]
        self.rating_name = target["name"]
        self.rating_job = target["job_title"]
        self.rating_stars = 0
        self.rating_error = ""
        self.rating_submitting = False
        self.rating_open = True
        return None

    @rx.event
    def close_rating(self, open_: bool = False):
        """Close the dialog (Cancelar, Escape or a click outside); opening happens in `open_rating`."""
        if not open_:
            self.rating_open = False

    @rx.event
    def pick_stars(self, stars: int):
        """Choose 1 to 5 stars."""
        if isinstance(stars, int) and not isinstance(stars, bool) and 1 <= stars <= MAX_STARS:
            self.rating_stars = stars
            self.rating_error = ""

    @rx.event
    @recovers(ERROR_TITLE, RATING_FAILED, reset={"rating_submitting": False})
    def submit_rating(self, form_data: dict):
        """Store the rating with the chosen stars and the optional comment."""
        if self.rating_submitting or not self.rating_open:
            return None
        user = self._caller()
        if user is None:
            return rx.toast.error(ERROR_TITLE, description=ratings.CANNOT_RATE)
        comment = form_data.get("comment", "") if isinstance(form_data, dict) else ""
        self.rating_submitting = True
        try:
            with session_scope() as db:
                ratings.rate(db, user.id, self.rating_application_id, {"stars": self.rating_stars, "comment": comment})
        except ServiceError as exc:
            self.rating_error = exc.field_errors.get("stars", "") or exc.message
            return None
        finally:
            self.rating_submitting = False
        self.rating_open = False
        self._reload_after_rating(user.id)
        thanks = f"Obrigado por avaliar {self.rating_name}."
        if user.role == Role.CLIENT and self.rating_stars == MAX_STARS:  # 5 stars: suggest the team
            thanks += " " + TEAM_SUGGESTION
        return rx.toast.success(RATING_SENT, description=thanks)

    def _reload_after_rating(self, user_id: int) -> None:
        """Refresh the page's rows; the rating is stored even if this read fails (next load shows it)."""
        try:
            with session_scope() as db:
                self._after_rating(db, user_id)
        except Exception:  # the rating is stored: a stale list is better than a false error
            log.warning("reloading the rows after a rating failed", exc_info=True)
