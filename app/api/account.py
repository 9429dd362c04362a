"""GET /api/account/export: 'Baixar meus dados', the signed-in user's data as a JSON download (LGPD)."""

import json
import logging

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from core import audit
from core.client_address import client_address
from core.db import session_scope
from core.formatting import local
from core.settings import get_settings
from core.text import fold
from core.types import utcnow
from services.accounts import sessions
from services.common.errors import ServiceError
from services.privacy import data_export

log = logging.getLogger(__name__)
NOT_SIGNED_IN = "Entre na sua conta para baixar seus dados."
EXPORT_FAILED = "Não foi possível gerar o arquivo com seus dados. Tente novamente."


def export_filename(product_name: str) -> str:
    """'<product>-meus-dados-YYYY-MM-DD.json' (São Paulo date; product folded to a safe ASCII slug)."""
    slug = "-".join("".join(c if c.isascii() and c.isalnum() else " " for c in fold(product_name)).split())
    return f"{slug or 'dados'}-meus-dados-{local(utcnow()).date().isoformat()}.json"


async def export_data(request: Request) -> Response:
    """Answer the caller's data as an attachment; 401 JSON without a live session cookie.

    The cookie is resolved on the server exactly as for every handler (services.accounts.sessions.resolve);
    the database work runs in a worker thread. The file is never cached.
    """
    settings = get_settings()
    token = request.cookies.get(settings.session_cookie_name)

    def _do() -> dict | None:
        with session_scope() as db:
            user = sessions.resolve(db, token)
            return data_export.export_user_data(db, user.id) if user is not None else None

    try:
        data = await run_in_threadpool(_do)
    except ServiceError:
        data = None
    except Exception:
        log.exception("data export failed")
        return JSONResponse({"ok": False, "message": EXPORT_FAILED}, status_code=500)
    if data is None:
        where = audit.place(
            client_address(request.client.host if request.client else None, request.headers.get("x-forwarded-for"))
        )
        audit.log_event("authz.denied", who="anon", what="account export", where=where, outcome="denied")
        return JSONResponse(
            {"ok": False, "message": NOT_SIGNED_IN}, status_code=401, headers={"Cache-Control": "no-store"}
        )
    body = json.dumps(data, ensure_ascii=False, indent=2).encode("utf-8")
    return Response(
        body,
        media_type="application/json; charset=utf-8",
        headers={
            "Content-Disposition": f'attachment; filename="{export_filename(settings.product_name)}"',
            "Cache-Control": "no-store",
            "X-Content-Type-Options": "nosniff",
        },
    )
