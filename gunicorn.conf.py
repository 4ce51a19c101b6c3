"""gunicorn's settings for memoryadmin, in one place: production and `make load` (bench/load.py) use it.

    gunicorn -c gunicorn.conf.py memoryadmin.wsgi:application -b 127.0.0.1:8000

The layout was chosen by measuring `make load` on a 2-core machine (README, Benchmarks). The
environment overrides it: WEB_CONCURRENCY (worker processes), GUNICORN_THREADS (threads per
worker). Command-line options override this file.
"""

import os

# One process per core (recall is CPU work: Django, jieba, the e5 query embedding); threads cover
# the waits on PostgreSQL and let a process see its own queue of query embeddings (the overload
# rule, RECALL_EMBED_QUEUE_BUDGET).
workers = int(os.environ.get("WEB_CONCURRENCY", os.cpu_count() or 2))
worker_class = "gthread"
threads = int(os.environ.get("GUNICORN_THREADS", 4))
# A worker takes a connection only when one of its threads is free, and answers it with
# `Connection: close`: the requests nobody can serve yet wait in the kernel's accept queue, first
# come first served, and go to whichever worker frees a thread first. With keep-alive, a connection
# stays with the worker that accepted it, and gthread accepts up to 1,000 of them whether or not it
# has a thread free: under `make load` the clients of one busy worker waited ~2.5 s while others
# got ~100 ms. A reconnect costs a fraction of a millisecond on loopback or from a local proxy.
worker_connections = threads
keepalive = 0
timeout = 60
graceful_timeout = 10
