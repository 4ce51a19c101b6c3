"""The operator console: dashboard, subjects, memory audit, audit log (CSV), agents and keys,
retention. Every query starts from the operator's current workspace (`request.workspace`)."""

import csv
import json
from datetime import datetime, time, timedelta
from functools import wraps
from itertools import chain

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse, JsonResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from apps.accounts import selectors as account_selectors
from apps.accounts.models import Agent, ApiKey, Membership
from apps.accounts.services import (
    agent_create,
    apikey_issue,
    apikey_revoke,
    apikey_rotate,
    operator_add,
    operator_create,
    operator_timezone_set,
    retention_update,
    workspace_create,
)
from apps.accounts.sessions import is_portal_only
from apps.audit import selectors as audit_selectors
from apps.audit.models import AuditEvent
from apps.audit.services import Actor
from apps.console import selectors as console_selectors
from apps.console.diff import diff_html, event_changes
from apps.console.forms import (
    AgentForm,
    AuditFilterForm,
    ConfirmForm,
    KeyForm,
    OperatorChangeForm,
    OperatorForm,
    ReasonForm,
    RetentionForm,
    SubjectForgetForm,
    SubjectMemoryFilterForm,
    TimezoneForm,
    WorkspaceForm,
)
from apps.console.types import ConsoleRequest, SuperuserRequest
from apps.memories import selectors, services
from apps.memories.export import subject_export_audited
from apps.memories.forms import add_service_error, memory_correct_from_form
from apps.memories.models import Memory
from apps.privacy import PIIRejected
from apps.privacy.labels import GENERIC_TOKEN, TOKEN_LABELS

PAGE = 50
SESSION_KEY = "console_workspace"


def console_view(*, admin: bool = False):
    """Operators (Membership rows) only; `request.workspace` is the one they chose. `admin=True`
    views also need the admin role. End users, strangers and sessions started by a portal link get 403.
    Times are shown (and dates read) in the operator's own zone (`Membership.timezone`)."""

    def decorator(view):
        @wraps(view)
        @login_required
        def wrapper(request: ConsoleRequest, *args, **kwargs) -> HttpResponse:
            if is_portal_only(request):  # an agent handed this session out; it never operates anything
                return render(request, "console/forbidden.html", {"reason": "portal_session"}, status=403)
            membership = _choose_workspace(request)
            if membership is None:
                return render(request, "console/forbidden.html", {"reason": "not_operator"}, status=403)
            if admin and membership.role != Membership.Role.ADMIN:
                return render(request, "console/forbidden.html", {"reason": "not_admin"}, status=403)
            with timezone.override(membership.timezone):
                return view(request, *args, **kwargs)

        return wrapper

    return decorator


def _choose_workspace(request: SuperuserRequest) -> Membership | None:
    """Sets `request.memberships`, and `request.workspace` / `request.membership` to the chosen one."""
    request.memberships = list(
        Membership.objects.filter(user=request.user).select_related("workspace").order_by("workspace__name")
    )
    chosen = request.session.get(SESSION_KEY)
    membership = next(
        (m for m in request.memberships if m.workspace_id == chosen),
        request.memberships[0] if request.memberships else None,
    )
    request.workspace, request.membership = (membership.workspace, membership) if membership else (None, None)
    return membership


def superuser_view(view):
    """Superusers only (whether or not they operate a workspace themselves); everyone else gets 403."""

    @wraps(view)
    @login_required
    def wrapper(request: SuperuserRequest, *args, **kwargs) -> HttpResponse:
        if is_portal_only(request) or not request.user.is_superuser:
            return render(request, "console/forbidden.html", {"reason": "not_superuser"}, status=403)
        membership = _choose_workspace(request)
        with timezone.override(membership.timezone if membership else "UTC"):
            return view(request, *args, **kwargs)

    return wrapper


def _actor(request: SuperuserRequest) -> Actor:
    return Actor.user(request.user, type=AuditEvent.ActorType.OPERATOR, request_id=request.id, channel="console")


