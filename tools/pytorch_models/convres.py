"""Decoders: transposed convolutions (ConvTranspose1d/2d) and resizing (nn.Upsample,
F.interpolate), the upsampling halves of U-Nets and autoencoders."""
import torch
from torch import nn
from torch.nn import functional as F

from pytorch_models import Model


class TinyUNet(nn.Module):
    """A two-level U-Net: strided Conv2d down, ConvTranspose2d up (output_padding restores
    the odd size), the skip concatenated, a 1x1 head."""

    def __init__(self, channels=8):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(1, channels, 3, padding=1), nn.ReLU())
        self.down = nn.Sequential(nn.Conv2d(channels, 2 * channels, 3, stride=2, padding=1), nn.ReLU())
        self.mid = nn.Sequential(nn.Conv2d(2 * channels, 2 * channels, 3, padding=1), nn.ReLU())
        self.up = nn.ConvTranspose2d(2 * channels, channels, 3, stride=2, padding=1, output_padding=(1, 0))
        self.dec = nn.Sequential(nn.Conv2d(2 * channels, channels, 3, padding=1), nn.ReLU())
        self.head = nn.Conv2d(channels, 2, 1)

    def forward(self, x):
        skip = self.enc(x)
        y = self.mid(self.down(skip))
        y = F.relu(self.up(y))
        return self.head(self.dec(torch.cat([y, skip], dim=1)))


class Decoder1d(nn.Module):
    """A 1-D decoder: grouped, dilated ConvTranspose1d layers (groups=2, dilation 2), one
    without bias, over a [N, C, L] sequence."""

    def __init__(self):
        super().__init__()
        self.up1 = nn.ConvTranspose1d(8, 8, 4, stride=2, padding=1, groups=2, dilation=2)
        self.up2 = nn.ConvTranspose1d(8, 4, 3, stride=2, padding=2, output_padding=1, dilation=2, bias=False)
        self.out = nn.ConvTranspose1d(4, 2, 5, stride=1, padding=2, groups=2)

    def forward(self, x):
        x = torch.tanh(self.up1(x))
        x = F.relu(self.up2(x))
        return self.out(x)


class Interpolate(nn.Module):
    """A conv, then resizing as nn.Upsample / F.interpolate export it, then a conv."""

    def __init__(self, resize):
        super().__init__()
        self.pre = nn.Conv2d(3, 4, 3, padding=1)
        self.resize = resize
        self.post = nn.Conv2d(4, 2, 3, padding=1)

    def forward(self, x):
        return self.post(self.resize(torch.relu(self.pre(x))))


class InterpolateTo(nn.Module):
    def __init__(self, **kwargs):
        super().__init__()
        self.kwargs = kwargs

    def forward(self, x):
        return F.interpolate(x, **self.kwargs)


class GroupedUp2d(nn.Module):
    """ConvTranspose2d with every extra PyTorch has: groups, dilation, asymmetric stride and
    padding, output_padding; then a depthwise-like one (groups = in channels)."""

    def __init__(self):
        super().__init__()
        self.up = nn.ConvTranspose2d(6, 4, (3, 2), stride=(2, 3), padding=(1, 0), output_padding=(1, 2),
                                     groups=2, dilation=(2, 1))
        self.dw = nn.ConvTranspose2d(4, 8, 2, stride=2, groups=4)

    def forward(self, x):
        return self.dw(torch.relu(self.up(x)))


class Linear1d(nn.Module):
    """A 1-D signal upsampled linearly (nn.Upsample on [N, C, L]) between Conv1d layers."""

    def __init__(self):
        super().__init__()
        self.pre = nn.Conv1d(2, 4, 3, padding=1)
        self.up = nn.Upsample(scale_factor=3, mode="linear", align_corners=False)
        self.post = nn.Conv1d(4, 2, 3, padding=1)

    def forward(self, x):
        return self.post(self.up(torch.relu(self.pre(x))))


def unet_convtranspose():
    return Model(TinyUNet(), [[1, 1, 12, 11]], opset=13)


def decoder_convtranspose1d():
    return Model(Decoder1d(), [[1, 8, 10]], opset=11)


def upsample_nearest():
    return Model(Interpolate(nn.Upsample(scale_factor=2, mode="nearest")), [[1, 3, 6, 5]], opset=11)


def upsample_bilinear_align_corners():
    return Model(Interpolate(nn.Upsample(scale_factor=2, mode="bilinear", align_corners=True)), [[1, 3, 6, 5]],
                 opset=13)


def upsample_bilinear():
    return Model(Interpolate(nn.Upsample(scale_factor=2, mode="bilinear", align_corners=False)), [[1, 3, 6, 5]],
                 opset=17)


def interpolate_size():
    return Model(Interpolate(InterpolateTo(size=(9, 13), mode="bilinear", align_corners=False)), [[1, 3, 6, 5]],
                 opset=13)


def interpolate_nearest_size():
    return Model(Interpolate(InterpolateTo(size=(10, 7), mode="nearest")), [[1, 3, 6, 5]], opset=11)


def convtranspose2d_grouped():
    return Model(GroupedUp2d(), [[1, 6, 5, 4]], opset=17)


def upsample_linear_1d():
    return Model(Linear1d(), [[1, 2, 12]], opset=13)


def interpolate_bilinear_down():
    return Model(Interpolate(InterpolateTo(scale_factor=0.7, mode="bilinear", align_corners=False)), [[1, 3, 9, 8]],
                 opset=11)


MODELS = {
    "unet_convtranspose": unet_convtranspose,
    "decoder_convtranspose1d": decoder_convtranspose1d,
    "upsample_nearest": upsample_nearest,
    "upsample_bilinear_align_corners": upsample_bilinear_align_corners,
    "upsample_bilinear": upsample_bilinear,
    "interpolate_size": interpolate_size,
    "interpolate_nearest_size": interpolate_nearest_size,
    "convtranspose2d_grouped": convtranspose2d_grouped,
    "upsample_linear_1d": upsample_linear_1d,
    "interpolate_bilinear_down": interpolate_bilinear_down,
}
