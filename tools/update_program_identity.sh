#!/usr/bin/env bash
# Recomputes the SHA-256 column of tests/models/program_identity.txt with the given mote
# binary, keeping every line's model and options (comments and order stay as they are).
# A line whose model no longer compiles is reported and left unchanged.
#   tools/update_program_identity.sh build/bin/mote
set -euo pipefail
cd "$(dirname "$0")/.."
mote=$(realpath "${1:?usage: $0 path/to/mote}")
models=$(realpath "${MOTE_SHARED_DIR:-../shared}/models")
table=tests/models/program_identity.txt
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
changed=0
while IFS= read -r line; do
  if [[ -z "$line" || "$line" == \#* ]]; then
    echo "$line" >>"$tmp/table"
    continue
  fi
  read -r old model options <<<"$line"
  # Option values ending in .npy are files under the models directory.
  args=()
  for word in $options; do
    [[ "$word" == *.npy ]] && word="$models/$word"
    args+=("$word")
  done
  if (cd "$models" && "$mote" compile "$model" -o "$tmp/p.mote" "${args[@]}" >/dev/null 2>"$tmp/err"); then
    new=$(sha256sum "$tmp/p.mote" | cut -c1-64)
    [ "$new" != "$old" ] && { echo "changed: $model $options"; changed=$((changed + 1)); }
    echo "$new $model $options" >>"$tmp/table"
  else
    echo "does not compile: $model $options: $(head -c 200 "$tmp/err")" >&2
    echo "$line" >>"$tmp/table"
  fi
done <"$table"
cp "$tmp/table" "$table"
echo "$changed program(s) changed"
