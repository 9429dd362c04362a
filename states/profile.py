"""Editing one's own profile: the company and freelancer forms and the profile photo.

Every handler resolves the caller from the session cookie (AuthState._current_user) and passes
that id to services/accounts/profiles.py or services/accounts/photos.py; no handler takes a user id. After a save,
the dashboard chrome (DashboardState.me) is refreshed so the sidebar, the profile sheet and the
profile tabs show the new data at once.
"""

import reflex as rx

from core.db import session_scope
from models import Role
from services.accounts import photos, profiles
from services.accounts.profiles import ProfileView
from services.common.errors import ValidationFailed
from states.auth import AuthState
from states.dashboard import DashboardState
from states.failures import recovers

COMPANY_FIELDS = ("empresa", "biografia", "endereco", "telefone", "website", "instagram", "facebook", "linkedin")
FREELANCER_FIELDS = (
    "nome",
    "telefone",
    "endereco",
    "localizacao",
    "profissao",
    "habilidades",
    "biografia",
    "experiencia",
    "website",
)
PHOTO_UPLOAD_ID = "profile-photo"
UPDATE_FAILED = ("Erro ao atualizar perfil", "Não foi possível salvar. Tente novamente.")
NOT_SIGNED_IN = ("Não autenticado", "Você precisa estar logado para atualizar seu perfil.")
PHOTO_FAILED = "Não foi possível salvar a foto. Tente novamente."
SAVED = "Perfil atualizado com sucesso!"
PHOTO_SAVED = "Foto atualizada com sucesso!"
PHOTO_REMOVED = "Foto removida"


def _blank(fields: tuple[str, ...]) -> dict[str, str]:
    return dict.fromkeys(fields, "")


async def _read_limited(upload: rx.UploadFile) -> bytes:
    """At most one byte more than the size limit, so an oversized file is never read whole."""
    return await upload.read(photos.MAX_BYTES + 1)


class ProfileEditState(AuthState):
    """Form errors and busy flags of the profile forms and the photo control."""

    saving: bool = False
    photo_busy: bool = False
    errors: dict[str, str] = _blank(COMPANY_FIELDS + FREELANCER_FIELDS)

    async def _show(self, view: ProfileView) -> None:
        dashboard = await self.get_state(DashboardState)
        dashboard.me = view

    async def _save(self, role: Role, fields: tuple[str, ...], form_data: dict):
        """Validate and save one of the two forms for the signed-in user of `role`."""
        if self.saving:
            return
        user = self._current_user()
        if user is None or user.role != role:
            self._deny(f"{role} only", user)
            yield rx.toast.error(NOT_SIGNED_IN[0], description=NOT_SIGNED_IN[1])
            return
        self.saving = True
        self.errors = _blank(COMPANY_FIELDS + FREELANCER_FIELDS)
        yield
        update = profiles.update_company_profile if role == Role.CLIENT else profiles.update_freelancer_profile
        try:
            with session_scope() as db:
                view = update(db, user.id, form_data if isinstance(form_data, dict) else {})
        except ValidationFailed as exc:
            self.errors = {**self.errors, **{k: v for k, v in exc.field_errors.items() if k in fields}}
            self.saving = False
            return
        self.saving = False
        await self._show(view)
        yield rx.toast.success(SAVED)

    @rx.event
    @recovers(*UPDATE_FAILED, reset={"saving": False})
    async def save_company(self, form_data: dict):
        """'Salvar Informações' of the company profile (setup page and 'Meu Perfil' tab)."""
        async for update in self._save(Role.CLIENT, COMPANY_FIELDS, form_data):
            yield update

    @rx.event
    @recovers(*UPDATE_FAILED, reset={"saving": False})
    async def save_freelancer(self, form_data: dict):
        """'Salvar Perfil' of the freelancer's 'Meu Perfil' tab."""
        async for update in self._save(Role.FREELANCER, FREELANCER_FIELDS, form_data):
            yield update

    @rx.event
    @recovers(photos.PHOTO_ERROR_TITLE, PHOTO_FAILED, reset={"photo_busy": False})
    async def upload_photo(self, files: list[rx.UploadFile]):
        """Check the chosen image on the server, store it under a new name and show it.

        The bytes are checked by content (services/accounts/photos.py); the previous file is removed only
        after the new URL is committed, and the new file is removed if the commit fails.
        """
        if self.photo_busy:
            return
        user = self._current_user()
        if user is None:
            self._deny("signed-in users only")
            yield rx.toast.error(NOT_SIGNED_IN[0], description=NOT_SIGNED_IN[1])
            return
        if not files:
            yield rx.toast.error(photos.PHOTO_ERROR_TITLE, description=photos.NO_FILE)
            return
        self.photo_busy = True
        yield
        upload_dir = rx.get_upload_dir()
        new_url = ""
        stored = False
        try:
            data = await _read_limited(files[0])
            content = await rx.run_in_thread(lambda: photos.reencode(data))
            new_url = photos.write_file(upload_dir, content)
            with session_scope() as db:
                old_url = photos.set_photo(db, user.id, new_url)
                view = profiles.get_own_profile(db, user.id)
            stored = True
        except photos.PhotoRejected as exc:
            self.photo_busy = False
            yield rx.toast.error(exc.title, description=exc.message)
            return
        finally:
            if not stored:  # a file written for a row that was not committed
                photos.remove_file(upload_dir, new_url)
        photos.remove_file(upload_dir, old_url)
        self.photo_busy = False
        await self._show(view)
        yield rx.toast.success(PHOTO_SAVED)

    @rx.event
    @recovers(photos.PHOTO_ERROR_TITLE, PHOTO_FAILED)
    async def remove_photo(self):
        """'Remover foto': the profile goes back to initials and the file is deleted."""
        user = self._current_user()
        if user is None:
            self._deny("signed-in users only")
        if user is None or self.photo_busy:
            return
        with session_scope() as db:
            old_url = photos.set_photo(db, user.id, "")
            view = profiles.get_own_profile(db, user.id)
        photos.remove_file(rx.get_upload_dir(), old_url)
        await self._show(view)
        yield rx.toast.success(PHOTO_REMOVED)

    @rx.event
    def photo_rejected(self, rejections: list[dict]):
        """The browser refused the file before upload (type or size): the reason's toast (docs/product/accounts.md §8)."""
        codes = {
            str(error.get("code", ""))
            for item in (rejections if isinstance(rejections, list) else [])
            if isinstance(item, dict)
            for error in (item.get("errors") or [])
            if isinstance(error, dict)
        }
        if "file-too-large" in codes:
            return rx.toast.error(photos.TOO_LARGE_TITLE, description=photos.TOO_LARGE)
        return rx.toast.error(photos.WRONG_TYPE_TITLE, description=photos.WRONG_TYPE)
