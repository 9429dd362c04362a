"""Load demo data (idempotent): one company and one freelancer with confirmed e-mails, and jobs."""

from datetime import UTC, datetime, time, timedelta
from decimal import Decimal

from sqlmodel import Session, col, select

from core import cities
from core.db import session_scope
from core.routes import NoticeTarget
from core.security import hash_password
from core.shift_rules import LOCAL_TZ
from core.types import utcnow
from models import (
    Actor,
    Application,
    ApplicationStatus,
    Chat,
    Hiring,
    HiringState,
    Job,
    JobStatus,
    Message,
    Notification,
    NotificationType,
    Profile,
    Rating,
    Role,
    Subscription,
    User,
    UserPreferences,
)
from services.common.job_forms import shift_derived
from services.jobs import attendance_code, shift_pay
from services.shifts import hiring_lifecycle, hiring_rules

DEMO_PASSWORD = "Turno2026!"
DEMO_COMPANY_EMAIL = "empresa@demo.turno.com.br"
DEMO_FREELANCER_EMAIL = "freelancer@demo.turno.com.br"

# (title, category, city, hourly pay, (local start hour, hours, unpaid break in minutes), work address)
DEMO_JOBS = [
    (
        "Garçom para evento corporativo",
        "eventos",
        "São Paulo",
        Decimal("35.00"),
        (18, 8, 60),
        "Av. Paulista, 1578 - Bela Vista, São Paulo - SP",
    ),
    (
        "Recepcionista de hotel (fim de semana)",
        "hotel",
        "Rio de Janeiro",
        Decimal("28.50"),
        (7, 8, 60),
        "Av. Atlântica, 1702 - Copacabana, Rio de Janeiro - RJ",
    ),
    (
        "Chef de cozinha italiana",
        "gastronomia",
        "São Paulo",
        Decimal("60.00"),
        (11, 10, 90),
        "Rua Oscar Freire, 725 - Jardins, São Paulo - SP",
    ),
    (
        "Auxiliar de cozinha",
        "restaurante",
        "Curitiba",
        None,
        (10, 4, 0),
        "Rua XV de Novembro, 300 - Centro, Curitiba - PR",
    ),
    (
        "Fotógrafo para casamento",
        "fotografia",
        "Belo Horizonte",
        Decimal("120.00"),
        (16, 6, 30),
        "Av. Afonso Pena, 1500 - Centro, Belo Horizonte - MG",
    ),
]
DEMO_ADDRESS = "Rua Augusta, 100 - Consolação, São Paulo - SP"
# 'Traje e o que levar' of some demo vagas, by title (the others say nothing); set while blank, so a
# database seeded before the field gets them too and a second run changes nothing.
DEMO_BRING = {
    "Garçom para evento corporativo": "Camisa social branca, calça preta, sapato preto fechado",
    "Recepcionista de hotel (fim de semana)": "Terno escuro ou tailleur; crachá fornecido pelo hotel",
    "Chef de cozinha italiana": "Dólmã e calça de cozinha, sapato antiderrapante; traga suas facas",
    "Auxiliar de cozinha": "Calça comprida, sapato fechado antiderrapante e touca",
    "Bartender para festa de fim de ano": "Camisa social preta; avental e utensílios fornecidos pelo hotel",
    "Garçom para jantar de gala": "Camisa social branca, gravata borboleta preta, calça e sapato pretos",
}


def demo_shift(days: int, hour: int, hours: int, break_min: int) -> dict:
    """A demo job's shift columns: `days` days from today at `hour`:00 São Paulo time, with its secret.

    `data_necessaria` and `duracao` are derived as the job form derives them.
    """
    day = datetime.now(LOCAL_TZ).date() + timedelta(days=days)
    start = datetime.combine(day, time(hour), tzinfo=LOCAL_TZ).astimezone(UTC)
    end = start + timedelta(hours=hours)
    return {
        "inicio_em": start,
        "fim_em": end,
        "intervalo_min": break_min,
        **shift_derived(start, end),
        "codigo_segredo": attendance_code.new_secret(),
    }


def _account(db: Session, email: str, role: Role, profile: Profile) -> User:
    user = db.exec(select(User).where(User.email == email)).first()
    if user is not None:
        return user
    user = User(email=email, password_hash=hash_password(DEMO_PASSWORD), role=role, email_confirmed_at=utcnow())
    db.add(user)
    db.flush()
    profile.user_id = user.id
    db.add(profile)
    db.add(UserPreferences(user_id=user.id))
    return user


