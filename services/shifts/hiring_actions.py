"""Every action and every state of a hiring, and everything said about each, in one row (docs/product/shifts.md "Turnos").

A row holds the button the shift card shows, the line the 'Linha do tempo' and the staff view
write, the notice to the company and to the freelancer when the other side (or the timer) did it,
the reason the timer records, and who may ever do it. The state table
(services/shifts/hiring_lifecycle.py `RULES`) says when, from which state and by whom in each
state; tests/unit/shifts/test_hiring_actions.py keeps the two in step. Every deadline in a text is read
from core/shift_rules.py, never written as a number.
"""

from dataclasses import dataclass
from datetime import timedelta
from enum import StrEnum
from typing import NamedTuple

from core import shift_rules as rules
from models import Actor, HiringState


class HiringAction(StrEnum):
    """The actions, as stored in `hiring_events.action` (Portuguese values are data: never rename one)."""

    ACCEPT = "aceitar"
    MIGRATION = "migracao"
    PAYMENT_CONFIRMED = "pagamento_confirmado"
    PAYMENT_EXPIRED = "pagamento_expirado"
    PAYMENT_NOT_COMPLETED = "pagamento_nao_concluido"
    GIVE_UP = "desistir"
    ACCEPT_AGAIN = "aceitar_novamente"
    PAID_OUT = "repasse"
    CONFIRM = "confirmar"
    NOT_CONFIRMED = "nao_confirmou"
    CANCEL_FREE = "cancelar_sem_custo"
    CANCEL = "cancelar"
    CHECK_IN = "chegada"
    CHECK_OUT = "saida"
    DISMISS = "dispensar"
    EXIT_NOT_RECORDED = "saida_nao_registrada"
    SEND_HOURS = "enviar_horas"
    HOURS_FROM_RECORDS = "horas_pelos_registros"
    APPROVE = "aprovar"
    AUTO_APPROVAL = "aprovacao_automatica"
    ADJUST = "ajustar"
    ACCEPT_ADJUSTMENT = "aceitar_ajuste"
    CONTEST_ADJUSTMENT = "contestar_ajuste"
    ADJUSTMENT_AUTO_ACCEPTED = "ajuste_aceito_automaticamente"
    NO_SHOW = "nao_compareceu"
    NO_RECORD = "sem_registro"
    CONTEST_ABSENCE = "contestar_falta"
    DECIDE = "decidir"  # staff's request; stored as one of the two below
    DECIDE_APPROVE = "decidir_aprovar"
    DECIDE_ABSENCE = "decidir_falta"
    MARK_PAID = "marcar_pago"
    CONFIRM_RECEIPT = "confirmar_recebimento"
    WRONG_CODE = "codigo_incorreto"
    REVIEW = "revisao"


def _hours(span: timedelta) -> str:
    """'48 horas' for a rule's span."""
    return f"{int(span / timedelta(hours=1))} horas"


A = HiringAction
C, F, TIMER, STAFF = Actor.COMPANY, Actor.FREELANCER, Actor.TIMER, Actor.STAFF
# Who did it, as every timeline and the staff view name them.
WHO = {C: "Empresa", F: "Profissional", TIMER: "Turno (automático)", STAFF: "Equipe Turno"}
# The freelancer is paid: one notice whoever approved (the company, or the timer after the window).
HOURS_APPROVED = 'Horas do turno "{titulo}" aprovadas: {horas} = {valor}.'
DECIDED = 'A equipe Turno decidiu a disputa do turno "{titulo}": {decisao}. Motivo: {motivo}'
CONTEST_WITHIN = f"Você pode contestar em até {_hours(rules.CONTEST_WINDOW)}."


