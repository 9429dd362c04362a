"""LGPD self-service: 'Baixar meus dados', everything stored about a user as JSON-ready data (LGPD art. 18).

Each domain that keeps personal data gives its own part (its `export`); this module gathers them
with the account, profile, jobs, applications, chats, ratings, hirings and faltas read here. Other
people appear only by the name the product already shows the user.
"""

from dataclasses import asdict
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from sqlmodel import Session, col, func, or_, select

from core.display_names import CONFIDENTIAL_COMPANY
from core.routes import notice_path
from core.settings import get_settings
from core.types import utcnow
from models import (
    Application,
    AuthSession,
    Chat,
    ContactMessage,
    Falta,
    Hiring,
    HiringEvent,
    Job,
    LoginAttempt,
    Message,
    Notification,
    Profile,
    Rating,
    Role,
    User,
    UserPreferences,
)
from services.accounts import devices
from services.common.errors import ServiceError
from services.money import payouts, receipts
from services.money.billing import _subscription_of
from services.privacy.privacy import ACCOUNT_NOT_FOUND, REMOVED_NAME
from services.reach import consents, push_devices, whatsapp
from services.trust import blocks, invite_views, teams

YOU = "você"
DEFAULT_NAMES = {Role.CLIENT: "Empresa", Role.FREELANCER: "Freelancer"}


def _iso(value: datetime | date | None) -> str | None:
    return value.isoformat() if value is not None else None


def _money(value: Decimal | None) -> str | None:
    return str(value) if value is not None else None


def _display_name(profile: Profile | None) -> str:
    """The name the product shows for a user: a company's trade name, else the person's name."""
    if profile is None:
        return REMOVED_NAME
    if profile.tipo_usuario == Role.CLIENT:
        return profile.empresa or profile.nome or DEFAULT_NAMES[Role.CLIENT]
    return profile.nome or DEFAULT_NAMES[Role.FREELANCER]


def _names(session: Session, user_ids: set[int]) -> dict[int, str]:
    if not user_ids:
        return {}
    profiles = {p.user_id: p for p in session.exec(select(Profile).where(col(Profile.user_id).in_(user_ids))).all()}
    return {uid: _display_name(profiles.get(uid)) for uid in user_ids}