def _confirm(
    request: ConsoleRequest,
    *,
    title: str,
    consequences: list[str],
    submit: str,
    cancel: str,
    form,
    quote: str = "",
    download: bool = False,
    status: int = 200,
) -> HttpResponse:
    """The confirm step of an action: GET shows what will happen and a POST form to the same URL
    (a page without JavaScript; with htmx, the same form in a modal <dialog>)."""
    context = {
        "title": title,
        "consequences": consequences,
        "submit": submit,
        "cancel": cancel,
        "form": form,
        "quote": quote,
        "download": download,
        "action": request.path,
    }
    if request.htmx and request.method == "GET":
        return render(request, "console/confirm.html#dialog", {**context, "in_dialog": True})
    return render(request, "console/confirm.html", context, status=status)


@require_POST
@console_view()
def workspace_switch(request: ConsoleRequest) -> HttpResponse:
    wanted = request.POST.get("workspace", "")
    if not any(str(m.workspace_id) == wanted for m in request.memberships):
        raise Http404
    request.session[SESSION_KEY] = int(wanted)
    return redirect("console:dashboard")


@require_GET
@console_view()
def dashboard(request: ConsoleRequest) -> HttpResponse:
    workspace = request.workspace
    counts = selectors.memory_counts(workspace=workspace)
    total = sum(row["n"] for row in counts)
    active = sum(row["n"] for row in counts if row["status"] == Memory.Status.ACTIVE)
    stale = sum(row["n"] for row in counts if row["status"] in (Memory.Status.EXPIRED, Memory.Status.ARCHIVED))

    def by(field: str, labels: dict) -> dict[str, list]:
        """{"keys": codes, "labels": the same in the reader's language, "values": counts}."""
        totals: dict[str, int] = {}
        for row in counts:
            totals[row[field]] = totals.get(row[field], 0) + row["n"]
        return {
            "keys": list(totals),
            "labels": [str(labels.get(key, key)) for key in totals],
            "values": list(totals.values()),
        }

    writes, recalls = (
        audit_selectors.writes_per_day(workspace=workspace),
        audit_selectors.recalls_per_day(workspace=workspace),
    )
    redactions = selectors.redaction_totals(workspace=workspace)
    charts = {
        "kind": by("kind", dict(Memory.Kind.choices)),
        "category": by("category", dict(Memory.Category.choices)),
        "status": by("status", dict(Memory.Status.choices)),
        "days": [day.isoformat() for day, _n in writes],
        "writes": [n for _day, n in writes],
        "recalls": [n for _day, n in recalls],
        "redactions": {
            "keys": list(redactions),
            "values": list(redactions.values()),
            "labels": [str(TOKEN_LABELS.get(kind, GENERIC_TOKEN)[1]) for kind in redactions],
        },
        "agents": audit_selectors.top_agents(workspace=workspace),
        "text": {"writes": _("writes"), "recalls": _("recalls"), "removed": _("values removed")},
    }
    return render(
        request,
        "console/dashboard.html",
        {
            "total": total,
            "active": active,
            "stale": stale,
            "stale_ratio": stale / total if total else 0,
            "latency": audit_selectors.recall_latency(workspace=workspace),
            "ingests": selectors.ingest_counts(workspace=workspace),
            "changes": {action.name: n for action, n in audit_selectors.change_counts(workspace=workspace).items()},
            "charts": charts,
        },
    )


@require_GET
@console_view()
def subjects(request: ConsoleRequest) -> HttpResponse:
    query = request.GET.get("q", "").strip()[:200]
    page = Paginator(selectors.subject_search(workspace=request.workspace, query=query), PAGE).get_page(
        request.GET.get("page")
    )
    template = "console/subjects.html#subject-rows" if request.htmx else "console/subjects.html"
    return render(request, template, {"page": page, "query": query})


