"""Shared inputs for the provider tests: an API key, passages, questions, and the two local servers."""

from __future__ import annotations

from typing import Iterator

import pytest

from knowledge.providers.base import Passage
from tests.servers.fake_cohere import FakeCohere
from tests.servers.fake_openai import FakeOpenAI

KEY = "test-key"
PASSAGES = [
    Passage(1, "Employees get 25 days of annual leave per year. Unused days expire in March.", "Leave policy",
            "hr/leave.md", 11),
    Passage(2, "Expense claims must be filed within 30 days of purchase. Receipts are required.", "Expenses",
            "finance/expenses.md", 12),
    Passage(3, "The VPN is required when working from cafes or hotels.", "Remote work", "it/vpn.md", 13),
]
SIMPLE_Q = "How many days of annual leave do I get?"
COMPLEX_Q = "What is the difference between annual leave and sick leave?"



@pytest.fixture
def oai() -> Iterator[FakeOpenAI]:
    with FakeOpenAI(api_key=KEY) as server:
        yield server


@pytest.fixture
def co() -> Iterator[FakeCohere]:
    with FakeCohere(api_key=KEY) as server:
        yield server
