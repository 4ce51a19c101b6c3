"""How a memory reads to a person: a translated label for its key ("reply_language" → "Reply
language" / 回答语言), the category for a "family" key ("goal_2027_marathon" → "Goal"), confidence
in words ("you said so" / "inferred"). Shared by the portal and the console templates through
`{% load memory_labels %}`."""

from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _

from apps.memories.models import Memory
from apps.privacy.labels import placeholders_html, placeholders_text

# Normalized key → label. Keys not listed read as the key with spaces for underscores.
KEY_LABELS = {
    "programming_language": _("Programming language"),
    "spoken_languages": _("Languages spoken"),
    "native_language": _("Native language"),
    "reply_language": _("Reply language"),
    "report_language": _("Report language"),
    "reply_length": _("Reply length"),
    "reply_style": _("Answer style"),
    "answer_style": _("Answer style"),
    "reply_format": _("Reply format"),
    "diet": _("Diet"),
    "drink": _("Drink"),
    "spice": _("Spicy food"),
    "allergy": _("Allergy"),
    "city": _("City"),
    "hometown": _("Hometown"),
    "work_city": _("City of work"),
    "job_title": _("Job"),
    "role": _("Role"),
    "employer": _("Employer"),
    "industry": _("Industry"),
    "work_mode": _("Way of working"),
    "editor": _("Editor"),
    "timezone": _("Time zone"),
    "name": _("Name"),
    "contact": _("Contact"),
    "email": _("Email"),
    "preferred_name": _("Preferred name"),
    "database": _("Database"),
    "os": _("Operating system"),
    "shell": _("Shell"),
    "terminal": _("Terminal"),
    "browser": _("Browser"),
    "tech_stack": _("Tech stack"),
    "framework": _("Framework"),
    "cloud": _("Cloud"),
    "laptop": _("Laptop"),
    "phone": _("Phone"),
    "team_chat": _("Team chat"),
    "code_hosting": _("Code hosting"),
    "design_tool": _("Design tool"),
    "memory_limit": _("Memory limit"),
    "budget": _("Budget"),
    "meeting_hours": _("Meeting hours"),
    "availability": _("Availability"),
    "hobby": _("Hobby"),
    "habit": _("Habit"),
    "pet": _("Pet"),
    "children": _("Children"),
    "spouse": _("Spouse"),
    "marital_status": _("Marital status"),
    "birthday": _("Birthday"),
    "school": _("School"),
    "major": _("Major"),
    "order_number": _("Order number"),
    "income": _("Income"),
    "debt": _("Debt"),
    "religion": _("Religion"),
    "politics": _("Politics"),
    "sexuality": _("Sexuality"),
    "health_condition": _("Health"),
    "medication": _("Medication"),
    "emotional_state": _("Mood"),
}
CATEGORY_LABELS = dict(Memory.Category.choices)
SAID_SO = 0.9  # confidence at or above: the person said it (or corrected it) themselves


def key_label(key: str, category: str = "") -> str:
    """The label of a fact's key: from the table; a family key such as `goal_2027_marathon` or
    `preference_tea` is its category's label; else the key with spaces."""
    if key in KEY_LABELS:
        return str(KEY_LABELS[key])
    family = key.split("_", 1)[0]
    if family in CATEGORY_LABELS and family in Memory.PROFILE_CATEGORIES:
        return str(CATEGORY_LABELS[family])
    text = key.replace("_", " ").strip()
    return text[:1].upper() + text[1:]


def memory_html(memory: Memory) -> SafeString:
    """What the memory says, as HTML: "Label: value" for a fact, the text for an episode; hidden
    personal data as tokens."""
    if memory.kind == Memory.Kind.PROFILE and memory.key:
        return mark_safe(
            f'<span class="key">{conditional_escape(key_label(memory.key, memory.category))}:</span> '
            f"{placeholders_html(memory.value)}"
        )
    return placeholders_html(memory.text)


def memory_plain(memory: Memory) -> str:
    """The same as plain text (for accessible names): tokens become their labels."""
    if memory.kind == Memory.Kind.PROFILE and memory.key:
        return f"{key_label(memory.key, memory.category)}: {placeholders_text(memory.value)}"
    return placeholders_text(memory.text)


def confidence_words(memory: Memory) -> str:
    return str(_("you said so") if memory.confidence >= SAID_SO else _("inferred"))
