"""Writes tiny-cross-encoder/model.onnx: a test stand-in for a cross-encoder, not a trained model.

It has a BERT cross-encoder's interface (input_ids, attention_mask, token_type_ids -> logits [batch, 1])
and truly reads query and CV together: its logit is how many CV tokens (type 1) equal some query
token (type 0), special tokens (ids 0-3) left out. Needs the `onnx` package (Debian: python3-onnx):

    /usr/bin/python3 libs/onnx-reranker/src/testing/make-tiny-cross-encoder.py
"""
import os
import onnx
from onnx import TensorProto, helper

B, S = "batch", "sequence"
inputs = [helper.make_tensor_value_info(n, TensorProto.INT64, [B, S]) for n in ("input_ids", "attention_mask", "token_type_ids")]
output = helper.make_tensor_value_info("logits", TensorProto.FLOAT, [B, 1])
const = lambda name, value, kind=TensorProto.INT64: helper.make_node("Constant", [], [name], value=helper.make_tensor(name, kind, [len(value)] if isinstance(value, list) else [], value if isinstance(value, list) else [value]))
nodes = [
    const("last_special", 3),
    const("one", 1),
    const("axis1", [1]),
    const("axis2", [2]),
    # a token counts when it is real (mask 1) and not special
    helper.make_node("Greater", ["input_ids", "last_special"], ["not_special"]),
    helper.make_node("Cast", ["not_special"], ["not_special_f"], to=TensorProto.FLOAT),
    helper.make_node("Cast", ["attention_mask"], ["mask_f"], to=TensorProto.FLOAT),
    helper.make_node("Mul", ["not_special_f", "mask_f"], ["real"]),
    helper.make_node("Equal", ["token_type_ids", "one"], ["is_cv"]),
    helper.make_node("Cast", ["is_cv"], ["cv_f"], to=TensorProto.FLOAT),
    helper.make_node("Mul", ["real", "cv_f"], ["cv_tokens"]),
    helper.make_node("Sub", ["real", "cv_tokens"], ["query_tokens"]),
    # same[b, i, j] = input_ids[b, i] == input_ids[b, j]
    helper.make_node("Unsqueeze", ["input_ids", "axis2"], ["ids_col"]),
    helper.make_node("Unsqueeze", ["input_ids", "axis1"], ["ids_row"]),
    helper.make_node("Equal", ["ids_col", "ids_row"], ["same"]),
    helper.make_node("Cast", ["same"], ["same_f"], to=TensorProto.FLOAT),
    # matched CV token j: some query token i equals it
    helper.make_node("Unsqueeze", ["query_tokens", "axis2"], ["query_col"]),
    helper.make_node("Mul", ["same_f", "query_col"], ["pairs"]),
    helper.make_node("ReduceMax", ["pairs"], ["cv_hit"], axes=[1], keepdims=0),
    helper.make_node("Mul", ["cv_hit", "cv_tokens"], ["cv_matched"]),
    helper.make_node("ReduceSum", ["cv_matched", "axis1"], ["logits"], keepdims=1),
]
graph = helper.make_graph(nodes, "tiny-cross-encoder", inputs, [output])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="candidate-search tests")
model.ir_version = 8
onnx.checker.check_model(model)
onnx.save(model, os.path.join(os.path.dirname(os.path.abspath(__file__)), "tiny-cross-encoder", "model.onnx"))
