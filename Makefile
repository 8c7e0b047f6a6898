# The two commands a new machine needs:
#   make run   install, create a SQLite database with the sample books, start the app
#   make test  install everything the tests need and run the whole suite
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1:8000

.PHONY: run test install install-dev install-browser db bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

install: $(BIN)/python
	$(BIN)/pip install --quiet -r requirements.txt

install-dev: $(BIN)/python
	$(BIN)/pip install --quiet -r requirements-dev.txt

install-browser:
	@scripts/install-browser

db: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py load_handbooks

run: db
	$(BIN)/python manage.py runserver $(HOST)

test: install-dev install-browser
	$(BIN)/ruff check .
	$(BIN)/python -m pytest

bench: install-dev
	$(BIN)/python bench/run_all.py

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles .pytest_cache
