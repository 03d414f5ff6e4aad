/* Retain and release by n: two entry points of the Swift runtime (libswiftCore exports them on
 * every platform; the compiler itself emits calls to them) that the standard library does not
 * surface. The trait pass hands one collection to a whole subtree of nodes; with these it pays
 * one atomic operation for the subtree instead of two per node (see UpdateContext.swift). */
#ifndef TRAITKIT_CSWIFTRUNTIME_H
#define TRAITKIT_CSWIFTRUNTIME_H
#include <stdint.h>

/* Adds n to the strong reference count of a Swift object. */
void tk_retain_n(void *object, uint32_t n);
/* Subtracts n from it; the object is freed when the count reaches zero. */
void tk_release_n(void *object, uint32_t n);

#endif
