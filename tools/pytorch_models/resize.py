"""Bicubic resizing (F.interpolate / nn.Upsample mode "bicubic"): PyTorch exports ONNX
Resize mode cubic with cubic_coeff_a -0.75, align_corners True as coordinate transform
align_corners, False as half_pixel (opset 11+); both clamp taps to the edge
(exclude_outside 0)."""
from torch import nn

from pytorch_models import Model
from pytorch_models.convres import Interpolate, InterpolateTo


class Bicubic1dAs2d(nn.Module):
    """An audio-like [N, C, L] signal upsampled with bicubic on [N, C, 1, L] (PyTorch has
    no 1-D bicubic), between Conv1d layers."""

    def __init__(self):
        super().__init__()
        self.pre = nn.Conv1d(2, 4, 3, padding=1)
        self.up = nn.Upsample(scale_factor=(1, 2.5), mode="bicubic", align_corners=False)
        self.post = nn.Conv1d(4, 2, 3, padding=1)

    def forward(self, x):
        y = self.pre(x).relu().unsqueeze(2)
        return self.post(self.up(y).squeeze(2))


def upsample_bicubic():
    return Model(Interpolate(nn.Upsample(scale_factor=2, mode="bicubic", align_corners=False)), [[1, 3, 6, 5]],
                 opset=11)


def upsample_bicubic_align_corners():
    return Model(Interpolate(nn.Upsample(scale_factor=2, mode="bicubic", align_corners=True)), [[1, 3, 6, 5]],
                 opset=13)


def interpolate_bicubic_size():
    return Model(Interpolate(InterpolateTo(size=(11, 7), mode="bicubic", align_corners=False)), [[1, 3, 6, 5]],
                 opset=17)


def interpolate_bicubic_down_align_corners():
    return Model(Interpolate(InterpolateTo(scale_factor=0.6, mode="bicubic", align_corners=True)), [[1, 3, 9, 8]],
                 opset=13)


def upsample_bicubic_1d():
    return Model(Bicubic1dAs2d(), [[1, 2, 12]], opset=13)


MODELS = {
    "upsample_bicubic": upsample_bicubic,
    "upsample_bicubic_align_corners": upsample_bicubic_align_corners,
    "interpolate_bicubic_size": interpolate_bicubic_size,
    "interpolate_bicubic_down_align_corners": interpolate_bicubic_down_align_corners,
    "upsample_bicubic_1d": upsample_bicubic_1d,
}
