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


MODELS = {
    "unet_convtranspose": unet_convtranspose,
    "decoder_convtranspose1d": decoder_convtranspose1d,
    "upsample_nearest": upsample_nearest,
    "upsample_bilinear_align_corners": upsample_bilinear_align_corners,
    "upsample_bilinear": upsample_bilinear,
    "interpolate_size": interpolate_size,
    "interpolate_nearest_size": interpolate_nearest_size,
}
