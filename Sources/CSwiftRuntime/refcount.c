#include "CSwiftRuntime.h"

/* Declared in the Swift runtime's HeapObject.h (C calling convention). */
extern void *swift_retain_n(void *object, uint32_t n);
extern void swift_release_n(void *object, uint32_t n);

void tk_retain_n(void *object, uint32_t n) {
  if (n > 0) swift_retain_n(object, n);
}

void tk_release_n(void *object, uint32_t n) {
  if (n > 0) swift_release_n(object, n);
}
