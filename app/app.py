"""The Reflex app: theme, HTTP API routes and every page."""

import logging

import reflex as rx

import models  # noqa: F401  (registers the tables)
from app.api import api
from app.api.origin_guard import guard_websocket_origin
from app.api.public_pages import public_pages
from app.api.pwa import THEME_COLOR
from app.api.security_headers import security_headers
from app.api.static_cache import cache_static_files, serve_pages_in_place
from app.api.upload_limit import limit_request_bodies
from app.errors import frontend_exception, unexpected_error
from app.layout import loading_page
from app.pages import (  # noqa: F401  (pages register on import)
    admin,
    attendance_code,
    category,
    chats,
    client_dashboard,
    company_profile_setup,
    contact,
    freelancer_dashboard,
    freelancer_profile,
    home,
    info,
    job_detail,
    jobs,
    login,
    marketing,
    recovery,
    register,
)
from app.pages.not_found import NOT_FOUND_ON_LOAD, not_found_page
from app.timer import shift_timer
from components.hydration import HydrationSignal
from core import routes
from core.audit import configure_security_log
from core.settings import get_settings
from states.live import live_updates
from states.session_end import SessionEndMiddleware

configure_security_log(get_settings().security_log_file)


class _SamePageRegisteredAgain(logging.Filter):
    """Drop Reflex's 'Page … is being redefined with the same component' (a false alarm at start).

    Reflex applies the `@rx.page` registrations on every compile pass, and a production start runs
    more than one; each pass finds every page already there with the same component and merges it
    (nothing changes). A different component on a taken route still raises RouteValueError.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        return "is being redefined with the same component" not in record.getMessage()


logging.getLogger("reflex.app").addFilter(_SamePageRegisteredAgain())

if get_settings().dev_mailbox_enabled:
    from app.pages import mailbox  # noqa: F401

app = rx.App(
    html_lang="pt-BR",
    stylesheets=["/styles.css"],
    api_transformer=[
        api,
        # Inside public_pages, which reads the address as the browser wrote it (/jobs?city=…).
        serve_pages_in_place,
        public_pages,
        cache_static_files,
        limit_request_bodies,
        guard_websocket_origin,
        security_headers,
    ],
    hydrate_fallback=loading_page,
    # Sonner names its toast region 'Notifications' for screen readers; ours speaks Portuguese.
    toaster=rx.toast.provider(custom_attrs={"containerAriaLabel": "Notificações"}),
    backend_exception_handler=unexpected_error,
    frontend_exception_handler=frontend_exception,
    head_components=[
        rx.el.link(rel="icon", href="/favicon.svg", type="image/svg+xml"),
        # Installable app (app/api/pwa.py): manifest, icons, theme colour and the worker's registration.
        rx.el.link(rel="manifest", href=routes.MANIFEST),
        rx.el.link(rel="apple-touch-icon", href="/icons/icon-192.png"),
        rx.el.meta(name="theme-color", content=THEME_COLOR),
        # Not deferred: it must hold a form sent from the first paint, before React (components/hydration.py).
        rx.el.script(src="/held_forms.js"),
        rx.el.script(src="/pwa.js", defer=True),
        # A refused form shows its first message where the person is looking (scrolled to, focused).
        rx.el.script(src="/form_errors.js", defer=True),
    ],
    extra_app_wraps={(3, "HydrationSignal"): lambda _stateful: HydrationSignal.create()},
)
app.register_lifespan_task(live_updates)
app.register_lifespan_task(shift_timer)
app.add_middleware(SessionEndMiddleware(), index=0)  # before Reflex's hydrate sends the state
app.add_page(
    not_found_page,
    route="404",
    title=f"Página não encontrada | {get_settings().product_name}",
    on_load=NOT_FOUND_ON_LOAD,
)
