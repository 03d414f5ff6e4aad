#ifndef CTHREADSTACK_H
#define CTHREADSTACK_H

#include <stddef.h>
#include <stdint.h>

/* The calling thread's stack: its lowest address and its size. Returns 0 on success, -1
 * where the platform does not say (the engine then skips its stack-room check). */
int tk_thread_stack(uintptr_t *floor, size_t *size);

#endif
