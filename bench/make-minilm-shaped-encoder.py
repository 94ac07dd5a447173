"""Writes a BERT sentence encoder of all-MiniLM-L6-v2's shape with random weights, for `npm run bench`.

No model hub is reachable here, so the bench cannot time the real all-MiniLM-L6-v2. What a
transformer costs depends on its shape and the token counts, not on its weights' values: this graph has
the real model's (vocabulary 30,522, hidden 384, 6 layers, 12 heads, intermediate 1,536, 512
positions, GELU, post-LayerNorm, attention under the mask; seeded float32 weights, ~90 MB like the
real export), outputs last_hidden_state, and comes with a mean 1_Pooling/config.json, as `optimum-cli
export onnx` writes for the real one. Its vectors mean nothing.

The tokenizer is not bert-base-uncased's (no copy of it is on this machine): it is a WordPiece vocabulary
of 30,522 built from the CV corpus given (specials, characters, then its most frequent words and word
endings), so a CV's token count is realistic-ish, a little below the real one on CVs (an in-domain
vocabulary splits fewer words). Needs the `onnx` package (Debian: python3-onnx) and numpy:

    /usr/bin/python3 bench/make-minilm-shaped-encoder.py [OUT_DIR] [CORPUS.jsonl]
"""
import collections
import json
import os
import re
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "tmp", "minilm-shaped"))
CORPUS = sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, "..", "shared", "eval", "livecareer", "resumes.jsonl")

VOCAB_SIZE, HIDDEN, LAYERS, HEADS, INTERMEDIATE, POSITIONS = 30522, 384, 6, 12, 1536, 512
HEAD = HIDDEN // HEADS
SPECIAL = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
B, S = "batch_size", "sequence_length"


def vocabulary():
    """Specials, every character seen (alone and as ##), then the corpus's words and word endings by frequency."""
    words = collections.Counter()
    with open(CORPUS) as f:
        for line in f:
            # BertPreTokenizer's split: runs of letters and digits, each punctuation mark alone.
            words.update(re.findall(r"\w+|[^\w\s]", json.loads(line)["text"].lower()))
    chars = sorted({c for w in words for c in w})
    vocab = SPECIAL + chars + ["##" + c for c in chars]
    endings = collections.Counter()
    for w, n in words.items():
        for k in range(2, min(len(w), 8)):
            endings["##" + w[-k:]] += n
    # Words count double against endings: BERT's vocabulary is ~80% whole words.
    ranked = sorted([(2 * n, w) for w, n in words.items() if len(w) > 1] + [(n, e) for e, n in endings.items()], reverse=True)
    seen = set(vocab)
    for _, token in ranked:
        if len(vocab) == VOCAB_SIZE:
            break
        if token not in seen:
            seen.add(token)
            vocab.append(token)
    vocab += [f"[unused{i}]" for i in range(VOCAB_SIZE - len(vocab))]
    return vocab


def tokenizer_json(vocab):
    ids = {t: i for i, t in enumerate(vocab)}
    added = [{"id": ids[t], "content": t, "single_word": False, "lstrip": False, "rstrip": False, "normalized": False, "special": True}
             for t in SPECIAL]
    special = lambda t: {"SpecialToken": {"id": t, "type_id": 0}}
    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": added,
        "normalizer": {"type": "BertNormalizer", "clean_text": True, "handle_chinese_chars": True, "strip_accents": None, "lowercase": True},
        "pre_tokenizer": {"type": "BertPreTokenizer"},
        "post_processor": {
            "type": "TemplateProcessing",
            "single": [special("[CLS]"), {"Sequence": {"id": "A", "type_id": 0}}, special("[SEP]")],
            "pair": [special("[CLS]"), {"Sequence": {"id": "A", "type_id": 0}}, special("[SEP]"),
                     {"Sequence": {"id": "B", "type_id": 1}}, {"SpecialToken": {"id": "[SEP]", "type_id": 1}}],
            "special_tokens": {t: {"id": t, "ids": [ids[t]], "tokens": [t]} for t in ("[CLS]", "[SEP]")},
        },
        "decoder": {"type": "WordPiece", "prefix": "##", "cleanup": True},
        "model": {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##", "max_input_chars_per_word": 100,
                  "vocab": ids},
    }


rng = np.random.default_rng(20251124)
initializers = []
nodes = []


def weight(name, *shape, value=None):
    data = np.full(shape, value, np.float32) if value is not None else (rng.standard_normal(shape) * 0.02).astype(np.float32)
    initializers.append(numpy_helper.from_array(data, name))
    return name


def const(name, values):
    initializers.append(numpy_helper.from_array(np.array(values, np.int64), name))
    return name


def node(op, inputs, output, **attrs):
    nodes.append(helper.make_node(op, inputs, [output], **attrs))
    return output


def layer_norm(x, name):
    return node("LayerNormalization", [x, weight(f"{name}.gamma", HIDDEN, value=1.0), weight(f"{name}.beta", HIDDEN, value=0.0)],
                f"{name}.out", axis=-1, epsilon=1e-12)


def linear(x, name, n_in, n_out):
    return node("Add", [node("MatMul", [x, weight(f"{name}.w", n_in, n_out)], f"{name}.mm"), weight(f"{name}.b", n_out, value=0.0)],
                f"{name}.out")