def seed(db: Session) -> None:
    """Create the demo accounts and jobs when they are missing."""
    company = _account(
        db,
        DEMO_COMPANY_EMAIL,
        Role.CLIENT,
        Profile(
            tipo_usuario=Role.CLIENT,
            nome="Mariana Costa",
            empresa="Hotel Atlântico",
            industria="hotel",
            localizacao="São Paulo, SP",
            descricao="Hotel boutique no centro de São Paulo.",
        ),
    )
    freelancer = _account(
        db,
        DEMO_FREELANCER_EMAIL,
        Role.FREELANCER,
        Profile(
            tipo_usuario=Role.FREELANCER,
            nome="João Silva",
            profissao="Garçom",
            habilidades=["Atendimento", "Coquetelaria", "Organização"],
            localizacao="São Paulo, SP",
            experiencia_descricao="Cinco anos em eventos e restaurantes.",
        ),
    )
    if db.exec(select(Job.id).where(Job.cliente_id == company.id)).first() is None:
        _add_demo_jobs(db, company.id)
    _seed_activity(db, company.id, freelancer.id)
    _seed_bring(db, company.id)
    _seed_shifts(db, company.id, freelancer.id)
    _seed_subscription(db, company.id)


def _add_demo_jobs(db: Session, company_id: int) -> None:
    for offset, (title, category, city, pay, (hour, hours, break_min), address) in enumerate(DEMO_JOBS):
        db.add(
            Job(
                cliente_id=company_id,
                titulo=title,
                categoria=category,
                descricao=f"{title} em {city}. Procuramos profissional pontual, comunicativo e com experiência.",
                localizacao=cities.resolve(city).label,  # as the form stores it: 'São Paulo, SP'
                valor_hora=pay,
                endereco=address,
                **demo_shift(7 + offset, hour, hours, break_min),
                habilidades_necessarias=["Pontualidade", "Trabalho em equipe"],
                vale_transporte=offset % 2 == 0,
                refeicao_local=True,
                possui_intervalo=offset % 3 != 0,
                criado_em=utcnow() - timedelta(hours=offset),
            )
        )


def _seed_bring(db: Session, company_id: int) -> None:
    """Give the demo vagas of DEMO_BRING their 'Traje e o que levar' where it is blank (idempotent)."""
    jobs = db.exec(select(Job).where(Job.cliente_id == company_id, col(Job.titulo).in_(DEMO_BRING))).all()
    for job in jobs:
        if not job.o_que_levar:
            job.o_que_levar = DEMO_BRING[job.titulo]
            db.add(job)
    db.flush()


ACTIVITY_JOBS = [
    ("Bartender para festa de fim de ano", JobStatus.IN_PROGRESS, Decimal("45.00"), 30),
    ("Garçom para jantar de gala", JobStatus.CLOSED, Decimal("40.00"), 60),
]
ACTIVITY_APPLICATIONS = [
    ("Bartender para festa de fim de ano", ApplicationStatus.ACCEPTED),
    ("Garçom para jantar de gala", ApplicationStatus.ACCEPTED),
    ("Garçom para evento corporativo", ApplicationStatus.PENDING),
]
CHAT_JOB = "Bartender para festa de fim de ano"
CHAT_MESSAGES = [
    ("company", "Olá, João! Sua candidatura foi aceita. Pode chegar às 18h no sábado?", 50),
    ("freelancer", "Olá, Mariana! Posso sim. Preciso levar algum uniforme?", 40),
    ("company", "Camisa social preta. O restante fornecemos aqui no hotel.", 30),
]


def _activity_job(db: Session, company_id: int, title: str, status: JobStatus, pay: Decimal, days_ago: int) -> Job:
    job = db.exec(select(Job).where(Job.cliente_id == company_id, Job.titulo == title)).first()
    if job is not None:
        return job
    job = Job(
        cliente_id=company_id,
        titulo=title,
        categoria="eventos",
        descricao=f"{title}. Procuramos profissional pontual, comunicativo e com experiência em eventos.",
        localizacao="São Paulo, SP",
        valor_hora=pay,
        endereco=DEMO_ADDRESS,
        **demo_shift(10 if status != JobStatus.CLOSED else 3, 18, 6, 30),
        habilidades_necessarias=["Atendimento", "Coquetelaria"],
        refeicao_local=True,
        status=status,
        vaga_status=status,
        criado_em=utcnow() - timedelta(days=days_ago),
    )
    db.add(job)
    db.flush()
    return job


