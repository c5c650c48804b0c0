"""PyTorch idioms small-model authors write (issue 18; tools/sweep_pytorch_idioms.py sweeps
them one by one): each model here strings several together between trained-looking layers,
so that the goldens depend on the input."""
import torch
import torch.nn.functional as F
from torch import nn

from pytorch_models import Model
from pytorch_models.cnn import spread_weights


class TcnStats(nn.Module):
    """The input's frames repeated (repeat_interleave: a Split of constant repeat counts;
    of a layer's output PyTorch exports a Loop over sequences instead, which Mote refuses),
    a causal dilated TCN (left F.pad + Conv1d dilation 2) over [N, C, T], a running sum
    (cumsum), a running mean divided by torch.arange + 1, then F.normalize over channels,
    the L1 norm, the std over time, logsumexp pooling and torch.sign / remainder / fmod
    features, concatenated for a classifier (opset 13)."""

    def __init__(self, channels=8, classes=5):
        super().__init__()
        self.conv = nn.Conv1d(3, channels, 3, dilation=2)
        self.mix = nn.Conv1d(channels, channels, 1)
        self.classifier = nn.Linear(4 * channels + 2, classes)

    def forward(self, x):
        x = torch.repeat_interleave(x, 2, dim=2)
        y = self.mix(self.conv(F.pad(x, (4, 0))).relu())
        running = torch.cumsum(y, dim=2) / torch.arange(1, y.shape[2] + 1, dtype=torch.float32)
        unit = F.normalize(running, dim=1)
        features = [unit.mean(dim=2), y.norm(p=1, dim=2) / y.shape[2], y.std(dim=2), torch.logsumexp(y, dim=2),
                    torch.sign(y).mean(dim=(1, 2)).unsqueeze(1),
                    (torch.remainder(y, 0.5) - torch.fmod(y, 0.5)).mean(dim=(1, 2)).unsqueeze(1)]
        return self.classifier(torch.cat(features, dim=1))


class CausalEinsumAttention(nn.Module):
    """Single-head causal self-attention written with torch.einsum ('btc,oc->bto'
    projections, 'bqd,bkd->bqk' scores, 'bqk,bkd->bqd' mixing) and a torch.triu mask
    through masked_fill (Trilu: opset 14+; opset 17), over [N, T, C] frames."""

    def __init__(self, dim=12, classes=4):
        super().__init__()
        self.q = nn.Linear(dim, dim)
        self.k = nn.Linear(dim, dim)
        self.v = nn.Linear(dim, dim)
        self.out = nn.Linear(dim, classes)

    def forward(self, x):
        q = torch.einsum("btc,oc->bto", x, self.q.weight) + self.q.bias
        k = torch.einsum("btc,oc->bto", x, self.k.weight) + self.k.bias
        v = self.v(x)
        scores = torch.einsum("bqd,bkd->bqk", q, k) / q.shape[-1] ** 0.5
        mask = torch.triu(torch.ones(x.shape[1], x.shape[1]), diagonal=1) > 0
        attention = scores.masked_fill(mask, float("-inf")).softmax(dim=-1)
        mixed = torch.einsum("bqk,bkd->bqd", attention, v)
        return self.out(mixed + x)


class ResizeRound(nn.Module):
    """F.interpolate bilinear with a non-integer scale and recompute_scale_factor (the
    output size Floor(in * scale) folds on import) between convolutions, then floor and
    round of the features quantized to a grid of 0.25 (opset 13)."""

    def __init__(self):
        super().__init__()
        self.pre = nn.Conv2d(2, 4, 3, padding=1)
        self.post = nn.Conv2d(4, 3, 3, padding=1)

    def forward(self, x):
        y = F.interpolate(self.pre(x), scale_factor=1.7, mode="bilinear", align_corners=False,
                          recompute_scale_factor=True)
        y = self.post(y)
        return y + torch.floor(y * 4) / 8 + torch.round(y * 2) / 4


class TopKPooling(nn.Module):
    """A keyword-spotting style Conv1d front end pooled by torch.topk over time (the mean
    of the 3 largest activations per channel), torch.sort of the channel scores
    (descending) and a product of sigmoid gates (torch.prod over a dim), for a classifier
    (opset 11)."""

    def __init__(self, channels=6, classes=4):
        super().__init__()
        self.conv = nn.Conv1d(2, channels, 3, padding=1)
        self.gate = nn.Conv1d(channels, 2, 1)
        self.classifier = nn.Linear(2 * channels + 2, classes)

    def forward(self, x):
        y = self.conv(x).relu()
        pooled = torch.topk(y, 3, dim=2).values.mean(dim=2)
        ranked, _ = torch.sort(pooled, dim=1, descending=True)
        gates = torch.prod(torch.sigmoid(self.gate(y)), dim=2)
        return self.classifier(torch.cat([pooled, ranked, gates], dim=1))


class IntegerCounts(nn.Module):
    """Integer data computed from the activations, the way PyTorch writes counts: the
    number of positive activations per channel ((h > 0).sum(2), an int64 ReduceSum of a
    bool Cast), int64 arithmetic on such counts (count * 2 - (h < -0.25).sum(2)), and both
    turned into float features for a classifier (opset 13)."""

    def __init__(self, channels=8, classes=5):
        super().__init__()
        self.conv = nn.Conv1d(3, channels, 3, padding=1)
        self.classifier = nn.Linear(3 * channels, classes)

    def forward(self, x):
        h = self.conv(x).relu() - 0.5
        count = (h > 0).sum(2)
        score = count * 2 - (h < -0.25).sum(2)
        return self.classifier(torch.cat([h.mean(dim=2), count.float() / 32.0, score.float() / 64.0], dim=1))


class ArgmaxFeature(nn.Module):
    """The winning channel per pixel (argmax over channels, int64) cast to float and
    averaged as a feature beside the pooled activations (opset 13)."""

    def __init__(self, channels=6, classes=4):
        super().__init__()
        self.conv = nn.Conv2d(3, channels, 3, padding=1)
        self.classifier = nn.Linear(channels + 1, classes)

    def forward(self, x):
        h = self.conv(x)
        winner = h.argmax(dim=1)
        position = winner.float().mean(dim=(1, 2)).unsqueeze(1) / 5.0
        return self.classifier(torch.cat([h.mean(dim=(2, 3)), position], dim=1))


def integer_counts():
    return Model(spread_weights(IntegerCounts(), 35), [[1, 3, 32]], opset=13)


def argmax_feature():
    return Model(spread_weights(ArgmaxFeature(), 36), [[1, 3, 8, 8]], opset=13)


def tcn_stats():
    return Model(spread_weights(TcnStats(), 31), [[1, 3, 12]], opset=13)


def causal_einsum_attention():
    return Model(spread_weights(CausalEinsumAttention(), 32), [[1, 6, 12]], opset=17)


def resize_round():
    return Model(spread_weights(ResizeRound(), 33), [[1, 2, 5, 5]], opset=13)


def top_k_pooling():
    return Model(spread_weights(TopKPooling(), 34), [[1, 2, 10]], opset=11)


MODELS = {"top_k_pooling": top_k_pooling, "tcn_stats": tcn_stats, "causal_einsum_attention": causal_einsum_attention,
          "resize_round": resize_round, "integer_counts": integer_counts, "argmax_feature": argmax_feature}
