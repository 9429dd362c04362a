"""Reflex configuration; every value comes from core.settings (the environment)."""

import reflex as rx
from reflex.plugins.sitemap import SitemapPlugin
from reflex_components_radix.plugin import RadixThemesPlugin

from core.settings import get_settings

_settings = get_settings()

config = rx.Config(
    app_name="app",
    db_url=_settings.database_url,
    redis_url=_settings.redis_url,
    state_manager_mode="redis" if _settings.redis_url else "memory",
    telemetry_enabled=False,
    show_built_with_reflex=False,
    cors_allowed_origins=[_settings.site_url] if _settings.is_production else ["*"],
    plugins=[
        RadixThemesPlugin(
            theme=rx.theme(accent_color="indigo", gray_color="slate", radius="medium", appearance="inherit")
        )
    ],
    disable_plugins=[SitemapPlugin],
)
