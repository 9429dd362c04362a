"""The profile forms (services/common/profile_forms.py) and saving them (services/accounts/profiles.py)."""

import pytest
from sqlmodel import select

from core.types import utcnow
from models import Profile, User
from services.accounts import profiles
from services.common.errors import NotAllowed, ValidationFailed
from services.common.profile_forms import CompanyProfileForm, FreelancerProfileForm
from services.common.validation import parse
from tests.support.factories import COMPANY_PROFILE_FORM as COMPANY
from tests.support.factories import FREELANCER_PROFILE_FORM as FREELANCER
from tests.support.factories import make_company, make_freelancer

NOME_CURTO = "Nome deve ter pelo menos 2 caracteres"
NOT_ALLOWED = "Você precisa estar logado para atualizar seu perfil."


def freelancer_errors(data) -> dict[str, str]:
    with pytest.raises(ValidationFailed) as error:
        parse(FreelancerProfileForm, data)
    return error.value.field_errors


def profile_row(db, user) -> tuple:
    db.expire_all()
    p = db.get(Profile, user.id)
    return (
        p.nome,
        p.telefone,
        p.endereco,
        p.localizacao,
        p.profissao,
        list(p.habilidades or []),
        p.biografia,
        p.experiencia_descricao,
        p.website,
        p.foto_url,
        p.empresa,
        p.redes_sociais,
    )


# --- FreelancerProfileForm -----------------------------------------------------------------------


def test_a_complete_freelancer_form_is_accepted_and_stripped():
    form = parse(FreelancerProfileForm, {key: f"  {value}  " for key, value in FREELANCER.items()})

    assert form.model_dump() == FREELANCER
    assert form.skills == ["Drinks clássicos", "Inglês", "Caixa"]


def test_only_the_name_is_required():
    form = parse(FreelancerProfileForm, {"nome": "Jo"})

    assert form.nome == "Jo"
    assert (form.telefone, form.endereco, form.localizacao, form.profissao) == ("", "", "", "")
    assert (form.habilidades, form.biografia, form.experiencia, form.website) == ("", "", "", "")
    assert form.skills == []


@pytest.mark.parametrize("nome", ["", " ", "J", "  J  ", None, ["João"], {"x": 1}])
def test_the_name_needs_at_least_two_characters(nome):
    assert freelancer_errors({**FREELANCER, "nome": nome}) == {"nome": NOME_CURTO}


def test_a_missing_name_gets_the_same_message():
    data = dict(FREELANCER)
    del data["nome"]

    assert freelancer_errors(data) == {"nome": NOME_CURTO}


def test_a_very_long_name_is_cut_to_120_characters():
    assert parse(FreelancerProfileForm, {"nome": "J" * 500}).nome == "J" * 120


@pytest.mark.parametrize(
    "website",
    [
        "https://joao.com.br",
        "http://joao.com",
        "https://www.joao.com.br/portfolio?aba=drinks",
        "HTTPS://JOAO.COM",
        "",
        "   ",
    ],
)
def test_a_website_is_a_url_or_empty(website):
    assert parse(FreelancerProfileForm, {**FREELANCER, "website": website}).website == website.strip()


@pytest.mark.parametrize(
    "website",
    [
        "joao.com.br",
        "www.joao.com.br",
        "ftp://joao.com",
        "javascript:alert(1)//joao.com",
        "https://",
        "https://joao",
        "https://joao .com",
        "não é url",
        "https://joao.com/" + "a" * 300,
    ],
)
def test_a_malformed_website_is_an_invalid_url(website):
    assert freelancer_errors({**FREELANCER, "website": website}) == {"website": "URL inválida"}


@pytest.mark.parametrize("telefone", ["", "   ", "(11) 98765-4321", "11987654321", "+55 11 98765-4321", "11.3456.7890"])
def test_the_phone_is_optional_but_well_formed(telefone):
    assert parse(FreelancerProfileForm, {**FREELANCER, "telefone": telefone}).telefone == telefone.strip()


