"""Convolutional keyword-spotting and image models."""
import torch
from torch import nn

from pytorch_models import Model


class DsCnn(nn.Module):
    """DS-CNN (Zhang et al., "Hello Edge"): a conv, depthwise-separable blocks with batch
    norm, average pooling and a classifier, on a 49x10 MFCC map."""

    def __init__(self, channels=32, blocks=3, classes=12):
        super().__init__()
        layers = [nn.Conv2d(1, channels, (10, 4), stride=(2, 2), padding=(5, 1)), nn.BatchNorm2d(channels), nn.ReLU()]
        for _ in range(blocks):
            layers += [nn.Conv2d(channels, channels, 3, padding=1, groups=channels), nn.BatchNorm2d(channels), nn.ReLU(),
                       nn.Conv2d(channels, channels, 1), nn.BatchNorm2d(channels), nn.ReLU()]
        self.features = nn.Sequential(*layers)
        self.classifier = nn.Linear(channels, classes)

    def forward(self, x):
        x = self.features(x)
        x = torch.mean(x, dim=(2, 3))
        return self.classifier(x)


def randomize_batch_norm(module):
    """Non-trivial running statistics, so the exported batch norms are not identities."""
    generator = torch.Generator().manual_seed(7)
    for m in module.modules():
        if isinstance(m, (nn.BatchNorm1d, nn.BatchNorm2d)):
            m.running_mean.copy_(torch.randn(m.num_features, generator=generator) * 0.1)
            m.running_var.copy_(torch.rand(m.num_features, generator=generator) + 0.5)
            m.weight.data.copy_(torch.rand(m.num_features, generator=generator) + 0.5)
            m.bias.data.copy_(torch.randn(m.num_features, generator=generator) * 0.1)
    return module


def spread_weights(module, seed):
    """Conv and linear weights drawn so that the signal neither vanishes nor saturates
    through the layers (default initialisation leaves these small nets' outputs nearly
    input-independent, and a golden that ignores its input tests nothing), small biases;
    batch norms with non-trivial statistics."""
    generator = torch.Generator().manual_seed(seed)
    for m in module.modules():
        if isinstance(m, (nn.Conv1d, nn.Conv2d, nn.Linear)):
            fan_in = m.weight[0].numel()
            m.weight.data.copy_(torch.randn(m.weight.shape, generator=generator) * (1.5 / fan_in) ** 0.5)
            if m.bias is not None:
                m.bias.data.copy_(torch.randn(m.bias.shape, generator=generator) * 0.1)
    return randomize_batch_norm(module)


def ds_cnn():
    return Model(spread_weights(DsCnn(), 10), [[1, 1, 49, 10]])


MODELS = {"ds_cnn": ds_cnn}
