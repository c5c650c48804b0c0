"""The library model kinds users bring (issue 18): torch.nn.MultiheadAttention (both batch
layouts, with and without masks, a padding mask computed from token ids, kdim/vdim with
add_bias_kv and add_zero_attn), nn.TransformerEncoderLayer (post- and pre-norm, ReLU
and GELU), a causal two-layer nn.TransformerEncoder, nn.TransformerDecoderLayer, a tiny
ViT, a reduced EfficientNet (MBConv with SiLU squeeze-excite) and a reduced
MobileNetV3-small (Hardswish, Hardsigmoid squeeze-excite, 3x3 and 5x5 depthwise), and a
1-D audio CNN with CELU."""
import torch
from torch import nn

from pytorch_models import Model
from pytorch_models.cnn import randomize_batch_norm


class AttentionClassifier(nn.Module):
    """nn.MultiheadAttention as self-attention over a token sequence (need_weights False),
    the mean over tokens classified. Masks are fixed buffers (a static export): a causal
    boolean attn_mask or an additive float one, and a key_padding_mask hiding the last
    tokens."""

    def __init__(self, dim=16, heads=2, tokens=8, classes=4, batch_first=True, mask=None, padding=False):
        super().__init__()
        self.batch_first = batch_first
        self.attention = nn.MultiheadAttention(dim, heads, batch_first=batch_first)
        self.classifier = nn.Linear(dim, classes)
        causal = torch.triu(torch.ones(tokens, tokens, dtype=torch.bool), diagonal=1)
        if mask == "bool":
            self.register_buffer("attn_mask", causal)
        elif mask == "float":
            self.register_buffer("attn_mask", torch.zeros(tokens, tokens).masked_fill(causal, float("-inf")))
        else:
            self.attn_mask = None
        if padding:
            hidden = torch.zeros(1, tokens, dtype=torch.bool)
            hidden[:, tokens - 2:] = True
            self.register_buffer("key_padding_mask", hidden)
        else:
            self.key_padding_mask = None

    def forward(self, x):
        y, _ = self.attention(x, x, x, need_weights=False, attn_mask=self.attn_mask,
                              key_padding_mask=self.key_padding_mask)
        return self.classifier(y.mean(dim=1 if self.batch_first else 0))


class CrossAttention(nn.Module):
    """nn.MultiheadAttention with kdim/vdim other than embed_dim (separate q/k/v projection
    weights), add_bias_kv (a learned key and value appended: Tile over the batch) and
    add_zero_attn, a query sequence attending to a memory of keys and values."""

    def __init__(self, dim=16, heads=4, kdim=8, vdim=12, classes=4):
        super().__init__()
        self.attention = nn.MultiheadAttention(dim, heads, kdim=kdim, vdim=vdim, batch_first=True,
                                               add_bias_kv=True, add_zero_attn=True)
        nn.init.normal_(self.attention.bias_k)
        nn.init.normal_(self.attention.bias_v)
        self.classifier = nn.Linear(dim, classes)

    def forward(self, query, key, value):
        y, _ = self.attention(query, key, value, need_weights=False)
        return self.classifier(y.mean(dim=1))


class PaddedTokenAttention(nn.Module):
    """Token ids embedded, self-attention whose key_padding_mask is computed from the ids
    (id 0 is padding: Equal and Where on computed tensors), the mean classified."""

    def __init__(self, vocabulary=6, dim=16, heads=2, classes=4):
        super().__init__()
        self.embedding = nn.Embedding(vocabulary, dim)
        self.attention = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.classifier = nn.Linear(dim, classes)

    def forward(self, ids):
        x = self.embedding(ids)
        y, _ = self.attention(x, x, x, key_padding_mask=ids == 0, need_weights=False)
        return self.classifier(y.mean(dim=1))


class AttentionWithWeights(nn.Module):
    """nn.MultiheadAttention with need_weights=True: the attended sequence and the
    head-averaged attention weights, both model outputs."""

    def __init__(self, dim=16, heads=2):
        super().__init__()
        self.attention = nn.MultiheadAttention(dim, heads, batch_first=True)

    def forward(self, x):
        return self.attention(x, x, x, need_weights=True)


