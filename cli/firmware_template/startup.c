/* Reset and exception handling for @PROJECT@ (written by `mote init-firmware`; yours to
 * edit). Bare metal, no C library start-up code:
 *
 * Reset_Handler turns on the FPU (and Helium) on cores that have one before any compiled
 * code runs, copies .data from flash, zeroes .bss, runs static constructors and calls
 * main(). main's return value
 * goes to the host through semihosting (console_exit), so under QEMU the exit status is
 * main's. The arena (.mote_arena) is not zeroed: the runtime never reads arena bytes it
 * has not written.
 *
 * Every exception but SysTick is unexpected: Fault_Handler prints one line
 * "fault: <exception> pc=0x... lr=0x... cfsr=0x..." and exits with 125. SysTick_Handler
 * extends the instruction/cycle counter (instruction_counter.h) to 64 bits.
 *
 * The vector table has the 16 architectural entries; add your device's interrupt
 * entries after them if your application enables any. */
#include <stdint.h>

#include "console.h"
#include "instruction_counter.h"

int main(void);

/* From sections.ld. */
extern uint32_t __data_load_start[];
extern uint32_t __data_start[];
extern uint32_t __data_end[];
extern uint32_t __bss_start[];
extern uint32_t __bss_end[];
extern uint32_t __stack_top[];
extern void (*__preinit_array_start[])(void);
extern void (*__preinit_array_end[])(void);
extern void (*__init_array_start[])(void);
extern void (*__init_array_end[])(void);

void Reset_Handler(void);
void Fault_Handler(void);
void SysTick_Handler(void);

typedef void (*vector_entry)(void);

__attribute__((section(".isr_vector"), used)) static const vector_entry vector_table[16] = {
    (vector_entry)(uintptr_t)__stack_top,
    Reset_Handler,
    Fault_Handler, /* NMI */
    Fault_Handler, /* HardFault */
    Fault_Handler, /* MemManage */
    Fault_Handler, /* BusFault */
    Fault_Handler, /* UsageFault */
    Fault_Handler, /* SecureFault (Armv8-M) */
    0,
    0,
    0,
    Fault_Handler, /* SVCall */
    Fault_Handler, /* DebugMonitor */
    0,
    Fault_Handler, /* PendSV */
    SysTick_Handler,
};

/* C code may use floating-point (and MVE) registers anywhere, so CP10/CP11 are enabled
 * here, before the first call; the compiler must not touch them in this function. */
__attribute__((naked, noreturn)) void Reset_Handler(void) {
#if defined(__ARM_FP) || defined(__ARM_FEATURE_MVE)
  __asm__ volatile(
      "ldr r0, =0xE000ED88\n" /* CPACR */
      "ldr r1, [r0]\n"
      "ldr r2, =0x00F00000\n" /* CP10, CP11: full access */
      "orr r1, r1, r2\n"
      "str r1, [r0]\n"
      "dsb\n"
      "isb\n");
#endif
  __asm__ volatile(
      "ldr r0, =reset_continue\n" /* any distance, any core */
      "bx r0\n");
}

__attribute__((noreturn, used)) void reset_continue(void) {
  const uint32_t* from = __data_load_start;
  uint32_t* to;
  void (**init)(void);
  for (to = __data_start; to < __data_end;) *to++ = *from++;
  for (to = __bss_start; to < __bss_end;) *to++ = 0;
  /* Static constructors (C++ code you add; Mote's runtime and kernels have none). */
  for (init = __preinit_array_start; init < __preinit_array_end; ++init) (*init)();
  for (init = __init_array_start; init < __init_array_end; ++init) (*init)();
  console_exit((uint32_t)main());
}

void SysTick_Handler(void) { mote_tick_counter_on_systick(); }

static void append(char** out, const char* text) {
  while (*text != '\0') *(*out)++ = *text++;
}

static void append_hex(char** out, uint32_t value) {
  int shift;
  append(out, "0x");
  for (shift = 28; shift >= 0; shift -= 4) *(*out)++ = "0123456789abcdef"[(value >> shift) & 0xFu];
}

/* `frame`: the registers the core stacked on exception entry (r0-r3, r12, lr, pc, xpsr). */
__attribute__((noreturn, used)) void report_fault(const uint32_t* frame) {
  static const char* const names[16] = {"?",      "?",           "NMI",    "HardFault",
                                        "MemManage", "BusFault", "UsageFault", "SecureFault",
                                        "?",      "?",           "?",      "SVCall",
                                        "DebugMonitor", "?",     "PendSV", "SysTick"};
  char line[128];
  char* out = line;
  uint32_t ipsr;
  __asm__ volatile("mrs %0, ipsr" : "=r"(ipsr));
  append(&out, "fault: ");
  append(&out, (ipsr & 0x1FFu) < 16 ? names[ipsr & 0x1FFu] : "interrupt");
  append(&out, " pc=");
  append_hex(&out, frame[6]);
  append(&out, " lr=");
  append_hex(&out, frame[5]);
#if __ARM_ARCH >= 7
  append(&out, " cfsr=");
  append_hex(&out, *(volatile const uint32_t*)0xE000ED28u);
#endif
  append(&out, "\n");
  *out = '\0';
  console_write(line);
  console_exit(125);
}

/* Passes the stack the exception frame went to (MSP or PSP, from EXC_RETURN bit 2). */
__attribute__((naked)) void Fault_Handler(void) {
  __asm__ volatile(
      "movs r0, #4\n"
      "mov r1, lr\n"
      "tst r0, r1\n"
      "beq 1f\n"
      "mrs r0, psp\n"
      "b 2f\n"
      "1:\n"
      "mrs r0, msp\n"
      "2:\n"
      "ldr r1, =report_fault\n"
      "bx r1\n");
}
