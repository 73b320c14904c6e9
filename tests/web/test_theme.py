"""Light, dark, or as the device: the theme chosen on a device, kept in its cookie, and
every page drawn in it from the first paint (no flash of the other theme)."""

from __future__ import annotations

import pytest

from companion.web.device import THEME_COOKIE

pytestmark = pytest.mark.db


def test_a_device_that_chose_nothing_follows_the_device(client):
    html = client.get("/").get_data(as_text=True)
    assert "<html lang=\"en\">" in html
    assert '<meta name="color-scheme" content="dark light">' in html
    assert 'data-testid="theme-auto" checked' in html


@pytest.mark.parametrize("choice", ["light", "dark"])
def test_a_chosen_theme_is_kept_and_drawn_on_every_page(client, choice):
    answer = client.get(f"/theme?theme={choice}&next=/new")
    assert answer.status_code == 303
    assert answer.headers["Location"] == "/new"
    assert f"{THEME_COOKIE}={choice}" in answer.headers["Set-Cookie"]
    for page in ("/", "/new", "/recover"):
        html = client.get(page).get_data(as_text=True)
        assert f'<html lang="en" data-theme="{choice}">' in html
        assert f'<meta name="color-scheme" content="{choice}">' in html
        assert f'data-testid="theme-{choice}" checked' in html


def test_as_the_device_forgets_the_choice(client):
    client.get("/theme?theme=light&next=/")
    answer = client.get("/theme?theme=auto&next=/")
    assert answer.status_code == 303
    html = client.get("/").get_data(as_text=True)
    assert "data-theme=" not in html


@pytest.mark.parametrize("theme", ["", "purple", "LIGHT"])
def test_an_unknown_theme_is_refused_and_nothing_is_kept(client, theme):
    answer = client.get(f"/theme?theme={theme}&next=/")
    assert answer.status_code == 400
    assert "Choose light, dark, or as the device." in answer.get_data(as_text=True)
    assert "Set-Cookie" not in answer.headers or THEME_COOKIE not in answer.headers["Set-Cookie"]


@pytest.mark.parametrize("back", ["https://evil.example/", "//evil.example/", "/\\evil", ""])
def test_the_switch_only_goes_back_to_a_page_of_this_app(client, back):
    answer = client.get("/theme", query_string={"theme": "dark", "next": back})
    assert answer.status_code == 303
    assert answer.headers["Location"] == "/"


def test_a_cookie_the_app_does_not_know_is_as_the_device(client):
    client.set_cookie(THEME_COOKIE, "purple")
    html = client.get("/").get_data(as_text=True)
    assert "data-theme=" not in html
    assert 'data-testid="theme-auto" checked' in html
