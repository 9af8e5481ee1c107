#include <ctype.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: login FIRST LAST\n");
        return 1;
    }
    char login[9];
    char last[8]; /* only seven letters are used */
    strcpy(last, argv[2]);
    int n = 0;
    for (int i = 0; argv[1][i] != '\0'; i++) {
        if (isalpha((unsigned char)argv[1][i])) {
            login[n++] = tolower((unsigned char)argv[1][i]);
            break;
        }
    }
    for (int i = 0; n > 0 && last[i] != '\0' && n < 8; i++) {
        if (isalpha((unsigned char)last[i])) {
            login[n++] = tolower((unsigned char)last[i]);
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
