/* pthread_getattr_np is a GNU extension that Swift's Glibc module does not export. */
#define _GNU_SOURCE
#include "CThreadStack.h"
#include <pthread.h>

_Thread_local void *tk_current_box = NULL;

int tk_thread_stack(uintptr_t *floor, size_t *size) {
#if defined(__linux__)
    pthread_attr_t attributes;
    void *base = NULL;
    if (pthread_getattr_np(pthread_self(), &attributes) != 0) return -1;
    int failed = pthread_attr_getstack(&attributes, &base, size);
    pthread_attr_destroy(&attributes);
    if (failed || base == NULL) return -1;
    *floor = (uintptr_t)base;
    return 0;
#elif defined(__APPLE__)
    *size = pthread_get_stacksize_np(pthread_self());
    *floor = (uintptr_t)pthread_get_stackaddr_np(pthread_self()) - *size;
    return 0;
#else
    (void)floor; (void)size;
    return -1;
#endif
}
