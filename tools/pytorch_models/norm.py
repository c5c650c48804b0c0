"""Normalization layers: LayerNorm in a transformer-style block (exported at opset 13,
where torch writes the ReduceMean/Sub/Pow/Sqrt/Div decomposition, and at opset 17, where
it writes LayerNormalization), InstanceNorm2d and GroupNorm in small CNNs (2-D, and 1-D
with InstanceNorm1d), and a normalization written by hand."""
import torch
from torch import nn

from pytorch_models import Model


class MlpBlock(nn.Module):
    """A pre-norm transformer MLP block on 8 tokens of 16 features: x + MLP(LayerNorm(x)),
    a final LayerNorm and a classifier over the mean token."""

    def __init__(self, features=16, hidden=32, classes=4, affine=True):
        super().__init__()
        self.norm1 = nn.LayerNorm(features, elementwise_affine=affine)
        self.mlp = nn.Sequential(nn.Linear(features, hidden), nn.ReLU(), nn.Linear(hidden, features))
        self.norm2 = nn.LayerNorm(features, elementwise_affine=affine)
        self.head = nn.Linear(features, classes)

    def forward(self, x):
        x = x + self.mlp(self.norm1(x))
        return self.head(self.norm2(x).mean(dim=1))


class NormCnn(nn.Module):
    """Conv -> norm -> ReLU twice, global average pooling and a classifier."""

    def __init__(self, norm1, norm2, channels=16, classes=5):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(1, channels, 3, padding=1), norm1, nn.ReLU(),
                                      nn.Conv2d(channels, channels, 3, stride=2, padding=1), norm2, nn.ReLU())
        self.classifier = nn.Linear(channels, classes)

    def forward(self, x):
        return self.classifier(self.features(x).mean(dim=(2, 3)))


class HandNorm(nn.Module):
    """(x - mean) / sqrt(var + eps) written out, once with ((x - m) ** 2).mean(), once
    with torch.var(unbiased=False) and once as (x - m) * torch.rsqrt(var + eps), between
    linear layers."""

    def __init__(self, features=12):
        super().__init__()
        self.fc1 = nn.Linear(features, features)
        self.fc2 = nn.Linear(features, features)
        self.gain = nn.Parameter(torch.rand(features) + 0.5)

    def forward(self, x):
        m = x.mean(dim=-1, keepdim=True)
        x = (x - m) / torch.sqrt(((x - m) ** 2).mean(dim=-1, keepdim=True) + 1e-5)
        x = self.fc1(x) * self.gain
        x = (x - x.mean(dim=-1, keepdim=True)) / torch.sqrt(x.var(dim=-1, keepdim=True, unbiased=False) + 1e-6)
        d = self.fc2(x)
        d = d - d.mean(dim=-1, keepdim=True)
        return d * torch.rsqrt(d.pow(2).mean(dim=-1, keepdim=True) + 1e-5)


class NormConv1d(nn.Module):
    """A 1-D audio CNN on 8 x 40 features: Conv1d -> GroupNorm(4, 16) -> ReLU -> Conv1d ->
    InstanceNorm1d(affine) -> ReLU, mean over time, a classifier."""

    def __init__(self, channels=16, classes=6):
        super().__init__()
        self.features = nn.Sequential(nn.Conv1d(8, channels, 5, padding=2), nn.GroupNorm(4, channels), nn.ReLU(),
                                      nn.Conv1d(channels, channels, 3, stride=2), nn.InstanceNorm1d(channels, affine=True),
                                      nn.ReLU())
        self.classifier = nn.Linear(channels, classes)

    def forward(self, x):
        return self.classifier(self.features(x).mean(dim=2))


def randomize_affine(module):
    """Non-trivial scales and shifts (PyTorch starts them at ones and zeros)."""
    generator = torch.Generator().manual_seed(18)
    for m in module.modules():
        if isinstance(m, (nn.LayerNorm, nn.GroupNorm, nn.InstanceNorm1d, nn.InstanceNorm2d)) and m.weight is not None:
            m.weight.data.copy_(torch.rand(m.weight.shape, generator=generator) + 0.5)
            m.bias.data.copy_(torch.randn(m.bias.shape, generator=generator) * 0.2)
    return module


def layernorm_mlp(opset):
    return lambda: Model(randomize_affine(MlpBlock()), [[1, 8, 16]], opset=opset)


def layernorm_no_affine_op17():
    # torch 1.13 writes LayerNormalization with an empty scale input (and its check raises).
    return Model(MlpBlock(affine=False), [[1, 8, 16]], opset=17, exporter_check_fails=True)


def instancenorm_cnn():
    norms = [nn.InstanceNorm2d(16, affine=True), nn.InstanceNorm2d(16, affine=True)]
    return Model(randomize_affine(NormCnn(*norms)), [[1, 1, 12, 12]], opset=11)


def groupnorm_cnn():
    return Model(randomize_affine(NormCnn(nn.GroupNorm(4, 16), nn.GroupNorm(4, 16))), [[1, 1, 12, 12]], opset=13)


def norm_conv1d():
    return Model(randomize_affine(NormConv1d()), [[1, 8, 40]], opset=11)


def handnorm_mlp():
    return Model(HandNorm(), [[1, 6, 12]], opset=13)


MODELS = {
    "layernorm_mlp_op13": layernorm_mlp(13),
    "layernorm_mlp_op17": layernorm_mlp(17),
    "layernorm_no_affine_op17": layernorm_no_affine_op17,
    "instancenorm_cnn": instancenorm_cnn,
    "groupnorm_cnn": groupnorm_cnn,
    "handnorm_mlp": handnorm_mlp,
    "norm_conv1d": norm_conv1d,
}
