"""HTTP routes mounted next to Reflex's backend through `api_transformer`."""

from starlette.applications import Starlette
from starlette.routing import Route

from app.api.account import export_data
from app.api.auth import login, logout
from app.api.crawlers import robots, sitemap_jobs, sitemap_pages, sitemap_xml
from app.api.health import health
from app.api.pwa import app_start, manifest, offline_page, service_worker
from app.api.shift_calendar import shift_calendar
from app.api.stripe_webhook import stripe_webhook
from app.api.whatsapp_webhook import receive as whatsapp_receive
from app.api.whatsapp_webhook import verify as whatsapp_verify
from core import routes

api = Starlette(
    routes=[
        Route(routes.API_LOGIN, login, methods=["POST"]),
        Route(routes.API_LOGOUT, logout, methods=["POST"]),
        Route(routes.API_HEALTH, health, methods=["GET"]),
        Route(routes.API_STRIPE_WEBHOOK, stripe_webhook, methods=["POST"]),
        Route(routes.API_WHATSAPP_WEBHOOK, whatsapp_verify, methods=["GET"]),
        Route(routes.API_WHATSAPP_WEBHOOK, whatsapp_receive, methods=["POST"]),
        Route(routes.API_ACCOUNT_EXPORT, export_data, methods=["GET"]),
        Route(routes.API_SHIFT_CALENDAR, shift_calendar, methods=["GET"]),
        Route(routes.MANIFEST, manifest, methods=["GET"]),
        Route(routes.SERVICE_WORKER, service_worker, methods=["GET"]),
        Route(routes.OFFLINE, offline_page, methods=["GET"]),
        Route(routes.APP_START, app_start, methods=["GET"]),
        Route(routes.ROBOTS, robots, methods=["GET"]),
        Route(routes.SITEMAP, sitemap_xml, methods=["GET"]),
        Route(routes.SITEMAP_PAGES, sitemap_pages, methods=["GET"]),
        Route(routes.SITEMAP_JOBS, sitemap_jobs, methods=["GET"]),
    ]
)
