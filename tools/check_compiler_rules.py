#!/usr/bin/env python3
"""Two rules of the compiler's shape, checked by the ctest compiler_rules:

1. No function longer than the limit (default 150 lines).
2. The IR's ops are typed (ir::Op, compiler/ir/ops.inc): outside the importers
   (compiler/import/, where ONNX and TFLite names are strings), no code compares an op
   with a string literal (`op == "Conv"`, `.op != "..."`).

    tools/check_compiler_rules.py [--limit N] <source root>

A function's length is the number of lines from its opening brace's line to its closing
brace's, for every function or member function defined at namespace or class scope in
the .cc and .h files under compiler/ and cli/ (lambdas count toward the function that
holds them). Comments, string and character literals are blanked first so their braces do
not count. Prints every function over the limit as `file:line: name has N lines (limit L)`
and every string comparison of an op as `file:line: ...`, and exits 1; prints the
longest function and exits 0 otherwise.
"""
import argparse
import pathlib
import re
import sys


def blank_comments_and_literals(text):
    """Replaces comments and string/char literals by spaces, keeping newlines."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "R" and text.startswith('R"', i) and (i == 0 or not text[i - 1].isalnum()):
            m = re.match(r'R"([^(\s]*)\(', text[i:])
            end = text.find(")" + m.group(1) + '"', i) if m else -1
            j = n if end < 0 else end + len(m.group(1)) + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c in "\"'":
            if c == "'" and i > 0 and text[i - 1].isalnum():  # digit separator 1'000
                out.append(c)
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * (j - i - 1) + (c if j < n else ""))
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


FUNCTION_TAIL = re.compile(
    r"\)\s*(const|noexcept(\([^)]*\))?|override|final|mutable|&|&&|->[^{;]*|\s)*$")
SCOPE = re.compile(r"\b(namespace|class|struct|union|enum)\b")


def functions(text):
    """Yields (name, first line, line count) of every function at namespace/class scope."""
    code = blank_comments_and_literals(text)
    stack = []  # per open brace: "scope", "function" or "block"
    head_start = 0  # where the text before the next brace begins
    for i, c in enumerate(code):
        if c in ";}":
            if c == "}" and stack:
                kind, start, name = stack.pop()
                if kind == "function":
                    first = code.count("\n", 0, start) + 1
                    last = code.count("\n", 0, i) + 1
                    yield name, first, last - first + 1
            head_start = i + 1
        elif c == "{":
            head = code[head_start:i]
            inside_function = any(kind != "scope" for kind, _, _ in stack)
            if inside_function:
                stack.append(("block", i, ""))
            elif FUNCTION_TAIL.search(head) and "=" not in head.split("(")[0]:
                names = re.findall(r"([~\w:]+)\s*\(", head)
                stack.append(("function", i, names[0] if names else "?"))
            elif SCOPE.search(head) or head.strip().startswith("extern"):
                stack.append(("scope", i, ""))
            else:
                stack.append(("block", i, ""))
            head_start = i + 1


OP_STRING = re.compile(r"\bop(\(\))?\s*[!=]=\s*\"|\"\s*[!=]=\s*([\w.>-]*[.>])?op\b")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--limit", type=int, default=150)
    parser.add_argument("root")
    args = parser.parse_args()
    root = pathlib.Path(args.root)
    longest = ("", "", 0, 0)
    over = []
    count = 0
    for directory in (root / "compiler", root / "cli"):
        for path in sorted(directory.rglob("*")):
            if path.suffix not in (".cc", ".h") or not path.is_file():
                continue
            text = path.read_text()
            if "import" not in path.relative_to(root).parts[1:2]:
                for number, line in enumerate(text.splitlines(), 1):
                    if OP_STRING.search(line):
                        over.append(f"{path}:{number}: an op compared with a string "
                                    f"(use ir::Op outside compiler/import/): {line.strip()}")
            for name, line, length in functions(text):
                count += 1
                if length > longest[3]:
                    longest = (str(path), name, line, length)
                if length > args.limit:
                    over.append(f"{path}:{line}: {name} has {length} lines (limit {args.limit})")
    if count == 0:
        print("check_compiler_rules: no function found", file=sys.stderr)
        return 1
    for line in over:
        print(line)
    if over:
        return 1
    print(f"{count} functions, the longest {longest[1]} ({longest[0]}:{longest[2]}) "
          f"with {longest[3]} lines (limit {args.limit})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
