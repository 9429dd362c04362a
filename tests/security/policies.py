"""Who may call each event handler of the app, and with what: the authorization matrix's table.

One entry per handler of every user-defined State, keyed by `module.Class.handler` (the test maps
it to Reflex's full state path). A handler added to the app without an entry here fails
tests/security/test_authorization_matrix.py until someone writes down its policy.

Fields of a `Policy`:
- `who`: who may call it: PUBLIC (anyone), SIGNED_IN (any account), FREELANCER, COMPANY or ADMIN
  (Turno staff, a role none of the matrix's callers has: every call must change nothing).
- `args`: the payload sent. `Id(kind)` marks an object id: the matrix sends, in turn, an id of an
  object of that kind the caller may use (own), of one they may not (foreign) and one that does
  not exist. Forms are dicts, as the browser sends them.
- `page`: the URL the tab is on when the handler reads its id from the address; `{kind}` is
  replaced by the id under test. A dict gives one URL per role ("*" for the others).
- `before`: handlers called first on the same tab (a dialog opened before its form is sent), with
  the same id.
- `ends_session`: the handler signs the caller out; the matrix calls it with a throwaway session.

Kinds of objects: job (a company's job, any status), public_job (anyone may read the open ones;
foreign means another company's archived or closed job), application (the freelancer's and the
job's company's), rating (an accepted application of a closed job, rated by either side), chat
(its two participants), notification (its user), freelancer (a freelancer's profile: themselves
and the companies they applied to), hiring (an accepted application's shift: its company and
freelancer), falta (the freelancer's own), push_device (a browser with push on: its user's).

The rating dialog (RatingMixin) is shared by both dashboards and rates the other side of the
caller's own hiring, so either side may call it from either dashboard's state (the service checks
that the caller took part in the application).
"""

from dataclasses import dataclass, field

from tests.support.shift_form import shift_day, shift_fields

PUBLIC = "public"
SIGNED_IN = "signed-in"
FREELANCER = "freelancer"
COMPANY = "company"
ADMIN = "admin"


@dataclass(frozen=True)
class Id:
    """An object id argument of the given kind."""

    kind: str


@dataclass(frozen=True)
class Policy:
    """Who may call one handler and how the matrix calls it (see the module docstring)."""

    who: str
    args: dict = field(default_factory=dict)
    page: str | dict[str, str] = "/"
    before: tuple[tuple[str, dict], ...] = ()
    ends_session: bool = False
    # Vars a foreign id may answer differently from a missing one, by a documented design choice
    # (docs/security.md); the rest of the answer must still match, and the foreign id never shows.
    may_differ: tuple[str, ...] = ()


# A browser's subscription as `turnoPush.enable` answers it (a local endpoint: the test server is not production).
PUSH_SUBSCRIPTION = {
    "endpoint": "http://127.0.0.1:9/push/matrix",
    "keys": {"p256dh": "BA" + "A" * 85, "auth": "A" * 22},
}

SETVAR = Policy(PUBLIC, {"var_name": "user_role", "value": "client"})  # Reflex's built-in; only set_* handlers

JOB_FORM = {
    "titulo": "Garçom para evento",
    "categoria": "eventos",
    "descricao": "Servir mesas em um casamento no sábado.",
    "localizacao": "São Paulo",
    "valor_hora": "35",
    **shift_fields(),
    "habilidades_necessarias": "Bandeja",
    "vagas_disponiveis": "2",
}
COMPANY_PROFILE_FORM = {
    "empresa": "Hotel Teste",
    "biografia": "Hotel no centro.",
    "endereco": "Rua A, 10",
    "telefone": "(11) 3333-4444",
    "website": "",
    "instagram": "",
    "facebook": "",
    "linkedin": "",
}
FREELANCER_PROFILE_FORM = {
    "nome": "João Silva",
    "telefone": "(11) 98888-7777",
    "endereco": "Rua B, 20",
    "localizacao": "São Paulo",
    "profissao": "Garçom",
    "habilidades": "Bandeja, Drinks",
    "biografia": "Garçom há 5 anos.",
    "experiencia": "Eventos e hotéis.",
    "website": "",
}
REGISTER_COMPANY_FORM = {
    "name": "Nova Empresa",
    "email": "nova-empresa@teste.com.br",
    "password": "senha-forte-123",
    "confirmPassword": "senha-forte-123",
    "company": "Nova Empresa Ltda",
    "industry": "hotelaria",
    "location": "São Paulo",
    "description": "",
}
REGISTER_FREELANCER_FORM = {
    "name": "Novo Freelancer",
    "email": "novo-freelancer@teste.com.br",
    "password": "senha-forte-123",
    "confirmPassword": "senha-forte-123",
    "profession": "Garçom",
    "skills": "Bandeja",
    "location": "São Paulo",
    "experience": "",
}
CONTACT_FORM = {
    "name": "Maria",
    "email": "maria@teste.com.br",
    "phone": "",
    "subject": "duvida",
    "message": "Como publico uma vaga?",
}
COMPANY_CHAT = "/client-dashboard/chats/{chat}"
FREELANCER_CHAT = "/freelancer-dashboard/chats/{chat}"
CHAT_PAGE = {FREELANCER: FREELANCER_CHAT, "*": COMPANY_CHAT}
FREELANCER_SHIFTS = "/freelancer-dashboard?tab=shifts"
COMPANY_SHIFTS = "/client-dashboard?tab=shifts"
CODE_PAGE = "/client-dashboard/presenca/{job}"


