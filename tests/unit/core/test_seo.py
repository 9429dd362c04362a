"""Head tags and JSON-LD of public pages (core/seo.py): what crawlers and link previews read."""

import json
import re
from datetime import UTC, date, datetime

import pytest

from core import seo


@pytest.mark.parametrize(
    ("location", "expected"),
    [
        ("São Paulo, SP", ("São Paulo", "SP")),
        ("Curitiba - PR", ("Curitiba", "PR")),
        ("Recife/pe", ("Recife", "PE")),
        ("Salvador (BA)", ("Salvador", "BA")),
        ("Curitiba", ("Curitiba", "")),
        ("Rio de Janeiro, XX", ("Rio de Janeiro, XX", "")),  # not a state: the text stays whole
        ("", ("", "")),
    ],
)
def test_city_and_state_reads_the_last_two_letters_only_when_they_are_a_state(location, expected):
    assert seo.city_and_state(location) == expected


def test_excerpt_keeps_short_text_whole_on_one_line():
    assert seo.excerpt("Garçom\n\n para   evento ") == "Garçom para evento"


def test_excerpt_cuts_at_a_word_boundary_and_marks_the_cut():
    text = "palavra " * 40
    cut = seo.excerpt(text, 50)
    assert len(cut) <= 50
    assert cut.endswith("palavra…")


def _posting(**overrides) -> dict:
    values = {
        "url": "https://turno.test/jobs/7",
        "title": "Garçom",
        "description": "Servir mesas.",
        "posted": datetime(2026, 11, 27, 2, 30),  # naive = UTC: 26/11 at 23:30 in São Paulo
        "valid_through": datetime(2026, 12, 6, 14, 0, tzinfo=UTC),
        "location": "São Paulo, SP",
        "address": "",
        "hourly_rate": 25.5,
        "positions": 3,
        "company": "Hotel Sol",
    }
    return seo.job_posting(**{**values, **overrides})


def test_job_posting_has_what_google_asks_for_a_temporary_hourly_job_in_brazil():
    data = _posting()
    assert data["@type"] == "JobPosting"
    assert data["employmentType"] == "TEMPORARY"
    assert data["datePosted"] == "2026-11-26"  # the day in São Paulo
    assert data["validThrough"] == "2026-12-06T11:00:00-03:00"
    assert data["jobLocation"]["address"] == {
        "@type": "PostalAddress",
        "addressLocality": "São Paulo",
        "addressRegion": "SP",
        "addressCountry": "BR",
    }
    assert data["baseSalary"] == {
        "@type": "MonetaryAmount",
        "currency": "BRL",
        "value": {"@type": "QuantitativeValue", "value": 25.5, "unitText": "HOUR"},
    }
    assert data["hiringOrganization"] == {"@type": "Organization", "name": "Hotel Sol"}
    assert data["totalJobOpenings"] == 3


def test_a_vaga_without_stated_pay_has_no_base_salary():
    assert "baseSalary" not in _posting(hourly_rate=0.0)


def test_an_anonymous_vaga_names_no_hiring_organization():
    assert "hiringOrganization" not in _posting(company=None)


def test_the_state_comes_from_the_address_when_the_place_has_none():
    data = _posting(location="São Paulo", address="Rua Oscar Freire, 725 - Jardins, São Paulo - SP")
    address = data["jobLocation"]["address"]
    assert (address["addressLocality"], address["addressRegion"]) == ("São Paulo", "SP")
    assert address["streetAddress"].startswith("Rua Oscar Freire")


def test_a_day_without_a_shift_time_is_valid_to_its_end_in_sao_paulo():
    assert _posting(valid_through=date(2026, 12, 6))["validThrough"] == "2026-12-06T23:59:00-03:00"
    assert "validThrough" not in _posting(valid_through=None)


def test_json_in_a_script_element_cannot_close_it():
    text = seo.json_for_script({"description": "</script><script>alert(1)</script> & <b>"})
    assert "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text)["description"] == "</script><script>alert(1)</script> & <b>"


def _meta(**overrides) -> seo.PageMeta:
    values = {
        "title": 'Garçom "VIP" <b> | Turno',
        "description": "R$ 25,00/hora & refeição",
        "url": "https://turno.test/jobs/7",
        "image": "https://turno.test/og-default.png",
        "image_alt": "Turno",
        "site_name": "Turno",
        "image_size": seo.DEFAULT_IMAGE_SIZE,
        "json_ld": {"@type": "JobPosting", "title": "<x>"},
    }
    return seo.PageMeta(**{**values, **overrides})


def test_head_tags_carry_title_description_canonical_open_graph_twitter_and_json_ld_escaped():
    tags = seo.head_tags(_meta())
    assert '<title data-seo>Garçom "VIP" &lt;b&gt; | Turno</title>' in tags
    assert '<meta data-seo name="description" content="R$ 25,00/hora &amp; refeição"/>' in tags
    assert '<link data-seo rel="canonical" href="https://turno.test/jobs/7"/>' in tags
    assert '<meta data-seo property="og:title" content="Garçom &quot;VIP&quot; &lt;b&gt; | Turno"/>' in tags
    assert '<meta data-seo property="og:locale" content="pt_BR"/>' in tags
    assert '<meta data-seo property="og:image:width" content="1200"/>' in tags
    assert '<meta data-seo name="twitter:card" content="summary_large_image"/>' in tags
    assert (
        '<script data-seo type="application/ld+json">{"@type":"JobPosting","title":"\\u003cx\\u003e"}</script>' in tags
    )
    assert len(re.findall(r"<title", tags)) == 1


def test_a_picture_of_unknown_size_gets_the_small_card_and_no_dimensions():
    tags = seo.head_tags(_meta(image_size=None, json_ld=None))
    assert 'content="summary"' in tags
    assert "og:image:width" not in tags
    assert "ld+json" not in tags


def test_absolute_joins_paths_to_the_site_and_keeps_absolute_urls():
    assert seo.absolute("https://turno.test/", "/jobs/3") == "https://turno.test/jobs/3"
    assert seo.absolute("https://turno.test", "https://cdn.test/a.png") == "https://cdn.test/a.png"
