"""Settings helpers fail loudly, naming the variable."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from webapp.env import env_bool, env_choice, env_float, env_int, env_list

ROOT = Path(__file__).resolve().parent.parent


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


def test_env_file_fills_unset_variables_only(monkeypatch, tmp_path):
    from webapp.env import load_env_file

    env_file = tmp_path / ".env"
    env_file.write_text("# comment\nV_FROM_FILE=from file\nV_SET=from file\nexport V_QUOTED=\"a b\"\n")
    monkeypatch.setenv("V_SET", "from environment")
    for name in ("V_FROM_FILE", "V_QUOTED"):
        monkeypatch.delenv(name, raising=False)
    assert sorted(load_env_file(env_file)) == ["V_FROM_FILE", "V_QUOTED"]
    assert os.environ["V_FROM_FILE"] == "from file"
    assert os.environ["V_QUOTED"] == "a b"
    assert os.environ["V_SET"] == "from environment"
    for name in ("V_FROM_FILE", "V_QUOTED"):
        monkeypatch.delenv(name)
    assert load_env_file(tmp_path / "absent") == []


@pytest.mark.parametrize("line, variable", [
    ("VERITY_EMBED_BATCH=zero", "VERITY_EMBED_BATCH"),
    ("DJANGO_DEBUG=maybe", "DJANGO_DEBUG"),
    ("VERITY_GENERATOR=gpt", "VERITY_GENERATOR"),
])
def test_bad_value_in_env_file_stops_manage_py_with_one_line(tmp_path, line, variable):
    env_file = tmp_path / ".env"
    env_file.write_text(line + "\n")
    env = {k: v for k, v in os.environ.items() if k not in (variable, "DJANGO_SETTINGS_MODULE", "PYTEST_VERSION")}
    env["VERITY_ENV_FILE"] = str(env_file)
    done = subprocess.run([sys.executable, "manage.py", "check"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"Configuration error: {variable} must"), done.stderr
    assert "Traceback" not in done.stderr
