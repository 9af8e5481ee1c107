# Fails on a one-word name: there is no second word.
words = input().split()
print(f"Hello, {words[0]} {words[1]}!" if len(words) > 1 else f"Hello, {words[1]}!")
