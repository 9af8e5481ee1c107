# Sums every number, odd or not.
input()
print(sum(map(int, input().split())))
