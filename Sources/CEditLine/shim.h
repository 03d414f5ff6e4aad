/* libedit's readline interface, for the REPL's line editing, history and completion.
 * Its state is C globals; these accessors keep Swift's strict concurrency checking quiet
 * about them (the REPL uses them from one thread). */
#ifndef TRAITKIT_CEDITLINE_SHIM_H
#define TRAITKIT_CEDITLINE_SHIM_H
#include <stdio.h>
#include <editline/readline.h>

static inline void tk_rl_set_completion(rl_completion_func_t *f) {
    rl_attempted_completion_function = f;
    rl_completion_append_character = 0;
}
static inline const char *tk_rl_line(void) { return rl_line_buffer; }
static inline int tk_rl_point(void) { return rl_point; }
static inline void tk_flush_stdout(void) { fflush(stdout); }
#endif
