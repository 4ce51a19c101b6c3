"""`Authorization: Bearer <key>`: the key decides the workspace and the agent of the request."""

from dataclasses import dataclass

from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.exceptions import AuthenticationFailed

from apps.accounts.models import Agent, ApiKey, Workspace
from apps.accounts.services import apikey_authenticate


@dataclass(frozen=True)
class AgentPrincipal:
    """`request.user` of an API request."""

    key: ApiKey
    is_authenticated = True

    @property
    def pk(self) -> int:
        return self.key.pk

    @property
    def agent(self) -> Agent:
        return self.key.agent

    @property
    def workspace(self) -> Workspace:
        return self.key.workspace


def key_from_authorization(header: bytes) -> ApiKey:
    """The active key of an `Authorization: Bearer <key>` header (also the MCP server's over HTTP);
    AuthenticationFailed saying what is wrong otherwise."""
    scheme, _, raw_key = header.decode("latin-1").partition(" ")
    if scheme.lower() != "bearer" or not raw_key.strip():
        raise AuthenticationFailed("Send the key as 'Authorization: Bearer <key>'.")
    return key_from_raw(raw_key.strip())


def key_from_raw(raw_key: str) -> ApiKey:
    key = apikey_authenticate(raw_key=raw_key)
    if key is None:
        raise AuthenticationFailed("The API key is not valid or has been revoked.")
    return key


class ApiKeyAuthentication(BaseAuthentication):
    def authenticate(self, request) -> tuple[AgentPrincipal, ApiKey] | None:
        header = get_authorization_header(request)
        if not header:
            return None  # → 401 "not_authenticated"
        key = key_from_authorization(header)
        return AgentPrincipal(key), key

    def authenticate_header(self, request) -> str:
        return 'Bearer realm="memoryadmin"'
