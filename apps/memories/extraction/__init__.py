from apps.memories.extraction.base import (
    SENSITIVE_CATEGORIES,
    Extraction,
    Extractor,
    Proposal,
    Skip,
    Turn,
)

__all__ = ["SENSITIVE_CATEGORIES", "Extraction", "Extractor", "Proposal", "Skip", "Turn"]
