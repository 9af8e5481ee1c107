/* login: the model solution. `login FIRST LAST` prints a login name: the
 * first letter of FIRST and the first seven letters of LAST, in lower
 * case, other characters skipped (login-rulings.md). */
#include <ctype.h>
#include <stdio.h>

#define LAST_LETTERS 7

/* The first letter of `name` in lower case, or 0 if it has none. */
static char first_letter(const char *name) {
    for (; *name != '\0'; name++) {
        if (isalpha((unsigned char)*name)) {
            return (char)tolower((unsigned char)*name);
        }
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: login FIRST LAST\n");
        return 1;
    }
    char login[1 + LAST_LETTERS + 1];
    size_t n = 0;
    login[n] = first_letter(argv[1]);
    if (login[n] == 0) {
        fprintf(stderr, "login: a name needs a letter\n");
        return 2;
    }
    n++;
    for (const char *p = argv[2]; *p != '\0' && n < 1 + LAST_LETTERS; p++) {
        if (isalpha((unsigned char)*p)) {
            login[n++] = (char)tolower((unsigned char)*p);
        }
    }
    if (n == 1) {
        fprintf(stderr, "login: a name needs a letter\n");
        return 2;
    }
    login[n] = '\0';
    printf("%s\n", login);
    return 0;
}
