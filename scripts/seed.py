"""Load demo data (idempotent): one company and one freelancer with confirmed e-mails, and jobs."""

from datetime import date, timedelta
from decimal import Decimal

from sqlmodel import Session, select

from core.db import session_scope
from core.security import hash_password
from core.types import utcnow
from models import Job, Profile, Role, User, UserPreferences

DEMO_PASSWORD = "Turno2026!"
DEMO_COMPANY_EMAIL = "empresa@demo.turno.com.br"
DEMO_FREELANCER_EMAIL = "freelancer@demo.turno.com.br"

DEMO_JOBS = [
    ("Garçom para evento corporativo", "eventos", "São Paulo", Decimal("35.00"), "8 horas"),
    ("Recepcionista de hotel (fim de semana)", "hotel", "Rio de Janeiro", Decimal("28.50"), "2 dias"),
    ("Chef de cozinha italiana", "gastronomia", "São Paulo", Decimal("60.00"), "1 semana"),
    ("Auxiliar de cozinha", "restaurante", "Curitiba", None, "4 horas"),
    ("Fotógrafo para casamento", "fotografia", "Belo Horizonte", Decimal("120.00"), "6 horas"),
]


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
    _account(
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
    if db.exec(select(Job.id).where(Job.cliente_id == company.id)).first() is not None:
        return
    for offset, (title, category, city, pay, duration) in enumerate(DEMO_JOBS):
        db.add(
            Job(
                cliente_id=company.id,
                titulo=title,
                categoria=category,
                descricao=f"{title} em {city}. Procuramos profissional pontual, comunicativo e com experiência.",
                localizacao=city,
                valor_hora=pay,
                duracao=duration,
                data_necessaria=date.today() + timedelta(days=7 + offset),
                habilidades_necessarias=["Pontualidade", "Trabalho em equipe"],
                vale_transporte=offset % 2 == 0,
                refeicao_local=True,
                possui_intervalo=offset % 3 != 0,
                criado_em=utcnow() - timedelta(hours=offset),
            )
        )


def main() -> None:
    """Seed the configured database."""
    with session_scope() as db:
        seed(db)
    print(f"Demo data ready: {DEMO_COMPANY_EMAIL} / {DEMO_FREELANCER_EMAIL} (senha {DEMO_PASSWORD})")


if __name__ == "__main__":
    main()
