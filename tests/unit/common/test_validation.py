"""Server-side form validation: the exact messages of docs/product/validation.md §3, and no crash on hostile input."""

import pytest

from services.common.account_forms import (
    CompanyRegistration,
    ContactForm,
    EmailForm,
    FreelancerRegistration,
    LoginForm,
    ResetPasswordForm,
)
from services.common.errors import ValidationFailed
from services.common.validation import CITY_AMBIGUOUS, CITY_UNKNOWN, parse

NAME_SHORT = "Nome deve ter pelo menos 2 caracteres"
EMAIL_INVALID = "Email inválido"
PASSWORD_SHORT = "Senha deve ter pelo menos 8 caracteres"
PASSWORD_WEAK = "Senha deve conter pelo menos uma letra maiúscula, uma minúscula e um número"
MISMATCH = "As senhas não conferem"
LOCATION_REQUIRED = "Localização é obrigatória"
COMPANY_SHORT = "Nome da empresa deve ter pelo menos 2 caracteres"
INDUSTRY_REQUIRED = "Indústria deve ser selecionada"
URL_INVALID = "URL inválida"
PROFESSION_SHORT = "Profissão deve ter pelo menos 2 caracteres"
SKILLS_SHORT = "Habilidades devem ter pelo menos 2 caracteres"
PASSWORD_REQUIRED = "Senha é obrigatória"
CONTACT_NAME_SHORT = "O nome deve ter pelo menos 3 caracteres"
CONTACT_EMAIL_INVALID = "Por favor, insira um email válido"
CONTACT_SUBJECT_REQUIRED = "Por favor, selecione um assunto"
CONTACT_MESSAGE_SHORT = "A mensagem deve ter pelo menos 10 caracteres"

PASSWORD = "Segura123"
COMPANY = {
    "name": "Ana Souza",
    "email": "ana@hotel.com.br",
    "password": PASSWORD,
    "confirmPassword": PASSWORD,
    "company": "Hotel Central",
    "industry": "hotel",
    "location": "São Paulo, SP",
    "description": "",
    "website": "",
}
FREELANCER = {
    "name": "João Lima",
    "email": "joao@exemplo.com",
    "password": PASSWORD,
    "confirmPassword": PASSWORD,
    "profession": "Garçom",
    "skills": "atendimento, organização",
    "location": "Rio de Janeiro, RJ",
    "experience": "",
}
LOGIN = {"email": "ana@hotel.com.br", "password": PASSWORD}
RECOVERY = {"email": "ana@hotel.com.br"}
RESET = {"password": PASSWORD, "confirmPassword": PASSWORD}
CONTACT = {
    "name": "Ana Souza",
    "email": "ana@hotel.com.br",
    "phone": "",
    "subject": "general",
    "message": "Gostaria de saber mais sobre os planos.",
}

FORMS = [
    pytest.param(CompanyRegistration, COMPANY, id="company"),
    pytest.param(FreelancerRegistration, FREELANCER, id="freelancer"),
    pytest.param(LoginForm, LOGIN, id="login"),
    pytest.param(EmailForm, RECOVERY, id="recovery"),
    pytest.param(ResetPasswordForm, RESET, id="reset"),
    pytest.param(ContactForm, CONTACT, id="contact"),
]

