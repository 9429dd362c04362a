"""Small factories of rows for the unit tests; use them with the shared `db` fixture (conftest.py).

Each factory adds its row and flushes, so the returned object has its id; nothing is committed.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal
from itertools import count

from sqlmodel import Session, SQLModel, select

from core.types import utcnow
from models import (
    Application,
    Chat,
    Hiring,
    Job,
    JobStatus,
    Message,
    Notification,
    Profile,
    Rating,
    Role,
    Subscription,
    User,
    UserPreferences,
)
from services.accounts import accounts

_emails = count(1)


# Valid profile forms as the 'Meu Perfil' dialogs send them (services/common/profile_forms.py).
FREELANCER_PROFILE_FORM = {
    "nome": "João Pedro Silva",
    "telefone": "(11) 98765-4321",
    "endereco": "Rua Augusta, 100 - Consolação",
    "localizacao": "São Paulo, SP",
    "profissao": "Bartender",
    "habilidades": "Drinks clássicos, Inglês, Caixa",
    "biografia": "Bartender com 8 anos de experiência em hotéis.",
    "experiencia": "Hotel Atlântico (2018-2024): chefe de bar.",
    "website": "https://joaobartender.com.br",
}

COMPANY_PROFILE_FORM = {
    "empresa": "Hotel Atlântico",
    "biografia": "Hotel boutique no centro de São Paulo.",
    "endereco": "Rua Augusta, 100",
    "telefone": "(11) 3456-7890",
    "website": "https://hotelatlantico.com.br",
    "instagram": "@hotelatlantico",
    "facebook": "https://facebook.com/hotelatlantico",
    "linkedin": "https://linkedin.com/company/hotelatlantico",
}


def make_user(db: Session, email: str, role: Role, **profile) -> User:
    """A confirmed user with a profile (fields in `profile`) and default preferences."""
    user = User(email=email, password_hash="x", role=role, email_confirmed_at=utcnow())
    db.add(user)
    db.flush()
    db.add(Profile(user_id=user.id, tipo_usuario=role, **profile))
    db.add(UserPreferences(user_id=user.id))
    db.flush()
    return user


def make_company(db: Session, nome: str = "Mariana Costa", empresa: str = "Hotel Atlântico", **profile) -> User:
    """A company (role client) with a unique e-mail."""
    return make_user(db, f"empresa{next(_emails)}@teste.com.br", Role.CLIENT, nome=nome, empresa=empresa, **profile)


def make_freelancer(db: Session, nome: str = "João Silva", **profile) -> User:
    """A freelancer with a unique e-mail."""
    return make_user(db, f"freelancer{next(_emails)}@teste.com.br", Role.FREELANCER, nome=nome, **profile)


def register_confirmed_company(db: Session, email: str, password: str) -> User:
    """A company signed up through the service (a real password hash) with its e-mail confirmed; commits."""

    user = accounts.register_company(
        db,
        {
            "name": "Ana",
            "email": email,
            "password": password,
            "confirmPassword": password,
            "company": "Bistrô",
            "industry": "gastronomy",
            "location": "Recife",
        },
    )
    user.email_confirmed_at = utcnow()
    db.add(user)
    db.commit()
    return user


def make_job(db: Session, company: User, title: str = "Garçom", hours_ago: int = 0, **fields) -> Job:
    """A job of `company`, created `hours_ago` hours ago (other columns in `fields`).

    A `status` alone is spelled out into the three state columns as services/jobs/job_lifecycle.py keeps
    them (an archived job keeps the open stage unless `vaga_status` says otherwise).
    """
    status = fields.get("status", JobStatus.OPEN)
    values = {
        "vaga_status": status if status != JobStatus.ARCHIVED else JobStatus.OPEN,
        "is_archived": status == JobStatus.ARCHIVED,
        "categoria": "eventos",
        "descricao": "Descrição da vaga de teste.",
        "localizacao": "São Paulo",
        "valor_hora": Decimal("30.00"),
        "criado_em": utcnow() - timedelta(hours=hours_ago),
        "inicio_em": (start := fields.get("inicio_em") or utcnow() + timedelta(days=3)),
        "fim_em": start + timedelta(hours=8),
        "intervalo_min": 60,
        "endereco": "Av. Paulista, 1578 - Bela Vista, São Paulo",
        **fields,
    }
    job = Job(cliente_id=company.id, titulo=title, **values)
    db.add(job)
    db.flush()
    return job


def make_application(db: Session, job: Job, freelancer: User, status: str = "pending", **fields) -> Application:
    """An application of `freelancer` to `job`."""
    application = Application(vaga_id=job.id, freelancer_id=freelancer.id, status=status, **fields)
    db.add(application)
    db.flush()
    return application


def make_chat(db: Session, application: Application, company: User, freelancer: User) -> Chat:
    """The chat of an accepted application."""
    chat = Chat(client_id=company.id, freelancer_id=freelancer.id, application_id=application.id)
    db.add(chat)
    db.flush()
    return chat


def make_message(db: Session, chat: Chat, sender: User, content: str, minutes_ago: int = 0) -> Message:
    """A message in `chat`; the chat's last activity moves to it, as services.reach.chat_sending.post does."""
    message = Message(
        chat_id=chat.id, sender_id=sender.id, content=content, created_at=utcnow() - timedelta(minutes=minutes_ago)
    )
    db.add(message)
    chat.updated_at = max(chat.updated_at, message.created_at)
    db.add(chat)
    db.flush()
    return message


