"""Export the installed all-MiniLM-L6-v2 to ONNX and check it against the torch model.

Run at set-up by `manage.py export_embedder`. The export is accepted only when every sample sentence's
ONNX vector has cosine > MIN_COSINE with the torch vector; otherwise no file is written and the
embedder keeps using torch.
"""

from __future__ import annotations

import hashlib
import json
import os
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from knowledge.embedding_onnx import INPUT_NAMES, OnnxMiniLM, model_dir

MIN_COSINE = 0.9999
# Short and long, plain and code-like, one past the 256-piece window: padding and truncation both show.
SAMPLE_SENTENCES = (
    "How many vacation days do I get?",
    "Working from abroad needs written approval from your manager and HR at least 30 days before you travel.",
    "E4012",
    "git reset --hard HEAD~1",
    "Set DJANGO_DEBUG=false in production and rotate the secret key.",
    "ok",
    " ".join(["The expense policy covers travel, meals and lodging."] * 40),
)


@dataclass
class ExportReport:
    """What an export did: where the file is, and how close its vectors are to torch's."""

    path: Path
    min_cosine: float
    skipped: bool = False


def source_fingerprint() -> str:
    """Identifies the weights and exporter versions an ONNX file was made from."""
    import torch

    weights = model_dir() / "model.safetensors"
    stat = weights.stat()
    return hashlib.sha1(f"{weights}:{stat.st_size}:{int(stat.st_mtime)}:{torch.__version__}".encode()).hexdigest()


def _stamp(path: Path) -> Path:
    return path.with_suffix(".json")


def is_current(path: Path) -> bool:
    """True when the file exists and was exported from the installed weights with this torch."""
    try:
        return json.loads(_stamp(path).read_text())["source"] == source_fingerprint() and path.exists()
    except (OSError, ValueError, KeyError):
        return False


def torch_vectors(texts: list[str]) -> np.ndarray:
    """The reference: the sentence-transformers pipeline the torch embedder uses."""
    from knowledge.embedding import LocalMiniLM

    return LocalMiniLM().embed(texts)


def min_cosine(onnx_path: Path, texts: list[str], reference: np.ndarray) -> float:
    """Smallest cosine between the ONNX file's vectors and the reference vectors."""
    vectors = OnnxMiniLM(onnx_path, batch_size=4).embed(texts)
    return float((vectors * reference).sum(axis=1).min())


def _export_graph(target: Path) -> None:
    import torch
    from transformers import AutoModel
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()
    # Eager attention traces the mask into the graph; the SDPA path may drop an all-ones mask while
    # tracing and then ignore padding in every batch.
    model = AutoModel.from_pretrained(str(model_dir()), attn_implementation="eager").eval()

    class Encoder(torch.nn.Module):
        def __init__(self, bert):
            super().__init__()
            self.bert = bert

        def forward(self, input_ids, attention_mask, token_type_ids):
            return self.bert(input_ids=input_ids, attention_mask=attention_mask,
                             token_type_ids=token_type_ids).last_hidden_state

    ids = torch.ones(2, 8, dtype=torch.long)
    mask = torch.ones_like(ids)
    mask[1, 5:] = 0  # a padded row, so the traced graph keeps the mask
    axes = {name: {0: "batch", 1: "sequence"} for name in (*INPUT_NAMES, "last_hidden_state")}
    with warnings.catch_warnings(), torch.no_grad():
        warnings.simplefilter("ignore")  # tracer notes about Python constants; the check below is what counts
        torch.onnx.export(Encoder(model), (ids, mask, torch.zeros_like(ids)), str(target),
                          input_names=list(INPUT_NAMES), output_names=["last_hidden_state"],
                          dynamic_axes=axes, opset_version=17, dynamo=False)


def export(path: Path, *, force: bool = False) -> ExportReport:
    """Write the ONNX model to `path` unless a current one is there; raise when it does not match torch."""
    if not force and is_current(path):
        return ExportReport(path, float(json.loads(_stamp(path).read_text())["min_cosine"]), skipped=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    _export_graph(partial)
    texts = list(SAMPLE_SENTENCES)
    closest = min_cosine(partial, texts, torch_vectors(texts))
    if not closest > MIN_COSINE:
        partial.unlink(missing_ok=True)
        raise RuntimeError(f"ONNX export differs from the torch model (min cosine {closest:.6f}); keeping torch")
    os.replace(partial, path)
    _stamp(path).write_text(json.dumps({"source": source_fingerprint(), "min_cosine": closest}))
    return ExportReport(path, closest)
