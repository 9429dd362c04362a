"""/client-dashboard/presenca/{job_id}: the rotating 'Código de presença' and its QR, on the company's screen.

The code is computed on the server from the vaga's secret (which never leaves it) and refreshed
every few seconds while the page is open; the freelancer types it or scans the QR, which opens their
'Meus Turnos' with the code filled in. Below, the vaga's hired freelancers with their state and the
company's own actions ('Registrar chegada' on their behalf, 'Dispensar agora', 'Não compareceu').
"""

from typing import ClassVar

import reflex as rx

from app.layout import dashboard_page
from components.dashboard import tab_heading
from components.shift_card import shift_card
from components.shift_dialog import shift_dialog
from core import routes
from core.db import session_scope
from core.ids import id_from_text
from core.qr import qr_svg_data_uri
from core.types import utcnow
from models import Role
from services.common.errors import ServiceError
from services.screens import shift_pages, shift_views
from services.shifts.shifts import NOT_FOUND
from states.auth import AuthState
from states.failures import recovers
from states.protected_payments import PayShiftMixin
from states.shifts import ShiftsMixin

REFRESH_MS = 5000
LOAD_ERROR = "Erro ao carregar o código"


class AttendanceCodeState(ShiftsMixin, PayShiftMixin, AuthState):
    """The code screen of one of the signed-in company's vagas."""

    ROLE: ClassVar[Role] = Role.CLIENT

    job_id: int = 0
    title: str = ""
    day: str = ""
    time: str = ""
    code: str = ""
    seconds_left: int = 0
    qr: str = ""
    error: str = ""

    @rx.event
    @recovers(LOAD_ERROR)
    def load(self):
        """Read the vaga from the URL, check it is the company's, and show its code and hired freelancers."""
        self.job_id = id_from_text(routes.last_segment(self.router.url.path)) or 0
        self._checkout_over()
        self._refresh()

    @rx.event
    def refresh(self, _value=None):
        """The timer: a fresh code, and the vaga's freelancers as they are now (a check-in shows at once)."""
        self._refresh()

    def _refresh(self) -> None:
        user = self._caller(Role.CLIENT)
        if user is None or not self.job_id:
            self._forget(NOT_FOUND)
            return
        try:
            with session_scope() as db:
                now = utcnow()
                screen = shift_pages.attendance_screen(db, user.id, self.job_id, now, self.router.url.origin)
                self.shifts_upcoming = shift_views.job_shifts(db, user.id, self.job_id, now)
        except ServiceError as exc:
            self._forget(exc.message)
            return
        if screen["code"] != self.code:
            self.qr = qr_svg_data_uri(screen["link"])
        self.error = ""
        self.title, self.day, self.time = screen["title"], screen["day"], screen["time"]
        self.code, self.seconds_left = screen["code"], screen["seconds_left"]

    def _load_shifts(self, db, user_id: int) -> None:
        self.shifts_upcoming = shift_views.job_shifts(db, user_id, self.job_id, utcnow())

    def _forget(self, message: str) -> None:
        """A refused refresh (the session ended, the vaga is not the caller's): the tab keeps nothing."""
        self.error, self.code, self.qr, self.seconds_left = message, "", "", 0
        self.title = self.day = self.time = ""
        self.shifts_upcoming = []


def _code_panel() -> rx.Component:
    state = AttendanceCodeState
    return rx.card(
        rx.vstack(
            rx.text("Código de presença", size="3", weight="medium"),
            rx.text(
                state.code,
                id="attendance-code",
                size="9",
                weight="bold",
                # Six digits fit a 375 px phone's card (issue 42) and stay large on a counter's screen.
                style={
                    "fontSize": "clamp(2.25rem, 13vw, 3.75rem)",
                    "letterSpacing": "0.2em",
                    "marginRight": "-0.2em",
                    "fontVariantNumeric": "tabular-nums",
                    "whiteSpace": "nowrap",
                },
                aria_live="polite",
            ),
            rx.text("Muda a cada 30 segundos. O profissional digita o código ou escaneia o QR.", size="2"),
            rx.cond(
                state.qr != "", rx.image(src=state.qr, alt="QR do código de presença", width="220px", height="220px")
            ),
            rx.moment(interval=REFRESH_MS, on_change=AttendanceCodeState.refresh, display="none"),
            align="center",
            spacing="3",
            width="100%",
        ),
        width="100%",
        max_width="420px",
    )


@dashboard_page(
    routes.ATTENDANCE_CODE,
    "Código de presença",
    Role.CLIENT,
    on_load=[AttendanceCodeState.load],
    active_tab="shifts",
)
def attendance_code_page() -> rx.Component:
    """The code, its QR and the vaga's hired freelancers."""
    state = AttendanceCodeState
    return rx.vstack(
        tab_heading("Código de presença", state.title + " · " + state.day + " · " + state.time),
        rx.cond(
            state.error != "",
            rx.callout(state.error, icon="triangle-alert", color_scheme="red"),
            rx.vstack(
                _code_panel(),
                rx.heading("Profissionais deste turno", size="4"),
                rx.foreach(state.shifts_upcoming, lambda card: shift_card(card, state, Role.CLIENT, code_link=False)),
                width="100%",
                align="center",
            ),
        ),
        shift_dialog(state, Role.CLIENT),
        rx.link("Voltar para Turnos", href=routes.dashboard_tab(Role.CLIENT, "shifts"), size="2"),
        spacing="4",
        width="100%",
    )
