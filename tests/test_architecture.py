"""The architecture holds: the domain never imports the interfaces (the import-linter contracts in
pyproject.toml), only the services write Memory rows, and tasks are imported at module level.

Which modules may write Memory rows, and why:
- every `services.py`: "services are the only writers" (ARCHITECTURE.md);
- apps/memories/imports.py: the batch import is a service in all but its name: it writes with the
  services' own rules and helpers (`services._memory_row`, `services._written_event`, ...), in one
  INSERT and one UPDATE per batch instead of one write per item;
- migrations;
- the access counters, anywhere: an `.update()` that sets only `access_count` and
  `last_accessed_at` (recall's access-log writer, apps/memories/recall/access.py, after it answered)
  is bookkeeping of reads, written off the hot path; it changes neither what a memory says nor
  whether it is recalled.

The walker is syntactic and deliberately small: it finds write calls (`update`, `create`, `delete`,
`save`, `bulk_*`, ...) on `Memory.objects...`, on `x.memory` / `x.memories` (the foreign keys and
related managers to Memory), and on names bound to those or annotated as Memory. A write through a
name it cannot trace is not found; the services are the place to put one anyway.
"""

import ast
from pathlib import Path

from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parent.parent
WRITES = {"update", "create", "bulk_create", "bulk_update", "delete", "get_or_create", "update_or_create", "save"}
ACCESS_COUNTERS = {"access_count", "last_accessed_at"}
BATCH_WRITERS = {"apps/memories/imports.py"}
WRAPPERS = {"list", "sorted", "get_object_or_404"}  # list(Memory.objects...), get_object_or_404(Memory, ...)


def _is_memory(node: ast.expr, names: set[str]) -> bool:
    """Whether `node` is a Memory row, manager or queryset: `Memory(...)`, `Memory.objects`, a
    method called on one (`.filter(...)`, `.get(...)`), `x.memory` / `x.memories`, an item of one,
    `list(...)` of one, or a name bound to one. Any other attribute of a row is a field, not a row."""
    if isinstance(node, ast.Call):
        if isinstance(node.func, ast.Name):
            if node.func.id in WRAPPERS and node.args:
                first = node.args[0]
                return (isinstance(first, ast.Name) and first.id == "Memory") or _is_memory(first, names)
            return node.func.id == "Memory"
        return isinstance(node.func, ast.Attribute) and _is_memory(node.func.value, names)
    if isinstance(node, ast.Attribute):
        if node.attr in ("memory", "memories"):
            return True
        return node.attr == "objects" and isinstance(node.value, ast.Name) and node.value.id == "Memory"
    if isinstance(node, ast.Subscript):
        return _is_memory(node.value, names)
    return isinstance(node, ast.Name) and node.id in names


def _mentions_memory(annotation: ast.expr | None) -> bool:
    return annotation is not None and any(
        (isinstance(n, ast.Name) and n.id == "Memory") or (isinstance(n, ast.Constant) and "Memory" in str(n.value))
        for n in ast.walk(annotation)
    )


def _memory_names(tree: ast.AST) -> set[str]:
    """Names annotated as Memory (`memory: Memory`, `memories: QuerySet[Memory]`) or bound to a
    Memory expression (`memory = Memory.objects.get(...)`, `for memory in memories`)."""
    names: set[str] = set()
    while True:
        before = len(names)
        for node in ast.walk(tree):
            if isinstance(node, ast.arg | ast.AnnAssign) and _mentions_memory(node.annotation):
                target = node.arg if isinstance(node, ast.arg) else getattr(node.target, "id", None)
                names.update([target] if target else [])
            elif isinstance(node, ast.Assign) and _is_memory(node.value, names):
                names.update(t.id for t in node.targets if isinstance(t, ast.Name))
            elif (
                isinstance(node, ast.For | ast.comprehension)
                and isinstance(node.target, ast.Name)
                and _is_memory(node.iter, names)
            ):
                names.add(node.target.id)
        if len(names) == before:
            return names


def _counts_accesses(call: ast.Call) -> bool:
    return call.func.attr == "update" and bool(call.keywords) and {k.arg for k in call.keywords} <= ACCESS_COUNTERS


