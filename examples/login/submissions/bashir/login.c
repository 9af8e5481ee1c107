#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Copies the letters of src into dst in lower case, at most max of them. */
static size_t letters(char *dst, const char *src, size_t max) {
    size_t n = 0;
    for (size_t i = 0; src[i] != '\0' && n < max; i++) {
        if (isalpha((unsigned char)src[i])) {
            dst[n++] = (char)tolower((unsigned char)src[i]);
        }
    }
    return n;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: login FIRST LAST\n");
        return 1;
    }
    char *login = malloc(strlen(argv[2]) + 2);
    if (login == NULL) {
        return 3;
    }
    size_t first = letters(login, argv[1], 1);
    size_t last = letters(login + first, argv[2], 7);
    if (first == 0 || last == 0) {
        fprintf(stderr, "login: a name needs a letter\n");
        free(login);
        return 2;
    }
    login[first + last] = '\0';
    printf("%s\n", login);
    free(login);
    return 0;
}
