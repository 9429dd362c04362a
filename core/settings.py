"""Application settings, read from the environment (and an optional `.env` file).

Every configurable value lives here so that the product name, URLs and secrets can be
changed without touching code.
"""

from functools import lru_cache
from typing import Literal

from pydantic import Field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """All runtime configuration of Turno.

    Attributes:
        product_name: The name shown to users (working name, rename here only).
        app_env: development (dev mailbox on), test, or production (secure cookies, no mailbox).
        site_url: Public origin of the site, used in e-mail links and CORS; when SITE_URL is
            unset, http://localhost:{port}, so `PORT=8080 make run` mails links that work.
        port: The port `make run` serves on (PORT); outside production its localhost origins may
            also read the backend across origins (`cors_origins`).
        database_url: SQLAlchemy URL; SQLite by default, PostgreSQL in production.
        redis_url: Redis URL for Reflex's state manager and shared throttling (optional).
        contact_email: Public e-mail for questions, shown on the contact and legal pages.
        privacy_email: E-mail of the data-protection officer (LGPD requests).
        contact_phone: Public phone number shown on the contact page.
        contact_address: Office address shown on the contact page (and opened in a maps site).
        stripe_secret_key: Stripe secret API key (sk_live_/sk_test_); payments are off without it.
        stripe_webhook_secret: Signing secret of the webhook endpoint (whsec_...).
        stripe_connect_webhook_secret: Signing secret of the Connect webhook endpoint (events of
            connected accounts, such as `account.updated`); Stripe signs those with their own secret.
        stripe_price_premium: Stripe price id of the monthly Premium plan (BRL).
        stripe_price_enterprise: Stripe price id of the monthly Enterprise plan (BRL).
        stripe_api_base: Origin of Stripe's API; tests point it at a local fake server.
        security_log_key: Key of the hash that names accounts of failed logins in the security log.
        trusted_proxies: Addresses or networks of the reverse proxies in front of the app (comma
            separated, e.g. '127.0.0.1'); only requests from them may name the client in
            X-Forwarded-For (core/client_address.py). Empty: the connection's address is the client.
        registrations_per_address_hour: Registrations one client address may submit in an hour.
        recoveries_per_address_hour: Password-recovery requests one client address may submit in an hour.
        account_mails_per_recipient_hour: Account e-mails (confirmation, reset, 'tentativa de
            cadastro') sent to one address in an hour; more are not sent.
        fiscal_saves_per_account_hour: 'Dados fiscais' saves (CPF, regime) one freelancer may make in an hour.
        fiscal_saves_per_address_hour: 'Dados fiscais' saves one client address may make in an hour.
        whatsapp_codes_per_number_hour: WhatsApp confirmation codes sent to one number in an hour,
            whichever accounts ask (services/reach/whatsapp_number.py `start`).
        whatsapp_codes_hour: WhatsApp confirmation codes sent in an hour in all (each one is a paid
            template message); past it every 'Enviar código' waits.
        security_log_file: Where the security log (`turno.security`) is written, alone; standard
            error, on a handler of its own, when unset (core/audit.py `configure_security_log`).
        session_hours: Absolute lifetime of a browser session (no 'Lembrar de mim').
        remember_days: Absolute lifetime of a 'Lembrar de mim' session.
        session_idle_minutes: A browser session unused this long ends (idle expiry).
        remember_idle_days: A 'Lembrar de mim' session unused this long ends: the user asked to
            stay signed in on this device, so minutes would defeat the choice, but a device left
            unused for a week no longer keeps a live session.
    """

    model_config = SettingsConfigDict(env_file=".env", extra="ignore", populate_by_name=True)

    product_name: str = "Turno"
    app_env: Literal["development", "test", "production"] = "development"
    site_url: str = ""  # unset: http://localhost:{port} (see _site_url_from_port)
    port: int = 3000
    database_url: str = "sqlite:///turno.db"
    redis_url: str | None = Field(default=None, validation_alias="REFLEX_REDIS_URL")

    contact_email: str = "contato@turno.com.br"
    privacy_email: str = "privacidade@turno.com.br"
    contact_phone: str = "(11) 4000-0000"
    contact_address: str = "Av. Paulista, 1000, Bela Vista, São Paulo - SP, 01310-100"

    smtp_host: str | None = None
    smtp_port: int = 587
    smtp_user: str | None = None
    smtp_password: str | None = None
    smtp_from: str = "Turno <nao-responda@turno.com.br>"
    smtp_starttls: bool = True

    stripe_secret_key: str | None = None
    stripe_webhook_secret: str | None = None
    stripe_connect_webhook_secret: str | None = None
    stripe_price_premium: str | None = None
    stripe_price_enterprise: str | None = None
    stripe_api_base: str = "https://api.stripe.com"

    # Web Push (core/vapid.py, services/reach/push_sending.py): the VAPID key (`python -m scripts.vapid_keys`), the
    # contact it names, and the push services' hosts we send to (https only in production).
    vapid_private_key: str | None = None
    vapid_subject: str = ""
    push_hosts: str = "fcm.googleapis.com,push.services.mozilla.com,notify.windows.com,push.apple.com"

    # WhatsApp Cloud API (services/reach/whatsapp.py): without a token and a phone number id the option does
    # not appear. The app secret checks the webhook's signature; the verify token answers its setup.
    whatsapp_token: str | None = None
    whatsapp_phone_number_id: str | None = None
    whatsapp_app_secret: str | None = None
    whatsapp_verify_token: str | None = None
    whatsapp_api_base: str = "https://graph.facebook.com/v21.0"
    whatsapp_template_code: str = "turno_codigo"
    whatsapp_template_shift: str = "turno_aviso"

    bcrypt_rounds: int = 12
    session_hours: int = 12
    remember_days: int = 30
    session_idle_minutes: int = 120
    remember_idle_days: int = 7
    session_cookie_name: str = "turno_session"
    login_max_failures: int = 5
    login_window_minutes: int = 15
    login_max_failures_per_address: int = 30
    device_cookie_name: str = "turno_device"
    device_trust_days: int = 90
    confirm_token_hours: int = 48
    reset_token_minutes: int = 60
    security_log_key: str | None = None
    security_log_file: str | None = None
    trusted_proxies: str = ""
    registrations_per_address_hour: int = 20
    recoveries_per_address_hour: int = 20
    account_mails_per_recipient_hour: int = 3
    whatsapp_codes_per_number_hour: int = 3
    whatsapp_codes_hour: int = 200
    fiscal_saves_per_account_hour: int = 5
    fiscal_saves_per_address_hour: int = 20

    @model_validator(mode="after")
    def _site_url_from_port(self) -> "Settings":
        """Without SITE_URL, links point at the port the app is served on (`PORT=8080 make run`)."""
        if not self.site_url.strip():
            self.site_url = f"http://localhost:{self.port}"
        return self

    @property
    def is_production(self) -> bool:
        """Whether the app runs with production safeguards (secure cookies, no dev mailbox)."""
        return self.app_env == "production"

    @property
    def cors_origins(self) -> list[str]:
        """The origins allowed to read the backend across origins, with the session cookie.

        Never '*': Starlette answers a request with cookies from '*' by echoing its Origin with
        credentials, and every page on localhost is the same site for SameSite cookies, so another
        local dev server could read a signed-in user's data. Production: SITE_URL alone. Elsewhere
        also the localhost origins of PORT, so `PORT=8080 make run` works without setting SITE_URL
        (open it from another device by setting SITE_URL to the address you open). Reflex gives the
        same list to the websocket, which refuses other browser origins.
        """
        site = self.site_url.strip().rstrip("/").lower()
        if self.is_production:
            return [site]
        return sorted({site, f"http://localhost:{self.port}", f"http://127.0.0.1:{self.port}"})

    @property
    def dev_mailbox_enabled(self) -> bool:
        """Whether outgoing e-mail is kept locally and listed at /dev/mailbox."""
        return not self.is_production and not self.smtp_host


@lru_cache
def get_settings() -> Settings:
    """Return the process-wide settings, read once from the environment."""
    return Settings()
