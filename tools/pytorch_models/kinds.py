"""The remaining model kinds issue 18 names: an anomaly-detection autoencoder, padding
modes (reflect, replicate, constant), grouped and dilated convolutions with PReLU."""
import torch
from torch import nn
from torch.nn import functional as F

from pytorch_models import Model
from pytorch_models.cnn import spread_weights


class AnomalyAutoencoder(nn.Module):
    """The MLPerf Tiny anomaly-detection shape, reduced: dense encoder and decoder with
    batch norm and ReLU around an 8-wide bottleneck, reconstructing 5 stacked 32-bin
    log-mel frames (the anomaly score is the reconstruction error, computed outside)."""

    def __init__(self, inputs=160, hidden=64, bottleneck=8):
        super().__init__()

        def block(a, b):
            return [nn.Linear(a, b), nn.BatchNorm1d(b), nn.ReLU()]

        self.net = nn.Sequential(*block(inputs, hidden), *block(hidden, hidden), *block(hidden, bottleneck),
                                 *block(bottleneck, hidden), *block(hidden, hidden), nn.Linear(hidden, inputs))

    def forward(self, x):
        return self.net(x)


class PaddingModes(nn.Module):
    """Reflect, replicate and constant padding (nn.ReflectionPad2d, nn.ReplicationPad2d with
    uneven sides, F.pad reflect and constant 0.5) between convolutions, per-channel PReLU."""

    def __init__(self, classes=5):
        super().__init__()
        self.reflect = nn.ReflectionPad2d(2)
        self.conv1 = nn.Conv2d(3, 8, 5)
        self.prelu = nn.PReLU(8)
        self.replicate = nn.ReplicationPad2d((1, 2, 0, 1))
        self.conv2 = nn.Conv2d(8, 8, 3, stride=2)
        self.conv3 = nn.Conv2d(8, 8, 3)
        self.fc = nn.Linear(8, classes)

    def forward(self, x):
        x = self.prelu(self.conv1(self.reflect(x)))
        x = F.relu(self.conv2(self.replicate(x)))
        x = F.pad(x, (1, 1, 1, 1), mode="reflect")
        x = F.pad(torch.tanh(self.conv3(x)), (0, 1, 1, 0), value=0.5)
        return self.fc(x.mean(dim=(2, 3)))


class ReflectPad1d(nn.Module):
    """A 1-D signal model: nn.ReflectionPad1d and nn.ReplicationPad1d before Conv1d."""

    def __init__(self, classes=4):
        super().__init__()
        self.conv1 = nn.Conv1d(2, 8, 7, stride=2)
        self.conv2 = nn.Conv1d(8, 8, 3)
        self.reflect = nn.ReflectionPad1d(3)
        self.replicate = nn.ReplicationPad1d((2, 0))
        self.fc = nn.Linear(8, classes)

    def forward(self, x):
        x = F.relu(self.conv1(self.reflect(x)))
        x = F.relu(self.conv2(self.replicate(x)))
        return self.fc(x.amax(dim=2))


class GroupedDilated(nn.Module):
    """Grouped and dilated Conv2d (groups 4 with dilation 2; groups 2 with dilation (1, 3)
    and stride 2; a dilated depthwise), PReLU with one shared slope, ELU, Hardswish, and a
    LogSoftmax classifier."""

    def __init__(self, classes=6):
        super().__init__()
        self.stem = nn.Conv2d(4, 16, 3, padding=1)
        self.grouped = nn.Conv2d(16, 16, 3, padding=2, dilation=2, groups=4)
        self.prelu = nn.PReLU()
        self.strided = nn.Conv2d(16, 8, 3, stride=2, padding=(1, 3), dilation=(1, 3), groups=2)
        self.depthwise = nn.Conv2d(8, 8, 3, padding=2, dilation=2, groups=8)
        self.fc = nn.Linear(8, classes)

    def forward(self, x):
        x = F.elu(self.stem(x))
        x = self.prelu(self.grouped(x))
        x = F.hardswish(self.strided(x))
        x = F.relu(self.depthwise(x))
        return F.log_softmax(self.fc(x.mean(dim=(2, 3))), dim=1)


def anomaly_autoencoder():
    return Model(spread_weights(AnomalyAutoencoder(), 11), [[1, 160]], opset=13)


def padding_modes():
    return Model(spread_weights(PaddingModes(), 12), [[1, 3, 16, 16]], opset=11)


def reflect_pad_1d():
    return Model(spread_weights(ReflectPad1d(), 13), [[1, 2, 64]], opset=17)


def grouped_dilated():
    return Model(spread_weights(GroupedDilated(), 14), [[1, 4, 12, 12]], opset=13)


MODELS = {
    "anomaly_autoencoder": anomaly_autoencoder,
    "padding_modes": padding_modes,
    "reflect_pad_1d": reflect_pad_1d,
    "grouped_dilated": grouped_dilated,
}
