#include <cstdio>
int main() {
    int n; if (std::scanf("%d", &n) != 1) return 1;
    double s = 0;
    for (int i = 0; i < n; ++i) { long long x; std::scanf("%lld", &x); s += x; }
    std::printf("%.10f\n", s / n);
}
