#!/usr/bin/env python
"""Django's command-line utility for Verity."""
import os
import sys

# Interface names with hyphens (DESIGN.md) for commands whose modules must use underscores.
ALIASES = {"verify-answers": "verify_answers"}


def _resolve_aliases(argv: list[str]) -> list[str]:
    argv = list(argv)
    for i in (1, 2):  # `manage.py verify-answers ...` and `manage.py help verify-answers`
        if len(argv) > i and argv[i] in ALIASES and (i == 1 or argv[1] == "help"):
            argv[i] = ALIASES[argv[i]]
    return argv


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "webapp.settings")
    from django.core.management import execute_from_command_line

    from webapp.env import exit_on_bad_setting

    exit_on_bad_setting(lambda: execute_from_command_line(_resolve_aliases(sys.argv)))


if __name__ == "__main__":
    main()
