#include <ctype.h>
#include <stdio.h>

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: login FIRST LAST\n");
        return 1;
    }
    char login[9];
    int n = 0;
    for (char *p = argv[1]; *p && n == 0; p++) {
        if (isalpha((unsigned char)*p)) {
            login[n++] = tolower((unsigned char)*p);
        }
    }
    for (char *p = argv[2]; *p && n > 0 && n < 8; p++) {
        if (isalpha((unsigned char)*p)) {
            login[n++] = tolower((unsigned char)*p);
        }
    }
    if (n < 2) {
        fprintf(stderr, "login: a name needs a letter\n");
        return 2;
    }
    login[n] = '\0';
    printf("%s\n", login);
    return 0;
}