@require_GET
@console_view()
def subject_detail(request: ConsoleRequest, subject_id: int) -> HttpResponse:
    subject = _subject_or_404(request, subject_id)
    form = SubjectMemoryFilterForm(request.GET)
    filters = {name: form.cleaned_data[name] for name in ("status", "kind", "category")} if form.is_valid() else {}
    sort = console_selectors.subject_sort(request.GET.get("sort", ""))
    memories = console_selectors.subject_memories(workspace=request.workspace, subject=subject, sort=sort, **filters)
    page = Paginator(memories, PAGE).get_page(request.GET.get("page"))
    console_selectors.attach_earlier_versions(workspace=request.workspace, subject=subject, heads=list(page), **filters)
    return render(
        request,
        "console/subject.html",
        {
            "subject": subject,
            "form": form,
            "page": page,
            "sort": {"column": sort.lstrip("-"), "descending": sort.startswith("-")},
        },
    )


@require_http_methods(["GET", "POST"])
@console_view()
def subject_export(request: ConsoleRequest, subject_id: int) -> HttpResponse:
    """GET: why do you take a copy? POST: everything kept about the person as JSON (audited)."""
    subject = _subject_or_404(request, subject_id)
    form = ReasonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        document = subject_export_audited(
            workspace=request.workspace, subject=subject, actor=_actor(request), reason=form.cleaned_data["reason"]
        )
        response = JsonResponse(document, json_dumps_params={"ensure_ascii": False, "indent": 2})
        response["Content-Disposition"] = (
            f'attachment; filename="subject-{subject.pk}-{timezone.localdate().isoformat()}.json"'
        )
        return response
    return _confirm(
        request,
        title=_("Export everything about %(id)s") % {"id": subject.external_id},
        consequences=[
            _(
                "A JSON file with every memory kept about this person, all versions, sources "
                "and changes, personal data as stored (placeholders)."
            ),
            _("Your name, the time and the reason are kept in the audit log."),
        ],
        submit=_("Download the export"),
        cancel=reverse("console:subject", args=[subject.pk]),
        form=form,
        download=True,
        status=400 if request.method == "POST" else 200,
    )


@require_http_methods(["GET", "POST"])
@console_view()
def subject_forget(request: ConsoleRequest, subject_id: int) -> HttpResponse:
    """GET: what forgetting the person means; POST (reason + the subject id typed): forget everything."""
    subject = _subject_or_404(request, subject_id)
    form = SubjectForgetForm(request.POST or None, subject=subject)
    if request.method == "POST" and form.is_valid():
        try:
            erased = services.subject_forget(subject=subject, actor=_actor(request), reason=form.cleaned_data["reason"])
        except PIIRejected as error:
            add_service_error(form, error, field="reason")
        else:
            messages.success(
                request,
                _("Everything about %(id)s was forgotten (%(count)d memory rows erased).")
                % {"id": subject.external_id, "count": erased},
            )
            return redirect("console:subject", subject_id=subject.pk)
    return _confirm(
        request,
        title=_("Forget everything about %(id)s?") % {"id": subject.external_id},
        consequences=[
            _(
                "Every memory of this person, with all versions, sources, posted turns and "
                "embeddings, is erased for real. Agents will recall nothing about them."
            ),
            _("Audit events keep action, actor and time, not content. This cannot be undone."),
        ],
        submit=_("Forget everything"),
        cancel=reverse("console:subject", args=[subject.pk]),
        form=form,
        status=400 if request.method == "POST" else 200,
    )


def _subject_or_404(request: ConsoleRequest, subject_id: int):
    subject = selectors.subject_by_id(workspace=request.workspace, subject_id=subject_id)
    if subject is None:
        raise Http404
    return subject


def _memory_or_404(request: ConsoleRequest, memory_id: str) -> Memory:
    memory = selectors.memory_get(workspace=request.workspace, memory_id=memory_id, include_deleted=True)
    if memory is None:
        raise Http404
    return memory


def _memory_context(request: ConsoleRequest, memory: Memory, form: OperatorChangeForm | None = None) -> dict:
    workspace = request.workspace
    history = selectors.memory_history_with_changes(workspace=workspace, memory=memory)
    chain_ = [
        (version, diff_html(previous.text, version.text) if previous else None)
        for previous, version in zip([None, *history], history, strict=False)
    ]
    return {
        "memory": memory,
        "chain": chain_,
        "reads": selectors.memory_reads(workspace=workspace, memory=memory),
        "events": selectors.memory_audit_events(workspace=workspace, memory=memory),
        "form": form or OperatorChangeForm(initial={"value": memory.content}),
    }


