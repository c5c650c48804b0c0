/* @PROJECT@: board bring-up for @CPU@ (written by `mote init-firmware`; yours to edit).
 * No model yet: this checks the start-up code, the console and the tick counter, then
 * prints "ok". To add a model, compile it into model/ and rerun init-firmware with
 * --model (see README.md). */
#include "instruction_counter.h"
#include "print.h"

/* A data value (copied from flash by the start-up code) and a zeroed one. */
static volatile uint32_t initialized = 0x600DF00Du;
static volatile uint32_t zeroed;

int main(void) {
  uint64_t begin, ticks;
  uint32_t i, sum = 0;
  if (initialized != 0x600DF00Du || zeroed != 0) {
    print_text("error: .data or .bss not set up by the start-up code");
    print_end_line();
    return 1;
  }
  mote_tick_counter_start();
  begin = mote_tick_counter_read();
  for (i = 0; i < 100000u; ++i) sum += i ^ (sum >> 3);
  ticks = mote_tick_counter_read() - begin;
  print_text("@PROJECT@ on @CPU@: a 100000-step loop took ");
  print_uint(ticks);
  print_text(" ticks");
#ifdef BOARD_QEMU_CLOCK_HZ
  print_text(" (");
  print_uint(mote_ticks_to_instructions(ticks, BOARD_QEMU_CLOCK_HZ));
  print_text(" instructions under qemu -icount shift=0)");
#endif
  print_text(", checksum ");
  print_uint(sum);
  print_end_line();
  print_text("ok");
  print_end_line();
  return 0;
}
