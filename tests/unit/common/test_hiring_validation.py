"""Schemas of the hiring loop: the job form, an application, a rating, amounts and comma lists."""

from decimal import Decimal

import pytest
from pydantic_core import PydanticCustomError

from core.catalog import CATEGORIES
from services.common.errors import ValidationFailed
from services.common.hiring_forms import ApplicationForm, RatingForm
from services.common.job_forms import JobForm
from services.common.validation import comma_list, parse, parse_money
from tests.support.shift_form import shift_day, shift_fields

TITLE_SHORT = "Título deve ter pelo menos 2 caracteres."
CATEGORY_REQUIRED = "Por favor, selecione uma categoria."
DESCRIPTION_SHORT = "Descrição deve ter pelo menos 10 caracteres."
LOCATION_SHORT = "Localização deve ter pelo menos 2 caracteres."
AMOUNT_INVALID = "Informe um valor por hora válido."
POSITIONS_INVALID = "O número de vagas deve estar entre 1 e 100."
MESSAGE_LONG = "A mensagem deve ter no máximo 2000 caracteres."
STARS_INVALID = "Escolha de 1 a 5 estrelas."

JOB = {
    "titulo": "Garçom para casamento",
    "categoria": "eventos",
    "descricao": "Serviço de mesa em casamento para 200 convidados.",
    "localizacao": "São Paulo, SP",
    **shift_fields(),
}


def _errors(schema, data) -> dict[str, str]:
    with pytest.raises(ValidationFailed) as caught:
        parse(schema, data)
    return caught.value.field_errors


# --- parse_money ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("25", Decimal("25.00")),
        ("25,50", Decimal("25.50")),
        ("25,5", Decimal("25.50")),
        ("1.234,56", Decimal("1234.56")),
        ("1.234", Decimal("1234.00")),
        ("12.500.000", Decimal("12500000.00")),
        ("25.5", Decimal("25.50")),
        ("0.500", Decimal("0.50")),
        (" R$ 30,00 ", Decimal("30.00")),
        ("R$1.500,00", Decimal("1500.00")),
        (25.5, Decimal("25.50")),
        (1.234, Decimal("1.23")),
        (40, Decimal("40.00")),
        (Decimal("19.999"), Decimal("20.00")),
        ("0", Decimal("0.00")),
        ("99999999,99", Decimal("99999999.99")),
    ],
)
def test_parse_money_reads_brazilian_and_plain_amounts(value, expected):
    amount = parse_money(value, "erro")

    assert amount == expected
    assert amount.as_tuple().exponent == -2


def test_parse_money_minus_zero_is_plain_zero():
    assert str(parse_money("-0", "erro")) == "0.00"


@pytest.mark.parametrize("value", ["", "   ", None, "R$", [], {}])
def test_parse_money_blank_is_none(value):
    assert parse_money(value, "erro") is None


@pytest.mark.parametrize(
    "value",
    ["abc", "-1", "-0,01", "25,5,5", "1.234.56", "NaN", "Infinity", "1e999", "100000000", True, 10**30, "25 reais"],
)
def test_parse_money_refuses_what_is_not_an_amount(value):
    with pytest.raises(PydanticCustomError) as caught:
        parse_money(value, "Valor ruim.")

    assert caught.value.message() == "Valor ruim."


# --- comma_list ----------------------------------------------------------------------------


def test_comma_list_trims_and_drops_blanks_and_repeats():
    assert comma_list(" Inglês , Bandeja,, ,Inglês,  Vinhos ") == ["Inglês", "Bandeja", "Vinhos"]


def test_comma_list_of_blank_text_is_empty():
    assert comma_list("") == []
    assert comma_list(" , ,, ") == []


def test_comma_list_caps_items_and_length():
    many = ",".join(f"h{n}" for n in range(30))

    assert comma_list(many) == [f"h{n}" for n in range(20)]
    assert comma_list(many, max_items=2) == ["h0", "h1"]
    assert comma_list("abcdef, xy", max_length=3) == ["abc", "xy"]


# --- JobForm -------------------------------------------------------------------------------


def test_job_form_minimal_payload_gets_the_defaults():
    form = parse(JobForm, JOB)

    assert form.model_dump() == {
        **JOB,
        "inicio_em": form.inicio_em,
        "fim_em": form.fim_em,
        "intervalo_min": 60,
        "ponto_lat": None,
        "ponto_lng": None,
        "valor_hora": None,
        "habilidades_necessarias": [],
        "vale_transporte": False,
        "refeicao_local": False,
        "possui_intervalo": False,
        "anuncio_anonimo": False,
        "vagas_disponiveis": 1,
        "pagamento": "direto",
        "o_que_levar": "",
    }


def test_job_form_full_payload():
    form = parse(
        JobForm,
        {
            **JOB,
            "titulo": "  Bartender  ",
            "valor_hora": "1.234,56",
            "duracao": "1 semana",
            "data_necessaria": "2026-12-20",
            "habilidades_necessarias": "Drinks, , Inglês,",
            "vale_transporte": "on",
            "refeicao_local": "on",
            "possui_intervalo": "",
            "anuncio_anonimo": "on",
            "vagas_disponiveis": "3",
        },
    )

    assert form.titulo == "Bartender"
    assert form.valor_hora == Decimal("1234.56")
    values = form.job_values()  # the typed date and duration are ignored: derived from the shift
    assert values["duracao"] == "8 horas"
    assert values["data_necessaria"] == shift_day(3)
    assert form.habilidades_necessarias == ["Drinks", "Inglês"]
    assert (form.vale_transporte, form.refeicao_local, form.possui_intervalo, form.anuncio_anonimo) == (
        True,
        True,
        False,
        True,
    )
    assert form.vagas_disponiveis == 3


