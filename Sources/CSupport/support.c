#include "CSupport.h"
#include <malloc.h>

size_t tk_malloc_in_use(void) { return mallinfo2().uordblks; }