def shift_policies(state: str, role: str, page: str) -> dict[str, Policy]:
    """The ShiftsMixin handlers of one state: `role` acts on its own hirings from `page`.

    'Cancelar turno' opens a dialog; its submit is what reaches the server, so the matrix opens it
    first with the id under test. 'Pedir revisão humana' is the freelancer's, whatever the state.
    """
    opened = (("open_shift_action", {"hiring_id": Id("hiring"), "action": "cancelar"}),)
    return {
        f"{state}.close_shift_dialog": Policy(SIGNED_IN),
        f"{state}.located": Policy(SIGNED_IN, {"reading": {"error": "1"}}, page=page),
        f"{state}.open_review": Policy(FREELANCER, {"falta_id": Id("falta")}, page=page),
        f"{state}.open_shift_action": Policy(role, {"hiring_id": Id("hiring"), "action": "cancelar"}, page=page),
        f"{state}.read_location": Policy(SIGNED_IN, page=page),
        f"{state}.submit_shift_action": Policy(
            role, {"form_data": {"reason": "Motivo com mais de dez letras."}}, page=page, before=opened
        ),
    }


RATING_STEPS = (("open_rating", {"application_id": Id("rating")}), ("pick_stars", {"stars": 4}))

ADMIN_DECISION_FORM = {
    "request_id": "1",
    "decision": "aprovar",
    "hours": "8:00",
    "reason": "Os registros confirmam a presença no turno.",
}