def _seed_activity(db: Session, company_id: int, freelancer_id: int) -> None:
    """Applications, a chat with messages, a rating and notifications for the demo accounts (idempotent)."""
    for title, status, pay, days_ago in ACTIVITY_JOBS:
        _activity_job(db, company_id, title, status, pay, days_ago)
    jobs = {job.titulo: job for job in db.exec(select(Job).where(Job.cliente_id == company_id)).all()}
    applications: dict[str, Application] = {}
    for title, status in ACTIVITY_APPLICATIONS:
        job = jobs.get(title)
        if job is None:
            continue
        application = db.exec(
            select(Application).where(Application.vaga_id == job.id, Application.freelancer_id == freelancer_id)
        ).first()
        if application is None:
            application = Application(
                vaga_id=job.id,
                freelancer_id=freelancer_id,
                status=status,
                mensagem="Tenho experiência em eventos e disponibilidade na data.",
            )
            db.add(application)
            db.flush()
        applications[title] = application
    _seed_chat(db, company_id, freelancer_id, applications.get(CHAT_JOB))
    _seed_rating(db, company_id, freelancer_id, applications.get("Garçom para jantar de gala"))
    chat_id = db.exec(select(Chat.id).where(Chat.application_id == applications[CHAT_JOB].id)).first()
    _seed_notifications(db, company_id, freelancer_id, chat_id, jobs[CHAT_JOB].id)


def _seed_chat(db: Session, company_id: int, freelancer_id: int, application: Application | None) -> None:
    if application is None or db.exec(select(Chat.id).where(Chat.application_id == application.id)).first():
        return
    chat = Chat(client_id=company_id, freelancer_id=freelancer_id, application_id=application.id)
    db.add(chat)
    db.flush()
    senders = {"company": company_id, "freelancer": freelancer_id}
    for sender, content, minutes_ago in CHAT_MESSAGES:
        db.add(
            Message(
                chat_id=chat.id,
                sender_id=senders[sender],
                content=content,
                created_at=utcnow() - timedelta(minutes=minutes_ago),
            )
        )
    chat.updated_at = utcnow() - timedelta(minutes=CHAT_MESSAGES[-1][2])
    db.add(chat)


DEMO_RATINGS = (  # (rater is the company?, stars, comment): both sides rated the finished vaga
    (True, 5, "Excelente profissional, pontual e atencioso."),
    (False, 5, "Equipe organizada e pagamento combinado em dia."),
)


def _seed_rating(db: Session, company_id: int, freelancer_id: int, application: Application | None) -> None:
    if application is None:
        return
    for by_company, stars, comment in DEMO_RATINGS:
        rater, ratee = (company_id, freelancer_id) if by_company else (freelancer_id, company_id)
        exists = db.exec(
            select(Rating.id).where(Rating.application_id == application.id, Rating.rater_id == rater)
        ).first()
        if exists is None:
            db.add(Rating(application_id=application.id, rater_id=rater, ratee_id=ratee, stars=stars, comment=comment))


def _seed_notifications(
    db: Session, company_id: int, freelancer_id: int, chat_id: int | None, chat_job_id: int
) -> None:
    """The demo notices, each pointing where the real one would (core.routes.NoticeTarget)."""
    to_company_jobs = (NoticeTarget.COMPANY_JOBS, None)
    to_chat = (NoticeTarget.FREELANCER_CHAT, chat_id) if chat_id else (NoticeTarget.NONE, None)
    notices = [
        (
            company_id,
            NotificationType.NEW_APPLICATION,
            "João Silva se candidatou à vaga Garçom para evento corporativo.",
            False,
            to_company_jobs,
        ),
        (
            company_id,
            NotificationType.NEW_APPLICATION,
            "João Silva se candidatou à vaga Bartender para festa de fim de ano.",
            True,
            to_company_jobs,
        ),
        (
            company_id,
            NotificationType.JOB_CREATED,
            "Sua vaga Bartender para festa de fim de ano foi publicada.",
            True,
            (NoticeTarget.JOB, chat_job_id),
        ),
        (
            freelancer_id,
            NotificationType.APPLICATION_ACCEPTED,
            "Sua candidatura para Bartender para festa de fim de ano foi aceita!",
            False,
            to_chat,
        ),
        (freelancer_id, NotificationType.MESSAGE, "Nova mensagem de Mariana Costa.", False, to_chat),
    ]
    for age, (user_id, kind, message, read, (target, target_id)) in enumerate(notices):
        exists = db.exec(
            select(Notification.id).where(Notification.user_id == user_id, Notification.message == message)
        ).first()
        if exists is None:
            db.add(
                Notification(
                    user_id=user_id,
                    type=kind,
                    message=message,
                    target=target,
                    target_id=target_id,
                    read=read,
                    created_at=utcnow() - timedelta(hours=age),
                )
            )


SOON_JOB = "Bartender para festa de fim de ano"
DONE_JOB = "Garçom para jantar de gala"


