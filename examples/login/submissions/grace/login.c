#include <ctype.h>
#include <stdio.h>

static char login[8];
static int length;

static void add(char c) {
    login[length++] = (char)tolower((unsigned char)c);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: login FIRST LAST\n");
        return 1;
    }
    for (char *p = argv[1]; *p != '\0'; p++) {
        if (isalpha((unsigned char)*p)) {
            add(*p);
            break;
        }
    }
    for (char *p = argv[2]; *p != '\0' && length > 0 && length < 8; p++) {
        if (isalpha((unsigned char)*p)) {
            add(*p);
        }
    }
    if (length < 2) {
        fprintf(stderr, "login: a name needs a letter\n");
        return 2;
    }
    login[length] = '\0';
    printf("%s\n", login);
    return 0;
}
