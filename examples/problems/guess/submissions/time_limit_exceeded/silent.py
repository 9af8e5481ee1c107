# Waits for the validator to speak first: both wait forever.
input()
