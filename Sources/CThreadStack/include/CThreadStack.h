#ifndef CTHREADSTACK_H
#define CTHREADSTACK_H

#include <stddef.h>
#include <stdint.h>

/* The calling thread's stack: its lowest address and its size. Returns 0 on success, -1
 * where the platform does not say (the engine then skips its stack-room check). */
int tk_thread_stack(uintptr_t *floor, size_t *size);

/* The calling thread's engine box (CurrentSlot.Box, unretained), NULL until its first use:
 * a C thread-local, read with one load where pthread_getspecific is a call (an update reads
 * it for most nodes it visits). Swift cannot name a thread-local, hence the two functions.
 * The pthread key that releases the box when the thread exits stays in Swift. */
extern _Thread_local void *tk_current_box;
static inline void *tk_get_current_box(void) { return tk_current_box; }
static inline void tk_set_current_box(void *box) { tk_current_box = box; }

#endif
