#!/usr/bin/env bash
# usage: check_adapter_no_heap.sh ARM_GCC ARM_NM SOURCE_DIR
# Cross-compiles platforms/ethos_u/mote_ethosu.c for a Cortex-M55 as firmware builds it
# and checks its object: no malloc/free/calloc/realloc referenced; the driver's
# semaphore, mutex and config hooks and mote_ethosu_driver defined; ethosu_invoke_v3 used.
set -euo pipefail
gcc=$1 nm=$2 src=$3
obj=$(mktemp --suffix .o)
trap 'rm -f "$obj"' EXIT
"$gcc" -mcpu=cortex-m55 -mthumb -std=c99 -Os -ffunction-sections -Wall -Wextra -Werror \
  -I"$src/tests/npu/ethosu_api" -I"$src/runtime/include" -c "$src/platforms/ethos_u/mote_ethosu.c" -o "$obj"
if "$nm" -u "$obj" | grep -wE 'malloc|free|calloc|realloc'; then
  echo "mote_ethosu.c references the heap"
  exit 1
fi
for symbol in ethosu_semaphore_create ethosu_semaphore_destroy ethosu_semaphore_take ethosu_semaphore_give \
  ethosu_mutex_create ethosu_mutex_lock ethosu_mutex_unlock ethosu_config_select mote_ethosu_driver; do
  "$nm" --defined-only "$obj" | grep -qw "$symbol" || { echo "$symbol not defined"; exit 1; }
done
"$nm" -u "$obj" | grep -qw ethosu_invoke_v3 || { echo "ethosu_invoke_v3 not called"; exit 1; }
echo "mote_ethosu.c: no heap, driver hooks defined"
