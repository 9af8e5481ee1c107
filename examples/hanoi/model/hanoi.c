/*
 * hanoi: the model solution of the Tower of Hanoi assignment
 * (../assignment.md), following every ruling of ../hanoi-rulings.md.
 *
 * It marks the spans of its stdout and its rejections and stops with
 * conformance_span.h (the span protocol, docs/span-protocol.md), so that a
 * student's first difference is named by rule. Untraced, the span_ calls
 * cost nothing and change no byte.
 *
 * Build: cc -std=c99 -Wall -Wextra -pedantic -O2 -o hanoi hanoi.c
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance_span.h"

#define MAX_DISCS 9
#define MAX_COUNT 999999L

/* Exit statuses (ARGS-1..3, FILE-5, EOF-1). */
enum { EXIT_USAGE = 1, EXIT_DISCS = 2, EXIT_OPEN = 3, EXIT_FILE = 4, EXIT_EOF = 5 };

struct game {
    int discs;
    int height[3];
    int peg[3][MAX_DISCS]; /* bottom to top */
    long moves;
};

/* Prints MESSAGE on stderr and exits with STATUS, recording why. */
static void stop(const char *rule, const char *kind, const char *says, const char *exit_rule,
                 const char *message, int status, const char *detail) {
    span_stopped(rule, kind, says, exit_rule, "%s: %s rejects that, so the model stops with `%s` (exit %d, %s)",
                 detail, rule, message, status, exit_rule);
    fflush(stdout);
    fprintf(stderr, "%s\n", message);
    exit(status);
}

/* NOT_DIGITS and TOO_LARGE: what digits() says of a string that is no
 * number, or a number above its bound. */
enum { NOT_DIGITS = -1, TOO_LARGE = -2 };

/* The value of S (LEN bytes) when it is decimal digits only (leading zeros
 * accepted) and at most MAX; else NOT_DIGITS or TOO_LARGE, never wrapped. */
static long digits(const char *s, size_t len, long max) {
    long value = 0;
    int large = 0;
    size_t i;
    if (len == 0) {
        return NOT_DIGITS;
    }
    for (i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9') {
            return NOT_DIGITS;
        }
        if (!large) {
            value = value * 10 + (s[i] - '0');
            large = value > max;
        }
    }
    return large ? TOO_LARGE : value;
}

static void file_error(const char *rule, const char *kind, const char *says, const char *detail) {
    stop(rule, kind, says, "FILE-5", "Invalid save file", EXIT_FILE, detail);
}

/* Reads the save file's four lines into G (FILE-1..4). */
static void load(struct game *g, FILE *f) {
    char text[4097];
    size_t len = fread(text, 1, sizeof text - 1, f);
    size_t at = 0;
    int line, i, seen[MAX_DISCS + 1] = {0};
    if (len == sizeof text - 1) {
        file_error("FILE-1", "too-long", "more than four short lines", "a save file of 4 KiB or more");
    }
    text[len] = '\0';
    for (line = 0; line < 4; line++) {
        const char *start = text + at;
        const char *nl = memchr(start, '\n', len - at);
        size_t n;
        if (!nl) {
            file_error("FILE-1", "truncated", "fewer than four lines ending in a newline",
                       "the save file ends before its fourth newline");
        }
        n = (size_t)(nl - start);
        at += n + 1;
        if (line == 0) {
            g->moves = digits(start, n, MAX_COUNT);
            if (g->moves < 0) {
                file_error("FILE-2", "move-count", "a move count not 0..999999 in digits",
                           "line 1 of the save file is not a move count");
            }
            continue;
        }
        g->height[line - 1] = 0;
        for (i = 0; (size_t)i < n; i += 2) {
            int d = start[i] - '0';
            int *h = &g->height[line - 1];
            if (start[i] < '0' || start[i] > '9') {
                file_error("FILE-1", "disc-form", "discs not single digits and single spaces",
                           "a peg line of the save file holds a byte not a digit where a disc belongs");
            }
            if ((size_t)i + 1 < n && start[i + 1] != ' ') {
                file_error("FILE-1", "disc-form", "discs not single digits and single spaces",
                           "a peg line of the save file is not single digits and single spaces");
            }
            if ((size_t)i + 1 == n - 1 && start[i + 1] == ' ') {
                file_error("FILE-1", "disc-form", "discs not single digits and single spaces",
                           "a peg line of the save file ends in a space");
            }
            if (d < 1 || d > g->discs || seen[d]) {
                file_error("FILE-3", "disc", "a disc not in 1..N or given twice",
                           "a peg line of the save file names a disc outside 1..N or twice");
            }
            if (*h > 0 && g->peg[line - 1][*h - 1] < d) {
                file_error("FILE-4", "larger-on-smaller", "a larger disc on a smaller one",
                           "a peg of the save file has a larger disc on a smaller one");
            }
            seen[d] = 1;
            g->peg[line - 1][(*h)++] = d;
        }
    }
    if (at != len) {
        file_error("FILE-1", "extra", "bytes after the fourth line", "the save file goes on after its fourth line");
    }
    for (i = 1; i <= g->discs; i++) {
        if (!seen[i]) {
            file_error("FILE-3", "disc-missing", "a disc of 1..N missing",
                       "the save file lacks one of the discs 1..N");
        }
    }
}

