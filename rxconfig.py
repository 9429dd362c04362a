"""Reflex configuration; every value comes from core.settings (the environment)."""

import reflex as rx
from reflex.plugins.sitemap import SitemapPlugin

from app.frontend_build import LeanRadixThemesPlugin
from core.settings import get_settings

_settings = get_settings()

config = rx.Config(
    app_name="app",
    # No db_url: Turno's engines come from core/db.py and its schema from Alembic (alembic/). Given a
    # db_url, Reflex compares SQLModel's metadata with the database on every start and reports
    # "Detected database schema changes" for what only the migrations define (triggers, partial
    # indexes), a false alarm at head (tests/unit/models/test_migrations.py proves head matches the models).
    redis_url=_settings.redis_url,
    state_manager_mode="redis" if _settings.redis_url else "memory",
    telemetry_enabled=False,
    show_built_with_reflex=False,
    # Build-time sidecars (.br, .gz) that the single-port server and Caddy send instead of the
    # file; brotli first, so browsers that accept it get it (~15% smaller JS than gzip).
    frontend_compression_formats=["brotli", "gzip"],
    cors_allowed_origins=_settings.cors_origins,
    plugins=[
        LeanRadixThemesPlugin(
            theme=rx.theme(accent_color="indigo", gray_color="slate", radius="medium", appearance="inherit")
        )
    ],
    disable_plugins=[SitemapPlugin],
)
