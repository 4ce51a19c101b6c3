"""JSON over HTTP to services we do not run (an embedding server, an LLM endpoint).

One deadline bounds the whole exchange (connect, wait, read — a server that trickles bytes cannot
hold a worker), proxies from the environment are ignored for loopback hosts, and the body is
capped. Failures raise OutboundError with a message fit for logs and API errors (never the
request body) and the HTTP status when there was one.
"""

import ipaddress
import json
import socket
import time
import urllib.error
import urllib.parse
import urllib.request


class OutboundError(Exception):
    def __init__(self, message: str, *, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


def is_loopback(host: str | None) -> bool:
    if not host:
        return False
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def opener_for(url: str) -> urllib.request.OpenerDirector:
    # A proxy from the environment must not swallow requests to a server on this machine.
    handlers = [urllib.request.ProxyHandler({})] if is_loopback(urllib.parse.urlsplit(url).hostname) else []
    return urllib.request.build_opener(*handlers)


def post_json(
    opener: urllib.request.OpenerDirector, url: str, payload: dict, *, api_key: str, timeout: float, max_bytes: int
) -> bytes:
    """POST `payload` as JSON (Bearer `api_key` when set); the raw response body."""
    headers = {"Content-Type": "application/json", "Accept": "application/json"}
    if api_key:
        headers["Authorization"] = f"Bearer {api_key}"
    data = json.dumps(payload, ensure_ascii=False).encode("utf-8")
    request = urllib.request.Request(url, data=data, headers=headers, method="POST")
    deadline = time.monotonic() + timeout
    too_slow = f"{url} did not answer within {timeout:g} s"
    try:
        with opener.open(request, timeout=timeout) as response:
            return _read(response, deadline, url, max_bytes)
    except urllib.error.HTTPError as exc:
        detail = ""
        try:
            detail = exc.read(500).decode("utf-8", "replace").strip()
        except Exception:
            pass
        raise OutboundError(f"{url} answered HTTP {exc.code}: {detail or exc.reason}", status=exc.code) from exc
    except (TimeoutError, socket.timeout) as exc:
        raise OutboundError(too_slow) from exc
    except urllib.error.URLError as exc:
        if isinstance(exc.reason, (TimeoutError, socket.timeout)):
            raise OutboundError(too_slow) from exc
        raise OutboundError(f"cannot reach {url}: {exc.reason}") from exc
    except (OSError, ValueError) as exc:  # connection reset, bad status line, ...
        raise OutboundError(f"request to {url} failed: {exc}") from exc


def _read(response, deadline: float, url: str, max_bytes: int) -> bytes:
    """Read in chunks: each socket read is bounded by the time-out, the whole by the deadline."""
    chunks, total = [], 0
    while True:
        if time.monotonic() > deadline:
            raise TimeoutError
        chunk = response.read(64 * 1024)
        if not chunk:
            return b"".join(chunks)
        total += len(chunk)
        if total > max_bytes:
            raise OutboundError(f"{url} sent more than {max_bytes} bytes")
        chunks.append(chunk)
