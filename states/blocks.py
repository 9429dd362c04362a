"""Blocks on both dashboards and on the job page (services/trust/blocks.py).

Every handler resolves the caller from the server-side session and passes only ids to the service,
which checks who may block whom: a company only a freelancer who applied to its vagas; a freelancer
only a company already shown to them by name, named through the object that shows it (a shift of
theirs here, a named vaga on its page), never by a company id. What a block hides is
services/jobs/visibility.py's.
"""

import reflex as rx

from core.db import session_scope
from core.ids import valid_id
from core.types import utcnow
from models import Role
from services.common.errors import ServiceError
from services.trust import blocks
from services.trust.blocks import BlockedView, HiddenJobView, WorkedWith
from states.auth import AuthState
from states.failures import recovers

BLOCK_ERROR = "Não foi possível atualizar o bloqueio"


def _change(state: AuthState, role: Role, other_id: object, change, missing: str, done: str, reload) -> list:
    """Make or undo a block for the caller of `role`, reload the caller's list, and say so.

    Args:
        state: The calling tab's state.
        role: Who may call (the service checks the rest).
        other_id: The other side's id, as the browser sent it.
        change: The service call, (db, caller id, other id).
        missing: The refusal for a visitor, a wrong role or a malformed id.
        done: The success toast.
        reload: The state's loader of the list the change touches, (db, caller id).
    """
    user = state._caller(role)
    checked = valid_id(other_id)
    if user is None or checked is None:
        return [rx.toast.error(BLOCK_ERROR, description=missing)]
    try:
        with session_scope() as db:
            change(db, user.id, checked)
    except ServiceError as exc:
        return [rx.toast.error(BLOCK_ERROR, description=exc.message)]
    with session_scope() as db:
        reload(db, user.id)
    after = state._after_block(user.id) if role == Role.CLIENT else []
    return [rx.toast.success(done), *after]


class CompanyBlocksMixin(AuthState, mixin=True):
    """'Bloquear profissional' and the company's 'Profissionais bloqueados' list with 'Desbloquear'.

    A state mixing this in may define `_after_block(company_id)` to reload what the block changed on
    its screen (applicants, team) and return the events that takes; the list itself is reloaded here.
    """

    blocked_people: list[BlockedView] = []

    def _load_blocked(self, db, company_id: int) -> None:
        self.blocked_people = blocks.blocked_by(db, company_id)

    def _after_block(self, company_id: int) -> list:
        """What else to reload after a block or an unblock, and its events (nothing by default)."""
        return []

    def _change_block(self, freelancer_id: object, change, done: str):
        return _change(self, Role.CLIENT, freelancer_id, change, blocks.CANNOT_BLOCK, done, self._load_blocked)

    @rx.event
    @recovers(BLOCK_ERROR)
    def block_freelancer(self, freelancer_id: int):
        """'Bloquear profissional' (after the confirmation dialog)."""
        return self._change_block(
            freelancer_id,
            lambda db, company, freelancer: blocks.block_freelancer(db, company, freelancer, utcnow()),
            blocks.BLOCKED,
        )

    @rx.event
    @recovers(BLOCK_ERROR)
    def unblock_freelancer(self, freelancer_id: int):
        """'Desbloquear' in 'Profissionais bloqueados'."""
        return self._change_block(freelancer_id, blocks.unblock_freelancer, blocks.UNBLOCKED)


class FreelancerBlocksMixin(AuthState, mixin=True):
    """The overview's 'Empresas com quem você mais trabalha', 'Empresas/Vagas que você não quer ver'."""

    worked_with: list[WorkedWith] = []
    avoided_companies: list[BlockedView] = []
    hidden_jobs: list[HiddenJobView] = []

    def _load_companies(self, db, freelancer_id: int) -> None:
        lists = blocks.freelancer_companies(db, freelancer_id)
        self.worked_with, self.avoided_companies, self.hidden_jobs = lists.worked_with, lists.avoided, lists.hidden_jobs

    def _change_mine(self, other_id: object, change, done: str):
        return _change(self, Role.FREELANCER, other_id, change, blocks.UNAVAILABLE, done, self._load_companies)

    @rx.event
    @recovers(BLOCK_ERROR)
    def avoid_worked_company(self, hiring_id: int):
        """'Não quero trabalhar com esta empresa' on a company the freelancer worked for (named by their shift)."""
        return self._change_mine(
            hiring_id,
            lambda db, freelancer, hiring: blocks.avoid_company_of_hiring(db, freelancer, hiring, utcnow()),
            blocks.AVOIDED,
        )

    @rx.event
    @recovers(BLOCK_ERROR)
    def allow_company(self, company_id: int):
        """'Voltar a ver vagas' in 'Empresas que você não quer ver' (only the caller's own block goes)."""
        return self._change_mine(company_id, blocks.allow_company, blocks.ALLOWED)

    @rx.event
    @recovers(BLOCK_ERROR)
    def show_job(self, job_id: int):
        """'Voltar a ver esta vaga' in 'Vagas que você não quer ver' (only the caller's own list)."""
        return self._change_mine(job_id, blocks.show_job, blocks.JOB_SHOWN)