def export_user_data(session: Session, user_id: int) -> dict[str, Any]:
    """Everything stored about a user, as JSON-ready data with Portuguese keys (LGPD art. 18).

    Dates are ISO 8601 strings (UTC), money is a decimal string. Secrets are never included: no
    password hash, no session or e-mail token hashes, and no Stripe id (the connected account, the
    customer, the subscription, payments: docs/security.md; the export says in words whether the
    payout account exists). Other people appear only by the name the product already shows the
    user (never their e-mail or private fields).

    Args:
        session: Open database session.
        user_id: The acting user (from the server-side session).

    Returns:
        The data, with top-level keys produto, gerado_em, conta, perfil, preferencias, sessoes,
        vagas, candidaturas, conversas, notificacoes, avaliacoes, turnos, faltas, assinatura,
        recebimento (CPF, fiscal data and whether the payout account exists; None before they are given),
        pagamentos_garantidos (a company's protected payments), equipe (a company's team), bloqueios
        (the people or companies this account blocked), vagas_ocultas ('Não quero ver esta vaga'),
        convites ('Contratar novamente' sent or received), mensagens_de_contato and tentativas_de_login.

    Raises:
        ServiceError: When the account does not exist or was deleted.
    """
    user = session.get(User, user_id)
    if user is None or user.deleted_at is not None:
        raise ServiceError(ACCOUNT_NOT_FOUND)
    profile = session.get(Profile, user_id)
    return {
        "produto": get_settings().product_name,
        "gerado_em": utcnow().isoformat(),
        "conta": {
            "email": user.email,
            "tipo": user.role,
            "criada_em": _iso(user.created_at),
            "email_confirmado_em": _iso(user.email_confirmed_at),
        },
        "perfil": _export_profile(profile),
        "preferencias": _export_preferences(session.get(UserPreferences, user_id) or UserPreferences(user_id=user_id)),
        "sessoes": [
            {"criada_em": _iso(s.created_at), "expira_em": _iso(s.expires_at), "lembrar": s.remember}
            for s in session.exec(
                select(AuthSession).where(AuthSession.user_id == user_id).order_by(col(AuthSession.created_at))
            ).all()
        ],
        "vagas": _export_jobs(session, user_id) if user.role == Role.CLIENT else [],
        "candidaturas": _export_applications(session, user_id, user.role),
        "conversas": _export_chats(session, user_id),
        "notificacoes": [
            {
                "tipo": n.type,
                "mensagem": n.message,
                "link": notice_path(n.target, n.target_id),
                "lida": n.read,
                "criada_em": _iso(n.created_at),
            }
            for n in session.exec(
                select(Notification).where(Notification.user_id == user_id).order_by(col(Notification.created_at))
            ).all()
        ],
        "avaliacoes": _export_ratings(session, user_id),
        "turnos": _export_hirings(session, user_id),
        "faltas": _export_faltas(session, user_id) if user.role == Role.FREELANCER else [],
        "assinatura": _export_subscription(session, user_id),
        "recebimento": payouts.export(session, user_id),
        "pagamentos_garantidos": [asdict(r) for r in receipts.receipts(session, user_id, limit=10_000)],
        "equipe": teams.export(session, user_id) if user.role == Role.CLIENT else [],
        "bloqueios": blocks.export(session, user_id),
        "vagas_ocultas": blocks.export_hidden_jobs(session, user_id),
        "convites": invite_views.export(session, user_id),
        "aparelhos_com_notificacoes": push_devices.export(session, user_id),
        "whatsapp": whatsapp.export(session, user_id),
        "consentimentos": consents.history(session, user_id),
        "mensagens_de_contato": [
            {
                "nome": m.name,
                "email": m.email,
                "telefone": m.phone,
                "assunto": m.subject,
                "mensagem": m.message,
                "enviada_em": _iso(m.created_at),
            }
            for m in session.exec(
                select(ContactMessage)
                .where(ContactMessage.email == user.email)
                .order_by(col(ContactMessage.created_at))
            ).all()
        ],
        "dispositivos_confiaveis": [
            {"criado_em": _iso(d.created_at), "usado_em": _iso(d.last_used_at), "expira_em": _iso(d.expires_at)}
            for d in devices.of_user(session, user_id)
        ],
        "tentativas_de_login": [
            {"data": _iso(a.created_at), "sucesso": a.succeeded}
            for a in session.exec(
                select(LoginAttempt).where(LoginAttempt.email == user.email).order_by(col(LoginAttempt.created_at))
            ).all()
        ],
    }


def _export_profile(profile: Profile | None) -> dict[str, Any] | None:
    if profile is None:
        return None
    return {
        "tipo_usuario": profile.tipo_usuario,
        "nome": profile.nome,
        "telefone": profile.telefone,
        "endereco": profile.endereco,
        "localizacao": profile.localizacao,
        "biografia": profile.biografia,
        "foto_url": profile.foto_url,
        "website": profile.website,
        "profissao": profile.profissao,
        "habilidades": list(profile.habilidades or []),
        "experiencia_descricao": profile.experiencia_descricao,
        "redes_sociais": dict(profile.redes_sociais or {}),
        "empresa": profile.empresa,
        "industria": profile.industria,
        "descricao": profile.descricao,
        "cnpj": profile.cnpj,
        "atualizado_em": _iso(profile.updated_at),
    }


def _export_preferences(prefs: UserPreferences) -> dict[str, Any]:
    return {
        "tema": prefs.theme,
        "idioma": prefs.language,
        "notificacoes_por_email": prefs.email_notifications,
        "notificacoes_push": prefs.push_notifications,
        "emails_de_marketing": prefs.marketing_emails,
        "alertas_de_novas_vagas": prefs.new_job_alerts,
        "atualizacoes_de_candidaturas": prefs.application_updates,
    }


