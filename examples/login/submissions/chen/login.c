#include <ctype.h>
#include <stdio.h>

static const char *next_letter(const char *s) {
    while (*s != '\0' && !isalpha((unsigned char)*s)) {
        s++;
    }
    return s;
}

int main(int argc, char *argv[]) {
    if (argc != 3) {
        fputs("usage: login FIRST LAST\n", stderr);
        return 1;
    }
    const char *first = next_letter(argv[1]);
    const char *last = next_letter(argv[2]);
    if (*first == '\0' || *last == '\0') {
        fputs("login: a name needs a letter\n", stderr);
        return 2;
    }
    putchar(tolower((unsigned char)*first));
    for (int count = 0; *last != '\0' && count < 7; last = next_letter(last + 1)) {
        putchar(tolower((unsigned char)*last));
        count++;
    }
    putchar('\n');
    return 0;
}