@require_GET
@console_view()
def memory_detail(request: ConsoleRequest, memory_id: str) -> HttpResponse:
    memory = _memory_or_404(request, memory_id)
    return render(request, "console/memory.html", _memory_context(request, memory))


@require_POST
@console_view()
def memory_correct(request: ConsoleRequest, memory_id: str) -> HttpResponse:
    memory = _memory_or_404(request, memory_id)
    form = OperatorChangeForm(request.POST)
    if result := memory_correct_from_form(form, memory=memory, actor=_actor(request)):
        messages.success(request, _("Saved as version %(version)d.") % {"version": result.memory.version})
        return redirect("console:memory", memory_id=result.memory.id)
    return render(request, "console/memory.html", _memory_context(request, memory, form), status=400)


@require_http_methods(["GET", "POST"])
@console_view()
def memory_delete(request: ConsoleRequest, memory_id: str) -> HttpResponse:
    """GET: what forgetting this memory means; POST (with a reason): forget it and every version."""
    memory = _memory_or_404(request, memory_id)
    if memory.status == Memory.Status.DELETED:
        messages.info(request, _("This memory is forgotten already."))
        return redirect("console:memory", memory_id=memory.id)
    form = ReasonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            tombstone = services.memory_forget(memory=memory, actor=_actor(request), reason=form.cleaned_data["reason"])
        except PIIRejected as error:
            add_service_error(form, error, field="reason")
        else:
            messages.success(request, _("The memory was forgotten; its tombstone stays in the log."))
            return redirect("console:memory", memory_id=tombstone.id)
    versions = Memory.objects.filter(workspace=request.workspace, lineage=memory.lineage).count()
    return _confirm(
        request,
        title=_("Forget this memory?"),
        quote=memory.text,
        consequences=[
            ngettext(
                "Its %(n)d version is erased for real: text, value, source and embedding.",
                "All %(n)d versions are erased for real: text, value, source and embedding.",
                versions,
            )
            % {"n": versions},
            _(
                "Agents will no longer recall it. A tombstone and the audit events (action, "
                "actor, time) stay. This cannot be undone."
            ),
        ],
        submit=_("Forget this memory"),
        cancel=reverse("console:memory", args=[memory.id]),
        form=form,
        status=400 if request.method == "POST" else 200,
    )


def _audit_filters(request: ConsoleRequest) -> tuple[AuditFilterForm, dict | None]:
    """The form and the filters, or None when the form is invalid (then nothing is shown: an
    unfiltered log under a refused filter would mislead)."""
    form = AuditFilterForm(request.GET)
    if not form.is_valid():
        return form, None
    data = form.cleaned_data
    zone = timezone.get_current_timezone()
    return form, {
        "actor_type": data["actor_type"],
        "action": data["action"],
        "subject": data["subject"].strip(),
        "since": datetime.combine(data["since"], time.min, zone) if data["since"] else None,
        "until": datetime.combine(data["until"] + timedelta(days=1), time.min, zone) if data["until"] else None,
    }


@require_GET
@console_view()
def audit_log(request: ConsoleRequest) -> HttpResponse:
    form, filters = _audit_filters(request)
    events = (
        audit_selectors.audit_events(workspace=request.workspace, **filters).select_related("subject")
        if filters is not None
        else AuditEvent.objects.none()
    )
    page = Paginator(events, PAGE).get_page(request.GET.get("page"))
    for event in page:
        event.changes = event_changes(event.before, event.after)  # type: ignore[attr-defined]  # for the template
    return render(request, "console/audit.html", {"form": form, "page": page}, status=400 if filters is None else 200)


class _Echo:
    def write(self, value: str) -> str:
        return value


# A spreadsheet runs a cell starting with one of these as a formula (CSV injection): such cells get a
# leading apostrophe, which spreadsheets show as text and hide.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _csv_cell(value) -> str:
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


