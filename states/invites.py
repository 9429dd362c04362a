"""'Contratar novamente' on both dashboards (services/trust/invites.py).

Every handler resolves the caller from the server-side session; the service checks who may invite
whom (a paid shift together or the team, no block) and that an invite belongs to the one answering
it. The 'Termômetro de vínculo' box is only remembered here: the service decides on the server.
"""

from datetime import datetime

import reflex as rx

from core.db import session_scope
from core.ids import valid_id
from core.shift_rules import LOCAL_TZ
from core.types import utcnow
from models import Role
from services.common.errors import ServiceError
from services.shifts import bond
from services.shifts.bond import BondNotice
from services.trust import invite_sending, invite_views, invites
from services.trust.invite_views import InviteView
from states.auth import AuthState
from states.failures import recovers

INVITE_ERROR = "Não foi possível enviar o convite"
ANSWER_ERROR = "Não foi possível responder ao convite"
START_FIELDS = ("data", "inicio")  # the dialog's fields the thermometer depends on


def _blank() -> dict[str, str]:
    return dict.fromkeys(invite_sending.FIELDS, "")


class CompanyInvitesMixin(AuthState, mixin=True):
    """The 'Contratar novamente' dialog and 'Convites enviados' (mixed into the company dashboard)."""

    invite_open: bool = False
    invite_freelancer: int = 0
    invite_name: str = ""
    invite_values: dict[str, str] = _blank()
    invite_errors: dict[str, str] = _blank()
    invite_bond: BondNotice = bond.NO_NOTICE
    invite_ack: bool = False
    invite_copied: str = ""  # 'Copiado de: Garçom · 10:57–16:57 · R$ 30,00/hora'
    invite_key: str = ""  # changes with each opening, so the fields take the new prefill
    sent_invites: list[InviteView] = []
    _invite_hiring: int = 0  # the shift card pressed (0 from 'Minha equipe'); send copies the same shift

    def _load_sent(self, db, company_id: int) -> None:
        self.sent_invites = invite_views.sent_by(db, company_id)

    @rx.event
    @recovers(INVITE_ERROR)
    def open_invite(self, freelancer_id: int):
        """'Contratar novamente' in 'Minha equipe': the latest paid shift's vaga, times and rate a week later."""
        user = self._caller(Role.CLIENT)
        checked = valid_id(freelancer_id)
        if user is None or checked is None:
            return rx.toast.error(INVITE_ERROR, description=invite_sending.NOT_ELIGIBLE)
        return self._open_draft(user.id, checked, None)

    @rx.event
    @recovers(INVITE_ERROR)
    def rebook_shift(self, hiring_id: int):
        """'Contratar novamente' on a shift card: that shift's own vaga, times and rate a week later."""
        user = self._caller(Role.CLIENT)
        checked = valid_id(hiring_id)
        if user is None or checked is None:
            return rx.toast.error(INVITE_ERROR, description=invite_sending.NO_SHIFT)
        try:
            with session_scope() as db:
                freelancer_id = invite_sending.card_hiring(db, user.id, checked).freelancer_id
        except ServiceError as exc:
            return rx.toast.error(INVITE_ERROR, description=exc.message)
        return self._open_draft(user.id, freelancer_id, checked)

    def _open_draft(self, company_id: int, freelancer_id: int, hiring_id: int | None):
        """Open the dialog prefilled from the shift it copies (the service picks and checks it)."""
        try:
            with session_scope() as db:
                start = invite_sending.draft(db, company_id, freelancer_id, hiring_id=hiring_id)
                self.invite_values = {
                    "data": start.data,
                    "inicio": start.inicio,
                    "fim": start.fim,
                    "valor_hora": start.valor_hora,
                    "mensagem": "",
                }
                self.invite_bond = self._bond_for(db, company_id, freelancer_id)
        except ServiceError as exc:
            return rx.toast.error(INVITE_ERROR, description=exc.message)
        self.invite_freelancer, self.invite_name, self.invite_copied = freelancer_id, start.name, start.copied
        self._invite_hiring = hiring_id or 0
        self.invite_key = f"{freelancer_id}-{start.hiring_id}"
        self.invite_errors, self.invite_ack, self.invite_open = _blank(), False, True
        return None

    def _bond_for(self, db, company_id: int, freelancer_id: int) -> BondNotice:
        """The thermometer for the dialog's date and start (nothing while they do not make a valid time)."""
        start, _end = invite_sending.shift_inputs(self.invite_values)
        try:
            at = datetime.fromisoformat(start).replace(tzinfo=LOCAL_TZ)
        except ValueError:
            return bond.NO_NOTICE
        return bond.notice(bond.reading(db, company_id, freelancer_id, at))

    @rx.event
    def set_invite_open(self, value: bool):
        """Close the dialog (Esc, 'Cancelar'); it opens only through open_invite."""
        if value is not True:
            self.invite_open = False

    @rx.event
    @recovers(INVITE_ERROR)
    def change_invite_start(self, field: str, value: str):
        """The date or start picked in the dialog: the thermometer follows it (nothing is written)."""
        user = self._caller(Role.CLIENT)
        if user is None or not self.invite_open or not self.invite_freelancer or field not in START_FIELDS:
            return
        self.invite_values = {**self.invite_values, field: str(value or "")[:20]}
        with session_scope() as db:
            notice = self._bond_for(db, user.id, self.invite_freelancer)
        if notice["level"] != self.invite_bond["level"]:
            self.invite_ack = False  # a new level asks for a new decision
        self.invite_bond = notice

    @rx.event
    def acknowledge_invite_bond(self, checked: bool):
        """'Estou ciente e assumo a responsabilidade' in the dialog (checked again by the service)."""
        self.invite_ack = checked is True

    @rx.event
    @recovers(INVITE_ERROR)
    def send_invite(self, form_data: dict):
        """'Enviar convite': the private vaga and the invite; the fields' messages on a bad value."""
        user = self._caller(Role.CLIENT)
        if user is None or not self.invite_open or not self.invite_freelancer:
            return rx.toast.error(INVITE_ERROR, description=invite_sending.NOT_ELIGIBLE)
        data = form_data if isinstance(form_data, dict) else {}
        self.invite_values = {name: str(data.get(name) or "")[:600] for name in invite_sending.FIELDS}
        self.invite_errors = _blank()
        try:
            with session_scope() as db:
                invite_sending.send(
                    db,
                    user.id,
                    self.invite_freelancer,
                    self.invite_values,
                    self.invite_ack,
                    hiring_id=self._invite_hiring or None,
                )
        except ServiceError as exc:
            if exc.field_errors:
                self.invite_errors = {
                    **_blank(),
                    **{k: v for k, v in exc.field_errors.items() if k in invite_sending.FIELDS},
                }
                return None
            with session_scope() as db:  # the date may have changed: the notice follows it
                self.invite_bond = self._bond_for(db, user.id, self.invite_freelancer)
            return rx.toast.error(INVITE_ERROR, description=exc.message)
        self.invite_open = False
        with session_scope() as db:
            self._load_sent(db, user.id)
        return rx.toast.success(invite_sending.SENT)

    @rx.event
    @recovers(INVITE_ERROR)
    def cancel_invite(self, invite_id: int):
        """'Cancelar convite' on a sent, unanswered invite."""
        user = self._caller(Role.CLIENT)
        try:
            with session_scope() as db:
                invites.cancel(db, user.id if user else 0, valid_id(invite_id), utcnow())
        except ServiceError as exc:
            return rx.toast.error(INVITE_ERROR, description=exc.message)
        with session_scope() as db:
            self._load_sent(db, user.id)
        return rx.toast.success(invites.CANCELLED)


class FreelancerInvitesMixin(AuthState, mixin=True):
    """The freelancer's 'Convites' with 'Aceitar convite' and 'Recusar'."""

    open_invites: list[InviteView] = []

    def _load_invites(self, db, freelancer_id: int) -> None:
        self.open_invites = invite_views.pending_for(db, freelancer_id)

    def _answer_invite(self, invite_id: object, answer, done: str):
        user = self._caller(Role.FREELANCER)
        try:
            with session_scope() as db:
                answer(db, user.id if user else 0, valid_id(invite_id), utcnow())
        except ServiceError as exc:
            return rx.toast.error(ANSWER_ERROR, description=exc.message)
        with session_scope() as db:
            self._load_invites(db, user.id)
        return rx.toast.success(done)

    @rx.event
    @recovers(ANSWER_ERROR)
    def accept_invite(self, invite_id: int):
        """'Aceitar convite': hired for the private vaga (the shift appears in 'Meus Turnos')."""
        return self._answer_invite(invite_id, invites.accept, invites.ACCEPTED)

    @rx.event
    @recovers(ANSWER_ERROR)
    def decline_invite(self, invite_id: int):
        """'Recusar' an invite."""
        return self._answer_invite(invite_id, invites.decline, invites.DECLINED)
