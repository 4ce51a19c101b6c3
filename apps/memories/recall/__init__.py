from apps.memories.recall.engine import LEGS, RecallResult, recall

__all__ = ["LEGS", "RecallResult", "recall"]
