# n // 2 twice: wrong for odd n.
n = int(input())
print(n // 2, n // 2)
