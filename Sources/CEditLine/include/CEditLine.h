/* libedit's readline interface, for the REPL's line editing, history and completion, loaded
 * when the REPL first asks for it (editline.c says why). The REPL uses it from one thread. */
#ifndef TRAITKIT_CEDITLINE_H
#define TRAITKIT_CEDITLINE_H

/* readline's completion callbacks. */
typedef char *tk_compentry_func(const char *text, int state);
typedef char **tk_completion_func(const char *text, int start, int end);

/* Loads libedit the first time; whether it is there (the functions below need it). */
int tk_edit_open(void);

/* readline(3): the line typed after `prompt`, malloc'ed, or NULL at end of input. */
char *tk_edit_readline(const char *prompt);
void tk_edit_add_history(const char *line);
void tk_edit_read_history(const char *path);
void tk_edit_write_history(const char *path);

/* Completion: `f` is asked for the matches of the word before the cursor, and answers
 * tk_edit_completion_matches(text, entry); nothing is appended after a completed word. */
void tk_edit_set_completion(tk_completion_func *f);
char **tk_edit_completion_matches(const char *text, tk_compentry_func *entry);

/* The line being edited and the cursor's byte offset in it. */
const char *tk_edit_line(void);
int tk_edit_point(void);

void tk_flush_stdout(void);

/* Reads one line of standard input into *line (getline's buffer, which the caller frees):
 * its length with the newline, -1 at end of input, or -2 when a signal (Ctrl-C) ended the
 * read. Then the stream's error flag is cleared, so the next read waits again: getline fails
 * at once on a stream whose error flag is set, and Swift's readLine retries such a read for
 * ever, spinning. */
long tk_read_line(char **line, unsigned long *capacity);

#endif
