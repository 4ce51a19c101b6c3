"""JSON over HTTP to services we do not run (an embedding server, an LLM endpoint, webhook receivers).

One deadline bounds the whole exchange (connect, wait, read — a server that trickles bytes cannot
hold a worker), proxies from the environment are ignored for loopback hosts, and the body is
capped. Failures raise OutboundError with a message fit for logs and API errors (never the
request body) and the HTTP status when there was one. URLs that operators type (webhooks) go
through `guarded_opener`: public addresses only, checked on the address actually connected to.
"""

import contextlib
import functools
import http.client
import ipaddress
import json
import socket
import time
import urllib.error
import urllib.parse
import urllib.request


class OutboundError(Exception):
    def __init__(self, message: str, *, status: int | None = None, detail: str = "") -> None:
        super().__init__(message)
        self.status = status
        self.detail = detail  # what the server said with an error status (its words, not ours)


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
    return post(opener, url, data, headers=headers, timeout=timeout, max_bytes=max_bytes)[1]


def post(
    opener: urllib.request.OpenerDirector,
    url: str,
    data: bytes,
    *,
    headers: dict[str, str],
    timeout: float,
    max_bytes: int,
) -> tuple[int, bytes]:
    """POST the bytes `data`; the status and the raw body of a 2xx answer (anything else raises)."""
    request = urllib.request.Request(url, data=data, headers=headers, method="POST")
    deadline = time.monotonic() + timeout
    too_slow = f"{url} did not answer within {timeout:g} s"
    try:
        with opener.open(request, timeout=timeout) as response:
            return response.status, _read(response, deadline, url, max_bytes)
    except urllib.error.HTTPError as exc:
        detail = ""
        with contextlib.suppress(Exception):
            detail = exc.read(500).decode("utf-8", "replace").strip()
        raise OutboundError(
            f"{url} answered HTTP {exc.code}: {detail or exc.reason}", status=exc.code, detail=detail
        ) from exc
    except TimeoutError as exc:
        raise OutboundError(too_slow) from exc
    except urllib.error.URLError as exc:
        if isinstance(exc.reason, (TimeoutError, socket.timeout)):
            raise OutboundError(too_slow) from exc
        raise OutboundError(f"cannot reach {url}: {exc.reason}") from exc
    except (OSError, ValueError) as exc:  # connection reset, bad status line, ...
        raise OutboundError(f"request to {url} failed: {exc}") from exc


# --- to addresses that someone else chose (webhooks) ---------------------------------------------


class TargetRefused(OSError):
    """The host resolves to an address we do not send to (loopback, private, link-local, ...)."""


def public_address_error(host: str) -> str:
    """Why the literal address `host` is not a public one ("" when it is, or when it is a name)."""
    if host.lower().rstrip(".") in ("localhost", "localhost.localdomain") or host.lower().endswith(".localhost"):
        return f"{host} is not a public address"
    try:
        address = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return ""
    address = getattr(address, "ipv4_mapped", None) or address
    return "" if address.is_global and not address.is_multicast else f"{address} is not a public address"


def _public_connection(
    address,
    timeout=socket._GLOBAL_DEFAULT_TIMEOUT,  # type: ignore[attr-defined]  # create_connection's own default
    source_address=None,
    *,
    allow_private: bool,
):
    """socket.create_connection that checks every address the name resolves to, and connects to
    the one it checked (a second lookup could answer differently: DNS rebinding)."""
    host, port = address
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    if not allow_private:
        for *_, sockaddr in infos:
            if error := public_address_error(str(sockaddr[0])):
                raise TargetRefused(f"{host} resolves to {sockaddr[0]}: {error}")
    last_error: OSError = OSError(f"{host} has no address")
    for family, kind, proto, _name, sockaddr in infos:
        sock = socket.socket(family, kind, proto)
        try:
            if timeout is not socket._GLOBAL_DEFAULT_TIMEOUT:  # type: ignore[attr-defined]
                sock.settimeout(timeout)
            if source_address:
                sock.bind(source_address)
            sock.connect(sockaddr)
            return sock
        except OSError as error:
            sock.close()
            last_error = error
    raise last_error


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None  # a 3xx answer is an HTTPError: never followed to wherever it points


def guarded_opener(*, allow_private: bool) -> urllib.request.OpenerDirector:
    """An opener for URLs someone else typed: no proxies from the environment, no redirects, and
    connections only to public addresses unless `allow_private`."""
    connect = functools.partial(_public_connection, allow_private=allow_private)

    def guarded(connection_class):
        def make(*args, **kwargs):
            connection = connection_class(*args, **kwargs)
            connection._create_connection = connect
            return connection

        return make

    class HTTPHandler(urllib.request.HTTPHandler):
        def http_open(self, req):
            return self.do_open(guarded(http.client.HTTPConnection), req)

    class HTTPSHandler(urllib.request.HTTPSHandler):
        def https_open(self, req):
            return self.do_open(guarded(http.client.HTTPSConnection), req, context=self._context)  # type: ignore[attr-defined]  # set by HTTPSHandler.__init__

    return urllib.request.build_opener(urllib.request.ProxyHandler({}), _NoRedirects, HTTPHandler, HTTPSHandler)


def _read(response, deadline: float, url: str, max_bytes: int) -> bytes:
    """Read in chunks: each socket read is bounded by the time-out, the whole by the deadline."""
    chunks: list[bytes] = []
    total = 0
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
