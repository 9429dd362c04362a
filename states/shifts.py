"""The shift cards of both dashboards: their lists, the action dialog and the one location reading.

Every action goes through `services.shifts.shifts.act` with the caller resolved from the server-side
session; the card only offers what the server would accept, and the server checks again. The
browser's location is read once ('Usar minha localização'), sent with the event, compared on the
server and never stored: only the distance bucket is kept.
"""

from typing import ClassVar

import reflex as rx

from core.db import session_scope
from core.formatting import local
from core.ids import id_from_text, valid_id
from core.types import utcnow
from models import Role
from services.common.errors import ServiceError
from services.jobs.shift_pay import DISMISS_REASONS
from services.money import settlement
from services.screens import next_shift, shift_views
from services.screens.next_shift import NextShift
from services.screens.shift_views import ShiftCard
from services.shifts import faltas, shifts
from services.shifts.hiring_actions import BUTTONS
from states.auth import AuthState
from states.failures import recovers
from states.messages import UNEXPECTED_MESSAGE

SHIFT_ERROR = "Não foi possível concluir"
LOAD_ERROR = ("Erro ao carregar turnos", "Não foi possível carregar seus turnos.")
LOCATION_FAILED = "Não conseguimos ler sua localização. Use o código da empresa ou 'Não consigo registrar'."
# Actions that run at once; the others open the dialog (a method, hours, a reason or a confirmation).
REVIEW = "revisao"  # the dialog's 'Pedir revisão humana' (its id is the falta's)
# 'Aprovar horas' opens a dialog with the hours, the amount and the records (issue 42); the server recomputes.
DIRECT = frozenset({"confirmar", "aceitar_ajuste", "marcar_pago", "confirmar_recebimento", "desistir"})
DISMISS_KEYS = {label: key for key, label in DISMISS_REASONS.items()}
_ONE_READING_JS = """new Promise((resolve) => {
  if (!navigator.geolocation) { resolve({error: "unsupported"}); return; }
  navigator.geolocation.getCurrentPosition(
    (p) => resolve({lat: p.coords.latitude, lng: p.coords.longitude, accuracy: p.coords.accuracy}),
    (e) => resolve({error: String(e.code)}),
    {enableHighAccuracy: true, timeout: 15000, maximumAge: 0});
})"""


