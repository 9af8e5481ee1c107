/*
 * conformance_span.h: the span protocol of boxes-conformance for a C model
 * solution (docs/span-protocol.md). One file, C99, libc only.
 *
 * A model solution marks which rules each span of its stdout obeys, and
 * why it rejects an input line or stops, so that the harness can name a
 * student's first difference by rule ("in the board after a move (DISP-1)",
 * "accepts `4 1`: MOVE-2 rejects it"). Everything is a no-op unless the
 * environment variable CONFORMANCE_PROVENANCE names a file (the harness
 * sets it only when it runs the model traced); then the record is written
 * to that file when the program exits (exit() or a return from main), or
 * at span_flush().
 *
 *     #include "conformance_span.h"
 *
 *     span_enter("DISP-1,DISP-2", "the board after a move");
 *     span_printf("%s\n", line);            // stdout, counted
 *     span_enter("MOVE-1", "the prompt");
 *     span_fputs("Move 1> ");
 *     ...
 *     span_rejected("MOVE-2", "range", "a peg outside 1..3",
 *                   line, len, "MOVE-2 rejects it (peg %d)", peg);
 *     span_stopped("FILE-2", "disc", "a disc not in 1..N", "FILE-4",
 *                  "line %d of the save file: ...", n);
 *     span_empty("END-1", "after the last prompt");   // an empty span here
 *
 * Every byte of stdout must go through the span_ writers (span_printf,
 * span_fputs, span_puts, span_putchar, span_fwrite, span_write): they
 * write to stdout exactly as printf, fputs, puts, putchar and fwrite do,
 * and count the bytes, so the record's offsets are stdout's. Writes to
 * stderr are not counted: write them as usual.
 *
 * One translation unit (the usual model): include the header; its
 * functions are static. Several: define CONFORMANCE_SPAN_EXTERN before
 * every include, and CONFORMANCE_SPAN_IMPLEMENTATION as well in exactly
 * one file.
 *
 * The record (read by reference_kit::trace::parse_record) is text, one
 * entry a line: first the rulings in order,
 *     ! rejected|stopped AT RULE KIND LINE-HEX EXIT-RULE\tSAYS\tDETAIL
 * then the asides (what the model writes besides stdout: span_wrote_file,
 * span_wrote_stderr),
 *     > file|stderr AT BYTES-HEX RULES\tWHAT
 * then the spans in order,
 *     START END RULES\tWHAT
 * (byte offsets of stdout, END one past the last byte; consecutive writes
 * in the same context make one span). Word fields (RULE, KIND, EXIT-RULE,
 * RULES) have every byte <= 0x20 replaced by '_' and are '-' when empty
 * (RULES stays empty: no rules); SAYS, DETAIL and WHAT have tabs, newlines and carriage
 * returns replaced by spaces; LINE-HEX is the rejected line's first 120
 * bytes in lower-case hex, '-' when empty.
 */
#ifndef CONFORMANCE_SPAN_H
#define CONFORMANCE_SPAN_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#ifdef CONFORMANCE_SPAN_EXTERN
#define SPAN_API
#else
#define SPAN_API static
#endif

#if defined(__GNUC__) || defined(__clang__)
#define SPAN_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define SPAN_UNUSED __attribute__((unused))
#else
#define SPAN_PRINTF(f, a)
#define SPAN_UNUSED
#endif

/* The environment variable naming the record file. */
#define SPAN_ENV "CONFORMANCE_PROVENANCE"
/* Bytes of a rejected line the record keeps. */
#define SPAN_LINE_KEPT 120
/* Bytes of an aside's path or message past which it is not recorded. */
#define SPAN_ASIDE_KEPT 4096

/* From now on, stdout is written obeying RULES (comma-separated rule IDs,
 * no spaces) and is WHAT (a few words for a person). Both are copied. */
SPAN_API SPAN_UNUSED void span_enter(const char *rules, const char *what);
/* The model rejected input LINE (LEN bytes, without its newline) for the
 * reason RULE/KIND/SAYS; DETAIL (printf format) names the case's values. */
SPAN_API SPAN_UNUSED void span_rejected(const char *rule, const char *kind, const char *says,
                                        const char *line, size_t len, const char *detail, ...)
    SPAN_PRINTF(6, 7);
/* The model stops for the reason RULE/KIND/SAYS with the message and status
 * of EXIT_RULE; DETAIL (printf format) names the case's values. */
SPAN_API SPAN_UNUSED void span_stopped(const char *rule, const char *kind, const char *says,
                                       const char *exit_rule, const char *detail, ...)
    SPAN_PRINTF(5, 6);
