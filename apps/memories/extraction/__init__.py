"""Turning a conversation turn into proposed memories: the `Extractor` protocol (base.py), the rule
extractor (rules.py, the default) and the LLM extractor (llm.py), chosen by settings.INGEST_EXTRACTOR
like the embedders are by EMBEDDINGS_MODEL (embeddings/registry.py)."""

from django.conf import settings

from apps.memories.extraction.base import (
    SENSITIVE_CATEGORIES,
    Extraction,
    Extractor,
    Proposal,
    Skip,
    Turn,
)


def get_extractor() -> Extractor:
    """The extractor settings.INGEST_EXTRACTOR names: "llm", or the rules. Imported here, on first
    use: the rules take about 0.3 s to import (their patterns compile), which a web process that
    never extracts should not pay, and the LLM client is only needed where it is configured."""
    if settings.INGEST_EXTRACTOR == "llm":
        from apps.memories.extraction.llm import LLMExtractor

        return LLMExtractor()
    from apps.memories.extraction.rules import RuleExtractor

    return RuleExtractor()


__all__ = ["SENSITIVE_CATEGORIES", "Extraction", "Extractor", "Proposal", "Skip", "Turn", "get_extractor"]
