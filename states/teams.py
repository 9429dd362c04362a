"""'Minha equipe' on the company's dashboard: add from a paid shift's card, list, remove.

Every handler resolves the company from the server-side session; the hiring is loaded by id AND
company, so another company's shift and a missing one get the same refusal, and services/trust/teams.py
checks the freelancer worked a paid shift for the company.
"""

import reflex as rx
from sqlmodel import select

from core.db import session_scope
from core.ids import valid_id
from core.types import utcnow
from models import Hiring, Role
from services.common.errors import NotAllowed, ServiceError
from services.trust import teams
from services.trust.teams import TeamMemberView
from states.auth import AuthState
from states.failures import recovers

TEAM_ERROR = "Não foi possível atualizar sua equipe"
SHIFT_NOT_FOUND = "Turno não encontrado."


class TeamMixin(AuthState, mixin=True):
    """The 'Minha equipe' tab and the 'Adicionar à equipe' button of the company's shift cards.

    Mix in next to ShiftsMixin: adding reloads the shift cards (`_load_shifts`).
    """

    team_members: list[TeamMemberView] = []
    team_size_text: str = ""
    team_full: bool = False

    def _load_team(self, db, company_id: int) -> None:
        view = teams.team(db, company_id)
        self.team_members, self.team_size_text, self.team_full = view.members, view.size_text, view.full

    @rx.event
    @recovers(TEAM_ERROR)
    def add_to_team(self, hiring_id: int):
        """'Adicionar à equipe' on a paid shift: its freelancer joins the company's team."""
        user = self._caller(Role.CLIENT)
        checked = valid_id(hiring_id)
        if user is None or checked is None:
            return rx.toast.error(TEAM_ERROR, description=SHIFT_NOT_FOUND)
        try:
            with session_scope() as db:
                freelancer_id = db.exec(
                    select(Hiring.freelancer_id).where(Hiring.id == checked, Hiring.company_id == user.id)
                ).first()
                if freelancer_id is None:
                    raise NotAllowed(SHIFT_NOT_FOUND)
                teams.add(db, user.id, freelancer_id, utcnow())
        except ServiceError as exc:
            return rx.toast.error(TEAM_ERROR, description=exc.message)
        with session_scope() as db:
            self._load_shifts(db, user.id)
        return rx.toast.success(teams.ADDED)

    @rx.event
    @recovers(TEAM_ERROR)
    def remove_from_team(self, freelancer_id: int):
        """'Remover da equipe'."""
        user = self._caller(Role.CLIENT)
        checked = valid_id(freelancer_id)
        if user is None or checked is None:
            return rx.toast.error(TEAM_ERROR, description=teams.NOT_A_MEMBER)
        try:
            with session_scope() as db:
                teams.remove(db, user.id, checked)
        except ServiceError as exc:
            return rx.toast.error(TEAM_ERROR, description=exc.message)
        with session_scope() as db:
            self._load_team(db, user.id)
        return rx.toast.success(teams.REMOVED)
