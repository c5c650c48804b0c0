"""Attention and embedding models (issue 18): an embedding lookup over int64 token ids
(Gather at computed indices on a constant table) and Linear layers on 3-D inputs
(MatMul + Add of the bias, fused into fully_connected)."""
import torch
from torch import nn

from pytorch_models import Model


class TextClassifier(nn.Module):
    """A bag-of-embeddings text classifier: nn.Embedding over 12 token ids, the mean over
    the tokens, a Linear classifier."""

    def __init__(self, vocabulary=100, dim=16, classes=5):
        super().__init__()
        self.embedding = nn.Embedding(vocabulary, dim)
        self.classifier = nn.Linear(dim, classes)

    def forward(self, ids):
        return self.classifier(self.embedding(ids).mean(dim=1))


def embedding_classifier():
    return Model(TextClassifier(), [[1, 12]], opset=11, input_names=["ids"], input_ranges=[(0, 100)])


MODELS = {
    "embedding_classifier": embedding_classifier,
}
