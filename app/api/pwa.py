"""Turno as an installable app: the web app manifest, the service worker, its offline page and /app.

- `/manifest.webmanifest` names the app from settings (PRODUCT_NAME), in pt-BR, with its icons
  (assets/icons/) and theme colour; an installed app opens `/app`.
- `/app` sends the person to where they work: a company to its dashboard, a freelancer to theirs,
  anyone else to the home page (the session cookie is resolved on the server, as everywhere).
- `/sw.js` is the service worker. It keeps exactly one page, the offline page, and the icons it
  shows, and answers a page the network cannot fetch with it ('Você está sem conexão'), and those
  icons from its cache when the network cannot fetch them (the offline page's logo loads offline).
  It never stores anything else: every other request goes to the network untouched, so no page, answer or
  private data of anyone is ever kept on the device. It also shows the pushes services/reach/push.py
  sends (title, text, the page to open; not when that page is already in front of the person)
  and opens that page, on this site only, when the notification is clicked.
- `/offline` is that page: plain HTML, no script, the product's name and a 'Tentar novamente' link.
"""

import hashlib
import html
import json
from functools import cache

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from core import routes
from core.db import session_scope
from core.settings import get_settings
from models import Role
from services.accounts import sessions

THEME_COLOR = "#3e63dd"
BACKGROUND_COLOR = "#ffffff"
OFFLINE_TITLE = "Você está sem conexão"
OFFLINE_TEXT = "Verifique sua internet. Quando a conexão voltar, a página abre normalmente."
RETRY = "Tentar novamente"
ICONS = (
    {"src": "/icons/icon-192.png", "sizes": "192x192", "type": "image/png", "purpose": "any"},
    {"src": "/icons/icon-512.png", "sizes": "512x512", "type": "image/png", "purpose": "any"},
    {"src": "/icons/maskable-512.png", "sizes": "512x512", "type": "image/png", "purpose": "maskable"},
)
NO_STORE = {"Cache-Control": "no-cache"}


def manifest_data(product_name: str) -> dict:
    """The web app manifest (W3C Web Application Manifest) for `product_name`."""
    return {
        "name": product_name,
        "short_name": product_name,
        "description": "Vagas temporárias em hotelaria, gastronomia e eventos: candidate-se, combine no chat e trabalhe.",
        "lang": "pt-BR",
        "dir": "ltr",
        "id": routes.APP_START,
        "start_url": routes.APP_START,
        "scope": "/",
        "display": "standalone",
        "background_color": BACKGROUND_COLOR,
        "theme_color": THEME_COLOR,
        "icons": list(ICONS),
        "categories": ["business", "productivity"],
    }


def offline_html(product_name: str) -> str:
    """The page the service worker shows when the network cannot bring the one asked for."""
    name = html.escape(product_name)
    return (
        "<!doctype html>"
        '<html lang="pt-BR"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta name="theme-color" content="{THEME_COLOR}">'
        f"<title>{OFFLINE_TITLE} | {name}</title>"
        '<link rel="icon" href="/favicon.svg" type="image/svg+xml">'
        "<style>"
        "body{margin:0;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1c2024;"
        "background:#fff;display:grid;min-height:100vh;place-items:center;text-align:center}"
        "main{padding:2rem 1.5rem;max-width:28rem}"
        "img{width:64px;height:64px}"
        "h1{font-size:1.5rem;margin:1rem 0 .5rem}"
        "p{color:#60646c;line-height:1.5}"
        f"a{{display:inline-block;margin-top:1rem;padding:.7rem 1.4rem;border-radius:6px;background:{THEME_COLOR};"
        "color:#fff;text-decoration:none;font-weight:500}"
        "</style></head><body><main>"
        f'<img src="/icons/icon-192.png" alt="{name}">'
        f"<h1>{OFFLINE_TITLE}</h1><p>{OFFLINE_TEXT}</p>"
        f'<a href="">{RETRY}</a>'  # the page asked for, again
        "</main></body></html>"
    )


