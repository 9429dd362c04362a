"""The running app (outside production, where Reflex's CORS allows every origin) lets no other site read a signed-in user's data."""

import httpx

from tests.e2e.conftest import PASSWORD


def test_another_local_site_cannot_read_the_data_export_across_origins(base_url, make_account):
    email = make_account("freelancer")
    with httpx.Client(base_url=base_url) as http:
        login = http.post("/api/auth/login", json={"email": email, "password": PASSWORD})
        assert login.status_code == 200
        foreign = http.get("/api/account/export", headers={"Origin": "http://localhost:5173"})
        own = http.get("/api/account/export", headers={"Origin": base_url})

    assert foreign.status_code == 200  # the server answers; the browser must not let the other page read it
    assert "access-control-allow-origin" not in foreign.headers  # so the browser refuses the other page
    assert own.headers["access-control-allow-origin"] == base_url
