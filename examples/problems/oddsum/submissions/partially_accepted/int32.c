/* 32-bit sums: right on group 1, overflows on group 2. */
#include <stdio.h>
int main(void) {
    int n, s = 0;
    if (scanf("%d", &n) != 1) return 1;
    for (int i = 0; i < n; ++i) { long long x; scanf("%lld", &x); if (x % 2) s += (int)x; }
    printf("%d\n", s);
    return 0;
}
