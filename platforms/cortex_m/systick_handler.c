/* SysTick_Handler for firmware whose startup code leaves SysTick to the application
 * (the usual weak default handler): extends the instruction counter to 64 bits
 * (instruction_counter.h). A firmware whose board package defines SysTick_Handler
 * itself calls mote_tick_counter_on_systick() from it instead of compiling this file. */
#include "instruction_counter.h"

void SysTick_Handler(void) { mote_tick_counter_on_systick(); }