def _seed_shifts(db: Session, company_id: int, freelancer_id: int) -> None:
    """The demo hirings (idempotent).

    A confirmed shift starting about 40 minutes after seeding, so check-in can be tried at once, and a
    past shift with approved hours waiting for the direct payment to be marked.
    """
    jobs = {job.titulo: job for job in db.exec(select(Job).where(Job.cliente_id == company_id)).all()}
    now = utcnow().replace(second=0, microsecond=0)
    plans = {
        SOON_JOB: (now + timedelta(minutes=40), HiringState.CONFIRMED),
        DONE_JOB: (now - timedelta(days=2), HiringState.APPROVED),
    }
    for title, (start, state) in plans.items():
        job = jobs.get(title)
        if job is None:
            continue
        application = db.exec(
            select(Application).where(Application.vaga_id == job.id, Application.freelancer_id == freelancer_id)
        ).first()
        if application is None or db.exec(select(Hiring.id).where(Hiring.application_id == application.id)).first():
            continue
        job.inicio_em, job.fim_em, job.intervalo_min = start, start + timedelta(hours=6), 30
        job.data_necessaria, job.duracao = shift_derived(job.inicio_em, job.fim_em).values()
        job.endereco = job.endereco or "Av. Paulista, 1578 - Bela Vista, São Paulo - SP"
        job.ponto_lat, job.ponto_lng = -23.5614, -46.6559
        job.codigo_segredo = job.codigo_segredo or attendance_code.new_secret()
        db.add(job)
        db.flush()
        hiring = hiring_lifecycle.create(
            db,
            {
                "application_id": application.id,
                "job_id": job.id,
                "company_id": company_id,
                "freelancer_id": freelancer_id,
                "inicio_em": job.inicio_em,
                "fim_em": job.fim_em,
                "intervalo_min": job.intervalo_min,
                "valor_hora_centavos": shift_pay.centavos(job.valor_hora),
            },
            min(now, start - timedelta(days=1)),
            company_id,
        )
        if state == HiringState.CONFIRMED:
            hiring_lifecycle.move(
                db, hiring, "confirmar", Actor.FREELANCER, now, actor_id=freelancer_id, values={"confirmed_at": now}
            )
        if state == HiringState.APPROVED:
            _walk_to_approved(db, hiring, job, freelancer_id, company_id)


def _walk_to_approved(db: Session, hiring: Hiring, job: Job, freelancer_id: int, company_id: int) -> None:
    """Take a past demo shift through the real steps: confirmed, attended, hours sent and approved."""
    start = hiring.inicio_em
    steps = [
        ("confirmar", Actor.FREELANCER, freelancer_id, start - timedelta(hours=20), {"confirmed_at": start - timedelta(hours=20)}),
        ("chegada", Actor.FREELANCER, freelancer_id, start - timedelta(minutes=10),
         {"chegada_em": start - timedelta(minutes=10), "chegada_metodo": "codigo", "chegada_distancia": "sem_leitura"}),
        ("saida", Actor.FREELANCER, freelancer_id, hiring.fim_em,
         {"saida_em": hiring.fim_em, "saida_metodo": "codigo", "saida_distancia": "sem_leitura", "terminou_em": hiring.fim_em}),
    ]  # fmt: skip
    for action, actor, user_id, at, values in steps:
        hiring = hiring_lifecycle.move(db, hiring, action, actor, at, actor_id=user_id, values=values).hiring
    minutes = hiring_rules.scheduled_minutes(hiring)
    sent = hiring.fim_em + timedelta(hours=1)
    hiring = hiring_lifecycle.move(
        db, hiring, "enviar_horas", Actor.FREELANCER, sent, actor_id=freelancer_id,
        values={"minutos_enviados": minutes, "horas_enviadas_em": sent},
    ).hiring  # fmt: skip
    hiring_lifecycle.move(
        db, hiring, "aprovar", Actor.COMPANY, sent + timedelta(hours=3), actor_id=company_id,
        values={"minutos_aprovados": minutes, "valor_centavos": shift_pay.pay(minutes, hiring.valor_hora_centavos)},
    )  # fmt: skip


def _seed_subscription(db: Session, company_id: int) -> None:
    """The demo company is on Premium (no Stripe ids: demo data, not a payment), so its jobs fit its plan."""
    if db.exec(select(Subscription.id).where(Subscription.user_id == company_id)).first() is None:
        db.add(Subscription(user_id=company_id, tier="premium", status="active"))


def main() -> None:
    """Seed the configured database."""
    with session_scope() as db:
        seed(db)
    print(f"Demo data ready: {DEMO_COMPANY_EMAIL} / {DEMO_FREELANCER_EMAIL} (senha {DEMO_PASSWORD})")


if __name__ == "__main__":
    main()
