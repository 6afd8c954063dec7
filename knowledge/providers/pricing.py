"""Per-model token prices (USD per 1M input/output tokens) and cost estimation."""

from __future__ import annotations

from .base import Usage

__all__ = ["PRICES", "price_for", "cost", "with_cost"]

# List prices at the time of writing; update when the providers change them.
# Keys are base model names; dated variants ("gpt-4o-mini-2024-07-18", "command-r-08-2024")
# resolve to the longest key they start with.
PRICES: dict[str, tuple[float, float]] = {
    # OpenAI
    "gpt-4o-mini": (0.15, 0.60),
    "gpt-4o": (2.50, 10.00),
    "gpt-4.1-nano": (0.10, 0.40),
    "gpt-4.1-mini": (0.40, 1.60),
    "gpt-4.1": (2.00, 8.00),
    "text-embedding-3-small": (0.02, 0.0),
    "text-embedding-3-large": (0.13, 0.0),
    # Cohere
    "command-r7b": (0.0375, 0.15),
    "command-r": (0.15, 0.60),
    "command-r-plus": (2.50, 10.00),
    "command-a": (2.50, 10.00),
    "embed-english-light-v3.0": (0.10, 0.0),
    "embed-english-v3.0": (0.10, 0.0),
    "embed-multilingual-light-v3.0": (0.10, 0.0),
    "embed-multilingual-v3.0": (0.10, 0.0),
}


def price_for(model: str) -> tuple[float, float] | None:
    """(input, output) USD per 1M tokens for `model` or its dated variant; None if unknown."""
    name = (model or "").strip().lower()
    if name in PRICES:
        return PRICES[name]
    matches = [k for k in PRICES if name.startswith(k + "-")]
    return PRICES[max(matches, key=len)] if matches else None


def cost(model: str, usage: Usage) -> float:
    """Estimated USD cost of `usage` on `model`; 0.0 for unknown models."""
    price = price_for(model)
    if price is None:
        return 0.0
    return (usage.input_tokens * price[0] + usage.output_tokens * price[1]) / 1_000_000


def with_cost(model: str, input_tokens: int, output_tokens: int) -> Usage:
    """Build a Usage for the given token counts with its cost filled in."""
    usage = Usage(input_tokens=int(input_tokens), output_tokens=int(output_tokens))
    usage.cost_usd = cost(model, usage)
    return usage
