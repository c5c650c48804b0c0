"""PyTorch model kinds for tools/export_pytorch_models.py: each module here defines
MODELS, a dict of model name -> builder returning a Model."""
import dataclasses

import torch


@dataclasses.dataclass
class Model:
    module: torch.nn.Module
    input_shapes: list          # one shape per input, batch included
    opset: int = 13
    input_names: list = dataclasses.field(default_factory=lambda: ["x"])
    output_names: list = dataclasses.field(default_factory=lambda: ["y"])
    dynamic_axes: dict = None   # e.g. {"x": {0: "batch"}} for a symbolic batch axis
    # Per input: None for seeded standard-normal float32 values, or (low, high) for
    # seeded uniform int64 values in [low, high) (token ids); None: every input float.
    input_ranges: list = None
    # Export with autograd on (the goldens are still computed without): PyTorch's eval
    # fast path for nn.MultiheadAttention / nn.TransformerEncoderLayer (a fused op with no
    # ONNX export) is skipped when gradients are enabled, as in a plain user export.
    export_with_grad: bool = False
    # torch 1.13's own ONNX check refuses the file it has written (an exporter bug whose
    # output the importer tolerates, e.g. LayerNorm without affine at opset 17): the
    # CheckerError is expected and the export goes on with the written file.
    exporter_check_fails: bool = False