# Every message of every form, by the field it belongs to, with a value that breaks the rule.
SHARED_REGISTRATION_CASES = [
    ("name", "A", NAME_SHORT),
    ("name", "", NAME_SHORT),
    ("email", "ana-sem-arroba.com", EMAIL_INVALID),
    ("email", "ana@", EMAIL_INVALID),
    ("email", "", EMAIL_INVALID),
    ("password", "Ab1", PASSWORD_SHORT),
    ("password", "", PASSWORD_SHORT),
    ("password", "semmaiuscula1", PASSWORD_WEAK),
    ("password", "SEMMINUSCULA1", PASSWORD_WEAK),
    ("password", "SemNumeroAqui", PASSWORD_WEAK),
    ("confirmPassword", "Segura124", MISMATCH),
    ("confirmPassword", "", MISMATCH),
    ("location", "", LOCATION_REQUIRED),
    ("location", "X", LOCATION_REQUIRED),
    ("location", "Cidade Inventada", CITY_UNKNOWN),  # cities come from the IBGE list
    ("location", "Bonito", CITY_AMBIGUOUS),
]
CASES = [
    *[
        pytest.param(CompanyRegistration, COMPANY, *case, id=f"company-{case[0]}-{i}")
        for i, case in enumerate(SHARED_REGISTRATION_CASES)
    ],
    *[
        pytest.param(FreelancerRegistration, FREELANCER, *case, id=f"freelancer-{case[0]}-{i}")
        for i, case in enumerate(SHARED_REGISTRATION_CASES)
    ],
    pytest.param(CompanyRegistration, COMPANY, "company", "H", COMPANY_SHORT, id="company-company"),
    pytest.param(CompanyRegistration, COMPANY, "company", "", COMPANY_SHORT, id="company-company-empty"),
    pytest.param(CompanyRegistration, COMPANY, "industry", "", INDUSTRY_REQUIRED, id="company-industry-empty"),
    pytest.param(
        CompanyRegistration, COMPANY, "industry", "mineração", INDUSTRY_REQUIRED, id="company-industry-unknown"
    ),
    pytest.param(CompanyRegistration, COMPANY, "website", "não é url", URL_INVALID, id="company-website"),
    pytest.param(CompanyRegistration, COMPANY, "website", "javascript:alert(1)", URL_INVALID, id="company-website-js"),
    pytest.param(CompanyRegistration, COMPANY, "website", "ftp://hotel.com.br", URL_INVALID, id="company-website-ftp"),
    pytest.param(FreelancerRegistration, FREELANCER, "profession", "C", PROFESSION_SHORT, id="freelancer-profession"),
    pytest.param(
        FreelancerRegistration, FREELANCER, "profession", "", PROFESSION_SHORT, id="freelancer-profession-empty"
    ),
    pytest.param(FreelancerRegistration, FREELANCER, "skills", "a", SKILLS_SHORT, id="freelancer-skills"),
    pytest.param(FreelancerRegistration, FREELANCER, "skills", "", SKILLS_SHORT, id="freelancer-skills-empty"),
    pytest.param(LoginForm, LOGIN, "email", "ana@@hotel", EMAIL_INVALID, id="login-email"),
    pytest.param(LoginForm, LOGIN, "email", "", EMAIL_INVALID, id="login-email-empty"),
    pytest.param(LoginForm, LOGIN, "password", "", PASSWORD_REQUIRED, id="login-password"),
    pytest.param(EmailForm, RECOVERY, "email", "ana", EMAIL_INVALID, id="recovery-email"),
    pytest.param(EmailForm, RECOVERY, "email", "", EMAIL_INVALID, id="recovery-email-empty"),
    pytest.param(ResetPasswordForm, RESET, "password", "Ab1", PASSWORD_SHORT, id="reset-password-short"),
    pytest.param(ResetPasswordForm, RESET, "password", "semmaiuscula1", PASSWORD_WEAK, id="reset-password-weak"),
    pytest.param(ResetPasswordForm, RESET, "confirmPassword", "Outra123", MISMATCH, id="reset-mismatch"),
    pytest.param(ContactForm, CONTACT, "name", "Al", CONTACT_NAME_SHORT, id="contact-name"),
    pytest.param(ContactForm, CONTACT, "email", "ana.hotel.com", CONTACT_EMAIL_INVALID, id="contact-email"),
    pytest.param(ContactForm, CONTACT, "subject", "", CONTACT_SUBJECT_REQUIRED, id="contact-subject-empty"),
    pytest.param(ContactForm, CONTACT, "subject", "spam", CONTACT_SUBJECT_REQUIRED, id="contact-subject-unknown"),
    pytest.param(ContactForm, CONTACT, "message", "Curta", CONTACT_MESSAGE_SHORT, id="contact-message"),
]

