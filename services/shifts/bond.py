"""The 'Termômetro de vínculo' for a company and its freelancers, read from their hirings.

The rule is core/bond_guard.py; this reads each pair's agreed shifts in the 8 weeks before the
shift being decided (one statement for one freelancer or for a whole page of applicants, over
ix_hirings_company_start) and says what the screens show. Red needs the company's acknowledgement,
checked here on the server (`require_acknowledgement`); nothing is ever blocked.
"""

from datetime import UTC, datetime, timedelta
from typing import TypedDict

from sqlalchemy import select
from sqlmodel import Session

from core import bond_guard
from core.bond_guard import RED, WEEKS, BondReading
from models import Hiring, HiringState
from services.common.errors import ServiceError

ACKNOWLEDGE = "Estou ciente e assumo a responsabilidade"
ACK_REQUIRED = 'Marque "Estou ciente e assumo a responsabilidade" para continuar.'
YELLOW_TITLE = "Atenção ao vínculo"
RED_TITLE = "Risco de vínculo empregatício"
YELLOW_TEXT = (
    "Chamar a mesma pessoa com frequência pode caracterizar vínculo de emprego (CLT, art. 3º). "
    "Se a necessidade é fixa, considere o contrato intermitente."
)
RED_TEXT = (
    "Esta frequência se parece com a de um emprego: há risco de a relação ser reconhecida como vínculo "
    "empregatício (CLT, art. 3º). Para continuar, confirme que está ciente."
)
# Shifts that never happened and will not: they make no bond.
NOT_COUNTED = frozenset(
    {
        HiringState.AWAITING_PAYMENT,
        HiringState.EXPIRED,
        HiringState.CANCELLED_BY_FREELANCER,
        HiringState.CANCELLED_BY_COMPANY,
        HiringState.NO_SHOW,
    }
)
# How far back a shift can count: the 8 weeks ending with the new shift's week, or its 28 days.
LOOKBACK = timedelta(weeks=WEEKS + 1)


class BondNotice(TypedDict):
    """What a screen shows for a reading ('' level: nothing)."""

    level: str
    title: str
    text: str
    detail: str
    needs_ack: bool


NO_NOTICE = BondNotice(level="", title="", text="", detail="", needs_ack=False)


def _starts(session: Session, company_id: int, freelancer_ids: list[int], latest: datetime, earliest: datetime):
    """(freelancer_id, inicio_em) of the pairs' counted shifts between `earliest` and `latest` (one statement)."""
    return session.execute(
        select(Hiring.freelancer_id, Hiring.inicio_em).where(
            Hiring.company_id == company_id,
            Hiring.freelancer_id.in_(freelancer_ids),
            Hiring.inicio_em >= earliest,
            Hiring.inicio_em <= latest,
            Hiring.state.not_in(NOT_COUNTED),
        )
    ).all()


def readings(session: Session, company_id: int, shifts: dict[int, datetime]) -> dict[int, BondReading]:
    """The thermometer of each freelancer for the shift they would take, in one statement.

    Args:
        session: Open database session.
        company_id: The company deciding.
        shifts: Freelancer id → the start of the shift being decided for them.
    """
    if not shifts:
        return {}
    rows = _starts(session, company_id, list(shifts), max(shifts.values()), min(shifts.values()) - LOOKBACK)
    by_freelancer: dict[int, list[datetime]] = {freelancer: [] for freelancer in shifts}
    for freelancer, start in rows:
        by_freelancer[freelancer].append(_aware(start))
    return {freelancer: bond_guard.reading(by_freelancer[freelancer], _aware(at)) for freelancer, at in shifts.items()}


def reading(session: Session, company_id: int, freelancer_id: int, starts_at: datetime) -> BondReading:
    """The thermometer of one pair for a shift starting `starts_at` (one statement)."""
    return readings(session, company_id, {freelancer_id: starts_at})[freelancer_id]


def require_acknowledgement(
    session: Session, company_id: int, freelancer_id: int, starts_at: datetime | None, acknowledged: bool
) -> BondReading | None:
    """Refuse a red hiring the company has not acknowledged; warn-only otherwise.

    Returns:
        The reading (None when the shift has no start to measure from).

    Raises:
        ServiceError: ACK_REQUIRED, when the reading is red and `acknowledged` is not True.
    """
    if starts_at is None:
        return None
    found = reading(session, company_id, freelancer_id, starts_at)
    if found.level == RED and acknowledged is not True:
        raise ServiceError(ACK_REQUIRED)
    return found


def notice(found: BondReading | None) -> BondNotice:
    """What the screen says for a reading (NO_NOTICE below yellow)."""
    if found is None or not found.level:
        return NO_NOTICE
    red = found.level == RED
    return BondNotice(
        level=found.level,
        title=RED_TITLE if red else YELLOW_TITLE,
        text=RED_TEXT if red else YELLOW_TEXT,
        detail=found.explanation,
        needs_ack=red,
    )


def _aware(moment: datetime) -> datetime:
    """SQLite returns naive UTC instants."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
