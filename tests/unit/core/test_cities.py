"""Cities from the IBGE list (issue 24 #6; docs/product/validation.md, "Cities"): suggestions, reading, forms, alembic 0017."""

from datetime import UTC, datetime

import pytest
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.pool import NullPool

from alembic import command
from core import cities
from models import Job, Profile
from services.accounts import profiles
from services.common.errors import ValidationFailed
from services.common.job_forms import JobForm
from services.common.profile_forms import FreelancerProfileForm
from services.common.validation import CITY_AMBIGUOUS, CITY_UNKNOWN, parse
from states.city_picker import CityPickerState
from tests.support.factories import make_company, make_freelancer, make_job


def _labels(found) -> list[str]:
    return [city.label for city in found]


def test_the_list_has_every_municipality_once_with_its_state_and_the_27_capitals():
    every = cities.all_cities()

    assert len(every) == 5571
    assert len({city.code for city in every}) == len({(city.name, city.uf) for city in every}) == 5571
    assert sum(city.capital for city in every) == 27
    assert cities.by_code(3550308).label == "São Paulo, SP"
    assert cities.by_code(5300108).label == "Brasília, DF"
    assert cities.by_code(1) is None and cities.by_code(None) is None


def test_every_display_name_reads_back_as_its_own_municipality():
    assert all(cities.resolve(city.label) == city for city in cities.all_cities())


@pytest.mark.parametrize(
    ("typed", "first"),
    [
        ("sao pa", ["São Paulo, SP", "São Patrício, GO"]),  # accents and case aside; the capital first
        ("SÃO PAULO", ["São Paulo, SP"]),
        ("Curitiba, P", ["Curitiba, PR"]),  # a state being typed narrows the list
        ("campinas", ["Campinas, SP", "Campinas do Sul, RS", "Campinas do Piauí, PI"]),  # the whole name first
        ("santa", ["Santa Fé, PR", "Santa Luz, PI"]),  # names whose first word it is, before Santana
        ("Belo Horiz", ["Belo Horizonte, MG"]),
        ("Mogi", ["Mogi Guaçu, SP", "Mogi Mirim, SP", "Mogi das Cruzes, SP"]),
        ("Assis Brasil", ["Assis Brasil, AC"]),  # 'Brasil' in a name is not the country
    ],
)
def test_suggestions_follow_what_is_typed(typed, first):
    assert _labels(cities.suggest(typed))[: len(first)] == first


def test_a_word_inside_the_name_is_found_after_the_names_starting_with_it():
    found = _labels(cities.suggest("bonito"))

    assert found[:4] == ["Bonito, BA", "Bonito, MS", "Bonito, PA", "Bonito, PE"]
    assert "Rio Bonito, RJ" in found
    assert len(found) == cities.SUGGESTIONS


@pytest.mark.parametrize("typed", ["", "s", " a ", "xyzw", "sp"])
def test_under_two_letters_or_nothing_like_a_city_suggests_nothing(typed):
    assert cities.suggest(typed) == ()


@pytest.mark.parametrize(
    ("typed", "label"),
    [
        ("Curitiba", "Curitiba, PR"),
        ("curitiba - pr", "Curitiba, PR"),
        ("Curitiba (PR)", "Curitiba, PR"),
        ("São Paulo/SP", "São Paulo, SP"),
        ("São Paulo, SP - Brasil", "São Paulo, SP"),
        ("Rio de janeiro RJ", "Rio de Janeiro, RJ"),
        ("Bonito, MS", "Bonito, MS"),
        ("Embu-Guaçu", "Embu-Guaçu, SP"),
    ],
)
def test_a_typed_city_resolves_to_its_municipality(typed, label):
    assert cities.resolve(typed).label == label


@pytest.mark.parametrize(
    ("typed", "why"),
    [
        ("Bonito", cities.Unresolved.AMBIGUOUS),
        ("Santa Maria", cities.Unresolved.AMBIGUOUS),
        ("Curitiba, SP", cities.Unresolved.UNKNOWN),
        ("Sampa", cities.Unresolved.UNKNOWN),
        ("x" * 10_000, cities.Unresolved.UNKNOWN),
    ],
)
def test_a_name_several_states_share_or_no_municipality_does_not_resolve(typed, why):
    assert cities.resolve(typed) is why


@pytest.mark.parametrize(
    ("typed", "label"),
    [
        ("Sao Paolo", "São Paulo, SP"),  # a small typo
        ("Florianopoles, SC", "Florianópolis, SC"),
        ("Belem", "Belém, PA"),  # three states have one; one of them is a capital
        ("curitiba", "Curitiba, PR"),
        ("Santa Maria", None),  # several, none a capital: no guess
        ("Remoto", None),
        ("Curitiba, SP", None),  # the state given has no such city
    ],
)
def test_free_text_goes_to_its_best_match_or_stays(typed, label):
    found = cities.best_match(typed)

    assert (found.label if found else None) == label


def test_the_forms_store_the_chosen_display_name_and_say_why_they_cannot():
    job = {"titulo": "Garçom", "categoria": "eventos", "descricao": "Servir mesas.", "endereco": "Rua A, 1"}
    shift = {"inicio_em": "2030-01-10T19:00", "fim_em": "2030-01-10T23:00"}
    now = datetime(2030, 1, 1, 12, tzinfo=UTC)

    assert parse(JobForm, {**job, **shift, "localizacao": "curitiba"}, now=now).localizacao == "Curitiba, PR"
    for typed, message in (("Bonito", CITY_AMBIGUOUS), ("Sampa", CITY_UNKNOWN)):
        with pytest.raises(ValidationFailed) as failed:
            parse(JobForm, {**job, **shift, "localizacao": typed}, now=now)
        assert failed.value.field_errors == {"localizacao": message}
    with pytest.raises(ValidationFailed) as failed:
        parse(JobForm, {**job, **shift, "localizacao": "a"}, now=now)
    assert failed.value.field_errors == {"localizacao": "Localização deve ter pelo menos 2 caracteres."}
    assert parse(FreelancerProfileForm, {"nome": "Ana Souza", "localizacao": ""}).localizacao == ""  # optional


