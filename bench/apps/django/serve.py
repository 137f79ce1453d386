"""Serve the corpus's Django project on 127.0.0.1, a port the system picks; print the port.

Run with .realworld's Django venv: ``python serve.py`` (``CORPUS_DB`` names the database).
The socket is bound before the port is printed, so a reader of the first line can connect
at once. Static files (the admin's CSS and scripts) are served by Django's own handler."""

import os
import sys
from socketserver import ThreadingMixIn
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "corpus.settings")

import django

django.setup()

from django.contrib.staticfiles.handlers import StaticFilesHandler  # noqa: E402
from django.core.wsgi import get_wsgi_application  # noqa: E402


class Server(ThreadingMixIn, WSGIServer):
    daemon_threads = True


class Quiet(WSGIRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


if __name__ == "__main__":
    httpd = make_server("127.0.0.1", 0, StaticFilesHandler(get_wsgi_application()), Server, Quiet)
    print(httpd.server_port, flush=True)
    httpd.serve_forever()
