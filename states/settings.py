"""Settings of the signed-in user (both dashboards): theme, notification switches, password.

The caller is always resolved from the session cookie; the values are persisted in
user_preferences (services/accounts/profiles.py) and the password in users (services/accounts/accounts.py).
"""

import json

import reflex as rx

from core import vapid
from core.db import session_scope
from services.accounts import accounts, profiles
from services.accounts.profiles import SwitchView
from services.common.errors import ValidationFailed
from services.reach import push_devices, whatsapp, whatsapp_number
from services.reach.push_devices import DeviceView
from states.auth import AuthState
from states.failures import recovers

PASSWORD_FIELDS = ("current", "new", "confirm")
LOAD_FAILED = ("Erro ao carregar configurações", "Não foi possível carregar suas configurações.")
SAVE_FAILED = ("Erro ao salvar configurações", "Não foi possível salvar. Tente novamente.")
APPEARANCE_SAVED = "Aparência atualizada!"
NOTIFICATIONS_SAVED = "Preferências de notificação salvas!"
PASSWORD_CHANGED = "Senha alterada!"
PASSWORD_FAILED = ("Erro ao alterar senha", "Não foi possível alterar a senha. Tente novamente.")
NOT_SIGNED_IN = ("Não autenticado", "Você precisa estar logado para alterar suas configurações.")
PUSH_FAILED = ("Notificações no aparelho", push_devices.CANNOT_ENABLE)
WHATSAPP_FAILED = ("WhatsApp", "Não foi possível concluir. Tente novamente.")
# What the browser answered instead of a subscription (assets/pwa.js `turnoPush.enable`).
PUSH_BROWSER_ERRORS = {"unsupported": push_devices.NOT_SUPPORTED, "denied": push_devices.DENIED}


def _blank() -> dict[str, str]:
    return dict.fromkeys(PASSWORD_FIELDS, "")


def others_ended(count: int) -> str:
    """The password toast's description: how many other sessions were signed out."""
    if count == 0:
        return "Nenhuma outra sessão estava aberta."
    if count == 1:
        return "A outra sessão aberta foi encerrada."
    return f"As outras {count} sessões abertas foram encerradas."