class ShiftsMixin(AuthState, mixin=True):
    """'Próximos turnos' / 'Histórico' and the action dialog of a dashboard's shift tab."""

    ROLE: ClassVar[Role]

    shifts_upcoming: list[ShiftCard] = []
    shifts_history: list[ShiftCard] = []
    next_shift: list[NextShift] = []  # the overview's 'Próximo turno' (none or one)
    _next_cards: list[ShiftCard] = []  # its full card: what the action dialog reads (server only)
    my_faltas: list[dict] = []
    suspended_until: str = ""
    shift_dialog_open: bool = False
    shift_hiring: int = 0
    shift_action: str = ""
    shift_title: str = ""
    shift_text: str = ""
    shift_money: str = ""
    shift_subject: str = ""
    shift_approval: list[dict[str, str]] = []
    shift_flag: str = ""
    shift_prefill: str = ""
    shift_estimate: str = ""  # 'Enviar horas': the shift's total as scheduled
    shift_code: str = ""
    shift_has_point: bool = False
    shift_error: str = ""
    shift_busy: bool = False

    def _load_shifts(self, db, user_id: int) -> None:
        now = utcnow()
        if self.ROLE == Role.CLIENT:
            self.shifts_upcoming, self.shifts_history = shift_views.company_shifts(db, user_id, now)
            return
        self.shifts_upcoming, self.shifts_history = shift_views.freelancer_shifts(db, user_id, now)
        self.my_faltas = faltas.for_freelancer(db, user_id, now)
        until = faltas.suspended_until(db, user_id, now)
        self.suspended_until = f"{local(until):%d/%m/%Y}" if until else ""

    def _load_next_shift(self, db, user_id: int) -> None:
        """The overview's 'Próximo turno' (services/screens/next_shift.py)."""
        now = utcnow()
        if self.ROLE == Role.CLIENT:
            self.next_shift, self._next_cards = next_shift.for_company(db, user_id, now), []
            return
        self.next_shift, self._next_cards = next_shift.for_freelancer(db, user_id, now)

    def _reload_after_action(self, db, user_id: int) -> None:
        """After a step: the list the step was taken from, read again (the overview's card, or the shift lists)."""
        if self.next_shift and any(card["id"] == self.shift_hiring for card in self._next_cards):
            self._load_next_shift(db, user_id)
        if self.shifts_upcoming or self.shifts_history:
            self._load_shifts(db, user_id)

    @rx.event
    def open_review(self, falta_id: int):
        """'Pedir revisão humana' of one of the freelancer's faltas: the dialog asks why."""
        checked = valid_id(falta_id)
        if checked is None or self.ROLE != Role.FREELANCER:
            return rx.toast.error(SHIFT_ERROR, description=faltas.FALTA_NOT_FOUND)
        self.shift_hiring, self.shift_action, self.shift_error = checked, REVIEW, ""
        self.shift_title, self.shift_text, self.shift_money, self.shift_subject = "Pedir revisão humana", "", "", ""
        self.shift_approval, self.shift_flag = [], ""
        self.shift_dialog_open = True
        return None

    def _card(self, hiring_id: int) -> ShiftCard | None:
        return next((card for card in [*self.shifts_upcoming, *self._next_cards] if card["id"] == hiring_id), None)

    @rx.event
    @recovers(SHIFT_ERROR, UNEXPECTED_MESSAGE, reset={"shift_busy": False})
    def open_shift_action(self, hiring_id: int, action: str):
        """A card's button: run a one-click action, or open the dialog the action needs."""
        checked = valid_id(hiring_id)
        if checked is None or not isinstance(action, str) or action not in BUTTONS:
            return rx.toast.error(SHIFT_ERROR, description=shifts.NOT_FOUND)
        if action in DIRECT:
            return self._act(checked, action, {})
        self._open(checked, action)
        return None

    def _open(self, checked: int, action: str) -> None:
        card = self._card(checked)
        self.shift_hiring, self.shift_action, self.shift_error = checked, action, ""
        self.shift_title = BUTTONS[action]
        self.shift_text = card["cancel_text"] if card else ""
        self.shift_money = card["cancel_money"] if card else ""
        self.shift_subject = card["subject"] if card else ""
        self.shift_approval = [dict(line) for line in card["approval"]] if card else []
        self.shift_flag = card["approval_flag"] if card else ""
        self.shift_prefill = card["prefill"] if card else ""
        self.shift_estimate = card["estimate"] if card else ""
        self.shift_has_point = bool(card and card["has_point"])
        self.shift_dialog_open = True

    def _open_scanned_code(self) -> None:
        """A scanned QR opened ?vaga=&codigo=: open the check-in (or check-out) of that vaga's shift, code filled in."""
        query = self.router.url.query_parameters
        job_id, code = id_from_text(query.get("vaga")), str(query.get("codigo") or "")[:6]
        if job_id is None:
            return
        for card in self.shifts_upcoming:
            actions = [item["action"] for item in card["actions"]]
            step = next((action for action in ("chegada", "saida") if action in actions), None)
            if card["job_id"] == job_id and step is not None:
                self._open(card["id"], step)
                self.shift_code = code if code.isdigit() else ""
                return

    @rx.event
    def close_shift_dialog(self):
        """Close the dialog without doing anything."""
        self.shift_dialog_open, self.shift_error, self.shift_code = False, "", ""

    @rx.event
    @recovers(SHIFT_ERROR, UNEXPECTED_MESSAGE, reset={"shift_busy": False})
    def submit_shift_action(self, form_data: dict):
        """The dialog's confirmation: the action with what the dialog asked (method, code, hours, reason)."""
        data = dict(form_data) if isinstance(form_data, dict) else {}
        label = data.pop("reason_label", None)
        if label is not None:
            data["reason"] = DISMISS_KEYS.get(label, "")
        return self._act(self.shift_hiring, self.shift_action, data)

    @rx.event
    def read_location(self):
        """'Usar minha localização (uma única leitura)': one getCurrentPosition, then `located`."""
        self.shift_busy = True
        return rx.call_script(_ONE_READING_JS, callback=type(self).located)

    @rx.event
    @recovers(SHIFT_ERROR, UNEXPECTED_MESSAGE, reset={"shift_busy": False})
    def located(self, reading: dict):
        """The one reading arrived: the server compares it with the shift's point and forgets it."""
        self.shift_busy = False
        if not isinstance(reading, dict) or "error" in reading:
            self.shift_error = LOCATION_FAILED
            return None
        data = {
            "method": "local",
            "lat": reading.get("lat"),
            "lng": reading.get("lng"),
            "accuracy": reading.get("accuracy"),
        }
        return self._act(self.shift_hiring, self.shift_action, data)

    def _act(self, hiring_id: int, action: str, data: dict):
        user = self._caller(self.ROLE)
        if user is None:
            return None
        try:
            with session_scope() as db:
                if action == REVIEW:
                    faltas.request_review(db, user.id, hiring_id, str(data.get("reason") or ""), utcnow())
                    outcome = shifts.Outcome(True, "Pedido de revisão enviado")
                else:
                    outcome = shifts.act(db, user.id, self.ROLE, hiring_id, action, data, utcnow())
        except ServiceError as exc:
            if self.shift_dialog_open:
                self.shift_error = exc.message
                return None
            return rx.toast.error(SHIFT_ERROR, description=exc.message)
        if not outcome.ok:
            self.shift_error = outcome.message
            return None
        self.shift_dialog_open, self.shift_error, self.shift_code = False, "", ""
        settlement.settle_soon(hiring_id)  # an approval or a cancellation moves the money now
        self.shift_hiring = hiring_id
        with session_scope() as db:
            self._reload_after_action(db, user.id)
        return rx.toast.success(outcome.message)
