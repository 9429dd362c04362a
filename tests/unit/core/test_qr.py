"""The check-in QR code as an SVG data URI."""

import base64
import re

import pytest

from core.qr import qr_svg_data_uri

URL = "https://turno.example/checkin/42?c=abc"
PREFIX = "data:image/svg+xml;base64,"


def svg_of(uri: str) -> str:
    assert uri.startswith(PREFIX)
    return base64.b64decode(uri[len(PREFIX) :], validate=True).decode("utf-8")


def test_is_a_base64_svg_data_uri():
    svg = svg_of(qr_svg_data_uri(URL))

    assert svg.startswith("<svg")
    assert "</svg>" in svg


def test_svg_scales_by_its_view_box():
    svg = svg_of(qr_svg_data_uri(URL))
    opening = svg[: svg.index(">")]
    side = int(re.search(r'viewBox="0 0 (\d+) (\d+)"', opening).group(1))

    assert "width=" not in opening
    assert "height=" not in opening
    # A QR code (version ≥ 1: 21 modules) plus a border of 2 modules on each side, 10 units a module.
    assert side % 10 == 0
    assert side // 10 >= 21 + 4
    assert (side // 10 - 4 - 21) % 4 == 0


def test_is_deterministic():
    assert qr_svg_data_uri(URL) == qr_svg_data_uri(URL)


def test_different_text_gives_a_different_image():
    assert qr_svg_data_uri(URL) != qr_svg_data_uri(URL + "x")


def test_empty_text_is_refused():
    with pytest.raises(ValueError):
        qr_svg_data_uri("")