class SettingsState(AuthState):
    """Aparência, Notificações and Segurança of the signed-in user."""

    loaded: bool = False
    theme: str = "system"
    language: str = ""
    switches: list[SwitchView] = []
    account_created: str = ""
    email_confirmed: str = ""
    active_sessions: int = 0
    saving_notifications: bool = False
    changing_password: bool = False
    password_errors: dict[str, str] = _blank()
    password_form_key: int = 0
    push_key: str = ""  # the VAPID public key; '' when push is off (the option does not appear)
    push_devices: list[DeviceView] = []
    push_here: bool = False  # this browser's session has a device: 'Este aparelho já recebe notificações.'
    enabling_push: bool = False
    whatsapp_on: bool = False  # WhatsApp is configured on this server (the section appears)
    whatsapp: dict[str, str] = {"phone": "", "state": "none", "error": "", "since": ""}
    whatsapp_errors: dict[str, str] = {"phone": "", "code": ""}
    whatsapp_form_key: int = 0

    @rx.event
    @recovers(*LOAD_FAILED)
    def load(self):
        """Load the saved settings and the account facts of the caller."""
        self.password_errors = _blank()
        user = self._caller()
        if user is None:
            return None
        with session_scope() as db:
            preferences = profiles.get_preferences(db, user.id)
            security = profiles.get_security(db, user.id)
        self.theme = preferences["theme"]
        self.language = preferences["language"]
        self.switches = preferences["switches"]
        self.account_created = security["created"]
        self.email_confirmed = security["confirmed"]
        self.active_sessions = security["active_sessions"]
        self._load_devices(user.id)
        self._load_whatsapp(user.id)
        self.loaded = True
        return None

    def _load_whatsapp(self, user_id: int) -> None:
        """Whether WhatsApp is offered here and where the caller's number stands."""
        self.whatsapp_on = whatsapp.configured()
        if self.whatsapp_on:
            with session_scope() as db:
                self.whatsapp = dict(whatsapp_number.status(db, user_id))

    def _load_devices(self, user_id: int) -> None:
        """The caller's devices with push on, and the key a new one subscribes with."""
        self.push_key = vapid.public_key()
        with session_scope() as db:
            self.push_devices = push_devices.devices(db, user_id, self._session_token())
        self.push_here = any(device["this_device"] for device in self.push_devices)

    @rx.event
    @recovers(*SAVE_FAILED)
    def save_theme(self, theme: str):
        """Persist the theme chosen under Aparência (the page applies it in the browser at once)."""
        user = self._caller()
        if user is None:
            return rx.toast.error(NOT_SIGNED_IN[0], description=NOT_SIGNED_IN[1])
        try:
            with session_scope() as db:
                self.theme = profiles.save_theme(db, user.id, {"theme": theme})
        except ValidationFailed as exc:
            return rx.toast.error(SAVE_FAILED[0], description=exc.field_errors.get("theme", exc.message))
        return rx.toast.success(APPEARANCE_SAVED)

    @rx.event
    @recovers(*SAVE_FAILED, reset={"saving_notifications": False})
    def save_notifications(self, form_data: dict):
        """Persist the notification switches (a switch missing from the form is off)."""
        if self.saving_notifications:
            return None
        user = self._caller()
        if user is None:
            return rx.toast.error(NOT_SIGNED_IN[0], description=NOT_SIGNED_IN[1])
        self.saving_notifications = True
        try:
            with session_scope() as db:
                self.switches = profiles.save_notifications(db, user.id, form_data)["switches"]
        finally:
            self.saving_notifications = False
        return rx.toast.success(NOTIFICATIONS_SAVED)

    @rx.event
    def enable_push(self):
        """'Ativar notificações neste aparelho': the browser asks for permission and subscribes (assets/pwa.js)."""
        if self.enabling_push or not self.push_key:
            return None
        self.enabling_push = True
        return rx.call_script(f"window.turnoPush.enable({json.dumps(self.push_key)})", callback=SettingsState.save_push)

    @rx.event
    @recovers(*PUSH_FAILED, reset={"enabling_push": False})
    def save_push(self, answer: dict):
        """Keep the subscription the browser answered for the caller's session, or say why there is none."""
        self.enabling_push = False
        user = self._caller()
        if user is None:
            return rx.toast.error(NOT_SIGNED_IN[0], description=NOT_SIGNED_IN[1])
        answer = answer if isinstance(answer, dict) else {}
        if "subscription" not in answer:
            reason = PUSH_BROWSER_ERRORS.get(str(answer.get("error")), push_devices.CANNOT_ENABLE)
            return rx.toast.error(PUSH_FAILED[0], description=reason)
        try:
            with session_scope() as db:
                push_devices.register(
                    db, user.id, self._session_token(), answer["subscription"], self.router.headers.user_agent
                )
        except ValidationFailed as exc:
            return rx.toast.error(PUSH_FAILED[0], description=exc.field_errors.get("push", exc.message))
        self._load_devices(user.id)
        return rx.toast.success(push_devices.ENABLED)

    @rx.event
    @recovers(*SAVE_FAILED)
    def remove_device(self, device_id: int):
        """'Remover' a device from the list: it gets no more pushes (this browser also unsubscribes)."""
        user = self._caller()
        if user is None:
            return rx.toast.error(NOT_SIGNED_IN[0], description=NOT_SIGNED_IN[1])
        here = any(device["id"] == device_id and device["this_device"] for device in self.push_devices)
        with session_scope() as db:
            push_devices.remove(db, user.id, device_id)
        self._load_devices(user.id)
        done = rx.toast.success(push_devices.REMOVED)
        return [rx.call_script("window.turnoPush.disable()"), done] if here else done

    @rx.event
    @recovers(*WHATSAPP_FAILED)
    def start_whatsapp(self, form_data: dict):
        """'Enviar código': keep the number and send it a code by WhatsApp."""
        user = self._caller()
        if user is None:
            return rx.toast.error(NOT_SIGNED_IN[0], description=NOT_SIGNED_IN[1])
        data = form_data if isinstance(form_data, dict) else {}
        self.whatsapp_errors = {"phone": "", "code": ""}
        try:
            with session_scope() as db:
                phone = whatsapp_number.start(db, user.id, data.get("phone"))
        except ValidationFailed as exc:
            self.whatsapp_errors = {"phone": "", "code": "", **exc.field_errors}
            return None
        self._load_whatsapp(user.id)
        return rx.toast.success(whatsapp_number.CODE_SENT.format(phone=phone))

    @rx.event
    @recovers(*WHATSAPP_FAILED)
    def confirm_whatsapp(self, form_data: dict):
        """'Confirmar': the code the number received turns WhatsApp on."""
        user = self._caller()
        if user is None:
            return rx.toast.error(NOT_SIGNED_IN[0], description=NOT_SIGNED_IN[1])
        data = form_data if isinstance(form_data, dict) else {}
        self.whatsapp_errors = {"phone": "", "code": ""}
        try:
            with session_scope() as db:
                problem = whatsapp_number.confirm(db, user.id, data.get("code"))
        except ValidationFailed as exc:
            problem = exc.field_errors.get("code", exc.message)
        self._load_whatsapp(user.id)
        if problem:
            self.whatsapp_errors = {"phone": "", "code": problem}
            return None
        self.whatsapp_form_key += 1
        return rx.toast.success(whatsapp_number.CONFIRMED)

    @rx.event
    @recovers(*WHATSAPP_FAILED)
    def stop_whatsapp(self):
        """'Parar': no more WhatsApp messages; the withdrawal is recorded."""
        user = self._caller()
        if user is None:
            return rx.toast.error(NOT_SIGNED_IN[0], description=NOT_SIGNED_IN[1])
        with session_scope() as db:
            whatsapp_number.stop(db, user.id)
        self._load_whatsapp(user.id)
        return rx.toast.success(whatsapp_number.STOPPED)

    @rx.event
    @recovers(*PASSWORD_FAILED, reset={"changing_password": False})
    async def change_password(self, form_data: dict):
        """Check the current password, set the new one and end every other session of the account."""
        if self.changing_password:
            return
        user = self._caller()
        if user is None:
            yield rx.toast.error(NOT_SIGNED_IN[0], description=NOT_SIGNED_IN[1])
            return
        self.changing_password = True
        self.password_errors = _blank()
        yield
        data = form_data if isinstance(form_data, dict) else {}
        keep = self._session_token()
        address = self._client_address()

        def _change() -> int:
            with session_scope() as db:
                return accounts.change_password(db, user.id, data, keep, address)

        try:
            ended = await rx.run_in_thread(_change)
        except ValidationFailed as exc:
            self.password_errors = {**_blank(), **{k: v for k, v in exc.field_errors.items() if k in PASSWORD_FIELDS}}
            self.changing_password = False
            return
        self.changing_password = False
        self.active_sessions = 1
        self.password_form_key += 1
        yield rx.toast.success(PASSWORD_CHANGED, description=others_ended(ended))