# What an empty submission of each form answers (also the answer to a missing or non-dict payload).
# The confirmation is only compared once the password itself is acceptable.
EMPTY_FORM_ERRORS = {
    CompanyRegistration: {
        "name": NAME_SHORT,
        "email": EMAIL_INVALID,
        "password": PASSWORD_SHORT,
        "location": LOCATION_REQUIRED,
        "company": COMPANY_SHORT,
        "industry": INDUSTRY_REQUIRED,
    },
    FreelancerRegistration: {
        "name": NAME_SHORT,
        "email": EMAIL_INVALID,
        "password": PASSWORD_SHORT,
        "location": LOCATION_REQUIRED,
        "profession": PROFESSION_SHORT,
        "skills": SKILLS_SHORT,
    },
    LoginForm: {"email": EMAIL_INVALID, "password": PASSWORD_REQUIRED},
    EmailForm: {"email": EMAIL_INVALID},
    ResetPasswordForm: {"password": PASSWORD_SHORT},
    ContactForm: {
        "name": CONTACT_NAME_SHORT,
        "email": CONTACT_EMAIL_INVALID,
        "subject": CONTACT_SUBJECT_REQUIRED,
        "message": CONTACT_MESSAGE_SHORT,
    },
}


def _errors(schema, data) -> dict[str, str]:
    with pytest.raises(ValidationFailed) as caught:
        parse(schema, data)
    return caught.value.field_errors


@pytest.mark.parametrize(("schema", "valid"), FORMS)
def test_valid_payload_is_accepted(schema, valid):
    form = parse(schema, dict(valid))

    assert isinstance(form, schema)


@pytest.mark.parametrize(("schema", "valid", "field", "value", "message"), CASES)
def test_broken_field_gives_its_spec_message(schema, valid, field, value, message):
    errors = _errors(schema, {**valid, field: value})

    assert errors == {field: message}


@pytest.mark.parametrize(("schema", "valid", "field", "value", "message"), CASES)
def test_whitespace_counts_as_empty(schema, valid, field, value, message):
    if value.strip():
        # the same break, padded: surrounding spaces never make a value valid
        assert _errors(schema, {**valid, field: f"   {value}\t "}) == {field: message}
    else:
        assert _errors(schema, {**valid, field: " \t\n "}) == {field: message}


@pytest.mark.parametrize("schema", EMPTY_FORM_ERRORS)
def test_empty_submission_lists_every_required_field(schema):
    assert _errors(schema, {}) == EMPTY_FORM_ERRORS[schema]


@pytest.mark.parametrize("schema", EMPTY_FORM_ERRORS)
@pytest.mark.parametrize("payload", [None, "texto", 42, ["email", "password"], ("a", "b")], ids=repr)
def test_non_dict_payload_is_refused_with_messages(schema, payload):
    assert _errors(schema, payload) == EMPTY_FORM_ERRORS[schema]


@pytest.mark.parametrize("schema", EMPTY_FORM_ERRORS)
@pytest.mark.parametrize("bad", [None, [], ["Segura123"], {"a": 1}, b"bytes"], ids=repr)
def test_wrong_types_give_messages_not_exceptions(schema, bad):
    payload = dict.fromkeys(schema.model_fields, bad)

    errors = _errors(schema, payload)

    for field, message in EMPTY_FORM_ERRORS[schema].items():
        assert errors[field] == message


@pytest.mark.parametrize(("schema", "valid"), FORMS)
@pytest.mark.parametrize("number", [0, 7, 12345678, 3.5, float("nan"), True])
def test_numbers_never_raise_anything_but_validation(schema, valid, number):
    for field in valid:
        try:
            form = parse(schema, {**valid, field: number})
        except ValidationFailed as exc:
            assert set(exc.field_errors) <= set(schema.model_fields)
        else:
            assert getattr(form, field) == str(number)


def test_list_password_is_not_turned_into_a_valid_password():
    errors = _errors(ResetPasswordForm, {"password": ["Segura123"], "confirmPassword": ["Segura123"]})

    assert errors["password"] == PASSWORD_SHORT


@pytest.mark.parametrize(("schema", "valid"), FORMS)
def test_extra_keys_are_ignored(schema, valid):
    form = parse(schema, {**valid, "role": "admin", "id": 1, "is_active": False, 3: "int key"})

    dumped = form.model_dump()
    assert "role" not in dumped
    assert "id" not in dumped
    assert "is_active" not in dumped


