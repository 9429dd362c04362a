"""Liveness and database check."""

from sqlalchemy import text
from starlette.requests import Request
from starlette.responses import JSONResponse

from core.db import get_engine


async def health(_request: Request) -> JSONResponse:
    """Answer 200 when the database answers, 503 otherwise."""
    try:
        with get_engine().connect() as conn:
            conn.execute(text("SELECT 1"))
    except Exception:
        return JSONResponse({"status": "error"}, status_code=503)
    return JSONResponse({"status": "ok"})
