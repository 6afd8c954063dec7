"""Cohere chat, rerank and embed through the real SDK against a local server speaking Cohere's API."""

from __future__ import annotations

import time

import numpy as np
import pytest

from knowledge.providers import ProviderError, Reranker
from knowledge.providers.cohere_provider import (
    CohereCompleter,
    CohereEmbedder,
    CohereGenerator,
    CohereReranker,
    insert_citation_markers,
)
from tests.provider_cases import COMPLEX_Q, KEY, PASSAGES, SIMPLE_Q, co  # noqa: F401 (fixture)
from tests.servers.fake_cohere import FakeCohere, chat_response
from tests.servers.fake_openai import Response


def cohere_gen(server: FakeCohere, *, timeout_s: float = 5, key: str = KEY, **kw) -> CohereGenerator:
    return CohereGenerator(key, server.base_url, "command-r-08-2024", "command-a-03-2025",
                           timeout_s=timeout_s, max_retries=0, **kw)


def test_cohere_chat_sends_v2_documents_and_maps_citations(co):
    gen = cohere_gen(co)
    out = gen.generate("How many annual leave days do I get, and when must expense claims be filed?", PASSAGES)
    body = co.bodies("/v2/chat")[-1]
    assert body["documents"][0] == {"id": "1", "data": {"title": "Leave policy", "snippet": PASSAGES[0].text}}
    assert [m["role"] for m in body["messages"]] == ["system", "user"]
    assert "INSUFFICIENT_CONTEXT" in body["messages"][0]["content"]
    assert out.text == ("Employees get 25 days of annual leave per year [1]. "
                        "Expense claims must be filed within 30 days of purchase [2].")
    assert out.provider == "cohere" and out.usage.input_tokens > 0 and out.usage.cost_usd > 0


def test_cohere_routes_models(co):
    gen = cohere_gen(co)
    gen.generate(SIMPLE_Q, PASSAGES)
    gen.generate(COMPLEX_Q, PASSAGES)
    assert [b["model"] for b in co.bodies("/v2/chat")] == ["command-r-08-2024", "command-a-03-2025"]


def test_cohere_citation_offsets_merge_and_unknown_sources(co):
    text = "Leave is 25 days and claims take 30 days. Use the VPN in cafes."
    cits = [(9, 16, ["1"]), (9, 16, ["2"]), (33, 40, ["2"]), (50, 53, ["doc:2"]), (0, 5, ["web-search-7"])]
    co.script(lambda body: Response(200, chat_response(text, cits)))
    out = cohere_gen(co).generate(SIMPLE_Q, PASSAGES)
    assert out.text == "Leave is 25 days [1][2] and claims take 30 days [2]. Use the VPN [3] in cafes."
    # a span that swallows the following space keeps the space after the marker
    co.script(lambda body: Response(200, chat_response(text, [(50, 54, ["3"])])))
    assert "Use the VPN [3] in cafes." in cohere_gen(co).generate(SIMPLE_Q, PASSAGES).text


def test_cohere_citation_sentence_mode_and_billed_usage(co):
    text = "Leave is 25 days and claims take 30 days. Use the VPN in cafes."
    co.script(lambda body: Response(200, chat_response(text, [(9, 16, ["1"]), (50, 53, ["3"])],
                                                       input_tokens=1000, output_tokens=100)))
    out = cohere_gen(co, marker_position="sentence").generate(SIMPLE_Q, PASSAGES)
    assert out.text == "Leave is 25 days and claims take 30 days [1]. Use the VPN in cafes [3]."
    assert (out.usage.input_tokens, out.usage.output_tokens) == (1000, 100)  # billed units, not raw tokens
    co.script(lambda body: Response(200, chat_response("Leave is 25 days.")))
    out = cohere_gen(co).generate(SIMPLE_Q, PASSAGES)
    assert out.text == "Leave is 25 days." and "no citations" in (out.note or "")