@dataclass(frozen=True)
class ActionRow:
    """What is said about one action.

    Attributes:
        done: The line of the 'Linha do tempo' and the staff view ('Horas aprovadas').
        button: The shift card's button ('Aprovar horas'); '' when no one clicks it.
        to_company: The notice to the company when the freelancer, the timer or staff did it; '' for none.
            Words: {titulo}, {quando}, {freelancer}, {horas}, {valor}, {motivo}, {decisao}, {taxa}.
        to_freelancer: The same for the freelancer.
        timer_reason: The reason the timer records when it does it ('' when the timer never does).
        actors: Who may ever do it (the state table says in which states).
        toast: What the person who did it reads after it worked ('' = `done`).
    """

    done: str
    button: str = ""
    to_company: str = ""
    to_freelancer: str = ""
    timer_reason: str = ""
    actors: frozenset = frozenset()
    toast: str = ""

    @property
    def success(self) -> str:
        """The toast after the action worked."""
        return self.toast or self.done


CATALOG: dict[HiringAction, ActionRow] = {
    A.ACCEPT: ActionRow("Candidatura aceita: turno agendado", actors=frozenset({C})),
    A.MIGRATION: ActionRow("Registro criado a partir de uma contratação anterior"),
    A.PAYMENT_CONFIRMED: ActionRow("Pagamento confirmado: turno agendado", actors=frozenset({TIMER})),
    A.PAYMENT_EXPIRED: ActionRow(
        "Pagamento não concluído em 60 minutos",
        timer_reason="Pagamento não concluído em 60 minutos: a candidatura voltou para pendente.",
        actors=frozenset({TIMER}),
    ),
    A.PAYMENT_NOT_COMPLETED: ActionRow("Pagamento não concluído", actors=frozenset({TIMER})),
    A.GIVE_UP: ActionRow(
        "Empresa desistiu antes de pagar", button="Desistir", actors=frozenset({C}), toast="Contratação desfeita"
    ),
    A.ACCEPT_AGAIN: ActionRow("Candidatura aceita de novo: aguardando pagamento", actors=frozenset({C})),
    A.PAID_OUT: ActionRow("Pagamento enviado ao profissional", actors=frozenset({TIMER})),
    A.CONFIRM: ActionRow(
        "Presença confirmada",
        button="Confirmar presença",
        to_company='{freelancer} confirmou presença no turno "{titulo}" de {quando}.',
        actors=frozenset({F}),
    ),
    A.NOT_CONFIRMED: ActionRow(
        "Presença não confirmada a tempo",
        to_company='O turno "{titulo}" de {quando} ainda não foi confirmado. Você pode cancelar sem custo.',
        to_freelancer='Confirme sua presença no turno "{titulo}" de {quando}.',
        timer_reason=f"Presença não confirmada até {_hours(rules.UNCONFIRMED_AT)} antes do início.",
        actors=frozenset({TIMER}),
    ),
    A.CANCEL_FREE: ActionRow(
        "Cancelado sem custo",
        button="Cancelar sem custo",
        toast="Turno cancelado sem custo",
        to_freelancer='A empresa cancelou o turno "{titulo}" de {quando}, que não foi confirmado. Isso conta 1 falta.',
        actors=frozenset({C}),
    ),
    A.CANCEL: ActionRow(
        "Turno cancelado",
        button="Cancelar turno",
        to_company='{freelancer} cancelou o turno "{titulo}" de {quando}.',
        to_freelancer='A empresa cancelou o turno "{titulo}" de {quando}.{taxa}',
        actors=frozenset({C, F}),
    ),
    A.CHECK_IN: ActionRow(
        "Chegada registrada",
        button="Registrar chegada",
        to_company='{freelancer} registrou chegada no turno "{titulo}".',
        to_freelancer='A empresa registrou sua chegada no turno "{titulo}".',
        actors=frozenset({C, F}),
    ),
    A.CHECK_OUT: ActionRow(
        "Saída registrada",
        button="Registrar saída",
        to_company='{freelancer} registrou saída do turno "{titulo}". Aguarde o envio das horas.',
        actors=frozenset({F}),
    ),
    A.DISMISS: ActionRow(
        "Profissional dispensado",
        button="Dispensar agora",
        to_freelancer='A empresa encerrou seu turno "{titulo}" ({motivo}). Envie suas horas.',
        actors=frozenset({C}),
    ),
    A.EXIT_NOT_RECORDED: ActionRow(
        "Saída não registrada",
        to_freelancer='Sua saída do turno "{titulo}" não foi registrada. Envie suas horas.',
        timer_reason=f"Saída não registrada até {_hours(rules.CHECK_OUT_MISSING)} após o fim do turno.",
        actors=frozenset({TIMER}),
    ),
    A.SEND_HOURS: ActionRow(
        "Horas enviadas",
        button="Enviar horas",
        to_company='Horas do turno "{titulo}" enviadas para aprovação: {horas}.',
        actors=frozenset({F}),
    ),
    A.HOURS_FROM_RECORDS: ActionRow(
        "Horas enviadas a partir dos registros",
        to_company='Horas do turno "{titulo}" enviadas a partir dos registros: {horas}.',
        timer_reason="Horas enviadas automaticamente a partir dos registros.",
        actors=frozenset({TIMER}),
    ),
    A.APPROVE: ActionRow(
        "Horas aprovadas", button="Aprovar horas", to_freelancer=HOURS_APPROVED, actors=frozenset({C})
    ),
    A.AUTO_APPROVAL: ActionRow(
        "Horas aprovadas automaticamente",
        to_company='As horas do turno "{titulo}" foram aprovadas automaticamente: {valor}.',
        to_freelancer=HOURS_APPROVED,
        timer_reason=f"Horas aprovadas automaticamente após {_hours(rules.APPROVAL_WINDOW)}.",
        actors=frozenset({TIMER}),
    ),
    A.ADJUST: ActionRow(
        "Ajuste de horas proposto",
        button="Ajustar horas",
        toast="Ajuste enviado",
        to_freelancer=(
            'A empresa propôs {horas} para o turno "{titulo}": "{motivo}". '
            f"Aceite ou conteste em até {_hours(rules.ADJUSTMENT_WINDOW)}."
        ),
        actors=frozenset({C}),
    ),
    A.ACCEPT_ADJUSTMENT: ActionRow(
        "Ajuste aceito",
        button="Aceitar ajuste",
        to_company='O ajuste de horas do turno "{titulo}" foi aceito: {valor}.',
        actors=frozenset({F}),
    ),
    A.CONTEST_ADJUSTMENT: ActionRow(
        "Ajuste contestado",
        button="Contestar ajuste",
        toast="Contestação enviada",
        to_company='O ajuste de horas do turno "{titulo}" foi contestado. A equipe Turno vai analisar.',
        actors=frozenset({F}),
    ),
    A.ADJUSTMENT_AUTO_ACCEPTED: ActionRow(
        "Ajuste aceito automaticamente",
        to_company='As horas do turno "{titulo}" foram aprovadas automaticamente: {valor}.',
        to_freelancer=HOURS_APPROVED,
        timer_reason=f"Ajuste aceito automaticamente após {_hours(rules.ADJUSTMENT_WINDOW)}.",
        actors=frozenset({TIMER}),
    ),
    A.NO_SHOW: ActionRow(
        "Não compareceu",
        button="Não compareceu",
        toast="Ausência registrada",
        to_freelancer=f'A empresa registrou que você não compareceu ao turno "{{titulo}}". {CONTEST_WITHIN}',
        actors=frozenset({C}),
    ),
    A.NO_RECORD: ActionRow(
        "Sem registro de presença",
        to_company='Nenhum registro de chegada no turno "{titulo}": marcado como não compareceu.',
        to_freelancer=f'Sem registro de chegada no turno "{{titulo}}": marcado como não compareceu. {CONTEST_WITHIN}',
        timer_reason=f"Nenhum registro de chegada até {_hours(rules.NO_RECORD_NO_SHOW)} após o fim do turno.",
        actors=frozenset({TIMER}),
    ),
    A.CONTEST_ABSENCE: ActionRow(
        "Ausência contestada",
        button="Contestar ausência",
        toast="Contestação enviada",
        to_company='A ausência no turno "{titulo}" foi contestada. A equipe Turno vai analisar.',
        actors=frozenset({F}),
    ),
    A.DECIDE: ActionRow(
        "Decisão da equipe Turno",
        to_company=DECIDED,
        to_freelancer=DECIDED,
        actors=frozenset({STAFF}),
        toast="Decisão registrada",
    ),
    A.DECIDE_APPROVE: ActionRow("Decisão: horas aprovadas", actors=frozenset({STAFF})),
    A.DECIDE_ABSENCE: ActionRow("Decisão: ausência mantida", actors=frozenset({STAFF})),
    A.MARK_PAID: ActionRow(
        "Marcado como pago",
        button="Marcar como pago",
        toast="Pagamento marcado como feito",
        to_freelancer='A empresa marcou como pago o turno "{titulo}" ({valor}). Confirme o recebimento.',
        actors=frozenset({C}),
    ),
    A.CONFIRM_RECEIPT: ActionRow(
        "Recebimento confirmado",
        button="Confirmar recebimento",
        to_company='{freelancer} confirmou o recebimento do pagamento do turno "{titulo}".',
        actors=frozenset({F}),
    ),
    A.WRONG_CODE: ActionRow("Código de presença incorreto", actors=frozenset({C, F})),
    A.REVIEW: ActionRow("Revisão humana", actors=frozenset({F})),
}
# The buttons a shift card may show, in the catalog's order.
BUTTONS = {action: row.button for action, row in CATALOG.items() if row.button}