@pytest.mark.parametrize(
    "telefone",
    [
        "123",
        "98765-432",
        "abcdefghijkl",
        "(11) 9876-543",
        "+55 (11) 98765-43210",
        "11 98765-4321 ramal 2",
        "11\n98765-4321",
        "١١٩٨٧٦٥٤٣٢١",
        "1" * 31,
    ],
)
def test_a_malformed_phone_is_invalid(telefone):
    assert freelancer_errors({**FREELANCER, "telefone": telefone}) == {"telefone": "Telefone inválido"}


@pytest.mark.parametrize(
    ("field", "limit", "message"),
    [
        ("endereco", 200, "Endereço deve ter no máximo 200 caracteres"),
        ("profissao", 120, "Use no máximo 120 caracteres"),
        ("habilidades", 1000, "Habilidades devem ter no máximo 1.000 caracteres"),
        ("biografia", 2000, "A biografia deve ter no máximo 2.000 caracteres"),
        ("experiencia", 4000, "A experiência deve ter no máximo 4.000 caracteres"),
    ],
)
def test_max_lengths(field, limit, message):
    assert getattr(parse(FreelancerProfileForm, {**FREELANCER, field: "a" * limit}), field) == "a" * limit
    assert freelancer_errors({**FREELANCER, field: "a" * (limit + 1)}) == {field: message}


def test_every_failing_field_is_reported_at_once():
    data = {"nome": "J", "telefone": "12", "website": "x", "endereco": "e" * 201, "biografia": "b" * 2001}

    assert freelancer_errors(data) == {
        "nome": NOME_CURTO,
        "telefone": "Telefone inválido",
        "website": "URL inválida",
        "endereco": "Endereço deve ter no máximo 200 caracteres",
        "biografia": "A biografia deve ter no máximo 2.000 caracteres",
    }


@pytest.mark.parametrize(
    ("text", "skills"),
    [
        ("Bandeja, Inglês, Vinhos", ["Bandeja", "Inglês", "Vinhos"]),
        (" Bandeja ,, , Inglês,", ["Bandeja", "Inglês"]),
        ("Bandeja, Inglês, Bandeja, Inglês ,Vinhos", ["Bandeja", "Inglês", "Vinhos"]),
        (",,, ,", []),
        ("", []),
        ("Sommelier", ["Sommelier"]),
    ],
)
def test_skills_are_comma_separated_with_blanks_and_repeats_dropped(text, skills):
    assert parse(FreelancerProfileForm, {"nome": "João", "habilidades": text}).skills == skills


def test_skills_are_bounded_in_number_and_length():
    many = ", ".join(f"Habilidade {number}" for number in range(40))

    assert len(parse(FreelancerProfileForm, {"nome": "João", "habilidades": many}).skills) == 30
    assert parse(FreelancerProfileForm, {"nome": "João", "habilidades": "x" * 80}).skills == ["x" * 50]


def test_unknown_keys_are_ignored():
    form = parse(
        FreelancerProfileForm, {**FREELANCER, "email": "outro@x.com", "foto_url": "https://evil", "role": "client"}
    )

    assert form.model_dump() == FREELANCER


@pytest.mark.parametrize("data", [None, "nome=João", ["João"], 42])
def test_a_payload_that_is_not_a_mapping_is_refused(data):
    assert freelancer_errors(data) == {"nome": NOME_CURTO}


# --- update_freelancer_profile -------------------------------------------------------------------


