import pytest
from django.core.exceptions import ImproperlyConfigured

from memoryadmin.settings import env_bool, env_float, env_int, env_list, env_str


def test_helpers_read_typed_values(monkeypatch):
    monkeypatch.setenv("X_BOOL", "yes")
    monkeypatch.setenv("X_INT", "42")
    monkeypatch.setenv("X_FLOAT", "0.25")
    monkeypatch.setenv("X_LIST", "a, b,,c")
    assert (env_bool("X_BOOL", False), env_int("X_INT", 0), env_float("X_FLOAT", 0, low=0, high=1)) == (True, 42, 0.25)
    assert env_list("X_LIST", []) == ["a", "b", "c"]
    assert env_str("X_UNSET_STR", "fallback") == "fallback"


@pytest.mark.parametrize(
    "value, read",
    [
        ("maybe", lambda: env_bool("X_BAD", False)),
        ("4.5", lambda: env_int("X_BAD", 0)),
        ("-1", lambda: env_int("X_BAD", 0, minimum=0)),
        ("lots", lambda: env_float("X_BAD", 0, low=0, high=1)),
        ("1.5", lambda: env_float("X_BAD", 0, low=0, high=1)),
    ],
)
def test_helpers_fail_loudly_on_bad_values_naming_the_variable(monkeypatch, value, read):
    monkeypatch.setenv("X_BAD", value)
    with pytest.raises(ImproperlyConfigured, match="X_BAD"):
        read()


def test_a_required_variable_must_be_set(monkeypatch):
    monkeypatch.delenv("X_REQUIRED", raising=False)
    with pytest.raises(ImproperlyConfigured, match="X_REQUIRED is required"):
        env_str("X_REQUIRED")
