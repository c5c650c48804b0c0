// Reset and fault handling for Mote's Cortex-M firmware (bare metal, no libc startup).
//
// Reset_Handler turns the FPU (and MVE) on, on cores that have one, before any compiled
// code runs, since the compiler may use FP registers anywhere. It then copies .data
// from flash, zeroes .bss, runs static constructors, calls main() and hands main's
// return value to the host through semihosting, so QEMU's exit status is that value.
// The workspace region (.noinit and the free memory after it, see ld/sections.ld) is
// deliberately not zeroed: clearing 16 MiB would cost millions of instructions per boot.
//
// Every other exception is unexpected: Fault_Handler prints one line
// "fault: <name> CFSR=... HFSR=... MMFAR=... BFAR=... PC=... LR=..." (status registers
// only on ARMv7-M and later; ARMv6-M has none) and exits with kFaultExitCode (125), so
// a host harness can tell a crash from an error reported by the program. The one
// exception a firmware may use is SysTick: SysTick_Handler is weak here, and
// systick_handler.c defines it (for instruction_counter.c).
#include <stdint.h>
#include <string.h>

#include "semihost.h"

extern "C" {

int main();

// From the linker script (ld/sections.ld).
extern uint32_t __data_load_start[];
extern uint32_t __data_start[];
extern uint32_t __data_end[];
extern uint32_t __bss_start[];
extern uint32_t __bss_end[];
extern uint32_t __stack_top[];
extern void (*__preinit_array_start[])();
extern void (*__preinit_array_end[])();
extern void (*__init_array_start[])();
extern void (*__init_array_end[])();

void Reset_Handler();
void Fault_Handler();
void SysTick_Handler() __attribute__((weak, alias("Fault_Handler"), nothrow));

// C++ runtime hooks a freestanding program still references. Static destructors never
// run (main's return ends the program), so registering one is a no-op.
void* __dso_handle = nullptr;
int __cxa_atexit(void (*)(void*), void*, void*) { return 0; }
void __cxa_pure_virtual();

}  // extern "C"

namespace {

constexpr uint32_t kFaultExitCode = 125;

using Handler = void (*)();

// The 16 architectural entries. Mote firmware never enables a device interrupt, so no
// IRQ entries follow. Reserved entries are 0.
__attribute__((section(".isr_vector"), used)) const Handler kVectorTable[16] = {
    reinterpret_cast<Handler>(__stack_top),
    Reset_Handler,
    Fault_Handler,  // NMI
    Fault_Handler,  // HardFault
    Fault_Handler,  // MemManage
    Fault_Handler,  // BusFault
    Fault_Handler,  // UsageFault
    Fault_Handler,  // SecureFault (ARMv8-M)
    nullptr,
    nullptr,
    nullptr,
    Fault_Handler,  // SVCall
    Fault_Handler,  // DebugMonitor
    nullptr,
    Fault_Handler,  // PendSV
    SysTick_Handler,
};

const char* exception_name(uint32_t number) {
  switch (number) {
    case 2: return "NMI";
    case 3: return "HardFault";
    case 4: return "MemManage";
    case 5: return "BusFault";
    case 6: return "UsageFault";
    case 7: return "SecureFault";
    case 11: return "SVCall";
    case 12: return "DebugMonitor";
    case 14: return "PendSV";
    case 15: return "SysTick";
    default: return "unexpected exception";
  }
}

// Formatting without printf (printf would pull in the heap).
void append_text(char*& out, const char* text) {
  while (*text != '\0') *out++ = *text++;
}

void append_hex(char*& out, uint32_t value) {
  append_text(out, "0x");
  for (int shift = 28; shift >= 0; shift -= 4) *out++ = "0123456789abcdef"[(value >> shift) & 0xFu];
}

[[maybe_unused]] void append_register(char*& out, const char* name, uint32_t address) {
  append_text(out, name);
  append_hex(out, *reinterpret_cast<volatile const uint32_t*>(address));
}

}  // namespace

extern "C" {

// `frame` is the exception frame the core pushed: r0-r3, r12, lr, pc, xpsr.
[[noreturn]] void mote_report_fault(const uint32_t* frame) {
  uint32_t ipsr;
  asm volatile("mrs %0, ipsr" : "=r"(ipsr));
  char line[160];
  char* out = line;
  append_text(out, "fault: ");
  append_text(out, exception_name(ipsr & 0x1FFu));
#if __ARM_ARCH >= 7
  append_register(out, " CFSR=", 0xE000ED28);
  append_register(out, " HFSR=", 0xE000ED2C);
  append_register(out, " MMFAR=", 0xE000ED34);
  append_register(out, " BFAR=", 0xE000ED38);
#endif
  append_text(out, " PC=");
  append_hex(out, frame[6]);
  append_text(out, " LR=");
  append_hex(out, frame[5]);
  append_text(out, "\n");
  *out = '\0';
  mote::semihost::write0(line);
  mote::semihost::exit(kFaultExitCode);
}

void __cxa_pure_virtual() {
  mote::semihost::write0("fault: pure virtual call\n");
  mote::semihost::exit(kFaultExitCode);
}

[[noreturn]] void mote_start() {
  memcpy(__data_start, __data_load_start,
         reinterpret_cast<uintptr_t>(__data_end) - reinterpret_cast<uintptr_t>(__data_start));
  memset(__bss_start, 0,
         reinterpret_cast<uintptr_t>(__bss_end) - reinterpret_cast<uintptr_t>(__bss_start));
  for (auto* init = __preinit_array_start; init != __preinit_array_end; ++init) (*init)();
  for (auto* init = __init_array_start; init != __init_array_end; ++init) (*init)();
  mote::semihost::exit(static_cast<uint32_t>(main()));
}

__attribute__((naked, noreturn)) void Reset_Handler() {
  asm volatile(
#if defined(__ARM_FP) || defined(__ARM_FEATURE_MVE)
      // CPACR (0xE000ED88): full access to CP10 and CP11 (FPU and MVE).
      "movw r0, #0xED88\n"
      "movt r0, #0xE000\n"
      "ldr r1, [r0]\n"
      "orr r1, r1, #(0xF << 20)\n"
      "str r1, [r0]\n"
      "dsb\n"
      "isb\n"
#endif
      "bl mote_start\n");
}

// Passes the frame on whichever stack was active (EXC_RETURN bit 2) to
// mote_report_fault. ARMv6-M compatible (no IT blocks).
__attribute__((naked)) void Fault_Handler() {
  asm volatile(
      "mov r1, lr\n"
      "movs r2, #4\n"
      "mrs r0, msp\n"
      "tst r1, r2\n"
      "beq 1f\n"
      "mrs r0, psp\n"
      "1: bl mote_report_fault\n");
}

}  // extern "C"