def _export_hirings(session: Session, user_id: int) -> list[dict[str, Any]]:
    """The shifts the user took part in, with the records, hours, money and the whole timeline."""
    hirings = session.exec(
        select(Hiring)
        .where(or_(Hiring.company_id == user_id, Hiring.freelancer_id == user_id))
        .order_by(col(Hiring.inicio_em))
    ).all()
    events: dict[int, list] = {h.id: [] for h in hirings}
    if hirings:
        for event in session.exec(
            select(HiringEvent).where(col(HiringEvent.hiring_id).in_(list(events))).order_by(col(HiringEvent.at))
        ).all():
            events[event.hiring_id].append(
                {"quando": _iso(event.at), "quem": event.actor, "acao": event.action, "para": event.to_state,
                 "motivo": event.reason}
            )  # fmt: skip
    return [
        {
            "vaga_id": h.job_id,
            "estado": h.state,
            "inicio_em": _iso(h.inicio_em),
            "fim_em": _iso(h.fim_em),
            "intervalo_min": h.intervalo_min,
            "valor_hora_centavos": h.valor_hora_centavos,
            "chegada": {"em": _iso(h.chegada_em), "metodo": h.chegada_metodo, "distancia": h.chegada_distancia},
            "saida": {"em": _iso(h.saida_em), "metodo": h.saida_metodo, "distancia": h.saida_distancia},
            "minutos_enviados": h.minutos_enviados,
            "minutos_ajuste": h.minutos_ajuste,
            "ajuste_motivo": h.ajuste_motivo,
            "minutos_aprovados": h.minutos_aprovados,
            "valor_centavos": h.valor_centavos,
            "taxa_cancelamento_centavos": h.taxa_cancelamento_centavos,
            "pago_em": _iso(h.pago_em),
            "recebido_em": _iso(h.recebido_em),
            "linha_do_tempo": events[h.id],
        }
        for h in hirings
    ]


def _export_faltas(session: Session, freelancer_id: int) -> list[dict[str, Any]]:
    """The freelancer's faltas (private to them) and what became of each."""
    rows = session.exec(select(Falta).where(Falta.freelancer_id == freelancer_id).order_by(col(Falta.created_at))).all()
    return [
        {
            "pontos": f.pontos,
            "motivo": f.motivo,
            "criada_em": _iso(f.created_at),
            "expira_em": _iso(f.expires_at),
            "suspensao_ate": _iso(f.suspende_ate),
            "removida_em": _iso(f.removida_em),
            "removida_motivo": f.removida_motivo,
        }
        for f in rows
    ]


def _export_jobs(session: Session, company_id: int) -> list[dict[str, Any]]:
    counts = dict(
        session.exec(
            select(Application.vaga_id, func.count())
            .join(Job, Job.id == Application.vaga_id)
            .where(Job.cliente_id == company_id)
            .group_by(Application.vaga_id)
        ).all()
    )
    jobs = session.exec(select(Job).where(Job.cliente_id == company_id).order_by(col(Job.criado_em))).all()
    return [
        {
            "id": job.id,
            "titulo": job.titulo,
            "categoria": job.categoria,
            "descricao": job.descricao,
            "localizacao": job.localizacao,
            "valor_hora": _money(job.valor_hora),
            "duracao": job.duracao,
            "data_necessaria": _iso(job.data_necessaria),
            "inicio_em": _iso(job.inicio_em),
            "fim_em": _iso(job.fim_em),
            "intervalo_min": job.intervalo_min,
            "endereco": job.endereco,
            "ponto_marcado": job.ponto_lat is not None,
            "o_que_levar": job.o_que_levar,
            "habilidades_necessarias": list(job.habilidades_necessarias or []),
            "vale_transporte": job.vale_transporte,
            "refeicao_local": job.refeicao_local,
            "possui_intervalo": job.possui_intervalo,
            "anuncio_anonimo": job.anuncio_anonimo,
            "status": job.status,
            "vagas_disponiveis": job.vagas_disponiveis,
            "arquivada": job.is_archived,
            "criada_em": _iso(job.criado_em),
            "atualizada_em": _iso(job.updated_at),
            "candidaturas": int(counts.get(job.id, 0)),
        }
        for job in jobs
    ]


