"""Console pages for webhooks: the endpoints of the operator's workspace, one endpoint with its
delivery log, and the admin actions (add, edit, switch off/on, rotate the secret, send a test,
redeliver). Everyone of the workspace looks; admins change. Every query starts from
`request.workspace`, so another workspace's endpoint or delivery is a 404."""

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from apps.accounts.models import Membership
from apps.console.forms import ConfirmForm
from apps.console.types import ConsoleRequest
from apps.console.views import PAGE, _actor, _confirm, console_view
from apps.memories.forms import add_service_error
from apps.webhooks import selectors, services
from apps.webhooks.delivery import deliver
from apps.webhooks.models import EventType, WebhookDelivery, WebhookEndpoint

SECRET_SESSION_KEY = "console_webhook_secret"


class EndpointForm(forms.Form):
    url = forms.CharField(label=gettext_lazy("Receiver URL (https://…)"), max_length=500)
    description = forms.CharField(label=gettext_lazy("Description"), required=False, max_length=200)
    events = forms.MultipleChoiceField(
        label=gettext_lazy("Events"),
        choices=EventType.choices,
        widget=forms.CheckboxSelectMultiple,
        initial=EventType.values,
    )
    include_content = forms.BooleanField(
        label=gettext_lazy("Include the stored (redacted) text and value of memories"), required=False
    )

    def save(self, request: ConsoleRequest, endpoint: WebhookEndpoint | None = None):
        """Call the service; its refusals become field errors. The endpoint (and the secret when
        new), or None when the form is invalid."""
        if not self.is_valid():
            return None
        try:
            if endpoint is None:
                return services.endpoint_create(workspace=request.workspace, actor=_actor(request), **self.cleaned_data)
            return services.endpoint_update(endpoint=endpoint, actor=_actor(request), **self.cleaned_data), None
        except ValidationError as error:
            add_service_error(self, error, field=None)
            return None


def _is_admin(request: ConsoleRequest) -> bool:
    return request.membership.role == Membership.Role.ADMIN


def _forbidden(request: ConsoleRequest) -> HttpResponse:
    return render(request, "console/forbidden.html", {"reason": "not_admin"}, status=403)


def _endpoint_or_404(request: ConsoleRequest, endpoint_id: int) -> WebhookEndpoint:
    endpoint = selectors.endpoint_get(workspace=request.workspace, endpoint_id=endpoint_id)
    if endpoint is None:
        raise Http404
    return endpoint


def _show_secret(request: ConsoleRequest, endpoint: WebhookEndpoint, secret: str) -> HttpResponse:
    """POST-redirect-GET: the secret page shows it once from the session, then drops it."""
    request.session[SECRET_SESSION_KEY] = {"endpoint_id": endpoint.pk, "secret": secret}
    return redirect("console:webhook-secret")


@require_http_methods(["GET", "POST"])
@console_view()
def webhooks(request: ConsoleRequest) -> HttpResponse:
    form = EndpointForm(request.POST or None)
    if request.method == "POST":
        if not _is_admin(request):
            return _forbidden(request)
        if saved := form.save(request):
            return _show_secret(request, *saved)
    return render(
        request,
        "console/webhooks.html",
        {
            "endpoints": selectors.endpoint_list(workspace=request.workspace),
            "form": form,
        },
        status=400 if request.method == "POST" else 200,
    )


@require_GET
@console_view(admin=True)
def webhook_secret(request: ConsoleRequest) -> HttpResponse:
    shown = request.session.pop(SECRET_SESSION_KEY, None)
    endpoint = shown and selectors.endpoint_get(workspace=request.workspace, endpoint_id=shown["endpoint_id"])
    if not endpoint:
        messages.info(request, _("A signing secret is shown only once. If you did not copy it, rotate it."))
        return redirect("console:webhooks")
    return render(request, "console/webhook_secret.html", {"endpoint": endpoint, "secret": shown["secret"]})


@require_http_methods(["GET", "POST"])
@console_view()
def webhook_detail(request: ConsoleRequest, endpoint_id: int) -> HttpResponse:
    endpoint = _endpoint_or_404(request, endpoint_id)
    initial = {
        "url": endpoint.url,
        "description": endpoint.description,
        "events": endpoint.events,
        "include_content": endpoint.include_content,
    }
    form = EndpointForm(request.POST or None, initial=initial)
    if request.method == "POST":
        if not _is_admin(request):
            return _forbidden(request)
        if form.save(request, endpoint):
            messages.success(request, _("Webhook saved."))
            return redirect("console:webhook", endpoint_id=endpoint.pk)
    page = Paginator(selectors.delivery_log(workspace=request.workspace, endpoint=endpoint), PAGE).get_page(
        request.GET.get("page")
    )
    template = (
        "console/webhook.html#delivery-rows" if request.htmx and request.method == "GET" else "console/webhook.html"
    )
    return render(
        request,
        template,
        {"endpoint": endpoint, "form": form, "page": page},
        status=400 if request.method == "POST" else 200,
    )


