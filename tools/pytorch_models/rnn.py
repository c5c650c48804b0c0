"""Recurrent keyword spotters and sequence models (issue 18): nn.LSTM, nn.GRU and nn.RNN
over 49 frames of 10 MFCC features (or 3 sequences of 20 steps, time-major), as torch
exports them (the default zero initial state as an Expand, initial states given as model
inputs, batch_first Transposes, stacked and bidirectional layers; opsets 11, 13, 14 and
17)."""
import torch
from torch import nn

from pytorch_models import Model


class RecurrentSpotter(nn.Module):
    """A recurrent layer over [1, 49, 10] (batch_first) and a classifier on the last
    step's output (y[:, -1]); time_major: over x [T, B, I], PyTorch's default layout, and
    each sequence's last step (y[-1])."""

    def __init__(self, rnn, hidden, classes=12, time_major=False):
        super().__init__()
        self.rnn = rnn
        self.classifier = nn.Linear(hidden, classes)
        self.time_major = time_major

    def forward(self, x):
        y, _ = self.rnn(x)
        return self.classifier(y[-1] if self.time_major else y[:, -1])


def seeded(module, seed=11):
    """Deterministic weights, wide enough that the gates leave their linear range."""
    generator = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for p in module.parameters():
            p.copy_(torch.randn(p.shape, generator=generator) * 0.3)
    return module


def lstm_kws():
    return Model(seeded(RecurrentSpotter(nn.LSTM(10, 32, batch_first=True), 32)), [[1, 49, 10]], opset=13)


def gru_kws():
    return Model(seeded(RecurrentSpotter(nn.GRU(10, 32, batch_first=True), 32)), [[1, 49, 10]], opset=11)


def lstm_bidir2():
    lstm = nn.LSTM(10, 16, num_layers=2, bidirectional=True, batch_first=True)
    return Model(seeded(RecurrentSpotter(lstm, 32)), [[1, 49, 10]], opset=17)


def rnn_tanh():
    return Model(seeded(RecurrentSpotter(nn.RNN(10, 32, batch_first=True), 32)), [[1, 49, 10]], opset=13)


class StatefulSpotter(nn.Module):
    """A recurrent layer over [1, 49, 10] started from initial states given as model inputs
    (h0, and c0 for an LSTM: a streaming spotter's carried state) and a classifier on the
    last step's output."""

    def __init__(self, rnn, hidden, classes=12):
        super().__init__()
        self.rnn = rnn
        self.classifier = nn.Linear(hidden, classes)

    def forward(self, x, h0, c0=None):
        y, _ = self.rnn(x, h0 if c0 is None else (h0, c0))
        return self.classifier(y[:, -1])


def lstm_state_inputs():
    lstm = nn.LSTM(10, 16, num_layers=2, batch_first=True)
    return Model(seeded(StatefulSpotter(lstm, 16)), [[1, 49, 10], [2, 1, 16], [2, 1, 16]], opset=11,
                 input_names=["x", "h0", "c0"])


def gru_bidir_state_input():
    gru = nn.GRU(10, 16, bidirectional=True, batch_first=True)
    return Model(seeded(StatefulSpotter(gru, 32)), [[1, 49, 10], [2, 1, 16]], opset=14, input_names=["x", "h0"])


def lstm_batch3():
    lstm = nn.LSTM(8, 12, bidirectional=True)
    return Model(seeded(RecurrentSpotter(lstm, 24, classes=6, time_major=True)), [[20, 3, 8]], opset=14)


MODELS = {"lstm_kws": lstm_kws, "gru_kws": gru_kws, "lstm_bidir2": lstm_bidir2, "rnn_tanh": rnn_tanh,
          "lstm_state_inputs": lstm_state_inputs, "gru_bidir_state_input": gru_bidir_state_input, "lstm_batch3": lstm_batch3}
