#include "print.h"

#include "console.h"

static char line[192];
static uint32_t length;

void print_text(const char* text) {
  while (*text != '\0') {
    if (length + 2 >= sizeof line) print_end_line(); /* a long line continues on the next */
    line[length++] = *text++;
  }
}

void print_text_cut(const char* text, uint32_t max_chars) {
  char part[4] = {0, 0, 0, 0};
  uint32_t n = 0;
  while (text[n] != '\0' && n <= max_chars) ++n;
  if (n <= max_chars) {
    print_text(text);
    return;
  }
  for (n = 0; n + 3 < max_chars; ++n) {
    part[0] = text[n];
    print_text(part);
  }
  print_text("...");
}

void print_uint(uint64_t value) {
  char digits[21];
  int n = 20;
  digits[n] = '\0';
  do {
    digits[--n] = (char)('0' + value % 10u);
    value /= 10u;
  } while (value != 0);
  print_text(digits + n);
}

void print_int(int64_t value) {
  if (value < 0) {
    print_text("-");
    print_uint((uint64_t)(-(value + 1)) + 1u);
  } else {
    print_uint((uint64_t)value);
  }
}

void print_float(float value) {
  double v = value;
  int exponent = 0;
  uint64_t digits;
  char text[16];
  int i;
  if (v != v) {
    print_text("nan");
    return;
  }
  if (v < 0) {
    print_text("-");
    v = -v;
  }
  if (v > 3.5e38) {
    print_text("inf");
    return;
  }
  if (v != 0) {
    while (v >= 1e8) v /= 1e8, exponent += 8;
    while (v >= 10.0) v /= 10.0, ++exponent;
    while (v < 1e-8) v *= 1e8, exponent -= 8;
    while (v < 1.0) v *= 10.0, --exponent;
  }
  digits = (uint64_t)(v * 1e8 + 0.5);
  if (digits >= 1000000000u) digits /= 10u, ++exponent;
  for (i = 9; i >= 0; --i) {
    if (i == 1) {
      text[i] = '.';
      continue;
    }
    text[i] = (char)('0' + digits % 10u);
    digits /= 10u;
  }
  text[10] = 'e';
  text[11] = exponent < 0 ? '-' : '+';
  if (exponent < 0) exponent = -exponent;
  text[12] = (char)('0' + exponent / 10);
  text[13] = (char)('0' + exponent % 10);
  text[14] = '\0';
  print_text(text);
}

void print_pad_to(uint32_t column) {
  while (length < column && length + 2 < sizeof line) line[length++] = ' ';
}

void print_end_line(void) {
  line[length++] = '\n';
  line[length] = '\0';
  console_write(line);
  length = 0;
}
