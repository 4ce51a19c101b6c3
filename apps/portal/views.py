"""The end-user portal, "What the assistant remembers about me": view, search, pin, correct,
delete, forget everything, export. Every action is a plain POST + redirect; with htmx, the same
views return only the affected partial."""

from functools import wraps
from itertools import groupby

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect, reswap, retarget

from apps.accounts.models import Subject
from apps.accounts.services import PortalLinkError, portal_link_peek, portal_link_redeem
from apps.accounts.sessions import mark_portal_only
from apps.audit.models import AuditEvent
from apps.audit.services import Actor
from apps.memories import selectors, services
from apps.memories.export import export_document
from apps.memories.models import Memory
from apps.portal.forms import CorrectForm, FilterForm, ForgetAllForm
from apps.privacy import PIIRejected
from apps.privacy.labels import removed_notice

EPISODES_PER_PAGE = 30
CATEGORY_ORDER = [Memory.Category.PREFERENCE, Memory.Category.FACT, Memory.Category.CONSTRAINT, Memory.Category.GOAL]


def portal_view(view):
    """Signed-in people who are a subject; `request.subject` is theirs, dates in their time zone."""

    @wraps(view)
    @login_required
    def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        subject = Subject.objects.select_related("workspace").filter(user=request.user).first()
        if subject is None:
            return render(request, "portal/no_subject.html", status=403)
        request.subject = subject
        with timezone.override(subject.timezone):
            return view(request, *args, **kwargs)

    return wrapper


def _actor(request: HttpRequest) -> Actor:
    return Actor.user(request.user, type=AuditEvent.ActorType.END_USER, request_id=request.id, channel="portal")


def _owned(request: HttpRequest, memory_id: str) -> Memory:
    memory = selectors.memory_get(workspace=request.subject.workspace, memory_id=memory_id)
    if memory is None or memory.subject_id != request.subject.pk:
        raise Http404
    return memory


def _timeline(episodes) -> list[dict]:
    """Episodes grouped by local day, then by session."""
    days = []
    for day, day_items in groupby(episodes, key=lambda m: timezone.localdate(m.occurred_at or m.updated_at)):
        sessions = [{"session_id": sid, "episodes": list(items)} for sid, items in groupby(day_items, lambda m: m.session_id)]
        days.append({"day": day, "sessions": sessions})
    return days


@require_GET
@portal_view
def memories(request: HttpRequest) -> HttpResponse:
    form = FilterForm(request.GET)
    filters = form.cleaned_data if form.is_valid() else {}
    workspace, subject = request.subject.workspace, request.subject
    common = {"workspace": workspace, "subject": subject, "category": filters.get("category") or None,
              "text_contains": filters.get("q") or None}
    kind = filters.get("kind")
    facts = list(selectors.memory_list(kind="profile", **common)) if kind in ("", None, "profile") else []
    episodes = selectors.memory_list(kind="episode", **common).order_by("-occurred_at", "-id")
    page = Paginator(episodes if kind in ("", None, "episode") else episodes.none(), EPISODES_PER_PAGE).get_page(
        request.GET.get("page")
    )
    context = {
        "form": form,
        "facts_by_category": [
            (label, [f for f in facts if f.category == value])
            for value, label in Memory.Category.choices if value in CATEGORY_ORDER
        ],
        "fact_count": len(facts),
        "page": page,
        "timeline": _timeline(page.object_list),
        "filtered": any(filters.values()),
    }
    if request.htmx and request.htmx.target == "memory-list":
        return render(request, "portal/memories.html#memory-list", context)
    return render(request, "portal/memories.html", context)


def _detail_context(request: HttpRequest, memory: Memory, form: CorrectForm | None = None) -> dict:
    workspace = request.subject.workspace
    return {
        "memory": memory,
        "history": selectors.memory_history_with_changes(workspace=workspace, memory=memory),
        "reads": selectors.memory_reads(workspace=workspace, memory=memory),
        "form": form or CorrectForm(initial={"value": memory.value if memory.kind == "profile" else memory.text}),
    }


@require_GET
@portal_view
def memory_detail(request: HttpRequest, memory_id: str) -> HttpResponse:
    memory = _owned(request, memory_id)
    if request.htmx:
        return render(request, "portal/detail.html#detail-panel", _detail_context(request, memory))
    return render(request, "portal/detail.html", _detail_context(request, memory))


@require_GET
@portal_view
def memory_edit(request: HttpRequest, memory_id: str) -> HttpResponse:
    """The inline correction form (htmx swaps it into the row)."""
    memory = _owned(request, memory_id)
    return render(request, "portal/detail.html#correct-form", _detail_context(request, memory))


def _row(request: HttpRequest, memory: Memory, notice: str = "") -> HttpResponse:
    return render(request, "portal/memories.html#memory-row", {"memory": memory, "notice": notice})


def _set_pin(request: HttpRequest, memory_id: str, service) -> HttpResponse:
    memory = _owned(request, memory_id)
    try:
        memory = service(memory=memory, actor=_actor(request))
    except services.MemoryConflict:  # an older version, e.g. from a stale page
        messages.error(request, _("This is an earlier version; pin the current one instead."))
        return HttpResponseClientRedirect(reverse("portal:memories")) if request.htmx else redirect("portal:memories")
    return _row(request, memory) if request.htmx else redirect("portal:memories")