class EncoderClassifier(nn.Module):
    """One small nn.TransformerEncoderLayer (batch_first) and a classifier on the first
    token."""

    def __init__(self, dim=16, heads=2, hidden=32, classes=4, norm_first=False, activation="relu"):
        super().__init__()
        self.encoder = nn.TransformerEncoderLayer(dim, heads, dim_feedforward=hidden, dropout=0.0,
                                                  activation=activation, batch_first=True, norm_first=norm_first)
        self.classifier = nn.Linear(dim, classes)

    def forward(self, x):
        return self.classifier(self.encoder(x)[:, 0])


class CausalEncoderStack(nn.Module):
    """nn.TransformerEncoder: two sequence-first layers under a causal float mask, the final
    LayerNorm, the last position classified."""

    def __init__(self, dim=16, heads=2, hidden=32, tokens=8, classes=4):
        super().__init__()
        layer = nn.TransformerEncoderLayer(dim, heads, dim_feedforward=hidden, dropout=0.0)
        self.encoder = nn.TransformerEncoder(layer, 2, norm=nn.LayerNorm(dim))
        self.register_buffer("mask", torch.triu(torch.full((tokens, tokens), float("-inf")), diagonal=1))
        self.classifier = nn.Linear(dim, classes)

    def forward(self, x):
        return self.classifier(self.encoder(x, mask=self.mask)[-1])


class DecoderClassifier(nn.Module):
    """nn.TransformerDecoderLayer (pre-norm, GELU): self-attention over the targets, cross
    attention to a memory sequence given as a second input."""

    def __init__(self, dim=16, heads=2, hidden=32, classes=4):
        super().__init__()
        self.decoder = nn.TransformerDecoderLayer(dim, heads, dim_feedforward=hidden, dropout=0.0,
                                                  activation="gelu", batch_first=True, norm_first=True)
        self.classifier = nn.Linear(dim, classes)

    def forward(self, target, memory):
        return self.classifier(self.decoder(target, memory).mean(dim=1))


class VitTiny(nn.Module):
    """A tiny vision transformer on 32x32 images: 8x8 patches by a strided conv, a class
    token concatenated (expand over the batch), learned positions, two pre-norm GELU
    encoder layers, the class token's features classified."""

    def __init__(self, dim=16, classes=5):
        super().__init__()
        self.patch = nn.Conv2d(3, dim, 8, 8)
        self.cls = nn.Parameter(torch.randn(1, 1, dim))
        self.position = nn.Parameter(torch.randn(1, 17, dim) * 0.1)
        layer = nn.TransformerEncoderLayer(dim, 2, 32, 0.0, activation="gelu", batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(layer, 2)
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, classes)

    def forward(self, x):
        patches = self.patch(x).flatten(2).transpose(1, 2)
        tokens = torch.cat([self.cls.expand(x.shape[0], -1, -1), patches], dim=1) + self.position
        return self.head(self.norm(self.encoder(tokens))[:, 0])


class SqueezeExcite(nn.Module):
    """Channel attention: global mean, 1x1 reduce, activation, 1x1 expand, gate, scale."""

    def __init__(self, channels, squeezed, activation, gate):
        super().__init__()
        self.reduce = nn.Conv2d(channels, squeezed, 1)
        self.activation = activation
        self.expand = nn.Conv2d(squeezed, channels, 1)
        self.gate = gate

    def forward(self, x):
        s = x.mean(dim=(2, 3), keepdim=True)
        return x * self.gate(self.expand(self.activation(self.reduce(s))))


def keep_signal(module):
    """He-normal weights (fan in) for every conv and linear layer, zero biases: PyTorch's
    default init shrinks the signal at every layer, and after twenty layers the global mean
    of iid test inputs would leave outputs that no longer depend on the input."""
    for m in module.modules():
        if isinstance(m, (nn.Conv2d, nn.Linear)):
            nn.init.kaiming_normal_(m.weight, nonlinearity="relu")
            if m.bias is not None:
                nn.init.zeros_(m.bias)
    return randomize_batch_norm(module)