/* The model wrote the file PATH (as it opened it) obeying RULES, doing
 * WHAT (a verb phrase: "save the game"): a program that does not is
 * blamed on them. */
SPAN_API SPAN_UNUSED void span_wrote_file(const char *path, const char *rules, const char *what);
/* The model wrote DATA (LEN bytes, its newline included) on stderr obeying
 * RULES, doing WHAT. */
SPAN_API SPAN_UNUSED void span_wrote_stderr(const char *data, size_t len, const char *rules,
                                            const char *what);
/* Marks an empty span of RULES (comma-separated rule IDs) here: the place
 * where the model, under those rules, prints nothing (the end of input
 * after the last prompt). A rule judged `any` frees what a program prints
 * there, none included. The current context (span_enter) is kept. */
SPAN_API SPAN_UNUSED void span_empty(const char *rules, const char *what);
/* Whether the record is kept (CONFORMANCE_PROVENANCE names a file). */
SPAN_API SPAN_UNUSED int span_active(void);
/* Writes the record now (also done at exit); later writes extend it. */
SPAN_API SPAN_UNUSED void span_flush(void);

/* The counting writers: as printf, fputs (no newline), puts (a newline
 * added), putchar, fwrite and a raw byte buffer, all to stdout. */
SPAN_API SPAN_UNUSED int span_printf(const char *format, ...) SPAN_PRINTF(1, 2);
SPAN_API SPAN_UNUSED int span_vprintf(const char *format, va_list args);
SPAN_API SPAN_UNUSED int span_fputs(const char *s);
SPAN_API SPAN_UNUSED int span_puts(const char *s);
SPAN_API SPAN_UNUSED int span_putchar(int c);
SPAN_API SPAN_UNUSED size_t span_fwrite(const void *data, size_t size, size_t count);
SPAN_API SPAN_UNUSED size_t span_write(const void *data, size_t len);

#if !defined(CONFORMANCE_SPAN_EXTERN) || defined(CONFORMANCE_SPAN_IMPLEMENTATION)

#include <stdlib.h>
#include <string.h>

struct span_entry {
    unsigned long long start, end;
    char *rules, *what;
};

struct span_ruling {
    int stopped;
    unsigned long long at;
    char *rule, *kind, *says, *detail, *line_hex, *exit_rule;
};

/* The whole state; `on` is 0 before the first call, 1 traced, -1 not. */
static struct {
    int on;
    char *path;
    unsigned long long at;
    char *rules, *what;
    struct span_entry *spans;
    size_t nspans, capspans;
    struct span_ruling *rulings;
    size_t nrulings, caprulings;
    char **asides; /* record lines, rendered when written */
    size_t nasides, capasides;
} span_state;

static char *span_copy(const char *s) {
    size_t n = strlen(s ? s : "");
    char *c = (char *)malloc(n + 1);
    if (c) {
        memcpy(c, s ? s : "", n + 1);
    }
    return c;
}

/* A word field: no byte <= 0x20 (a space would split the record's line),
 * '-' when empty. */
static char *span_word(const char *s) {
    char *c = span_copy(s && *s ? s : "-");
    char *p;
    for (p = c; p && *p; p++) {
        if ((unsigned char)*p <= 0x20) {
            *p = '_';
        }
    }
    return c;
}

/* A text field: no tab, newline or carriage return. */
static char *span_text(const char *s) {
    char *c = span_copy(s);
    char *p;
    for (p = c; p && *p; p++) {
        if (*p == '\t' || *p == '\n' || *p == '\r') {
            *p = ' ';
        }
    }
    return c;
}

static char *span_vformat(const char *format, va_list args) {
    va_list again;
    int n;
    char *s;
    va_copy(again, args);
    n = vsnprintf(NULL, 0, format, again);
    va_end(again);
    if (n < 0) {
        return span_copy("");
    }
    s = (char *)malloc((size_t)n + 1);
    if (s) {
        vsnprintf(s, (size_t)n + 1, format, args);
    }
    return s;
}

static void span_at_exit(void) {
    span_flush();
}

/* Reads the environment once: whether this run is traced. */
static int span_on(void) {
    if (span_state.on == 0) {
        const char *path = getenv(SPAN_ENV);
        span_state.on = -1;
        if (path && *path) {
            span_state.path = span_copy(path);
            if (span_state.path && atexit(span_at_exit) == 0) {
                span_state.on = 1;
            }
        }
    }
    return span_state.on == 1;
}

