/* Record-and-replay prefetching for the trait walk (TraitKit's `WalkTrace.swift` says why).
 *
 * Each outermost update records, in order, the addresses its walk touches (nodes, children
 * arrays, registrations, and whatever a binding adds); the next update that walks the same
 * way prefetches, at each touch, the address the recorded walk touched TK_TRACE_AHEAD touches
 * later. A recorded address is only ever prefetched, never read, so one freed since costs a
 * wasted prefetch and nothing else (a prefetch does not fault).
 *
 * Per thread, like the hierarchies that use it. Two recorded walks are kept, so updates that
 * alternate between two kinds of change each follow their own. */
#ifndef CWALKTRACE_H
#define CWALKTRACE_H

#include <stddef.h>
#include <stdint.h>

/* How many touches ahead a walk prefetches: far enough for a miss to memory to return first
 * (a few handlers ahead), near enough that the line is still in the cache when used. */
#define TK_TRACE_AHEAD 32
/* Recorded walks kept. */
#define TK_TRACE_RUNS 2

typedef struct {
    uintptr_t *touches;
    size_t count;
} tk_trace_run;

typedef struct {
    uintptr_t *recording;       /* this update's touches */
    size_t count;               /* touches so far in this update, recorded or not */
    size_t capacity;            /* touches a buffer records (each holds TK_TRACE_AHEAD more
                                   entries, so a prefetch near the end needs no check); 0 while off */
    const uintptr_t *replay;    /* the recorded walk this one follows */
    size_t replayCount;         /* its length, 0 while following none */
    size_t shift;               /* replay[count + shift] is the touch expected now (wraps) */
    size_t strays;              /* touches not found where a recorded walk had them */
    unsigned misses;            /* of those, in a row */
    int followed;               /* the run being followed, or -1 */
    int latest;                 /* the run recorded last */
    int enabled;                /* 0 until the first update asks, then 1 or -1 */
    tk_trace_run runs[TK_TRACE_RUNS];
} tk_trace_state;

extern _Thread_local tk_trace_state tk_trace;

/* The slow paths, out of line: a walk longer than the buffers; a touch that is not where the
 * followed walk had it (looked for nearby). */
void tk_trace_overflow(tk_trace_state *t);
void tk_trace_diverged(tk_trace_state *t, uintptr_t p);

/* Records that the walk touches `p` now, and prefetches what the followed walk touched
 * TK_TRACE_AHEAD touches later. */
static inline void tk_trace_touch(const void *p) {
    tk_trace_state *t = &tk_trace;
    size_t n = t->count;
    if (n >= t->capacity) {
        if (t->capacity) tk_trace_overflow(t);  /* else off: nothing to do */
        return;
    }
    t->recording[n] = (uintptr_t)p;
    t->count = n + 1;
    size_t j = n + t->shift;
    if (j >= t->replayCount) { t->strays++; return; }
    if (t->replay[j] != (uintptr_t)p) { tk_trace_diverged(t, (uintptr_t)p); return; }
    /* Objects start anywhere in a line: the next line holds the rest of a small one. (Sums
     * on the integer: a recorded address may be 0 or stale, no pointer to compute with.) */
    uintptr_t ahead = t->replay[j + TK_TRACE_AHEAD];
    __builtin_prefetch((const void *)ahead);
    __builtin_prefetch((const void *)(ahead + 64));
}

/* The outermost update begins: start recording, follow the walk recorded last. */
void tk_trace_begin(void);
/* The outermost update ends: keep what it recorded. */
void tk_trace_end(void);
/* Turns recording and replay on or off for this thread (on unless TRAITKIT_PREFETCH=0). */
void tk_trace_set_enabled(int on);
int tk_trace_is_enabled(void);
/* The last (or running) update: touches reported, and those found where a recorded walk had them. */
size_t tk_trace_touches(void);
size_t tk_trace_followed(void);

#endif
