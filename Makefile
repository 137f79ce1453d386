# The two commands of the README: `make demo` and `make test`. Both set up what they need.
.PHONY: setup demo test lint bench docs

# `setup` brings what the tests need; the demo's own set-up brings only what the demo runs.
setup:
	@bash scripts/setup.sh test

demo:
	@bash scripts/setup.sh demo
	.venv/bin/cdpagent demo

# The API reference is built on every test run too (into a scratch folder): a docstring that
# breaks pdoc or names nothing fails CI, not only `make docs`.
lint: setup
	.venv/bin/ruff check .
	.venv/bin/mypy
	.venv/bin/python scripts/check_docs.py "$$(mktemp -d)"

test: lint
	.venv/bin/pytest -q -n 2 --dist loadgroup

# The bench extra is the Python peers (Playwright, cdp-use, pydoll); bench/*.py drive
# /usr/bin/chromium with them, so no browser is ever downloaded. bench/peers.py installs
# puppeteer-core (Node) into bench/node on first use.
bench: setup
	.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[test,bench]'
	.venv/bin/python bench/startup.py
	.venv/bin/python bench/roundtrip.py
	.venv/bin/python bench/invoke.py
	.venv/bin/python bench/peers.py
	.venv/bin/python bench/observe.py
	.venv/bin/python bench/act.py
	.venv/bin/python bench/screenshot.py
	.venv/bin/python bench/webmcp.py
	.venv/bin/python bench/agent.py
	.venv/bin/python bench/grid.py
	.venv/bin/python bench/mcp.py

# The API reference from the docstrings (pdoc) into docs/api/, which git ignores;
# fails on any pdoc warning and on a docstring reference (:class:`…`) that names nothing.
docs: setup
	.venv/bin/python scripts/check_docs.py docs/api
