name = input().strip()
print(f"Hello, {name}!")
