"""The ONNX export of MiniLM gives the torch model's vectors, and the embedder falls back to torch."""

from __future__ import annotations

import numpy as np
import pytest
from django.conf import settings

from knowledge import onnx_export
from knowledge.embedding import LocalMiniLM, local_embedder
from knowledge.embedding_onnx import OnnxMiniLM

SENTENCES = [
    "Can I work from abroad for two weeks?",
    "The VPN client reports error E4013 after the password change.",
    "Reimbursement requests must be filed within 30 days of purchase.",
    "What does `return_exceptions=True` do in asyncio.gather?",
    "hi",
    "word " * 400,  # longer than the 256-piece window: truncation must match
]


@pytest.fixture(scope="module")
def onnx_path(tmp_path_factory):
    """The export the set-up makes, or a fresh one when the set-up has not run here."""
    path = settings.VERITY_ONNX_MODEL
    if not onnx_export.is_current(path):
        path = tmp_path_factory.mktemp("onnx") / "minilm.onnx"
        onnx_export.export(path)
    return path


def test_onnx_vectors_match_torch(onnx_path):
    torch_vectors = LocalMiniLM().embed(SENTENCES)
    onnx_vectors = OnnxMiniLM(onnx_path).embed(SENTENCES)
    cosines = (torch_vectors * onnx_vectors).sum(axis=1)
    assert cosines.min() > onnx_export.MIN_COSINE, cosines


def test_batches_of_mixed_lengths_keep_input_order(onnx_path):
    embedder = OnnxMiniLM(onnx_path, batch_size=2)
    together = embedder.embed(SENTENCES)
    alone = np.vstack([embedder.embed([s]) for s in SENTENCES])
    assert np.allclose(together, alone, atol=1e-5)
    assert together.shape == (len(SENTENCES), 384) and together.dtype == np.float32
    assert embedder.embed([]).shape == (0, 384)


def test_missing_export_falls_back_to_torch(tmp_path):
    assert isinstance(local_embedder("auto", tmp_path / "absent.onnx", 8), LocalMiniLM)


def test_torch_runtime_is_honoured_even_with_an_export(onnx_path):
    assert isinstance(local_embedder("torch", onnx_path, 8), LocalMiniLM)
    assert isinstance(local_embedder("auto", onnx_path, 8), OnnxMiniLM)


def test_export_is_skipped_when_current(onnx_path):
    report = onnx_export.export(onnx_path)
    assert report.skipped and report.min_cosine > onnx_export.MIN_COSINE
