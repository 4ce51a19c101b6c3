"""The MCP server reached the way a desktop client or a remote agent reaches it: the SDK's own client
over stdio (a `manage.py mcp` subprocess on the test database) and over Streamable HTTP (`/mcp/`
of memoryadmin.asgi, served by uvicorn). Both are committed-data tests (transactional)."""

import asyncio
import json
import os
import socket
import sys
import threading
import time
from contextlib import asynccontextmanager
from pathlib import Path
from urllib.parse import quote

import httpx2
import pytest
import uvicorn
from django.db import connection, connections
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from apps.accounts.models import Agent
from apps.accounts.services import apikey_issue

ROOT = Path(__file__).resolve().parents[2]


def database_url_for_subprocesses() -> str:
    database = connection.settings_dict
    return f"postgres://{database['USER']}@{quote(database['HOST'], safe='')}/{database['NAME']}"


@pytest.fixture
def asgi_server(transactional_db, settings, monkeypatch):
    """memoryadmin.asgi.application on a free port, in this process (so on the test database)."""
    from memoryadmin.asgi import application

    settings.ALLOWED_HOSTS = ["127.0.0.1"]
    # The SDK's worker threads each open a connection; closing it after every call lets the test
    # database be dropped at the end.
    monkeypatch.setitem(connections.settings["default"], "CONN_MAX_AGE", 0)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(application, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


class Transport:
    """Opens an MCP session with a raw API key over one transport."""

    def __init__(self, name: str, base_url: str = "") -> None:
        self.name, self.base_url = name, base_url

    @asynccontextmanager
    async def session(self, raw_key: str):
        if self.name == "stdio":
            env = os.environ | {"DATABASE_URL": database_url_for_subprocesses(), "MEMORYADMIN_API_KEY": raw_key}
            params = StdioServerParameters(
                command=sys.executable, args=[str(ROOT / "manage.py"), "mcp"], env=env, cwd=str(ROOT)
            )
            async with Client(params, read_timeout_seconds=120) as client:
                yield client
        else:
            headers = {"Authorization": f"Bearer {raw_key}"}
            async with (
                httpx2.AsyncClient(headers=headers, timeout=60) as http,
                Client(streamable_http_client(f"{self.base_url}/mcp/", http_client=http)) as client,
            ):
                yield client

    def run(self, raw_key: str, *calls):
        """Call tools in order in one session: each call is (tool, arguments) or a function of the
        previous answers returning one. Returns the answers: parsed JSON, or ("error", text)."""

        async def go():
            answers = []
            async with self.session(raw_key) as client:
                for call in calls:
                    name, arguments = call(answers) if callable(call) else call
                    if name == "resource":
                        result = await client.read_resource(arguments)
                        answers.append(json.loads(result.contents[0].text))
                        continue
                    result = await client.call_tool(name, arguments)
                    text = result.content[0].text
                    answers.append(("error", text) if result.is_error else json.loads(text))
            return answers

        return asyncio.run(go())


@pytest.fixture(params=["stdio", "http"])
def transport(request) -> Transport:
    if request.param == "http":
        return Transport("http", request.getfixturevalue("asgi_server"))
    request.getfixturevalue("transactional_db")
    return Transport("stdio")


def issue_key(agent, scopes=("read", "write")) -> str:
    return apikey_issue(agent=agent, scopes=list(scopes))[1]


@pytest.fixture
def bot_key(support_bot) -> str:
    return issue_key(support_bot)


@pytest.fixture
def read_only_key(support_bot) -> str:
    return issue_key(support_bot, ["read"])


@pytest.fixture
def globex_key(globex) -> str:
    return issue_key(Agent.objects.create(workspace=globex, name="Globex Bot"))


def error_of(answer) -> dict:
    """The API's error body carried by a refused tool call."""
    assert answer[0] == "error", answer
    return json.loads(answer[1][answer[1].index("{") :])["error"]


FACT_ARGS = {"subject": "alice", "key": "drink", "value": "喜欢喝冰美式", "category": "preference"}