/* One board line: text for each peg at LEVEL (1 = bottom), trailing
 * spaces dropped (DISP-1). */
static void board_line(const struct game *g, int level) {
    char line[3 * (2 * MAX_DISCS + 2)];
    int p, k, n = g->discs, at = 0, end;
    for (p = 0; p < 3; p++) {
        int disc = level <= g->height[p] ? g->peg[p][level - 1] : 0;
        for (k = n; k > 0; k--) {
            line[at++] = k <= disc ? '=' : ' ';
        }
        line[at++] = '|';
        for (k = 1; k <= n; k++) {
            line[at++] = k <= disc ? '=' : ' ';
        }
        line[at++] = ' ';
    }
    end = at;
    while (end > 0 && line[end - 1] == ' ') {
        end--;
    }
    span_write(line, (size_t)end);
    span_putchar('\n');
}

static void show(const struct game *g, const char *what) {
    int level, k, width = 2 * g->discs + 1;
    span_enter("DISP-1,DISP-2", what);
    for (level = g->discs + 1; level >= 1; level--) {
        board_line(g, level);
    }
    for (k = 0; k < 3 * width + 2; k++) {
        span_putchar('-');
    }
    span_putchar('\n');
    span_printf("%*s1%*s2%*s3\n", g->discs, "", width, "", width, "");
}

/* END-1, END-2: all discs on peg 3 ends the game. */
static void check_solved(const struct game *g) {
    if (g->height[2] != g->discs) {
        return;
    }
    span_enter("END-1,END-2", "the solved line");
    span_printf("Solved in %ld move%s%s\n", g->moves, g->moves == 1 ? "" : "s",
                g->moves == (1L << g->discs) - 1 ? " (optimal)" : "");
    exit(0);
}

static void save(const struct game *g, const char *line, size_t len) {
    const char *path = line + 5;
    FILE *f = fopen(path, "w");
    int p, i;
    if (!f) {
        span_rejected("SAVE-4", "save-open", "a path that cannot be written", line, len,
                      "SAVE-4 rejects it (`%s` cannot be opened for writing)", path);
        fprintf(stderr, "Unable to save game\n");
        return;
    }
    fprintf(f, "%ld\n", g->moves);
    for (p = 0; p < 3; p++) {
        for (i = 0; i < g->height[p]; i++) {
            fprintf(f, i ? " %d" : "%d", g->peg[p][i]);
        }
        fputc('\n', f);
    }
    if (fclose(f) != 0) {
        span_rejected("SAVE-4", "save-write", "a save that cannot be written", line, len,
                      "SAVE-4 rejects it (`%s` could not be written)", path);
        fprintf(stderr, "Unable to save game\n");
    }
}