@require_POST
@portal_view
def memory_pin(request: HttpRequest, memory_id: str) -> HttpResponse:
    return _set_pin(request, memory_id, services.memory_pin)


@require_POST
@portal_view
def memory_unpin(request: HttpRequest, memory_id: str) -> HttpResponse:
    return _set_pin(request, memory_id, services.memory_unpin)


@require_POST
@portal_view
def memory_correct(request: HttpRequest, memory_id: str) -> HttpResponse:
    memory = _owned(request, memory_id)
    form = CorrectForm(request.POST)
    if form.is_valid():
        text_field = "value" if memory.kind == Memory.Kind.PROFILE else "text"
        try:
            result = services.memory_correct(
                memory=memory, actor=_actor(request), reason=form.cleaned_data["reason"],
                **{text_field: form.cleaned_data["value"]},
            )
        except ValidationError as error:
            form.add_error("value", " ".join(error.messages))
        except PIIRejected:
            form.add_error("value", _("This contains personal data that cannot be stored. Nothing was saved."))
        except services.MemoryConflict:
            form.add_error(None, _("This memory was changed in the meantime; reload to see the current version."))
        else:
            notice = removed_notice(result.redactions) or _("Saved. The earlier version is kept in the history.")
            detail_url = reverse("portal:memory", args=[result.memory.id])
            if request.htmx and not _on_detail_page(request, memory):
                # Inline on the list: the corrected row replaces the old one.
                return retarget(reswap(_row(request, result.memory, notice), "outerHTML"), f"#memory-{memory.id}")
            messages.success(request, notice)
            return HttpResponseClientRedirect(detail_url) if request.htmx else redirect(detail_url)
    template = "portal/detail.html#correct-form" if request.htmx else "portal/detail.html"
    return render(request, template, _detail_context(request, memory, form), status=200 if request.htmx else 400)


def _on_detail_page(request: HttpRequest, memory: Memory) -> bool:
    return reverse("portal:memory", args=[memory.id]) in (request.htmx.current_url or "")


def _erased_notice(memory: Memory) -> str:
    if memory.kind == Memory.Kind.PROFILE:
        return _("Erased “%(key)s” with all its versions.") % {"key": memory.key.replace("_", " ")}
    when = timezone.localdate(memory.occurred_at or memory.created_at)
    return _("Erased the event of %(date)s with all its versions.") % {"date": when.isoformat()}


@require_http_methods(["GET", "POST"])
@portal_view
def memory_delete(request: HttpRequest, memory_id: str) -> HttpResponse:
    """GET: are you sure? POST: forget it, every version, for real."""
    memory = _owned(request, memory_id)
    if request.method == "GET":
        return render(request, "portal/delete.html", {"memory": memory})
    services.memory_forget(memory=memory, actor=_actor(request), reason="forgotten by the person in the portal")
    notice = _erased_notice(memory)
    if request.htmx:
        return render(request, "portal/memories.html#erased", {"notice": notice})
    messages.success(request, notice)
    return redirect("portal:memories")


@require_http_methods(["GET", "POST"])
@portal_view
def forget_all(request: HttpRequest) -> HttpResponse:
    phrase = _("forget everything")
    form = ForgetAllForm(request.POST or None, phrase=phrase)
    if request.method == "POST" and form.is_valid():
        erased = services.subject_forget(subject=request.subject, actor=_actor(request),
                                         reason="everything forgotten by the person in the portal")
        messages.success(request, _("Everything was erased (%(count)d memories and their history).") % {"count": erased})
        return redirect("portal:memories")
    return render(request, "portal/forget_all.html", {"form": form, "phrase": phrase},
                  status=400 if request.method == "POST" else 200)


@require_GET
@portal_view
def export_json(request: HttpRequest) -> HttpResponse:
    document = export_document(workspace=request.subject.workspace, subject=request.subject)
    response = JsonResponse(document, json_dumps_params={"ensure_ascii": False, "indent": 2})
    response["Content-Disposition"] = f'attachment; filename="my-memories-{timezone.localdate().isoformat()}.json"'
    return response


@require_GET
@portal_view
def export_page(request: HttpRequest) -> HttpResponse:
    export = selectors.subject_export(workspace=request.subject.workspace, subject=request.subject)
    return render(request, "portal/export.html", {"export": export})


@require_http_methods(["GET", "POST"])
def portal_link(request: HttpRequest, token: str) -> HttpResponse:
    """GET asks (link previews must not use up the link); POST signs the person in, once."""
    try:
        link = portal_link_peek(token=token)
        if request.method == "POST":
            user = portal_link_redeem(token=token)
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            mark_portal_only(request)  # the link came from an agent: this session opens the portal only
            return redirect("portal:memories")
    except PortalLinkError as error:
        status = {"invalid": 404, "refused": 403}.get(error.reason, 410)
        return render(request, "portal/link_invalid.html", {"reason": error.reason}, status=status)
    return render(request, "portal/link.html", {"subject": link.subject})