def memory_writes(source: str, path: str = "<source>") -> list[str]:
    """Every call in `source` that writes Memory rows, as "path:line: the call"."""
    tree = ast.parse(source)
    names = _memory_names(tree)
    writes = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in WRITES
        and _is_memory(node.func.value, names)
        and not _counts_accesses(node)
    ]
    return [
        f"{path}:{node.lineno}: {ast.unparse(node)}" for node in sorted(writes, key=lambda n: (n.lineno, n.col_offset))
    ]


def _app_modules():
    for path in sorted((ROOT / "apps").rglob("*.py")):
        relative = path.relative_to(ROOT).as_posix()
        if "/migrations/" not in relative:
            yield relative, path.read_text()


def test_the_domain_apps_never_import_the_interfaces(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)

    status = lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True, no_logo=True)

    assert status == 0, capsys.readouterr().out


def test_only_the_services_write_memory_rows():
    writes = [
        write
        for path, source in _app_modules()
        if not path.endswith("/services.py") and path not in BATCH_WRITERS
        for write in memory_writes(source, path)
    ]

    assert writes == [], "Memory rows are written through apps/memories/services.py:\n" + "\n".join(writes)


def test_the_walker_reports_a_status_written_outside_the_services():
    source = 'from apps.memories.models import Memory\n\nMemory.objects.filter(pk=1).update(status="x")\n'

    assert memory_writes(source, "apps/memories/lifecycle.py") == [
        "apps/memories/lifecycle.py:3: Memory.objects.filter(pk=1).update(status='x')"
    ]


def test_the_walker_reports_every_kind_of_write_to_memory_rows():
    source = """
def job(subject, memory: Memory, rows):
    Memory.objects.create(text="x")
    Memory.objects.bulk_create(rows)
    Memory.objects.bulk_update(rows, ["status"])
    Memory.objects.filter(pk=1).delete()
    subject.memories.all().delete()
    memory.save()
    fetched = Memory.objects.get(pk=1)
    fetched.save(update_fields=["status"])
    for each in list(Memory.objects.filter(status="active")):
        each.delete()
    get_object_or_404(Memory, pk=1).delete()
    request.memory.save()
    Memory(text="x").save()
"""

    assert [write.split(": ", 1)[1] for write in memory_writes(source)] == [
        "Memory.objects.create(text='x')",
        "Memory.objects.bulk_create(rows)",
        "Memory.objects.bulk_update(rows, ['status'])",
        "Memory.objects.filter(pk=1).delete()",
        "subject.memories.all().delete()",
        "memory.save()",
        "fetched.save(update_fields=['status'])",
        "each.delete()",
        "get_object_or_404(Memory, pk=1).delete()",
        "request.memory.save()",
        "Memory(text='x').save()",
    ]


def test_the_walker_ignores_access_counters_reads_and_other_models_rows():
    source = """
Memory.objects.filter(pk__in=ids).update(access_count=F("access_count") + 1, last_accessed_at=now)
Memory.objects.filter(subject=subject).count()
Ingest.objects.filter(pk=1).update(status="done")
memory = {**data["memory"], "key": ""}
memory.update(text="")

def pin(current: Memory):
    subject = current.subject
    subject.save()
    current.subject.workspace.save()
"""

    assert memory_writes(source) == []


def _lazy_imports(tree: ast.AST):
    for function in ast.walk(tree):
        if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            for node in ast.walk(function):
                if isinstance(node, ast.ImportFrom):
                    module = node.module or ""
                    yield node, [module] + [f"{module}.{alias.name}" for alias in node.names]
                elif isinstance(node, ast.Import):
                    yield node, [alias.name for alias in node.names]


def test_tasks_modules_are_imported_at_module_level():
    """HackSoft's rule: callers import the tasks at the top; only a task's body imports lazily
    (the services, ingest and lifecycle it runs import the tasks module themselves)."""
    lazy = sorted(
        {
            f"{path}:{node.lineno}"
            for path, source in _app_modules()
            for node, names in _lazy_imports(ast.parse(source))
            if any(name.rpartition(".")[2] == "tasks" for name in names)
        }
    )

    assert lazy == [], "import the tasks at the top of the module:\n" + "\n".join(lazy)


def test_every_task_of_the_apps_ends_in_task_and_every_beat_job_runs_one(settings):
    from memoryadmin.celery import app

    app.loader.import_default_modules()
    ours = {name for name in app.tasks if name.startswith("apps.")}

    assert ours and all(name.endswith("_task") for name in ours), sorted(ours)
    assert {job["task"] for job in settings.CELERY_BEAT_SCHEDULE.values()} <= ours