CSV_HEADER = [
    "time",
    "actor_type",
    "actor_id",
    "actor_name",
    "action",
    "subject",
    "memory_id",
    "reason",
    "request_id",
    "channel",
    "before",
    "after",
]


@require_GET
@console_view()
def audit_csv(request: ConsoleRequest) -> HttpResponse | StreamingHttpResponse:
    """The filtered audit log as CSV, streamed row by row from a server-side cursor."""
    form, filters = _audit_filters(request)
    if filters is None:
        errors = "; ".join(f"{name}: {' '.join(map(str, messages_))}" for name, messages_ in form.errors.items())
        return HttpResponse(errors, status=400, content_type="text/plain; charset=utf-8")
    rows = (
        audit_selectors.audit_events(workspace=request.workspace, **filters)
        .values_list(
            "created_at",
            "actor_type",
            "actor_id",
            "actor_name",
            "action",
            "subject__external_id",
            "memory_id",
            "reason",
            "request_id",
            "channel",
            "before",
            "after",
        )
        .iterator(chunk_size=2000)
    )
    writer = csv.writer(_Echo())
    lines = (
        writer.writerow([_csv_cell(cell) for cell in row])
        for row in chain(
            [CSV_HEADER],
            (
                (
                    r[0].isoformat(),
                    *r[1:6],
                    r[6] or "",
                    *r[7:10],
                    json.dumps(r[10], ensure_ascii=False),
                    json.dumps(r[11], ensure_ascii=False),
                )
                for r in rows
            ),
        )
    )
    response = StreamingHttpResponse(lines, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = (
        f'attachment; filename="audit-{request.workspace.slug}-{timezone.localdate().isoformat()}.csv"'
    )
    return response


@require_http_methods(["GET", "POST"])
@console_view()
def agents(request: ConsoleRequest) -> HttpResponse:
    """Everyone sees agents and keys; creating an agent is for admins."""
    form = AgentForm(request.POST or None)
    if request.method == "POST":
        if request.membership.role != Membership.Role.ADMIN:
            return render(request, "console/forbidden.html", {"reason": "not_admin"}, status=403)
        if form.is_valid():
            try:
                agent = agent_create(workspace=request.workspace, actor=_actor(request), **form.cleaned_data)
            except ValidationError as error:
                add_service_error(form, error, field="name")
            except PIIRejected as error:
                add_service_error(form, error, field="description")
            else:
                messages.success(request, _("Agent “%(name)s” created. Issue it a key below.") % {"name": agent.name})
                return redirect("console:agents")
    agent_list = Agent.objects.filter(workspace=request.workspace).prefetch_related("api_keys").order_by("name")
    return render(
        request,
        "console/agents.html",
        {"agents": agent_list, "form": form, "key_form": KeyForm()},
        status=400 if request.method == "POST" else 200,
    )


def _agent_or_404(request: ConsoleRequest, agent_id: int) -> Agent:
    agent = Agent.objects.filter(workspace=request.workspace, pk=agent_id).first()
    if agent is None:
        raise Http404
    return agent


def _key_or_404(request: ConsoleRequest, key_id: int) -> ApiKey:
    key = ApiKey.objects.select_related("agent", "workspace").filter(workspace=request.workspace, pk=key_id).first()
    if key is None:
        raise Http404
    return key


NEW_KEY_SESSION_KEY = "console_new_key"


def _show_new_key(request: ConsoleRequest, key: ApiKey, raw_key: str) -> HttpResponse:
    """POST-redirect-GET: the new-key page shows the raw key once from the session, then drops it, so
    reloading shows nothing and issues nothing. (Never a flash message: those can linger.)"""
    request.session[NEW_KEY_SESSION_KEY] = {"key_id": key.pk, "raw_key": raw_key}
    return redirect("console:new-key")


@require_GET
@console_view(admin=True)
def new_key(request: ConsoleRequest) -> HttpResponse:
    shown = request.session.pop(NEW_KEY_SESSION_KEY, None)
    key = (
        shown and ApiKey.objects.select_related("agent").filter(workspace=request.workspace, pk=shown["key_id"]).first()
    )
    if not key:
        messages.info(request, _("A new key is shown only once. If you did not copy it, rotate it or issue another."))
        return redirect("console:agents")
    return render(request, "console/new_key.html", {"key": key, "raw_key": shown["raw_key"]})


@require_POST
@console_view(admin=True)
def key_issue(request: ConsoleRequest, agent_id: int) -> HttpResponse:
    agent = _agent_or_404(request, agent_id)
    form = KeyForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose at least one scope."))
        return redirect("console:agents")
    key, raw_key = apikey_issue(agent=agent, scopes=form.cleaned_data["scopes"], actor=_actor(request))
    return _show_new_key(request, key, raw_key)


@require_http_methods(["GET", "POST"])
@console_view(admin=True)
def key_revoke(request: ConsoleRequest, key_id: int) -> HttpResponse:
    """GET: what revoking means; POST: revoke."""
    key = _key_or_404(request, key_id)
    if key.revoked_at is not None:
        messages.info(request, _("Key %(prefix)s… is revoked already.") % {"prefix": key.prefix})
        return redirect("console:agents")
    if request.method == "GET":
        return _confirm(
            request,
            title=_("Revoke key %(prefix)s… of %(agent)s?") % {"prefix": key.prefix, "agent": key.agent.name},
            consequences=[
                _("Every request with this key gets 401 from now on: %(agent)s stops working until it has another key.")
                % {"agent": key.agent.name},
                _("A revoked key cannot be rotated or brought back."),
            ],
            submit=_("Revoke the key"),
            cancel=reverse("console:agents"),
            form=ConfirmForm(),
        )
    key = apikey_revoke(key=key, actor=_actor(request))
    messages.success(request, _("Key %(prefix)s… is revoked; requests with it now get 401.") % {"prefix": key.prefix})
    return redirect("console:agents")


@require_http_methods(["GET", "POST"])
@console_view(admin=True)
def key_rotate(request: ConsoleRequest, key_id: int) -> HttpResponse:
    """GET: what rotating means; POST: revoke the key and show its replacement once."""
    key = _key_or_404(request, key_id)
    if key.revoked_at is not None:  # also checked by the service, under a lock
        messages.error(
            request,
            _("Key %(prefix)s… is revoked and cannot be rotated; issue a new key instead.") % {"prefix": key.prefix},
        )
        return redirect("console:agents")
    if request.method == "GET":
        return _confirm(
            request,
            title=_("Rotate key %(prefix)s… of %(agent)s?") % {"prefix": key.prefix, "agent": key.agent.name},
            consequences=[
                _("The key stops working at once and a new one with the same scopes is shown to you once."),
                _("Put the new key into %(agent)s right away: until then its requests get 401.")
                % {"agent": key.agent.name},
            ],
            submit=_("Rotate the key"),
            cancel=reverse("console:agents"),
            form=ConfirmForm(),
        )
    try:
        key, raw_key = apikey_rotate(key=key, actor=_actor(request))
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect("console:agents")
    return _show_new_key(request, key, raw_key)


@require_http_methods(["GET", "POST"])
@console_view(admin=True)
def retention(request: ConsoleRequest) -> HttpResponse:
    policy = account_selectors.retention_for(workspace=request.workspace)
    initial = {
        "subject_capacity": policy.subject_capacity,
        "archive_unread_after_days": policy.archive_unread_after_days,
        "access_log_retention_days": policy.access_log_retention_days,
        **{f"ttl_{category}": days for category, days in policy.ttl_days.items()},
    }
    form = RetentionForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        retention_update(
            workspace=request.workspace,
            actor=_actor(request),
            ttl_days=form.ttl_days(),
            subject_capacity=form.cleaned_data["subject_capacity"],
            archive_unread_after_days=form.cleaned_data["archive_unread_after_days"],
            access_log_retention_days=form.cleaned_data["access_log_retention_days"],
        )
        messages.success(request, _("Retention settings saved."))
        return redirect("console:retention")
    return render(request, "console/retention.html", {"form": form}, status=400 if request.method == "POST" else 200)


@require_http_methods(["GET", "POST"])
@console_view()
def my_settings(request: ConsoleRequest) -> HttpResponse:
    """The operator's own settings: the time zone the console shows times in."""
    form = TimezoneForm(request.POST or None, initial={"timezone": request.membership.timezone})
    if request.method == "POST" and form.is_valid():
        operator_timezone_set(
            membership=request.membership, timezone_name=form.cleaned_data["timezone"], actor=_actor(request)
        )
        messages.success(request, _("Times are now shown in %(zone)s.") % {"zone": form.cleaned_data["timezone"]})
        return redirect("console:settings")
    return render(request, "console/settings.html", {"form": form}, status=400 if request.method == "POST" else 200)


INVITE_SESSION_KEY = "console_invite"


@require_http_methods(["GET", "POST"])
@superuser_view
def workspaces(request: SuperuserRequest) -> HttpResponse:
    """Every workspace and its operators; create a workspace, add a login as operator or invite a new one."""
    action = request.POST.get("action") if request.method == "POST" else None
    workspace_form = WorkspaceForm(request.POST if action == "workspace" else None)
    operator_form = OperatorForm(request.POST if action == "operator" else None)
    if action == "workspace" and workspace_form.is_valid():
        try:
            workspace = workspace_create(actor=_actor(request), **workspace_form.cleaned_data)
        except ValidationError as error:
            add_service_error(workspace_form, error, field=None)
        else:
            messages.success(
                request, _("Workspace “%(name)s” created. Add its first operator below.") % {"name": workspace.name}
            )
            return redirect("console:workspaces")
    if action == "operator" and operator_form.is_valid() and (membership := _add_operator(request, operator_form)):
        if not membership.user.has_usable_password():
            request.session[INVITE_SESSION_KEY] = membership.pk
            return redirect("console:invited")
        messages.success(
            request,
            _("%(user)s is now %(role)s of %(workspace)s.")
            % {
                "user": membership.user.get_username(),
                "role": membership.get_role_display(),
                "workspace": membership.workspace.name,
            },
        )
        return redirect("console:workspaces")
    context = {
        "workspaces": account_selectors.workspaces_with_operators(),
        "workspace_form": workspace_form,
        "operator_form": operator_form,
    }
    template = "console/workspaces.html#workspace-list" if request.htmx else "console/workspaces.html"
    return render(request, template, context, status=400 if action else 200)


def _add_operator(request: SuperuserRequest, form: OperatorForm) -> Membership | None:
    data = form.cleaned_data
    user = account_selectors.user_by_username(username=data["username"])
    try:
        if user is not None:
            return operator_add(workspace=data["workspace"], user=user, role=data["role"], actor=_actor(request))
        if not data["email"]:
            form.add_error("email", _("No login with this username yet: give an e-mail address to invite them."))
            return None
        return operator_create(
            workspace=data["workspace"],
            username=data["username"],
            email=data["email"],
            role=data["role"],
            actor=_actor(request),
        )
    except ValidationError as error:
        add_service_error(form, error, field=None)
        return None


@require_GET
@superuser_view
def invited(request: SuperuserRequest) -> HttpResponse:
    """The invite link of a new operator, shown once (POST-redirect-GET, like a new key): it opens
    Django's set-password page; choosing a password uses it up."""
    membership_id = request.session.pop(INVITE_SESSION_KEY, None)
    membership = (
        membership_id and Membership.objects.select_related("user", "workspace").filter(pk=membership_id).first()
    )
    if not membership:
        messages.info(
            request,
            _(
                "An invite link is shown only once. To make a new one, use “Forgot password” "
                "or invite the login again after deleting it in the admin."
            ),
        )
        return redirect("console:workspaces")
    user = membership.user
    path = reverse(
        "password_reset_confirm",
        args=[urlsafe_base64_encode(force_bytes(user.pk)), default_token_generator.make_token(user)],
    )
    return render(request, "console/invited.html", {"membership": membership, "link": request.build_absolute_uri(path)})