def make_notification(db: Session, user: User, message: str, read: bool = False, kind: str = "other") -> Notification:
    """A notification for `user`."""
    notification = Notification(user_id=user.id, type=kind, message=message, read=read)
    db.add(notification)
    db.flush()
    return notification


def make_rating(db: Session, application: Application, rater: User, ratee: User, stars: int) -> Rating:
    """A rating `rater` gave `ratee` for `application`."""
    rating = Rating(application_id=application.id, rater_id=rater.id, ratee_id=ratee.id, stars=stars)
    db.add(rating)
    db.flush()
    return rating


def make_subscription(
    db: Session, company: User, tier: str = "premium", status: str = "active", period_end: datetime | None = None
) -> Subscription:
    """A company's subscription as a Stripe webhook would have stored it."""
    subscription = Subscription(user_id=company.id, tier=tier, status=status, current_period_end=period_end)
    db.add(subscription)
    db.flush()
    return subscription


def snapshot(db: Session, *tables: type[SQLModel]) -> dict[str, list[tuple]]:
    """Every row of the given tables (all hiring-loop tables by default), to compare before and after."""
    tables = tables or (Job, Application, Chat, Message, Notification, Rating, Subscription)
    result = {}
    for table in tables:
        rows = db.exec(select(table)).all()
        result[table.__tablename__] = sorted((sorted(row.model_dump().items()) for row in rows), key=repr)
    return result


@dataclass(frozen=True)
class Cast:
    """The people of a hiring-loop test: a company, a rival company and two freelancers."""

    company: User
    rival: User
    freelancer: User
    other: User


def make_cast(db: Session) -> Cast:
    """A company and a rival company, and two freelancers (João with five skills, and Ana)."""
    return Cast(
        company=make_company(db, nome="Mariana Costa", empresa="Hotel Atlântico"),
        rival=make_company(db, nome="Rui Rival", empresa="Outro Hotel"),
        freelancer=make_freelancer(
            db, nome="João Silva", profissao="Garçom", habilidades=["Bandeja", "Inglês", "Vinhos", "Drinks", "Caixa"]
        ),
        other=make_freelancer(db, nome="Ana Souza", profissao="Bartender"),
    )


MISSING_ID = 987_654


def unusable_ids(real_id: int) -> list[object]:
    """Ids a hostile browser may send for `real_id`: wrong types, out of range, or missing."""
    return [MISSING_ID, str(real_id), float(real_id), True, -1, 0, 2**40, None, [real_id], {"id": real_id}]


def make_hiring(
    db: Session, company: User, freelancer: User, start: datetime, state: str = "paga", hours: int = 6, **fields
) -> Hiring:
    """A shift of the pair already in `state` (a fixture row), on its own closed vaga starting at `start`.

    Args:
        db: The test's session (flushed, not committed).
        company: The company.
        freelancer: The freelancer.
        start: The shift's start.
        state: The hiring's state (the steps leading there are tested in the shift-loop tests).
        hours: The shift's length.
        **fields: Other hiring columns (horas_enviadas_em, ajuste_em, ...).
    """
    end = start + timedelta(hours=hours)
    job = make_job(db, company, "Bartender", inicio_em=start, fim_em=end, status="closed", **fields.pop("job", {}))
    application = make_application(db, job, freelancer, status="accepted")
    hiring = Hiring(
        state=state,
        application_id=application.id,
        job_id=job.id,
        company_id=company.id,
        freelancer_id=freelancer.id,
        inicio_em=start,
        fim_em=end,
        **fields,
    )
    db.add(hiring)
    db.flush()
    return hiring