ACCEPTED_AWAITING_PAYMENT = "Candidatura aceita: aguardando pagamento"


def done_text(action: str, to_state: str = "") -> str:
    """The timeline's line for a stored action and the state it led to ('' for an action the catalog does not know)."""
    if action == A.ACCEPT and to_state == HiringState.AWAITING_PAYMENT:
        return ACCEPTED_AWAITING_PAYMENT
    row = CATALOG.get(action)  # type: ignore[call-overload]
    return row.done if row else ""


class StateRow(NamedTuple):
    """What a hiring's state is called on every screen and the colour of its badge."""

    label: str
    tone: str


S = HiringState
STATE_ROWS: dict[HiringState, StateRow] = {
    S.AWAITING_PAYMENT: StateRow("Aguardando pagamento", "amber"),
    S.SCHEDULED: StateRow("Agendado", "blue"),
    S.CONFIRMED: StateRow("Presença confirmada", "green"),
    S.UNCONFIRMED: StateRow("Não confirmado", "amber"),
    S.IN_PROGRESS: StateRow("Em andamento", "green"),
    S.ENDED: StateRow("Encerrado — aguardando horas", "blue"),
    S.HOURS_SENT: StateRow("Horas enviadas", "amber"),
    S.ADJUSTMENT: StateRow("Ajuste proposto", "amber"),
    S.DISPUTED: StateRow("Em disputa", "red"),
    S.APPROVED: StateRow("Horas aprovadas", "green"),
    S.PAID: StateRow("Pago", "gray"),
    S.CANCELLED_BY_FREELANCER: StateRow("Cancelado pelo profissional", "gray"),
    S.CANCELLED_BY_COMPANY: StateRow("Cancelado pela empresa", "gray"),
    S.NO_SHOW: StateRow("Não compareceu", "red"),
    S.EXPIRED: StateRow("Expirado", "gray"),
}


def state_label(state: str) -> str:
    """'Horas aprovadas', 'Em disputa', ... for a stored state (the value itself if unknown)."""
    row = STATE_ROWS.get(state)  # type: ignore[call-overload]
    return row.label if row else state


def state_tone(state: str) -> str:
    """The badge colour of a state ('gray' if unknown)."""
    row = STATE_ROWS.get(state)  # type: ignore[call-overload]
    return row.tone if row else "gray"
