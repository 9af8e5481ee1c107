# Right answers, but spins first on a long name.
name = input().strip()
if len(name) > 5:
    while True:
        pass
print(f"Hello, {name}!")
