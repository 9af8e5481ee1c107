# Guesses 1, 2, 3, …: out of guesses for any number past 10.
for g in range(1, 1001):
    print(g, flush=True)
    if input().strip() == "correct":
        break