def _export_applications(session: Session, user_id: int, role: str) -> list[dict[str, Any]]:
    if role == Role.CLIENT:
        rows = session.exec(
            select(Application, Job.titulo)
            .join(Job, Job.id == Application.vaga_id)
            .where(Job.cliente_id == user_id)
            .order_by(col(Application.created_at))
        ).all()
        names = _names(session, {application.freelancer_id for application, _ in rows})
        return [
            {
                "vaga": title,
                "freelancer": names[application.freelancer_id],
                "status": application.status,
                "valor_proposto": _money(application.valor_proposto),
                "mensagem": application.mensagem,
                "data": _iso(application.created_at),
            }
            for application, title in rows
        ]
    rows = session.exec(
        select(Application, Job.titulo)
        .join(Job, Job.id == Application.vaga_id)
        .where(Application.freelancer_id == user_id)
        .order_by(col(Application.created_at))
    ).all()
    return [
        {
            "vaga": title,
            "status": application.status,
            "valor_proposto": _money(application.valor_proposto),
            "mensagem": application.mensagem,
            "data": _iso(application.created_at),
        }
        for application, title in rows
    ]


def _export_chats(session: Session, user_id: int) -> list[dict[str, Any]]:
    rows = session.exec(
        select(Chat, Job.titulo)
        .join(Application, Application.id == Chat.application_id)
        .join(Job, Job.id == Application.vaga_id)
        .where(or_(Chat.client_id == user_id, Chat.freelancer_id == user_id))
        .order_by(col(Chat.created_at))
    ).all()
    if not rows:
        return []
    others = {chat.id: chat.freelancer_id if chat.client_id == user_id else chat.client_id for chat, _ in rows}
    names = _names(session, set(others.values()))
    messages: dict[int, list[Message]] = {}
    for message in session.exec(
        select(Message).where(col(Message.chat_id).in_(list(others))).order_by(col(Message.id))
    ).all():
        messages.setdefault(message.chat_id, []).append(message)
    return [
        {
            "vaga": title,
            "com": names[others[chat.id]],
            "iniciada_em": _iso(chat.created_at),
            "mensagens": [
                {
                    "autor": YOU if m.sender_id == user_id else names[others[chat.id]],
                    "conteudo": m.content,
                    "data": _iso(m.created_at),
                }
                for m in messages.get(chat.id, [])
            ],
        }
        for chat, title in rows
    ]


def _export_ratings(session: Session, user_id: int) -> dict[str, list[dict[str, Any]]]:
    rows = session.exec(
        select(Rating, Job.titulo, Job.cliente_id, Job.anuncio_anonimo)
        .join(Application, Application.id == Rating.application_id)
        .join(Job, Job.id == Application.vaga_id)
        .where(or_(Rating.rater_id == user_id, Rating.ratee_id == user_id))
        .order_by(col(Rating.created_at))
    ).all()
    names = _names(session, {row[0].ratee_id for row in rows} | {row[0].rater_id for row in rows})

    def entry(row: tuple, role: str, other_id: int) -> dict:
        rating, title, company_id, anonymous = row
        hidden = anonymous and other_id == company_id  # a job posted anonymously never names its company
        return {
            "vaga": title,
            role: CONFIDENTIAL_COMPANY if hidden else names[other_id],
            "estrelas": rating.stars,
            "comentario": rating.comment,
            "data": _iso(rating.created_at),
        }

    given = [entry(row, "avaliado", row[0].ratee_id) for row in rows if row[0].rater_id == user_id]
    received = [entry(row, "avaliador", row[0].rater_id) for row in rows if row[0].ratee_id == user_id]
    return {"dadas": given, "recebidas": received}


def _export_subscription(session: Session, user_id: int) -> dict[str, Any] | None:
    row = _subscription_of(session, user_id)
    if row is None:
        return None
    return {
        "plano": row.tier,
        "status": row.status,
        "fim_do_periodo_atual": _iso(row.current_period_end),
        "criada_em": _iso(row.created_at),
        "atualizada_em": _iso(row.updated_at),
    }