def test_insert_citation_markers_trusts_text_when_offsets_drift():
    class Src:
        type, id, document = "document", "2", {}

    class Cit:
        start, end, text, sources, type, content_index = 0, 4, "30 days", [Src()], "TEXT_CONTENT", 0

    assert insert_citation_markers("File in 30 days.", [Cit()], PASSAGES) == "File in 30 days [2]."


def test_cohere_rerank_order_and_scores(co):
    rr = CohereReranker(KEY, co.base_url, "rerank-v3.5", timeout_s=5, max_retries=0)
    assert isinstance(rr, Reranker)
    docs = [p.text for p in PASSAGES]
    ranked = rr.rerank("expense claims receipts", docs, top_n=2)
    assert [i for i, _ in ranked] == [1, 0]
    assert len(ranked) == 2 and all(0.0 <= s <= 1.0 for _, s in ranked)
    assert ranked[0][1] >= ranked[1][1] and ranked[0][1] == pytest.approx(1.0)
    body = co.last.body
    assert body["model"] == "rerank-v3.5" and body["top_n"] == 2 and body["documents"] == docs
    assert rr.rerank("q", [], 5) == [] and len(co.requests) == 1


def test_cohere_embed_shape_normalisation_and_input_type(co):
    emb = CohereEmbedder(KEY, co.base_url, "embed-english-light-v3.0", timeout_s=5, max_retries=0)
    assert emb.dim == 384
    docs = emb.embed([f"policy document number {i}" for i in range(100)], kind="document")
    assert docs.shape == (100, 384) and docs.dtype == np.float32
    assert np.allclose(np.linalg.norm(docs, axis=1), 1.0, atol=1e-5)
    bodies = co.bodies("/v2/embed")
    assert [len(b["texts"]) for b in bodies] == [96, 4]  # batched at Cohere's 96-text limit
    assert bodies[0]["input_type"] == "search_document" and bodies[0]["embedding_types"] == ["float"]
    q = emb.embed(["policy document"], kind="query")
    assert q.shape == (1, 384) and co.last.body["input_type"] == "search_query"
    assert emb.embed([], kind="query").shape == (0, 384)


def test_cohere_embed_width_mismatch_is_actionable(co):
    emb = CohereEmbedder(KEY, co.base_url, "embed-english-v3.0", timeout_s=5, max_retries=0, dim=384)
    with pytest.raises(ProviderError) as err:
        emb.embed(["x"], kind="document")
    assert "re-index" in str(err.value) and err.value.transient is False


def test_cohere_completer(co):
    comp = CohereCompleter(KEY, co.base_url, "command-r-08-2024", timeout_s=5, max_retries=0)
    text, usage = comp.complete("Write a hypothetical answer.", "vpn in cafes", max_tokens=50)
    assert text == "FAKE COMPLETION: vpn in cafes" and usage.output_tokens > 0
    assert co.last.body["max_tokens"] == 50 and "documents" not in co.last.body


@pytest.mark.parametrize("status, transient", [(429, True), (500, True), (503, True), (400, False)])
def test_cohere_http_errors_map_to_provider_error(co, status, transient):
    co.error(status, "boom")
    with pytest.raises(ProviderError) as err:
        cohere_gen(co).generate(SIMPLE_Q, PASSAGES)
    assert err.value.transient is transient and err.value.provider == "cohere"
    assert f"HTTP {status}" in str(err.value) and "boom" in str(err.value)


def test_cohere_bad_key_is_permanent(co):
    with pytest.raises(ProviderError) as err:
        CohereReranker("wrong", co.base_url, timeout_s=5, max_retries=0).rerank("q", ["d"], 1)
    assert err.value.transient is False and "API key" in str(err.value)


def test_cohere_timeout_is_transient(co):
    co.hang(3)
    start = time.monotonic()
    with pytest.raises(ProviderError) as err:
        CohereEmbedder(KEY, co.base_url, timeout_s=0.3, max_retries=0).embed(["x"], kind="query")
    assert time.monotonic() - start < 2.5
    assert err.value.transient is True and "timed out" in str(err.value)