HUGE = "x" * 1_000_000


@pytest.mark.parametrize(("schema", "valid"), FORMS)
def test_huge_values_are_truncated_or_refused(schema, valid):
    for field in valid:
        try:
            form = parse(schema, {**valid, field: HUGE})
        except ValidationFailed as exc:
            assert field in exc.field_errors
        else:
            assert len(getattr(form, field)) <= 5000


@pytest.mark.parametrize(
    ("field", "limit"),
    [("name", 120), ("company", 160), ("description", 2000)],
)
def test_company_long_text_is_truncated_to_the_column_size(field, limit):
    form = parse(CompanyRegistration, {**COMPANY, field: "Á" * (limit + 50)})

    assert getattr(form, field) == "Á" * limit


def test_long_password_is_refused():
    long_password = "Aa1" * 100

    errors = _errors(ResetPasswordForm, {"password": long_password, "confirmPassword": long_password})

    assert errors == {"password": PASSWORD_WEAK}


def test_email_is_trimmed_and_lower_cased():
    form = parse(LoginForm, {"email": "  Ana@Hotel.COM.br ", "password": PASSWORD})

    assert form.email == "ana@hotel.com.br"


def test_overlong_email_is_invalid():
    assert _errors(EmailForm, {"email": "a" * 250 + "@b.com"}) == {"email": EMAIL_INVALID}


def test_nul_characters_are_removed():
    form = parse(CompanyRegistration, {**COMPANY, "company": "Hotel\x00 Central"})

    assert form.company == "Hotel Central"


@pytest.mark.parametrize("skills", [",,", ", ,", " , , ,", "0,", ", a ,"])
def test_skills_are_judged_as_stored(skills):
    """Found by tests/unit/common/test_fuzz_forms.py: ', ,' and '0,' passed 'min 2' but were stored as no skill or '0'."""
    assert _errors(FreelancerRegistration, {**FREELANCER, "skills": skills}) == {"skills": SKILLS_SHORT}


def test_control_characters_and_lone_surrogates_are_removed():
    """Found by tests/unit/common/test_fuzz_forms.py: ESC, C1 controls and lone surrogates reached the rows."""
    form = parse(CompanyRegistration, {**COMPANY, "company": "\x1bHotel\x85\x9f \ud800Central\udfff\x7f"})

    assert form.company == "Hotel Central"


def test_a_name_of_control_characters_only_is_empty():
    """Found by tests/unit/common/test_fuzz_forms.py: '\\x80\\x80' passed as a two-character name."""
    assert _errors(CompanyRegistration, {**COMPANY, "name": "\x80\x81\x1b"}) == {"name": NAME_SHORT}


def test_tabs_and_line_breaks_are_kept():
    form = parse(ContactForm, {**CONTACT, "message": "Linha 1\r\n\tLinha 2 🙂"})

    assert form.message == "Linha 1\r\n\tLinha 2 🙂"


@pytest.mark.parametrize("website", ["https://hotel.com.br", "http://www.hotel.com.br/sobre", ""])
def test_website_is_optional_or_a_url(website):
    assert parse(CompanyRegistration, {**COMPANY, "website": website}).website == website


@pytest.mark.parametrize(
    ("value", "expected"), [("on", True), ("true", True), (True, True), ("", False), (False, False)]
)
def test_login_remember_me(value, expected):
    assert parse(LoginForm, {**LOGIN, "remember": value}).remember_me is expected


@pytest.mark.parametrize(
    ("schema", "valid"),
    [(CompanyRegistration, COMPANY), (FreelancerRegistration, FREELANCER), (ResetPasswordForm, RESET)],
)
def test_missing_confirmation_is_a_mismatch(schema, valid):
    payload = {key: value for key, value in valid.items() if key != "confirmPassword"}

    assert _errors(schema, payload) == {"confirmPassword": MISMATCH}


def test_confirmation_is_not_compared_while_the_password_is_refused():
    assert _errors(ResetPasswordForm, {"password": "fraca", "confirmPassword": "outra"}) == {"password": PASSWORD_SHORT}