#if defined(__GNUC__) || defined(__clang__)
/* Reads the environment before main, so that the record's atexit handler
 * is registered before any of the model's own and runs after them: bytes
 * they write at exit are still counted. */
static void span_init(void) __attribute__((constructor));
static void span_init(void) {
    (void)span_on();
}
#endif

SPAN_API int span_active(void) {
    return span_on();
}

SPAN_API void span_enter(const char *rules, const char *what) {
    char *r, *w;
    if (!span_on()) {
        return;
    }
    /* The list is one word (commas stay); no rules at all is the empty
     * word, which reads back as an empty list. */
    r = rules && *rules ? span_word(rules) : span_copy("");
    w = span_text(what);
    if (!r || !w) {
        free(r);
        free(w);
        return;
    }
    free(span_state.rules);
    free(span_state.what);
    span_state.rules = r;
    span_state.what = w;
}

/* The array ITEMS (capacity *CAP, N used, SIZE bytes an item) with room
 * for one more, grown if needed; NULL (ITEMS kept) when memory runs out. */
static void *span_room(void *items, size_t *cap, size_t n, size_t size) {
    size_t more = *cap ? *cap * 2 : 16;
    void *grown;
    if (n < *cap) {
        return items;
    }
    grown = realloc(items, more * size);
    if (grown) {
        *cap = more;
    }
    return grown;
}

/* Appends the span START..END of RULES (already a word) and WHAT. */
static void span_push(unsigned long long start, unsigned long long end, const char *rules,
                      const char *what) {
    struct span_entry *spans, *last;
    spans = (struct span_entry *)span_room(span_state.spans, &span_state.capspans,
                                           span_state.nspans, sizeof *spans);
    if (!spans) {
        return;
    }
    span_state.spans = spans;
    last = &span_state.spans[span_state.nspans];
    last->start = start;
    last->end = end;
    last->rules = span_copy(rules);
    last->what = span_text(what);
    if (!last->rules || !last->what) {
        free(last->rules);
        free(last->what);
        return;
    }
    span_state.nspans++;
}

/* N bytes of stdout were written in the current context. */
static void span_wrote(size_t n) {
    unsigned long long start;
    struct span_entry *last;
    if (!span_on() || n == 0) {
        return;
    }
    start = span_state.at;
    span_state.at += n;
    if (!span_state.rules) {
        return;
    }
    last = span_state.nspans ? &span_state.spans[span_state.nspans - 1] : NULL;
    if (last && last->end == start && strcmp(last->rules, span_state.rules) == 0 &&
        strcmp(last->what, span_state.what) == 0) {
        last->end = span_state.at;
        return;
    }
    span_push(start, span_state.at, span_state.rules, span_state.what);
}

SPAN_API void span_empty(const char *rules, const char *what) {
    char *r;
    if (!span_on()) {
        return;
    }
    r = rules && *rules ? span_word(rules) : span_copy("");
    if (r) {
        span_push(span_state.at, span_state.at, r, what);
    }
    free(r);
}

/* Records a ruling, its detail a printf format over `args`, when this run
 * is traced (nothing is formatted otherwise). */
static void span_note(int stopped, const char *rule, const char *kind, const char *says,
                      const char *line, size_t len, const char *exit_rule, const char *format,
                      va_list args) {
    struct span_ruling *r, *rulings;
    size_t i;
    char *detail;
    if (!span_on()) {
        return;
    }
    detail = span_vformat(format, args);
    rulings = (struct span_ruling *)span_room(span_state.rulings, &span_state.caprulings,
                                              span_state.nrulings, sizeof *rulings);
    if (!rulings) {
        free(detail);
        return;
    }
    span_state.rulings = rulings;
    r = &span_state.rulings[span_state.nrulings];
    r->stopped = stopped;
    r->at = span_state.at;
    r->rule = span_word(rule);
    r->kind = span_word(kind);
    r->says = span_text(says);
    r->detail = span_text(detail ? detail : "");
    r->exit_rule = span_word(exit_rule);
    free(detail);
    if (len > SPAN_LINE_KEPT) {
        len = SPAN_LINE_KEPT;
    }
    if (!line) {
        len = 0;
    }
    r->line_hex = (char *)malloc(len * 2 + 2);
    if (r->line_hex) {
        for (i = 0; i < len; i++) {
            sprintf(r->line_hex + 2 * i, "%02x", (unsigned)(unsigned char)line[i]);
        }
        strcpy(r->line_hex + 2 * len, len ? "" : "-");
    }
    if (!r->rule || !r->kind || !r->says || !r->detail || !r->exit_rule || !r->line_hex) {
        free(r->rule);
        free(r->kind);
        free(r->says);
        free(r->detail);
        free(r->exit_rule);
        free(r->line_hex);
        return;
    }
    span_state.nrulings++;
}

