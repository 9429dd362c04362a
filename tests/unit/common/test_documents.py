"""services/common/documents.py: CPF and CNPJ (numeric and the alphanumeric CNPJ of July 2026)."""

import pytest

from services.common import documents


@pytest.mark.parametrize("typed", ["529.982.247-25", "52998224725", " 529 982 247 25 ", "529982247-25"])
def test_a_valid_cpf_is_kept_bare_however_it_was_typed(typed):
    assert documents.valid_cpf(typed) == "52998224725"


@pytest.mark.parametrize(
    "typed",
    ["529.982.247-24", "111.111.111-11", "00000000000", "5299822472", "529982247250", "529.982.247-2a", "", None],
)
def test_an_invalid_cpf_is_refused(typed):
    assert documents.valid_cpf(typed) is None


def test_a_cpf_is_shown_with_its_middle_digits_only():
    assert documents.masked_cpf("52998224725") == "***.982.247-**"
    assert documents.masked_cpf("") == ""


@pytest.mark.parametrize(
    ("typed", "bare"),
    [
        ("12ABC34501DE35", "12ABC34501DE35"),  # SHIFT_LOOP.md §7's vector
        ("12.ABC.345/01DE-35", "12ABC34501DE35"),
        ("12abc34501de35", "12ABC34501DE35"),
        ("11.222.333/0001-81", "11222333000181"),
    ],
)
def test_numeric_and_alphanumeric_cnpjs_are_accepted(typed, bare):
    assert documents.valid_cnpj(typed) == bare


@pytest.mark.parametrize(
    "typed", ["12ABC34501DE36", "11.222.333/0001-82", "11111111111111", "12ABC34501DEAB", "12ÁBC34501DE35", "123", ""]
)
def test_an_invalid_cnpj_is_refused(typed):
    assert documents.valid_cnpj(typed) is None


def test_a_cnpj_is_written_as_on_documents():
    assert documents.formatted_cnpj("12ABC34501DE35") == "12.ABC.345/01DE-35"


def test_the_messages_are_the_ones_shift_loop_sets():
    assert documents.CPF_INVALID == "CPF inválido. Confira os números."
    assert documents.CNPJ_INVALID == "CNPJ inválido. Confira letras e números — o novo CNPJ pode ter letras."
