"""Attention and embedding models (issue 18): an embedding lookup over int64 token ids
(Gather at computed indices on a constant table), and a tiny text transformer adding
attention's MatMuls of two computed tensors (batch_matmul, int8 through --quantize) and
Linear layers on 3-D inputs (MatMul + Add of the bias, one fully_connected)."""
import torch
from torch import nn

from pytorch_models import Model
from pytorch_models.dynamic import EncoderLayer


class TextClassifier(nn.Module):
    """A bag-of-embeddings text classifier: nn.Embedding over 12 token ids, the mean over
    the tokens, a Linear classifier."""

    def __init__(self, vocabulary=100, dim=16, classes=5):
        super().__init__()
        self.embedding = nn.Embedding(vocabulary, dim)
        self.classifier = nn.Linear(dim, classes)

    def forward(self, ids):
        return self.classifier(self.embedding(ids).mean(dim=1))


class TinyTextTransformer(nn.Module):
    """Token embeddings plus learned positions, one hand-written encoder layer (attention's
    MatMuls of computed tensors, Linear layers on 3-D inputs) classifying the last token."""

    def __init__(self, vocabulary=100, tokens=12, dim=16, classes=4):
        super().__init__()
        self.embedding = nn.Embedding(vocabulary, dim)
        self.position = nn.Parameter(torch.randn(1, tokens, dim) * 0.5)
        self.encoder = EncoderLayer(dim=dim, heads=2, hidden=32, classes=classes)

    def forward(self, ids):
        return self.encoder(self.embedding(ids) + self.position)


def embedding_classifier():
    return Model(TextClassifier(), [[1, 12]], opset=11, input_names=["ids"], input_ranges=[(0, 100)])


def text_transformer():
    return Model(TinyTextTransformer(), [[1, 12]], opset=17, input_names=["ids"], input_ranges=[(0, 100)])


MODELS = {
    "embedding_classifier": embedding_classifier,
    "text_transformer": text_transformer,
}