def test_update_freelancer_profile_saves_every_field(db):
    freelancer = make_freelancer(db, nome="João", foto_url="/assets/joao.png")

    view = profiles.update_freelancer_profile(db, freelancer.id, FREELANCER)

    stored = db.get(Profile, freelancer.id)
    assert stored.nome == "João Pedro Silva"
    assert stored.telefone == "(11) 98765-4321"
    assert stored.endereco == "Rua Augusta, 100 - Consolação"
    assert stored.localizacao == "São Paulo, SP"
    assert stored.profissao == "Bartender"
    assert stored.habilidades == ["Drinks clássicos", "Inglês", "Caixa"]
    assert stored.biografia == "Bartender com 8 anos de experiência em hotéis."
    assert stored.experiencia_descricao == "Hotel Atlântico (2018-2024): chefe de bar."
    assert stored.website == "https://joaobartender.com.br"
    assert stored.foto_url == "/assets/joao.png"
    assert view["nome"] == "João Pedro Silva"
    assert view["initials"] == "JS"
    assert view["habilidades"] == ["Drinks clássicos", "Inglês", "Caixa"]
    assert view["experiencia"] == "Hotel Atlântico (2018-2024): chefe de bar."
    assert view["email"] == freelancer.email
    assert view["role"] == "freelancer"


def test_update_freelancer_profile_persists_across_sessions(db):
    freelancer = make_freelancer(db)
    db.commit()

    profiles.update_freelancer_profile(db, freelancer.id, FREELANCER)
    db.commit()

    assert profiles.get_own_profile(db, freelancer.id)["habilidades"] == ["Drinks clássicos", "Inglês", "Caixa"]
    db.expire_all()
    assert db.get(Profile, freelancer.id).localizacao == "São Paulo, SP"


def test_clearing_the_optional_fields_empties_them(db):
    freelancer = make_freelancer(db)
    profiles.update_freelancer_profile(db, freelancer.id, FREELANCER)

    profiles.update_freelancer_profile(db, freelancer.id, {"nome": "João"})

    assert profile_row(db, freelancer)[:9] == ("João", "", "", "", "", [], "", "", "")


def test_the_email_photo_and_role_cannot_be_changed_through_the_form(db):
    freelancer = make_freelancer(db, foto_url="/assets/joao.png")
    email = freelancer.email

    profiles.update_freelancer_profile(
        db,
        freelancer.id,
        {
            **FREELANCER,
            "email": "hacker@x.com",
            "foto_url": "https://evil.example/x.png",
            "tipo_usuario": "client",
            "empresa": "Empresa Falsa",
            "user_id": 1,
        },
    )

    db.expire_all()
    assert db.get(User, freelancer.id).email == email
    assert db.get(User, freelancer.id).role == "freelancer"
    stored = db.get(Profile, freelancer.id)
    assert (stored.foto_url, stored.tipo_usuario, stored.empresa) == ("/assets/joao.png", "freelancer", "")


def test_update_freelancer_profile_refuses_a_company_without_changing_it(db):
    company = make_company(db)
    before = profile_row(db, company)

    with pytest.raises(NotAllowed) as error:
        profiles.update_freelancer_profile(db, company.id, FREELANCER)

    assert error.value.message == NOT_ALLOWED
    assert profile_row(db, company) == before


def test_update_freelancer_profile_refuses_a_removed_account(db):
    freelancer = make_freelancer(db)
    freelancer.deleted_at = utcnow()
    db.add(freelancer)
    db.flush()
    before = profile_row(db, freelancer)

    with pytest.raises(NotAllowed):
        profiles.update_freelancer_profile(db, freelancer.id, FREELANCER)
    assert profile_row(db, freelancer) == before


def test_update_freelancer_profile_refuses_a_missing_user(db):
    with pytest.raises(NotAllowed):
        profiles.update_freelancer_profile(db, 987_654, FREELANCER)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("nome", "J", NOME_CURTO),
        ("website", "joao.com", "URL inválida"),
        ("telefone", "12345", "Telefone inválido"),
        ("biografia", "b" * 2001, "A biografia deve ter no máximo 2.000 caracteres"),
    ],
)
def test_nothing_changes_on_a_validation_failure(db, field, value, message):
    freelancer = make_freelancer(db, nome="João Silva", profissao="Garçom", habilidades=["Bandeja"])
    before = profile_row(db, freelancer)

    with pytest.raises(ValidationFailed) as error:
        profiles.update_freelancer_profile(db, freelancer.id, {**FREELANCER, field: value})

    assert error.value.field_errors == {field: message}
    assert profile_row(db, freelancer) == before


