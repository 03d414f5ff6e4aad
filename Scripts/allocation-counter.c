/* The allocation counter `traitkit bench` preloads (LD_PRELOAD) into the child process that
 * counts the heap blocks each whole-script phase allocates; Scripts/build builds it beside
 * the traitkit binary, as libtraitkit-allocation-counter.so. It is never linked into
 * traitkit: a process that did not preload it allocates straight from glibc. Built with the C
 * compiler rather than as a SwiftPM product, which would link Swift's runtime into it and so
 * load a second runtime into traitkit (which carries its own).
 *
 * Each replacement counts and forwards to glibc's own entry point (__libc_malloc and friends,
 * exported for this use), so every block comes from glibc's allocator whichever function
 * frees it, and no size header is added: the process allocates as it would without the
 * counter. glibc asks a replacement of malloc to replace free, calloc and realloc too; the
 * aligned allocators are replaced only to count them. */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *block, size_t size);
extern void __libc_free(void *block);
extern void *__libc_memalign(size_t alignment, size_t size);

static size_t blocks;

static void note_block(void) { __atomic_fetch_add(&blocks, 1, __ATOMIC_RELAXED); }

/* The blocks this process obtained from malloc, calloc, realloc of NULL and the aligned
 * allocators since it started: resizing a block is not a new one, as the Lua side counts. */
size_t tk_allocated_blocks(void) { return __atomic_load_n(&blocks, __ATOMIC_RELAXED); }

void *malloc(size_t size) { note_block(); return __libc_malloc(size); }

void *calloc(size_t count, size_t size) { note_block(); return __libc_calloc(count, size); }

void *realloc(void *block, size_t size) {
    if (block == NULL) note_block();
    return __libc_realloc(block, size);
}

void free(void *block) { __libc_free(block); }

void *memalign(size_t alignment, size_t size) { note_block(); return __libc_memalign(alignment, size); }

void *aligned_alloc(size_t alignment, size_t size) { return memalign(alignment, size); }

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (alignment == 0 || alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
    void *block = memalign(alignment, size);
    if (block == NULL) return ENOMEM;
    *result = block;
    return 0;
}
