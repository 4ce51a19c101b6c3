"""The end-user portal, "What the assistant remembers about me": view, search, pin, correct,
delete, forget everything, export. Every action is a plain POST + redirect; with htmx, the same
views return only the affected partial."""

from functools import wraps
from itertools import groupby
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse, JsonResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect, reswap, retarget, trigger_client_event

from apps.accounts.models import Subject
from apps.accounts.services import PortalLinkError, portal_link_peek, portal_link_redeem
from apps.accounts.sessions import mark_portal_only
from apps.audit.models import AuditEvent
from apps.audit.services import Actor
from apps.memories import selectors, services
from apps.memories.export import export_document
from apps.memories.forms import memory_correct_from_form
from apps.memories.labels import memory_plain
from apps.memories.models import Memory
from apps.portal.forms import CorrectForm, FilterForm, ForgetAllForm
from apps.portal.types import PortalRequest
from apps.privacy.labels import removed_notice

EPISODES_PER_PAGE = 30
CATEGORY_ORDER = [Memory.Category.PREFERENCE, Memory.Category.FACT, Memory.Category.CONSTRAINT, Memory.Category.GOAL]


def portal_view(view):
    """Signed-in people who are a subject; `request.subject` is theirs, dates in their time zone.
    Deletes of theirs whose undo window has passed are erased first (the beat sweep does it too;
    this is what does it where no worker runs, in `make run`)."""

    @wraps(view)
    @login_required
    def wrapper(request: PortalRequest, *args, **kwargs) -> HttpResponse:
        subject = Subject.objects.select_related("workspace").filter(user=request.user).first()
        if subject is None:
            return render(request, "portal/no_subject.html", status=403)
        request.subject = subject
        services.forget_requests_finish(subject=subject)
        with timezone.override(subject.timezone):
            return view(request, *args, **kwargs)

    return wrapper


def _actor(request: PortalRequest) -> Actor:
    return Actor.user(request.user, type=AuditEvent.ActorType.END_USER, request_id=request.id, channel="portal")


def _owned(request: PortalRequest, memory_id: str) -> Memory:
    memory = selectors.memory_get(workspace=request.subject.workspace, memory_id=memory_id)
    if memory is None or memory.subject_id != request.subject.pk:
        raise Http404
    return memory


def _timeline(episodes) -> list[dict]:
    """Episodes grouped by local day, then by conversation (named by its agent and start time)."""
    days = []
    for day, day_items in groupby(episodes, key=lambda m: timezone.localdate(m.occurred_at or m.updated_at)):
        sessions = []
        for session_id, grouped in groupby(day_items, lambda m: m.session_id):
            items = list(grouped)
            agent = next((m.source.agent.name for m in items if m.source and m.source.agent), "")
            started = min(m.occurred_at or m.updated_at for m in items)
            sessions.append({"session_id": session_id, "agent": agent, "started": started, "episodes": items})
        days.append({"day": day, "sessions": sessions})
    return days


def _list_filters(request: PortalRequest) -> dict:
    """The list's filters: from the query string, or for an htmx action from the page it came from."""
    query = request.GET
    if request.htmx and request.method == "POST" and request.htmx.current_url:
        query = QueryDict(urlsplit(request.htmx.current_url).query)
    form = FilterForm(query)
    return {"form": form, "filters": form.cleaned_data if form.is_valid() else {}, "page": query.get("page")}


def _list_context(request: PortalRequest) -> dict:
    chosen = _list_filters(request)
    filters = chosen["filters"]
    workspace, subject = request.subject.workspace, request.subject
    common: dict[str, Any] = {
        "workspace": workspace,
        "subject": subject,
        "category": filters.get("category") or None,
        "text_contains": filters.get("q") or None,
    }
    kind = filters.get("kind")
    facts = list(selectors.memory_list(kind="profile", **common)) if kind in ("", None, "profile") else []
    episodes = selectors.memory_list(kind="episode", **common).order_by("-occurred_at", "-id")
    if kind not in ("", None, "episode"):
        episodes = episodes.none()
    pinned_episodes = list(episodes.filter(pinned=True))
    page = Paginator(episodes.filter(pinned=False), EPISODES_PER_PAGE).get_page(chosen["page"])
    return {
        "form": chosen["form"],
        "pinned": [f for f in facts if f.pinned] + pinned_episodes,
        "facts_by_category": [
            (label, [f for f in facts if f.category == value and not f.pinned])
            for value, label in Memory.Category.choices
            if value in CATEGORY_ORDER
        ],
        "fact_count": len(facts),
        "page": page,
        "timeline": _timeline(page.object_list),
        "filtered": any(filters.values()),
        "undo": selectors.forget_requests_pending(workspace=workspace, subject=subject),
    }


@require_GET
@portal_view
def memories(request: PortalRequest) -> HttpResponse:
    context = _list_context(request)
    if request.htmx and request.htmx.target == "memory-list":
        return render(request, "portal/memories.html#memory-list", context)
    return render(request, "portal/memories.html", context)


