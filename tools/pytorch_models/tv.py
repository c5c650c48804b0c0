"""Reduced torchvision classification models, for what the torchvision sweep
(tools/sweep_torchvision.py) found broken: each builder imports torchvision inside the
function, so the export script runs without it for every other family.

tv_squeezenet_ceil: SqueezeNet 1.0's shape reduced (torchvision's Fire modules), its
ceil_mode max pools (the int8 path ran them as float32), and a ceil_mode average pool
with count_include_pad off, on a 1x3x33x33 input whose sizes leave partial last windows."""
import torch
from torch import nn

from pytorch_models import Model
from pytorch_models.cnn import spread_weights


class SqueezeCeil(nn.Module):
    def __init__(self, classes=6):
        from torchvision.models.squeezenet import Fire
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 3, stride=2), nn.ReLU(inplace=True),
            nn.MaxPool2d(3, 2, ceil_mode=True),
            Fire(16, 8, 16, 16),
            nn.MaxPool2d(3, 2, ceil_mode=True, padding=1),
            Fire(32, 8, 16, 16),
            nn.AvgPool2d(2, 2, ceil_mode=True, count_include_pad=False))
        self.classifier = nn.Sequential(nn.Conv2d(32, classes, 1), nn.ReLU(inplace=True), nn.AdaptiveAvgPool2d(1))

    def forward(self, x):
        return torch.flatten(self.classifier(self.features(x)), 1)


def tv_squeezenet_ceil():
    return Model(spread_weights(SqueezeCeil(), 21), [[1, 3, 33, 33]], opset=13)


MODELS = {"tv_squeezenet_ceil": tv_squeezenet_ceil}
