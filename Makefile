# The two commands a new machine needs:
#   make run   install, create a SQLite database with the sample books, start the app
#   make test  install everything the tests need and run the whole suite
# And the production stack on this machine (PostgreSQL and Redis running):
#   make serve       gunicorn, a Celery worker and beat, DEBUG off (scripts/serve; docs/deploy.md)
#   make test-stack  the deploy check and the scale-out test (tests/stack)
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1:8000

.PHONY: run serve test test-stack deploy-check install install-dev install-browser install-test-tools db bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

install: $(BIN)/python
	$(BIN)/pip install --quiet -r requirements.txt

install-dev: $(BIN)/python
	$(BIN)/pip install --quiet -r requirements-dev.txt

install-browser:
	@scripts/install-browser

install-test-tools:
	@scripts/install-test-tools

db: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py load_handbooks

run: db
	$(BIN)/python manage.py runserver $(HOST)

serve: install
	@scripts/serve

test: install-dev install-browser install-test-tools
	$(BIN)/ruff check .
	$(BIN)/lint-imports
	$(BIN)/mypy
	$(BIN)/python -m pytest

deploy-check: install
	@scripts/deploy-check

test-stack: install-dev deploy-check
	$(BIN)/python -m pytest tests/stack --stack -p no:cacheprovider

bench: install-dev
	$(BIN)/python bench/run_all.py

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles var .pytest_cache node_modules