def _changed_list(request: PortalRequest, *, notice: str, focus: str) -> HttpResponse:
    """For htmx: the whole list again (a pinned memory moves to the pinned group at once), the
    element `focus` names focused by portal.js, and `notice` announced in the status region."""
    context = _list_context(request) | {"notice": notice}
    return _focusing(render(request, "portal/memories.html#changed-list", context), focus)


def _focusing(response: HttpResponse, element_id: str) -> HttpResponse:
    """portal.js focuses `element_id` once htmx has settled the swap."""
    return trigger_client_event(response, "portal:focus", {"target": f"#{element_id}"}, after="settle")


def _back_to(memory_id, *, anchor: str = "") -> HttpResponse:
    return redirect(reverse("portal:memories") + f"#{anchor or f'memory-{memory_id}'}")


def _detail_context(request: PortalRequest, memory: Memory, form: CorrectForm | None = None) -> dict:
    workspace = request.subject.workspace
    return {
        "memory": memory,
        "history": selectors.memory_history_with_changes(workspace=workspace, memory=memory),
        "reads": selectors.memory_reads_by_agent(workspace=workspace, memory=memory),
        "form": form or CorrectForm(memory=memory),
    }


@require_GET
@portal_view
def memory_detail(request: PortalRequest, memory_id: str) -> HttpResponse:
    memory = _owned(request, memory_id)
    if request.htmx:
        return render(request, "portal/detail.html#detail-panel", _detail_context(request, memory))
    return render(request, "portal/detail.html", _detail_context(request, memory))


@require_GET
@portal_view
def memory_edit(request: PortalRequest, memory_id: str) -> HttpResponse:
    """The inline correction form (htmx swaps it into the row)."""
    memory = _owned(request, memory_id)
    return render(request, "portal/detail.html#correct-form", _detail_context(request, memory) | {"inline": True})


def _row(request: PortalRequest, memory: Memory, notice: str, *, focus: str) -> HttpResponse:
    return _focusing(
        render(
            request,
            "portal/memories.html#changed-row",
            {"memory": memory, "notice": notice, "row_notice": notice, "row_notice_for": memory.id},
        ),
        focus,
    )


def _set_pin(request: PortalRequest, memory_id: str, service, done: str) -> HttpResponse:
    memory = _owned(request, memory_id)
    try:
        memory = service(memory=memory, actor=_actor(request))
    except services.MemoryConflict:  # an older version, e.g. from a stale page
        messages.error(request, _("This is an earlier version; pin the current one instead."))
        return HttpResponseClientRedirect(reverse("portal:memories")) if request.htmx else redirect("portal:memories")
    notice = done % {"memory": memory_plain(memory)}
    if request.htmx:
        return _changed_list(request, notice=notice, focus=f"pin-{memory.id}")
    messages.success(request, notice)
    return _back_to(memory.id)


@require_POST
@portal_view
def memory_pin(request: PortalRequest, memory_id: str) -> HttpResponse:
    return _set_pin(request, memory_id, services.memory_pin, _("Pinned ‘%(memory)s’."))


@require_POST
@portal_view
def memory_unpin(request: PortalRequest, memory_id: str) -> HttpResponse:
    return _set_pin(request, memory_id, services.memory_unpin, _("Unpinned ‘%(memory)s’."))


@require_POST
@portal_view
def memory_correct(request: PortalRequest, memory_id: str) -> HttpResponse:
    memory = _owned(request, memory_id)
    form = CorrectForm(request.POST, memory=memory)
    inline = request.htmx and not _on_detail_page(request, memory)
    if result := memory_correct_from_form(form, memory=memory, actor=_actor(request)):
        notice = removed_notice(result.redactions) or _("Saved. The earlier version is kept in the history.")
        detail_url = reverse("portal:memory", args=[result.memory.id])
        if inline:  # on the list: the corrected row replaces the old one, focus back on its Correct link
            response = _row(request, result.memory, notice, focus=f"correct-{result.memory.id}")
            return retarget(reswap(response, "outerHTML"), f"#memory-{memory.id}")
        messages.success(request, notice)
        return HttpResponseClientRedirect(detail_url) if request.htmx else redirect(detail_url)
    template = "portal/detail.html#correct-form" if request.htmx else "portal/detail.html"
    context = _detail_context(request, memory, form) | {"inline": inline}
    return render(request, template, context, status=200 if request.htmx else 400)


def _on_detail_page(request: PortalRequest, memory: Memory) -> bool:
    return reverse("portal:memory", args=[memory.id]) in (request.htmx.current_url or "")


