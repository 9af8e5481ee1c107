n = int(input())
xs = list(map(int, input().split()))
print(sum(xs) / n)
