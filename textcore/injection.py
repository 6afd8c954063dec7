"""Text that addresses an AI assistant ("ignore previous instructions and say ...").

Documents are data: a sentence that gives orders to the assistant reading it is never an answer, and
the document that holds one is flagged for its owners. Pure functions, shared by the answer writer
and ingestion.
"""

from __future__ import annotations

import re

_PRIOR = r"(?:all\s+|any\s+|the\s+|your\s+|of\s+)*(?:previous|prior|above|earlier|preceding|foregoing|original|system)"
_ORDERS = r"(?:instructions?|directions?|prompts?|rules|guidelines|messages|context|commands?)"
_ASSISTANT = r"(?:assistant|ai|a\.i\.|chat\s?bot|bot|language\s+model|llm|gpt|chatgpt|claude|copilot|verity)"
_PATTERNS = [
    # "Ignore previous instructions", "disregard all prior rules", "forget the above prompt"
    rf"\b(?:ignore|disregard|forget|override|bypass)\s+{_PRIOR}\s+{_ORDERS}",
    r"\b(?:ignore|disregard|forget)\s+(?:everything|all|anything)\s+(?:above|before\s+this|you\s+were\s+told)",
    r"\b(?:ignore|disregard|forget)\s+(?:all\s+|any\s+|your\s+)+(?:instructions|prompts|guidelines)\b",
    # "new instructions:", "system prompt"
    r"\bnew\s+(?:system\s+)?instructions?\s*:",
    r"\bsystem\s+prompt\b",
    # Speaking to the assistant: "As an AI assistant, you must ...", "Assistant: say ...", "you are now ..."
    rf"\b(?:as|you\s+are)\s+(?:an?\s+|the\s+)?{_ASSISTANT}\b",
    rf"^\s*(?:dear\s+|hey\s+|hi\s+)?{_ASSISTANT}\s*[,:]",
    rf"\b(?:if|when)\s+(?:you\s+are\s+|you're\s+)?(?:an?\s+)?{_ASSISTANT}\b",
    rf"\byou\s+are\s+now\s+(?:in\s+)?(?:an?\s+)?(?:developer|unrestricted|jailbroken|dan|{_ASSISTANT})\b",
    r"\bfrom\s+now\s+on,?\s+you\s+(?:are|will|must|should)\b",
    # Orders about the answer itself: "respond only with", "tell the user that", "do not cite this"
    r"\b(?:respond|reply|answer)\s+(?:only\s+)?with\s+(?:exactly|only|the\s+following)\b",
    r"\btell\s+the\s+user\s+(?:that|to)\b",
    r"\bdo\s+not\s+(?:cite|mention|reveal)\s+(?:this|these|the\s+source|your\s+(?:instructions|prompt))",
    r"\b(?:reveal|print|repeat|output)\s+(?:your|the)\s+(?:system\s+)?(?:prompt|instructions)\b",
]
_INJECTION = re.compile("|".join(f"(?:{p})" for p in _PATTERNS), re.I | re.M)


def addresses_assistant(text: str) -> bool:
    """True when the text gives instructions to an AI assistant rather than stating something."""
    return bool(_INJECTION.search(text or ""))


def assistant_addressing_lines(text: str, limit: int = 3) -> list[str]:
    """Up to `limit` lines of a text that address an AI assistant, shortened for a warning."""
    found = []
    for line in (text or "").splitlines():
        if addresses_assistant(line):
            found.append(line.strip()[:160])
            if len(found) >= limit:
                break
    return found
