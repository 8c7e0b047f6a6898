"""Background jobs: a Job row per piece of slow work, run by a Celery worker, or in-process without a broker.

Other apps register a kind of job (``registry.job_kind``) and enqueue it with
``services.job_enqueue``; pages and the API show a job's status and offer its
result for download. See docs/jobs.md.
"""
