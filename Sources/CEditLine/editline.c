/* libedit, opened with dlopen when the REPL starts rather than linked: linked, libedit and the
 * three libraries it needs (tinfo, bsd, md) are loaded and relocated at every start of
 * traitkit, about 0.4 ms of a `traitkit run` that never edits a line. Without libedit (no
 * libedit2 package) tk_edit_open says so and the REPL reads plain lines. */
#include "CEditLine.h"
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <sys/types.h>

static struct {
    int state;  /* 0: not tried yet; 1: loaded; -1: not available */
    char *(*readline)(const char *);
    int (*add_history)(const char *);
    int (*read_history)(const char *);
    int (*write_history)(const char *);
    char **(*completion_matches)(const char *, tk_compentry_func *);
    tk_completion_func **attempted_completion_function;
    int *completion_append_character;
    char **line_buffer;
    int *point;
} edit;

/* Stores the address of `name` in `*slot`; whether libedit has it. */
static int bind(void *library, const char *name, void *slot) {
    void *address = dlsym(library, name);
    *(void **)slot = address;
    return address != NULL;
}

int tk_edit_open(void) {
    if (edit.state) return edit.state > 0;
    edit.state = -1;
    void *library = dlopen("libedit.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!library) return 0;
    if (bind(library, "readline", &edit.readline)
        && bind(library, "add_history", &edit.add_history)
        && bind(library, "read_history", &edit.read_history)
        && bind(library, "write_history", &edit.write_history)
        && bind(library, "rl_completion_matches", &edit.completion_matches)
        && bind(library, "rl_attempted_completion_function", &edit.attempted_completion_function)
        && bind(library, "rl_completion_append_character", &edit.completion_append_character)
        && bind(library, "rl_line_buffer", &edit.line_buffer)
        && bind(library, "rl_point", &edit.point))
        edit.state = 1;
    return edit.state > 0;
}

char *tk_edit_readline(const char *prompt) { return edit.readline(prompt); }
void tk_edit_add_history(const char *line) { edit.add_history(line); }
void tk_edit_read_history(const char *path) { edit.read_history(path); }
void tk_edit_write_history(const char *path) { edit.write_history(path); }

void tk_edit_set_completion(tk_completion_func *f) {
    *edit.attempted_completion_function = f;
    *edit.completion_append_character = 0;
}

char **tk_edit_completion_matches(const char *text, tk_compentry_func *entry) {
    return edit.completion_matches(text, entry);
}

const char *tk_edit_line(void) { return *edit.line_buffer; }
int tk_edit_point(void) { return *edit.point; }
void tk_flush_stdout(void) { fflush(stdout); }

long tk_read_line(char **line, unsigned long *capacity) {
    errno = 0;
    ssize_t count = getline(line, capacity, stdin);
    if (count >= 0) return (long)count;
    if (errno != EINTR) return -1;
    clearerr(stdin);
    return -2;
}
