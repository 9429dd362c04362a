"""'Excluir conta': the confirmation dialog's state (LGPD self-service, docs/product/accounts.md §2)."""

import logging

import reflex as rx

from core import routes
from core.db import session_scope
from core.presence import get_presence
from services.accounts import photos
from services.common.errors import ServiceError
from services.privacy import privacy
from states.auth import AuthState, session_over
from states.failures import recovers

log = logging.getLogger(__name__)

PASSWORD_REQUIRED = "Senha é obrigatória"
DELETE_FAILED = "Erro ao excluir conta"
TRY_AGAIN = "Tente novamente em alguns instantes."
SIGN_IN_AGAIN = "Sua sessão terminou. Entre novamente para excluir sua conta."
ACCOUNT_DELETED = "Conta excluída"


class PrivacyState(AuthState):
    """The 'Excluir conta' dialog: open flag, the password field's message and the busy flag.

    The account deleted is always the one of the session cookie (`_current_user`); no handler takes
    a user id.
    """

    delete_open: bool = False
    delete_error: str = ""
    deleting: bool = False

    @rx.event
    def open_delete(self):
        """Open the confirmation dialog with a clean password field."""
        self.delete_error = ""
        self.delete_open = True

    @rx.event
    def set_delete_open(self, open_: bool):
        """Follow the dialog's open state (Escape, 'Cancelar'); it stays open while deleting."""
        if open_ is False and not self.deleting:
            self.delete_open = False
            self.delete_error = ""

    @rx.event
    @recovers(DELETE_FAILED, TRY_AGAIN, reset={"deleting": False})
    async def delete_account(self, form_data: dict):
        """Check the password and delete the caller's account, then sign out and go home.

        The password is checked again on the server (blank: 'Senha é obrigatória'); bcrypt runs in
        a worker thread. On success every session of the account is gone and, once committed, the
        photo file is deleted (as services.accounts.photos prescribes); every tab of the account leaves the
        presence registry, per-user state is reset, the cookie is cleared by the logout route and
        the browser loads the home page with the toast 'Conta excluída'.
        """
        if self.deleting:
            return
        password = form_data.get("password") if isinstance(form_data, dict) else None
        if not isinstance(password, str) or not password:
            self.delete_error = PASSWORD_REQUIRED
            return
        user = self._caller()
        if user is None:
            yield rx.toast.error(DELETE_FAILED, description=SIGN_IN_AGAIN)
            return
        self.deleting = True
        self.delete_error = ""
        yield
        address = self._client_address()

        def _do() -> str:
            with session_scope() as db:
                return privacy.delete_account(db, user.id, password, address)

        try:
            old_photo = await rx.run_in_thread(_do)
        except ServiceError as exc:
            self.deleting = False
            if "password" in exc.field_errors:
                self.delete_error = exc.field_errors["password"]
            else:
                yield rx.toast.error(DELETE_FAILED, description=exc.message)
            return
        self._remove_photo(old_photo)
        await self._forget_tabs(user.id)
        auth = await self.get_state(AuthState)
        auth._sign_out_tab()
        yield rx.call_script(session_over(ACCOUNT_DELETED, routes.HOME, logout=True))

    def _remove_photo(self, url: str) -> None:
        """Delete the former photo file now that the deletion is committed (a leftover is only logged)."""
        try:
            photos.remove_file(rx.get_upload_dir(), url)
        except OSError:
            log.warning("could not remove the photo of a deleted account", exc_info=True)

    async def _forget_tabs(self, user_id: int) -> None:
        """Stop live updates to every tab of the deleted account (this one and any other)."""
        presence = get_presence()
        try:
            tokens = set(await presence.tabs(user_id)) | {self.router.session.client_token}
            for token in tokens:
                await presence.leave(user_id, token)
        except Exception:  # the account is deleted; a stale entry is pruned by the next delivery
            log.warning("could not clear the presence of a deleted account", exc_info=True)
