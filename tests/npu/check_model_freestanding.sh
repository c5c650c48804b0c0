#!/usr/bin/env bash
# usage: check_model_freestanding.sh ARM_GXX ARM_NM SOURCE_DIR
# Cross-compiles the Ethos-U functional model (platforms/ethos_u/ethos_u_model.cc) for a
# Cortex-M55 as a firmware would (C++17, no exceptions, no RTTI) and checks that its
# object needs nothing but the payload parser, memcpy/memmove/memset and the compiler's
# runtime helpers: no heap, no operator new/delete, no stdio, no exception support.
set -euo pipefail
gxx=$1 nm=$2 src=$3
obj=$(mktemp --suffix .o)
trap 'rm -f "$obj"' EXIT
"$gxx" -mcpu=cortex-m55 -mthumb -std=c++17 -Os -ffunction-sections -fno-exceptions -fno-rtti -Wall -Wextra -Werror \
  -I"$src/kernels" -I"$src/runtime/include" -c "$src/platforms/ethos_u/ethos_u_model.cc" -o "$obj"
unexpected=$("$nm" -u "$obj" | awk '{print $2}' |
  grep -vE '^(memcpy|memmove|memset|__aeabi_[a-z0-9]+|_ZN4mote(21decode_ethos_u_config|21parse_ethos_u_payload|28ethos_u_payload_error_string).*)$' || true)
if [ -n "$unexpected" ]; then
  echo "ethos_u_model.cc needs: $unexpected"
  exit 1
fi
"$nm" --defined-only "$obj" | grep -q ethos_u_model_invoke || { echo "ethos_u_model_invoke not defined"; exit 1; }
echo "ethos_u_model.cc: freestanding (no heap, no stdio, no exceptions)"
