import pytest

from apps.accounts.models import Membership


@pytest.fixture
def olga(acme, django_user_model):
    """Olga is an operator (not admin) of Acme."""
    user = django_user_model.objects.create_user("olga", password="olga-pass")
    Membership.objects.create(workspace=acme, user=user, role=Membership.Role.OPERATOR)
    return user


@pytest.fixture
def adam(acme, django_user_model):
    """Adam is an admin of Acme."""
    user = django_user_model.objects.create_user("adam", password="adam-pass")
    Membership.objects.create(workspace=acme, user=user, role=Membership.Role.ADMIN)
    return user


@pytest.fixture
def gina(globex, django_user_model):
    """Gina is an admin of Globex only."""
    user = django_user_model.objects.create_user("gina", password="gina-pass")
    Membership.objects.create(workspace=globex, user=user, role=Membership.Role.ADMIN)
    return user


@pytest.fixture
def as_olga(client, olga):
    client.force_login(olga)
    return client


@pytest.fixture
def as_adam(client, adam):
    client.force_login(adam)
    return client


@pytest.fixture
def as_gina(client, gina):
    client.force_login(gina)
    return client
