"""Models whose exports slice, split, gather and broadcast computed tensors (issue 18):
ShuffleNetV2 blocks (torch.chunk, channel shuffle), a hand-written transformer encoder
layer (attention's head split and merge) and a model exported with a symbolic batch axis
(x[:, :8], x[..., -1], expand)."""
import math

import torch
from torch import nn

from pytorch_models import Model
from pytorch_models.cnn import randomize_batch_norm


def channel_shuffle(x, groups):
    b, c, h, w = x.shape
    x = x.view(b, groups, c // groups, h, w).transpose(1, 2).contiguous()
    return x.view(b, c, h, w)


def conv_bn(cin, cout, kernel, stride=1, groups=1, relu=True):
    layers = [nn.Conv2d(cin, cout, kernel, stride, kernel // 2, groups=groups, bias=False), nn.BatchNorm2d(cout)]
    return layers + [nn.ReLU()] if relu else layers


class ShuffleUnit(nn.Module):
    """torchvision's InvertedResidual: stride 1 splits the channels in two (chunk) and
    transforms one half; stride 2 transforms both; the halves are concatenated and
    shuffled."""

    def __init__(self, cin, cout, stride):
        super().__init__()
        self.stride = stride
        half = cout // 2
        if stride > 1:
            self.branch1 = nn.Sequential(*conv_bn(cin, cin, 3, stride, cin, relu=False), *conv_bn(cin, half, 1))
            inner = cin
        else:
            self.branch1 = None
            inner = half
        self.branch2 = nn.Sequential(*conv_bn(inner, half, 1), *conv_bn(half, half, 3, stride, half, relu=False),
                                     *conv_bn(half, half, 1))

    def forward(self, x):
        if self.stride == 1:
            x1, x2 = x.chunk(2, dim=1)
            out = torch.cat((x1, self.branch2(x2)), dim=1)
        else:
            out = torch.cat((self.branch1(x), self.branch2(x)), dim=1)
        return channel_shuffle(out, 2)


class ShuffleNetV2Tiny(nn.Module):
    def __init__(self, classes=10):
        super().__init__()
        self.stem = nn.Sequential(*conv_bn(3, 16, 3, 2))
        self.stages = nn.Sequential(ShuffleUnit(16, 32, 2), ShuffleUnit(32, 32, 1), ShuffleUnit(32, 32, 1),
                                    ShuffleUnit(32, 64, 2), ShuffleUnit(64, 64, 1))
        self.classifier = nn.Linear(64, classes)

    def forward(self, x):
        x = self.stages(self.stem(x))
        return self.classifier(x.mean(dim=(2, 3)))


class EncoderLayer(nn.Module):
    """A transformer encoder layer written out: q/k/v projections, heads split with
    view/transpose, scaled dot products (MatMul of two computed tensors), softmax, heads
    merged, output projection, residuals and a ReLU feed-forward; the last token's
    features classified (y[:, -1])."""

    def __init__(self, dim=16, heads=2, hidden=32, classes=6):
        super().__init__()
        self.heads = heads
        self.q = nn.Linear(dim, dim)
        self.k = nn.Linear(dim, dim)
        self.v = nn.Linear(dim, dim)
        self.out = nn.Linear(dim, dim)
        self.ff = nn.Sequential(nn.Linear(dim, hidden), nn.ReLU(), nn.Linear(hidden, dim))
        self.classifier = nn.Linear(dim, classes)

    def split_heads(self, t):
        b, n, d = t.shape
        return t.view(b, n, self.heads, d // self.heads).transpose(1, 2)

    def forward(self, x):
        b, n, d = x.shape
        q, k, v = self.split_heads(self.q(x)), self.split_heads(self.k(x)), self.split_heads(self.v(x))
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(d // self.heads)
        attended = torch.matmul(torch.softmax(scores, dim=-1), v)
        merged = attended.transpose(1, 2).reshape(b, n, d)
        x = x + self.out(merged)
        x = x + self.ff(x)
        return self.classifier(x[:, -1])


class DynamicBatchGlu(nn.Module):
    """Exported with a symbolic batch axis: a 1-D conv whose channels are split by slicing
    (x[:, :8], x[:, 8:]) into a gated linear unit, a time-mean broadcast back with expand
    and the last time step (x[..., -1]) classified."""

    def __init__(self, classes=5):
        super().__init__()
        self.conv = nn.Conv1d(12, 16, 5, padding=2)
        self.classifier = nn.Linear(8, classes)

    def forward(self, x):
        h = self.conv(x)
        a, gate = h[:, :8], h[:, 8:]
        g = a * torch.sigmoid(gate)
        centred = g - g.mean(dim=2, keepdim=True).expand(-1, -1, g.shape[2])
        return self.classifier(centred[..., -1])


def shufflenet_v2_tiny():
    return Model(randomize_batch_norm(ShuffleNetV2Tiny()), [[1, 3, 32, 32]], opset=11)


def tiny_encoder():
    return Model(EncoderLayer(), [[1, 8, 16]], opset=13)


def dynamic_batch_glu():
    return Model(DynamicBatchGlu(), [[1, 12, 20]], opset=17,
                 dynamic_axes={"x": {0: "batch"}, "y": {0: "batch"}})


MODELS = {"shufflenet_v2_tiny": shufflenet_v2_tiny, "tiny_encoder": tiny_encoder,
          "dynamic_batch_glu": dynamic_batch_glu}
