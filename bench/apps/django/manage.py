"""The corpus's Django project (issue 34): the admin over one model, run from .realworld's venv."""

import os
import sys

if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "corpus.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)
