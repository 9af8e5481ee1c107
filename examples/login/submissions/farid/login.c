#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>

/* How many letters of `s` the login takes, at most `max`. */
static int count_letters(const char *s, int max) {
    int n = 0;
    for (; *s != '\0' && n < max; s++) {
        if (isalpha((unsigned char)*s)) {
            n++;
        }
    }
    return n;
}

static void copy_letters(char *dst, const char *s, int max) {
    int n = 0;
    for (; *s != '\0' && n < max; s++) {
        if (isalpha((unsigned char)*s)) {
            dst[n++] = (char)tolower((unsigned char)*s);
        }
    }
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: login FIRST LAST\n");
        return 1;
    }
    int first = count_letters(argv[1], 1);
    int last = count_letters(argv[2], 7);
    if (first == 0 || last == 0) {
        fprintf(stderr, "login: a name needs a letter\n");
        return 2;
    }
    char *login = malloc(first + last);
    if (login == NULL) {
        return 3;
    }
    copy_letters(login, argv[1], first);
    copy_letters(login + first, argv[2], last);
    login[first + last] = '\0';
    printf("%s\n", login);
    free(login);
    return 0;
}
