#include <ctype.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: login FIRST LAST\n");
        return 1;
    }
    char login[16];
    if (!isalpha((unsigned char)argv[1][0]) || !isalpha((unsigned char)argv[2][0])) {
        fprintf(stderr, "login: a name needs a letter\n");
        return 2;
    }
    login[0] = (char)tolower((unsigned char)argv[1][0]);
    size_t n = strlen(argv[2]);
    if (n > 7) {
        n = 7;
    }
    for (size_t i = 0; i < n; i++) {
        login[1 + i] = (char)tolower((unsigned char)argv[2][i]);
    }
    login[1 + n] = '\0';
    printf("%s\n", login);
    return 0;
}
