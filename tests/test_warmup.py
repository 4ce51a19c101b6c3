"""A web process loads its slow pieces before it serves, not in a thread racing the first requests."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_a_web_process_has_presidio_the_models_and_every_view_loaded_before_its_first_request():
    code = (
        "import json, sys, threading; import memoryadmin.wsgi; "
        "from apps.privacy import redaction; "
        "print(json.dumps({'engines': redaction._engines is not None, "
        "'views': 'apps.api.views' in sys.modules and 'apps.portal.views' in sys.modules, "
        "'threads': sorted(t.name for t in threading.enumerate())}))"
    )
    env = {"PATH": os.environ["PATH"], "DJANGO_SETTINGS_MODULE": "memoryadmin.settings", "DEBUG": "true"}
    env["DATABASE_URL"] = os.environ.get("DATABASE_URL") or "postgres://nobody@127.0.0.1:1/nothing"
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=True
    )
    state = json.loads(done.stdout.strip().splitlines()[-1])
    assert state["engines"], "Presidio is built on the first request instead of at start"
    assert state["views"], "the URLconf is imported by the first request instead of at start"
    assert "warm-up" not in state["threads"], "a warm-up thread still runs beside the request threads"