def _endpoint_confirm(
    request: ConsoleRequest, endpoint: WebhookEndpoint, *, title: str, consequences: list[str], submit: str
) -> HttpResponse:
    """The confirm step of an action on one endpoint: Cancel goes back to its page."""
    return _confirm(
        request,
        title=title,
        consequences=consequences,
        submit=submit,
        cancel=reverse("console:webhook", args=[endpoint.pk]),
        form=ConfirmForm(),
    )


@require_http_methods(["GET", "POST"])
@console_view(admin=True)
def webhook_switch(request: ConsoleRequest, endpoint_id: int, *, enabled: bool) -> HttpResponse:
    """Switch an endpoint on (with a clean failure count) or off (its pending deliveries stop; GET:
    what that means, first). Switching on needs no confirm step: nothing is lost by it."""
    endpoint = _endpoint_or_404(request, endpoint_id)
    if request.method == "GET":
        if enabled:
            return redirect("console:webhook", endpoint_id=endpoint_id)
        return _endpoint_confirm(
            request,
            endpoint,
            title=_("Switch off the webhook to %(url)s?") % {"url": endpoint.url},
            consequences=[
                _("From now on nothing more is sent to it; deliveries still pending stop."),
                _("Events while it is off are not sent later: switch it on again to receive new ones."),
            ],
            submit=_("Switch off"),
        )
    services.endpoint_set_enabled(endpoint=endpoint, enabled=enabled, actor=_actor(request))
    messages.success(
        request, _("Webhook switched on.") if enabled else _("Webhook switched off: nothing more is sent to it.")
    )
    return redirect("console:webhook", endpoint_id=endpoint_id)


@require_http_methods(["GET", "POST"])
@console_view(admin=True)
def webhook_rotate_secret(request: ConsoleRequest, endpoint_id: int) -> HttpResponse:
    """GET: what rotating means; POST: a new signing secret, shown once."""
    endpoint = _endpoint_or_404(request, endpoint_id)
    if request.method == "GET":
        return _endpoint_confirm(
            request,
            endpoint,
            title=_("Rotate the signing secret of %(url)s?") % {"url": endpoint.url},
            consequences=[
                _("The old secret stops verifying at once: deliveries from now on are signed with the new one."),
                _("The new secret is shown to you once. Put it into the receiver right away."),
            ],
            submit=_("Rotate the secret"),
        )
    return _show_secret(request, endpoint, services.endpoint_rotate_secret(endpoint=endpoint, actor=_actor(request)))


def _sent(request: ConsoleRequest, delivery_id: int, endpoint_id: int) -> HttpResponse:
    """Send now, in this request (bounded by WEBHOOK_TIMEOUT), and say how it went."""
    deliver(delivery_id=delivery_id)
    delivery = WebhookDelivery.objects.get(pk=delivery_id)
    if delivery.state == WebhookDelivery.State.DELIVERED:
        messages.success(request, _("Delivered: the receiver answered %(code)s.") % {"code": delivery.last_status_code})
    else:
        messages.error(request, _("Not delivered; see the delivery log below."))
    return redirect("console:webhook", endpoint_id=endpoint_id)


@require_POST
@console_view(admin=True)
def webhook_test(request: ConsoleRequest, endpoint_id: int) -> HttpResponse:
    endpoint = _endpoint_or_404(request, endpoint_id)
    return _sent(request, services.webhook_send_test(endpoint=endpoint, actor=_actor(request)), endpoint.pk)


@require_POST
@console_view(admin=True)
def webhook_redeliver(request: ConsoleRequest, delivery_id: int) -> HttpResponse:
    delivery = selectors.delivery_get(workspace=request.workspace, delivery_id=delivery_id)
    if delivery is None:
        raise Http404
    try:
        services.delivery_redeliver(delivery=delivery, actor=_actor(request))
    except services.RedeliveryRefused as refused:
        messages.error(request, str(refused))
        return redirect("console:webhook", endpoint_id=delivery.endpoint_id)
    return _sent(request, delivery.pk, delivery.endpoint_id)