def gelu(x, name):
    # The exact (erf) GELU, as BERT exports write it; onnxruntime fuses it into one Gelu kernel.
    scaled = node("Div", [x, weight(f"{name}.sqrt2", value=float(np.sqrt(2)))], f"{name}.scaled")
    one_plus = node("Add", [node("Erf", [scaled], f"{name}.erf"), weight(f"{name}.one", value=1.0)], f"{name}.1p")
    return node("Mul", [node("Mul", [x, one_plus], f"{name}.x1p"), weight(f"{name}.half", value=0.5)], f"{name}.out")


def heads(x, name):
    """[batch, seq, hidden] to [batch, heads, seq, head]."""
    return node("Transpose", [node("Reshape", [x, const(f"{name}.shape", [0, 0, HEADS, HEAD])], f"{name}.split")], f"{name}.heads",
                perm=[0, 2, 1, 3])


def encoder_layer(x, bias, i):
    p = f"layer{i}"
    q = heads(linear(x, f"{p}.q", HIDDEN, HIDDEN), f"{p}.q")
    k = node("Transpose", [node("Reshape", [linear(x, f"{p}.k", HIDDEN, HIDDEN), f"{p}.q.shape"], f"{p}.k.split")], f"{p}.k.heads",
             perm=[0, 2, 3, 1])
    v = heads(linear(x, f"{p}.v", HIDDEN, HIDDEN), f"{p}.v")
    scores = node("Div", [node("MatMul", [q, k], f"{p}.qk"), weight(f"{p}.scale", value=float(np.sqrt(HEAD)))], f"{p}.scores")
    probs = node("Softmax", [node("Add", [scores, bias], f"{p}.masked")], f"{p}.probs", axis=-1)
    context = node("Transpose", [node("MatMul", [probs, v], f"{p}.ctx4")], f"{p}.ctx.t", perm=[0, 2, 1, 3])
    context = node("Reshape", [context, const(f"{p}.merge", [0, 0, HIDDEN])], f"{p}.ctx")
    attended = layer_norm(node("Add", [linear(context, f"{p}.o", HIDDEN, HIDDEN), x], f"{p}.res1"), f"{p}.ln1")
    inner = gelu(linear(attended, f"{p}.ff1", HIDDEN, INTERMEDIATE), f"{p}.gelu")
    return layer_norm(node("Add", [linear(inner, f"{p}.ff2", INTERMEDIATE, HIDDEN), attended], f"{p}.res2"), f"{p}.ln2")


def graph():
    # Positions 0..seq-1, from the input's own width.
    width = node("Gather", [node("Shape", ["input_ids"], "ids.shape"), const("one_index", 1)], "width", axis=0)
    positions = node("Range", [const("zero", 0), width, const("step", 1)], "positions")
    embedded = node("Add", [
        node("Add", [node("Gather", [weight("word_embeddings", VOCAB_SIZE, HIDDEN), "input_ids"], "by_word"),
                     node("Gather", [weight("type_embeddings", 2, HIDDEN), "token_type_ids"], "by_type")], "word_type"),
        node("Gather", [weight("position_embeddings", POSITIONS, HIDDEN), positions], "by_position"),
    ], "embedded")
    x = layer_norm(embedded, "embeddings.ln")
    # Padded places get -10000 before the softmax: they take no attention.
    mask = node("Cast", ["attention_mask"], "mask.f", to=TensorProto.FLOAT)
    inverted = node("Sub", [weight("one", value=1.0), mask], "mask.inverted")
    scaled = node("Mul", [inverted, weight("neg", value=-10000.0)], "mask.scaled")
    bias = node("Unsqueeze", [scaled, const("mask.axes", [1, 2])], "mask.bias")
    for i in range(LAYERS):
        x = encoder_layer(x, bias, i)
    nodes.append(helper.make_node("Identity", [x], ["last_hidden_state"]))
    inputs = [helper.make_tensor_value_info(n, TensorProto.INT64, [B, S]) for n in ("input_ids", "attention_mask", "token_type_ids")]
    output = helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, [B, S, HIDDEN])
    return helper.make_graph(nodes, "minilm-shaped", inputs, [output], initializer=initializers)


def write_json(name, value):
    path = os.path.join(OUT, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(value, f, indent=1)
        f.write("\n")


model = helper.make_model(graph(), opset_imports=[helper.make_opsetid("", 17)], producer_name="candidate-search bench")
model.ir_version = 8
onnx.checker.check_model(model)
os.makedirs(OUT, exist_ok=True)
onnx.save(model, os.path.join(OUT, "model.onnx"))
write_json("tokenizer.json", tokenizer_json(vocabulary()))
write_json("tokenizer_config.json", {"tokenizer_class": "BertTokenizer", "do_lower_case": True, "model_max_length": POSITIONS,
                                     "cls_token": "[CLS]", "sep_token": "[SEP]", "pad_token": "[PAD]", "unk_token": "[UNK]",
                                     "mask_token": "[MASK]"})
write_json("modules.json", [
    {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
    {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"},
    {"idx": 2, "name": "2", "path": "2_Normalize", "type": "sentence_transformers.models.Normalize"},
])
write_json("1_Pooling/config.json", {"word_embedding_dimension": HIDDEN, "pooling_mode_cls_token": False, "pooling_mode_mean_tokens": True,
                                     "pooling_mode_max_tokens": False, "pooling_mode_mean_sqrt_len_tokens": False})
write_json("config_sentence_transformers.json", {"prompts": {}, "default_prompt_name": None})
print(f"wrote {OUT}")