def test_a_saved_job_and_profile_keep_the_ibge_code_of_their_city(db):
    company = make_company(db)
    job = make_job(db, company, localizacao="Curitiba, PR")
    freelancer = make_freelancer(db)
    profiles.update_freelancer_profile(db, freelancer.id, {"nome": "Ana Souza", "localizacao": "são paulo"})

    assert db.get(Job, job.id).cidade_ibge == 4106902
    saved = db.get(Profile, freelancer.id)
    assert (saved.localizacao, saved.cidade_ibge, saved.cidade_busca) == ("São Paulo, SP", 3550308, "sao paulo")
    job.localizacao = "Texto antigo sem cidade"
    db.add(job)
    db.commit()
    assert db.get(Job, job.id).cidade_ibge is None


def test_the_city_box_suggests_only_for_the_products_boxes_and_a_choice_must_be_a_city():
    state = CityPickerState()

    state.type_city("freelancer-location", "curit")
    assert [option["label"] for option in state.options] == ["Curitiba, PR", "Curitibanos, SC"]
    assert state.options[0]["option_id"] == "freelancer-location-opcao-0"
    state.type_city("freelancer-location", "qqqq")
    assert state.options == [] and state.none_found
    state.type_city("someone-elses-box", "curit")
    assert state.field_id == "freelancer-location" and state.options == []
    assert state.choose("freelancer-location", "Nada, XX") is None
    assert state.field_id == "" and not state.none_found


def _old_rows(engine) -> None:
    """A company, two profiles and four jobs as revision 0016 left them (free-text cities)."""
    with engine.begin() as conn:
        for uid, role in ((1, "client"), (2, "freelancer"), (3, "freelancer")):
            conn.execute(
                text(
                    "INSERT INTO users (id, email, password_hash, role, is_active, created_at) "
                    "VALUES (:id, :email, 'x', :role, true, CURRENT_TIMESTAMP)"
                ),
                {"id": uid, "email": f"p{uid}@teste.com.br", "role": role},
            )
        for uid, location in ((2, "sao paulo"), (3, "Lugar Nenhum")):
            conn.execute(
                text(
                    "INSERT INTO profiles (user_id, tipo_usuario, nome, telefone, endereco, localizacao, biografia, "
                    "foto_url, website, profissao, habilidades, experiencia_descricao, redes_sociais, empresa, "
                    "industria, descricao, updated_at, cidade_busca) VALUES (:id, 'freelancer', 'Ana', '', '', "
                    ":location, '', '', '', '', '[]', '', '{}', '', '', '', CURRENT_TIMESTAMP, '')"
                ),
                {"id": uid, "location": location},
            )
        for job_id, location in ((10, "Curitiba"), (11, "Florianopoles - SC"), (12, "Remoto"), (13, "Santa Maria")):
            conn.execute(
                text(
                    "INSERT INTO jobs (id, cliente_id, titulo, categoria, descricao, localizacao, endereco, duracao, "
                    "habilidades_necessarias, vale_transporte, refeicao_local, possui_intervalo, anuncio_anonimo, "
                    "status, vaga_status, vagas_disponiveis, is_archived, criado_em, updated_at, busca, "
                    "cidade_busca, intervalo_min, codigo_segredo) VALUES (:id, 1, 'Garçom', 'eventos', 'Descrição', "
                    ":location, 'Rua A, 1', '', '[]', false, false, false, false, 'open', 'open', 1, false, "
                    "CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, 'velho', 'velho', 0, '')"
                ),
                {"id": job_id, "location": location},
            )


def test_alembic_0017_moves_free_text_cities_to_their_municipality_and_back(empty_database_url, make_alembic_config):
    cfg = make_alembic_config(empty_database_url)
    command.upgrade(cfg, "0016")
    engine = create_engine(empty_database_url, poolclass=NullPool)
    try:
        _old_rows(engine)
        command.upgrade(cfg, "0017")
        with engine.connect() as conn:
            jobs = conn.execute(
                text("SELECT id, localizacao, cidade_ibge, cidade_busca, busca FROM jobs ORDER BY id")
            ).all()
            people = conn.execute(
                text("SELECT user_id, localizacao, cidade_ibge, cidade_busca FROM profiles ORDER BY user_id")
            ).all()
        assert [tuple(row) for row in jobs] == [
            (10, "Curitiba, PR", 4106902, "curitiba", "garcom | eventos eventos | curitiba, pr | rua a, 1"),
            (
                11,
                "Florianópolis, SC",
                4205407,
                "florianopolis",
                "garcom | eventos eventos | florianopolis, sc | rua a, 1",
            ),
            (12, "Remoto", None, "velho", "velho"),  # no municipality: left as it was
            (13, "Santa Maria", None, "velho", "velho"),
        ]
        assert [tuple(row) for row in people] == [
            (2, "São Paulo, SP", 3550308, "sao paulo"),
            (3, "Lugar Nenhum", None, ""),
        ]
        command.downgrade(cfg, "0016")
        assert "cidade_ibge" not in {column["name"] for column in inspect(engine).get_columns("jobs")}
        assert "cidade_ibge" not in {column["name"] for column in inspect(engine).get_columns("profiles")}
        with engine.connect() as conn:
            assert conn.execute(text("SELECT localizacao FROM jobs WHERE id = 10")).scalar_one() == "Curitiba, PR"
    finally:
        engine.dispose()