def conv_bn(cin, cout, kernel, stride=1, groups=1, activation=None):
    layers = [nn.Conv2d(cin, cout, kernel, stride, kernel // 2, groups=groups, bias=False), nn.BatchNorm2d(cout)]
    return nn.Sequential(*layers, activation) if activation is not None else nn.Sequential(*layers)


class MBConv(nn.Module):
    """EfficientNet's inverted bottleneck: 1x1 expand (SiLU), depthwise (SiLU),
    squeeze-excite (SiLU, Sigmoid), 1x1 project, residual when the shape is kept
    (stochastic depth is the identity in eval)."""

    def __init__(self, cin, cout, kernel, stride, expand):
        super().__init__()
        mid = cin * expand
        self.residual = stride == 1 and cin == cout
        self.block = nn.Sequential(
            conv_bn(cin, mid, 1, activation=nn.SiLU()) if expand != 1 else nn.Identity(),
            conv_bn(mid, mid, kernel, stride, groups=mid, activation=nn.SiLU()),
            SqueezeExcite(mid, max(1, cin // 4), nn.SiLU(), nn.Sigmoid()),
            conv_bn(mid, cout, 1))

    def forward(self, x):
        y = self.block(x)
        return x + y if self.residual else y


class EfficientNetTiny(nn.Module):
    """EfficientNet-B0's structure at a tiny width and depth on 32x32 images."""

    def __init__(self, classes=10):
        super().__init__()
        self.stem = conv_bn(3, 8, 3, 2, activation=nn.SiLU())
        self.blocks = nn.Sequential(MBConv(8, 8, 3, 1, 1), MBConv(8, 12, 3, 2, 4), MBConv(12, 12, 3, 1, 4),
                                    MBConv(12, 16, 5, 2, 4), MBConv(16, 16, 5, 1, 4))
        self.head = conv_bn(16, 48, 1, activation=nn.SiLU())
        self.classifier = nn.Linear(48, classes)

    def forward(self, x):
        x = self.head(self.blocks(self.stem(x)))
        return self.classifier(torch.flatten(nn.functional.adaptive_avg_pool2d(x, 1), 1))


class InvertedResidualV3(nn.Module):
    """MobileNetV3's block: optional 1x1 expand, depthwise 3x3/5x5, optional Hardsigmoid
    squeeze-excite with ReLU, 1x1 project, residual when the shape is kept."""

    def __init__(self, cin, mid, cout, kernel, stride, se, activation):
        super().__init__()
        self.residual = stride == 1 and cin == cout
        layers = [] if mid == cin else [conv_bn(cin, mid, 1, activation=activation)]
        layers.append(conv_bn(mid, mid, kernel, stride, groups=mid, activation=activation))
        if se:
            layers.append(SqueezeExcite(mid, max(8, mid // 4), nn.ReLU(), nn.Hardsigmoid()))
        layers.append(conv_bn(mid, cout, 1))
        self.block = nn.Sequential(*layers)

    def forward(self, x):
        y = self.block(x)
        return x + y if self.residual else y


class MobileNetV3Tiny(nn.Module):
    """MobileNetV3-small's structure (width ~0.25) on 64x64 images: Hardswish stem,
    ReLU and Hardswish blocks, a Hardswish Linear head with dropout (identity in eval)."""

    def __init__(self, classes=10):
        super().__init__()
        hs, relu = nn.Hardswish(), nn.ReLU()
        self.stem = conv_bn(3, 8, 3, 2, activation=nn.Hardswish())
        self.blocks = nn.Sequential(
            InvertedResidualV3(8, 8, 8, 3, 2, True, relu),
            InvertedResidualV3(8, 24, 8, 3, 2, False, relu),
            InvertedResidualV3(8, 32, 8, 3, 1, False, relu),
            InvertedResidualV3(8, 32, 16, 5, 2, True, hs),
            InvertedResidualV3(16, 64, 16, 5, 1, True, hs),
            InvertedResidualV3(16, 48, 16, 5, 1, True, hs),
            InvertedResidualV3(16, 64, 24, 5, 2, True, hs))
        self.head = conv_bn(24, 96, 1, activation=nn.Hardswish())
        self.classifier = nn.Sequential(nn.Linear(96, 128), nn.Hardswish(), nn.Dropout(0.2), nn.Linear(128, classes))

    def forward(self, x):
        x = self.head(self.blocks(self.stem(x)))
        return self.classifier(torch.flatten(nn.functional.adaptive_avg_pool2d(x, 1), 1))


class AudioCelu(nn.Module):
    """A 1-D audio CNN over 40 mel bands x 50 frames with CELU (alpha 0.8) activations,
    a strided conv, the mean over time and a classifier."""

    def __init__(self, classes=8):
        super().__init__()
        self.front = nn.Conv1d(40, 24, 5, padding=2)
        self.body = nn.Conv1d(24, 24, 3, stride=2, padding=1)
        self.celu = nn.CELU(alpha=0.8)
        self.classifier = nn.Linear(24, classes)

    def forward(self, x):
        x = self.celu(self.body(self.celu(self.front(x))))
        return self.classifier(x.mean(dim=2))


def mha(batch_first, opset, mask=None, padding=False):
    shape = [1, 8, 16] if batch_first else [8, 1, 16]
    return lambda: Model(AttentionClassifier(batch_first=batch_first, mask=mask, padding=padding), [shape], opset=opset,
                         export_with_grad=True)


def encoder(norm_first, activation, opset):
    return lambda: Model(EncoderClassifier(norm_first=norm_first, activation=activation), [[1, 8, 16]], opset=opset,
                         export_with_grad=True)


MODELS = {
    "mha_batch_first": mha(True, 17),
    "mha_seq_first": mha(False, 13),
    "mha_causal_bool": mha(True, 13, mask="bool"),
    "mha_float_mask_padding": mha(False, 17, mask="float", padding=True),
    "mha_kv_dims": lambda: Model(CrossAttention(), [[1, 5, 16], [1, 7, 8], [1, 7, 12]], opset=13,
                                 input_names=["query", "key", "value"], export_with_grad=True),
    "mha_padding_from_ids": lambda: Model(PaddedTokenAttention(), [[1, 10]], opset=17, input_names=["ids"],
                                          input_ranges=[(0, 6)], export_with_grad=True),
    "mha_with_weights": lambda: Model(AttentionWithWeights(), [[1, 6, 16]], opset=13, output_names=["y", "weights"],
                                      export_with_grad=True),
    "encoder_post_relu": encoder(False, "relu", 13),
    "encoder_pre_gelu": encoder(True, "gelu", 17),
    "encoder_stack_causal": lambda: Model(CausalEncoderStack(), [[8, 1, 16]], opset=13, export_with_grad=True),
    "encoder_stack_causal_op11": lambda: Model(CausalEncoderStack(), [[8, 1, 16]], opset=11, export_with_grad=True),
    "decoder_cross": lambda: Model(DecoderClassifier(), [[1, 5, 16], [1, 7, 16]], opset=17,
                                   input_names=["target", "memory"], export_with_grad=True),
    "vit_tiny": lambda: Model(VitTiny(), [[1, 3, 32, 32]], opset=17, export_with_grad=True),
    "efficientnet_tiny": lambda: Model(keep_signal(EfficientNetTiny()), [[1, 3, 32, 32]], opset=13),
    "mobilenetv3_tiny": lambda: Model(keep_signal(MobileNetV3Tiny()), [[1, 3, 64, 64]], opset=17),
    "mobilenetv3_tiny_op13": lambda: Model(keep_signal(MobileNetV3Tiny()), [[1, 3, 64, 64]], opset=13),
    "audio_celu": lambda: Model(AudioCelu(), [[1, 40, 50]], opset=13),
}
