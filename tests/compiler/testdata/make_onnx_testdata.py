#!/usr/bin/python3
"""Generates the tiny ONNX models and reference data used by the ONNX front-end tests
(tests/compiler/onnx_import_test.cc, tests/compiler/legalize_test.cc).

Run with the Debian python (it sees python3-onnx 1.12 and numpy):
    /usr/bin/python3 tests/compiler/testdata/make_onnx_testdata.py
Files are written next to this script, under onnx/:
    <name>.onnx            a model (a few hundred bytes to a few KB)
    <name>.in<i>.npy       a sample input (float32)
    <name>.out<j>.npy      the expected output for it, computed here with numpy in
                           float64 from the ONNX operator definitions (not with any ONNX
                           runtime), stored as float32
    <name>.<what>.npy      other expected values (e.g. BatchNormalization-folded weights)
Everything is deterministic (fixed seeds), so re-running gives identical files.
"""
import os

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "onnx")
rng = np.random.default_rng(20240601)


def randn(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def init(name, array):
    return numpy_helper.from_array(np.asarray(array), name)


def vi(name, shape, elem=T.FLOAT):
    return h.make_tensor_value_info(name, elem, shape)


def save(name, nodes, inputs, outputs, initializers=(), opset=13, check=True, ir_version=8):
    graph = h.make_graph(nodes, name, inputs, outputs, list(initializers))
    model = h.make_model(graph, opset_imports=[h.make_opsetid("", opset)],
                         producer_name="make_onnx_testdata")
    model.ir_version = ir_version
    if check:
        onnx.checker.check_model(model)
    with open(os.path.join(OUT, name + ".onnx"), "wb") as f:
        f.write(model.SerializeToString())
    return model


def save_arrays(name, **arrays):
    for key, value in arrays.items():
        np.save(os.path.join(OUT, f"{name}.{key}.npy"), np.ascontiguousarray(value, dtype=np.float32))


# ---- numpy reference implementations (float64) of the ONNX ops used below -------------

def conv(x, w, b=None, strides=(1, 1), pads=(0, 0, 0, 0), dilations=(1, 1), group=1):
    """ONNX Conv, 2-D, pads = [top, left, bottom, right]."""
    x = x.astype(np.float64)
    w = w.astype(np.float64)
    n, c, hh, ww = x.shape
    o, cg, kh, kw = w.shape
    sh, sw = strides
    dh, dw = dilations
    xp = np.pad(x, ((0, 0), (0, 0), (pads[0], pads[2]), (pads[1], pads[3])))
    oh = (hh + pads[0] + pads[2] - dh * (kh - 1) - 1) // sh + 1
    ow = (ww + pads[1] + pads[3] - dw * (kw - 1) - 1) // sw + 1
    out = np.zeros((n, o, oh, ow))
    per_group = o // group
    for oc in range(o):
        g = oc // per_group
        xs = xp[:, g * cg:(g + 1) * cg]
        for i in range(oh):
            for j in range(ow):
                patch = xs[:, :, i * sh:i * sh + dh * (kh - 1) + 1:dh, j * sw:j * sw + dw * (kw - 1) + 1:dw]
                out[:, oc, i, j] = (patch * w[oc]).sum(axis=(1, 2, 3))
    if b is not None:
        out += b.astype(np.float64)[None, :, None, None]
    return out


def pool_size(size, k, s, pb, pe, d, ceil_mode):
    span = d * (k - 1) + 1
    room = size + pb + pe - span
    out = (-(-room // s) if ceil_mode else room // s) + 1
    if ceil_mode and (out - 1) * s >= size + pb:
        out -= 1
    return out


def pool(x, kind, kernel, strides, pads=(0, 0, 0, 0), dilations=(1, 1), ceil_mode=0,
         count_include_pad=0):
    x = x.astype(np.float64)
    n, c, hh, ww = x.shape
    oh = pool_size(hh, kernel[0], strides[0], pads[0], pads[2], dilations[0], ceil_mode)
    ow = pool_size(ww, kernel[1], strides[1], pads[1], pads[3], dilations[1], ceil_mode)
    out = np.zeros((n, c, oh, ow))
    for i in range(oh):
        for j in range(ow):
            vals, padded_count = [], 0
            for ky in range(kernel[0]):
                for kx in range(kernel[1]):
                    y = i * strides[0] - pads[0] + ky * dilations[0]
                    xx = j * strides[1] - pads[1] + kx * dilations[1]
                    if 0 <= y < hh and 0 <= xx < ww:
                        vals.append(x[:, :, y, xx])
                    elif -pads[0] <= y < hh + pads[2] and -pads[1] <= xx < ww + pads[3]:
                        padded_count += 1
            if kind == "max":
                out[:, :, i, j] = np.max(vals, axis=0)
            else:
                count = len(vals) + (padded_count if count_include_pad else 0)
                out[:, :, i, j] = np.sum(vals, axis=0) / count
    return out


def batch_norm(x, scale, bias, mean, var, eps):
    shape = (1, -1) + (1,) * (x.ndim - 2)
    s = scale.astype(np.float64) / np.sqrt(var.astype(np.float64) + eps)
    return (x - mean.reshape(shape)) * s.reshape(shape) + bias.reshape(shape)


def softmax(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def relu(x):
    return np.maximum(x, 0)


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


# ---- models for the import and legalize tests ------------------------------------------

def make_conv_bn_relu():
    """Conv -> BatchNormalization -> Relu: the BN folds into the Conv."""
    x, w, b = randn(1, 3, 5, 5), randn(4, 3, 3, 3), randn(4)
    scale, shift = randn(4), randn(4)
    mean, var = randn(4), rng.uniform(0.5, 2.0, 4).astype(np.float32)
    eps = 1e-3
    nodes = [
        h.make_node("Conv", ["x", "w", "b"], ["c"], name="conv", pads=[1, 1, 1, 1]),
        h.make_node("BatchNormalization", ["c", "scale", "shift", "mean", "var"], ["bn"],
                    name="bn", epsilon=eps),
        h.make_node("Relu", ["bn"], ["y"], name="relu"),
    ]
    save("conv_bn_relu", nodes, [vi("x", [1, 3, 5, 5])], [vi("y", [1, 4, 5, 5])],
         [init("w", w), init("b", b), init("scale", scale), init("shift", shift),
          init("mean", mean), init("var", var)])
    s = scale.astype(np.float64) / np.sqrt(var.astype(np.float64) + eps)
    folded_w = w * s[:, None, None, None]
    folded_b = (b - mean) * s + shift
    y = relu(batch_norm(conv(x, w, b, pads=(1, 1, 1, 1)), scale, shift, mean, var, eps))
    save_arrays("conv_bn_relu", in0=x, out0=y, folded_w=folded_w, folded_b=folded_b)


def make_batchnorm_alone():
    """A BatchNormalization on a graph input (no Conv before it) -> Mul + Add."""
    x = randn(1, 3, 2, 2)
    scale, shift, mean = randn(3), randn(3), randn(3)
    var = rng.uniform(0.5, 2.0, 3).astype(np.float32)
    nodes = [h.make_node("BatchNormalization", ["x", "scale", "shift", "mean", "var"], ["y"],
                         name="bn")]
    save("batchnorm_alone", nodes, [vi("x", [1, 3, 2, 2])], [vi("y", [1, 3, 2, 2])],
         [init("scale", scale), init("shift", shift), init("mean", mean), init("var", var)])
    s = scale.astype(np.float64) / np.sqrt(var.astype(np.float64) + 1e-5)
    save_arrays("batchnorm_alone", in0=x, out0=batch_norm(x, scale, shift, mean, var, 1e-5),
                scale=s, shift=shift - mean * s)


def make_mini_mobilenet():
    """Conv (stride 2, SAME_UPPER) -> Clip(0,6) -> depthwise (multiplier 2) -> Clip ->
    pointwise -> residual Add with a 1x1 projection -> constant [C,1,1] bias Add ->
    GlobalAveragePool -> Flatten -> Gemm."""
    x = randn(1, 3, 7, 7)
    w0, b0 = randn(4, 3, 3, 3), randn(4)
    wd, bd = randn(8, 1, 3, 3), randn(8)
    wp, bp = randn(4, 8, 1, 1), randn(4)
    cbias = randn(4, 1, 1)
    wf, bf = randn(5, 4), randn(5)
    six = np.array(6.0, np.float32)
    zero = np.array(0.0, np.float32)
    nodes = [
        h.make_node("Conv", ["x", "w0", "b0"], ["c0"], name="stem", strides=[2, 2],
                    auto_pad="SAME_UPPER", kernel_shape=[3, 3]),
        h.make_node("Constant", [], ["lo"], value=init("lo_v", zero)),
        h.make_node("Constant", [], ["hi"], value=init("hi_v", six)),
        h.make_node("Clip", ["c0", "lo", "hi"], ["r0"], name="relu6_0"),
        h.make_node("Conv", ["r0", "wd", "bd"], ["c1"], name="dw", group=4, pads=[1, 1, 1, 1]),
        h.make_node("Clip", ["c1", "lo", "hi"], ["r1"], name="relu6_1"),
        h.make_node("Conv", ["r1", "wp", "bp"], ["c2"], name="pw"),
        h.make_node("Add", ["c2", "r0"], ["a0"], name="residual"),
        h.make_node("Add", ["a0", "cbias"], ["a1"], name="channel_bias"),
        h.make_node("GlobalAveragePool", ["a1"], ["g"], name="gap"),
        h.make_node("Flatten", ["g"], ["f"], name="flatten"),
        h.make_node("Gemm", ["f", "wf", "bf"], ["y"], name="fc", transB=1),
    ]
    save("mini_mobilenet", nodes, [vi("x", [1, 3, 7, 7])], [vi("y", [1, 5])],
         [init("w0", w0), init("b0", b0), init("wd", wd), init("bd", bd), init("wp", wp),
          init("bp", bp), init("cbias", cbias), init("wf", wf), init("bf", bf)])
    # SAME_UPPER, stride 2, 7 -> 4: total pad 2 -> [1, 1].
    r0 = np.clip(conv(x, w0, b0, strides=(2, 2), pads=(1, 1, 1, 1)), 0, 6)
    r1 = np.clip(conv(r0, wd, bd, pads=(1, 1, 1, 1), group=4), 0, 6)
    a1 = conv(r1, wp, bp) + r0 + cbias[None]
    g = a1.mean(axis=(2, 3))
    save_arrays("mini_mobilenet", in0=x, out0=g @ wf.T.astype(np.float64) + bf)


def make_lenet_like():
    """Conv -> MaxPool(ceil_mode) -> AveragePool(pads, count_include_pad) -> Flatten of a
    [1,C,H,W>1] tensor -> Gemm: the flatten needs logical (NCHW) element order."""
    x = randn(1, 1, 9, 9)
    w, b = randn(3, 1, 3, 3), randn(3)
    wf, bf = randn(4, 12), randn(4)
    nodes = [
        h.make_node("Conv", ["x", "w", "b"], ["c"], name="conv"),
        h.make_node("Relu", ["c"], ["r"], name="relu"),
        h.make_node("MaxPool", ["r"], ["p"], name="maxpool", kernel_shape=[2, 2], strides=[2, 2],
                    ceil_mode=1),
        h.make_node("AveragePool", ["p"], ["q"], name="avgpool", kernel_shape=[3, 3],
                    strides=[2, 2], pads=[1, 1, 1, 1], count_include_pad=1),
        h.make_node("Flatten", ["q"], ["f"], name="flatten"),
        h.make_node("Gemm", ["f", "wf", "bf"], ["y"], name="fc", transB=1),
    ]
    save("lenet_like", nodes, [vi("x", [1, 1, 9, 9])], [vi("y", [1, 4])],
         [init("w", w), init("b", b), init("wf", wf), init("bf", bf)])
    r = relu(conv(x, w, b))                                      # [1,3,7,7]
    p = pool(r, "max", (2, 2), (2, 2), ceil_mode=1)              # [1,3,4,4]
    q = pool(p, "avg", (3, 3), (2, 2), (1, 1, 1, 1), count_include_pad=1)  # [1,3,2,2]
    save_arrays("lenet_like", in0=x, out0=q.reshape(1, -1) @ wf.T.astype(np.float64) + bf)


def make_softmax(opset):
    """Softmax axis=1 on [2,3,4]: opset 11 flattens to [2,12], opset 13 is per axis."""
    x = randn(2, 3, 4)
    name = f"softmax_axis1_opset{opset}"
    save(name, [h.make_node("Softmax", ["x"], ["y"], name="softmax", axis=1)],
         [vi("x", [2, 3, 4])], [vi("y", [2, 3, 4])], opset=opset)
    if opset < 13:
        y = softmax(x.reshape(2, 12).astype(np.float64), 1).reshape(2, 3, 4)
    else:
        y = softmax(x.astype(np.float64), 1)
    save_arrays(name, in0=x, out0=y)


def make_softmax_nchw_channels():
    """Conv then Softmax over the channel axis (opset 13): in NHWC the channel axis is
    last, so no transpose is needed; then a Transpose to NHWC in the model, which must
    cancel against the layout."""
    x = randn(1, 2, 3, 3)
    w = randn(4, 2, 1, 1)
    nodes = [
        h.make_node("Conv", ["x", "w"], ["c"], name="conv"),
        h.make_node("Softmax", ["c"], ["s"], name="softmax", axis=1),
        h.make_node("Transpose", ["s"], ["y"], name="to_nhwc", perm=[0, 2, 3, 1]),
    ]
    save("softmax_channels", nodes, [vi("x", [1, 2, 3, 3])], [vi("y", [1, 3, 3, 4])],
         [init("w", w)])
    y = softmax(conv(x, w), 1).transpose(0, 2, 3, 1)
    save_arrays("softmax_channels", in0=x, out0=y)


def make_shape_subgraph():
    """x.view(x.size(0), -1) as PyTorch exports it: Shape -> Gather -> Unsqueeze -> Concat
    -> Reshape. ONNX 1.12's shape inference cannot see through it; import must."""
    x = randn(2, 3, 4)
    wm = randn(12, 5)
    nodes = [
        h.make_node("Shape", ["x"], ["s"], name="shape"),
        h.make_node("Constant", [], ["zero"], value=init("zero_v", np.array(0, np.int64))),
        h.make_node("Gather", ["s", "zero"], ["n"], name="gather", axis=0),
        h.make_node("Unsqueeze", ["n", "axes0"], ["n1"], name="unsqueeze"),
        h.make_node("Constant", [], ["minus1"], value=init("m1_v", np.array([-1], np.int64))),
        h.make_node("Concat", ["n1", "minus1"], ["shape2"], name="concat", axis=0),
        h.make_node("Reshape", ["x", "shape2"], ["flat"], name="reshape"),
        h.make_node("MatMul", ["flat", "wm"], ["y"], name="matmul"),
    ]
    save("shape_subgraph", nodes, [vi("x", [2, 3, 4])], [vi("y", [2, 5])],
         [init("axes0", np.array([0], np.int64)), init("wm", wm)])
    save_arrays("shape_subgraph", in0=x, out0=x.reshape(2, 12).astype(np.float64) @ wm)


def make_fold_static():
    """Shape ops whose outputs ONNX does infer (so import keeps them and
    fold_constants_source must fold them): y = x + Cast(Shape(x)) * 0.5 - Unsqueeze(c)."""
    x = randn(2, 2)
    nodes = [
        h.make_node("Shape", ["x"], ["s"], name="shape"),
        h.make_node("Cast", ["s"], ["sf"], name="cast", to=T.FLOAT),
        h.make_node("Mul", ["sf", "half"], ["sh"], name="half_shape"),
        h.make_node("Add", ["x", "sh"], ["a"], name="add"),
        h.make_node("Unsqueeze", ["c"], ["cu"], name="unsqueeze", axes=[0]),
        h.make_node("Identity", ["cu"], ["ci"], name="identity"),
        h.make_node("Sub", ["a", "ci"], ["y"], name="sub"),
    ]
    save("fold_static", nodes, [vi("x", [2, 2])], [vi("y", [2, 2])],
         [init("half", np.array(0.5, np.float32)), init("c", np.array([1.0, 2.0], np.float32))],
         opset=11)
    save_arrays("fold_static", in0=x, out0=x + np.array([1.0, 1.0]) - np.array([[1.0, 2.0]]))


def make_misc_ops():
    """Concat on channels of two NHWC branches, Pad(reflect), ReduceMean(keepdims=0),
    Squeeze/Unsqueeze (opset 13 inputs), Sigmoid, Tanh, Div, Sub, Clip without max."""
    x = randn(1, 2, 4, 4)
    w1, w2 = randn(3, 2, 1, 1), randn(1, 2, 3, 3)
    nodes = [
        h.make_node("Conv", ["x", "w1"], ["a"], name="branch_a"),
        h.make_node("Conv", ["x", "w2"], ["b"], name="branch_b", pads=[1, 1, 1, 1]),
        h.make_node("Concat", ["a", "b"], ["cat"], name="concat", axis=1),
        h.make_node("Pad", ["cat", "pads"], ["padded"], name="pad", mode="reflect"),
        h.make_node("Sigmoid", ["padded"], ["sg"], name="sigmoid"),
        h.make_node("Tanh", ["padded"], ["th"], name="tanh"),
        h.make_node("Div", ["sg", "two"], ["d"], name="div"),
        h.make_node("Sub", ["d", "th"], ["e"], name="sub"),
        h.make_node("Clip", ["e", "lo"], ["cl"], name="clip_min_only"),
        h.make_node("ReduceMean", ["cl"], ["m"], name="mean", axes=[2, -1], keepdims=0),
        h.make_node("Unsqueeze", ["m", "axes_u"], ["mu"], name="unsqueeze"),
        h.make_node("Squeeze", ["mu", "axes_u"], ["y"], name="squeeze"),
    ]
    save("misc_ops", nodes, [vi("x", [1, 2, 4, 4])], [vi("y", [1, 4])],
         [init("w1", w1), init("w2", w2), init("pads", np.array([0, 0, 1, 2, 0, 0, 2, 1], np.int64)),
          init("two", np.array([2.0], np.float32)), init("lo", np.array(-0.25, np.float32)),
          init("axes_u", np.array([1], np.int64))])
    cat = np.concatenate([conv(x, w1), conv(x, w2, pads=(1, 1, 1, 1))], axis=1)
    padded = np.pad(cat, ((0, 0), (0, 0), (1, 2), (2, 1)), mode="reflect")
    e = sigmoid(padded) / 2 - np.tanh(padded)
    save_arrays("misc_ops", in0=x, out0=np.maximum(e, -0.25).mean(axis=(2, 3)))


def make_se_block():
    """Squeeze-and-excitation: GlobalAveragePool -> 1x1 convs -> Sigmoid -> Mul with the
    feature map; the output is 4-D, so it leaves NHWC through a final transpose."""
    x = randn(1, 4, 3, 3)
    w1, b1 = randn(2, 4, 1, 1), randn(2)
    w2, b2 = randn(4, 2, 1, 1), randn(4)
    nodes = [
        h.make_node("Relu", ["x"], ["r"], name="relu_in"),
        h.make_node("GlobalAveragePool", ["r"], ["g"], name="gap"),
        h.make_node("Conv", ["g", "w1", "b1"], ["s1"], name="squeeze"),
        h.make_node("Relu", ["s1"], ["s2"], name="relu"),
        h.make_node("Conv", ["s2", "w2", "b2"], ["s3"], name="excite"),
        h.make_node("Sigmoid", ["s3"], ["s4"], name="gate"),
        h.make_node("MaxPool", ["r"], ["p"], name="pool", kernel_shape=[1, 1]),
        h.make_node("Mul", ["p", "s4"], ["y"], name="scale"),
    ]
    save("se_block", nodes, [vi("x", [1, 4, 3, 3])], [vi("y", [1, 4, 3, 3])],
         [init("w1", w1), init("b1", b1), init("w2", w2), init("b2", b2)])
    r = relu(x.astype(np.float64))
    g = r.mean(axis=(2, 3), keepdims=True)
    s = sigmoid(conv(relu(conv(g, w1, b1)), w2, b2))
    save_arrays("se_block", in0=x, out0=r * s)


def make_gemm_variants():
    """Gemm with transA, alpha, beta and a full [M,N] C; MatMul of two variable inputs
    (batch_matmul); MatMul with a 1-D constant right side."""
    a, bm, c = randn(3, 2), randn(3, 4), randn(2, 4)
    p, q = randn(2, 2, 3), randn(2, 3, 2)
    v = randn(2)
    nodes = [
        h.make_node("Gemm", ["a", "bm", "c"], ["g"], name="gemm", transA=1, alpha=0.5, beta=2.0),
        h.make_node("MatMul", ["p", "q"], ["bmm"], name="bmm"),
        h.make_node("MatMul", ["bmm", "v"], ["y2"], name="matvec"),
    ]
    save("gemm_variants", nodes, [vi("a", [3, 2]), vi("p", [2, 2, 3]), vi("q", [2, 3, 2])],
         [vi("g", [2, 4]), vi("y2", [2, 2])], [init("bm", bm), init("c", c), init("v", v)])
    a64, p64 = a.astype(np.float64), p.astype(np.float64)
    save_arrays("gemm_variants", in0=a, in1=p, in2=q,
                out0=0.5 * a64.T @ bm + 2.0 * c, out1=(p64 @ q) @ v)


def make_conv1d():
    """1-D Conv (dilation 2) -> MaxPool 1-D -> GlobalAveragePool over L."""
    x = randn(1, 2, 10)
    w, b = randn(3, 2, 3), randn(3)
    nodes = [
        h.make_node("Conv", ["x", "w", "b"], ["c"], name="conv1d", dilations=[2], pads=[1, 1]),
        h.make_node("MaxPool", ["c"], ["p"], name="pool1d", kernel_shape=[2], strides=[2]),
        h.make_node("GlobalAveragePool", ["p"], ["y"], name="gap"),
    ]
    save("conv1d", nodes, [vi("x", [1, 2, 10])], [vi("y", [1, 3, 1])], [init("w", w), init("b", b)])
    c = conv(x[:, :, None, :], w[:, :, None, :], b, pads=(0, 1, 0, 1), dilations=(1, 2))
    p = pool(c, "max", (1, 2), (1, 2))
    save_arrays("conv1d", in0=x, out0=p.mean(axis=(2, 3))[:, :, None])


def make_nhwc_model():
    """A model that takes and returns NHWC and transposes around a Conv itself: the
    model's transposes cancel against the layout's, leaving a single conv2d."""
    x = randn(1, 4, 4, 2)
    w, b = randn(3, 2, 3, 3), randn(3)
    nodes = [
        h.make_node("Transpose", ["x"], ["t"], name="to_nchw", perm=[0, 3, 1, 2]),
        h.make_node("Conv", ["t", "w", "b"], ["c"], name="conv", pads=[1, 1, 1, 1]),
        h.make_node("Transpose", ["c"], ["y"], name="to_nhwc", perm=[0, 2, 3, 1]),
    ]
    save("nhwc_model", nodes, [vi("x", [1, 4, 4, 2])], [vi("y", [1, 4, 4, 3])],
         [init("w", w), init("b", b)])
    y = conv(x.transpose(0, 3, 1, 2), w, b, pads=(1, 1, 1, 1)).transpose(0, 2, 3, 1)
    save_arrays("nhwc_model", in0=x, out0=y)


def make_opset11_ops():
    """Opset 11 forms: Dropout with a ratio attribute, Squeeze/Unsqueeze axes attributes,
    Pad with a constant_value input, ReduceMean, Clip bounds from Constant nodes, and an
    Identity that writes the graph output."""
    x = randn(1, 3, 2, 2)
    nodes = [
        h.make_node("Dropout", ["x"], ["d"], name="dropout", ratio=0.3),
        h.make_node("Identity", ["d"], ["i"], name="identity_in"),
        h.make_node("Pad", ["i", "pads", "pad_value"], ["p"], name="pad"),
        h.make_node("ReduceMean", ["p"], ["m"], name="mean", axes=[1], keepdims=1),
        h.make_node("Squeeze", ["m"], ["s"], name="squeeze", axes=[1]),
        h.make_node("Unsqueeze", ["s"], ["u"], name="unsqueeze", axes=[0]),
        h.make_node("Constant", [], ["lo"], value=init("lo_v", np.array(-0.1, np.float32))),
        h.make_node("Constant", [], ["hi"], value=init("hi_v", np.array(0.2, np.float32))),
        h.make_node("Clip", ["u", "lo", "hi"], ["c"], name="clip"),
        h.make_node("Identity", ["c"], ["y"], name="identity_out"),
    ]
    save("opset11_ops", nodes, [vi("x", [1, 3, 2, 2])], [vi("y", [1, 1, 4, 2])],
         [init("pads", np.array([0, 0, 1, 0, 0, 0, 1, 0], np.int64)),
          init("pad_value", np.array(0.5, np.float32))], opset=11)
    p = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (1, 1), (0, 0)), constant_values=0.5)
    y = np.clip(p.mean(axis=1, keepdims=True), -0.1, 0.2)
    save_arrays("opset11_ops", in0=x, out0=y)


def make_auto_pad_same():
    """auto_pad SAME_UPPER vs SAME_LOWER where the total padding is odd (6 -> 3 with
    kernel 3, stride 2: one row/column of padding, at the end vs at the beginning)."""
    x = randn(1, 1, 6, 6)
    wu, wl = randn(1, 1, 3, 3), randn(1, 1, 3, 3)
    nodes = [
        h.make_node("Conv", ["x", "wu"], ["u"], name="same_upper", strides=[2, 2], auto_pad="SAME_UPPER"),
        h.make_node("Conv", ["x", "wl"], ["l"], name="same_lower", strides=[2, 2], auto_pad="SAME_LOWER"),
        h.make_node("MaxPool", ["x"], ["m"], name="pool_valid", kernel_shape=[2, 2], strides=[2, 2],
                    auto_pad="VALID"),
        h.make_node("Add", ["u", "l"], ["s"], name="add"),
        h.make_node("Add", ["s", "m"], ["y"], name="add_pool"),
    ]
    save("auto_pad_same", nodes, [vi("x", [1, 1, 6, 6])], [vi("y", [1, 1, 3, 3])],
         [init("wu", wu), init("wl", wl)])
    y = (conv(x, wu, strides=(2, 2), pads=(0, 0, 1, 1)) + conv(x, wl, strides=(2, 2), pads=(1, 1, 0, 0))
         + pool(x, "max", (2, 2), (2, 2)))
    save_arrays("auto_pad_same", in0=x, out0=y)


def make_gemm_bias():
    """Gemm without transB, alpha 2, beta 0.5, C of shape [N]: alpha folds into the
    fully_connected weights and beta * C becomes its bias."""
    x, bm, c = randn(2, 3), randn(3, 4), randn(4)
    save("gemm_bias", [h.make_node("Gemm", ["x", "bm", "c"], ["y"], name="gemm", alpha=2.0, beta=0.5)],
         [vi("x", [2, 3])], [vi("y", [2, 4])], [init("bm", bm), init("c", c)])
    save_arrays("gemm_bias", in0=x, out0=2.0 * x.astype(np.float64) @ bm + 0.5 * c,
                weights=2.0 * bm.T.astype(np.float64), bias=0.5 * c.astype(np.float64))


def make_activations():
    """Opset 14 activations that decompose into mul/add/clamp: HardSwish, LeakyRelu,
    PRelu (per-channel slope [C,1,1]) and HardSigmoid; plus an explicit zero Pad before a
    Conv, which the Conv absorbs."""
    x = randn(1, 3, 4, 4)
    w, w2 = randn(3, 3, 1, 1), randn(2, 3, 3, 3)
    slope = randn(3, 1, 1)
    nodes = [
        h.make_node("Conv", ["x", "w"], ["c"], name="conv"),
        h.make_node("HardSwish", ["c"], ["hs"], name="hardswish"),
        h.make_node("LeakyRelu", ["hs"], ["lr"], name="leaky", alpha=0.1),
        h.make_node("PRelu", ["lr", "slope"], ["pr"], name="prelu"),
        h.make_node("HardSigmoid", ["pr"], ["hg"], name="hardsigmoid", alpha=0.3, beta=0.4),
        h.make_node("Pad", ["hg", "pads"], ["pd"], name="pad"),
        h.make_node("Conv", ["pd", "w2"], ["y"], name="conv_after_pad"),
    ]
    save("activations", nodes, [vi("x", [1, 3, 4, 4])], [vi("y", [1, 2, 5, 4])],
         [init("w", w), init("w2", w2), init("slope", slope),
          init("pads", np.array([0, 0, 2, 1, 0, 0, 1, 1], np.int64))], opset=14)
    c = conv(x, w)
    hs = c * np.clip(c / 6 + 0.5, 0, 1)
    lr = np.where(hs > 0, hs, 0.1 * hs)
    pr = np.where(lr > 0, lr, slope[None].astype(np.float64) * lr)
    hg = np.clip(0.3 * pr + 0.4, 0, 1)
    save_arrays("activations", in0=x, out0=conv(hg, w2, pads=(2, 1, 1, 1)))


# ---- elementwise math, activations, reductions (issue 18) ------------------------------

def erf(x):
    from math import erf as erf1
    return np.vectorize(erf1)(np.asarray(x, np.float64))


def softplus(x):
    x = np.asarray(x, np.float64)
    return np.where(x > 0, x + np.log1p(np.exp(-np.abs(x))), np.log1p(np.exp(np.minimum(x, 0))))


def elu(x, alpha=1.0):
    return np.where(x > 0, x, alpha * np.expm1(np.minimum(x, 0)))


def make_eltwise_math():
    """Erf, Abs, Sqrt, Log, Exp, Neg, Reciprocal, Softplus and Pow (every special exponent,
    an int64 constant exponent, a broadcast tensor exponent) after a Conv (channels-last)."""
    x = randn(1, 3, 4, 4)
    w = randn(4, 3, 1, 1)
    half = lambda v: np.array(v, np.float32)
    nodes = [
        h.make_node("Conv", ["x", "w"], ["c"], name="conv"),
        h.make_node("Erf", ["c"], ["y0"], name="erf"),
        h.make_node("Abs", ["c"], ["a"], name="abs"),
        h.make_node("Sqrt", ["a"], ["y1"], name="sqrt"),
        h.make_node("Add", ["a", "one"], ["a1"], name="a_plus_1"),
        h.make_node("Log", ["a1"], ["y2"], name="log"),
        h.make_node("Neg", ["c"], ["nc"], name="neg"),
        h.make_node("Exp", ["nc"], ["y3"], name="exp"),
        h.make_node("Reciprocal", ["a1"], ["y4"], name="reciprocal"),
        h.make_node("Mul", ["c", "eight"], ["c8"], name="times8"),
        h.make_node("Softplus", ["c8"], ["y5"], name="softplus"),
        h.make_node("Pow", ["c", "p1"], ["q1"], name="pow1"),
        h.make_node("Pow", ["c", "p2"], ["q2"], name="pow2"),
        h.make_node("Pow", ["c", "p3"], ["q3"], name="pow3"),
        h.make_node("Pow", ["a1", "ph"], ["qh"], name="pow_half"),
        h.make_node("Pow", ["a1", "pmh"], ["qmh"], name="pow_minus_half"),
        h.make_node("Pow", ["a1", "pm1"], ["qm1"], name="pow_minus1"),
        h.make_node("Pow", ["c", "p4"], ["q4"], name="pow4_int"),
        h.make_node("Add", ["q1", "q2"], ["s0"], name="s0"),
        h.make_node("Add", ["s0", "q3"], ["s1"], name="s1"),
        h.make_node("Add", ["s1", "qh"], ["s2"], name="s2"),
        h.make_node("Add", ["s2", "qmh"], ["s3"], name="s3"),
        h.make_node("Add", ["s3", "qm1"], ["s4"], name="s4"),
        h.make_node("Add", ["s4", "q4"], ["y6"], name="s5"),
        h.make_node("Pow", ["a1", "c"], ["y7"], name="pow_tensor"),
        h.make_node("Pow", ["a1", "pc"], ["y8"], name="pow_channels"),
    ]
    pc = np.array([0.5, 1.5, -2.0, 3.0], np.float32).reshape(4, 1, 1)
    outs = ["y%d" % i for i in range(9)]
    save("eltwise_math", nodes, [vi("x", [1, 3, 4, 4])], [vi(o, [1, 4, 4, 4]) for o in outs],
         [init("w", w), init("one", half(1.0)), init("eight", half(8.0)), init("p1", half(1.0)),
          init("p2", half(2.0)), init("p3", half([3.0])), init("ph", half(0.5)), init("pmh", half(-0.5)),
          init("pm1", half(-1.0)), init("p4", np.array(4, np.int64)), init("pc", pc)], opset=13)
    c = conv(x, w)
    a1 = np.abs(c) + 1
    y6 = c + c ** 2 + c ** 3 + np.sqrt(a1) + 1 / np.sqrt(a1) + 1 / a1 + c ** 4
    save_arrays("eltwise_math", in0=x, out0=erf(c), out1=np.sqrt(np.abs(c)), out2=np.log(a1), out3=np.exp(-c),
                out4=1 / a1, out5=softplus(c * 8), out6=y6, out7=a1 ** c, out8=a1 ** pc.astype(np.float64)[None])


def make_eltwise_activations():
    """Elu (alpha 1 and 0.5), Selu (default and given alpha/gamma), Max of three inputs
    (one a broadcast constant), Min of two, Max of one (a copy); on 2-D and 4-D data."""
    x = randn(1, 3, 4, 4) * 2
    bias = np.array([0.5, -0.5, 0.0], np.float32).reshape(3, 1, 1)
    nodes = [
        h.make_node("Elu", ["x"], ["y0"], name="elu1"),
        h.make_node("Elu", ["x"], ["y1"], name="elu_half", alpha=0.5),
        h.make_node("Selu", ["x"], ["y2"], name="selu"),
        h.make_node("Selu", ["x"], ["y3"], name="selu_custom", alpha=2.0, gamma=0.5),
        h.make_node("Neg", ["x"], ["nx"], name="neg"),
        h.make_node("Max", ["x", "nx", "bias"], ["y4"], name="max3"),
        h.make_node("Min", ["x", "bias"], ["y5"], name="min2"),
        h.make_node("Max", ["x"], ["y6"], name="max1"),
    ]
    outs = ["y%d" % i for i in range(7)]
    save("eltwise_activations", nodes, [vi("x", [1, 3, 4, 4])], [vi(o, [1, 3, 4, 4]) for o in outs],
         [init("bias", bias)], opset=13)
    xd = x.astype(np.float64)
    b = bias.astype(np.float64)[None]
    sa, sg = 1.67326319217681884765625, 1.05070102214813232421875
    save_arrays("eltwise_activations", in0=x, out0=elu(xd), out1=elu(xd, 0.5), out2=sg * elu(xd, sa),
                out3=0.5 * elu(xd, 2.0), out4=np.maximum(np.maximum(xd, -xd), b), out5=np.minimum(xd, b), out6=xd)


def make_celu():
    """Celu (opset 12+) with the default alpha (1: one elu) and 0.5 on 4-D data after a Conv
    (channels-last), alpha 2.5 on the model's input; the alpha-0 refusal."""
    x = randn(1, 3, 4, 4) * 2
    w = randn(4, 3, 1, 1)
    nodes = [
        h.make_node("Conv", ["x", "w"], ["c"], name="conv"),
        h.make_node("Celu", ["c"], ["y0"], name="celu1"),
        h.make_node("Celu", ["c"], ["y1"], name="celu_half", alpha=0.5),
        h.make_node("Celu", ["x"], ["y2"], name="celu_input", alpha=2.5),
    ]
    save("celu", nodes, [vi("x", [1, 3, 4, 4])],
         [vi("y0", [1, 4, 4, 4]), vi("y1", [1, 4, 4, 4]), vi("y2", [1, 3, 4, 4])], [init("w", w)], opset=13)
    c = conv(x, w)

    def celu(t, alpha):
        return np.maximum(0, t) + np.minimum(0, alpha * np.expm1(t / alpha))
    save_arrays("celu", in0=x, out0=celu(c, 1.0), out1=celu(c, 0.5), out2=celu(x.astype(np.float64), 2.5))
    save("celu_alpha0", [h.make_node("Celu", ["x"], ["y"], name="celu", alpha=0.0)], [vi("x", [1, 4])],
         [vi("y", [1, 4])], opset=13)


def make_where_tile_computed():
    """Equal, Where and Tile on computed tensors: a Conv's channels-last output c, its ReLU
    r; y0 = Where(Equal(r, 0), bias [4,1,1] broadcast, c), y1 = Tile(c, [1, 1, 2, 3]),
    y2 = Where(Equal(x, x), x, 0) on the channels-first input; the refusal of computed
    repeats."""
    x = randn(1, 3, 4, 5)
    w = randn(4, 3, 1, 1)
    bias = np.array([1.5, -2.0, 0.25, 4.0], np.float32).reshape(4, 1, 1)
    nodes = [
        h.make_node("Conv", ["x", "w"], ["c"], name="conv"),
        h.make_node("Relu", ["c"], ["r"], name="relu"),
        h.make_node("Equal", ["r", "zero"], ["dead"], name="equal"),
        h.make_node("Where", ["dead", "bias", "c"], ["y0"], name="where"),
        h.make_node("Tile", ["c", "reps"], ["y1"], name="tile"),
        h.make_node("Equal", ["x", "x"], ["same"], name="equal_self"),
        h.make_node("Where", ["same", "x", "zero"], ["y2"], name="where_input"),
    ]
    save("where_tile_computed", nodes, [vi("x", [1, 3, 4, 5])],
         [vi("y0", [1, 4, 4, 5]), vi("y1", [1, 4, 8, 15]), vi("y2", [1, 3, 4, 5])],
         [init("w", w), init("zero", np.array(0.0, np.float32)), init("bias", bias),
          init("reps", np.array([1, 1, 2, 3], np.int64))], opset=13)
    c = conv(x, w).astype(np.float32)
    save_arrays("where_tile_computed", in0=x, out0=np.where(np.maximum(c, 0) == 0, bias[None], c),
                out1=np.tile(c, (1, 1, 2, 3)), out2=x)
    save("tile_computed_repeats", [h.make_node("Tile", ["x", "reps"], ["y"], name="tile")],
         [vi("x", [1, 4]), vi("reps", [2], T.INT64)], [vi("y", [2, 8])], opset=13)


def make_cast_computed():
    """Cast of computed data: ArgMax's int64 index to int32 then float32 (y0) and straight to
    float32 (y1), a bool comparison to float32 (y2); the index cast to int32 and back to int64
    as the graph output."""
    x = randn(1, 5, 3)
    nodes = [
        h.make_node("ArgMax", ["x"], ["i"], name="argmax", axis=1, keepdims=0),
        h.make_node("Cast", ["i"], ["i32"], name="to_int32", to=T.INT32),
        h.make_node("Cast", ["i32"], ["y0"], name="int32_to_float", to=T.FLOAT),
        h.make_node("Cast", ["i"], ["y1"], name="int64_to_float", to=T.FLOAT),
        h.make_node("Equal", ["x", "x"], ["b"], name="equal"),
        h.make_node("Cast", ["b"], ["y2"], name="bool_to_float", to=T.FLOAT),
    ]
    save("cast_computed", nodes, [vi("x", [1, 5, 3])], [vi("y0", [1, 3]), vi("y1", [1, 3]), vi("y2", [1, 5, 3])],
         opset=13)
    index = np.argmax(x, axis=1).astype(np.float32)
    save_arrays("cast_computed", in0=x, out0=index, out1=index, out2=np.ones_like(x))
    save("cast_to_int64_computed", [h.make_node("ArgMax", ["x"], ["i"], name="argmax", axis=1, keepdims=0),
                                    h.make_node("Cast", ["i"], ["i32"], name="to_int32", to=T.INT32),
                                    h.make_node("Cast", ["i32"], ["y"], name="to_int64", to=T.INT64)],
         [vi("x", [1, 5, 3])], [vi("y", [1, 3], T.INT64)], opset=13)
    save_arrays("cast_to_int64_computed", in0=x, out0=index)


def make_layer_norm_computed_params():
    """LayerNormalization (opset 17) whose scale and bias are computed: axis -1 with scale
    m = ReduceMean(x, [0, 1]) [4] and bias -m; axis 1 with a constant scale [3, 4] and
    the computed bias ReduceMean(x, [0]) [3, 4]."""
    x = randn(2, 3, 4)
    scale = randn(3, 4)
    nodes = [
        h.make_node("ReduceMean", ["x"], ["m"], name="mean01", axes=[0, 1], keepdims=0),
        h.make_node("Mul", ["m", "minus_one"], ["nm"], name="negate"),
        h.make_node("LayerNormalization", ["x", "m", "nm"], ["y0"], name="ln_last", axis=-1),
        h.make_node("ReduceMean", ["x"], ["b"], name="mean0", axes=[0], keepdims=0),
        h.make_node("LayerNormalization", ["x", "scale", "b"], ["y1"], name="ln_axis1", axis=1),
    ]
    save("layer_norm_computed_params", nodes, [vi("x", [2, 3, 4])], [vi("y0", [2, 3, 4]), vi("y1", [2, 3, 4])],
         [init("scale", scale), init("minus_one", np.array(-1.0, np.float32))], opset=17)
    xd = x.astype(np.float64)
    m = xd.mean(axis=(0, 1))
    save_arrays("layer_norm_computed_params", in0=x, out0=layer_norm(x, -1, m, -m),
                out1=layer_norm(x, 1, scale, xd.mean(axis=0)))


def make_comparisons_computed():
    """Less, LessOrEqual, Greater, GreaterOrEqual, Not, And, Or and Xor on computed tensors
    (a Conv's channels-last output c): outside = c > 0.5 or c < -0.5, inside = -1 <= c <= 1;
    y0 = Cast(Xor(Not(outside), inside)), y1 = Where(outside, c, 0), y2 = Cast(Not(inside))."""
    x = randn(1, 3, 4, 5)
    w = randn(4, 3, 1, 1)
    nodes = [
        h.make_node("Conv", ["x", "w"], ["c"], name="conv"),
        h.make_node("Greater", ["c", "half"], ["hi"], name="greater"),
        h.make_node("Less", ["c", "minus_half"], ["lo"], name="less"),
        h.make_node("Or", ["hi", "lo"], ["outside"], name="or"),
        h.make_node("Not", ["outside"], ["not_outside"], name="not"),
        h.make_node("GreaterOrEqual", ["c", "minus_one"], ["ge"], name="greater_equal"),
        h.make_node("LessOrEqual", ["c", "one"], ["le"], name="less_equal"),
        h.make_node("And", ["ge", "le"], ["inside"], name="and"),
        h.make_node("Xor", ["not_outside", "inside"], ["x0"], name="xor"),
        h.make_node("Cast", ["x0"], ["y0"], name="cast0", to=T.FLOAT),
        h.make_node("Where", ["outside", "c", "zero"], ["y1"], name="where"),
        h.make_node("Not", ["inside"], ["not_inside"], name="not_inside"),
        h.make_node("Cast", ["not_inside"], ["y2"], name="cast2", to=T.FLOAT),
    ]
    f = lambda v: np.array(v, np.float32)
    save("comparisons_computed", nodes, [vi("x", [1, 3, 4, 5])], [vi(y, [1, 4, 4, 5]) for y in ("y0", "y1", "y2")],
         [init("w", w), init("half", f(0.5)), init("minus_half", f(-0.5)), init("minus_one", f(-1.0)),
          init("one", f(1.0)), init("zero", f(0.0))], opset=13)
    c = conv(x, w).astype(np.float32)
    outside = (c > 0.5) | (c < -0.5)
    inside = (c >= -1) & (c <= 1)
    save_arrays("comparisons_computed", in0=x, out0=(~outside ^ inside).astype(np.float32),
                out1=np.where(outside, c, 0), out2=(~inside).astype(np.float32))


def make_reductions(opset):
    """ReduceMax, ReduceMin, ReduceSum over channels-last data (after a Conv): keepdims 0
    and 1, every axis (no axes), and at opset 13 ReduceSum's axes input and
    noop_with_empty_axes."""
    name = "reductions_opset%d" % opset
    x = randn(1, 3, 4, 5)
    w = randn(4, 3, 1, 1)
    axes_sum = {"axes": [1]} if opset < 13 else {}
    nodes = [
        h.make_node("Conv", ["x", "w"], ["c"], name="conv"),
        h.make_node("ReduceMax", ["c"], ["y0"], name="rmax", axes=[2, 3], keepdims=0),
        h.make_node("ReduceMin", ["c"], ["y1"], name="rmin", axes=[-1], keepdims=1),
        h.make_node("ReduceSum", ["c"] + (["axes1"] if opset >= 13 else []), ["y2"], name="rsum", keepdims=1,
                    **axes_sum),
        h.make_node("ReduceSum", ["c"], ["y3"], name="rsum_all", keepdims=0),
        h.make_node("ReduceMax", ["c"], ["y4"], name="rmax_all"),
    ]
    outs = [vi("y0", [1, 4]), vi("y1", [1, 4, 4, 1]), vi("y2", [1, 1, 4, 5]), vi("y3", []), vi("y4", [1, 1, 1, 1])]
    inits = [init("w", w)]
    c = conv(x, w)
    golden = dict(in0=x, out0=c.max(axis=(2, 3)), out1=c.min(axis=3, keepdims=True), out2=c.sum(axis=1, keepdims=True),
                  out3=c.sum(), out4=c.max(axis=(0, 1, 2, 3), keepdims=True))
    if opset >= 13:
        inits.append(init("axes1", np.array([1], np.int64)))
        nodes.append(h.make_node("ReduceSum", ["c"], ["y5"], name="rsum_noop", noop_with_empty_axes=1))
        outs.append(vi("y5", [1, 4, 4, 5]))
        golden["out5"] = c
    save(name, nodes, [vi("x", [1, 3, 4, 5])], outs, inits, opset=opset)
    save_arrays(name, **golden)


def make_arg_min_max():
    """ArgMax (axis 1, keepdims 0) and ArgMin (axis -1, keepdims 1, select_last_index 1)
    of data with ties; int64 outputs (goldens stored as float32)."""
    x = np.round(randn(2, 5, 3)).astype(np.float32)
    nodes = [
        h.make_node("ArgMax", ["x"], ["y0"], name="argmax", axis=1, keepdims=0),
        h.make_node("ArgMin", ["x"], ["y1"], name="argmin_last", axis=-1, keepdims=1, select_last_index=1),
        h.make_node("ArgMax", ["x"], ["y2"], name="argmax_first", axis=2, keepdims=0),
    ]
    save("arg_min_max", nodes, [vi("x", [2, 5, 3])],
         [vi("y0", [2, 3], T.INT64), vi("y1", [2, 5, 1], T.INT64), vi("y2", [2, 5], T.INT64)], opset=13)
    last_min = 2 - np.argmin(x[:, :, ::-1], axis=2)
    save_arrays("arg_min_max", in0=x, out0=np.argmax(x, axis=1), out1=last_min[:, :, None], out2=np.argmax(x, axis=2))


def make_log_softmax(opset):
    """LogSoftmax over axis 1 of a 4-D tensor: opset 11 coerces to 2-D, opset 13 is one axis."""
    name = "log_softmax_opset%d" % opset
    x = randn(1, 3, 2, 4)
    save(name, [h.make_node("LogSoftmax", ["x"], ["y"], name="log_softmax", axis=1)], [vi("x", [1, 3, 2, 4])],
         [vi("y", [1, 3, 2, 4])], opset=opset)
    xd = x.astype(np.float64)
    if opset < 13:
        flat = xd.reshape(1, -1)
        y = (flat - flat.max() - np.log(np.exp(flat - flat.max()).sum())).reshape(x.shape)
    else:
        m = xd.max(axis=1, keepdims=True)
        y = xd - m - np.log(np.exp(xd - m).sum(axis=1, keepdims=True))
    save_arrays(name, in0=x, out0=y)


def depth_to_space(x, b, mode):
    n, c, hh, ww = x.shape
    if mode == "DCR":
        t = x.reshape(n, b, b, c // (b * b), hh, ww).transpose(0, 3, 4, 1, 5, 2)
    else:
        t = x.reshape(n, c // (b * b), b, b, hh, ww).transpose(0, 1, 4, 2, 5, 3)
    return t.reshape(n, c // (b * b), hh * b, ww * b)


def space_to_depth(x, b):
    n, c, hh, ww = x.shape
    t = x.reshape(n, c, hh // b, b, ww // b, b).transpose(0, 3, 5, 1, 2, 4)
    return t.reshape(n, c * b * b, hh // b, ww // b)


def make_depth_space():
    """DepthToSpace DCR and CRD (blocksize 2) and SpaceToDepth (blocksize 2) on NCHW data."""
    x = randn(1, 8, 2, 3)
    nodes = [
        h.make_node("DepthToSpace", ["x"], ["y0"], name="d2s_dcr", blocksize=2),
        h.make_node("DepthToSpace", ["x"], ["y1"], name="d2s_crd", blocksize=2, mode="CRD"),
        h.make_node("SpaceToDepth", ["y1"], ["y2"], name="s2d", blocksize=2),
    ]
    save("depth_space", nodes, [vi("x", [1, 8, 2, 3])],
         [vi("y0", [1, 2, 4, 6]), vi("y1", [1, 2, 4, 6]), vi("y2", [1, 8, 2, 3])], opset=13)
    save_arrays("depth_space", in0=x, out0=depth_to_space(x, 2, "DCR"), out1=depth_to_space(x, 2, "CRD"),
                out2=space_to_depth(depth_to_space(x, 2, "CRD"), 2))


def make_gelu_patterns():
    """PyTorch's GELU exports on channels-last data: exact (Div/Erf/Add/Mul/Mul), exact
    with 0.5 multiplied into x first, the tanh approximation, and a near miss (Div by 1.5,
    not sqrt 2) that must stay unfused."""
    x = randn(1, 3, 4, 4) * 2
    w = randn(4, 3, 1, 1)
    f = lambda v: np.array(v, np.float32)
    nodes = [
        h.make_node("Conv", ["x", "w"], ["c"], name="conv"),
        # exact: ((Erf(c / sqrt2) + 1) * c) * 0.5
        h.make_node("Div", ["c", "sqrt2"], ["d0"], name="g0/div"),
        h.make_node("Erf", ["d0"], ["e0"], name="g0/erf"),
        h.make_node("Add", ["e0", "one"], ["a0"], name="g0/add"),
        h.make_node("Mul", ["c", "a0"], ["m0"], name="g0/mul"),
        h.make_node("Mul", ["m0", "half"], ["y0"], name="g0/mul_half"),
        # exact: (0.5 * c) * (1 + Erf(c / sqrt2))
        h.make_node("Div", ["c", "sqrt2"], ["d1"], name="g1/div"),
        h.make_node("Erf", ["d1"], ["e1"], name="g1/erf"),
        h.make_node("Add", ["one", "e1"], ["a1"], name="g1/add"),
        h.make_node("Mul", ["half", "c"], ["m1"], name="g1/mul_half"),
        h.make_node("Mul", ["m1", "a1"], ["y1"], name="g1/mul"),
        # tanh: c * (1 + Tanh(sqrt(2/pi) * (c + 0.044715 * c*c*c))) * 0.5
        h.make_node("Mul", ["c", "c"], ["s2"], name="g2/square"),
        h.make_node("Mul", ["s2", "c"], ["s3"], name="g2/cube"),
        h.make_node("Mul", ["s3", "kappa"], ["k3"], name="g2/kappa"),
        h.make_node("Add", ["c", "k3"], ["u"], name="g2/add_x"),
        h.make_node("Mul", ["u", "beta"], ["b"], name="g2/beta"),
        h.make_node("Tanh", ["b"], ["t"], name="g2/tanh"),
        h.make_node("Add", ["t", "one"], ["a2"], name="g2/add"),
        h.make_node("Mul", ["c", "a2"], ["m2"], name="g2/mul"),
        h.make_node("Mul", ["m2", "half"], ["y2"], name="g2/mul_half"),
        # near miss: c / 1.5
        h.make_node("Div", ["c", "three_halves"], ["d3"], name="n/div"),
        h.make_node("Erf", ["d3"], ["e3"], name="n/erf"),
        h.make_node("Add", ["e3", "one"], ["a3"], name="n/add"),
        h.make_node("Mul", ["c", "a3"], ["m3"], name="n/mul"),
        h.make_node("Mul", ["m3", "half"], ["y3"], name="n/mul_half"),
    ]
    outs = ["y%d" % i for i in range(4)]
    save("gelu_patterns", nodes, [vi("x", [1, 3, 4, 4])], [vi(o, [1, 4, 4, 4]) for o in outs],
         [init("w", w), init("sqrt2", f(1.4142135381698608)), init("one", f(1.0)), init("half", f(0.5)),
          init("kappa", f(0.044715)), init("beta", f(0.7978845834732056)), init("three_halves", f(1.5))], opset=13)
    c = conv(x, w)
    exact = 0.5 * c * (1 + erf(c / np.sqrt(2)))
    tanh = 0.5 * c * (1 + np.tanh(np.sqrt(2 / np.pi) * (c + 0.044715 * c ** 3)))
    save_arrays("gelu_patterns", in0=x, out0=exact, out1=exact, out2=tanh, out3=0.5 * c * (1 + erf(c / 1.5)))


def make_eltwise_error_models():
    x = [vi("x", [1, 4, 2, 2])]
    save("d2s_bad_mode", [h.make_node("DepthToSpace", ["x"], ["y"], name="d2s", blocksize=2, mode="XYZ")], x,
         [vi("y", [1, 1, 4, 4])], opset=13, check=False)
    save("pow_int_exponent", [h.make_node("Pow", ["x", "e"], ["y"], name="pow")],
         x + [vi("e", [1], T.INT64)], [vi("y", [1, 4, 2, 2])], opset=13)
    save("s2d_indivisible", [h.make_node("SpaceToDepth", ["x"], ["y"], name="s2d", blocksize=3)], x,
         [vi("y", [1, 36, 0, 0])], opset=13, check=False)
    save("d2s_block0", [h.make_node("DepthToSpace", ["x"], ["y"], name="d2s", blocksize=0)], x,
         [vi("y", [1, 4, 2, 2])], opset=13, check=False)
    save("abs_int32", [h.make_node("Abs", ["x"], ["y"], name="abs")], [vi("x", [4], T.INT32)],
         [vi("y", [4], T.INT32)], opset=13)
    save("reduce_sum_axes_input", [h.make_node("ReduceSum", ["x", "axes"], ["y"], name="rsum")],
         [vi("x", [1, 4]), vi("axes", [1], T.INT64)], [vi("y", [1, 1])], opset=13)


# ---- models for the error tests --------------------------------------------------------

def relu_graph(name, opset, dims=(1, 4)):
    save(name, [h.make_node("Relu", ["x"], ["y"], name="relu")], [vi("x", list(dims))],
         [vi("y", list(dims))], opset=opset)


def make_error_models():
    relu_graph("opset10", 10)
    relu_graph("opset18", 18)
    save("unsupported_op", [h.make_node("Hardmax", ["x"], ["y"], name="hardmax_0")],
         [vi("x", [1, 4])], [vi("y", [1, 4])])
    w = randn(2, 1, 3, 3)
    save("bad_auto_pad", [h.make_node("Conv", ["x", "w"], ["y"], name="Conv_3", auto_pad="FOO")],
         [vi("x", [1, 1, 4, 4])], [vi("y", [1, 2, 2, 2])], [init("w", w)])
    save("bad_storage_order",
         [h.make_node("MaxPool", ["x"], ["y"], name="pool", kernel_shape=[2, 2], storage_order=1)],
         [vi("x", [1, 1, 4, 4])], [vi("y", [1, 1, 3, 3])])
    save("bad_pad_mode",
         [h.make_node("Pad", ["x", "pads"], ["y"], name="pad", mode="wrap")],
         [vi("x", [1, 4])], [vi("y", [1, 6])],
         [init("pads", np.array([0, 1, 0, 1], np.int64))], check=False)
    save("cast_to_double", [h.make_node("Cast", ["x"], ["y"], name="cast", to=T.DOUBLE)],
         [vi("x", [1, 4])], [vi("y", [1, 4], T.DOUBLE)])
    save("bad_dropout_training",
         [h.make_node("Dropout", ["x", "ratio", "training"], ["y"], name="dropout")],
         [vi("x", [1, 4])], [vi("y", [1, 4])],
         [init("ratio", np.array(0.5, np.float32)), init("training", np.array(True))])
    # torchvision's attention dropout of p = 0.0 (swin_t): training mode, nothing dropped.
    save("dropout_training_ratio0",
         [h.make_node("Dropout", ["x", "ratio", "training"], ["d"], name="dropout"),
          h.make_node("Relu", ["d"], ["y"], name="relu")],
         [vi("x", [1, 4])], [vi("y", [1, 4])],
         [init("ratio", np.array(0.0, np.float32)), init("training", np.array(True))])
    # PyTorch keeps a ceil_mode window only if it starts inside input + begin padding;
    # ONNX 1.12's shape inference keeps it anyway: import refuses the disagreement.
    save("ceil_mode_mismatch",
         [h.make_node("MaxPool", ["x"], ["y"], name="pool", kernel_shape=[2, 2], strides=[2, 2],
                      pads=[1, 1, 1, 1], ceil_mode=1)],
         [vi("x", [1, 1, 5, 5])], [vi("y", [1, 1, 4, 4])])
    # An initializer whose data lives in a file next to the model.
    wt = numpy_helper.from_array(np.ones(4, np.float32), "w")
    wt.ClearField("raw_data")
    wt.data_location = T.EXTERNAL
    entry = wt.external_data.add()
    entry.key, entry.value = "location", "w.bin"
    save("external_data", [h.make_node("Add", ["x", "w"], ["y"], name="add")],
         [vi("x", [1, 4])], [vi("y", [1, 4])], [wt], check=False)
    # A Conv whose weights are a graph input (not constant): legalize refuses it.
    save("variable_weights", [h.make_node("Conv", ["x", "w"], ["y"], name="conv")],
         [vi("x", [1, 1, 3, 3]), vi("w", [2, 1, 1, 1])], [vi("y", [1, 2, 3, 3])])
    # The Reshape target is a graph input: no static shape can be known.
    save("dynamic_reshape", [h.make_node("Reshape", ["x", "s"], ["y"], name="reshape")],
         [vi("x", [2, 3]), vi("s", [2], T.INT64)], [vi("y", [None, None])])
    # MaxPool's Indices output is read: not supported (only the values output is).
    save("maxpool_indices",
         [h.make_node("MaxPool", ["x"], ["y", "idx"], name="pool", kernel_shape=[2, 2])],
         [vi("x", [1, 1, 3, 3])], [vi("y", [1, 1, 2, 2]), vi("idx", [1, 1, 2, 2], T.INT64)])
    # An op from another domain.
    graph = h.make_graph([h.make_node("FusedGemm", ["x", "x"], ["y"], name="fused", domain="com.microsoft")],
                         "custom_domain", [vi("x", [2, 2])], [vi("y", [2, 2])])
    model = h.make_model(graph, opset_imports=[h.make_opsetid("", 13), h.make_opsetid("com.microsoft", 1)])
    model.ir_version = 8
    with open(os.path.join(OUT, "custom_domain.onnx"), "wb") as f:
        f.write(model.SerializeToString())
    # Clip bounds computed from a graph input: legalize needs constants.
    save("clip_variable_bound", [h.make_node("Clip", ["x", "lo"], ["y"], name="clip")],
         [vi("x", [1, 4]), vi("lo", [])], [vi("y", [1, 4])])
    # Protobuf bytes cut short: a 65535-byte string field with 7 bytes of data.
    with open(os.path.join(OUT, "malformed.onnx"), "wb") as f:
        f.write(b"\x08\x07\x12\xff\xff\x03garbage")


def make_window_op_error_models():
    """Convolutions and pools whose ranks or window attributes disagree: libonnx 1.12's
    shape inference indexes out of bounds (or divides by zero) on these unless the importer
    checks first (issue 8; fuzz/crashes/onnx_conv_shape_inference_segv.onnx). No rng use,
    so the models above stay byte-identical."""
    w = np.ones((2, 1, 3, 3), np.float32)
    # The fuzzer's reproducer: a rank-2 input to a Conv with rank-4 weights.
    save("conv_rank_mismatch", [h.make_node("Conv", ["x", "w"], ["y"], name="Conv_3")],
         [vi("x", [1, 4])], [vi("y", [1, 2, 2, 2])], [init("w", w)])
    # The same, with the rank-2 input only known once inference has passed the Reshape.
    save("conv_rank_after_reshape",
         [h.make_node("Reshape", ["x", "s"], ["r"], name="flatten"),
          h.make_node("Conv", ["r", "w"], ["y"], name="conv")],
         [vi("x", [1, 1, 4, 4])], [vi("y", [1, 2, 2, 2])],
         [init("s", np.array([1, 16], np.int64)), init("w", w)])
    save("pool_zero_stride",
         [h.make_node("MaxPool", ["x"], ["y"], name="pool", kernel_shape=[2, 2], strides=[0, 1])],
         [vi("x", [1, 1, 4, 4])], [vi("y", [1, 2, 2, 2])])

# ---- ConvTranspose and Resize (issue 18) ------------------------------------------------
# Their own generator (seeded here), so the models above stay byte-identical.

def conv_transpose_ref(x, w, b, strides, pads, dilations, group, output_padding):
    """ONNX ConvTranspose, N-D, as the spec scatters: input position i with tap k lands on
    output i * stride + k * dilation - pads_begin; the output size is
    stride * (in - 1) + output_padding + (kernel - 1) * dilation + 1 - pads_begin - pads_end."""
    x = x.astype(np.float64)
    w = w.astype(np.float64)
    n, c = x.shape[:2]
    spatial = x.ndim - 2
    og = w.shape[1]
    cg = c // group
    kernel = w.shape[2:]
    out_size = [strides[i] * (x.shape[2 + i] - 1) + output_padding[i] + (kernel[i] - 1) * dilations[i] + 1
                - pads[i] - pads[i + spatial] for i in range(spatial)]
    out = np.zeros([n, og * group] + out_size)
    for ci in range(c):
        g = ci // cg
        for pos in np.ndindex(*x.shape[2:]):
            for tap in np.ndindex(*kernel):
                o = [pos[i] * strides[i] + tap[i] * dilations[i] - pads[i] for i in range(spatial)]
                if any(o[i] < 0 or o[i] >= out_size[i] for i in range(spatial)):
                    continue
                out[(slice(None), slice(g * og, (g + 1) * og)) + tuple(o)] += (
                    x[(slice(None), ci) + pos][:, None] * w[(ci, slice(None)) + tap][None, :])
    if b is not None:
        out += b.astype(np.float64).reshape([1, -1] + [1] * spatial)
    return out


def convtranspose_pads(x_shape, kernel, strides, dilations, output_padding, auto_pad, output_shape):
    """The spec's pads for auto_pad / output_shape: total = full extent - output size; SAME_UPPER
    puts total // 2 at the beginning, every other mode total - total // 2. SAME without
    output_shape aims at input * stride (+ output_padding) and never pads negatively (ONNX's
    shape inference, onnxruntime)."""
    spatial = len(kernel)
    pads = [0] * (2 * spatial)
    for i in range(spatial):
        full = strides[i] * (x_shape[2 + i] - 1) + output_padding[i] + (kernel[i] - 1) * dilations[i] + 1
        if output_shape is None:
            total = max(0, full - output_padding[i] - x_shape[2 + i] * strides[i])
        else:
            total = full - output_shape[i]
        half = int(total / 2)  # toward zero, as C
        pads[i] = half if auto_pad == "SAME_UPPER" else total - half
        pads[i + spatial] = total - pads[i]
    return pads


def make_conv_transpose(crng):
    """ConvTranspose 2-D and 1-D: every attribute (strides, pads, auto_pad SAME_UPPER /
    SAME_LOWER / VALID, output_padding, output_shape, dilations, group, with and without
    bias), one output per case."""
    x = crng.standard_normal((1, 4, 5, 4)).astype(np.float32)
    cases = [  # name, out channels per group, kernel, attributes, bias
        ("ct_pads_outpad", 3, (3, 2), dict(strides=[2, 2], pads=[1, 0, 0, 1], output_padding=[1, 0]), True),
        ("ct_group_dilation", 2, (2, 3), dict(group=2, dilations=[2, 1], strides=[1, 2]), False),
        ("ct_depthwise_same_upper", 2, (3, 3), dict(group=4, auto_pad="SAME_UPPER", strides=[2, 2]), True),
        ("ct_same_lower_small_kernel", 2, (2, 2), dict(auto_pad="SAME_LOWER", strides=[3, 2]), True),
        ("ct_output_shape", 2, (3, 3), dict(strides=[2, 2], output_shape=[11, 9]), True),
        ("ct_output_shape_same_upper", 1, (3, 2), dict(strides=[2, 3], output_shape=[12, 10], auto_pad="SAME_UPPER",
                                                       dilations=[1, 2]), False),
        ("ct_valid", 3, (2, 3), dict(auto_pad="VALID", strides=[2, 1], pads=[0, 0, 0, 0]), True),
    ]
    nodes, outputs, inits, goldens = [], [], [], []
    for name, og, kernel, attrs, has_bias in cases:
        group = attrs.get("group", 1)
        w = crng.standard_normal((4, og) + kernel).astype(np.float32)
        b = crng.standard_normal(og * group).astype(np.float32) if has_bias else None
        ins = ["x", name + "_w"] + ([name + "_b"] if has_bias else [])
        inits += [init(name + "_w", w)] + ([init(name + "_b", b)] if has_bias else [])
        nodes.append(h.make_node("ConvTranspose", ins, [name], name=name, **attrs))
        strides, dilations = attrs.get("strides", [1, 1]), attrs.get("dilations", [1, 1])
        output_padding = attrs.get("output_padding", [0, 0])
        auto_pad = attrs.get("auto_pad", "NOTSET")
        pads = attrs.get("pads", [0, 0, 0, 0])
        if "output_shape" in attrs or auto_pad in ("SAME_UPPER", "SAME_LOWER"):
            pads = convtranspose_pads(x.shape, kernel, strides, dilations, output_padding, auto_pad,
                                      attrs.get("output_shape"))
        y = conv_transpose_ref(x, w, b, strides, pads, dilations, group, output_padding)
        goldens.append(y)
        outputs.append(vi(name, list(y.shape)))
    save("conv_transpose_2d", nodes, [vi("x", list(x.shape))], outputs, inits)
    save_arrays("conv_transpose_2d", in0=x, **{f"out{j}": y for j, y in enumerate(goldens)})

    # 1-D (opset 11): group 2 with dilation and output_padding; SAME_LOWER; no attributes.
    x1 = crng.standard_normal((1, 4, 7)).astype(np.float32)
    w1 = crng.standard_normal((4, 3, 3)).astype(np.float32)
    b1 = crng.standard_normal(6).astype(np.float32)
    w2 = crng.standard_normal((4, 2, 4)).astype(np.float32)
    w3 = crng.standard_normal((4, 1, 2)).astype(np.float32)
    nodes = [
        h.make_node("ConvTranspose", ["x", "w1", "b1"], ["y1"], name="ct1d_group_dilation", group=2, dilations=[2],
                    strides=[3], pads=[1, 2], output_padding=[2]),
        h.make_node("ConvTranspose", ["x", "w2"], ["y2"], name="ct1d_same_lower", auto_pad="SAME_LOWER", strides=[2]),
        h.make_node("ConvTranspose", ["x", "w3"], ["y3"], name="ct1d_defaults"),
    ]
    y1 = conv_transpose_ref(x1, w1, b1, [3], [1, 2], [2], 2, [2])
    y2 = conv_transpose_ref(x1, w2, None, [2], convtranspose_pads(x1.shape, (4,), [2], [1], [0], "SAME_LOWER", None),
                            [1], 1, [0])
    y3 = conv_transpose_ref(x1, w3, None, [1], [0, 0], [1], 1, [0])
    save("conv_transpose_1d", nodes, [vi("x", list(x1.shape))], [vi("y1", list(y1.shape)), vi("y2", list(y2.shape)),
                                                                 vi("y3", list(y3.shape))],
         [init("w1", w1), init("b1", b1), init("w2", w2), init("w3", w3)], opset=11)
    save_arrays("conv_transpose_1d", in0=x1, out0=y1, out1=y2, out2=y3)


def resize_source(transform, o, in_size, out_size, scale):
    """ONNX Resize's coordinate_transformation_mode: output coordinate -> input coordinate."""
    if transform == "align_corners":
        return 0.0 if out_size == 1 else o * (in_size - 1) / (out_size - 1)
    if transform == "asymmetric":
        return o / scale
    if transform == "tf_half_pixel_for_nn":
        return (o + 0.5) / scale
    if transform == "pytorch_half_pixel" and out_size == 1:
        return 0.0
    return (o + 0.5) / scale - 0.5  # half_pixel, pytorch_half_pixel


def nearest_index(v, mode, in_size):
    lower = np.floor(v)
    if mode == "floor":
        pick = lower
    elif mode == "ceil":
        pick = np.ceil(v)
    elif v - lower == 0.5:
        pick = lower if mode == "round_prefer_floor" else lower + 1
    else:
        pick = np.round(v)
    return int(min(max(pick, 0), in_size - 1))


def resize_ref(x, scales, out_shape, mode, transform, nearest_mode="round_prefer_floor"):
    """ONNX Resize (nearest, linear) one axis at a time; linear reads floor(v) and floor(v) + 1
    clamped into the input (the spec pads by the edge), weights 1 - r and r."""
    y = x.astype(np.float64)
    for axis in range(x.ndim):
        in_size, out_size = y.shape[axis], out_shape[axis]
        if in_size == out_size and scales[axis] == 1.0:
            continue
        pieces = []
        for o in range(out_size):
            v = resize_source(transform, o, in_size, out_size, scales[axis])
            if mode == "nearest":
                pieces.append(np.take(y, [nearest_index(v, nearest_mode, in_size)], axis=axis))
            else:
                lo = np.floor(v)
                r = v - lo
                a = int(min(max(lo, 0), in_size - 1))
                b = int(min(max(lo + 1, 0), in_size - 1))
                pieces.append(np.take(y, [a], axis=axis) * (1 - r) + np.take(y, [b], axis=axis) * r)
        y = np.concatenate(pieces, axis=axis)
    return y


RESIZE_TRANSFORMS = ["half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric", "tf_half_pixel_for_nn"]
NEAREST_MODES = ["round_prefer_floor", "round_prefer_ceil", "floor", "ceil"]


def make_resize(crng):
    """Resize nearest (every nearest_mode x every coordinate transform) and linear (every
    transform), from scales (up in H, down in W) and from sizes; opset 13 without roi,
    opset 11 with roi and empty scales; a 1-D resize."""
    x = crng.standard_normal((1, 2, 4, 5)).astype(np.float32)
    scale_values = np.array([1, 1, 2.5, 0.5], np.float32)
    sizes_values = np.array([1, 2, 7, 3], np.int64)
    inits = [init("scales", scale_values), init("sizes", sizes_values),
             init("scales_up", np.array([1, 1, 2, 1.5], np.float32)),
             init("scales_tie", np.array([1, 1, 2, 0.25], np.float32))]
    nodes, outputs, goldens = [], [], []

    def add(name, ins, out_shape, scales, **attrs):
        nodes.append(h.make_node("Resize", ins, [name], name=name, **attrs))
        outputs.append(vi(name, out_shape))
        goldens.append(resize_ref(x, scales, out_shape, attrs.get("mode", "nearest"),
                                  attrs.get("coordinate_transformation_mode", "half_pixel"),
                                  attrs.get("nearest_mode", "round_prefer_floor")))

    scaled = [1, 2, 10, 2]
    for transform in RESIZE_TRANSFORMS:
        for nearest in NEAREST_MODES:
            add(f"nearest_{transform}_{nearest}", ["x", "", "scales"], scaled, scale_values,
                mode="nearest", coordinate_transformation_mode=transform, nearest_mode=nearest)
        add(f"linear_{transform}_sizes", ["x", "", "", "sizes"], [int(v) for v in sizes_values],
            sizes_values / np.array(x.shape), mode="linear", coordinate_transformation_mode=transform)
        add(f"linear_{transform}_scales", ["x", "", "scales_up"], [1, 2, 8, 7],
            np.array([1, 1, 2, 1.5]), mode="linear", coordinate_transformation_mode=transform)
    # Ties: asymmetric at odd rows (o / 2), half_pixel at the single column ((0.5) / 0.25 -
    # 0.5 = 1.5), where pytorch_half_pixel reads column 0.
    for transform in RESIZE_TRANSFORMS:
        for nearest in NEAREST_MODES[:2]:
            add(f"nearest_tie_{transform}_{nearest}", ["x", "", "scales_tie"], [1, 2, 8, 1],
                np.array([1, 1, 2, 0.25]), mode="nearest", coordinate_transformation_mode=transform,
                nearest_mode=nearest)
    add("nearest_defaults", ["x", "", "", "sizes"], [int(v) for v in sizes_values], sizes_values / np.array(x.shape))
    save("resize_modes", nodes, [vi("x", list(x.shape))], outputs, inits)
    save_arrays("resize_modes", in0=x, **{f"out{j}": y for j, y in enumerate(goldens)})

    # Opset 11: roi given (ignored), scales empty with sizes, cubic's attributes present
    # (no effect on linear), and a 1-D resize of [N, C, L].
    x1 = crng.standard_normal((1, 3, 6)).astype(np.float32)
    nodes = [
        h.make_node("Resize", ["x", "roi", "no_scales", "sizes"], ["y"], name="resize_1d", mode="linear",
                    coordinate_transformation_mode="pytorch_half_pixel", cubic_coeff_a=-0.5, exclude_outside=0,
                    extrapolation_value=3.0),
        h.make_node("Resize", ["x", "roi", "scales"], ["z"], name="resize_1d_nearest", mode="nearest",
                    coordinate_transformation_mode="tf_half_pixel_for_nn", nearest_mode="round_prefer_ceil"),
    ]
    y = resize_ref(x1, np.array([1, 1, 11 / 6]), [1, 3, 11], "linear", "pytorch_half_pixel")
    z = resize_ref(x1, np.array([1, 1, 0.75]), [1, 3, 4], "nearest", "tf_half_pixel_for_nn", "round_prefer_ceil")
    save("resize_1d", nodes, [vi("x", [1, 3, 6])], [vi("y", [1, 3, 11]), vi("z", [1, 3, 4])],
         [init("roi", np.zeros(0, np.float32)), init("no_scales", np.zeros(0, np.float32)),
          init("sizes", np.array([1, 3, 11], np.int64)), init("scales", np.array([1, 1, 0.75], np.float32))],
         opset=11)
    save_arrays("resize_1d", in0=x1, out0=y, out1=z)


def make_convres_error_models():
    """ConvTranspose and Resize attributes import refuses."""
    scales = init("scales", np.array([1, 1, 2, 2], np.float32))
    resize_in, resize_out = [vi("x", [1, 1, 2, 2])], [vi("y", [1, 1, 4, 4])]
    save("resize_channels", [h.make_node("Resize", ["x", "", "scales"], ["y"], name="up")],
         resize_in, [vi("y", [1, 2, 2, 2])], [init("scales", np.array([1, 2, 1, 1], np.float32))])
    save("resize_bad_nearest_mode", [h.make_node("Resize", ["x", "", "scales"], ["y"], name="up",
                                                 nearest_mode="round_half_even")],
         resize_in, resize_out, [scales])
    w = np.ones((2, 1, 3, 3), np.float32)
    save("convtranspose_3d", [h.make_node("ConvTranspose", ["x", "w"], ["y"], name="up")],
         [vi("x", [1, 2, 2, 2, 2])], [vi("y", [1, 1, 4, 4, 4])], [init("w", np.ones((2, 1, 3, 3, 3), np.float32))])
    save("convtranspose_negative_output_padding",
         [h.make_node("ConvTranspose", ["x", "w"], ["y"], name="up", strides=[2, 2], output_padding=[-1, 0])],
         [vi("x", [1, 2, 2, 2])], [vi("y", [1, 1, 4, 5])], [init("w", w)], check=False)


def make_convres_models():
    crng = np.random.default_rng(18)
    make_conv_transpose(crng)
    make_resize(crng)
    make_convres_error_models()


# ---- Resize cubic and tf_crop_and_resize (issue 18) -----------------------------------
# Their own generator, so the models above stay byte-identical.
cubic_rng = np.random.default_rng(1876)


def cubic_coeffs(ratio, a):
    """ONNX Resize's cubic weights of the four neighbours at distances ratio + 1, ratio,
    1 - ratio, 2 - ratio (ratio in (0, 1])."""
    def near(d):
        return ((a + 2) * d - (a + 3)) * d * d + 1

    def far(d):
        return ((a * d - 5 * a) * d + 8 * a) * d - 4 * a
    return np.array([far(ratio + 1), near(ratio), near(1 - ratio), far(2 - ratio)])


def crop_source(o, in_size, out_size, roi):
    start, end = roi
    if out_size == 1:
        return (end - start) * (in_size - 1) / 2 + start * (in_size - 1)
    return o * (end - start) * (in_size - 1) / (out_size - 1) + start * (in_size - 1)


def resize_general_ref(x, scales, out_shape, mode, transform, a=-0.75, exclude_outside=0, roi=None,
                       extrapolation=0.0, nearest_mode="round_prefer_floor"):
    """ONNX Resize one axis at a time, as the spec's reference: the input padded by the edge
    (2 per side), the n nearest padded positions of the coordinate (ties to the lower), the
    mode's weights; exclude_outside zeroes the weights of positions outside the input and
    renormalises; tf_crop_and_resize gives extrapolation for a coordinate outside
    [0, in - 1]. align_corners divides by the integer output length - 1."""
    y = x.astype(np.float64)
    for axis in range(x.ndim):
        in_size, out_size = y.shape[axis], out_shape[axis]
        if transform != "tf_crop_and_resize" and in_size == out_size and scales[axis] == 1.0:
            continue
        padded = np.pad(y, [(2, 2) if k == axis else (0, 0) for k in range(y.ndim)], mode="edge")
        pieces = []
        for o in range(out_size):
            if transform == "tf_crop_and_resize":
                v = crop_source(o, in_size, out_size, (roi[axis], roi[x.ndim + axis]))
                if v < 0 or v > in_size - 1:
                    shape = list(y.shape)
                    shape[axis] = 1
                    pieces.append(np.full(shape, extrapolation))
                    continue
            else:
                v = resize_source(transform, o, in_size, out_size, scales[axis])
            if mode == "nearest":
                pieces.append(np.take(y, [nearest_index(v, nearest_mode, in_size)], axis=axis))
                continue
            n = 4 if mode == "cubic" else 2
            ratio = 1.0 if float(v).is_integer() else v - np.floor(v)
            coeffs = cubic_coeffs(ratio, a) if mode == "cubic" else np.array([1 - ratio, ratio])
            order = sorted(range(in_size + 4), key=lambda i: (abs(v + 2 - i), i))[:n]
            idx = np.array(sorted(order))
            if exclude_outside:
                coeffs = np.where((idx - 2 < 0) | (idx - 2 >= in_size), 0.0, coeffs)
                coeffs = coeffs / coeffs.sum()
            piece = sum(c * np.take(padded, [i], axis=axis) for c, i in zip(coeffs, idx))
            pieces.append(piece)
        y = np.concatenate(pieces, axis=axis)
    return y


CUBIC_TRANSFORMS = RESIZE_TRANSFORMS


def make_resize_cubic():
    """Resize cubic: every coordinate transform x exclude_outside 0/1, up from scales and
    down from sizes; other cubic_coeff_a values; non-integer scales; PyTorch's defaults."""
    x = cubic_rng.standard_normal((1, 2, 5, 6)).astype(np.float32)
    inits = [init("scales_up", np.array([1, 1, 2, 1.5], np.float32)),
             init("sizes_down", np.array([1, 2, 3, 4], np.int64)),
             init("scales_odd", np.array([1, 1, 1.7, 0.7], np.float32))]
    scales = {"scales_up": (np.array([1, 1, 2, 1.5]), [1, 2, 10, 9]),
              "sizes_down": (np.array([1, 2, 3, 4]) / np.array(x.shape), [1, 2, 3, 4]),
              "scales_odd": (np.array([1, 1, 1.7, 0.7], np.float32).astype(np.float64), [1, 2, 8, 4])}
    nodes, outputs, goldens = [], [], []

    def add(name, source, **attrs):
        ins = ["x", "", source] if source.startswith("scales") else ["x", "", "", source]
        nodes.append(h.make_node("Resize", ins, [name], name=name, mode="cubic", **attrs))
        s, out_shape = scales[source]
        outputs.append(vi(name, out_shape))
        goldens.append(resize_general_ref(x, s, out_shape, "cubic",
                                          attrs.get("coordinate_transformation_mode", "half_pixel"),
                                          attrs.get("cubic_coeff_a", -0.75), attrs.get("exclude_outside", 0)))

    for transform in CUBIC_TRANSFORMS:
        for exclude in (0, 1):
            add(f"cubic_{transform}_{exclude}_up", "scales_up", coordinate_transformation_mode=transform,
                exclude_outside=exclude)
            add(f"cubic_{transform}_{exclude}_down", "sizes_down", coordinate_transformation_mode=transform,
                exclude_outside=exclude)
    add("cubic_a_half", "scales_up", cubic_coeff_a=-0.5)
    add("cubic_a_one_exclude", "scales_odd", cubic_coeff_a=-1.0, exclude_outside=1,
        coordinate_transformation_mode="asymmetric")
    add("cubic_a_point6_align", "scales_odd", cubic_coeff_a=-0.6, coordinate_transformation_mode="align_corners")
    add("cubic_odd_pytorch", "scales_odd", coordinate_transformation_mode="pytorch_half_pixel")
    add("cubic_defaults", "scales_up")
    save("resize_cubic", nodes, [vi("x", list(x.shape))], outputs, inits)
    save_arrays("resize_cubic", in0=x, **{f"out{j}": y for j, y in enumerate(goldens)})

    # 1-D [N, C, L] at opset 17: up from sizes, down from a non-integer scale, a crop.
    x1 = cubic_rng.standard_normal((1, 3, 7)).astype(np.float32)
    roi1 = np.array([0, 0, -0.2, 1, 1, 0.9], np.float32)
    nodes = [
        h.make_node("Resize", ["x", "", "", "sizes"], ["y"], name="cubic_1d_up", mode="cubic"),
        h.make_node("Resize", ["x", "", "scales"], ["z"], name="cubic_1d_down", mode="cubic",
                    coordinate_transformation_mode="align_corners", exclude_outside=1),
        h.make_node("Resize", ["x", "roi", "", "sizes"], ["w"], name="cubic_1d_crop", mode="cubic",
                    coordinate_transformation_mode="tf_crop_and_resize", extrapolation_value=-1.5),
    ]
    y = resize_general_ref(x1, np.array([1, 1, 12 / 7]), [1, 3, 12], "cubic", "half_pixel")
    z = resize_general_ref(x1, np.array([1, 1, 0.6], np.float32).astype(np.float64), [1, 3, 4], "cubic",
                           "align_corners", exclude_outside=1)
    w = resize_general_ref(x1, None, [1, 3, 12], "cubic", "tf_crop_and_resize", roi=roi1.astype(np.float64),
                           extrapolation=-1.5)
    save("resize_cubic_1d", nodes, [vi("x", [1, 3, 7])], [vi("y", [1, 3, 12]), vi("z", [1, 3, 4]),
                                                         vi("w", [1, 3, 12])],
         [init("sizes", np.array([1, 3, 12], np.int64)), init("scales", np.array([1, 1, 0.6], np.float32)),
          init("roi", roi1)], opset=17)
    save_arrays("resize_cubic_1d", in0=x1, out0=y, out1=z, out2=w)


def make_resize_crop():
    """tf_crop_and_resize (opset 11, as TensorFlow-origin files) for nearest, linear and
    cubic: crops inside the input, crops reaching past it (extrapolation_value), a single
    output row, from sizes and from scales."""
    x = cubic_rng.standard_normal((1, 2, 5, 6)).astype(np.float32)
    rois = {"roi_inside": [0, 0, 0.2, 0.1, 1, 1, 0.9, 0.8],
            "roi_past": [0, 0, -0.3, 0.4, 1, 1, 0.7, 1.3],
            "roi_mixed": [0, 0, 0.1, -0.2, 1, 1, 1.2, 0.9]}
    inits = [init(k, np.array(v, np.float32)) for k, v in rois.items()]
    inits += [init("no_scales", np.zeros(0, np.float32)), init("sizes", np.array([1, 2, 4, 7], np.int64)),
              init("sizes_row", np.array([1, 2, 1, 3], np.int64)),
              init("scales", np.array([1, 1, 1.5, 0.5], np.float32))]
    nodes, outputs, goldens = [], [], []

    def add(name, roi, source, out_shape, mode, **attrs):
        ins = ["x", roi, "scales"] if source == "scales" else ["x", roi, "no_scales", source]
        nodes.append(h.make_node("Resize", ins, [name], name=name, mode=mode,
                                 coordinate_transformation_mode="tf_crop_and_resize", **attrs))
        outputs.append(vi(name, out_shape))
        goldens.append(resize_general_ref(x, None, out_shape, mode, "tf_crop_and_resize",
                                          attrs.get("cubic_coeff_a", -0.75), attrs.get("exclude_outside", 0),
                                          np.array(rois[roi], np.float32).astype(np.float64),
                                          attrs.get("extrapolation_value", 0.0),
                                          attrs.get("nearest_mode", "round_prefer_floor")))

    for mode in ("nearest", "linear", "cubic"):
        add(f"crop_{mode}_inside", "roi_inside", "sizes", [1, 2, 4, 7], mode)
        add(f"crop_{mode}_past", "roi_past", "sizes", [1, 2, 4, 7], mode, extrapolation_value=7.5)
        add(f"crop_{mode}_scales", "roi_mixed", "scales", [1, 2, 7, 3], mode, extrapolation_value=-2.0)
        add(f"crop_{mode}_row", "roi_past", "sizes_row", [1, 2, 1, 3], mode)
    add("crop_nearest_ceil", "roi_mixed", "sizes", [1, 2, 4, 7], "nearest", nearest_mode="ceil",
        extrapolation_value=1.0)
    add("crop_cubic_exclude", "roi_mixed", "sizes", [1, 2, 4, 7], "cubic", exclude_outside=1, cubic_coeff_a=-0.5)
    save("resize_crop", nodes, [vi("x", list(x.shape))], outputs, inits, opset=11)
    save_arrays("resize_crop", in0=x, **{f"out{j}": y for j, y in enumerate(goldens)})


def make_resize_cubic_error_models():
    """Resize attributes and inputs refused around cubic and tf_crop_and_resize."""
    x_in, y_out = [vi("x", [1, 2, 2, 2])], [vi("y", [1, 2, 4, 4])]
    sizes = init("sizes", np.array([1, 2, 4, 4], np.int64))
    crop = dict(mode="linear", coordinate_transformation_mode="tf_crop_and_resize")
    save("resize_roi_computed", [h.make_node("Resize", ["x", "roi", "", "sizes"], ["y"], name="up", **crop)],
         x_in + [vi("roi", [8])], y_out, [sizes])
    save("resize_crop_channels", [h.make_node("Resize", ["x", "roi", "", "sizes"], ["y"], name="up", **crop)],
         x_in, y_out, [sizes, init("roi", np.array([0, 0.5, 0, 0, 1, 1, 1, 1], np.float32))])
    save("resize_crop_no_roi", [h.make_node("Resize", ["x", "", "", "sizes"], ["y"], name="up", **crop)],
         x_in, y_out, [sizes])
    save("resize_exclude_outside_2", [h.make_node("Resize", ["x", "", "", "sizes"], ["y"], name="up", mode="cubic",
                                                  exclude_outside=2)], x_in, y_out, [sizes])
    save("resize_half_pixel_symmetric", [h.make_node("Resize", ["x", "", "", "sizes"], ["y"], name="up",
                                                     mode="cubic",
                                                     coordinate_transformation_mode="half_pixel_symmetric")],
         x_in, y_out, [sizes], check=False)


def make_resize_cubic_models():
    make_resize_cubic()
    make_resize_crop()
    make_resize_cubic_error_models()


# ---- normalizations (LayerNormalization, its opset-13 decomposition, Instance/GroupNorm) --
# Their own generator, so the models above stay byte-identical.
norm_rng = np.random.default_rng(1818)


def nrandn(*shape):
    return norm_rng.standard_normal(shape).astype(np.float32)


def layer_norm(x, axis, scale, bias=None, eps=1e-5):
    """ONNX LayerNormalization in float64: the dims from axis on normalized."""
    x = x.astype(np.float64)
    axes = tuple(range(axis % x.ndim, x.ndim))
    mean = x.mean(axis=axes, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=axes, keepdims=True)
    y = (x - mean) / np.sqrt(var + eps) * scale.astype(np.float64)
    return y if bias is None else y + bias.astype(np.float64)


def instance_norm(x, scale, bias, eps=1e-5):
    """ONNX InstanceNormalization in float64: per (n, c) over the spatial dims."""
    x = x.astype(np.float64)
    axes = tuple(range(2, x.ndim))
    mean = x.mean(axis=axes, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=axes, keepdims=True)
    shape = [1, -1] + [1] * (x.ndim - 2)
    return (x - mean) / np.sqrt(var + eps) * scale.reshape(shape) + bias.reshape(shape)


def make_layer_normalization():
    """LayerNormalization (opset 17) at several axes, with and without B (B [4] broadcast
    over the normalized [3,4])."""
    cases = [("layernorm_last", [2, 3, 8], -1, [8], [8]),
             ("layernorm_axis1", [2, 3, 4], 1, [3, 4], None),
             ("layernorm_axis2_rank4", [1, 2, 3, 4], 2, [3, 4], [4])]
    for name, shape, axis, scale_shape, bias_shape in cases:
        x, scale = nrandn(*shape), nrandn(*scale_shape) + 1
        bias = nrandn(*bias_shape) if bias_shape else None
        inputs = ["x", "scale"] + (["bias"] if bias_shape else [])
        inits = [init("scale", scale)] + ([init("bias", bias)] if bias_shape else [])
        save(name, [h.make_node("LayerNormalization", inputs, ["y"], name="ln", axis=axis, epsilon=1e-5)],
             [vi("x", shape)], [vi("y", shape)], inits, opset=17)
        save_arrays(name, in0=x, out0=layer_norm(x, axis, scale, bias))


def layer_norm_pattern(x_name, axes, exponent=2.0, square_by_mul=False, prefix=""):
    """The opset-13 decomposition PyTorch exports for nn.LayerNorm (float Casts around the
    statistics, as exports of half-precision-safe code have); returns nodes and constants,
    output 'n'."""
    p = prefix
    nodes = [
        h.make_node("Cast", [x_name], [p + "xc"], name=p + "cast_in", to=T.FLOAT),
        h.make_node("ReduceMean", [p + "xc"], [p + "m"], name=p + "mean", axes=axes),
        h.make_node("Sub", [p + "xc", p + "m"], [p + "d"], name=p + "sub"),
    ]
    if square_by_mul:  # torch's var(): a second mean and Sub, squared by Mul
        nodes += [h.make_node("ReduceMean", [p + "xc"], [p + "m2"], name=p + "mean2", axes=axes),
                  h.make_node("Sub", [p + "xc", p + "m2"], [p + "d2"], name=p + "sub2"),
                  h.make_node("Mul", [p + "d2", p + "d2"], [p + "s"], name=p + "square")]
    else:
        nodes.append(h.make_node("Pow", [p + "d", p + "two"], [p + "s"], name=p + "pow"))
    nodes += [
        h.make_node("ReduceMean", [p + "s"], [p + "v"], name=p + "var", axes=axes),
        h.make_node("Add", [p + "eps", p + "v"], [p + "ve"], name=p + "add_eps"),
        h.make_node("Sqrt", [p + "ve"], [p + "sd"], name=p + "sqrt"),
        h.make_node("Div", [p + "d", p + "sd"], [p + "q"], name=p + "div"),
        h.make_node("Cast", [p + "q"], [p + "n"], name=p + "cast_out", to=T.FLOAT),
    ]
    consts = [init(p + "two", np.array(exponent, np.float32)), init(p + "eps", np.array(1e-5, np.float32))]
    return nodes, consts


def make_layer_norm_patterns():
    """The opset-13 LayerNorm decomposition: with gamma (Mul) and beta (Add, beta first), and
    torch var()'s form (a second mean, Mul for the square) over the last two axes without
    affine: both fuse into one layer_norm. Two that must not fuse: exponent 3, and a
    reduction over a non-last axis."""
    x = nrandn(1, 5, 16)
    gamma, beta = nrandn(16) + 1, nrandn(1, 1, 16)
    nodes, consts = layer_norm_pattern("x", [-1])
    nodes += [h.make_node("Mul", ["n", "gamma"], ["g"], name="gamma_mul"),
              h.make_node("Add", ["beta", "g"], ["y"], name="beta_add")]
    save("layernorm_pattern13", nodes, [vi("x", [1, 5, 16])], [vi("y", [1, 5, 16])],
         consts + [init("gamma", gamma), init("beta", beta)], opset=13)
    save_arrays("layernorm_pattern13", in0=x, out0=layer_norm(x, -1, gamma, beta.reshape(16)))

    x = nrandn(2, 3, 4, 5)
    nodes, consts = layer_norm_pattern("x", [2, 3], square_by_mul=True)
    nodes.append(h.make_node("Relu", ["n"], ["y"], name="relu"))
    save("layernorm_pattern_var", nodes, [vi("x", [2, 3, 4, 5])], [vi("y", [2, 3, 4, 5])], consts, opset=13)
    save_arrays("layernorm_pattern_var", in0=x, out0=np.maximum(layer_norm(x, 2, np.ones((4, 5))), 0))

    nodes, consts = layer_norm_pattern("x", [-1], exponent=3.0)
    save("layernorm_pattern_cubed", nodes + [h.make_node("Identity", ["n"], ["y"], name="out")],
         [vi("x", [1, 5, 16])], [vi("y", [1, 5, 16])], consts, opset=13)
    nodes, consts = layer_norm_pattern("x", [1])
    save("layernorm_pattern_middle_axis", nodes + [h.make_node("Identity", ["n"], ["y"], name="out")],
         [vi("x", [1, 5, 16])], [vi("y", [1, 5, 16])], consts, opset=13)


def make_instance_group_norm():
    """InstanceNormalization on NCHW and NCL; GroupNorm as PyTorch exports it (Reshape ->
    InstanceNormalization with ones/zeros -> Reshape -> Mul -> Add), after a Conv so the
    data is NHWC inside."""
    x, scale, bias = nrandn(2, 3, 4, 5), nrandn(3) + 1, nrandn(3)
    save("instancenorm_2d", [h.make_node("InstanceNormalization", ["x", "scale", "bias"], ["y"], name="in",
                                         epsilon=1e-3)],
         [vi("x", [2, 3, 4, 5])], [vi("y", [2, 3, 4, 5])], [init("scale", scale), init("bias", bias)], opset=11)
    save_arrays("instancenorm_2d", in0=x, out0=instance_norm(x, scale, bias, 1e-3))
    x, scale, bias = nrandn(1, 4, 6), nrandn(4) + 1, nrandn(4)
    save("instancenorm_1d", [h.make_node("InstanceNormalization", ["x", "scale", "bias"], ["y"], name="in")],
         [vi("x", [1, 4, 6])], [vi("y", [1, 4, 6])], [init("scale", scale), init("bias", bias)], opset=13)
    save_arrays("instancenorm_1d", in0=x, out0=instance_norm(x, scale, bias))

    x, w = nrandn(1, 2, 5, 5), nrandn(8, 2, 3, 3)
    gamma, beta = nrandn(8, 1, 1) + 1, nrandn(8, 1, 1)
    nodes = [h.make_node("Conv", ["x", "w"], ["c"], name="conv", pads=[1, 1, 1, 1]),
             h.make_node("Reshape", ["c", "grouped"], ["r"], name="group_reshape"),
             h.make_node("InstanceNormalization", ["r", "ones", "zeros"], ["i"], name="gn", epsilon=1e-5),
             h.make_node("Reshape", ["i", "back"], ["b"], name="back_reshape"),
             h.make_node("Mul", ["b", "gamma"], ["g"], name="gamma_mul"),
             h.make_node("Add", ["g", "beta"], ["y"], name="beta_add")]
    save("groupnorm_pattern", nodes, [vi("x", [1, 2, 5, 5])], [vi("y", [1, 8, 5, 5])],
         [init("w", w), init("grouped", np.array([0, 4, -1], np.int64)), init("ones", np.ones(4, np.float32)),
          init("zeros", np.zeros(4, np.float32)), init("back", np.array([1, 8, 5, 5], np.int64)),
          init("gamma", gamma), init("beta", beta)], opset=13)
    c = conv(x, w, pads=(1, 1, 1, 1)).reshape(1, 4, -1)
    mean = c.mean(axis=2, keepdims=True)
    norm = ((c - mean) / np.sqrt(((c - mean) ** 2).mean(axis=2, keepdims=True) + 1e-5)).reshape(1, 8, 5, 5)
    save_arrays("groupnorm_pattern", in0=x, out0=norm * gamma + beta)


def make_normalization_layouts():
    """ConvNeXt's channels-last LayerNorm (Transpose to NHWC -> LayerNormalization over C ->
    Transpose back) between Convs: NHWC inside already, no transposes around the norm. And
    a GroupNorm-like chain whose InstanceNormalization scale is not ones: not fused, the
    instance norm runs on the reshaped [N, G, M] tensor."""
    x, w1, w2 = nrandn(1, 3, 4, 4), nrandn(6, 3, 1, 1), nrandn(2, 6, 1, 1)
    scale, bias = nrandn(6) + 1, nrandn(6)
    nodes = [h.make_node("Conv", ["x", "w1"], ["c"], name="conv1"),
             h.make_node("Transpose", ["c"], ["t"], name="to_nhwc", perm=[0, 2, 3, 1]),
             h.make_node("LayerNormalization", ["t", "scale", "bias"], ["n"], name="ln", axis=-1),
             h.make_node("Transpose", ["n"], ["b"], name="to_nchw", perm=[0, 3, 1, 2]),
             h.make_node("Conv", ["b", "w2"], ["y"], name="conv2")]
    save("layernorm_channels_last", nodes, [vi("x", [1, 3, 4, 4])], [vi("y", [1, 2, 4, 4])],
         [init("w1", w1), init("w2", w2), init("scale", scale), init("bias", bias)], opset=17)
    n = layer_norm(conv(x, w1).transpose(0, 2, 3, 1), -1, scale, bias).transpose(0, 3, 1, 2)
    save_arrays("layernorm_channels_last", in0=x, out0=conv(n, w2))

    x, gs, gb = nrandn(1, 4, 3, 3), nrandn(2) + 1, nrandn(2)
    nodes = [h.make_node("Reshape", ["x", "grouped"], ["r"], name="group_reshape"),
             h.make_node("InstanceNormalization", ["r", "gs", "gb"], ["i"], name="in"),
             h.make_node("Reshape", ["i", "back"], ["y"], name="back_reshape")]
    save("groupnorm_unfused", nodes, [vi("x", [1, 4, 3, 3])], [vi("y", [1, 4, 3, 3])],
         [init("grouped", np.array([1, 2, 18], np.int64)), init("gs", gs), init("gb", gb),
          init("back", np.array([1, 4, 3, 3], np.int64))], opset=13)
    save_arrays("groupnorm_unfused", in0=x, out0=instance_norm(x.reshape(1, 2, 18), gs, gb).reshape(1, 4, 3, 3))


def make_layer_norm_rsqrt():
    """(x - m) * torch.rsqrt(var + eps) as torch exports it: Mul(d, Div(1, Sqrt(.))), the
    Mul's operands swapped; fuses into layer_norm too."""
    x = nrandn(2, 6)
    nodes, consts = layer_norm_pattern("x", [-1])
    nodes = [n for n in nodes if n.name not in ("div", "cast_out")]
    nodes += [h.make_node("Div", ["one", "sd"], ["inv"], name="inverse"),
              h.make_node("Mul", ["inv", "d"], ["y"], name="scale_by_inverse")]
    save("layernorm_pattern_rsqrt", nodes, [vi("x", [2, 6])], [vi("y", [2, 6])],
         consts + [init("one", np.array(1.0, np.float32))], opset=13)
    save_arrays("layernorm_pattern_rsqrt", in0=x, out0=layer_norm(x, -1, np.ones(6)))


def make_normalization_error_models():
    save("layernorm_stash_type",
         [h.make_node("LayerNormalization", ["x", "scale"], ["y"], name="ln", stash_type=11)],
         [vi("x", [1, 4])], [vi("y", [1, 4])], [init("scale", np.ones(4, np.float32))], opset=17)
    save("layernorm_mean_output",
         [h.make_node("LayerNormalization", ["x", "scale"], ["y", "mean"], name="ln")],
         [vi("x", [1, 4])], [vi("y", [1, 4]), vi("mean", [1, 1])], [init("scale", np.ones(4, np.float32))],
         opset=17)
    save("layernorm_bad_axis",
         [h.make_node("LayerNormalization", ["x", "scale"], ["y"], name="ln", axis=2)],
         [vi("x", [1, 4])], [vi("y", [1, 4])], [init("scale", np.ones(4, np.float32))], opset=17, check=False)
    save("instancenorm_3d",
         [h.make_node("InstanceNormalization", ["x", "scale", "bias"], ["y"], name="in")],
         [vi("x", [1, 2, 2, 2, 2])], [vi("y", [1, 2, 2, 2, 2])],
         [init("scale", np.ones(2, np.float32)), init("bias", np.zeros(2, np.float32))], opset=13)
    save("layernorm_variable_scale",
         [h.make_node("LayerNormalization", ["x", "scale"], ["y"], name="ln")],
         [vi("x", [1, 4]), vi("scale", [4])], [vi("y", [1, 4])], opset=17)
    save("instancenorm_variable_scale",
         [h.make_node("InstanceNormalization", ["x", "scale", "bias"], ["y"], name="in")],
         [vi("x", [1, 2, 3, 3]), vi("scale", [2])], [vi("y", [1, 2, 3, 3])],
         [init("bias", np.zeros(2, np.float32))], opset=13)


# ---- dynamic slicing: Slice/Gather/Split/Expand on computed tensors (issue 18) --------

I64_MAX = np.iinfo(np.int64).max
I64_MIN = np.iinfo(np.int64).min
drng = np.random.default_rng(20261202)  # its own stream: the models above stay identical


def drandn(*shape):
    return drng.standard_normal(shape).astype(np.float32)


def i64(values):
    return np.array(values, np.int64)


def ref_slice(x, starts, ends, axes=None, steps=None):
    """ONNX Slice: Python's slice rules are ONNX's (negative indices, clamping)."""
    axes = list(range(len(starts))) if axes is None else axes
    steps = [1] * len(starts) if steps is None else steps
    index = [slice(None)] * x.ndim
    for s, e, a, st in zip(starts, ends, axes, steps):
        index[a] = slice(int(s), int(e), int(st))
    return x[tuple(index)]


def conv_front(cin, cout, size, name="conv"):
    """A 1x1 Conv producing the computed tensor 'y' (channels-last inside Mote)."""
    x = drandn(1, cin, size, size)
    w = drandn(cout, cin, 1, 1)
    b = drandn(cout)
    node = h.make_node("Conv", ["x", "w", "b"], ["y"], name=name)
    return x, conv(x, w, b), node, [init("w", w), init("b", b)]


def make_slice_forms(opset):
    """Slices of a conv's output: open end, negative starts, clamping, INT64 extremes
    (ends and steps), negative steps, axes absent/negative, steps absent."""
    name = f"slice_forms_opset{opset}"
    x, y, conv_node, inits = conv_front(4, 8, 6)
    forms = [  # starts, ends, axes, steps
        ([2], [I64_MAX], [1], None),
        ([-4, 1], [-1, 100], [2, 3], [1, 2]),
        ([-1], [I64_MIN], [-1], [-1]),
        ([5, 0], [-100, 8], [2, 1], [-2, 3]),
        ([0, 0, 0, 0], [1, 3, 4, 5], None, None),
        ([0], [1], [3], None),
        ([1], [I64_MAX], [2], [I64_MAX]),
        ([-1], [I64_MIN], [3], [I64_MIN]),
    ]
    nodes, outputs, arrays = [conv_node], [], {"in0": x}
    for k, (st, en, ax, sp) in enumerate(forms):
        ins = ["y", f"st{k}", f"en{k}"]
        inits += [init(f"st{k}", i64(st)), init(f"en{k}", i64(en))]
        if ax is not None or sp is not None:
            ins.append(f"ax{k}" if ax is not None else "")
            if ax is not None:
                inits.append(init(f"ax{k}", i64(ax)))
        if sp is not None:
            ins.append(f"sp{k}")
            inits.append(init(f"sp{k}", i64(sp)))
        out = ref_slice(y, st, en, ax, sp)
        nodes.append(h.make_node("Slice", ins, [f"s{k}"], name=f"slice{k}"))
        outputs.append(vi(f"s{k}", list(out.shape)))
        arrays[f"out{k}"] = out
    save(name, nodes, [vi("x", list(x.shape))], outputs, inits, opset=opset)
    save_arrays(name, **arrays)


def make_gather_forms():
    """Gathers from a conv's output: scalar indices (dropping the channel axis, an
    inner axis, a negative index), evenly spaced lists, uneven and 2-D index lists, and
    y[:, :, -1] after a reshape (an RNN's last step)."""
    name = "gather_forms"
    x, y, conv_node, inits = conv_front(4, 8, 6)
    forms = [  # indices, axis
        (np.array(-1, np.int64), 1),
        (np.array(2, np.int64), 2),
        (i64([0, 2, 4]), 3),
        (i64([[5, 0], [1, 1]]), 1),
        (i64([3, -1, 0]), 1),
        (i64([4, 3, 2]), 2),
    ]
    nodes, outputs, arrays = [conv_node], [], {"in0": x}
    for k, (idx, axis) in enumerate(forms):
        inits.append(init(f"i{k}", idx))
        nodes.append(h.make_node("Gather", ["y", f"i{k}"], [f"g{k}"], name=f"gather{k}", axis=axis))
        out = np.take(y, np.where(idx < 0, idx + y.shape[axis], idx), axis=axis)
        nodes.append(h.make_node("Relu", [f"g{k}"], [f"r{k}"], name=f"relu{k}"))
        outputs.append(vi(f"r{k}", list(out.shape)))
        arrays[f"out{k}"] = np.maximum(out, 0)
    # y[:, :, -1] of y viewed as [1, 8, 36].
    inits += [init("seq_shape", i64([1, 8, 36])), init("last", np.array(-1, np.int64))]
    nodes += [h.make_node("Reshape", ["y", "seq_shape"], ["seq"], name="to_seq"),
              h.make_node("Gather", ["seq", "last"], ["last_step"], name="last_step", axis=2)]
    outputs.append(vi("last_step", [1, 8]))
    arrays[f"out{len(forms)}"] = y.reshape(1, 8, 36)[:, :, -1]
    save(name, nodes, [vi("x", list(x.shape))], outputs, inits, opset=13)
    save_arrays(name, **arrays)


def make_split_forms(opset):
    """Split of a conv's output along channels (sizes given: attribute at opset 11, input
    at opset 13) and along the width into equal parts (no sizes)."""
    name = f"split_forms_opset{opset}"
    x, y, conv_node, inits = conv_front(3, 6, 4)
    sizes = [2, 4]
    if opset < 13:
        split = h.make_node("Split", ["y"], ["pa", "pb"], name="split_c", axis=1, split=sizes)
    else:
        inits.append(init("sizes", i64(sizes)))
        split = h.make_node("Split", ["y", "sizes"], ["pa", "pb"], name="split_c", axis=1)
    equal = h.make_node("Split", ["y"], ["c", "d"], name="split_w", axis=-1)
    nodes = [conv_node, split, equal,
             h.make_node("Relu", ["pa"], ["ra"], name="relu_a"),
             h.make_node("Sigmoid", ["pb"], ["sb"], name="sigmoid_b")]
    outs = [np.maximum(y[:, :2], 0), 1 / (1 + np.exp(-y[:, 2:])), y[..., :2], y[..., 2:]]
    save(name, nodes, [vi("x", list(x.shape))],
         [vi(n, list(o.shape)) for n, o in zip(["ra", "sb", "c", "d"], outs)], inits, opset=opset)
    save_arrays(name, in0=x, **{f"out{k}": o for k, o in enumerate(outs)})


def make_expand_forms():
    """Expand of a computed tensor: new leading dims, a size-1 dim repeated, a shape of
    lower rank (numpy rules), the shape from a Shape subgraph; and Expand of a constant
    (ConstantOfShape, an RNN's zero state), folded."""
    name = "expand_forms"
    x = drandn(1, 4)
    r = np.maximum(x, 0)
    inits = [init("shape0", i64([3, 1, 4])), init("shape1", i64([2, 4, 3])), init("shape2", i64([4])),
             init("zshape", i64([1, 4])), init("one", np.ones((1, 1), np.float32))]
    nodes = [h.make_node("Relu", ["x"], ["r"], name="relu"),
             h.make_node("Expand", ["r", "shape0"], ["e0"], name="expand0"),
             h.make_node("Transpose", ["r"], ["rt"], name="to_column", perm=[1, 0]),
             h.make_node("Expand", ["rt", "shape1"], ["e1"], name="expand1"),
             h.make_node("Expand", ["r", "shape2"], ["e2"], name="expand2"),
             h.make_node("Shape", ["e1"], ["e1_shape"], name="e1_shape"),
             h.make_node("Expand", ["one", "e1_shape"], ["ones"], name="expand_const"),
             h.make_node("Mul", ["e1", "ones"], ["e3"], name="times_ones"),
             h.make_node("ConstantOfShape", ["zshape"], ["zero"], name="zero_state",
                         value=h.make_tensor("v", T.FLOAT, [1], [0.0])),
             h.make_node("Expand", ["zero", "shape0"], ["zeros"], name="expand_zero"),
             h.make_node("Add", ["e0", "zeros"], ["e4"], name="plus_zero_state")]
    e0 = np.broadcast_to(r, (3, 1, 4))
    e1 = np.broadcast_to(r.T, (2, 4, 3))
    e2 = r
    outs = [e0, e1, e2, e1, e0]
    save(name, nodes, [vi("x", [1, 4])],
         [vi(n, list(o.shape)) for n, o in zip(["e0", "e1", "e2", "e3", "e4"], outs)], inits, opset=13)
    save_arrays(name, in0=x, **{f"out{k}": o for k, o in enumerate(outs)})


def make_expand_channels_last():
    """Expand of a conv's pooled output back over H and W, in the NHWC layout: y - mean(y)."""
    name = "expand_channels_last"
    x, y, conv_node, inits = conv_front(3, 5, 4)
    inits.append(init("full", i64([1, 5, 4, 4])))
    nodes = [conv_node,
             h.make_node("ReduceMean", ["y"], ["m"], name="mean", axes=[2, 3], keepdims=1),
             h.make_node("Expand", ["m", "full"], ["e"], name="expand"),
             h.make_node("Sub", ["y", "e"], ["d"], name="centre")]
    save(name, nodes, [vi("x", list(x.shape))], [vi("d", [1, 5, 4, 4])], inits, opset=13)
    save_arrays(name, in0=x, out0=y - y.mean(axis=(2, 3), keepdims=True))


def make_dynamic_batch():
    """A symbolic batch axis (fixed to 1 or set with --input-shape) and a symbolic inner
    axis (refused unless --input-shape sets it); y = x[:, :8] + Relu."""
    x = drandn(1, 3, 10)
    nodes = [h.make_node("Relu", ["x"], ["r"], name="relu"),
             h.make_node("Slice", ["r", "st", "en", "ax"], ["y"], name="head")]
    inits = [init("st", i64([0])), init("en", i64([8])), init("ax", i64([2]))]
    save("dynamic_batch", nodes, [vi("x", ["batch", 3, 10])], [vi("y", ["batch", 3, 8])], inits, opset=13)
    save_arrays("dynamic_batch", in0=x, out0=np.maximum(x, 0)[:, :, :8])
    relu_graph("dynamic_inner_dim", 13, dims=(1, "n"))


def make_dynamic_slicing_errors():
    inits = [init("en", i64([2])), init("ax", i64([1]))]
    save("slice_variable_starts",
         [h.make_node("Relu", ["x"], ["r"], name="relu"),
          h.make_node("Slice", ["r", "st", "en", "ax"], ["y"], name="slice")],
         [vi("x", [1, 4]), vi("st", [1], T.INT64)], [vi("y", [1, 2])], inits)
    save("slice_empty",
         [h.make_node("Relu", ["x"], ["r"], name="relu"),
          h.make_node("Slice", ["r", "st", "en", "ax"], ["y"], name="slice")],
         [vi("x", [1, 4])], [vi("y", [1, 0])], [init("st", i64([3]))] + inits)
    save("gather_out_of_range",
         [h.make_node("Relu", ["x"], ["r"], name="relu"),
          h.make_node("Gather", ["r", "i"], ["y"], name="gather", axis=1)],
         [vi("x", [1, 4])], [vi("y", [1, 1])], [init("i", i64([9]))], check=False)
    save("split_bad_sizes",
         [h.make_node("Split", ["x"], ["a", "b"], name="split", axis=1, split=[2, 3])],
         [vi("x", [1, 4])], [vi("a", [1, 2]), vi("b", [1, 3])], opset=11, check=False)


def make_dynamic_slicing():
    make_slice_forms(11)
    make_slice_forms(13)
    make_gather_forms()
    make_split_forms(11)
    make_split_forms(13)
    make_expand_forms()
    make_dynamic_batch()
    make_expand_channels_last()
    make_dynamic_slicing_errors()


def make_linear_bias_3d():
    """PyTorch's Linear on a 3-D input: MatMul(x, W) + Add of a constant bias becomes one
    fully_connected with that bias when the constant broadcasts along the last axis only:
    y0 bias [5] as the Add's first operand (PyTorch's order), y1 bias [1,1,3] second, y3
    one value; y2's [4,1] broadcasts along the rows: fully_connected + add."""
    x = randn(1, 4, 6)
    w = [randn(6, 5), randn(6, 3), randn(6, 3), randn(6, 2)]
    b = [randn(5), randn(1, 1, 3), randn(4, 1), randn(1)]
    nodes, outputs, goldens = [], [], {}
    for j in range(4):
        nodes.append(h.make_node("MatMul", ["x", f"w{j}"], [f"m{j}"], name=f"matmul{j}"))
        operands = [f"b{j}", f"m{j}"] if j == 0 else [f"m{j}", f"b{j}"]
        nodes.append(h.make_node("Add", operands, [f"y{j}"], name=f"add{j}"))
        out = x.astype(np.float64) @ w[j] + b[j]
        outputs.append(vi(f"y{j}", list(out.shape)))
        goldens[f"out{j}"] = out
    save("linear_bias_3d", nodes, [vi("x", [1, 4, 6])], outputs,
         [init(f"w{j}", w[j]) for j in range(4)] + [init(f"b{j}", b[j]) for j in range(4)])
    save_arrays("linear_bias_3d", in0=x, **goldens)


def make_gather_computed():
    """Gather at computed indices (an embedding lookup: int64 ids, the model's input) from
    constant tables on axis 0 and axis 1; negative ids count from the end (ONNX). The ids
    are stored as float32 in in0 (small integers, exact); the model reads int64."""
    ids = i64([[5, -1, 0, -6]])
    table0, table1 = randn(6, 3), randn(3, 6)
    nodes = [h.make_node("Gather", ["table0", "ids"], ["y0"], name="lookup0", axis=0),
             h.make_node("Gather", ["table1", "ids"], ["y1"], name="lookup1", axis=1)]
    wrapped = np.where(ids < 0, ids + 6, ids)
    y0, y1 = np.take(table0, wrapped, axis=0), np.take(table1, wrapped, axis=1)
    save("gather_computed", nodes, [vi("ids", [1, 4], T.INT64)], [vi("y0", list(y0.shape)), vi("y1", list(y1.shape))],
         [init("table0", table0), init("table1", table1)], opset=13)
    save_arrays("gather_computed", in0=ids, out0=y0, out1=y1)
# ---- recurrent layers (LSTM) ----------------------------------------------------------------
# Their own generator, so the models above stay byte-identical.
rnn_rng = np.random.default_rng(1819)
def rrandn(*shape, scale=1.0):
    return (rnn_rng.standard_normal(shape) * scale).astype(np.float32)
def sigmoid(v):
    return 1.0 / (1.0 + np.exp(-v))
def lstm_ref(x, w, r, b, h0, c0, direction):
    """ONNX LSTM in float64 (default activations, layout 0): Y [T, D, B, H], Y_h, Y_c
    [D, B, H]; gates i, o, f, c; the reverse direction reads the sequence backwards."""
    x, w, r, b = (a.astype(np.float64) for a in (x, w, r, b))
    steps, batches, _ = x.shape
    dirs, _, hidden = r.shape
    y = np.zeros((steps, dirs, batches, hidden))
    y_h = np.zeros((dirs, batches, hidden))
    y_c = np.zeros((dirs, batches, hidden))
    for d in range(dirs):
        h, c = h0[d].astype(np.float64), c0[d].astype(np.float64)
        reverse = direction == "reverse" or d == 1
        for t in (range(steps - 1, -1, -1) if reverse else range(steps)):
            g = x[t] @ w[d].T + h @ r[d].T + b[d, :4 * hidden] + b[d, 4 * hidden:]
            i, o, f, z = np.split(g, 4, axis=-1)
            c = sigmoid(f) * c + sigmoid(i) * np.tanh(z)
            h = sigmoid(o) * np.tanh(c)
            y[t, d] = h
        y_h[d], y_c[d] = h, c
    return y, y_h, y_c
def computed_state(x, dirs, batches, hidden, with_cell):
    """An initial state computed from x: h0 = tanh(mean_t(x) @ M) as [D, B, H] (Reshape and
    Transpose), the cell state c0 = -h0 when with_cell; its nodes, initializers and values."""
    inputs = x.shape[2]
    m = rrandn(inputs, dirs * hidden, scale=0.5)
    inits = [init("M", m), init("state_shape", i64([batches, dirs, hidden]))]
    nodes = [h.make_node("ReduceMean", ["x"], ["xm"], name="mean", axes=[0], keepdims=0),
             h.make_node("MatMul", ["xm", "M"], ["hm"], name="proj"),
             h.make_node("Tanh", ["hm"], ["ht"], name="tanh"),
             h.make_node("Reshape", ["ht", "state_shape"], ["hr"], name="state_reshape"),
             h.make_node("Transpose", ["hr"], ["h0"], name="state_transpose", perm=[1, 0, 2])]
    if with_cell:
        nodes.append(h.make_node("Neg", ["h0"], ["c0"], name="cell_state"))
    h0 = np.tanh(x.astype(np.float64).mean(axis=0) @ m).reshape(batches, dirs, hidden).transpose(1, 0, 2)
    return nodes, inits, h0
def lstm_case(name, direction, opset, bias=True, state=None, outputs=("Y", "Y_h", "Y_c"), steps=5,
              batches=2, inputs=3, hidden=4):
    """One LSTM over x [T, B, I]; state None (zeros), "constant" (initializers) or
    "computed" (tanh(mean_t(x) @ M) per direction, the cell state its negation);
    `outputs` lists the outputs kept ("" omits one before a kept one)."""
    dirs = 2 if direction == "bidirectional" else 1
    x = rrandn(steps, batches, inputs)
    w, r = rrandn(dirs, 4 * hidden, inputs, scale=0.6), rrandn(dirs, 4 * hidden, hidden, scale=0.6)
    b = rrandn(dirs, 8 * hidden, scale=0.3) if bias else np.zeros((dirs, 8 * hidden), np.float32)
    inits = [init("W", w), init("R", r)] + ([init("B", b)] if bias else [])
    nodes = []
    h0 = np.zeros((dirs, batches, hidden), np.float32)
    c0 = np.zeros((dirs, batches, hidden), np.float32)
    state_names = ["", ""]
    if state == "constant":
        h0, c0 = rrandn(dirs, batches, hidden, scale=0.5), rrandn(dirs, batches, hidden, scale=0.5)
        inits += [init("h0", h0), init("c0", c0)]
        state_names = ["h0", "c0"]
    elif state == "computed":
        nodes, state_inits, h0 = computed_state(x, dirs, batches, hidden, True)
        inits += state_inits
        state_names = ["h0", "c0"]
        c0 = -h0
    lstm_inputs = ["x", "W", "R", "B" if bias else "", "", state_names[0], state_names[1]]
    while lstm_inputs[-1] == "":
        lstm_inputs.pop()
    nodes.append(h.make_node("LSTM", lstm_inputs, list(outputs), name="lstm", direction=direction,
                             hidden_size=hidden))
    y, y_h, y_c = lstm_ref(x, w, r, b, h0, c0, direction)
    shapes = {"Y": ([steps, dirs, batches, hidden], y), "Y_h": ([dirs, batches, hidden], y_h),
              "Y_c": ([dirs, batches, hidden], y_c)}
    kept = [o for o in outputs if o]
    save(name, nodes, [vi("x", [steps, batches, inputs])], [vi(o, shapes[o][0]) for o in kept], inits, opset=opset)
    save_arrays(name, in0=x, **{f"out{j}": shapes[o][1] for j, o in enumerate(kept)})
def make_lstm_error_models():
    x, w, r = rrandn(3, 1, 2), rrandn(1, 8, 2), rrandn(1, 8, 2)
    cases = [("lstm_layout1", dict(layout=1), ["x", "W", "R"], 14),
             ("lstm_clip", dict(clip=3.0), ["x", "W", "R"], 13),
             ("lstm_input_forget", dict(input_forget=1), ["x", "W", "R"], 13),
             ("lstm_activations", dict(activations=["Sigmoid", "Relu", "Tanh"]), ["x", "W", "R"], 13),
             ("lstm_sequence_lens", {}, ["x", "W", "R", "", "lens"], 13)]
    for name, attrs, inputs, opset in cases:
        save(name, [h.make_node("LSTM", inputs, ["Y"], name="lstm", hidden_size=2, **attrs)],
             [vi("x", list(x.shape))], [vi("Y", [3, 1, 1, 2])],
             [init("W", w), init("R", r), init("lens", np.array([3], np.int32))], opset=opset)
def gru_ref(x, w, r, b, h0, direction, linear_before_reset):
    """ONNX GRU in float64 (default activations, layout 0): Y [T, D, B, H], Y_h [D, B, H];
    gates z, r, h."""
    x, w, r, b = (a.astype(np.float64) for a in (x, w, r, b))
    steps, batches, _ = x.shape
    dirs, _, hidden = r.shape
    y = np.zeros((steps, dirs, batches, hidden))
    y_h = np.zeros((dirs, batches, hidden))
    for d in range(dirs):
        h = h0[d].astype(np.float64)
        wz, wr, wh = np.split(w[d], 3)
        rz, rr, rh = np.split(r[d], 3)
        wbz, wbr, wbh, rbz, rbr, rbh = np.split(b[d], 6)
        reverse = direction == "reverse" or d == 1
        for t in (range(steps - 1, -1, -1) if reverse else range(steps)):
            z = sigmoid(x[t] @ wz.T + wbz + h @ rz.T + rbz)
            rg = sigmoid(x[t] @ wr.T + wbr + h @ rr.T + rbr)
            if linear_before_reset:
                g = np.tanh(x[t] @ wh.T + wbh + rg * (h @ rh.T + rbh))
            else:
                g = np.tanh(x[t] @ wh.T + wbh + (rg * h) @ rh.T + rbh)
            h = (1 - z) * g + z * h
            y[t, d] = h
        y_h[d] = h
    return y, y_h
def gru_case(name, direction, opset, linear_before_reset, state=None, outputs=("Y", "Y_h"), steps=5, batches=2,
             inputs=3, hidden=4):
    """One GRU over x [T, B, I]; state None (zeros), "constant" or "computed" (as lstm_case)."""
    dirs = 2 if direction == "bidirectional" else 1
    x = rrandn(steps, batches, inputs)
    w, r = rrandn(dirs, 3 * hidden, inputs, scale=0.6), rrandn(dirs, 3 * hidden, hidden, scale=0.6)
    b = rrandn(dirs, 6 * hidden, scale=0.3)
    inits = [init("W", w), init("R", r), init("B", b)]
    nodes = []
    h0 = np.zeros((dirs, batches, hidden), np.float32)
    state_name = ""
    if state == "constant":
        h0 = rrandn(dirs, batches, hidden, scale=0.5)
        inits.append(init("h0", h0))
        state_name = "h0"
    elif state == "computed":
        nodes, state_inits, h0 = computed_state(x, dirs, batches, hidden, False)
        inits += state_inits
        state_name = "h0"
    gru_inputs = ["x", "W", "R", "B", "", state_name]
    while gru_inputs[-1] == "":
        gru_inputs.pop()
    nodes.append(h.make_node("GRU", gru_inputs, list(outputs), name="gru", direction=direction, hidden_size=hidden,
                             linear_before_reset=linear_before_reset))
    y, y_h = gru_ref(x, w, r, b, h0, direction, linear_before_reset)
    shapes = {"Y": ([steps, dirs, batches, hidden], y), "Y_h": ([dirs, batches, hidden], y_h)}
    kept = [o for o in outputs if o]
    save(name, nodes, [vi("x", [steps, batches, inputs])], [vi(o, shapes[o][0]) for o in kept], inits, opset=opset)
    save_arrays(name, in0=x, **{f"out{j}": shapes[o][1] for j, o in enumerate(kept)})
def make_gru_models():
    gru_case("gru_forward_lbr0", "forward", 11, 0)
    gru_case("gru_forward_lbr1_constant_state", "forward", 13, 1, state="constant", outputs=("Y",))
    gru_case("gru_reverse_computed_state", "reverse", 14, 1, state="computed", outputs=("", "Y_h"))
    gru_case("gru_bidirectional", "bidirectional", 17, 0, state="computed")
    save("gru_clip", [h.make_node("GRU", ["x", "W", "R"], ["Y"], name="gru", hidden_size=2, clip=2.0)],
         [vi("x", [3, 1, 2])], [vi("Y", [3, 1, 1, 2])], [init("W", rrandn(1, 6, 2)), init("R", rrandn(1, 6, 2))])
def rnn_ref(x, w, r, b, h0, direction, relu):
    """ONNX RNN in float64 (layout 0): Y [T, D, B, H], Y_h [D, B, H]; f = tanh or relu."""
    x, w, r, b = (a.astype(np.float64) for a in (x, w, r, b))
    steps, batches, _ = x.shape
    dirs, hidden, _ = r.shape
    y = np.zeros((steps, dirs, batches, hidden))
    y_h = np.zeros((dirs, batches, hidden))
    for d in range(dirs):
        h = h0[d].astype(np.float64)
        reverse = direction == "reverse" or d == 1
        for t in (range(steps - 1, -1, -1) if reverse else range(steps)):
            v = x[t] @ w[d].T + b[d, :hidden] + h @ r[d].T + b[d, hidden:]
            h = np.maximum(v, 0) if relu else np.tanh(v)
            y[t, d] = h
        y_h[d] = h
    return y, y_h
def rnn_case(name, direction, opset, relu, constant_state=False, outputs=("Y", "Y_h"), steps=5, batches=2, inputs=3,
             hidden=4):
    dirs = 2 if direction == "bidirectional" else 1
    x = rrandn(steps, batches, inputs)
    w, r = rrandn(dirs, hidden, inputs, scale=0.6), rrandn(dirs, hidden, hidden, scale=0.6)
    b = rrandn(dirs, 2 * hidden, scale=0.3)
    inits = [init("W", w), init("R", r), init("B", b)]
    h0 = np.zeros((dirs, batches, hidden), np.float32)
    rnn_inputs = ["x", "W", "R", "B"]
    if constant_state:
        h0 = rrandn(dirs, batches, hidden, scale=0.5)
        inits.append(init("h0", h0))
        rnn_inputs += ["", "h0"]
    attrs = dict(activations=["Relu"] * dirs) if relu else {}
    nodes = [h.make_node("RNN", rnn_inputs, list(outputs), name="rnn", direction=direction, hidden_size=hidden,
                         **attrs)]
    y, y_h = rnn_ref(x, w, r, b, h0, direction, relu)
    shapes = {"Y": ([steps, dirs, batches, hidden], y), "Y_h": ([dirs, batches, hidden], y_h)}
    kept = [o for o in outputs if o]
    save(name, nodes, [vi("x", [steps, batches, inputs])], [vi(o, shapes[o][0]) for o in kept], inits, opset=opset)
    save_arrays(name, in0=x, **{f"out{j}": shapes[o][1] for j, o in enumerate(kept)})
def make_rnn_models():
    rnn_case("rnn_forward_tanh", "forward", 11, False)
    rnn_case("rnn_reverse_relu_constant_state", "reverse", 13, True, constant_state=True)
    rnn_case("rnn_bidirectional_relu", "bidirectional", 17, True, outputs=("Y",))
    save("rnn_sigmoid", [h.make_node("RNN", ["x", "W", "R"], ["Y"], name="rnn", hidden_size=2,
                                     activations=["Sigmoid"])],
         [vi("x", [3, 1, 2])], [vi("Y", [3, 1, 1, 2])], [init("W", rrandn(1, 2, 2)), init("R", rrandn(1, 2, 2))])
def make_lstm_models():
    lstm_case("lstm_forward", "forward", 11)
    lstm_case("lstm_reverse_constant_state", "reverse", 13, state="constant", outputs=("Y",))
    lstm_case("lstm_bidirectional_computed_state", "bidirectional", 14, state="computed", outputs=("Y", "", "Y_c"))
    lstm_case("lstm_bidirectional_final_state", "bidirectional", 17, bias=False, outputs=("", "Y_h"))
    lstm_case("lstm_reverse_states", "reverse", 13, state="computed", outputs=("", "Y_h", "Y_c"), batches=1)
    make_lstm_error_models()


# ---- PyTorch idioms (issue 18): reductions, rounding, CumSum, Trilu, Mod, Einsum --------

idiom_rng = np.random.default_rng(20261202)


def idiom_randn(*shape):
    return idiom_rng.standard_normal(shape).astype(np.float32)


def make_idiom_reductions():
    """ReduceL1, ReduceL2, ReduceSumSquare, ReduceLogSumExp and ReduceProd on a Conv's
    channels-last output c (keepdims 0 and 1, one axis, several, all), LogSumExp of values
    near 100 (exp overflows without the max shift), and the mean over all elements divided
    by Cast(ReduceProd(Shape(c))) (folded)."""
    x = idiom_randn(1, 3, 4, 5)
    w = idiom_randn(4, 3, 1, 1)
    nodes = [
        h.make_node("Conv", ["x", "w"], ["c"], name="conv"),
        h.make_node("ReduceL1", ["c"], ["y0"], name="l1", axes=[1], keepdims=0),
        h.make_node("ReduceL2", ["c"], ["y1"], name="l2", axes=[2, 3], keepdims=1),
        h.make_node("ReduceSumSquare", ["c"], ["y2"], name="sum_square", keepdims=0),
        h.make_node("ReduceLogSumExp", ["c"], ["y3"], name="lse", axes=[1], keepdims=1),
        h.make_node("Mul", ["c", "hundred"], ["big"], name="scale"),
        h.make_node("ReduceLogSumExp", ["big"], ["y4"], name="lse_big", axes=[-1], keepdims=0),
        h.make_node("Shape", ["c"], ["shape"], name="shape"),
        h.make_node("ReduceProd", ["shape"], ["count"], name="count", keepdims=0),
        h.make_node("Cast", ["count"], ["count_f"], name="cast", to=T.FLOAT),
        h.make_node("ReduceSum", ["c"], ["total"], name="total", keepdims=0),
        h.make_node("Div", ["total", "count_f"], ["y5"], name="mean"),
        h.make_node("ReduceProd", ["c"], ["y6"], name="prod", axes=[2], keepdims=0),
    ]
    outs = [vi("y0", [1, 4, 5]), vi("y1", [1, 4, 1, 1]), vi("y2", []), vi("y3", [1, 1, 4, 5]), vi("y4", [1, 4, 4]),
            vi("y5", []), vi("y6", [1, 4, 5])]
    save("idiom_reductions", nodes, [vi("x", [1, 3, 4, 5])], outs,
         [init("w", w), init("hundred", np.array(100.0, np.float32))], opset=13)
    c = conv(x, w).astype(np.float64)

    def lse(v, axis, keepdims):
        m = v.max(axis=axis, keepdims=True)
        r = m + np.log(np.exp(v - m).sum(axis=axis, keepdims=True))
        return r if keepdims else np.squeeze(r, axis=axis)
    save_arrays("idiom_reductions", in0=x, out0=np.abs(c).sum(axis=1), out1=np.sqrt((c * c).sum(axis=(2, 3), keepdims=True)),
                out2=(c * c).sum(), out3=lse(c, 1, True), out4=lse(c.astype(np.float32) * 100.0, 3, False),
                out5=c.sum() / c.size, out6=c.prod(axis=2))


def make_idiom_rounding():
    """Floor, Ceil, Round (halves to even), Sign (zeros included) and Mod (fmod 0: the
    divisor's sign, fmod 1: the dividend's) on x + 0 (a computed tensor) in steps of 0.25."""
    x = (np.round(idiom_randn(2, 12) * 8) / 4).astype(np.float32)
    x[0, :4] = [0.5, 1.5, -2.5, 0.0]
    nodes = [
        h.make_node("Add", ["x", "zero"], ["v"], name="computed"),
        h.make_node("Floor", ["v"], ["y0"], name="floor"),
        h.make_node("Ceil", ["v"], ["y1"], name="ceil"),
        h.make_node("Round", ["v"], ["y2"], name="round"),
        h.make_node("Sign", ["v"], ["y3"], name="sign"),
        h.make_node("Mod", ["v", "divisor"], ["y4"], name="floor_mod"),
        h.make_node("Mod", ["v", "divisor"], ["y5"], name="fmod", fmod=1),
        h.make_node("Mod", ["v", "neg_divisor"], ["y6"], name="fmod_neg", fmod=1),
    ]
    save("idiom_rounding", nodes, [vi("x", [2, 12])], [vi("y%d" % i, [2, 12]) for i in range(7)],
         [init("zero", np.array(0.0, np.float32)), init("divisor", np.array(0.75, np.float32)),
          init("neg_divisor", np.array(-0.75, np.float32))], opset=13)
    v = x.astype(np.float64)
    save_arrays("idiom_rounding", in0=x, out0=np.floor(v), out1=np.ceil(v), out2=np.round(v), out3=np.sign(v),
                out4=np.mod(v, 0.75), out5=np.fmod(v, 0.75), out6=np.fmod(v, -0.75))


def make_idiom_cumsum_trilu():
    """CumSum of a Conv's channels-last output over channels (axis input 1), and over the
    last axis (axis -1) exclusive and reversed; Trilu upper with k = 1 and lower with k = -1
    (k input absent: lower with 0) of the same output (opset 14's op; opset 17)."""
    x = idiom_randn(1, 3, 4, 5)
    w = idiom_randn(2, 3, 1, 1)
    nodes = [
        h.make_node("Conv", ["x", "w"], ["c"], name="conv"),
        h.make_node("CumSum", ["c", "axis1"], ["y0"], name="cumsum_c"),
        h.make_node("CumSum", ["c", "axis_last"], ["y1"], name="cumsum_w", exclusive=1, reverse=1),
        h.make_node("Trilu", ["c", "one"], ["y2"], name="triu"),
        h.make_node("Trilu", ["c", "minus_one"], ["y3"], name="tril", upper=0),
        h.make_node("Trilu", ["c"], ["y4"], name="tril0", upper=0),
    ]
    i64 = lambda v: np.array(v, np.int64)
    save("idiom_cumsum_trilu", nodes, [vi("x", [1, 3, 4, 5])], [vi("y%d" % i, [1, 2, 4, 5]) for i in range(5)],
         [init("w", w), init("axis1", i64(1)), init("axis_last", i64(-1)), init("one", i64(1)),
          init("minus_one", i64(-1))], opset=17)
    c = conv(x, w).astype(np.float64)
    rev = np.flip(c, axis=3)
    excl_rev = np.flip(np.cumsum(rev, axis=3) - rev, axis=3)
    save_arrays("idiom_cumsum_trilu", in0=x, out0=np.cumsum(c, axis=1), out1=excl_rev, out2=np.triu(c, 1),
                out3=np.tril(c, -1), out4=np.tril(c))


def make_idiom_einsum():
    """Einsum: batched matmul against a constant, attention scores 'bhqd,bhkd->bhqk' with
    spaces, an ellipsis in implicit mode, a row-wise dot product, an outer product, a
    transpose with a summed letter, all of x [2, 3, 4] (opset 12's op; opset 13); two
    outputs declared with symbolic dims."""
    x = idiom_randn(2, 3, 4)
    w = idiom_randn(4, 5)
    v = idiom_randn(4)
    nodes = [
        h.make_node("Einsum", ["x", "w"], ["y0"], name="matmul", equation="bij,jk->bik"),
        h.make_node("Reshape", ["x", "heads"], ["q"], name="split_heads"),
        h.make_node("Einsum", ["q", "q"], ["y1"], name="scores", equation="bhqd, bhkd -> bhqk"),
        h.make_node("Einsum", ["x", "w"], ["y2"], name="implicit", equation="...j,jk"),
        h.make_node("Einsum", ["x", "x"], ["y3"], name="rowdot", equation="bij,bij->bi"),
        h.make_node("Einsum", ["v", "v"], ["y4"], name="outer", equation="i,j->ij"),
        h.make_node("Einsum", ["x"], ["y5"], name="transpose_sum", equation="bij->ji"),
    ]
    # y0 and y5 declared with symbolic dims, as torch.onnx.export declares an Einsum's
    # output (ONNX 1.12 infers only the rank: the importer completes the shapes).
    outs = [vi("y0", ["Einsum_dim_0", "Einsum_dim_1", "Einsum_dim_2"]), vi("y1", [2, 1, 3, 3]), vi("y2", [2, 3, 5]),
            vi("y3", [2, 3]), vi("y4", [4, 4]), vi("y5", ["Einsum_dim_3", "Einsum_dim_4"])]
    save("idiom_einsum", nodes, [vi("x", [2, 3, 4])], outs,
         [init("w", w), init("v", v), init("heads", np.array([2, 1, 3, 4], np.int64))], opset=13)
    X = x.astype(np.float64)
    q = X.reshape(2, 1, 3, 4)
    save_arrays("idiom_einsum", in0=x, out0=X @ w, out1=np.einsum("bhqd,bhkd->bhqk", q, q), out2=X @ w,
                out3=(X * X).sum(-1), out4=np.outer(v, v), out5=X.sum(0).T)


def make_idiom_top_k():
    """TopK of a Conv's channels-last output: the 2 largest channels (values and int64
    indices), the 3 smallest along the last axis (sorted 0), and torch.sort's form: K from
    Shape/Gather/Unsqueeze (the whole last axis, descending). Rounded values: ties keep
    the lower index first."""
    x = (np.round(idiom_randn(1, 3, 3, 5) * 2) / 2).astype(np.float32)
    w = np.round(idiom_randn(4, 3, 1, 1) * 2) / 2
    nodes = [
        h.make_node("Conv", ["x", "w"], ["c"], name="conv"),
        h.make_node("TopK", ["c", "two"], ["y0", "y1"], name="top_channels", axis=1),
        h.make_node("TopK", ["c", "three"], ["y2", "y3"], name="bottom_w", axis=-1, largest=0, sorted=0),
        h.make_node("Shape", ["c"], ["shape"], name="shape"),
        h.make_node("Gather", ["shape", "last"], ["width"], name="width", axis=0),
        h.make_node("Unsqueeze", ["width", "zero"], ["k"], name="k"),
        h.make_node("TopK", ["c", "k"], ["y4", "y5"], name="sort", axis=3),
    ]
    i64 = lambda v: np.array(v, np.int64)
    outs = [vi("y0", [1, 2, 3, 5]), vi("y1", [1, 2, 3, 5], T.INT64), vi("y2", [1, 4, 3, 3]),
            vi("y3", [1, 4, 3, 3], T.INT64), vi("y4", [1, 4, 3, 5]), vi("y5", [1, 4, 3, 5], T.INT64)]
    save("idiom_top_k", nodes, [vi("x", [1, 3, 3, 5])], outs,
         [init("w", w.astype(np.float32)), init("two", i64([2])), init("three", i64([3])), init("last", i64(3)),
          init("zero", i64([0]))], opset=13)
    c = conv(x, w).astype(np.float32)

    def top(v, axis, k, largest):
        order = np.argsort(-v if largest else v, axis=axis, kind="stable")
        idx = np.take(order, np.arange(k), axis=axis)
        return np.take_along_axis(v, idx, axis=axis), idx
    v0, i0 = top(c, 1, 2, True)
    v1, i1 = top(c, 3, 3, False)
    v2, i2 = top(c, 3, 5, True)
    save_arrays("idiom_top_k", in0=x, out0=v0, out1=i0, out2=v1, out3=i1, out4=v2, out5=i2)


def make_idiom_error_models():
    x = [vi("x", [3, 3])]
    save("einsum_diagonal", [h.make_node("Einsum", ["x"], ["y"], name="diag", equation="ii->i")], x, [vi("y", [3])],
         opset=13)
    save("einsum_three", [h.make_node("Einsum", ["x", "x", "x"], ["y"], name="chain", equation="ij,jk,kl->il")], x,
         [vi("y", [3, 3])], opset=13)
    save("cumsum_axis_input", [h.make_node("CumSum", ["x", "axis"], ["y"], name="cumsum")],
         x + [vi("axis", [], T.INT64)], [vi("y", [3, 3])], opset=13)
    save("trilu_k_input", [h.make_node("Trilu", ["x", "k"], ["y"], name="triu")], x + [vi("k", [], T.INT64)],
         [vi("y", [3, 3])], opset=14)
    save("top_k_input_k", [h.make_node("TopK", ["x", "k"], ["v", "i"], name="topk")], x + [vi("k", [1], T.INT64)],
         [vi("v", [3, 2]), vi("i", [3, 2], T.INT64)], opset=13)
    save("top_k_too_many", [h.make_node("TopK", ["x", "k"], ["v", "i"], name="topk")], x,
         [vi("v", [3, 4]), vi("i", [3, 4], T.INT64)], [init("k", np.array([4], np.int64))], opset=13, check=False)
    save("fmod_int32", [h.make_node("Mod", ["x", "x"], ["y"], name="fmod", fmod=1)], [vi("x", [4], T.INT32)],
         [vi("y", [4], T.INT32)], opset=13)


def main():
    os.makedirs(OUT, exist_ok=True)
    make_conv_bn_relu()
    make_batchnorm_alone()
    make_mini_mobilenet()
    make_lenet_like()
    make_softmax(11)
    make_softmax(13)
    make_softmax_nchw_channels()
    make_shape_subgraph()
    make_fold_static()
    make_misc_ops()
    make_se_block()
    make_gemm_variants()
    make_conv1d()
    make_nhwc_model()
    make_opset11_ops()
    make_gemm_bias()
    make_auto_pad_same()
    make_activations()
    make_error_models()
    make_window_op_error_models()
    make_layer_normalization()
    make_layer_norm_patterns()
    make_instance_group_norm()
    make_normalization_error_models()
    make_normalization_layouts()
    make_layer_norm_rsqrt()
    make_convres_models()
    make_dynamic_slicing()
    make_eltwise_math()
    make_eltwise_activations()
    make_reductions(11)
    make_reductions(13)
    make_arg_min_max()
    make_log_softmax(11)
    make_log_softmax(13)
    make_depth_space()
    make_eltwise_error_models()
    make_gelu_patterns()
    make_linear_bias_3d()
    make_gather_computed()
    make_lstm_models()
    make_gru_models()
    make_rnn_models()
    make_resize_cubic_models()
    make_celu()
    make_where_tile_computed()
    make_cast_computed()
    make_layer_norm_computed_params()
    make_comparisons_computed()
    make_idiom_reductions()
    make_idiom_rounding()
    make_idiom_cumsum_trilu()
    make_idiom_einsum()
    make_idiom_top_k()
    make_idiom_error_models()


if __name__ == "__main__":
    main()
