/* Line output without printf (printf would pull in the C library's heap): a line is
 * built with print_* and written with print_end_line(). (Written by `mote init-firmware`.) */
#ifndef PRINT_H_
#define PRINT_H_

#include <stdint.h>

void print_text(const char* text);
/* At most `max_chars` characters of `text`; a longer text ends in "...". */
void print_text_cut(const char* text, uint32_t max_chars);
void print_uint(uint64_t value);
void print_int(int64_t value);
/* 9 significant digits, d.dddddddde+XX (enough to give back the float32 exactly);
 * "nan", "inf", "-inf". */
void print_float(float value);
/* Pads with spaces to `column` characters from the start of the line. */
void print_pad_to(uint32_t column);
void print_end_line(void);

#endif /* PRINT_H_ */
