"""Settings helpers fail loudly, naming the variable."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from webapp.env import env_bool, env_choice, env_float, env_int, env_list


@pytest.mark.parametrize("reader, value, expected", [
    (lambda: env_int("V", 3, minimum=1), None, 3),
    (lambda: env_int("V", 3, minimum=1), "7", 7),
    (lambda: env_float("V", 0.5, maximum=1), "0.25", 0.25),
    (lambda: env_bool("V"), "yes", True),
    (lambda: env_bool("V", True), "off", False),
    (lambda: env_choice("V", ("a", "b"), "a"), "B", "b"),
    (lambda: env_list("V"), " x, ,y ", ["x", "y"]),
])
def test_good_values(monkeypatch, reader, value, expected):
    if value is None:
        monkeypatch.delenv("V", raising=False)
    else:
        monkeypatch.setenv("V", value)
    assert reader() == expected


@pytest.mark.parametrize("reader, value, message", [
    (lambda: env_int("V", 3), "three", "V must be a whole number"),
    (lambda: env_int("V", 3, minimum=1), "0", "V must be at least 1"),
    (lambda: env_float("V", 0.5, maximum=1), "2", "V must be at most 1"),
    (lambda: env_float("V", 0.5), "x", "V must be a number"),
    (lambda: env_bool("V"), "maybe", "V must be one of"),
    (lambda: env_choice("V", ("a", "b"), "a"), "c", "V must be one of a, b"),
])
def test_bad_values_name_the_variable(monkeypatch, reader, value, message):
    monkeypatch.setenv("V", value)
    with pytest.raises(ImproperlyConfigured, match=message):
        reader()
