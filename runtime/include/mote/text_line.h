// One line of text built without printf (printf would pull in the heap on a device),
// into a buffer the caller owns. Truncates silently at the buffer's capacity and keeps it
// NUL-terminated. Used by the QEMU runner firmware's messages and the Ethos-U model's
// errors.
#pragma once

#include <stdint.h>

namespace mote {

class TextLine {
 public:
  // `capacity` >= 1 bytes at `buffer`; starts empty.
  TextLine(char* buffer, uint32_t capacity) : buffer_(buffer), capacity_(capacity) { buffer_[0] = '\0'; }

  TextLine& text(const char* s) {
    while (*s != '\0' && length_ + 1 < capacity_) buffer_[length_++] = *s++;
    buffer_[length_] = '\0';
    return *this;
  }
  TextLine& number(uint64_t value) {
    char digits[20];
    uint32_t n = 0;
    do {
      digits[n++] = static_cast<char>('0' + value % 10);
      value /= 10;
    } while (value != 0);
    while (n > 0 && length_ + 1 < capacity_) buffer_[length_++] = digits[--n];
    buffer_[length_] = '\0';
    return *this;
  }
  // "0x" and at least 3 upper-case hex digits: 0x10E.
  TextLine& hex(uint32_t value) {
    text("0x");
    char digits[8];
    uint32_t n = 0;
    do {
      digits[n++] = "0123456789ABCDEF"[value & 15];
      value >>= 4;
    } while (value != 0);
    while (n < 3) digits[n++] = '0';
    while (n > 0 && length_ + 1 < capacity_) buffer_[length_++] = digits[--n];
    buffer_[length_] = '\0';
    return *this;
  }
  void clear() {
    length_ = 0;
    buffer_[0] = '\0';
  }
  const char* c_str() const { return buffer_; }
  uint32_t length() const { return length_; }

 private:
  char* buffer_;
  uint32_t capacity_;
  uint32_t length_ = 0;
};

}  // namespace mote