/* One input line: a move (MOVE-2..4) or a save (SAVE-1). */
static void play(struct game *g, const char *line, size_t len) {
    const char *space = memchr(line, ' ', len);
    long from, to;
    int *hf, *ht;
    if (len >= 5 && memcmp(line, "save ", 5) == 0) {
        save(g, line, len);
        return;
    }
    from = space ? digits(line, (size_t)(space - line), 1000) : -1;
    to = space ? digits(space + 1, len - (size_t)(space - line) - 1, 1000) : -1;
    if (from == NOT_DIGITS || to == NOT_DIGITS) {
        span_rejected("MOVE-2", "form", "not two numbers and one space", line, len,
                      "MOVE-2 rejects it (a move is two decimal numbers and one space, nothing else)");
        span_enter("MOVE-2", "the answer to an invalid line");
        span_puts("Invalid move");
        return;
    }
    if (from < 1 || from > 3 || to < 1 || to > 3) {
        span_rejected("MOVE-2", "range", "a peg outside 1..3", line, len,
                      "MOVE-2 rejects it (peg %ld is not 1, 2 or 3)", from < 1 || from > 3 ? from : to);
        span_enter("MOVE-2", "the answer to an invalid line");
        span_puts("Invalid move");
        return;
    }
    hf = &g->height[from - 1];
    ht = &g->height[to - 1];
    if (from == to || *hf == 0 || (*ht > 0 && g->peg[to - 1][*ht - 1] < g->peg[from - 1][*hf - 1])) {
        const char *kind = from == to ? "same-peg" : *hf == 0 ? "empty-peg" : "larger-on-smaller";
        const char *says = from == to     ? "a move from a peg to itself"
                           : *hf == 0     ? "a move from an empty peg"
                                          : "a larger disc onto a smaller one";
        span_rejected("MOVE-3", kind, says, line, len, "MOVE-3 rejects it (%s: %ld to %ld)", says, from, to);
        span_enter("MOVE-3", "the answer to an illegal move");
        span_puts("Illegal move");
        return;
    }
    g->peg[to - 1][(*ht)++] = g->peg[from - 1][--*hf];
    g->moves++;
    show(g, "the board after a move");
    check_solved(g);
}

int main(int argc, char **argv) {
    struct game g;
    char *line = NULL;
    size_t cap = 0;
    long discs;
    int i;
    if (argc != 2 && argc != 3) {
        stop("ARGS-1", "argument-count", "not 1 or 2 arguments", "ARGS-1",
             "Usage: hanoi discs [savefile]", EXIT_USAGE, "the command line");
    }
    discs = digits(argv[1], strlen(argv[1]), MAX_DISCS);
    if (discs < 1) {
        stop("ARGS-2", "disc-count", "a disc count not 1..9 in digits", "ARGS-2", "Invalid disc count",
             EXIT_DISCS, "the first argument");
    }
    memset(&g, 0, sizeof g);
    g.discs = (int)discs;
    if (argc == 3) {
        FILE *f = fopen(argv[2], "r");
        if (!f) {
            stop("ARGS-3", "file-open", "a save file that cannot be opened", "ARGS-3",
                 "Unable to open file", EXIT_OPEN, "the save file");
        }
        load(&g, f);
        fclose(f);
    } else {
        for (i = 0; i < g.discs; i++) {
            g.peg[0][i] = g.discs - i;
        }
        g.height[0] = g.discs;
    }
    show(&g, "the board at the start");
    check_solved(&g);
    for (;;) {
        ssize_t n;
        span_enter("MOVE-1", "the prompt");
        span_printf("Move %ld> ", g.moves + 1);
        fflush(stdout);
        n = getline(&line, &cap, stdin);
        if (n <= 0) {
            stop("EOF-1", "end-of-input", "input ends", "EOF-1", "End of input", EXIT_EOF,
                 "input ended at a prompt");
        }
        if (line[n - 1] == '\n') {
            line[--n] = '\0';
        }
        play(&g, line, (size_t)n);
    }
}
