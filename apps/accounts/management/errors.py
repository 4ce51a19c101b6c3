from django.core.exceptions import ValidationError
from django.core.management.base import CommandError


def refusal(error: ValidationError) -> CommandError:
    """A service's ValidationError as a command's error: every message, with the field it is about."""
    if hasattr(error, "error_dict"):
        return CommandError(
            "; ".join(
                f"{name}: {' '.join(messages)}" if name != "__all__" else " ".join(messages)
                for name, messages in error.message_dict.items()
            )
        )
    return CommandError(" ".join(error.messages))
