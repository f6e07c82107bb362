"""Build a tiny, real COMET regression checkpoint on disk (for tests and benchmarks).

The layout is the one COMET publishes (``<folder>/hparams.yaml`` + ``<folder>/checkpoints/
model.ckpt``). The encoder is a two-layer XLM-RoBERTa, randomly initialised from a fixed
seed, with a Unigram tokenizer trained here on a few hundred sentences; it is saved as a
local folder that ``hparams.yaml`` names as ``pretrained_model``, so loading it needs no
network. Nothing is downloaded: only ``tokenizers``, ``transformers``, ``torch`` and
``unbabel-comet`` are used, all locally.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

WORDS = [
    "the",
    "a",
    "cat",
    "dog",
    "house",
    "river",
    "tree",
    "sun",
    "moon",
    "water",
    "fire",
    "bird",
    "fish",
    "child",
    "woman",
    "man",
    "eats",
    "sees",
    "runs",
    "sleeps",
    "drinks",
    "walks",
    "speaks",
    "big",
    "small",
    "red",
    "green",
    "old",
    "new",
    "near",
    "under",
    "over",
    "and",
    "or",
    "not",
    "today",
    "tomorrow",
    "morning",
    "night",
    "village",
    "road",
    "book",
    "school",
    "teacher",
    "friend",
    "mother",
    "father",
]


def training_sentences(n: int = 300, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    return [" ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 10))) for _ in range(n)]


@dataclass(frozen=True)
class TinyComet:
    folder: Path  # the model folder (hparams.yaml, checkpoints/model.ckpt)
    checkpoint: Path
    encoder: Path  # the local encoder folder named by hparams.yaml


def build_tiny_comet(root: Path, *, seed: int = 0, constant_bias: float | None = None,
                     drop_keys: tuple[str, ...] = ()) -> TinyComet:
    """Write a tiny COMET regression model under ``root`` and return its paths.

    ``constant_bias``: zero the weights of the estimator's last layer and set its bias, so
    every segment scores exactly ``sigmoid(constant_bias)`` (a literal check that the
    checkpoint's weights are the ones used). ``drop_keys``: leave state-dict entries whose
    name starts with one of these out of the checkpoint (a broken checkpoint).
    """
    import pytorch_lightning as pl
    import torch
    import yaml
    from comet.models.regression.regression_metric import RegressionMetric
    from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors, trainers
    from transformers import XLMRobertaConfig, XLMRobertaTokenizerFast

    root = Path(root)
    encoder = root / "tiny-xlmr"
    encoder.mkdir(parents=True, exist_ok=True)

    specials = ["<s>", "<pad>", "</s>", "<unk>", "<mask>"]
    tok = Tokenizer(models.Unigram())
    tok.normalizer = normalizers.NFKC()
    tok.pre_tokenizer = pre_tokenizers.Metaspace()
    tok.decoder = decoders.Metaspace()
    tok.train_from_iterator(training_sentences(), trainers.UnigramTrainer(
        vocab_size=120, special_tokens=specials, unk_token="<unk>", show_progress=False))
    bos, eos = tok.token_to_id("<s>"), tok.token_to_id("</s>")
    tok.post_processor = processors.TemplateProcessing(
        single="<s> $A </s>", pair="<s> $A </s> </s> $B </s>", special_tokens=[("<s>", bos), ("</s>", eos)])
    fast = XLMRobertaTokenizerFast(
        tokenizer_object=tok, bos_token="<s>", eos_token="</s>", sep_token="</s>", cls_token="<s>",
        unk_token="<unk>", pad_token="<pad>", mask_token="<mask>", model_max_length=64)
    fast.save_pretrained(encoder)
    XLMRobertaConfig(
        vocab_size=tok.get_vocab_size(), hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
        intermediate_size=64, max_position_embeddings=66, pad_token_id=tok.token_to_id("<pad>"),
        bos_token_id=bos, eos_token_id=eos,
    ).save_pretrained(encoder)

    torch.manual_seed(seed)
    model = RegressionMetric(
        encoder_model="XLM-RoBERTa", pretrained_model=str(encoder.resolve()), load_pretrained_weights=False,
        local_files_only=True, hidden_sizes=[16], activations="Tanh", final_activation="Sigmoid",
        layer="mix", layer_transformation="softmax", layer_norm=False, pool="avg", nr_frozen_epochs=0.0,
        dropout=0.1)
    state = model.state_dict()
    if constant_bias is not None:
        last = max(k for k in state if k.startswith("estimator.ff.") and k.endswith(".weight"))
        state[last] = torch.zeros_like(state[last])
        state[last[: -len("weight")] + "bias"] = torch.full_like(state[last[: -len("weight")] + "bias"], constant_bias)
    if drop_keys:
        state = {k: v for k, v in state.items() if not k.startswith(drop_keys)}

    folder = root / "tiny-comet"
    (folder / "checkpoints").mkdir(parents=True, exist_ok=True)
    hparams = dict(model.hparams)
    hparams["class_identifier"] = "regression_metric"
    (folder / "hparams.yaml").write_text(yaml.safe_dump(hparams), encoding="utf-8")
    ckpt = folder / "checkpoints" / "model.ckpt"
    torch.save({"state_dict": state, "hyper_parameters": hparams, "pytorch-lightning_version": pl.__version__}, ckpt)
    return TinyComet(folder, ckpt, encoder)