SPAN_API void span_rejected(const char *rule, const char *kind, const char *says,
                            const char *line, size_t len, const char *detail, ...) {
    va_list args;
    va_start(args, detail);
    span_note(0, rule, kind, says, line, len, "", detail, args);
    va_end(args);
}

SPAN_API void span_stopped(const char *rule, const char *kind, const char *says,
                           const char *exit_rule, const char *detail, ...) {
    va_list args;
    va_start(args, detail);
    span_note(1, rule, kind, says, "", 0, exit_rule, detail, args);
    va_end(args);
}

static void span_aside(const char *channel, const char *data, size_t len, const char *rules,
                       const char *what) {
    char **asides, *line, *r, *w, *p;
    size_t i;
    if (!span_on() || len > SPAN_ASIDE_KEPT) {
        return;
    }
    asides = (char **)span_room(span_state.asides, &span_state.capasides, span_state.nasides,
                                sizeof *asides);
    if (!asides) {
        return;
    }
    span_state.asides = asides;
    r = rules && *rules ? span_word(rules) : span_copy("");
    w = span_text(what);
    line = r && w ? (char *)malloc(strlen(channel) + len * 2 + strlen(r) + strlen(w) + 32) : NULL;
    if (line) {
        p = line + sprintf(line, "> %s %llu ", channel, span_state.at);
        for (i = 0; i < len; i++) {
            p += sprintf(p, "%02x", (unsigned)(unsigned char)data[i]);
        }
        sprintf(p, "%s %s\t%s\n", len ? "" : "-", r, w);
        span_state.asides[span_state.nasides++] = line;
    }
    free(r);
    free(w);
}

SPAN_API void span_wrote_file(const char *path, const char *rules, const char *what) {
    span_aside("file", path ? path : "", path ? strlen(path) : 0, rules, what);
}

SPAN_API void span_wrote_stderr(const char *data, size_t len, const char *rules,
                                const char *what) {
    span_aside("stderr", data ? data : "", data ? len : 0, rules, what);
}

SPAN_API void span_flush(void) {
    FILE *f;
    size_t i;
    if (!span_on()) {
        return;
    }
    /* The record is advice: a file that cannot be written is no error of
     * the program's, and the harness then finds no record. */
    f = fopen(span_state.path, "w");
    if (!f) {
        return;
    }
    for (i = 0; i < span_state.nrulings; i++) {
        const struct span_ruling *r = &span_state.rulings[i];
        fprintf(f, "! %s %llu %s %s %s %s\t%s\t%s\n", r->stopped ? "stopped" : "rejected", r->at,
                r->rule, r->kind, r->line_hex, r->exit_rule, r->says, r->detail);
    }
    for (i = 0; i < span_state.nasides; i++) {
        fputs(span_state.asides[i], f);
    }
    for (i = 0; i < span_state.nspans; i++) {
        const struct span_entry *s = &span_state.spans[i];
        fprintf(f, "%llu %llu %s\t%s\n", s->start, s->end, s->rules, s->what);
    }
    fclose(f);
}

SPAN_API int span_vprintf(const char *format, va_list args) {
    int n = vfprintf(stdout, format, args);
    if (n > 0) {
        span_wrote((size_t)n);
    }
    return n;
}

SPAN_API int span_printf(const char *format, ...) {
    va_list args;
    int n;
    va_start(args, format);
    n = span_vprintf(format, args);
    va_end(args);
    return n;
}

SPAN_API size_t span_write(const void *data, size_t len) {
    size_t n = fwrite(data, 1, len, stdout);
    span_wrote(n);
    return n;
}

SPAN_API size_t span_fwrite(const void *data, size_t size, size_t count) {
    size_t n = fwrite(data, size, count, stdout);
    span_wrote(n * size);
    return n;
}

SPAN_API int span_fputs(const char *s) {
    size_t len = strlen(s);
    return span_write(s, len) == len ? 0 : EOF;
}

SPAN_API int span_puts(const char *s) {
    if (span_fputs(s) == EOF) {
        return EOF;
    }
    return span_putchar('\n') == EOF ? EOF : 0;
}

SPAN_API int span_putchar(int c) {
    int r = putchar(c);
    if (r != EOF) {
        span_wrote(1);
    }
    return r;
}

#endif /* implementation */
#endif /* CONFORMANCE_SPAN_H */
