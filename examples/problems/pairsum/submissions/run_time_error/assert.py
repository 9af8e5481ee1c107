n = int(input())
assert n % 2 == 0, "odd n"
print(n // 2, n // 2)
