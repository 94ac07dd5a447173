"""Writes the tiny bi-encoders' folders: test stand-ins for sentence-transformer exports, not trained models.

Each reads like a BERT sentence encoder (input_ids, attention_mask -> vectors) and its vectors can be
predicted from the token ids alone, as onnx-sentence-encoder.spec.ts does:

- tiny-bi-encoder/: last_hidden_state [batch, sequence, 8] = TABLE[input_ids] + TYPES[token_type_ids],
  TABLE[t][k] = ((5t + 3k) mod 13 - 6) / 8 (exact in float32) and TYPES row 0 zeros, row 1 all 100 (a
  token type other than 0 would show); mean pooling (1_Pooling), prompts `query: ` and `passage: `.
- tiny-pooled-bi-encoder/: no token_type_ids input; sentence_embedding [batch, hidden] (the width left
  symbolic) = the masked mean of TABLE[input_ids], pooled in the graph.
- bad-graphs/no-attention-mask.onnx: input_ids alone, for the load error that names the inputs.

The tokenizer is a BERT WordPiece one over a small vocabulary (the tiny cross-encoder's and a few
words more). Needs the `onnx` package (Debian: python3-onnx):

    /usr/bin/python3 libs/onnx-encoder/src/testing/make-tiny-bi-encoder.py
"""
import json
import os
import onnx
from onnx import TensorProto, helper

HERE = os.path.dirname(os.path.abspath(__file__))
DIM = 8
VOCAB = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "kubernetes", "python", "java", "engineer", "developer", "chef",
         "kitchen", "accountant", "ledger", "nurse", "patient", "aws", "docker", "sales", "manager", "cloud",
         "##s", "##ing", ",", ".", "query", "passage", ":", "care", "intensive", "with", "who"]
SPECIAL = VOCAB[:4]
TABLE = [[((5 * t + 3 * k) % 13 - 6) / 8 for k in range(DIM)] for t in range(len(VOCAB))]
TYPES = [[0.0] * DIM, [100.0] * DIM]
B, S = "batch", "sequence"


def tokenizer_json():
    added = [{"id": i, "content": t, "single_word": False, "lstrip": False, "rstrip": False, "normalized": False, "special": True}
             for i, t in enumerate(SPECIAL)]
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
            "special_tokens": {t: {"id": t, "ids": [VOCAB.index(t)], "tokens": [t]} for t in ("[CLS]", "[SEP]")},
        },
        "decoder": {"type": "WordPiece", "prefix": "##", "cleanup": True},
        "model": {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##", "max_input_chars_per_word": 100,
                  "vocab": {t: i for i, t in enumerate(VOCAB)}},
    }


TOKENIZER_CONFIG = {"tokenizer_class": "BertTokenizer", "do_lower_case": True, "model_max_length": 512,
                    "cls_token": "[CLS]", "sep_token": "[SEP]", "pad_token": "[PAD]", "unk_token": "[UNK]"}
MODULES = [
    {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
    {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"},
    {"idx": 2, "name": "2", "path": "2_Normalize", "type": "sentence_transformers.models.Normalize"},
]
POOLING = {"word_embedding_dimension": DIM, "pooling_mode_cls_token": False, "pooling_mode_mean_tokens": True,
           "pooling_mode_max_tokens": False, "pooling_mode_mean_sqrt_len_tokens": False}
SENTENCE_TRANSFORMERS = {"prompts": {"query": "query: ", "passage": "passage: "}, "default_prompt_name": None}


def table(name, rows):
    return helper.make_tensor(name, TensorProto.FLOAT, [len(rows), DIM], [x for row in rows for x in row])


def save(graph, path):
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="candidate-search tests")
    model.ir_version = 8
    onnx.checker.check_model(model)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    onnx.save(model, path)


def write_json(path, value):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(value, f, indent=1)
        f.write("\n")


def write_folder(name, graph, files):
    folder = os.path.join(HERE, name)
    save(graph, os.path.join(folder, "model.onnx"))
    write_json(os.path.join(folder, "tokenizer.json"), tokenizer_json())
    write_json(os.path.join(folder, "tokenizer_config.json"), TOKENIZER_CONFIG)
    for path, value in files.items():
        write_json(os.path.join(folder, path), value)


ids = helper.make_tensor_value_info("input_ids", TensorProto.INT64, [B, S])
mask = helper.make_tensor_value_info("attention_mask", TensorProto.INT64, [B, S])
types = helper.make_tensor_value_info("token_type_ids", TensorProto.INT64, [B, S])

token_graph = helper.make_graph(
    [
        helper.make_node("Gather", ["table", "input_ids"], ["by_token"]),
        helper.make_node("Gather", ["types", "token_type_ids"], ["by_type"]),
        helper.make_node("Add", ["by_token", "by_type"], ["last_hidden_state"]),
    ],
    "tiny-bi-encoder",
    [ids, mask, types],
    [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, [B, S, DIM])],
    initializer=[table("table", TABLE), table("types", TYPES)],
)
write_folder("tiny-bi-encoder", token_graph, {
    "modules.json": MODULES,
    "1_Pooling/config.json": POOLING,
    "config_sentence_transformers.json": SENTENCE_TRANSFORMERS,
})

pooled_graph = helper.make_graph(
    [
        helper.make_node("Gather", ["table", "input_ids"], ["by_token"]),
        helper.make_node("Cast", ["attention_mask"], ["mask_f"], to=TensorProto.FLOAT),
        helper.make_node("Constant", [], ["axis2"], value=helper.make_tensor("axis2", TensorProto.INT64, [1], [2])),
        helper.make_node("Constant", [], ["axis1"], value=helper.make_tensor("axis1", TensorProto.INT64, [1], [1])),
        helper.make_node("Unsqueeze", ["mask_f", "axis2"], ["mask_col"]),
        helper.make_node("Mul", ["by_token", "mask_col"], ["masked"]),
        helper.make_node("ReduceSum", ["masked", "axis1"], ["summed"], keepdims=0),
        helper.make_node("ReduceSum", ["mask_f", "axis1"], ["count"], keepdims=1),
        helper.make_node("Div", ["summed", "count"], ["sentence_embedding"]),
    ],
    "tiny-pooled-bi-encoder",
    [ids, mask],
    [helper.make_tensor_value_info("sentence_embedding", TensorProto.FLOAT, [B, "hidden"])],
    initializer=[table("table", TABLE)],
)
write_folder("tiny-pooled-bi-encoder", pooled_graph, {})

ids_only_graph = helper.make_graph(
    [helper.make_node("Gather", ["table", "input_ids"], ["last_hidden_state"])],
    "no-attention-mask",
    [ids],
    [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, [B, S, DIM])],
    initializer=[table("table", TABLE)],
)
save(ids_only_graph, os.path.join(HERE, "bad-graphs", "no-attention-mask.onnx"))
