"""The API docs pages work offline: everything they load is served by the project."""

import re

import pytest
from django.contrib.staticfiles import finders

DOC_PAGES = ["/api/docs/", "/api/redoc/", "/_allauth/openapi.html"]
ASSET_REFERENCE = re.compile(r"""(?:src|href)=["']([^"']+)["']""")


def assets_of(html: str) -> list[str]:
    return ASSET_REFERENCE.findall(html)


@pytest.mark.parametrize("path", DOC_PAGES)
def test_docs_page_answers_html(api_client, path):
    response = api_client.get(path)

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")


@pytest.mark.parametrize("path", DOC_PAGES)
def test_docs_page_loads_nothing_from_another_site(api_client, path):
    html = api_client.get(path).content.decode()

    assert not re.search(r"https?://|src=[\"']//|href=[\"']//", html)
    assert all(url.startswith("/static/") for url in assets_of(html))


@pytest.mark.parametrize("path", DOC_PAGES)
def test_docs_page_assets_are_static_files_of_the_project(api_client, path):
    html = api_client.get(path).content.decode()

    scripts = [url for url in assets_of(html) if url.endswith(".js")]
    assert scripts
    for url in assets_of(html):
        assert finders.find(url.removeprefix("/static/")), f"{url} is not a static file"


def test_swagger_ui_loads_the_bundle_and_its_stylesheet(api_client):
    html = api_client.get("/api/docs/").content.decode()

    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in html
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui.css" in html
    assert '"validatorUrl": null' in html


def test_allauth_spec_page_reads_allauths_schema(api_client):
    html = api_client.get("/_allauth/openapi.html").content.decode()

    assert 'spec-url="/_allauth/openapi.json"' in html
    assert api_client.get("/_allauth/openapi.json").status_code == 200
