#include "CWalkTrace.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

_Thread_local tk_trace_state tk_trace = { .followed = -1 };

/* The first buffers hold a small tree's walk; after a walk that overflows them, they grow to
 * hold it with room to spare, up to TK_TRACE_LIMIT touches (8 MB a buffer, a walk of several
 * hundred thousand nodes; a longer one is followed for its first TK_TRACE_LIMIT touches). */
#define TK_TRACE_FIRST 4096
#define TK_TRACE_LIMIT ((size_t)1 << 20)
/* How far from where it was expected a touch is looked for, and how many touches in a row
 * may be found nowhere before the walk stops following. */
#define TK_TRACE_WINDOW 16
#define TK_TRACE_LOST 64

static pthread_key_t trace_key;
static pthread_once_t trace_once = PTHREAD_ONCE_INIT;

static void free_buffers(tk_trace_state *t) {
    free(t->recording);
    for (int r = 0; r < TK_TRACE_RUNS; r++) free(t->runs[r].touches);
    memset(t, 0, sizeof *t);
    t->followed = -1;
}

/* Thread exit: the buffers go with the thread. */
static void thread_exit(void *state) {
    free_buffers(state);
}

static void make_key(void) {
    pthread_key_create(&trace_key, thread_exit);
}

/* Gives every buffer room for `capacity` touches and the TK_TRACE_AHEAD entries after them
 * that a prefetch near the end reads, all zero (a prefetch of address 0 does nothing). The
 * walks recorded so far are dropped: the one that outgrew the buffers is recorded again.
 * Fresh zeroed memory, not a copy, so a large buffer costs nothing until written (calloc
 * maps it). On failure the trace is off. */
static void resize(tk_trace_state *t, size_t capacity) {
    int first = t->capacity == 0;
    free_buffers(t);
    t->enabled = 1;
    uintptr_t **buffers[TK_TRACE_RUNS + 1];
    buffers[0] = &t->recording;
    for (int r = 0; r < TK_TRACE_RUNS; r++) buffers[r + 1] = &t->runs[r].touches;
    for (int b = 0; b <= TK_TRACE_RUNS; b++) {
        *buffers[b] = calloc(capacity + TK_TRACE_AHEAD, sizeof(uintptr_t));
        if (*buffers[b] == NULL) {
            free_buffers(t);
            t->enabled = -1;
            return;
        }
    }
    if (first) {
        pthread_once(&trace_once, make_key);
        pthread_setspecific(trace_key, t);
    }
    t->capacity = capacity;
}

/* A quarter more than `count`, in whole powers of two. */
static size_t room_for(size_t count) {
    size_t capacity = TK_TRACE_FIRST;
    while (capacity < count + count / 4 && capacity < TK_TRACE_LIMIT) capacity *= 2;
    return capacity;
}

void tk_trace_set_enabled(int on) {
    tk_trace_state *t = &tk_trace;
    if (!on) free_buffers(t);
    t->enabled = on ? 1 : -1;
}

int tk_trace_is_enabled(void) {
    tk_trace_state *t = &tk_trace;
    if (t->enabled == 0) {
        const char *setting = getenv("TRAITKIT_PREFETCH");
        t->enabled = setting && strcmp(setting, "0") == 0 ? -1 : 1;
    }
    return t->enabled > 0;
}

size_t tk_trace_touches(void) { return tk_trace.count; }
size_t tk_trace_followed(void) { return tk_trace.count - tk_trace.strays; }

void tk_trace_overflow(tk_trace_state *t) {
    t->count++;
    t->strays++;
}

/* Follows no recorded walk: touches are recorded, nothing is prefetched. */
static void unfollow(tk_trace_state *t) {
    t->followed = -1;
    t->replay = NULL;
    t->replayCount = 0;
}

void tk_trace_begin(void) {
    tk_trace_state *t = &tk_trace;
    if (!tk_trace_is_enabled()) return;
    if (t->capacity == 0) resize(t, TK_TRACE_FIRST);
    else if (t->count > t->capacity && t->capacity < TK_TRACE_LIMIT) resize(t, room_for(t->count));
    t->count = 0;
    t->strays = 0;
    t->misses = 0;
    t->shift = 0;
    if (t->capacity == 0) { unfollow(t); return; }
    t->followed = t->latest;
    t->replay = t->runs[t->latest].touches;
    t->replayCount = t->runs[t->latest].count;
}

void tk_trace_end(void) {
    tk_trace_state *t = &tk_trace;
    if (t->capacity == 0) return;
    /* A walk that kept to the one it followed (all but an eighth of its touches found there)
     * replaces it; any other is another kind of walk and replaces the older one. */
    int same = t->followed >= 0 && t->strays <= t->count / 8;
    int slot = same ? t->followed : (t->latest + 1) % TK_TRACE_RUNS;
    uintptr_t *recorded = t->recording;
    t->recording = t->runs[slot].touches;
    t->runs[slot].touches = recorded;
    t->runs[slot].count = t->count < t->capacity ? t->count : t->capacity;
    t->latest = slot;
    unfollow(t);
    /* `count` stays until the next begin: past `capacity`, the buffers grow then. */
}

/* Follows run `r` from its touch `at`, the one this walk makes now. */
static void follow(tk_trace_state *t, int r, size_t at) {
    t->followed = r;
    t->replay = t->runs[r].touches;
    t->replayCount = t->runs[r].count;
    t->shift = at - (t->count - 1);
    t->misses = 0;
}

/* Whether run `r` has `p` at `at`. */
static int has(const tk_trace_state *t, int r, size_t at, uintptr_t p) {
    return at < t->runs[r].count && t->runs[r].touches[at] == p;
}

void tk_trace_diverged(tk_trace_state *t, uintptr_t p) {
    size_t n = t->count - 1;
    /* Another kind of walk recorded earlier that matches here from the start: two kinds of
     * update that alternate share a beginning and part where their changes differ. */
    for (int k = 1; k < TK_TRACE_RUNS; k++) {
        int r = (t->followed + k) % TK_TRACE_RUNS;
        if (has(t, r, n, p)) { follow(t, r, n); return; }
    }
    /* The same walk, strayed: a few touches added or gone (a node added or removed since). */
    size_t expected = n + t->shift;
    size_t from = expected > TK_TRACE_WINDOW ? expected - TK_TRACE_WINDOW : 0;
    for (size_t at = from; at <= expected + TK_TRACE_WINDOW; at++) {
        if (has(t, t->followed, at, p)) { follow(t, t->followed, at); return; }
    }
    /* New ground (a node added since, say): keep following, unless it goes on for long. */
    t->strays++;
    if (++t->misses > TK_TRACE_LOST) unfollow(t);
}