def test_job_form_empty_payload_lists_every_required_message():
    assert _errors(JobForm, {}) == {
        "titulo": TITLE_SHORT,
        "categoria": CATEGORY_REQUIRED,
        "descricao": DESCRIPTION_SHORT,
        "localizacao": LOCATION_SHORT,
        "inicio_em": "Informe o início do turno.",
        "fim_em": "Informe o fim do turno.",
        "endereco": "Informe o endereço do turno.",
    }


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("titulo", "A", TITLE_SHORT),
        ("titulo", "  A  ", TITLE_SHORT),
        ("titulo", None, TITLE_SHORT),
        ("titulo", ["Garçom"], TITLE_SHORT),
        ("categoria", "", CATEGORY_REQUIRED),
        ("categoria", "Hotelaria", CATEGORY_REQUIRED),
        ("categoria", "limpeza", CATEGORY_REQUIRED),
        ("descricao", "Curta", DESCRIPTION_SHORT),
        ("descricao", "  123456789  ", DESCRIPTION_SHORT),
        ("localizacao", "S", LOCATION_SHORT),
        ("localizacao", {"cidade": "São Paulo"}, LOCATION_SHORT),
        ("valor_hora", "abc", AMOUNT_INVALID),
        ("valor_hora", "-1", AMOUNT_INVALID),
        ("vagas_disponiveis", "0", POSITIONS_INVALID),
        ("vagas_disponiveis", "101", POSITIONS_INVALID),
        ("vagas_disponiveis", "-1", POSITIONS_INVALID),
        ("vagas_disponiveis", "dois", POSITIONS_INVALID),
        ("vagas_disponiveis", True, POSITIONS_INVALID),
    ],
)
def test_job_form_broken_field_gives_its_message(field, value, message):
    assert _errors(JobForm, {**JOB, field: value}) == {field: message}


@pytest.mark.parametrize("slug", sorted(CATEGORIES))
def test_job_form_accepts_all_eight_categories(slug):
    assert parse(JobForm, {**JOB, "categoria": slug}).categoria == slug


@pytest.mark.parametrize(
    ("value", "expected"),
    [("25", Decimal("25.00")), ("25,50", Decimal("25.50")), ("1.234,56", Decimal("1234.56")), (25.5, Decimal("25.50"))],
)
def test_job_form_hourly_value(value, expected):
    assert parse(JobForm, {**JOB, "valor_hora": value}).valor_hora == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        *[("on", True), ("ON", True), ("true", True), ("1", True), ("sim", True), (True, True)],
        *[("", False), ("off", False), (None, False), (False, False), ("0", False), ([], False)],
    ],
)
def test_job_form_checkboxes(value, expected):
    form = parse(JobForm, {**JOB, "vale_transporte": value, "anuncio_anonimo": value})

    assert (form.vale_transporte, form.anuncio_anonimo) == (expected, expected)


def test_job_form_skills_as_a_list_or_text():
    assert parse(JobForm, {**JOB, "habilidades_necessarias": [" Drinks ", "", "Inglês"]}).habilidades_necessarias == [
        "Drinks",
        "Inglês",
    ]
    assert parse(JobForm, {**JOB, "habilidades_necessarias": None}).habilidades_necessarias == []


def test_job_form_truncates_long_text_to_the_columns():
    form = parse(JobForm, {**JOB, "titulo": "T" * 500, "descricao": "D" * 9000})

    assert (len(form.titulo), len(form.descricao)) == (120, 5000)  # the city is one from the IBGE list


def test_job_form_ignores_unknown_keys():
    form = parse(JobForm, {**JOB, "cliente_id": 99, "status": "closed", "is_archived": True, "id": 7})

    assert "cliente_id" not in form.model_dump()
    assert "status" not in form.model_dump()


# --- ApplicationForm -----------------------------------------------------------------------


def test_application_form_is_all_optional():
    form = parse(ApplicationForm, {})

    assert (form.valor_proposto, form.mensagem) == (None, "")


def test_application_form_reads_amount_and_trims_message():
    form = parse(ApplicationForm, {"valor_proposto": "32,50", "mensagem": "  Tenho experiência.  "})

    assert (form.valor_proposto, form.mensagem) == (Decimal("32.50"), "Tenho experiência.")


def test_application_form_message_at_most_2000_characters():
    assert len(parse(ApplicationForm, {"mensagem": "m" * 2000}).mensagem) == 2000
    assert _errors(ApplicationForm, {"mensagem": "m" * 2001}) == {"mensagem": MESSAGE_LONG}


@pytest.mark.parametrize("value", ["abc", "-1", "1e999"])
def test_application_form_refuses_a_bad_amount(value):
    assert _errors(ApplicationForm, {"valor_proposto": value}) == {"valor_proposto": AMOUNT_INVALID}


# --- RatingForm ----------------------------------------------------------------------------


@pytest.mark.parametrize(("value", "expected"), [("1", 1), ("5", 5), (3, 3), (" 4 ", 4)])
def test_rating_form_stars_one_to_five(value, expected):
    assert parse(RatingForm, {"stars": value}).stars == expected


@pytest.mark.parametrize("value", ["0", "6", "-1", "abc", "", None, "3.5", 3.0, True, [4]])
def test_rating_form_refuses_other_stars(value):
    assert _errors(RatingForm, {"stars": value}) == {"stars": STARS_INVALID}


def test_rating_form_missing_stars():
    assert _errors(RatingForm, {"comment": "Ótimo"}) == {"stars": STARS_INVALID}


def test_rating_form_comment_is_trimmed_and_capped():
    assert parse(RatingForm, {"stars": "5", "comment": "  Pontual.  "}).comment == "Pontual."
    assert len(parse(RatingForm, {"stars": "5", "comment": "c" * 3000}).comment) == 1000