def service_worker_js(product_name: str) -> str:
    """The service worker: the offline page for pages the network cannot fetch, nothing else kept.

    Its cache is named after the offline page's content, so a new page (or product name) installs
    a new worker, which drops the old cache.
    """
    kept = [routes.OFFLINE, "/icons/icon-192.png", "/favicon.svg"]
    version = hashlib.sha256((offline_html(product_name) + json.dumps(kept)).encode()).hexdigest()[:12]
    return f"""// {product_name}: offline page only (app/api/pwa.py). Nothing else is ever stored.
const CACHE = "offline-{version}";
const OFFLINE = {json.dumps(routes.OFFLINE)};
const KEPT = {json.dumps(kept)};

self.addEventListener("install", (event) => {{
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(KEPT)).then(() => self.skipWaiting()));
}});

self.addEventListener("activate", (event) => {{
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim())
  );
}});

self.addEventListener("fetch", (event) => {{
  const kept = event.request.method === "GET" && new URL(event.request.url).origin === self.location.origin
    && KEPT.includes(new URL(event.request.url).pathname);
  if (kept && event.request.mode !== "navigate") {{  // the offline page's own logo and icon
    event.respondWith(fetch(event.request).catch(() => caches.open(CACHE).then((cache) => cache.match(event.request))));
    return;
  }}
  if (event.request.mode !== "navigate") return;  // only pages; the rest goes to the network untouched
  event.respondWith(
    fetch(event.request).catch(() => caches.open(CACHE).then((cache) => cache.match(OFFLINE)))
  );
}});

// Web Push (services/reach/push.py): the payload is {{title, body, url}}. Nothing of it is stored.
const samePage = (url) => {{
  const target = new URL(url || "/", self.location.origin);
  return new URL(target.pathname + target.search + target.hash, self.location.origin).href;  // our own origin only
}};

self.addEventListener("push", (event) => {{
  let data = {{}};
  try {{
    data = event.data ? event.data.json() : {{}};
  }} catch (error) {{
    data = {{}};
  }}
  const url = samePage(data.url);
  event.waitUntil(
    self.clients.matchAll({{ type: "window", includeUncontrolled: true }}).then((windows) => {{
      if (windows.some((w) => w.focused && w.visibilityState === "visible" && w.url === url)) return undefined;
      return self.registration.showNotification(data.title || {json.dumps(product_name)}, {{
        body: data.body || "",
        icon: "/icons/icon-192.png",
        badge: "/icons/icon-192.png",
        lang: "pt-BR",
        tag: url,
        renotify: true,
        data: {{ url }},
      }});
    }})
  );
}});

self.addEventListener("notificationclick", (event) => {{
  event.notification.close();
  const url = samePage(event.notification.data && event.notification.data.url);
  event.waitUntil(
    self.clients.matchAll({{ type: "window", includeUncontrolled: true }}).then((windows) => {{
      const open = windows.find((w) => w.url === url && "focus" in w);
      return open ? open.focus() : self.clients.openWindow(url);
    }})
  );
}});
"""


@cache
def _cached(product_name: str) -> tuple[bytes, bytes, bytes]:
    return (
        json.dumps(manifest_data(product_name), ensure_ascii=False).encode(),
        service_worker_js(product_name).encode(),
        offline_html(product_name).encode(),
    )


async def manifest(_request: Request) -> Response:
    """GET /manifest.webmanifest."""
    body = _cached(get_settings().product_name)[0]
    return Response(body, media_type="application/manifest+json", headers=NO_STORE)


async def service_worker(_request: Request) -> Response:
    """GET /sw.js (scope /)."""
    body = _cached(get_settings().product_name)[1]
    return Response(
        body, media_type="text/javascript; charset=utf-8", headers={**NO_STORE, "Service-Worker-Allowed": "/"}
    )


async def offline_page(_request: Request) -> Response:
    """GET /offline: what the service worker shows without a connection."""
    body = _cached(get_settings().product_name)[2]
    return Response(body, media_type="text/html; charset=utf-8", headers=NO_STORE)


async def app_start(request: Request) -> Response:
    """GET /app: the installed app's start page, by who is signed in (home for a visitor)."""
    token = request.cookies.get(get_settings().session_cookie_name)

    def _role() -> str | None:
        with session_scope() as db:
            user = sessions.resolve(db, token) if token else None
            return user.role if user is not None else None

    role = await run_in_threadpool(_role)
    target = {
        Role.CLIENT: routes.CLIENT_DASHBOARD,
        Role.FREELANCER: routes.FREELANCER_DASHBOARD,
        Role.ADMIN: routes.ADMIN,
    }.get(role, routes.HOME)
    return RedirectResponse(target, status_code=302, headers={"Cache-Control": "no-store"})
