"""GET /api/turnos/{id}.ics: 'Adicionar à agenda', one of the signed-in user's shifts as a calendar file."""

import logging

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from core import audit
from core.client_address import client_address
from core.db import session_scope
from core.ids import valid_id
from core.settings import get_settings
from services.accounts import sessions
from services.screens import shift_pages

log = logging.getLogger(__name__)
NOT_FOUND = "Turno não encontrado."


async def shift_calendar(request: Request) -> Response:
    """The .ics of a shift of the caller's (the freelancer hired or the company); 404 for anyone else.

    The session cookie is resolved on the server as for every handler; a stranger, a visitor and a
    missing shift get the same answer. So does an id no row can have (0, or past the id column's
    range: 2**63 made SQLite raise OverflowError and 2**31 PostgreSQL a DataError, a 500).
    """
    settings = get_settings()
    token = request.cookies.get(settings.session_cookie_name)
    hiring_id = valid_id(request.path_params["hiring_id"])

    def _do() -> str | None:
        if hiring_id is None:
            return None
        with session_scope() as db:
            user = sessions.resolve(db, token)
            if user is None:
                return None
            return shift_pages.calendar_file(db, user.id, hiring_id, settings.site_url)

    text = await run_in_threadpool(_do)
    if text is None:
        where = audit.place(
            client_address(request.client.host if request.client else None, request.headers.get("x-forwarded-for"))
        )
        audit.log_event(
            "authz.denied",
            who="anon",
            what=f"shift calendar {request.path_params['hiring_id']}",
            where=where,
            outcome="denied",
        )
        return JSONResponse({"ok": False, "message": NOT_FOUND}, status_code=404, headers={"Cache-Control": "no-store"})
    return Response(
        text.encode("utf-8"),
        media_type="text/calendar; charset=utf-8",
        headers={
            "Content-Disposition": f'attachment; filename="turno-{hiring_id}.ics"',
            "Cache-Control": "no-store",
            "X-Content-Type-Options": "nosniff",
        },
    )