@require_http_methods(["GET", "POST"])
@portal_view
def memory_delete(request: PortalRequest, memory_id: str) -> HttpResponse:
    """GET: are you sure (and should it be learned again)? POST: hidden at once, erased for real
    when the undo window has passed."""
    memory = _owned(request, memory_id)
    if request.method == "GET":
        context = {"memory": memory, "undo_seconds": int(settings.FORGET_UNDO_SECONDS)}
        if request.htmx:
            return render(request, "portal/delete.html#delete-form", context | {"inline": True})
        return render(request, "portal/delete.html", context)
    suppress = request.POST.get("suppress") == "on"
    try:
        services.memory_forget_request(
            memory=memory, actor=_actor(request), suppress=suppress, reason="deleted by the person in the portal"
        )
    except (services.MemoryConflict, ValidationError):
        messages.error(request, _("This memory is already deleted."))
        return HttpResponseClientRedirect(reverse("portal:memories")) if request.htmx else redirect("portal:memories")
    notice = _("Deleted ‘%(memory)s’. You can undo this for %(seconds)d seconds.") % {
        "memory": memory_plain(memory),
        "seconds": int(settings.FORGET_UNDO_SECONDS),
    }
    if suppress:
        notice += " " + _("It will not be learned again.")
    if request.htmx:
        return _changed_list(request, notice=notice, focus=f"undo-{memory.lineage}")
    # The flash message may sit in the session until it is shown: it names nothing of what is erased.
    messages.success(
        request,
        _("Deleted. You can undo this for %(seconds)d seconds.") % {"seconds": int(settings.FORGET_UNDO_SECONDS)},
    )
    return _back_to(memory.id, anchor="undo")


@require_POST
@portal_view
def memory_undo(request: PortalRequest, request_id: str) -> HttpResponse:
    """Undo a delete within its window: the memory comes back exactly as it was."""
    pending = selectors.forget_request_get(
        workspace=request.subject.workspace, subject=request.subject, request_id=request_id
    )
    try:
        if pending is None:  # already erased (or never theirs: the same answer)
            raise services.UndoExpired("gone")
        memory = services.memory_forget_undo(request=pending, actor=_actor(request))
    except services.MemoryConflict as error:
        if pending is not None:
            services.forget_requests_finish(request_id=pending.pk)  # too late: finish it now
        notice = (
            _("Too late: the undo window has passed and it is erased.")
            if isinstance(error, services.UndoExpired)
            else _("A new value was learned in the meantime, so the deleted one stays deleted.")
        )
        if request.htmx:
            return _changed_list(request, notice=notice, focus="memory-list")
        messages.error(request, notice)
        return redirect("portal:memories")
    notice = _("Restored ‘%(memory)s’.") % {"memory": memory_plain(memory)}
    if request.htmx:
        return _changed_list(request, notice=notice, focus=f"memory-{memory.id}")
    messages.success(request, notice)
    return _back_to(memory.id)


@require_GET
@portal_view
def controls(request: PortalRequest) -> HttpResponse:
    suppressions = selectors.suppression_list(workspace=request.subject.workspace, subject=request.subject)
    return render(request, "portal/controls.html", {"suppressions": suppressions})


@require_POST
@portal_view
def memory_pause(request: PortalRequest) -> HttpResponse:
    """The switch: `paused=on` pauses memory, anything else resumes it."""
    paused = request.POST.get("paused") == "on"
    service = services.subject_memory_pause if paused else services.subject_memory_resume
    service(subject=request.subject, actor=_actor(request))
    messages.success(
        request,
        _("Memory is paused: assistants cannot learn anything new about you. They can still use what is kept.")
        if paused
        else _("Memory is on again."),
    )
    next_url = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(next_url, allowed_hosts={request.get_host()}):
        next_url = reverse("portal:controls")
    return redirect(next_url + "#memory-switch")


@require_POST
@portal_view
def suppression_remove(request: PortalRequest, suppression_id: int) -> HttpResponse:
    suppression = selectors.suppression_get(
        workspace=request.subject.workspace, subject=request.subject, suppression_id=suppression_id
    )
    if suppression is None:
        raise Http404
    services.suppression_delete(suppression=suppression, actor=_actor(request))
    messages.success(request, _("Removed. Assistants may learn this again."))
    return redirect(reverse("portal:controls") + "#suppressions")


@require_http_methods(["GET", "POST"])
@portal_view
def forget_all(request: PortalRequest) -> HttpResponse:
    phrase = _("forget everything")
    form = ForgetAllForm(request.POST or None, phrase=phrase)
    if request.method == "POST" and form.is_valid():
        erased = services.subject_forget(
            subject=request.subject, actor=_actor(request), reason="everything forgotten by the person in the portal"
        )
        messages.success(
            request, _("Everything was erased (%(count)d memories and their history).") % {"count": erased}
        )
        return redirect("portal:memories")
    return render(
        request,
        "portal/forget_all.html",
        {"form": form, "phrase": phrase},
        status=400 if request.method == "POST" else 200,
    )


@require_GET
@portal_view
def export_json(request: PortalRequest) -> HttpResponse:
    document = export_document(workspace=request.subject.workspace, subject=request.subject)
    response = JsonResponse(document, json_dumps_params={"ensure_ascii": False, "indent": 2})
    response["Content-Disposition"] = f'attachment; filename="my-memories-{timezone.localdate().isoformat()}.json"'
    return response


@require_GET
@portal_view
def export_page(request: PortalRequest) -> HttpResponse:
    export = selectors.subject_export(workspace=request.subject.workspace, subject=request.subject)
    return render(request, "portal/export.html", {"export": export})


@require_http_methods(["GET", "POST"])
def portal_link(request: PortalRequest, token: str) -> HttpResponse:
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
