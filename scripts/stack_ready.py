"""Before make serve starts anything: PostgreSQL and Redis answer, and the database exists (it is created if not).

Says what is wrong and how to fix it, instead of a traceback from the first process that needs them.
"""
import os
import sys

import dj_database_url


def database() -> None:
    import psycopg
    from psycopg import sql

    config = dj_database_url.parse(os.environ["DATABASE_URL"])
    if config["ENGINE"] != "django.db.backends.postgresql":
        sys.exit("make serve runs on PostgreSQL: set DATABASE_URL=postgres://USER:PASSWORD@HOST:PORT/NAME")
    params = {"host": config["HOST"] or None, "port": config["PORT"] or None, "user": config["USER"] or None,
              "password": config["PASSWORD"] or None, "connect_timeout": 5}
    try:
        with psycopg.connect(dbname="postgres", autocommit=True, **params) as conn:
            if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [config["NAME"]]).fetchone() is None:
                conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(config["NAME"])))
                print(f"created the database {config['NAME']}")
    except psycopg.OperationalError as exc:
        sys.exit(f"PostgreSQL at {config['HOST']}:{config['PORT']} does not answer ({str(exc).strip()}); start it, "
                 f"or point DATABASE_URL at one")


def redis() -> None:
    import redis as redis_py

    url = os.environ["REDIS_URL"]
    try:
        redis_py.Redis.from_url(url, socket_connect_timeout=3).ping()
    except redis_py.RedisError as exc:
        sys.exit(f"Redis at {url} does not answer ({exc}); start it (apt-get install redis-server), or point "
                 f"REDIS_URL at one")


if __name__ == "__main__":
    database()
    redis()
    print("PostgreSQL and Redis answer")
