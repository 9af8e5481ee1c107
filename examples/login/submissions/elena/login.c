#include <ctype.h>
#include <stdio.h>

#define MAX_LOGIN 8

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: login FIRST LAST\n");
        return 1;
    }
    char login[MAX_LOGIN];
    int n = 0;
    const char *first = argv[1];
    while (*first != '\0' && !isalpha((unsigned char)*first)) {
        first++;
    }
    if (*first == '\0') {
        fprintf(stderr, "login: a name needs a letter\n");
        return 2;
    }
    login[n++] = tolower((unsigned char)*first);
    for (const char *p = argv[2]; *p != '\0' && n < MAX_LOGIN; p++) {
        if (isalpha((unsigned char)*p)) {
            login[n++] = tolower((unsigned char)*p);
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
