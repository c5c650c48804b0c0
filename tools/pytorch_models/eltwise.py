"""Elementwise math, activations, reductions and depth/space rearrangements (issue 18)."""
import torch
from torch import nn

from pytorch_models import Model


class AudioGelu(nn.Module):
    """1-D audio CNN: strided Conv1d front end on a raw waveform, exact GELU (Div/Erf/Add/
    Mul/Mul) and one tanh-approximated GELU, global average over time, a classifier."""

    def __init__(self, channels=16, classes=8):
        super().__init__()
        self.front = nn.Conv1d(1, channels, 9, stride=4, padding=4)
        self.body = nn.Conv1d(channels, channels, 5, padding=2, groups=4)
        self.mix = nn.Conv1d(channels, channels, 1)
        self.gelu = nn.GELU()
        self.gelu_tanh = nn.GELU(approximate="tanh")
        self.classifier = nn.Linear(channels, classes)

    def forward(self, x):
        x = self.gelu(self.front(x))
        x = self.gelu(self.body(x))
        x = self.gelu_tanh(self.mix(x))
        return self.classifier(x.mean(dim=2))


class ActivationsNet(nn.Module):
    """A small CNN + MLP with ELU (alpha 0.5), SELU, Hardswish and Softplus, ending in
    LogSoftmax."""

    def __init__(self, classes=6):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, stride=2, padding=1)
        self.conv2 = nn.Conv2d(8, 8, 3, padding=1)
        self.elu = nn.ELU(alpha=0.5)
        self.selu = nn.SELU()
        self.hardswish = nn.Hardswish()
        self.fc1 = nn.Linear(8 * 4 * 4, 24)
        self.softplus = nn.Softplus()
        self.fc2 = nn.Linear(24, classes)
        self.log_softmax = nn.LogSoftmax(dim=1)

    def forward(self, x):
        x = self.elu(self.conv1(x))
        x = self.hardswish(self.selu(self.conv2(x)))
        x = self.softplus(self.fc1(torch.flatten(x, 1)))
        return self.log_softmax(self.fc2(x))


class ReduceArgmax(nn.Module):
    """Elementwise torch.max / torch.min of two branches, sum and amax reductions, and the
    class index (argmax) beside the scores."""

    def __init__(self, classes=5):
        super().__init__()
        self.a = nn.Conv2d(2, 8, 3, padding=1)
        self.b = nn.Conv2d(2, 8, 3, padding=1)
        self.fc = nn.Linear(16, classes)

    def forward(self, x):
        a, b = self.a(x), self.b(x)
        hi = torch.max(a, b)
        lo = torch.min(a, torch.abs(b))
        pooled = torch.cat([hi.sum(dim=(2, 3)) / 64.0, torch.amax(lo, dim=(2, 3))], dim=1)
        scores = self.fc(pooled)
        return scores, torch.argmax(scores, dim=1)


class PixelShuffleNet(nn.Module):
    """Sub-pixel upsampling (PixelShuffle: DepthToSpace CRD) and its inverse
    (PixelUnshuffle: a 6-D Reshape/Transpose), between convolutions."""

    def __init__(self):
        super().__init__()
        self.up = nn.Conv2d(3, 16, 3, padding=1)
        self.shuffle = nn.PixelShuffle(2)
        self.mid = nn.Conv2d(4, 4, 3, padding=1)
        self.unshuffle = nn.PixelUnshuffle(2)
        self.out = nn.Conv2d(16, 6, 1)

    def forward(self, x):
        x = self.shuffle(torch.relu(self.up(x)))
        x = self.unshuffle(torch.relu(self.mid(x)))
        return self.out(x)


def audio_gelu():
    return Model(AudioGelu(), [[1, 1, 256]], opset=17)


def activations_mlp():
    return Model(ActivationsNet(), [[1, 1, 8, 8]], opset=11)


def reduce_argmax():
    return Model(ReduceArgmax(), [[1, 2, 8, 8]], opset=13, output_names=["scores", "label"])


def pixel_shuffle():
    return Model(PixelShuffleNet(), [[1, 3, 6, 6]], opset=17)


MODELS = {
    "audio_gelu": audio_gelu,
    "activations_mlp": activations_mlp,
    "reduce_argmax": reduce_argmax,
    "pixel_shuffle": pixel_shuffle,
}
