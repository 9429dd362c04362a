import pytest

from models import Profile, Role, UserPreferences
from services.accounts import profiles
from services.common.errors import NotAllowed, ValidationFailed
from tests.support.factories import make_user

VALID = {
    "empresa": "Hotel Atlântico",
    "biografia": "Hotel boutique no centro de São Paulo.",
    "endereco": "Rua Augusta, 100",
    "telefone": "(11) 98765-4321",
    "website": "https://hotelatlantico.com.br",
    "instagram": "@hotelatlantico",
    "facebook": "https://facebook.com/hotelatlantico",
    "linkedin": "",
}


def test_get_own_profile_of_a_company(db):
    company = make_user(
        db, "empresa@x.com", Role.CLIENT, nome="Mariana Costa", empresa="Hotel", industria="hotel", localizacao="SP"
    )

    view = profiles.get_own_profile(db, company.id)

    assert view["nome"] == "Mariana Costa"
    assert view["email"] == "empresa@x.com"
    assert view["initials"] == "MC"
    assert view["industria"] == "Hotelaria"
    assert view["instagram"] == ""


def test_get_own_profile_of_a_missing_user_is_refused(db):
    with pytest.raises(NotAllowed):
        profiles.get_own_profile(db, 12345)


def test_update_company_profile_saves_the_form(db):
    company = make_user(db, "empresa@x.com", Role.CLIENT, nome="Mariana Costa")

    view = profiles.update_company_profile(db, company.id, {**VALID, "biografia": "  " + VALID["biografia"] + " "})

    stored = db.get(Profile, company.id)
    assert stored.empresa == "Hotel Atlântico"
    assert stored.biografia == VALID["biografia"]
    assert stored.endereco == "Rua Augusta, 100"
    assert stored.telefone == "(11) 98765-4321"
    assert stored.redes_sociais == {"instagram": "@hotelatlantico", "facebook": VALID["facebook"], "linkedin": ""}
    assert view["website"] == VALID["website"]


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("biografia", "curta", "A biografia deve ter pelo menos 10 caracteres"),
        ("endereco", "Rua", "Endereço é obrigatório"),
        ("telefone", "12345", "Telefone inválido"),
        ("telefone", "abcdefghijkl", "Telefone inválido"),
        ("telefone", "١١٩٨٧٦٥٤٣٢١", "Telefone inválido"),
        ("telefone", "11\n98765-4321", "Telefone inválido"),
        ("website", "não é url", "URL inválida"),
        ("instagram", "javascript:alert(1)", "URL inválida"),
    ],
)
def test_update_company_profile_validates_fields(db, field, value, message):
    company = make_user(db, "empresa@x.com", Role.CLIENT, nome="Mariana Costa")

    with pytest.raises(ValidationFailed) as error:
        profiles.update_company_profile(db, company.id, {**VALID, field: value})

    assert error.value.field_errors[field] == message
    assert db.get(Profile, company.id).biografia == ""


def test_update_company_profile_reports_missing_fields(db):
    company = make_user(db, "empresa@x.com", Role.CLIENT)

    with pytest.raises(ValidationFailed) as error:
        profiles.update_company_profile(db, company.id, {})

    assert error.value.field_errors == {
        "empresa": "Nome da empresa deve ter pelo menos 2 caracteres",
        "biografia": "A biografia deve ter pelo menos 10 caracteres",
        "endereco": "Endereço é obrigatório",
        "telefone": "Telefone inválido",
    }


def test_update_company_profile_refuses_a_freelancer(db):
    freelancer = make_user(db, "free@x.com", Role.FREELANCER, nome="João")

    with pytest.raises(NotAllowed):
        profiles.update_company_profile(db, freelancer.id, VALID)
    assert db.get(Profile, freelancer.id).biografia == ""


def test_get_preferences_shows_persisted_values(db):
    user = make_user(db, "free@x.com", Role.FREELANCER)
    prefs = db.get(UserPreferences, user.id)
    prefs.theme = "dark"
    prefs.marketing_emails = True
    db.add(prefs)
    db.flush()

    view = profiles.get_preferences(db, user.id)

    assert view["theme"] == "dark"
    assert view["theme_label"] == "Escuro"
    assert view["language"] == "Português (Brasil)"
    assert {s["label"]: s["enabled"] for s in view["switches"]}["Emails de marketing"] is True


def test_get_security_counts_live_sessions(db):
    user = make_user(db, "free@x.com", Role.FREELANCER)

    view = profiles.get_security(db, user.id)

    assert view["email"] == "free@x.com"
    assert view["active_sessions"] == 0
    assert view["confirmed"] != ""