def test_a_validation_failure_is_reported_before_the_role_check(db):
    company = make_company(db)

    with pytest.raises(ValidationFailed):
        profiles.update_freelancer_profile(db, company.id, {"nome": ""})


def test_only_the_acting_freelancers_profile_changes(db):
    freelancer, other = make_freelancer(db), make_freelancer(db, nome="Ana Souza", profissao="Copeira")
    before = profile_row(db, other)

    profiles.update_freelancer_profile(db, freelancer.id, FREELANCER)

    assert profile_row(db, other) == before


# --- company profile with empresa -----------------------------------------------------------------


def test_the_company_form_takes_the_company_name():
    form = parse(CompanyProfileForm, {**COMPANY, "empresa": "  Pousada Mar Azul  "})

    assert form.empresa == "Pousada Mar Azul"


@pytest.mark.parametrize("empresa", ["", "H", " H ", None])
def test_the_company_name_needs_at_least_two_characters(empresa):
    with pytest.raises(ValidationFailed) as error:
        parse(CompanyProfileForm, {**COMPANY, "empresa": empresa})

    assert error.value.field_errors == {"empresa": "Nome da empresa deve ter pelo menos 2 caracteres"}


def test_a_very_long_company_name_is_cut_to_160_characters():
    assert parse(CompanyProfileForm, {**COMPANY, "empresa": "H" * 400}).empresa == "H" * 160


def test_update_company_profile_saves_the_company_name_and_every_field(db):
    company = make_company(db, nome="Mariana Costa", empresa="Hotel Antigo")

    view = profiles.update_company_profile(db, company.id, {**COMPANY, "empresa": "Pousada Mar Azul"})

    stored = db.get(Profile, company.id)
    assert stored.empresa == "Pousada Mar Azul"
    assert stored.nome == "Mariana Costa"
    assert stored.biografia == COMPANY["biografia"]
    assert stored.endereco == COMPANY["endereco"]
    assert stored.telefone == COMPANY["telefone"]
    assert stored.website == COMPANY["website"]
    assert stored.redes_sociais == {
        "instagram": "@hotelatlantico",
        "facebook": "https://facebook.com/hotelatlantico",
        "linkedin": "https://linkedin.com/company/hotelatlantico",
    }
    assert view["empresa"] == "Pousada Mar Azul"
    assert view["linkedin"] == COMPANY["linkedin"]


def test_an_invalid_company_name_changes_nothing(db):
    company = make_company(db, empresa="Hotel Atlântico")
    before = profile_row(db, company)

    with pytest.raises(ValidationFailed) as error:
        profiles.update_company_profile(db, company.id, {**COMPANY, "empresa": "H"})

    assert error.value.field_errors == {"empresa": "Nome da empresa deve ter pelo menos 2 caracteres"}
    assert profile_row(db, company) == before


def test_update_company_profile_refuses_a_freelancer_without_changing_it(db):
    freelancer = make_freelancer(db)
    before = profile_row(db, freelancer)

    with pytest.raises(NotAllowed) as error:
        profiles.update_company_profile(db, freelancer.id, COMPANY)

    assert error.value.message == NOT_ALLOWED
    assert profile_row(db, freelancer) == before
    assert db.exec(select(Profile.empresa).where(Profile.user_id == freelancer.id)).one() == ""


def test_update_company_profile_refuses_a_removed_company(db):
    company = make_company(db, empresa="Hotel Atlântico")
    company.deleted_at = utcnow()
    db.add(company)
    db.flush()

    with pytest.raises(NotAllowed):
        profiles.update_company_profile(db, company.id, COMPANY)
    db.expire_all()
    assert db.get(Profile, company.id).empresa == "Hotel Atlântico"