POLICIES: dict[str, Policy] = {
    # Turno staff's back office (no caller of the matrix is staff: every call must change nothing).
    "app.pages.admin.AdminState.decide": Policy(ADMIN, {"form_data": ADMIN_DECISION_FORM}, page="/admin"),
    "app.pages.admin.AdminState.load": Policy(ADMIN, page="/admin"),
    "app.pages.admin.AdminState.setvar": SETVAR,
    # Public pages.
    "app.pages.category.CategoryState.load": Policy(PUBLIC, page="/categories/eventos"),
    "app.pages.category.CategoryState.setvar": SETVAR,
    "app.pages.contact.ContactState.end_success": Policy(PUBLIC, page="/contact"),
    "app.pages.contact.ContactState.load": Policy(PUBLIC, page="/contact"),
    "app.pages.contact.ContactState.setvar": SETVAR,
    "app.pages.contact.ContactState.submit": Policy(PUBLIC, {"form_data": CONTACT_FORM}, page="/contact"),
    # A closed vaga says so and lists similar open ones (docs/product/jobs.md §4); it was public while open.
    "app.pages.job_detail.state.JobDetailState.load": Policy(
        PUBLIC, page="/jobs/{public_job}", may_differ=("gone", "similar", "page_title")
    ),
    "app.pages.job_detail.state.JobDetailState.setvar": SETVAR,
    # 'Não quero trabalhar com esta empresa' on the vaga's page: a freelancer's own preference about
    # the company named on a vaga they can see (an anonymous, closed or archived one finds nothing:
    # nothing written, the same answer). 'Não quero ver esta vaga' hides the page's vaga alone.
    "app.pages.job_detail.state.JobDetailState.avoid_company": Policy(FREELANCER, page="/jobs/{public_job}"),
    "app.pages.job_detail.state.JobDetailState.hide_job": Policy(FREELANCER, page="/jobs/{public_job}"),
    "app.pages.home.HomeState.load": Policy(PUBLIC, page="/"),
    "app.pages.home.HomeState.setvar": SETVAR,
    "app.pages.jobs.JobsState.choose_category": Policy(PUBLIC, {"value": "eventos"}, page="/jobs"),
    "app.pages.jobs.JobsState.choose_guaranteed": Policy(PUBLIC, {"checked": True}, page="/jobs"),
    "app.pages.jobs.JobsState.clear_filters": Policy(PUBLIC, page="/jobs"),
    "app.pages.jobs.JobsState.load": Policy(PUBLIC, page="/jobs?search=gar"),
    "app.pages.jobs.JobsState.setvar": SETVAR,
    "app.pages.jobs.JobsState.submit_search": Policy(PUBLIC, {"form_data": {"search": "garçom"}}, page="/jobs"),
    "app.pages.login.LoginState.clear": Policy(PUBLIC, page="/login"),
    "app.pages.login.LoginState.finished": Policy(PUBLIC, {"result": {"ok": False, "message": "x"}}, page="/login"),
    "app.pages.login.LoginState.setvar": SETVAR,
    "app.pages.login.LoginState.submit": Policy(PUBLIC, {"_form_data": {"email": "a@b.c"}}, page="/login"),
    "app.pages.mailbox.MailboxState.load": Policy(PUBLIC, page="/dev/mailbox"),  # dev only: off in production
    "app.pages.mailbox.MailboxState.setvar": SETVAR,
    "app.pages.recovery.ConfirmEmailState.load": Policy(PUBLIC, page="/confirm-email?token=not-a-token"),
    "app.pages.recovery.ConfirmEmailState.setvar": SETVAR,
    "app.pages.recovery.ForgotPasswordState.reset_form": Policy(PUBLIC, page="/forgot-password"),
    "app.pages.recovery.ForgotPasswordState.setvar": SETVAR,
    "app.pages.recovery.ForgotPasswordState.submit": Policy(
        PUBLIC, {"form_data": {"email": "ninguem@teste.com.br"}}, page="/forgot-password"
    ),
    "app.pages.recovery.ResetPasswordState.load": Policy(PUBLIC, page="/reset-password?token=not-a-token"),
    "app.pages.recovery.ResetPasswordState.setvar": SETVAR,
    "app.pages.recovery.ResetPasswordState.submit": Policy(
        PUBLIC,
        {"form_data": {"password": "outra-senha-123", "confirmPassword": "outra-senha-123"}},
        page="/reset-password?token=not-a-token",
        before=(("load", {}),),
    ),
    "app.pages.register.RegisterState.load": Policy(PUBLIC, page="/register"),
    "app.pages.register.RegisterState.set_tab": Policy(PUBLIC, {"value": "freelancer"}, page="/register"),
    "app.pages.register.RegisterState.setvar": SETVAR,
    "app.pages.register.RegisterState.submit_company": Policy(
        PUBLIC, {"form_data": REGISTER_COMPANY_FORM}, page="/register"
    ),
    "app.pages.register.RegisterState.submit_freelancer": Policy(
        PUBLIC, {"form_data": REGISTER_FREELANCER_FORM}, page="/register"
    ),
    "states.city_picker.CityPickerState.choose": Policy(
        PUBLIC, {"field_id": "job-localizacao", "label": "Curitiba, PR"}, page="/register"
    ),
    "states.city_picker.CityPickerState.close": Policy(PUBLIC, page="/register"),
    "states.city_picker.CityPickerState.setvar": SETVAR,
    "states.city_picker.CityPickerState.type_city": Policy(
        PUBLIC, {"field_id": "freelancer-location", "text": "curit"}, page="/register"
    ),
    "states.shell.ShellState.choose_city": Policy(PUBLIC, {"city": "São Paulo"}),
    "states.shell.ShellState.close_menu": Policy(PUBLIC),
    "states.shell.ShellState.search": Policy(PUBLIC, {"form_data": {"search": "garçom"}}),
    "states.shell.ShellState.setvar": SETVAR,
    "states.shell.ShellState.toggle_menu": Policy(PUBLIC),
    # Session and guards.
    "states.auth.AuthState.guard_admin": Policy(PUBLIC, page="/admin"),
    "states.auth.AuthState.guard_client": Policy(PUBLIC, page="/client-dashboard"),
    "states.auth.AuthState.guard_freelancer": Policy(PUBLIC, page="/freelancer-dashboard"),
    "states.auth.AuthState.guard_signed_in": Policy(PUBLIC, page="/client-dashboard"),
    "states.auth.AuthState.load_session": Policy(PUBLIC),
    "states.auth.AuthState.logout": Policy(PUBLIC, ends_session=True),
    "states.auth.AuthState.redirect_if_signed_in": Policy(PUBLIC, page="/login"),
    "states.auth.AuthState.setvar": SETVAR,
    "states.auth.AuthState.show_flash": Policy(PUBLIC, {"message": "Olá"}),
    # Applying to a job (job page and the freelancer dashboard's search).
    "states.apply.ApplyState.load_for_job": Policy(PUBLIC, page="/jobs/{public_job}"),
    "states.apply.ApplyState.open_apply_dialog": Policy(FREELANCER, {"job_id": Id("public_job")}),
    "states.apply.ApplyState.set_apply_open": Policy(PUBLIC, {"is_open": False}),
    "states.apply.ApplyState.setvar": SETVAR,
    "states.apply.ApplyState.submit_application": Policy(
        FREELANCER,
        {"form_data": {"valor_proposto": "", "mensagem": "Tenho experiência."}},
        before=(("open_apply_dialog", {"job_id": Id("public_job")}),),
    ),
    # Freelancer dashboard.
    "app.pages.freelancer_dashboard.state.FreelancerDashboardState.choose_job_category": Policy(
        FREELANCER, {"value": "eventos"}, page="/freelancer-dashboard?tab=jobs"
    ),
    "app.pages.freelancer_dashboard.state.FreelancerDashboardState.choose_regime": Policy(PUBLIC, {"value": "mei"}),
    "app.pages.freelancer_dashboard.state.FreelancerDashboardState.clear_job_filters": Policy(FREELANCER),
    "app.pages.freelancer_dashboard.state.FreelancerDashboardState.save_fiscal_data": Policy(
        FREELANCER,
        {"form_data": {"cpf": "529.982.247-25", "regime": "autonomo"}},
        page="/freelancer-dashboard?tab=earnings",
    ),
    "app.pages.freelancer_dashboard.state.FreelancerDashboardState.start_payout_onboarding": Policy(
        FREELANCER, page="/freelancer-dashboard?tab=earnings"
    ),
    "app.pages.freelancer_dashboard.state.FreelancerDashboardState.close_rating": Policy(SIGNED_IN, {"open_": False}),
    "app.pages.freelancer_dashboard.state.FreelancerDashboardState.load": Policy(
        FREELANCER, page="/freelancer-dashboard?tab=applications"
    ),
    "app.pages.freelancer_dashboard.state.FreelancerDashboardState.open_rating": Policy(
        SIGNED_IN, {"application_id": Id("rating")}, page="/freelancer-dashboard"
    ),
    "app.pages.freelancer_dashboard.state.FreelancerDashboardState.pick_stars": Policy(SIGNED_IN, {"stars": 5}),
    "app.pages.freelancer_dashboard.state.FreelancerDashboardState.setvar": SETVAR,
    "app.pages.freelancer_dashboard.state.FreelancerDashboardState.submit_job_search": Policy(
        FREELANCER, {"form_data": {"search": "garçom"}}, page="/freelancer-dashboard?tab=jobs"
    ),
    "app.pages.freelancer_dashboard.state.FreelancerDashboardState.submit_rating": Policy(
        SIGNED_IN, {"form_data": {"comment": "Ótima empresa."}}, page="/freelancer-dashboard", before=RATING_STEPS
    ),
    "app.pages.freelancer_dashboard.state.FreelancerDashboardState.withdraw_application": Policy(
        FREELANCER, {"application_id": Id("application")}, page="/freelancer-dashboard?tab=applications"
    ),
    # Company dashboard.
    "app.pages.client_dashboard.ClientDashboardState.close_rating": Policy(SIGNED_IN, {"open_": False}),
    "app.pages.client_dashboard.ClientDashboardState.load": Policy(COMPANY, page="/client-dashboard?tab=hirings"),
    "app.pages.client_dashboard.ClientDashboardState.open_rating": Policy(
        SIGNED_IN, {"application_id": Id("rating")}, page="/client-dashboard"
    ),
    "app.pages.client_dashboard.ClientDashboardState.pick_stars": Policy(SIGNED_IN, {"stars": 5}),
    "app.pages.client_dashboard.ClientDashboardState.save_company_cnpj": Policy(
        COMPANY, {"form_data": {"cnpj": "11.222.333/0001-81"}}, page="/client-dashboard?tab=payments"
    ),
    "app.pages.client_dashboard.ClientDashboardState.setvar": SETVAR,
    "app.pages.client_dashboard.ClientDashboardState.submit_rating": Policy(
        SIGNED_IN, {"form_data": {"comment": "Ótimo profissional."}}, page="/client-dashboard", before=RATING_STEPS
    ),
    # Minhas Vagas.
    "app.pages.company_jobs.state.CompanyJobsState.accept_application": Policy(
        COMPANY, {"application_id": Id("application")}
    ),
    # 'Aceitar e pagar R$ X': Stripe is not configured in the test server, so an own call stops at the Checkout.
    "app.pages.company_jobs.state.CompanyJobsState.accept_and_pay": Policy(
        COMPANY, {"application_id": Id("application")}
    ),
    "app.pages.company_jobs.state.CompanyJobsState.archive": Policy(COMPANY, {"job_id": Id("job")}),
    "app.pages.company_jobs.state.CompanyJobsState.ask_close": Policy(
        COMPANY, {"job_id": Id("job")}, page="/client-dashboard?tab=jobs", before=(("load", {}),)
    ),
    "app.pages.company_jobs.state.CompanyJobsState.ask_delete": Policy(
        COMPANY, {"job_id": Id("job")}, page="/client-dashboard?tab=jobs", before=(("load", {}),)
    ),
    "app.pages.company_jobs.state.CompanyJobsState.close_job": Policy(COMPANY, {"job_id": Id("job")}),
    "app.pages.company_jobs.state.CompanyJobsState.delete_job": Policy(COMPANY, {"job_id": Id("job")}),
    "app.pages.company_jobs.state.CompanyJobsState.add_duplicate_date": Policy(COMPANY),
    "app.pages.company_jobs.state.CompanyJobsState.ask_duplicate": Policy(
        COMPANY, {"job_id": Id("job")}, page="/client-dashboard?tab=jobs", before=(("load", {}),)
    ),
    "app.pages.company_jobs.state.CompanyJobsState.choose_payment": Policy(PUBLIC, {"value": "garantido"}),
    "app.pages.company_jobs.state.CompanyJobsState.clear_point": Policy(COMPANY),
    "app.pages.company_jobs.state.CompanyJobsState.duplicate": Policy(
        COMPANY,
        {"form_data": {"data_0": shift_day(5).isoformat()}},
        page="/client-dashboard?tab=jobs",
        before=(("load", {}), ("ask_duplicate", {"job_id": Id("job")})),
    ),
    "app.pages.company_jobs.state.CompanyJobsState.point_marked": Policy(
        COMPANY, {"reading": {"lat": -23.5614, "lng": -46.6558}}
    ),
    "app.pages.company_jobs.state.CompanyJobsState.set_duplicate_open": Policy(COMPANY, {"value": False}),
    "app.pages.company_jobs.state.CompanyJobsState.load": Policy(COMPANY, page="/client-dashboard?tab=jobs"),
    "app.pages.company_jobs.state.CompanyJobsState.more_active_jobs": Policy(COMPANY, before=(("load", {}),)),
    "app.pages.company_jobs.state.CompanyJobsState.more_applicants": Policy(
        COMPANY, before=(("open_applications", {"job_id": Id("job")}),)
    ),
    "app.pages.company_jobs.state.CompanyJobsState.more_archived_jobs": Policy(COMPANY, before=(("load", {}),)),
    "app.pages.company_jobs.state.CompanyJobsState.more_closed_jobs": Policy(COMPANY, before=(("load", {}),)),
    "app.pages.company_jobs.state.CompanyJobsState.open_applications": Policy(COMPANY, {"job_id": Id("job")}),
    "app.pages.company_jobs.state.CompanyJobsState.open_publish": Policy(COMPANY),
    "app.pages.company_jobs.state.CompanyJobsState.publish": Policy(
        COMPANY, {"form_data": JOB_FORM}, before=(("open_publish", {}),)
    ),
    "app.pages.company_jobs.state.CompanyJobsState.reject_application": Policy(
        COMPANY, {"application_id": Id("application")}
    ),
    # A box ticked in the caller's own tab: it writes nothing; the accept handlers decide on the server.
    "app.pages.company_jobs.state.CompanyJobsState.acknowledge_bond": Policy(
        PUBLIC, {"application_id": 1, "checked": True}
    ),
    "app.pages.company_jobs.state.CompanyJobsState.block_freelancer": Policy(
        COMPANY, {"freelancer_id": Id("freelancer")}
    ),
    "app.pages.company_jobs.state.CompanyJobsState.unblock_freelancer": Policy(
        COMPANY, {"freelancer_id": Id("freelancer")}
    ),
    "app.pages.company_jobs.state.CompanyJobsState.restore": Policy(COMPANY, {"job_id": Id("job")}),
    "app.pages.company_jobs.state.CompanyJobsState.reopen": Policy(COMPANY, {"job_id": Id("job")}),
    "app.pages.company_jobs.state.CompanyJobsState.set_applications_open": Policy(COMPANY, {"value": False}),
    "app.pages.company_jobs.state.CompanyJobsState.set_confirm_open": Policy(COMPANY, {"value": False}),
    "app.pages.company_jobs.state.CompanyJobsState.set_profile_open": Policy(COMPANY, {"value": False}),
    "app.pages.company_jobs.state.CompanyJobsState.set_publish_open": Policy(COMPANY, {"value": True}),
    "app.pages.company_jobs.state.CompanyJobsState.set_break_minutes": Policy(PUBLIC, {"value": "30"}),
    "app.pages.company_jobs.state.CompanyJobsState.toggle_break": Policy(PUBLIC, {"checked": True}),
    "app.pages.company_jobs.state.CompanyJobsState.set_search": Policy(COMPANY, {"value": "gar"}),
    "app.pages.company_jobs.state.CompanyJobsState.setvar": SETVAR,
    "app.pages.company_jobs.state.CompanyJobsState.view_profile": Policy(COMPANY, {"freelancer_id": Id("freelancer")}),
    # Shift cards (ShiftsMixin): each side acts on its own hirings; the freelancer asks reviews of their faltas.
    **shift_policies("app.pages.freelancer_dashboard.state.FreelancerDashboardState", FREELANCER, FREELANCER_SHIFTS),
    **shift_policies("app.pages.client_dashboard.ClientDashboardState", COMPANY, COMPANY_SHIFTS),
    **shift_policies("app.pages.attendance_code.AttendanceCodeState", COMPANY, COMPANY_SHIFTS),
    # 'Pagar R$ X' on the company's cards (PayShiftMixin): Stripe Checkout of the company's own hiring only.
    "app.pages.client_dashboard.ClientDashboardState.pay_shift": Policy(
        COMPANY, {"hiring_id": Id("hiring")}, page=COMPANY_SHIFTS
    ),
    "app.pages.client_dashboard.ClientDashboardState.add_to_team": Policy(
        COMPANY, {"hiring_id": Id("hiring")}, page=COMPANY_SHIFTS
    ),
    "app.pages.client_dashboard.ClientDashboardState.remove_from_team": Policy(
        COMPANY, {"freelancer_id": Id("freelancer")}, page="/client-dashboard?tab=team"
    ),
    "app.pages.client_dashboard.ClientDashboardState.open_invite": Policy(
        COMPANY, {"freelancer_id": Id("freelancer")}, page="/client-dashboard?tab=team"
    ),
    # 'Contratar novamente' on a shift card: the company's own hiring by id (another's reads as missing).
    "app.pages.client_dashboard.ClientDashboardState.rebook_shift": Policy(
        COMPANY, {"hiring_id": Id("hiring")}, page=COMPANY_SHIFTS
    ),
    "app.pages.client_dashboard.ClientDashboardState.set_invite_open": Policy(
        PUBLIC, {"value": False}, page="/client-dashboard?tab=team"
    ),
    # Boxes and fields of the caller's own dialog: nothing is written until send_invite.
    "app.pages.client_dashboard.ClientDashboardState.acknowledge_invite_bond": Policy(
        PUBLIC, {"checked": True}, page="/client-dashboard?tab=team"
    ),
    # The dialog's date or start: only the caller's own thermometer is read again (the dialog must be open).
    "app.pages.client_dashboard.ClientDashboardState.change_invite_start": Policy(
        COMPANY, {"field": "data", "value": "2030-01-05"}, page="/client-dashboard?tab=team"
    ),
    "app.pages.client_dashboard.ClientDashboardState.send_invite": Policy(
        COMPANY,
        {"form_data": {"data": "2030-01-05", "inicio": "18:00", "fim": "23:00", "valor_hora": "40", "mensagem": ""}},
        page="/client-dashboard?tab=team",
    ),
    # Invites are answered by id; a missing one is refused and nothing is written (tests/unit/trust/test_invites.py
    # proves another company's and another freelancer's are refused the same way).
    "app.pages.client_dashboard.ClientDashboardState.cancel_invite": Policy(
        COMPANY, {"invite_id": 987654}, page="/client-dashboard?tab=team"
    ),
    "app.pages.freelancer_dashboard.state.FreelancerDashboardState.accept_invite": Policy(
        FREELANCER, {"invite_id": 987654}, page="/freelancer-dashboard"
    ),
    "app.pages.freelancer_dashboard.state.FreelancerDashboardState.decline_invite": Policy(
        FREELANCER, {"invite_id": 987654}, page="/freelancer-dashboard"
    ),
    "app.pages.client_dashboard.ClientDashboardState.block_freelancer": Policy(
        COMPANY, {"freelancer_id": Id("freelancer")}, page="/client-dashboard?tab=team"
    ),
    "app.pages.client_dashboard.ClientDashboardState.unblock_freelancer": Policy(
        COMPANY, {"freelancer_id": Id("freelancer")}, page="/client-dashboard?tab=team"
    ),
    # A freelancer avoids a company named by a shift of theirs, never by a company id (issue 41:
    # bare ids listed the companies and traced anonymous vagas). Undoing takes the caller's own
    # block or hidden vaga only: any id is theirs to try, and an unknown one changes nothing.
    "app.pages.freelancer_dashboard.state.FreelancerDashboardState.avoid_worked_company": Policy(
        FREELANCER, {"hiring_id": Id("hiring")}, page="/freelancer-dashboard"
    ),
    "app.pages.freelancer_dashboard.state.FreelancerDashboardState.allow_company": Policy(
        FREELANCER, {"company_id": 987654}, page="/freelancer-dashboard"
    ),
    "app.pages.freelancer_dashboard.state.FreelancerDashboardState.show_job": Policy(
        FREELANCER, {"job_id": Id("public_job")}, page="/freelancer-dashboard"
    ),
    "app.pages.attendance_code.AttendanceCodeState.pay_shift": Policy(
        COMPANY, {"hiring_id": Id("hiring")}, page=COMPANY_SHIFTS
    ),
    "app.pages.attendance_code.AttendanceCodeState.load": Policy(COMPANY, page=CODE_PAGE),
    "app.pages.attendance_code.AttendanceCodeState.refresh": Policy(COMPANY, {"_value": 1}, page=CODE_PAGE),
    "app.pages.attendance_code.AttendanceCodeState.setvar": SETVAR,
    # Conversations.
    "app.pages.chats.state.ChatListState.load_client": Policy(COMPANY, page="/client-dashboard/chats"),
    "app.pages.chats.state.ChatListState.load_freelancer": Policy(FREELANCER, page="/freelancer-dashboard/chats"),
    "app.pages.chats.state.ChatListState.setvar": SETVAR,
    "app.pages.chats.state.ChatRoomState.load_client": Policy(COMPANY, page=COMPANY_CHAT),
    "app.pages.chats.state.ChatRoomState.load_freelancer": Policy(FREELANCER, page=FREELANCER_CHAT),
    "app.pages.chats.state.ChatRoomState.load_older": Policy(
        SIGNED_IN, page=CHAT_PAGE, before=(("load_client", {}), ("load_freelancer", {}))
    ),
    "app.pages.chats.state.ChatRoomState.send_message": Policy(
        SIGNED_IN, {"form_data": {"message": "Bom dia!"}}, page=CHAT_PAGE
    ),
    "app.pages.chats.state.ChatRoomState.setvar": SETVAR,
    "app.pages.chats.state.ChatRoomState.show_latest": Policy(
        SIGNED_IN, page=CHAT_PAGE, before=(("load_client", {}), ("load_freelancer", {}))
    ),
    # A freelancer's profile page (themselves and the companies they applied to).
    "app.pages.freelancer_profile.state.FreelancerProfileState.load": Policy(
        SIGNED_IN, page="/freelancers/{freelancer}"
    ),
    "app.pages.freelancer_profile.state.FreelancerProfileState.more_applications": Policy(
        SIGNED_IN, page="/freelancers/{freelancer}", before=(("load", {}),)
    ),
    "app.pages.freelancer_profile.state.FreelancerProfileState.setvar": SETVAR,
    # Dashboard chrome: profile card, badges, notifications.
    "states.dashboard.DashboardState.close_sheet": Policy(SIGNED_IN),
    "states.dashboard.DashboardState.load_chrome": Policy(SIGNED_IN, page="/client-dashboard"),
    "states.dashboard.DashboardState.load_more_notifications": Policy(SIGNED_IN, before=(("load_chrome", {}),)),
    "states.dashboard.DashboardState.mark_notification_read": Policy(
        SIGNED_IN, {"notification_id": Id("notification")}
    ),
    "states.dashboard.DashboardState.open_sheet": Policy(SIGNED_IN),
    "states.dashboard.DashboardState.setvar": SETVAR,
    # Profile forms and photo.
    "states.profile.ProfileEditState.photo_rejected": Policy(
        PUBLIC, {"rejections": [{"errors": [{"code": "file-too-large"}]}]}
    ),
    "states.profile.ProfileEditState.remove_photo": Policy(SIGNED_IN),
    "states.profile.ProfileEditState.save_company": Policy(COMPANY, {"form_data": COMPANY_PROFILE_FORM}),
    "states.profile.ProfileEditState.save_freelancer": Policy(FREELANCER, {"form_data": FREELANCER_PROFILE_FORM}),
    "states.profile.ProfileEditState.setvar": SETVAR,
    "states.profile.ProfileEditState.upload_photo": Policy(SIGNED_IN, {"files": []}),
    # Settings and account.
    "states.settings.SettingsState.change_password": Policy(
        SIGNED_IN, {"form_data": {"current": "senha-errada-1", "new": "nova-senha-123", "confirm": "nova-senha-123"}}
    ),
    "states.settings.SettingsState.load": Policy(SIGNED_IN),
    "states.settings.SettingsState.enable_push": Policy(SIGNED_IN),
    "states.settings.SettingsState.save_push": Policy(SIGNED_IN, {"answer": {"subscription": PUSH_SUBSCRIPTION}}),
    "states.settings.SettingsState.remove_device": Policy(SIGNED_IN, {"device_id": Id("push_device")}),
    "states.settings.SettingsState.start_whatsapp": Policy(SIGNED_IN, {"form_data": {"phone": "(11) 98765-4321"}}),
    "states.settings.SettingsState.confirm_whatsapp": Policy(SIGNED_IN, {"form_data": {"code": "123456"}}),
    "states.settings.SettingsState.stop_whatsapp": Policy(SIGNED_IN),
    "states.settings.SettingsState.save_notifications": Policy(
        SIGNED_IN, {"form_data": {"email_notifications": True, "push_notifications": False}}
    ),
    "states.settings.SettingsState.save_theme": Policy(SIGNED_IN, {"theme": "dark"}),
    "states.settings.SettingsState.setvar": SETVAR,
    "states.privacy.PrivacyState.delete_account": Policy(SIGNED_IN, {"form_data": {"password": "senha-errada-1"}}),
    "states.privacy.PrivacyState.open_delete": Policy(SIGNED_IN),
    "states.privacy.PrivacyState.set_delete_open": Policy(SIGNED_IN, {"open_": False}),
    "states.privacy.PrivacyState.setvar": SETVAR,
    # Plans (Stripe is not configured in the test server: checkout and portal answer with an error).
    "states.billing.BillingState.load_subscription": Policy(COMPANY, page="/pricing"),
    "states.billing.BillingState.open_portal": Policy(COMPANY, page="/pricing"),
    "states.billing.BillingState.setvar": SETVAR,
    "states.billing.BillingState.start_checkout": Policy(COMPANY, {"plan": "premium"}, page="/pricing"),
    "states.billing.BillingState.watch_checkout": Policy(COMPANY, page="/pricing"),
}
